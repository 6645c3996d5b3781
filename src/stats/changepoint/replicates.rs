//! Change points of a series whose points hold several runs each.
//!
//! Candidates come from E-divisive as in Otava (Q̂ over the points' means,
//! in the same sliding windows), but each candidate step is decided on the
//! runs themselves: the runs of all points of the segment before the step
//! against those of the segment after it, with the Mann-Whitney U test.
//! Because the step's position is the best of the `k` splits of its
//! interval, the p of a split is multiplied by `k` (a Bonferroni bound for
//! the scan over positions; without it a step-free series finds a
//! "significant" split far more often than p says). The merge then removes
//! the weakest step (largest p, then smallest magnitude) until every step
//! has p < `max_pvalue` and magnitude > `min_magnitude`, recomputing both
//! neighbours of each removed step.
//!
//! Pooling runs takes the runs of one point as exchangeable with those of
//! the other points of its segment. A series whose points differ by more
//! than their runs do (reboots, rebuilds, a busy machine: [`overdispersed`])
//! would make small steps look significant; its steps are tested on the
//! points' means instead (Student's t, as Otava, with the same scan bound).

use super::qhat::Calculator;
use super::split::intervals;
use crate::stats::mann_whitney::mann_whitney_u;
use crate::stats::summary::median;

/// How steps are searched for and kept.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// Points per sliding window (Otava's `window_len`).
    pub window_len: usize,
    /// A step is kept when its scan-corrected p is below this.
    pub max_pvalue: f64,
    /// ... and its magnitude above this (relative change of the centres).
    pub min_magnitude: f64,
}

/// A step between two adjacent segments of runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step {
    /// First point of the new segment (0-based).
    pub index: usize,
    /// Runs in the segment before and after.
    pub n_before: usize,
    /// Runs in the segment after (`n_before`: before).
    pub n_after: usize,
    /// Medians of those runs.
    pub median_before: f64,
    /// Median of the runs after (`median_before`: before).
    pub median_after: f64,
    /// Mann-Whitney p of the runs, before the scan correction.
    pub p_raw: f64,
    /// `p_raw` × the splits of the two segments together, at most 1.
    pub p: f64,
}

impl Step {
    /// The larger relative change of the medians either way (as Otava's
    /// magnitude, 0 when a median is 0).
    pub fn magnitude(&self) -> f64 {
        let f = |a: f64, b: f64| if a == 0.0 { 0.0 } else { (b / a - 1.0).abs() };
        f(self.median_before, self.median_after).max(f(self.median_after, self.median_before))
    }
}

/// Tests points `[a, b)` against `[b, c)`: on their runs, or on their
/// means when the points differ by more than their runs do.
fn test(points: &[Vec<f64>], means: &[f64], on_means: bool, a: usize, b: usize, c: usize) -> Step {
    let before: Vec<f64> = points[a..b].iter().flatten().copied().collect();
    let after: Vec<f64> = points[b..c].iter().flatten().copied().collect();
    let p_raw = if on_means {
        let p = super::ttest::compare(&means[a..b], &means[b..c]).p;
        if p.is_nan() {
            1.0
        } else {
            p
        }
    } else {
        mann_whitney_u(&before, &after).map_or(1.0, |r| r.p)
    };
    let splits = (c - a - 1).max(1) as f64;
    Step {
        index: b,
        n_before: before.len(),
        n_after: after.len(),
        median_before: median(&before),
        median_after: median(&after),
        p_raw,
        p: (p_raw * splits).min(1.0),
    }
}

/// Ratio above which the points' means are taken to vary more than their
/// runs explain ([`overdispersed`]).
pub const OVERDISPERSION_LIMIT: f64 = 2.0;

/// Whether the points of a series differ by more than their runs do: the
/// variance of a point's mean estimated from successive differences of the
/// means (robustly, so that steps hardly count: (MAD of the differences /
/// 0.6745)² / 2) against the pooled variance of the runs over the runs per
/// point, above [`OVERDISPERSION_LIMIT`]. Such series are tested on the
/// points' means (Student's t, as Otava), since their runs are not
/// exchangeable across points.
pub fn overdispersed(points: &[Vec<f64>]) -> bool {
    let means: Vec<f64> = points
        .iter()
        .map(|r| r.iter().sum::<f64>() / r.len() as f64)
        .collect();
    let diffs: Vec<f64> = means.windows(2).map(|w| w[1] - w[0]).collect();
    let with_spread: Vec<&Vec<f64>> = points.iter().filter(|r| r.len() >= 2).collect();
    if diffs.len() < 4 || with_spread.len() < 2 {
        return false;
    }
    let mad = {
        let m = median(&diffs);
        let dev: Vec<f64> = diffs.iter().map(|d| (d - m).abs()).collect();
        median(&dev)
    };
    let between = (mad / 0.6745).powi(2) / 2.0;
    let within = with_spread
        .iter()
        .map(|r| crate::stats::summary::variance(r))
        .sum::<f64>()
        / with_spread.len() as f64;
    let runs = with_spread.len() as f64
        / with_spread
            .iter()
            .map(|r| 1.0 / r.len() as f64)
            .sum::<f64>();
    if !(within > 0.0) {
        return between > 0.0;
    }
    between / (within / runs) > OVERDISPERSION_LIMIT
}

fn significant(s: &Step, params: &Params) -> bool {
    s.p < params.max_pvalue && s.magnitude() > params.min_magnitude
}

