//! The terminal renderer: `compare`'s benchstat-like tables per
//! benchmark, its findings and its summary line, in colour or not.

mod accounting;
mod notes;
mod table;

pub use accounting::{accounting, Listing};
pub use notes::{benchmarks_per_variant, warn_unread};

use crate::analysis::{Analysis, Verdict};
use crate::model::{Finding, Severity};
use hashbrown::HashMap;
use owo_colors::OwoColorize;
use rayon::prelude::*;
use std::fmt::Write as _;
use table::{comps_of, render_table, table_notes, tables_of, Table, TableNotes};

/// Renders the terminal output: one table per (benchmark, metric), footnotes,
/// findings and the summary line.
pub fn render(a: &Analysis, color: bool) -> String {
    let mut out = String::new();
    // A broken comparison must be seen before its numbers: every finding,
    // errors first, comes above the tables.
    out.push_str(&render_findings(a, color));
    // Tables in order of first appearance of (benchmark, metric), and the
    // comparisons of each group: both indexes are built once, side by side,
    // because a lab's run has thousands of groups.
    let (tables, comps_of) = both(
        a.groups.len() < SERIAL_TABLES,
        || tables_of(&a.groups),
        || comps_of(a),
    );
    let small = tables.len() < SERIAL_TABLES;
    // Footnotes are numbered in order of first appearance over all tables:
    // each table lists the notes its cells point to, in order, on all
    // threads; they are numbered here in one pass, so that the tables can be
    // laid out in parallel and joined in order.
    let listed: Vec<TableNotes> = if small {
        tables
            .iter()
            .map(|t| table_notes(&t.1, &comps_of))
            .collect()
    } else {
        tables
            .par_iter()
            .map(|t| table_notes(&t.1, &comps_of))
            .collect()
    };
    let mut notes: Vec<&str> = Vec::new();
    let mut note_no: HashMap<&str, usize> = HashMap::new();
    let mut legend_n = false;
    for t in &listed {
        legend_n |= t.shown_n;
        for &n in &t.notes {
            note_no.entry(n).or_insert_with(|| {
                notes.push(n);
                notes.len()
            });
        }
    }
    // A few tables are laid out on this thread: waking the pool for them
    // costs more than the work.
    let lay_out = |(key, groups): &Table| render_table(*key, groups, &comps_of, &note_no, color);
    let laid_out: Vec<String> = if small {
        tables.iter().map(lay_out).collect()
    } else {
        tables.par_iter().map(lay_out).collect()
    };
    out.reserve(laid_out.iter().map(String::len).sum::<usize>());
    for t in laid_out {
        out.push_str(&t);
    }
    if legend_n {
        let _ = writeln!(
            out,
            "n≥N: runs per side needed (inconclusive: to detect a {}% change with 80% power; \
             untestable: for the observed difference to reach p < {})",
            a.settings.threshold_pct, a.settings.alpha
        );
    }
    for (i, n) in notes.iter().enumerate() {
        let _ = writeln!(out, "[{}] {n}", i + 1);
    }
    if legend_n || !notes.is_empty() {
        out.push('\n');
    }
    out.push_str(&summary_line(a));
    out.push('\n');
    out
}

/// Fewer groups than this are rendered on the calling thread: waking the
/// pool costs more than the work.
pub(crate) const SERIAL_TABLES: usize = 64;

/// `(f(), g())`, side by side on the pool unless `serial`.
pub(crate) fn both<A: Send, B: Send>(
    serial: bool,
    f: impl FnOnce() -> A + Send,
    g: impl FnOnce() -> B + Send,
) -> (A, B) {
    if serial {
        (f(), g())
    } else {
        rayon::join(f, g)
    }
}

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
    pub color: bool,
}

impl super::renderer::Renderer for Terminal {
    fn render(&self, r: &super::renderer::Report<'_>) -> crate::error::Result<Vec<u8>> {
        Ok(render(r.analysis, self.color).into_bytes())
    }
}
