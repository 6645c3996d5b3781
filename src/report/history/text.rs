//! Text and Markdown of a history (`patchperf history`): per series its
//! points and each change point with the last good and first bad point,
//! the change with its interval, p and verdict. Numbers through
//! [`crate::report::format`], as every other report.

use crate::analysis::history::{History, HistoryChange, Method, Series};
use crate::analysis::Verdict;
use crate::report::format::{pct, pct_ci, pvalue, sig};
use owo_colors::OwoColorize;

/// `hackbench · time (s, lower is better)`.
pub(super) fn title(s: &Series) -> String {
    let mut t = s.benchmark.clone();
    if !s.params.is_empty() {
        t.push_str(&format!(" [{}]", s.params));
    }
    if !s.metric.is_empty() && s.metric != s.benchmark {
        t.push_str(&format!(" · {}", s.metric));
    }
    let unit = if s.unit.is_empty() {
        "no unit"
    } else {
        s.unit.as_str()
    };
    match s.direction.phrase() {
        Some(p) => format!("{t} ({unit}, {p})"),
        None => format!("{t} ({unit})"),
    }
}

/// `20 points (6.0 … 6.19), 5 runs each`.
pub(super) fn extent(s: &Series) -> String {
    let n = s.points.len();
    let span = match (s.points.first(), s.points.last()) {
        (Some(a), Some(b)) if n > 1 => format!(" ({} … {})", a.variant, b.variant),
        (Some(a), _) => format!(" ({})", a.variant),
        _ => String::new(),
    };
    let runs: Vec<usize> = s.points.iter().map(|p| p.n).collect();
    let (lo, hi) = (
        runs.iter().min().copied().unwrap_or(0),
        runs.iter().max().copied().unwrap_or(0),
    );
    let per = match (s.method, lo == hi) {
        (Method::Otava, _) => "one value each".to_string(),
        (Method::Runs, true) => format!("{lo} runs each"),
        (Method::Runs, false) => format!("{lo}–{hi} runs each"),
        (Method::Means, true) => format!("{lo} runs each, tested on the points' means"),
        (Method::Means, false) => format!("{lo}–{hi} runs each, tested on the points' means"),
    };
    format!("{n} point{}{span}, {per}", if n == 1 { "" } else { "s" })
}

/// The table cells of a change point, as [`HEAD`] names them.
pub(super) fn cells(c: &HistoryChange) -> [String; 6] {
    [
        format!("#{}", c.index),
        format!("{} → {}", c.before, c.after),
        c.change_pct.map(pct).unwrap_or_else(|| "n/a".into()),
        pct_ci(c.ci_low_pct, c.ci_high_pct),
        pvalue(Some(c.p_value)),
        c.verdict.as_str().to_string(),
    ]
}

/// Column heads of the change-point table.
pub(super) const HEAD: [&str; 6] = [
    "point",
    "step (last before → first after)",
    "change",
    "95% CI of change",
    "p",
    "verdict",
];

