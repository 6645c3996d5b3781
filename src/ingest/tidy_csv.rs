//! Generic CSV/TSV whose header names the tidy columns (`source, line,
//! benchmark, params, variant, metric, unit, stat, value, run`), so that
//! `patchperf ingest --out x.csv` output reads back unchanged; other headers
//! are mapped with `--map column=field` (see [`FieldMap`]).

use super::numbers::parse_number;
use super::structured::{raw_lines, split_csv};
use super::{Confidence, Format, Parsed, Source};
use crate::error::{Error, Result};
use crate::model::{canonical_params, Observation, Stat, COLUMNS};

/// Where an input column goes: a tidy column, one param, or a value column
/// with its own metric (for wide tables such as `benchmark,real,user,sys`).
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// One of [`COLUMNS`].
    Column(&'static str),
    /// `params.<key>`: the cell becomes `key=cell` in params.
    Param(String),
    /// `value.<metric>[:<unit>]`: the cell is a value of that metric.
    Value(String, Option<String>),
}

/// The `--map column=field` mapping from input columns to tidy fields.
/// Columns named like a tidy column map to it without being listed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FieldMap {
    entries: Vec<(String, Target)>,
}

impl FieldMap {
    /// Parses `column=field` specs; field is a tidy column name,
    /// `params.KEY` or `value.METRIC` (`value.METRIC:UNIT` with its unit).
    pub fn parse(specs: &[String]) -> Result<FieldMap> {
        let mut entries = Vec::new();
        for spec in specs.iter().flat_map(|s| s.split(',')) {
            let spec = spec.trim();
            if spec.is_empty() {
                continue;
            }
            let Some((col, field)) = spec.split_once('=') else {
                return Err(Error::Usage(format!(
                    "--map `{spec}`: expected COLUMN=FIELD"
                )));
            };
            let field = field.trim();
            let target = if let Some(k) = field
                .strip_prefix("params.")
                .or_else(|| field.strip_prefix("param."))
            {
                Target::Param(k.to_string())
            } else if let Some(m) = field.strip_prefix("value.") {
                match m.split_once(':') {
                    Some((m, u)) => Target::Value(m.to_string(), Some(u.to_string())),
                    None => Target::Value(m.to_string(), None),
                }
            } else if let Some(c) = COLUMNS.iter().find(|c| **c == field) {
                Target::Column(c)
            } else {
                return Err(Error::Usage(format!(
                    "--map `{spec}`: unknown field `{field}` (use one of {}, params.KEY or value.METRIC[:UNIT])",
                    COLUMNS.join(", ")
                )));
            };
            entries.push((col.trim().to_string(), target));
        }
        Ok(FieldMap { entries })
    }

    /// True when no mapping was given.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The target of an input column: its mapping, or the tidy column of
    /// the same name.
    pub(crate) fn target(&self, column: &str) -> Option<Target> {
        let c = column.trim();
        if let Some((_, t)) = self.entries.iter().find(|(k, _)| k == c) {
            return Some(t.clone());
        }
        COLUMNS.iter().find(|k| **k == c).map(|k| Target::Column(k))
    }

    /// True when every mapped input column is among `columns`.
    pub(crate) fn all_present(&self, columns: &[String]) -> bool {
        self.entries
            .iter()
            .all(|(k, _)| columns.iter().any(|c| c.trim() == k))
    }

    /// True when `columns` (after mapping) give at least a benchmark and a value.
    pub(crate) fn usable(&self, columns: &[String]) -> bool {
        let targets: Vec<Target> = columns.iter().filter_map(|c| self.target(c)).collect();
        let has_value = targets
            .iter()
            .any(|t| matches!(t, Target::Column("value") | Target::Value(..)));
        has_value && targets.contains(&Target::Column("benchmark"))
    }
}

