//! Otava's merge step: weak change points are removed one at a time, the
//! one with the largest p first while any p ≥ `max_pvalue`, then the one
//! with the smallest magnitude while it is ≤ `min_magnitude`.
//!
//! After a removal Otava recomputes the statistics of the two change points
//! that follow the removed one in the list (the new occupant of its
//! position and the next), not of its left neighbour; this is kept as is,
//! since parity with Otava's output is the point of this module.

use super::split::{intervals, stats_at};
use super::ChangePoint;

/// Python's `max(xs, key=f)`: the first element no later one exceeds
/// (a later element replaces it only when strictly greater, so NaN keys
/// never replace and a NaN first key is never replaced).
fn py_argmax(cps: &[ChangePoint], key: impl Fn(&ChangePoint) -> f64) -> usize {
    let mut best = 0;
    for i in 1..cps.len() {
        if key(&cps[i]) > key(&cps[best]) {
            best = i;
        }
    }
    best
}

/// Python's `min(xs, key=f)`, likewise with strictly smaller.
fn py_argmin(cps: &[ChangePoint], key: impl Fn(&ChangePoint) -> f64) -> usize {
    let mut best = 0;
    for i in 1..cps.len() {
        if key(&cps[i]) < key(&cps[best]) {
            best = i;
        }
    }
    best
}

/// Merges `cps` (sorted by index, stats computed against their neighbours).
pub fn merge(
    mut cps: Vec<ChangePoint>,
    series: &[f64],
    max_pvalue: f64,
    min_magnitude: f64,
) -> Vec<ChangePoint> {
    while !cps.is_empty() {
        let mut weakest = py_argmax(&cps, |c| c.stats.p);
        if cps[weakest].stats.p < max_pvalue {
            weakest = py_argmin(&cps, |c| c.stats.magnitude());
            if cps[weakest].stats.magnitude() > min_magnitude {
                return cps;
            }
        }
        cps.remove(weakest);
        let idx: Vec<usize> = cps.iter().map(|c| c.index).collect();
        let ivs = intervals(&idx, series.len());
        for k in [weakest, weakest + 1] {
            if k < cps.len() {
                cps[k].stats = stats_at(series, &ivs, cps[k].index);
            }
        }
    }
    cps
}