/// The terminal (and e-mail) text of a history.
pub fn render_text(h: &History, color: bool) -> String {
    let mut out = String::new();
    for s in &h.series {
        let head = format!("{}: {}", title(s), extent(s));
        out.push_str(&if color { head.bold().to_string() } else { head });
        out.push('\n');
        if let Some(note) = &s.note {
            out.push_str(&format!("  {note}\n\n"));
            continue;
        }
        if s.change_points.is_empty() {
            let levels = s.points.iter().map(|p| p.center);
            let (lo, hi) = levels.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
                (a.min(x), b.max(x))
            });
            out.push_str(&format!(
                "  no change point (centres {} to {})\n\n",
                sig(lo),
                sig(hi)
            ));
            continue;
        }
        let rows: Vec<[String; 6]> = s.change_points.iter().map(cells).collect();
        let widths: Vec<usize> = (0..6)
            .map(|i| {
                rows.iter()
                    .map(|r| r[i].chars().count())
                    .chain([HEAD[i].chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let line = |cells: &[String]| {
            let mut l = String::from(" ");
            for (i, c) in cells.iter().enumerate() {
                let w = widths[i];
                l.push(' ');
                l.push_str(&if (2..5).contains(&i) {
                    format!("{c:>w$}")
                } else {
                    format!("{c:<w$}")
                });
                l.push(' ');
            }
            l.trim_end().to_string()
        };
        let head_line = line(&HEAD.map(String::from));
        out.push_str(&if color {
            head_line.dimmed().to_string()
        } else {
            head_line
        });
        out.push('\n');
        for (r, c) in rows.iter().zip(&s.change_points) {
            let l = line(r);
            let l = match (color, c.verdict) {
                (true, Verdict::Regressed) => l.red().to_string(),
                (true, Verdict::Improved) => l.green().to_string(),
                (true, _) => l.yellow().to_string(),
                _ => l,
            };
            out.push_str(&l);
            out.push('\n');
            // The most severe few; the JSON lists them all.
            const SHOWN: usize = 5;
            for f in c.config_changes.iter().take(SHOWN) {
                out.push_str(&format!("      {}: {} [{}]\n", f.severity, f.title, f.code));
            }
            if c.config_changes.len() > SHOWN {
                out.push_str(&format!(
                    "      … and {} more differences between the configs or environments of {} and {} (--json lists them)\n",
                    c.config_changes.len() - SHOWN,
                    c.before,
                    c.after
                ));
            }
        }
        out.push('\n');
    }
    out.push_str(&summary(h));
    out.push('\n');
    out
}

/// `4 series: 1 with its latest change point a regression, …`.
pub fn summary(h: &History) -> String {
    let latest = |v: Verdict| {
        h.series
            .iter()
            .filter(|s| s.change_points.last().is_some_and(|c| c.verdict == v))
            .count()
    };
    let none = h
        .series
        .iter()
        .filter(|s| s.note.is_none() && s.change_points.is_empty())
        .count();
    let few = h.series.len() - h.analysed();
    let cps: usize = h.series.iter().map(|s| s.change_points.len()).sum();
    format!(
        "{} series over {} points, {cps} change points; latest change point regressed in {}, improved in {}, changed in {}; {none} without change points; {few} with fewer than 3 points",
        h.series.len(),
        h.order.len(),
        latest(Verdict::Regressed),
        latest(Verdict::Improved),
        latest(Verdict::Changed),
    )
}

fn md_escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for ch in s.chars() {
        if matches!(ch, '|' | '*' | '_' | '`' | '[' | ']' | '<' | '>' | '\\') {
            o.push('\\');
        }
        o.push(ch);
    }
    o
}

/// The Markdown of a history (pull-request comments, wikis).
pub fn render_markdown(h: &History) -> String {
    let mut out = String::from("# History\n\n");
    out.push_str(&format!(
        "Points in order: {}. Change points: window {}, p < {}, magnitude > {}.\n\n",
        h.order
            .iter()
            .map(|o| format!("`{}`", o.replace('`', "'")))
            .collect::<Vec<_>>()
            .join(", "),
        h.settings.window_len,
        h.settings.max_pvalue,
        h.settings.min_magnitude
    ));
    for s in &h.series {
        out.push_str(&format!(
            "## {}\n\n{}\n\n",
            md_escape(&title(s)),
            md_escape(&extent(s))
        ));
        if let Some(note) = &s.note {
            out.push_str(&format!("{}\n\n", md_escape(note)));
            continue;
        }
        if s.change_points.is_empty() {
            out.push_str("No change point.\n\n");
            continue;
        }
        out.push_str(&format!(
            "| {} |\n|{}\n",
            HEAD.join(" | "),
            "---|".repeat(6)
        ));
        for c in &s.change_points {
            let r = cells(c).map(|x| md_escape(&x));
            out.push_str(&format!("| {} |\n", r.join(" | ")));
        }
        out.push('\n');
        for c in &s.change_points {
            for f in &c.config_changes {
                out.push_str(&format!(
                    "- {} → {}: {}: {}\n",
                    md_escape(&c.before),
                    md_escape(&c.after),
                    f.severity,
                    md_escape(&f.title)
                ));
            }
        }
        if s.change_points.iter().any(|c| !c.config_changes.is_empty()) {
            out.push('\n');
        }
    }
    out.push_str(&md_escape(&summary(h)));
    out.push('\n');
    out
}