/// Steps of one window `[w0, w1)` of the series, in global indexes.
fn detect_window(
    points: &[Vec<f64>],
    means: &[f64],
    on_means: bool,
    w0: usize,
    w1: usize,
    params: &Params,
) -> Vec<usize> {
    let calc = Calculator::new(&means[w0..w1]);
    let mut cps: Vec<usize> = Vec::new();
    loop {
        let ivs = intervals(&cps, w1 - w0);
        let mut best: Option<(super::qhat::Candidate, (usize, usize))> = None;
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
        let step = test(points, means, on_means, w0 + s, w0 + cand.index, w0 + e);
        // The search goes on past a split that is not a step only if it is
        // not the window's best: as in Otava, the first failure ends it.
        if significant(&step, params) {
            let at = cps.partition_point(|&i| i < cand.index);
            cps.insert(at, cand.index);
        } else {
            break;
        }
    }
    cps.into_iter().map(|i| i + w0).collect()
}

/// The steps of a series of points (each a non-empty list of finite runs),
/// sorted by index. Series of fewer than 3 points have none.
pub fn steps(points: &[Vec<f64>], params: &Params) -> Vec<Step> {
    let n = points.len();
    if n < 3 || params.window_len < 2 {
        return Vec::new();
    }
    let means: Vec<f64> = points
        .iter()
        .map(|r| r.iter().sum::<f64>() / r.len() as f64)
        .collect();
    let on_means = overdispersed(points);
    let step = params.window_len / 2;
    let mut found: Vec<usize> = Vec::new();
    let mut start = 0;
    while start < n {
        let end = (start + params.window_len).min(n);
        let new = detect_window(points, &means, on_means, start, end, params);
        let last = new.last().copied().unwrap_or(0);
        start = last.max(start + step);
        for i in new {
            if !found.contains(&i) {
                found.push(i);
            }
        }
    }
    found.sort_unstable();
    merge(points, &means, on_means, found, params)
}

/// Removes the weakest step until every one is significant, recomputing the
/// steps on both sides of each removed one.
fn merge(
    points: &[Vec<f64>],
    means: &[f64],
    on_means: bool,
    idx: Vec<usize>,
    params: &Params,
) -> Vec<Step> {
    let n = points.len();
    let at = |idx: &[usize], k: usize| {
        let a = if k == 0 { 0 } else { idx[k - 1] };
        let c = idx.get(k + 1).copied().unwrap_or(n);
        test(points, means, on_means, a, idx[k], c)
    };
    let mut idx = idx;
    let mut steps: Vec<Step> = (0..idx.len()).map(|k| at(&idx, k)).collect();
    while !steps.is_empty() {
        let mut weakest = 0;
        for k in 1..steps.len() {
            if steps[k].p > steps[weakest].p {
                weakest = k;
            }
        }
        if steps[weakest].p < params.max_pvalue {
            weakest = 0;
            for k in 1..steps.len() {
                if steps[k].magnitude() < steps[weakest].magnitude() {
                    weakest = k;
                }
            }
            if steps[weakest].magnitude() > params.min_magnitude {
                break;
            }
        }
        steps.remove(weakest);
        idx.remove(weakest);
        for k in [weakest.wrapping_sub(1), weakest] {
            if k < steps.len() {
                steps[k] = at(&idx, k);
            }
        }
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts(levels: &[f64]) -> Vec<Vec<f64>> {
        levels
            .iter()
            .enumerate()
            .map(|(i, &l)| {
                (0..5)
                    .map(|r| l * (1.0 + 0.01 * (((i * 7 + r * 3) % 5) as f64 - 2.0)))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn one_step_is_found_where_it_is_with_the_runs_counted() {
        let mut levels = vec![100.0; 30];
        levels.extend(vec![110.0; 30]);
        let p = Params {
            window_len: 50,
            max_pvalue: 0.001,
            min_magnitude: 0.0,
        };
        let s = steps(&pts(&levels), &p);
        assert_eq!(s.len(), 1, "{s:?}");
        assert_eq!(s[0].index, 30);
        assert_eq!((s[0].n_before, s[0].n_after), (150, 150));
        assert!(s[0].p < 1e-10);
        assert!((s[0].magnitude() - 0.1).abs() < 0.01);
    }

    #[test]
    fn a_step_at_the_last_point_is_found_from_its_runs() {
        // Otava's t-test on one value per point cannot see a single last
        // point; five runs of it can.
        let mut levels = vec![100.0; 20];
        levels.push(120.0);
        let p = Params {
            window_len: 50,
            max_pvalue: 0.001,
            min_magnitude: 0.0,
        };
        let s = steps(&pts(&levels), &p);
        assert_eq!(s.iter().map(|s| s.index).collect::<Vec<_>>(), [20]);
        assert_eq!(s[0].n_after, 5);
    }

    #[test]
    fn points_varying_more_than_their_runs_are_told_apart() {
        // Runs ±1% around each point's level; levels alternate by ±5%.
        let wobbly: Vec<Vec<f64>> = (0..30)
            .map(|i| {
                let level = if i % 3 == 0 {
                    105.0
                } else {
                    100.0 - (i % 2) as f64 * 4.0
                };
                vec![level * 0.99, level, level * 1.01]
            })
            .collect();
        assert!(overdispersed(&wobbly));
        // Same runs, one level: the means vary as little as the runs say.
        assert!(!overdispersed(&pts(&[100.0; 30])));
    }

    #[test]
    fn flat_short_and_constant_series_have_no_steps() {
        let p = Params {
            window_len: 50,
            max_pvalue: 0.001,
            min_magnitude: 0.0,
        };
        assert!(steps(&pts(&[100.0; 40]), &p).is_empty());
        assert!(steps(&pts(&[100.0, 200.0]), &p).is_empty());
        assert!(steps(&vec![vec![3.0; 4]; 10], &p).is_empty());
    }
}
