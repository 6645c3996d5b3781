//! The terminal renderer: `compare`'s benchstat-like tables per
//! benchmark, its findings and its summary line, in colour or not.

mod accounting;
mod index;
mod notes;
mod table;

pub use accounting::{accounting, Listing};
pub use notes::{benchmarks_per_variant, warn_unread};

use crate::analysis::{Analysis, Verdict};
use crate::model::{Finding, Severity};
use hashbrown::HashMap;
use index::Index;
use owo_colors::OwoColorize;
use rayon::prelude::*;
use std::fmt::Write as _;
use table::{render_table, table_notes, TableNotes};

/// Renders the terminal output: one table per (benchmark, metric), footnotes,
/// findings and the summary line.
pub fn render(a: &Analysis, color: bool) -> String {
    let mut out = Vec::new();
    write(a, color, &mut out).expect("writing to memory");
    String::from_utf8(out).expect("the terminal output is UTF-8")
}

/// Tables laid out together before they are written: enough to keep every
/// thread busy, few enough that the text held stays small when a long
/// e-mail table makes millions of them.
const TABLES_PER_WINDOW: usize = 4096;

/// [`render`], written to `out` a window of tables at a time.
pub fn write(a: &Analysis, color: bool, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    // A broken comparison must be seen before its numbers: every finding,
    // errors first, comes above the tables.
    out.write_all(render_findings(a, color).as_bytes())?;
    let ix = Index::new(a);
    let tables = ix.tables();
    let small = tables < SERIAL_TABLES;
    // Footnotes are numbered in order of first appearance over all tables:
    // each table lists the notes its cells point to, on all threads, and
    // they are numbered here in order, a window at a time, so that the
    // tables can then be laid out in parallel and written in order.
    let mut notes: Vec<&str> = Vec::new();
    let mut note_no: HashMap<&str, usize> = HashMap::new();
    let mut legend_n = false;
    let windows = || {
        (0..tables)
            .step_by(TABLES_PER_WINDOW)
            .map(|s| s..(s + TABLES_PER_WINDOW).min(tables))
    };
    for w in windows() {
        let notes_of = |t: usize| table_notes(ix.table(t).1, &ix);
        let listed: Vec<TableNotes> = if small {
            w.map(notes_of).collect()
        } else {
            w.into_par_iter().map(notes_of).collect()
        };
        for t in &listed {
            legend_n |= t.shown_n;
            for &n in &t.notes {
                note_no.entry(n).or_insert_with(|| {
                    notes.push(n);
                    notes.len()
                });
            }
        }
    }
    // A few tables are laid out on this thread: waking the pool for them
    // costs more than the work.
    let lay_out = |t: usize| {
        let (key, members) = ix.table(t);
        render_table(key, members, &ix, &note_no, color)
    };
    for w in windows() {
        let laid_out: Vec<String> = if small {
            w.map(lay_out).collect()
        } else {
            w.into_par_iter().map(lay_out).collect()
        };
        for t in laid_out {
            out.write_all(t.as_bytes())?;
        }
    }
    let mut tail = String::new();
    if legend_n {
        let _ = writeln!(
            tail,
            "n≥N: runs per side needed (inconclusive: to detect a {}% change with 80% power; \
             untestable: for the observed difference to reach p < {})",
            a.settings.threshold_pct, a.settings.alpha
        );
    }
    for (i, n) in notes.iter().enumerate() {
        let _ = writeln!(tail, "[{}] {n}", i + 1);
    }
    if legend_n || !notes.is_empty() {
        tail.push('\n');
    }
    tail.push_str(&summary_line(a));
    tail.push('\n');
    out.write_all(tail.as_bytes())?;
    out.flush()
}

/// Fewer groups than this are rendered on the calling thread: waking the
/// pool costs more than the work.
pub(crate) const SERIAL_TABLES: usize = 64;

/// The findings, errors first, each with its evidence and advice.
pub(crate) fn render_findings(a: &Analysis, color: bool) -> String {
    let mut out = String::new();
    let mut findings: Vec<&Finding> = a.findings.iter().collect();
    findings.sort_by_key(|f| f.severity);
    for f in findings {
        let label = f.severity.to_string();
        let label = if !color {
            label
        } else {
            match f.severity {
                Severity::Error => label.red().bold().to_string(),
                Severity::Warning => label.yellow().to_string(),
                Severity::Info => label.cyan().to_string(),
            }
        };
        out.push_str(&format!("{label}: {} [{}]\n", f.title, f.code));
        if !f.evidence.is_empty() {
            out.push_str(&format!("    {}\n", f.evidence));
        }
        if !f.advice.is_empty() {
            out.push_str(&format!("    → {}\n", f.advice));
        }
    }
    if !a.findings.is_empty() {
        out.push('\n');
    }
    out
}

