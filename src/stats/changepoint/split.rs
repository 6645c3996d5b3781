//! Otava's split step: E-divisive within overlapping sliding windows.
//!
//! Within one window the series is bisected recursively: the interval
//! whose best split has the largest Q̂ is split, as long as the t-test of
//! the split (on the two parts of that interval) has p ≤ the pass's
//! threshold; the first split that fails ends the window. Windows are
//! `window_len` long and start every `window_len / 2` points, or at the
//! last change point found when that lies further on. The union of every
//! window's change points (by index) are the weak change points.

use super::qhat::Calculator;
use super::ttest::{compare, SegmentStats};
use super::ChangePoint;

/// The intervals `[start, stop)` between sorted change points over `n`
/// points, empty ones left out.
pub(crate) fn intervals(indexes: &[usize], n: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(indexes.len() + 1);
    let mut prev = 0;
    for &i in indexes.iter().chain(std::iter::once(&n)) {
        if prev != i {
            out.push((prev, i));
        }
        prev = i;
    }
    out
}

/// The t-test of an existing change point at `index`: the interval ending
/// there against the next one (Otava's "merge step" branch).
pub(crate) fn stats_at(series: &[f64], ivs: &[(usize, usize)], index: usize) -> SegmentStats {
    let k = ivs
        .iter()
        .position(|iv| iv.1 == index)
        .expect("a change point ends an interval");
    let (l, r) = (ivs[k], ivs[k + 1]);
    compare(&series[l.0..l.1], &series[r.0..r.1])
}

/// Change points of one window (`x` is the window alone; indexes are the
/// window's), in index order.
fn detect_window(x: &[f64], max_pvalue: f64) -> Vec<usize> {
    let calc = Calculator::new(x);
    let mut cps: Vec<usize> = Vec::new();
    loop {
        let ivs = intervals(&cps, x.len());
        // The interval whose best split has the largest Q̂, the first on ties.
        let mut best: Option<(crate::stats::changepoint::qhat::Candidate, (usize, usize))> = None;
        for &(s, e) in &ivs {
            if e - s <= 1 {
                continue;
            }
            let c = calc.best_split(s, e);
            if best.is_none_or(|(b, _)| c.qhat > b.qhat) {
                best = Some((c, (s, e)));
            }
        }
        let Some((cand, (s, e))) = best else { break };
        let st = compare(&x[s..cand.index], &x[cand.index..e]);
        if st.p <= max_pvalue {
            let at = cps.partition_point(|&i| i < cand.index);
            cps.insert(at, cand.index);
        } else {
            break;
        }
    }
    cps
}

/// The weak change points of `series` at the pass threshold `max_pvalue`,
/// each with the t-test of its two adjacent segments.
pub fn split(series: &[f64], window_len: usize, max_pvalue: f64) -> Vec<ChangePoint> {
    assert!(window_len >= 2, "window length must be at least 2");
    let n = series.len();
    let step = window_len / 2;
    let mut found: Vec<usize> = Vec::new();
    let mut start = 0;
    while start < n {
        let end = (start + window_len).min(n);
        let new: Vec<usize> = detect_window(&series[start..end], max_pvalue)
            .into_iter()
            .map(|i| i + start)
            .collect();
        let last = new.last().copied().unwrap_or(0);
        start = last.max(start + step);
        for i in new {
            if !found.contains(&i) {
                found.push(i);
            }
        }
    }
    found.sort_unstable();
    let ivs = intervals(&found, n);
    found
        .iter()
        .map(|&index| ChangePoint {
            index,
            stats: stats_at(series, &ivs, index),
        })
        .collect()
}
