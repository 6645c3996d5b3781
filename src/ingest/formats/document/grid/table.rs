//! A run of data rows read as a table: digit groups joined, parameter
//! columns found, header cells matched to the values, orientation decided,
//! and the observations made; and tables underlined column by column.

use super::*;

/// One run of data rows and what names them.
#[derive(Clone, Copy)]
pub(super) struct Grid<'a> {
    /// Names of the builds a legend above lists, in column order.
    pub(super) legend: Option<&'a [String]>,
    pub(super) header: Option<&'a str>,
    /// The line over the header when the header is written over two lines.
    pub(super) upper: Option<&'a str>,
    pub(super) title: &'a str,
    /// The nearest heading above naming a build (`Before:`, `v2.6.23:`).
    pub(super) section: &'a str,
    pub(super) stem: &'a str,
    pub(super) path: &'a str,
}

/// A row of a grid, its cells grouped: (value-or-missing token, spreads after it).
pub(super) struct Row<'t> {
    pub(super) line: u32,
    pub(super) label: String,
    pub(super) cells: Vec<(&'t Tok, Vec<&'t Tok>)>,
}

pub(super) fn group(values: &[Tok]) -> Vec<(&Tok, Vec<&Tok>)> {
    let mut cells: Vec<(&Tok, Vec<&Tok>)> = Vec::new();
    for t in values {
        match t.kind {
            TokKind::Spread if !cells.is_empty() => {
                if let Some(c) = cells.last_mut() {
                    c.1.push(t)
                }
            }
            TokKind::Marker | TokKind::Word => {}
            _ => cells.push((t, Vec::new())),
        }
    }
    cells
}