/// One input record as (column, cell text) pairs, turned into observations.
/// `line` is the record's line (0 for JSON documents).
pub(crate) fn record_to_obs(
    src: &Source,
    map: &FieldMap,
    record: &[(String, String)],
    line: u32,
    at: &str,
) -> Result<Vec<Observation>> {
    let err = |m: String| src.error((line > 0).then_some(line), format!("{at}: {m}"));
    let mut o = Observation::new("", "value", "", Stat::Sample, f64::NAN);
    let mut params: Vec<(String, String)> = Vec::new();
    // A value, and for `value.METRIC[:UNIT]` columns the metric and unit it carries.
    type Labelled = (Option<(String, Option<String>)>, f64);
    let mut values: Vec<Labelled> = Vec::new();
    for (col, cell) in record {
        let Some(t) = map.target(col) else { continue };
        let cell = cell.trim();
        let number = |what: &str| -> Result<f64> {
            parse_number(cell)
                .or_else(|| cell.parse::<f64>().ok().filter(|v| v.is_finite()))
                .ok_or_else(|| err(format!("column `{col}` ({what}): `{cell}` is not a number")))
        };
        match t {
            Target::Column("value") => values.push((None, number("value")?)),
            Target::Value(metric, unit) => {
                if !cell.is_empty() {
                    values.push((Some((metric, unit)), number("value")?));
                }
            }
            Target::Param(k) => params.push((k, cell.to_string())),
            Target::Column("params") => {
                for kv in cell.split(',').filter(|s| !s.trim().is_empty()) {
                    match kv.split_once('=') {
                        Some((k, v)) => params.push((k.to_string(), v.to_string())),
                        None => {
                            return Err(err(format!("params `{cell}`: expected key=value pairs")))
                        }
                    }
                }
            }
            Target::Column("source") => o.source = cell.into(),
            Target::Column("line") => {
                o.line = if cell.is_empty() {
                    0
                } else {
                    cell.parse()
                        .map_err(|_| err(format!("line `{cell}` is not a line number")))?
                }
            }
            Target::Column("benchmark") => o.benchmark = cell.into(),
            Target::Column("variant") => o.variant = cell.into(),
            Target::Column("metric") => o.metric = cell.into(),
            Target::Column("unit") => o.unit = crate::model::Unit::normalize_spelling(cell),
            Target::Column("stat") => {
                if !cell.is_empty() {
                    o.stat = cell.parse().map_err(|e: String| err(e))?;
                }
            }
            Target::Column("run") => {
                o.run = if cell.is_empty() || cell == "null" {
                    None
                } else {
                    Some(
                        cell.parse()
                            .map_err(|_| err(format!("run `{cell}` is not a run index")))?,
                    )
                }
            }
            Target::Column(_) => {}
        }
    }
    if o.benchmark.is_empty() {
        return Err(err("no benchmark name".into()));
    }
    if values.is_empty() {
        return Err(err("no value".into()));
    }
    o.params = canonical_params(&params).into();
    // Stored lines of a re-read table point into the original input; keep them.
    if o.source.is_empty() {
        o.line = line;
    }
    Ok(values
        .into_iter()
        .map(|(metric, v)| {
            let mut x = o.clone();
            if let Some((m, u)) = metric {
                x.metric = m.into();
                if let Some(u) = u {
                    x.unit = crate::model::Unit::normalize_spelling(&u);
                }
            }
            x.value = v;
            x
        })
        .collect())
}

/// The generic tidy CSV/TSV importer, optionally with a column mapping.
pub struct TidyCsv {
    map: FieldMap,
}

impl TidyCsv {
    /// The importer of files whose header names the tidy columns.
    pub fn new() -> TidyCsv {
        TidyCsv {
            map: FieldMap::default(),
        }
    }

    /// The importer for a `--map` mapping.
    pub fn with_map(map: FieldMap) -> TidyCsv {
        TidyCsv { map }
    }
}

impl Default for TidyCsv {
    fn default() -> Self {
        TidyCsv::new()
    }
}

fn separator(header: &str) -> char {
    if header.contains('\t') && !header.contains(',') {
        '\t'
    } else {
        ','
    }
}

impl Format for TidyCsv {
    fn name(&self) -> &'static str {
        "tidy-csv"
    }

    fn description(&self) -> &'static str {
        "CSV/TSV with a header naming the tidy columns (benchmark, value, metric, stat …; ingest --out output), or mapped with --map col=field"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if src.looks_like_json() {
            return 0;
        }
        let Some((_, header)) = raw_lines(src).next() else {
            return 0;
        };
        let header = header.trim_start_matches('\u{feff}');
        let cols = split_csv(header, separator(header));
        if !self.map.is_empty() {
            return if self.map.all_present(&cols) && self.map.usable(&cols) {
                99
            } else {
                0
            };
        }
        if cols.iter().map(|c| c.trim()).eq(COLUMNS.iter().copied()) {
            return 95;
        }
        let tidy = cols.iter().filter(|c| COLUMNS.contains(&c.trim())).count();
        if self.map.usable(&cols) && tidy >= 3 {
            80
        } else {
            0
        }
    }

    fn parse(&self, src: &Source) -> Result<Vec<Observation>> {
        self.parse_accounted(src).map(|p| p.observations)
    }

    /// The header and every row are `consumed`: a re-read table keeps the
    /// source and line its rows came from, so their lines say nothing about
    /// this file.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut lines = raw_lines(src);
        let Some((hn, header)) = lines.next() else {
            return Err(src.error(None, "empty table"));
        };
        let header = header.trim_start_matches('\u{feff}');
        let sep = separator(header);
        let cols = split_csv(header, sep);
        if !self.map.usable(&cols) {
            return Err(src.error(
                Some(hn),
                "the header names no benchmark and value columns; map them with --map COLUMN=benchmark --map COLUMN=value",
            ));
        }
        let mut out = Vec::new();
        let mut consumed = vec![hn];
        for (n, l) in lines {
            consumed.push(n);
            let cells = split_csv(l, sep);
            if cells.len() != cols.len() {
                return Err(src.error(
                    Some(n),
                    format!(
                        "expected {} fields like the header, found {}",
                        cols.len(),
                        cells.len()
                    ),
                ));
            }
            let record: Vec<(String, String)> = cols.iter().cloned().zip(cells).collect();
            out.extend(record_to_obs(src, &self.map, &record, n, "row")?);
        }
        Ok(Parsed {
            observations: out,
            consumed,
            skipped: Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn re_read_rows_are_consumed_though_their_lines_point_elsewhere() {
        let text = "source,line,benchmark,params,variant,metric,unit,stat,value,run\n\
                    a.txt,3,hackbench,,base,time,s,sample,0.46,0\n\
                    a.txt,9,hackbench,,base,time,s,sample,0.47,1\n";
        let p = TidyCsv::new()
            .parse_accounted(&Source::from_text("t.csv", text))
            .unwrap();
        assert_eq!(p.consumed, vec![1, 2, 3]);
        let lines: Vec<u32> = p.observations.iter().map(|o| o.line).collect();
        assert_eq!(lines, vec![3, 9]);
    }
}
