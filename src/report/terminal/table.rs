//! One benchmark's table on the terminal: a row per metric and
//! comparison, with its change, interval, p-value and verdict; and the
//! grouping of an analysis into those tables.

use super::index::Index;
use crate::analysis::{Center, Comparison, Group, NoteKind, Verdict};
use crate::numfmt::{format_p, pct_terse};
use crate::stats::pvalue::is_bound;
use hashbrown::HashMap;
use owo_colors::OwoColorize;

/// What a table's cells say beyond their numbers.
pub(crate) struct TableNotes<'a> {
    /// Whether a verdict cell shows the runs needed (`n≥N`, explained once).
    pub(crate) shown_n: bool,
    /// The notes the cells point to, in order (a note repeated in the next
    /// cell listed once).
    pub(crate) notes: Vec<&'a str>,
}

/// The notes of the cells of a table of `groups`, in the order
/// [`render_table`] marks them.
pub(crate) fn table_notes<'a>(groups: &[u32], ix: &Index<'a>) -> TableNotes<'a> {
    let mut t = TableNotes {
        shown_n: false,
        notes: Vec::new(),
    };
    for &gi in groups {
        for (_, comp) in group_rows(ix.group(gi), &ix.comps(gi)) {
            let Some(c) = comp else { continue };
            let (shown_n, cell) = cell_notes(c);
            t.shown_n |= shown_n;
            for n in cell {
                if t.notes.last() != Some(&n) {
                    t.notes.push(n);
                }
            }
        }
    }
    t
}

pub(crate) struct Row {
    pub(crate) cells: Vec<String>,
    /// Colour of the change and verdict cells: Some(true) good, Some(false) bad.
    pub(crate) good: Option<bool>,
    pub(crate) verdict: Option<Verdict>,
}

/// The rows of one group as the table shows them: the baseline first, then
/// each other variant, with the comparison it belongs to.
pub(crate) fn group_rows<'a>(
    g: &'a Group,
    comps: &[&'a Comparison],
) -> Vec<(&'a crate::analysis::VariantSummary, Option<&'a Comparison>)> {
    let base_name = comps.first().map(|c| c.baseline.as_str());
    let mut v: Vec<_> = g.variants.iter().collect();
    if let Some(b) = base_name {
        v.sort_by_key(|s| s.variant != b);
    }
    v.into_iter()
        .map(|vs| {
            let comp = comps.iter().find(|c| c.variant == vs.variant).copied();
            (vs, comp)
        })
        .collect()
}

/// Whether the verdict cell of `c` shows the runs needed (`n≥N`), and the
/// notes its footnote marks point to (the one the cell already says left out).
pub(crate) fn cell_notes(c: &Comparison) -> (bool, impl Iterator<Item = &str>) {
    let shown_n = (c.verdict == Verdict::Untestable || c.verdict == Verdict::Inconclusive)
        && c.n_needed.is_some();
    let notes = c
        .notes
        .iter()
        .filter(move |n| !(shown_n && n.kind == NoteKind::SignificantIfN))
        .map(|n| n.text.as_str());
    (shown_n, notes)
}