impl Grid<'_> {
    pub(super) fn read(&self, raw: &[(u32, &[Tok], &[Tok])], out: &mut Vec<Observation>) {
        let (hcells, positioned) = match (self.upper, self.header) {
            (Some(u), Some(h)) => header::stacked(u, h)
                .map(|c| (c, true))
                .unwrap_or_else(|| header::cells(h)),
            _ => self.header.map(header::cells).unwrap_or_default(),
        };
        // Digit groups a space apart are one number where that gives the
        // row the header's count of columns.
        let merged: Vec<Vec<Tok>> = raw.iter().map(|(_, _, v)| merge_groups(v)).collect();
        // With a header: where the plain count is more than it heads and the
        // joined one is not. Without: where the joined counts agree from
        // row to row and the plain ones do not.
        let h = hcells.len();
        let fits = |n: usize| n <= h;
        let agree = |v: Vec<usize>| v.windows(2).all(|w| w[0] == w[1]);
        let joined_agree = agree(merged.iter().map(|m| group(m).len()).collect());
        let plain_agree = agree(raw.iter().map(|(_, _, v)| group(v).len()).collect());
        let mut rows: Vec<Row> = Vec::with_capacity(raw.len());
        for (k, (line, label, values)) in raw.iter().enumerate() {
            let plain = group(values);
            let joined = group(&merged[k]);
            let lead = usize::from(!label.is_empty());
            let use_merged = joined.len() != plain.len()
                && if h > 0 {
                    !fits(plain.len() + lead) && fits(joined.len() + lead)
                } else {
                    joined_agree && !plain_agree
                };
            let cells = if use_merged { joined } else { plain };
            rows.push(Row {
                line: *line,
                label: words(label),
                cells,
            });
        }
        // A parameter sweep: settings heading the rows (`2 CPUs`) and the
        // columns (`number of groups 50 100 150 200`); the text above is
        // then no header but what the values are (`times in seconds`).
        let mut headings = sweep::row_headings(&mut rows);
        let sweep = sweep::key_row(&rows);
        let (hcells, positioned) = match &sweep {
            Some(_) => {
                rows.remove(0);
                headings.remove(0);
                (Vec::new(), false)
            }
            None => (hcells, positioned),
        };
        // The text above a sweep is its title when nothing else is.
        if let (Some(_), Some(h), true) = (&sweep, self.header, self.title.is_empty()) {
            let retitled = Grid {
                header: None,
                upper: None,
                title: h,
                ..*self
            };
            return retitled.read(raw, out);
        }
        let sweep_unit = sweep
            .as_ref()
            .and(self.header.or(Some(self.title)))
            .and_then(sweep::prose_unit);
        let k = rows.iter().map(|r| r.cells.len()).max().unwrap_or(0);
        if k == 0 {
            return;
        }
        let full_spans: Option<Vec<(usize, usize)>> = rows
            .iter()
            .find(|r| r.cells.len() == k)
            .map(|r| r.cells.iter().map(|c| (c.0.col, c.0.end)).collect());
        let hcells = match full_spans.as_deref() {
            Some(spans) if positioned && hcells.len() < k => {
                header::per_word(&hcells, spans).unwrap_or(hcells)
            }
            _ => hcells,
        };
        // Columns of integers down the side of unlabelled rows are their
        // parameters (`BS(KB)` over 1, 2, 4 …; `Gb Rep Threads` over
        // `32 3 1`), named by the header cells above them.
        let row_cells: Vec<&[_]> = rows.iter().map(|r| r.cells.as_slice()).collect();
        let int_col = |j: usize| super::short_rows::whole_column(&row_cells, k, j);
        // A change after the values (`1  805603  814942  (+1%)`) is a
        // column the header does not name: the header names the rest.
        let value_cols: Vec<usize> = rows.iter().find(|r| r.cells.len() == k).map_or_else(
            || (0..k).collect(),
            |r| {
                (0..k)
                    .filter(|&j| r.cells[j].0.kind != TokKind::Change)
                    .collect()
            },
        );
        let unchanged = value_cols.len();
        let named_all = hcells.len() == k || (unchanged < k && hcells.len() == unchanged);
        let mut params = 0;
        if rows.iter().all(|r| r.label.is_empty()) && k >= 2 {
            // Settings are written without decimals (`1`, `4k:`, `1.`):
            // `1.00` is a measured ratio even where it happens to be whole.
            let no_decimals = |j: usize| {
                rows.iter().all(|r| {
                    r.cells.get(j).is_none_or(|c| {
                        !c.0.text
                            .as_bytes()
                            .windows(2)
                            .any(|w| w[0] == b'.' && w[1].is_ascii_digit())
                    })
                })
            };
            while params + 1 < k && int_col(params) && no_decimals(params) {
                params += 1;
            }
            let rising = rows
                .windows(2)
                .all(|w| w[0].cells[0].0.value < w[1].cells[0].0.value);
            // Whole numbers in every column of values (`vmstat`): nothing
            // tells the keys from the counts but a first column that rises.
            let all_int = value_cols.iter().all(|&j| int_col(j));
            if !named_all || all_int {
                params = usize::from(params >= 1 && rising);
            }
        }
        let param_names: Vec<String> = (0..params)
            .map(|j| {
                if named_all {
                    super::super::labels::key_name(&hcells[j].text)
                } else {
                    "row".to_string()
                }
            })
            .collect();
        let mut param_text: Vec<String> = Vec::new();
        for r in &mut rows {
            if params > 0 {
                let p: Vec<String> = r.cells[..params]
                    .iter()
                    .zip(&param_names)
                    .map(|(c, n)| format!("{n}={}", c.0.text))
                    .collect();
                r.label = r.cells[..params]
                    .iter()
                    .map(|c| c.0.text.as_str())
                    .collect::<Vec<_>>()
                    .join(" ");
                param_text.push(p.join(","));
                r.cells.drain(..params);
            } else {
                param_text.push(String::new());
            }
        }
        let k = k - params;
        let head_cells: &[header::HCell] = if params > 0 && named_all {
            &hcells[params..]
        } else {
            &hcells
        };
        let labelled = params == 0 && rows.iter().any(|r| !r.label.is_empty());
        let spans: Option<Vec<(usize, usize)>> = rows
            .iter()
            .find(|r| r.cells.len() == k)
            .map(|r| r.cells.iter().map(|c| (c.0.col, c.0.end)).collect());
        // A line whose words all end before any value starts heads the
        // row labels at most (`MMTests Statistics: vmstat` over `Page Ins
        // 5426648  2840348`): it names no column, it titles the table.
        if let Some(h) = self
            .header
            .filter(|_| labelled && self.upper.is_none() && over_labels_only(head_cells, &rows))
        {
            let title = if self.title.is_empty() { h } else { self.title };
            let retitled = Grid {
                header: None,
                upper: None,
                title,
                ..*self
            };
            return retitled.read(raw, out);
        }
        // A profile perf printed without its header names its own columns.
        let profile = if head_cells.is_empty() {
            let mut labels: Vec<String> = rows.iter().map(|r| r.label.clone()).collect();
            let cells: Vec<Vec<&Tok>> = rows
                .iter()
                .map(|r| r.cells.iter().map(|c| c.0).collect())
                .collect();
            let names = super::perf_rows::name_columns(&mut labels, &cells);
            if names.is_some() {
                for (r, l) in rows.iter_mut().zip(labels) {
                    r.label = l;
                }
            }
            names
        } else {
            None
        };
        let (cols, label_head) = header::column_labels(
            head_cells,
            positioned,
            spans.as_deref(),
            k,
            labelled || (params > 0 && head_cells.len() == hcells.len()),
        );
        let cols = profile.unwrap_or(cols);
        // Without a header, values each followed by a change against the
        // first (`32.99 ( 0.00%)  35.16 ( 6.18%)`) are builds side by side,
        // not runs of one: each value column is a variant of its own.
        let side_by_side = head_cells.is_empty()
            && rows.iter().any(|r| {
                r.cells.len() >= 4
                    && r.cells.len() % 2 == 0
                    && r.cells
                        .chunks(2)
                        .all(|p| p[0].0.kind == TokKind::Num && p[1].0.kind == TokKind::Change)
            });
        let value_cols = rows
            .iter()
            .map(|r| {
                r.cells
                    .iter()
                    .filter(|c| c.0.kind != TokKind::Change)
                    .count()
            })
            .max()
            .unwrap_or(0);
        // Labelled rows of several values under no header: the columns
        // are different things (builds or quantities) no line names.
        let unnamed = head_cells.is_empty() && labelled && value_cols >= 2;
        let by_unit = if unnamed && !side_by_side {
            let cells: Vec<Vec<&Tok>> = rows
                .iter()
                .map(|r| r.cells.iter().map(|c| c.0).collect())
                .collect();
            super::names::unit_named_columns(&cells, value_cols)
        } else {
            Vec::new()
        };
        let legend = self
            .legend
            .filter(|l| side_by_side && l.len() == value_cols);
        let rows_variant = labelled
            && params == 0
            && rows.iter().filter(|r| variant_like(&r.label)).count() * 2 >= rows.len().max(1);
        let cols_variant = cols.iter().filter(|c| variant_like(c)).count() * 2 > cols.len()
            || cols.iter().any(|c| variant_like(c)) && !rows_variant;
        let transposed = rows_variant && !cols_variant;
        // Builds down the side, no header, and values no runs of one
        // measurement: each column is its own, as under other row labels.
        let own_columns = transposed
            && unnamed
            && !side_by_side
            && super::spread_columns::different_quantities(rows.iter().map(|r| {
                r.cells
                    .iter()
                    .filter(|c| c.0.kind == TokKind::Num)
                    .map(|c| c.0.value)
                    .collect()
            }));
        let title_unit = unit_in(self.title)
            .or_else(|| label_head.as_deref().and_then(unit_in))
            .or(sweep_unit);
        for (ri, r) in rows.iter().enumerate() {
            // The value column each cell belongs to (a change, to the value before it).
            let mut value_col = 0usize;
            for (j, (tok, spreads)) in r.cells.iter().enumerate() {
                if j > 0 && tok.kind != TokKind::Change {
                    value_col += 1;
                }
                if tok.kind == TokKind::Missing {
                    continue;
                }
                // A row of fewer values than the others (a total under
                // its column) has each under the column it stands in.
                let at = match &spans {
                    Some(sp) if r.cells.len() < k => sp
                        .iter()
                        .position(|&(a, b)| tok.col < b && a < tok.end)
                        .unwrap_or(j),
                    _ => j,
                };
                let col = cols.get(at).map(String::as_str).unwrap_or("");
                let col_unit = unit_in(col);
                let unit = if !tok.unit.is_empty() {
                    tok.unit.to_string()
                } else {
                    col_unit
                        .clone()
                        .or_else(|| title_unit.clone())
                        .unwrap_or_default()
                };
                let (mut benchmark, mut prm, variant, metric) = if transposed {
                    let metric = match (col, unit.as_str()) {
                        ("", _) if own_columns => match by_unit.get(value_col) {
                            Some(Some(m)) => m.clone(),
                            _ => format!("column {}", value_col + 1),
                        },
                        ("", "") => "value".to_string(),
                        ("", u) => super::super::table::metric_from_unit(u),
                        (c, _) => c.to_string(),
                    };
                    (self.title_or_stem(), String::new(), r.label.clone(), metric)
                } else if cols_variant {
                    (
                        self.bench(&r.label),
                        String::new(),
                        col.to_string(),
                        "value".to_string(),
                    )
                } else {
                    // A column nothing names is told from the others by
                    // its number: its values are no samples of one series.
                    let numbered;
                    let m = match col {
                        "" if unnamed && !side_by_side => {
                            numbered = match by_unit.get(value_col) {
                                Some(Some(m)) => m.clone(),
                                _ => format!("column {}", value_col + 1),
                            };
                            numbered.as_str()
                        }
                        "" => "value",
                        c => c,
                    };
                    let named = legend.and_then(|l| l.get(value_col));
                    let variant = match (side_by_side, self.section) {
                        (false, section) => section.to_string(),
                        (true, _) if named.is_some() => named.cloned().unwrap_or_default(),
                        (true, "") => format!("column {}", value_col + 1),
                        (true, section) => format!("{section} column {}", value_col + 1),
                    };
                    (self.bench(&r.label), String::new(), variant, m.to_string())
                };
                if !param_text[ri].is_empty() {
                    benchmark = self.title_or_stem();
                    prm = param_text[ri].clone();
                }
                let setting = sweep
                    .as_ref()
                    .and_then(|s| s.values.get(j).map(|v| format!("{}={v}", s.name)));
                for p in [Some(&headings[ri]), setting.as_ref()]
                    .into_iter()
                    .flatten()
                {
                    if !p.is_empty() {
                        prm = if prm.is_empty() {
                            p.clone()
                        } else {
                            format!("{prm},{p}")
                        };
                    }
                }
                let stat = match tok.kind {
                    TokKind::Change => Stat::ChangePct,
                    _ => col_stat(col),
                };
                let unit = if stat == Stat::ChangePct {
                    "%".to_string()
                } else {
                    unit
                };
                out.push(self.obs(
                    &benchmark, &prm, &variant, &metric, &unit, stat, tok.value, r.line,
                ));
                for s in spreads {
                    let unit = if s.unit.is_empty() {
                        unit.clone()
                    } else {
                        s.unit.to_string()
                    };
                    out.push(self.obs(
                        &benchmark,
                        &prm,
                        &variant,
                        &metric,
                        &unit,
                        Stat::Stddev,
                        s.value,
                        r.line,
                    ));
                }
            }
        }
    }

    fn title_or_stem(&self) -> String {
        if self.title.is_empty() {
            self.stem.to_string()
        } else {
            self.title.to_string()
        }
    }

    /// A row's benchmark: its label under the table's title.
    fn bench(&self, label: &str) -> String {
        if label.is_empty() {
            self.title_or_stem()
        } else {
            super::super::titles::row_benchmark(self.title, label)
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn obs(
        &self,
        benchmark: &str,
        params: &str,
        variant: &str,
        metric: &str,
        unit: &str,
        stat: Stat,
        value: f64,
        line: u32,
    ) -> Observation {
        let mut o = Observation::new(benchmark, metric, unit, stat, value)
            .at_line(line)
            .with_variant(variant)
            .with_params_str(params);
        o.source = SmolStr::new(self.path);
        o
    }
}

/// The rows of a table underlined column by column.
pub(super) fn read_ruled(
    spans: &[(usize, usize)],
    head: &[&str],
    body: &[GLine],
    n: &Names,
    out: &mut Vec<Observation>,
) {
    let labels = ruled::header_labels(spans, head);
    let rows: Vec<(u32, Vec<Vec<Tok>>)> = body
        .iter()
        .map(|l| (l.number, ruled::cells(spans, l.text)))
        .collect();
    let is_value_cell = |c: &[Tok]| {
        c.first()
            .is_some_and(|t| matches!(t.kind, TokKind::Num | TokKind::Change))
    };
    let value_col: Vec<bool> = (0..spans.len())
        .map(|s| {
            let v = rows.iter().filter(|(_, c)| is_value_cell(&c[s])).count();
            v * 2 >= rows.len() && v > 0
        })
        .collect();
    // A column of sizes (`4k`, `128k`, `1M`, `1G`, in any order) under a
    // header naming a parameter (`Block Size (bs)`) says which setting a
    // row is: it names the row, it is no measurement.
    let size = |c: &[Tok]| match c {
        [t] => t.kind == TokKind::Num && sized(&t.text),
        _ => false,
    };
    let value_col: Vec<bool> = value_col
        .iter()
        .enumerate()
        .map(|(s, &v)| {
            let key = rows.len() >= 2
                && super::super::table::names_parameter(&labels[s])
                && rows.iter().all(|(_, c)| size(&c[s]));
            v && !key
        })
        .collect();
    let value_labels: Vec<&String> = labels
        .iter()
        .zip(&value_col)
        .filter(|(_, v)| **v)
        .map(|(l, _)| l)
        .collect();
    let cols_variant =
        value_labels.iter().filter(|l| variant_like(l)).count() * 2 > value_labels.len();
    for (line, cells) in &rows {
        let label = cells
            .iter()
            .zip(&value_col)
            .filter(|(_, v)| !**v)
            .map(|(c, _)| words(c))
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        let title = if n.title.is_empty() { n.stem } else { n.title };
        let benchmark = if label.is_empty() {
            title.to_string()
        } else {
            super::super::titles::row_benchmark(n.title, &label)
        };
        for (s, c) in cells.iter().enumerate() {
            if !value_col[s] || !is_value_cell(c) {
                continue;
            }
            let col = labels[s].as_str();
            let (variant, metric) = if cols_variant {
                (col, "value")
            } else {
                (n.section, if col.is_empty() { "value" } else { col })
            };
            let unit_of = |t: &Tok| {
                if t.unit.is_empty() {
                    unit_in(col).unwrap_or_default()
                } else {
                    t.unit.to_string()
                }
            };
            for t in c.iter().filter(|t| t.is_value()) {
                let stat = match t.kind {
                    TokKind::Change => Stat::ChangePct,
                    TokKind::Spread => Stat::Stddev,
                    _ => col_stat(col),
                };
                push(
                    out,
                    n.path,
                    &benchmark,
                    "",
                    variant,
                    metric,
                    &unit_of(t),
                    stat,
                    t.value,
                    *line,
                );
            }
        }
    }
}

/// A size as a setting is written: digits, then a scale letter or a
/// byte unit (`4k`, `128K`, `1M`, `10G`, `64KiB`), no decimal point.
fn sized(text: &str) -> bool {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let unit = &text[digits..];
    digits > 0
        && matches!(
            unit,
            "k" | "K"
                | "m"
                | "M"
                | "g"
                | "G"
                | "t"
                | "T"
                | "KB"
                | "MB"
                | "GB"
                | "KiB"
                | "MiB"
                | "GiB"
        )
}

/// Whether every header cell ends before the first value of any row
/// starts: the line sits over the row labels alone.
fn over_labels_only(cells: &[header::HCell], rows: &[Row]) -> bool {
    let first_value = rows
        .iter()
        .filter_map(|r| r.cells.first().map(|c| c.0.col))
        .min();
    first_value.is_some_and(|v| !cells.is_empty() && cells.iter().all(|c| c.end < v))
}
