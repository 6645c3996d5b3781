//! The phrases every history report shares: a series' title and extent,
//! and the one-line summary of the whole history.

use crate::analysis::history::{History, Method, Series};
use crate::analysis::Verdict;

/// `hackbench · time (s, lower is better)`.
pub fn title(s: &Series) -> String {
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
pub fn extent(s: &Series) -> String {
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
