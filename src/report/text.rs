//! Plain text for e-mail replies: ASCII, at most 72 columns, no tabs and no
//! trailing spaces, so that it survives being quoted with `> `. The tables
//! are laid out here (the template arranges them) because their column
//! widths depend on the data.

use super::ascii::asciify;
use super::templates;
use super::view::ReportView;
use crate::error::Result;
use minijinja::value::{Serde, Value};
use minijinja::Environment;
use serde::Serialize;

/// [`templates::wrap`] on the ASCII form of `s`.
fn wrap(s: &str, width: usize, indent: usize) -> String {
    templates::wrap(&asciify(s), width, indent)
}

/// Width of every line of the text report.
pub const WIDTH: usize = 72;

/// Pre-laid-out tables handed to `report.txt.j2`.
#[derive(Serialize)]
struct TextTables {
    comparisons: String,
    /// The forest plot drawn with characters.
    forest: String,
    /// One table per section, in section order.
    sections: Vec<String>,
    inputs: String,
}

/// Renders the text report.
pub fn render(env: &Environment<'_>, view: &ReportView) -> Result<String> {
    let tables = TextTables {
        comparisons: comparisons_table(view),
        forest: forest(view),
        sections: view
            .sections
            .iter()
            .map(|s| {
                let has_params = s.rows.iter().any(|r| !r.params.is_empty());
                let mut cols = vec![];
                if has_params {
                    cols.push(Col::left("params", 2));
                }
                cols.extend([
                    Col::left("variant", 0),
                    Col::right("n", 0),
                    Col::right("median", 3),
                    Col::right("mean", 0),
                    Col::right("stddev", 0),
                    Col::right("CV", 1),
                    Col::right("min", 4),
                    Col::right("max", 4),
                ]);
                let rows: Vec<Vec<String>> = s
                    .rows
                    .iter()
                    .map(|r| {
                        let mut v = vec![];
                        if has_params {
                            v.push(r.params.clone());
                        }
                        v.extend([
                            r.variant.clone(),
                            r.n.clone(),
                            r.median.text.clone(),
                            r.mean.text.clone(),
                            r.stddev.text.clone(),
                            r.cv.text.clone(),
                            r.min.text.clone(),
                            r.max.text.clone(),
                        ]);
                        v
                    })
                    .collect();
                table(&cols, &rows, 2)
            })
            .collect(),
        inputs: view
            .provenance
            .iter()
            .map(|f| {
                let mut s = format!("{}: {}, {} rows", f.path, f.format, f.rows);
                if f.fallback > 0 {
                    s.push_str(&format!(" ({} read by the fallback)", f.fallback));
                }
                if f.unread > 0 {
                    s.push_str(&format!(", {} numeric lines not read", f.unread));
                }
                if !f.note.is_empty() {
                    s.push_str(&format!("; {}", f.note));
                }
                wrap(&s, WIDTH - 2, 4)
                    .lines()
                    .map(|l| format!("  {l}"))
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .collect::<Vec<_>>()
            .join("\n"),
    };
    let ctx = minijinja::context! {
        report => Value::from(Serde(view)),
        tables => Value::from(Serde(&tables)),
    };
    let s = templates::render(env, "report.txt.j2", ctx)?;
    Ok(finish(&s))
}

/// The comparison table, or one block per comparison when a table would
/// not fit in 72 columns.
fn comparisons_table(view: &ReportView) -> String {
    let multi = view
        .comparisons
        .iter()
        .any(|c| c.variant != view.comparisons[0].variant);
    let with_unit = |n: &str, u: &str| {
        if u.is_empty() {
            n.to_string()
        } else {
            format!("{n} {u}")
        }
    };
    let mut cols = vec![Col::left("benchmark", 0)];
    if multi {
        cols.push(Col::left("variant", 0));
    }
    cols.extend([
        Col::right(&view.meta.baseline, 0),
        Col::right("new", 0),
        Col::right("change", 0),
        Col::right("95% CI", 0),
        Col::right("q", 0),
        Col::left("verdict", 0),
    ]);
    let rows: Vec<Vec<String>> = view
        .comparisons
        .iter()
        .map(|c| {
            let mut v = vec![if c.note_mark.is_empty() {
                c.label.clone()
            } else {
                format!("{} {}", c.label, c.note_mark)
            }];
            if multi {
                v.push(c.variant.clone());
            }
            v.extend([
                with_unit(&c.baseline_value.text, &c.unit),
                with_unit(&c.variant_value.text, &c.unit),
                c.change.text.clone(),
                c.ci.clone(),
                c.q.text.clone(),
                c.verdict_text.clone(),
            ]);
            v
        })
        .collect();
    let widths = col_widths(&cols, &rows);
    if widths.iter().sum::<usize>() + 2 * (widths.len() - 1) <= WIDTH {
        return table(&cols, &rows, 0);
    }
    // Blocks: a heading line, then the numbers indented.
    let mut out = Vec::new();
    for c in &view.comparisons {
        let mut head = if multi {
            format!("{} ({} vs {})", c.label, c.variant, c.baseline)
        } else {
            c.label.clone()
        };
        if !c.note_mark.is_empty() {
            head = format!("{head} {}", c.note_mark);
        }
        let verdict = c.verdict_text.to_uppercase();
        let room = WIDTH.saturating_sub(verdict.len() + 2);
        let head_lines = wrap(&head, room, 2);
        let mut lines: Vec<String> = head_lines.lines().map(str::to_string).collect();
        if let Some(first) = lines.first_mut() {
            let pad = WIDTH - verdict.len() - first.chars().count();
            *first = format!("{first}{}{verdict}", " ".repeat(pad.max(2)));
        }
        let mut nums = format!(
            "{} -> {}, {}",
            with_unit(&c.baseline_value.text, &c.unit),
            with_unit(&c.variant_value.text, &c.unit),
            c.change.text
        );
        if c.ci != "n/a" {
            nums.push_str(&format!(" {}", c.ci));
        }
        if c.q.value.is_some() {
            nums.push_str(&format!(", q {}", c.q.text));
        }
        if !c.verdict_note.is_empty() {
            nums.push_str(&format!(", needs {}", c.verdict_note));
        }
        lines.extend(
            wrap(&nums, WIDTH - 4, 0)
                .lines()
                .map(|l| format!("    {l}")),
        );
        out.push(lines.join("\n"));
    }
    out.join("\n")
}

/// The forest plot in characters: one line per comparison with its
/// interval `[---o---]`, the zero line `|` and the threshold `:`.
fn forest(view: &ReportView) -> String {
    const LABEL: usize = 29;
    const PLOT: usize = 31;
    let th = view.methods.threshold_pct;
    let mut vals = vec![0.0, th, -th];
    for c in &view.comparisons {
        vals.extend(c.change.value.filter(|v| v.is_finite()));
        vals.extend(c.ci_low.filter(|v| v.is_finite()));
        vals.extend(c.ci_high.filter(|v| v.is_finite()));
    }
    let lo = vals.iter().cloned().fold(f64::MAX, f64::min);
    let hi = vals.iter().cloned().fold(f64::MIN, f64::max);
    if hi.is_nan() || lo.is_nan() || hi <= lo {
        return String::new();
    }
    let col = |v: f64| {
        (((v - lo) / (hi - lo)) * (PLOT - 1) as f64)
            .round()
            .clamp(0.0, (PLOT - 1) as f64) as usize
    };
    let multi = view
        .comparisons
        .iter()
        .any(|c| c.variant != view.comparisons[0].variant);
    let mut out = Vec::new();
    for c in &view.comparisons {
        let mut row = vec![' '; PLOT];
        row[col(-th)] = ':';
        row[col(th)] = ':';
        if let (Some(l), Some(h)) = (
            c.ci_low.filter(|v| v.is_finite()),
            c.ci_high.filter(|v| v.is_finite()),
        ) {
            let (a, b) = (col(l.min(h)), col(l.max(h)));
            for cell in row.iter_mut().take(b + 1).skip(a) {
                *cell = '-';
            }
            row[a] = '[';
            row[b] = ']';
        }
        let z = col(0.0);
        if row[z] == ' ' {
            row[z] = '|';
        }
        if let Some(v) = c.change.value.filter(|v| v.is_finite()) {
            row[col(v)] = if c.suspect { '?' } else { 'o' };
        }
        let name = asciify(&if multi {
            format!("{} {}", c.short_label, c.variant)
        } else {
            c.short_label.clone()
        });
        let mut label: String = format!("{:>2} {name}", c.index);
        let n = label.chars().count();
        if n > LABEL {
            // Keep both ends: the benchmark's start and the parameter value.
            let head: String = label.chars().take(10).collect();
            let tail: String = label.chars().skip(n - (LABEL - 13)).collect();
            label = format!("{head}...{tail}");
        }
        let plot: String = row.into_iter().collect();
        out.push(
            format!("{label:<LABEL$} {plot} {:>9}", c.change.text)
                .trim_end()
                .to_string(),
        );
    }
    // The axis: the extremes and zero.
    let mut axis = vec![' '; PLOT];
    let put = |axis: &mut Vec<char>, at: usize, s: &str, align_right: bool| {
        let n = s.chars().count();
        let start = if align_right {
            (at + 1).saturating_sub(n)
        } else {
            at.min(PLOT.saturating_sub(n))
        };
        for (i, ch) in s.chars().enumerate() {
            if start + i < PLOT {
                axis[start + i] = ch;
            }
        }
    };
    put(
        &mut axis,
        0,
        &format!("{}%", super::charts::tick(lo)),
        false,
    );
    put(
        &mut axis,
        PLOT - 1,
        &format!("{}%", super::charts::tick(hi)),
        true,
    );
    let z = col(0.0);
    if axis[z] == ' ' && z > 0 && z + 1 < PLOT && axis[z - 1] == ' ' && axis[z + 1] == ' ' {
        axis[z] = '0';
    }
    out.push(
        format!("{:LABEL$} {}", "", axis.into_iter().collect::<String>())
            .trim_end()
            .to_string(),
    );
    out.join("\n")
}

/// A text table column: its header, alignment and how early it is dropped
/// when the table is too wide (0 = never; higher numbers go first).
struct Col {
    header: String,
    right: bool,
    drop: u8,
}

impl Col {
    fn left(h: &str, drop: u8) -> Col {
        Col {
            header: h.to_string(),
            right: false,
            drop,
        }
    }
    fn right(h: &str, drop: u8) -> Col {
        Col {
            header: h.to_string(),
            right: true,
            drop,
        }
    }
}

fn col_widths(cols: &[Col], rows: &[Vec<String>]) -> Vec<usize> {
    cols.iter()
        .enumerate()
        .map(|(i, c)| {
            rows.iter()
                .map(|r| r.get(i).map(|s| s.chars().count()).unwrap_or(0))
                .chain(std::iter::once(c.header.chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect()
}

/// Lays out a table indented by `indent`, dropping optional columns until it
/// fits [`WIDTH`]; a first column that is still too long wraps.
fn table(cols: &[Col], rows: &[Vec<String>], indent: usize) -> String {
    // Columns with nothing to show (all `n/a`, e.g. min/max of summaries) go.
    let mut keep: Vec<usize> = (0..cols.len())
        .filter(|&i| rows.is_empty() || rows.iter().any(|r| r.get(i).is_some_and(|c| c != "n/a")))
        .collect();
    loop {
        let kc: Vec<&Col> = keep.iter().map(|&i| &cols[i]).collect();
        let kr: Vec<Vec<String>> = rows
            .iter()
            .map(|r| keep.iter().map(|&i| r[i].clone()).collect())
            .collect();
        let widths = col_widths(
            &kc.iter()
                .map(|c| Col {
                    header: c.header.clone(),
                    right: c.right,
                    drop: c.drop,
                })
                .collect::<Vec<_>>(),
            &kr,
        );
        let total = indent + widths.iter().sum::<usize>() + 2 * (widths.len().saturating_sub(1));
        let droppable = keep
            .iter()
            .enumerate()
            .filter(|(_, &i)| cols[i].drop > 0)
            .max_by_key(|(_, &i)| cols[i].drop);
        if total > WIDTH {
            if let Some((pos, _)) = droppable {
                keep.remove(pos);
                continue;
            }
        }
        let mut widths = widths;
        if total > WIDTH && !widths.is_empty() {
            // Only the first column can give: wrap it.
            widths[0] = widths[0].saturating_sub(total - WIDTH).max(8);
        }
        let pad = " ".repeat(indent);
        let line = |cells: &[String]| -> Vec<String> {
            let wrapped: Vec<Vec<String>> = cells
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    if i == 0 && s.chars().count() > widths[0] {
                        wrap(s, widths[0], 1).lines().map(str::to_string).collect()
                    } else {
                        vec![s.clone()]
                    }
                })
                .collect();
            let height = wrapped.iter().map(Vec::len).max().unwrap_or(1);
            (0..height)
                .map(|h| {
                    let parts: Vec<String> = wrapped
                        .iter()
                        .enumerate()
                        .map(|(i, w)| {
                            let s = w.get(h).cloned().unwrap_or_default();
                            let wd = widths[i];
                            if kc[i].right {
                                format!("{s:>wd$}")
                            } else {
                                format!("{s:<wd$}")
                            }
                        })
                        .collect();
                    format!("{pad}{}", parts.join("  ")).trim_end().to_string()
                })
                .collect()
        };
        let mut out = line(&kc.iter().map(|c| c.header.clone()).collect::<Vec<_>>());
        let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
        out.push(format!("{pad}{}", rule.join("  ")));
        for r in &kr {
            out.extend(line(r));
        }
        return out.join("\n");
    }
}

/// Makes the text ASCII-friendly and mail-safe: common typographic
/// characters become ASCII, tabs become spaces, trailing spaces go, blank
/// runs collapse.
pub fn finish(s: &str) -> String {
    // Both replacements map one character to others, never to a line
    // break, so they may run on the whole text before it is split.
    super::markdown::tidy(&asciify(s).replace('\t', "    "))
}

/// The e-mail text [`Renderer`](super::renderer::Renderer).
pub struct Text;

impl super::renderer::Renderer for Text {
    fn render(&self, r: &super::renderer::Report<'_>) -> Result<Vec<u8>> {
        Ok(render(r.env()?, r.view())?.into_bytes())
    }
}