/// The comparisons of one (metric, baseline, variant): the logs of their
/// ratios, and how many there are in all.
type RatioGroup<'a> = ((&'a str, &'a str, &'a str), Vec<f64>, usize);

/// `8 comparisons: 5 regressed, 1 improved, …; geomean of variant/baseline
/// ratios 1.234 (+23.4%) over 8`, a geomean per metric and variant pair
/// (up to three of them; none when there are more).
pub fn summary_line(a: &Analysis) -> String {
    let parts: Vec<String> = crate::report::view::verdict_counts(a)
        .into_iter()
        .filter(|&(v, n)| v != Verdict::Changed || n > 0)
        .map(|(v, n)| format!("{n} {}", v.as_str()))
        .collect();
    let mut s = format!(
        "{}: {}",
        crate::report::format::counted(a.comparisons.len(), "comparison"),
        parts.join(", ")
    );
    // A geomean means something within one metric and one pair of
    // variants only: ratios of a throughput and of a latency, or of two
    // patches, do not average. Each (metric, pair) gets its own, when few.
    let mut groups: Vec<RatioGroup> = Vec::new();
    for c in &a.comparisons {
        let key = (c.metric.as_str(), c.baseline.as_str(), c.variant.as_str());
        let at = match groups.iter().position(|g| g.0 == key) {
            Some(i) => i,
            None => {
                groups.push((key, Vec::new(), 0));
                groups.len() - 1
            }
        };
        groups[at].2 += 1;
        if c.baseline_center > 0.0 && c.variant_center > 0.0 {
            let l = (c.variant_center / c.baseline_center).ln();
            if l.is_finite() {
                groups[at].1.push(l);
            }
        }
    }
    const MOST: usize = 3;
    if groups.len() <= MOST {
        for ((metric, base, variant), logs, total) in &groups {
            if logs.is_empty() {
                continue;
            }
            let g = (logs.iter().sum::<f64>() / logs.len() as f64).exp();
            let of = if groups.len() == 1 {
                "variant/baseline ratios".to_string()
            } else {
                format!("{variant}/{base} {metric}")
            };
            s.push_str(&format!(
                "; geomean of {of} {} ({}) over {}",
                crate::numfmt::fixed(g, 4),
                crate::numfmt::pct_terse((g - 1.0) * 100.0),
                logs.len()
            ));
            if logs.len() < *total {
                s.push_str(" (non-positive centres left out)");
            }
        }
    }
    s
}

/// The terminal [`Renderer`](super::renderer::Renderer): tables, findings
/// and the summary line, with ANSI colours when `color`.
pub struct Terminal {
    /// Whether to colour the output with ANSI escapes.
    pub color: bool,
}

impl super::renderer::Renderer for Terminal {
    fn render(&self, r: &super::renderer::Report<'_>) -> crate::error::Result<Vec<u8>> {
        Ok(render(r.analysis, self.color).into_bytes())
    }

    fn render_to(
        &self,
        r: &super::renderer::Report<'_>,
        out: &mut dyn std::io::Write,
        name: &std::path::Path,
    ) -> crate::error::Result<()> {
        write(r.analysis, self.color, out).map_err(|e| crate::error::Error::io(name, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{analyze, Settings};
    use crate::model::{Dataset, Observation};

    #[test]
    fn tables_and_footnotes_in_order_across_windows() {
        // More one-row tables than two windows; the tables of the first
        // window point to one note, the later ones to another, which must
        // be numbered after it and written once.
        let tables = 2 * TABLES_PER_WINDOW + 3;
        let mut rows = Vec::new();
        for i in 0..tables {
            let runs = if i < TABLES_PER_WINDOW { 1 } else { 2 };
            for (variant, v) in [("base", 1.0), ("patched", 1.1)] {
                for r in 0..runs {
                    rows.push(
                        Observation::sample(format!("b{i:05}").as_str(), "time", "s", v + r as f64)
                            .with_variant(variant)
                            .with_run(r),
                    );
                }
            }
        }
        let a = analyze(&Dataset::new(rows), &Settings::default()).unwrap();
        let text = render(&a, false);
        let heads: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with('b') && l.contains(" · time"))
            .collect();
        assert_eq!(heads.len(), tables);
        assert!(heads.windows(2).all(|w| w[0] < w[1]), "tables out of order");
        let notes: Vec<&str> = text.lines().filter(|l| l.starts_with('[')).collect();
        // The later tables' notes (Welch for reference, too few for a
        // test, too few for an interval) come after the first window's.
        assert_eq!(notes.len(), 4, "{notes:?}");
        assert!(notes[0].starts_with("[1] n=1+1"), "{notes:?}");
        assert!(notes[1].starts_with("[2] Welch"), "{notes:?}");
        assert!(text.contains("untestable [1]\n") && text.contains("[2,3,4]\n"));
    }
}