/// One (benchmark, metric) table with its heading and a blank line after
/// it; footnote marks use the numbers of `note_no`.
pub(crate) fn render_table(
    (bench, metric): (&str, &str),
    members: &[u32],
    ix: &Index<'_>,
    note_no: &HashMap<&str, usize>,
    color: bool,
) -> String {
    let mut out = String::new();
    let groups: Vec<&Group> = members.iter().map(|&g| ix.group(g)).collect();
    let Some(first) = groups.first() else {
        return out;
    };
    let dir = first
        .direction
        .phrase()
        .map(|p| format!(", {p}"))
        .unwrap_or_default();
    // One readable unit for the whole table (1.377e6 ns/op → 1.377 ms/op),
    // chosen from its middle centre, so that its rows stay comparable.
    let mut centres: Vec<f64> = groups
        .iter()
        .flat_map(|g| g.variants.iter())
        .filter_map(|v| v.mean.or(v.median))
        .filter(|v| v.is_finite())
        .map(f64::abs)
        .collect();
    centres.sort_by(f64::total_cmp);
    let typical = centres.get(centres.len() / 2).copied().unwrap_or(0.0);
    let scale = crate::report::format::Scale::for_values(&first.unit, typical);
    let unit = scale.unit.clone();
    let head = format!(
        "{bench}{} ({}{dir})",
        if metric.is_empty() || metric == bench {
            String::new()
        } else {
            format!(" · {metric}")
        },
        if unit.is_empty() {
            "no unit".to_string()
        } else {
            unit
        }
    );
    out.push_str(&if color { head.bold().to_string() } else { head });
    out.push('\n');
    let with_params = groups.iter().any(|g| !g.params.is_empty());
    let mut rows: Vec<Row> = vec![Row {
        cells: [
            "params",
            "variant",
            "n",
            "centre",
            "±95%",
            "change",
            "95% CI of change",
            "p",
            "q",
            "verdict",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
        good: None,
        verdict: None,
    }];
    for (&gi, g) in members.iter().zip(&groups) {
        let comps = ix.comps(gi);
        let comps = comps.as_slice();
        let mut first_row = true;
        for (vs, comp) in group_rows(g, comps) {
            let center = comp.map(|c| c.center).or(comps.first().map(|c| c.center));
            let value = match center {
                Some(Center::Median) => vs.median.or(vs.mean),
                _ => vs.mean.or(vs.median),
            };
            let spread = match (value, vs.ci_low, vs.ci_high) {
                (Some(c), Some(l), Some(h))
                    if c != 0.0 && (vs.from_summary == (center != Some(Center::Median))) =>
                {
                    let half = 100.0 * (h - c).abs().max((c - l).abs()) / c.abs();
                    format!("±{}%", crate::numfmt::fixed(half, 1))
                }
                _ => String::new(),
            };
            let mut cells = vec![
                if first_row && with_params {
                    g.params.clone()
                } else {
                    String::new()
                },
                vs.variant.clone(),
                crate::report::format::count(vs.n),
                value.map(|v| scale.fmt(v)).unwrap_or_else(|| "?".into()),
                spread,
            ];
            first_row = false;
            match comp {
                None => {
                    cells.extend(std::iter::repeat_n(String::new(), 5));
                    rows.push(Row {
                        cells,
                        good: None,
                        verdict: None,
                    });
                }
                Some(c) => {
                    let ci = match (c.ci_low_pct, c.ci_high_pct) {
                        (Some(l), Some(h)) => format!("[{}, {}]", pct_terse(l), pct_terse(h)),
                        _ => String::new(),
                    };
                    let mut verdict = c.verdict.as_str().to_string();
                    let (shown_n, cell) = cell_notes(c);
                    if shown_n {
                        if let Some(n) = c.n_needed {
                            verdict.push_str(&format!(" (n≥{n})"));
                        }
                    }
                    let refs: Vec<String> = cell
                        .map(|n| note_no.get(n).copied().unwrap_or(0).to_string())
                        .collect();
                    if !refs.is_empty() {
                        verdict.push_str(&format!(" [{}]", refs.join(",")));
                    }
                    cells.extend([
                        pct_terse(c.change_pct),
                        ci,
                        c.p_value.map(format_p).unwrap_or_else(|| "–".into()),
                        match (c.p_value, c.q_value) {
                            // q computed from a p at the floor is a bound too.
                            (Some(p), Some(q)) if is_bound(p) && !is_bound(q) => {
                                format!("< {}", format_p(q))
                            }
                            (_, Some(q)) => format_p(q),
                            _ => "–".into(),
                        },
                        verdict,
                    ]);
                    let good = match c.verdict {
                        Verdict::Improved => Some(true),
                        Verdict::Regressed => Some(false),
                        _ => None,
                    };
                    rows.push(Row {
                        cells,
                        good,
                        verdict: Some(c.verdict),
                    });
                }
            }
        }
    }
    if !with_params {
        for r in rows.iter_mut() {
            r.cells.remove(0);
        }
    }
    let ncol = rows[0].cells.len();
    let widths: Vec<usize> = (0..ncol)
        .map(|i| {
            rows.iter()
                .map(|r| r.cells[i].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for (ri, r) in rows.iter().enumerate() {
        let mut line = String::from(" ");
        for (i, cell) in r.cells.iter().enumerate() {
            let w = widths[i];
            let numeric = (2..ncol - 1).contains(&i) && ri > 0;
            let padded = if numeric && i != ncol - 3 && i != ncol - 4 {
                format!("{cell:>w$}")
            } else {
                format!("{cell:<w$}")
            };
            let is_change = i == ncol - 5 || i == ncol - 1;
            let styled = if !color || ri == 0 {
                padded
            } else if is_change && r.good == Some(true) {
                padded.green().to_string()
            } else if is_change && r.good == Some(false) {
                padded.red().to_string()
            } else if i == ncol - 1 && r.verdict == Some(Verdict::Changed) {
                padded.yellow().to_string()
            } else {
                padded
            };
            line.push(' ');
            line.push_str(&styled);
            line.push(' ');
        }
        let line = line.trim_end().to_string();
        out.push_str(&if color && ri == 0 {
            line.dimmed().to_string()
        } else {
            line
        });
        out.push('\n');
    }
    out.push('\n');
    out
}
