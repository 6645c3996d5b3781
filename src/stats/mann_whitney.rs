//! Mann-Whitney U test (two-sided), the default test on raw samples.
//!
//! - Small samples (one side ≤ 8, as SciPy's `auto`, and at most
//!   [`EXACT_MAX_TOTAL`] values in all): exact p from the permutation
//!   distribution of the rank sum. Without ties this is SciPy's
//!   `method="exact"`; with ties it is the exact conditional distribution of
//!   the mid-ranks (SciPy's `PermutationMethod(n_resamples=inf)`), which is
//!   exact where SciPy's `auto` would fall back to the normal approximation.
//!   Seed 002's 5 vs 5 fully separated samples (with a tie) give 2/252.
//! - Otherwise: normal approximation with the tie-corrected variance and a
//!   continuity correction of 0.5, as SciPy's `method="asymptotic"`.

use super::pvalue::clamp_p;
use statrs::distribution::{ContinuousCDF, Normal};

/// Exact p only while the smaller side has at most this many values (SciPy's
/// cut-off for `auto`).
pub const EXACT_MAX_SMALL_SIDE: usize = 8;
/// ... and the two sides together at most this many (bounds the work of the
/// rank-sum enumeration, O(total² · small side²)).
pub const EXACT_MAX_TOTAL: usize = 1000;

/// How the p-value was computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MwuMethod {
    /// Exact permutation distribution (conditional on ties, if any).
    Exact,
    /// Normal approximation with tie and continuity correction.
    Asymptotic,
}

/// Which method to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MwuChoice {
    /// Exact for small samples, asymptotic otherwise.
    #[default]
    Auto,
    /// The exact distribution of U wherever the two sides together are
    /// small enough to compute it (else the normal approximation).
    Exact,
    /// The normal approximation, with tie and continuity correction.
    Asymptotic,
}

/// Result of a two-sided Mann-Whitney U test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MwuResult {
    /// U of the first sample: the number of pairs (x, y) with x > y, ties
    /// counting ½ (SciPy's `statistic`).
    pub u: f64,
    /// Two-sided p-value, clamped to [`super::P_FLOOR`].
    pub p: f64,
    /// Whether p is exact or from the normal approximation.
    pub method: MwuMethod,
    /// True when any value occurs more than once in the pooled sample.
    pub ties: bool,
}

/// Two-sided test with the automatic choice of method; `None` when a side is
/// empty or holds non-finite values.
pub fn mann_whitney_u(x: &[f64], y: &[f64]) -> Option<MwuResult> {
    mann_whitney_u_with(x, y, MwuChoice::Auto)
}

/// Two-sided test with an explicit method. `Exact` on inputs larger than
/// [`EXACT_MAX_TOTAL`] falls back to the approximation.
pub fn mann_whitney_u_with(x: &[f64], y: &[f64], choice: MwuChoice) -> Option<MwuResult> {
    let (n1, n2) = (x.len(), y.len());
    if n1 == 0 || n2 == 0 || x.iter().chain(y).any(|v| !v.is_finite()) {
        return None;
    }
    test(rank(x, y), n1, n2, choice)
}

/// [`mann_whitney_u`] of two sides already in ascending order: the ranks
/// come from merging them instead of sorting the pooled sample (same
/// result: only the ranks matter).
pub fn mann_whitney_u_sorted(sx: &[f64], sy: &[f64]) -> Option<MwuResult> {
    let (n1, n2) = (sx.len(), sy.len());
    if n1 == 0 || n2 == 0 || sx.iter().chain(sy).any(|v| !v.is_finite()) {
        return None;
    }
    // Only the exact test reads each rank: the asymptotic one needs their
    // sums, and the ranks of two sides of ten million samples were 160 MB.
    let ranks = exact_for(n1, n2, MwuChoice::Auto);
    test(rank_sorted(sx, sy, ranks), n1, n2, MwuChoice::Auto)
}

/// Whether the test of sides of `n1` and `n2` samples is exact.
fn exact_for(n1: usize, n2: usize, choice: MwuChoice) -> bool {
    let small = n1.min(n2) <= EXACT_MAX_SMALL_SIDE;
    let fits = n1 + n2 <= EXACT_MAX_TOTAL;
    match choice {
        MwuChoice::Auto => small && fits,
        MwuChoice::Exact => fits,
        MwuChoice::Asymptotic => false,
    }
}

fn test(ranked: Ranked, n1: usize, n2: usize, choice: MwuChoice) -> Option<MwuResult> {
    let u1 = ranked.doubled_rank_sum_x as f64 / 2.0 - (n1 * (n1 + 1)) as f64 / 2.0;
    let ties = ranked.tie_term > 0.0;
    let exact = exact_for(n1, n2, choice);
    let p = if exact {
        exact_p(&ranked, n1, n2)
    } else {
        asymptotic_p(u1, n1, n2, ranked.tie_term)
    };
    Some(MwuResult {
        u: u1,
        p: clamp_p(p),
        method: if exact {
            MwuMethod::Exact
        } else {
            MwuMethod::Asymptotic
        },
        ties,
    })
}

struct Ranked {
    /// Mid-ranks ×2 (integers) of the pooled sample, in no particular order.
    doubled: Vec<u64>,
    doubled_rank_sum_x: u64,
    /// Σ (t³ − t) over tie groups.
    tie_term: f64,
}

fn rank(x: &[f64], y: &[f64]) -> Ranked {
    let n = x.len() + y.len();
    let mut idx: Vec<(f64, usize)> = x.iter().chain(y).copied().zip(0..n).collect();
    idx.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    let mut doubled = vec![0u64; n];
    let mut tie_term = 0.0;
    let mut i = 0;
    while i < n {
        let mut j = i + 1;
        while j < n && idx[j].0 == idx[i].0 {
            j += 1;
        }
        // Ranks i+1 ..= j share the mid-rank (i+1+j)/2; doubled: i+1+j.
        let d = (i + 1 + j) as u64;
        for item in &idx[i..j] {
            doubled[item.1] = d;
        }
        let t = (j - i) as f64;
        tie_term += t * t * t - t;
        i = j;
    }
    let doubled_rank_sum_x = doubled[..x.len()].iter().sum();
    Ranked {
        doubled,
        doubled_rank_sum_x,
        tie_term,
    }
}

/// [`rank`] of two ascending sides by merging them: the same tie groups in
/// the same order, so the same rank sum and tie term.
/// `keep`: whether to keep each rank (the exact test's), not only their
/// sums.
fn rank_sorted(sx: &[f64], sy: &[f64], keep: bool) -> Ranked {
    let n = sx.len() + sy.len();
    let mut doubled = Vec::with_capacity(if keep { n } else { 0 });
    let mut tie_term = 0.0;
    let mut doubled_rank_sum_x = 0u64;
    let (mut i, mut j) = (0usize, 0usize);
    while i + j < n {
        // The group's value: the smaller head (either when only one is left).
        let v = match (sx.get(i), sy.get(j)) {
            (Some(&a), Some(&b)) => {
                if a.total_cmp(&b).is_le() {
                    a
                } else {
                    b
                }
            }
            (Some(&a), None) => a,
            (None, Some(&b)) => b,
            (None, None) => break,
        };
        let (i0, j0) = (i, j);
        while sx.get(i) == Some(&v) {
            i += 1;
        }
        while sy.get(j) == Some(&v) {
            j += 1;
        }
        // Ranks start+1 ..= end share the doubled mid-rank start+1+end.
        let (start, end) = (i0 + j0, i + j);
        let d = (start + 1 + end) as u64;
        if keep {
            doubled.extend(std::iter::repeat_n(d, end - start));
        }
        doubled_rank_sum_x += d * (i - i0) as u64;
        let t = (end - start) as f64;
        tie_term += t * t * t - t;
    }
    Ranked {
        doubled,
        doubled_rank_sum_x,
        tie_term,
    }
}

/// Exact two-sided p: enumerates the distribution of the doubled rank sum of
/// the smaller side over all C(n, k) equally likely assignments, then
/// p = min(1, 2·min(P(S ≤ s), P(S ≥ s))). Counts are summed as f64; every
/// term is positive, so the relative error stays near machine precision.
fn exact_p(r: &Ranked, n1: usize, n2: usize) -> f64 {
    // Enumerate the side with fewer values; its rank sum determines U.
    let (k, observed) = if n1 <= n2 {
        (n1, r.doubled_rank_sum_x)
    } else {
        let total: u64 = r.doubled.iter().sum();
        (n2, total - r.doubled_rank_sum_x)
    };
    let mut sorted = r.doubled.clone();
    sorted.sort_unstable();
    let max_sum: u64 = sorted.iter().rev().take(k).sum();
    let width = max_sum as usize + 1;
    // cnt[j * width + s]: ways to choose j of the values seen so far with sum s.
    let mut cnt = vec![0.0f64; (k + 1) * width];
    cnt[0] = 1.0;
    let mut reach = 0usize; // largest sum reachable so far
    for (i, &d) in sorted.iter().enumerate() {
        let d = d as usize;
        let top = (i + 1).min(k);
        for j in (1..=top).rev() {
            let (lower, upper) = cnt.split_at_mut(j * width);
            let from = &lower[(j - 1) * width..];
            let to = &mut upper[..width];
            let limit = reach.min(width - 1 - d);
            for s in 0..=limit {
                let c = from[s];
                if c != 0.0 {
                    to[s + d] += c;
                }
            }
        }
        reach = (reach + d).min(width - 1);
    }
    let dist = &cnt[k * width..(k + 1) * width];
    let total: f64 = dist.iter().sum();
    let obs = observed as usize;
    let le: f64 = dist[..=obs.min(width - 1)].iter().sum();
    let ge: f64 = if obs < width {
        dist[obs..].iter().sum()
    } else {
        0.0
    };
    (2.0 * le.min(ge) / total).min(1.0)
}

/// Normal approximation as SciPy: U = max(U1, U2), z = (U − n1·n2/2 − ½)/σ
/// with the tie-corrected σ, p = 2·Φ(−z), at most 1. All-equal samples
/// (σ = 0) give p = 1.
fn asymptotic_p(u1: f64, n1: usize, n2: usize, tie_term: f64) -> f64 {
    let (a, b) = (n1 as f64, n2 as f64);
    let n = a + b;
    let u = u1.max(a * b - u1);
    let mu = a * b / 2.0;
    let var = a * b / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)));
    let num = u - mu - 0.5;
    if var <= 0.0 {
        return 1.0;
    }
    let z = num / var.sqrt();
    (2.0 * Normal::standard().sf(z)).min(1.0)
}

/// The smallest two-sided p-value any data with these sizes can reach
/// (complete separation, no ties): 2 / C(n1+n2, n1). Below α no sample
/// of this size can be significant (benchstat's "need ≥ 4 samples").
pub fn min_possible_p(n1: usize, n2: usize) -> f64 {
    let k = n1.min(n2);
    let n = n1 + n2;
    let mut c = 1.0f64;
    for i in 0..k {
        c = c * (n - i) as f64 / (i + 1) as f64;
    }
    (2.0 / c).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merged_ranks_give_the_same_test_as_the_pooled_sort() {
        let mut state = 7u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            state >> 33
        };
        for (n1, n2) in [
            (1, 1),
            (3, 8),
            (8, 3),
            (5, 5),
            (30, 30),
            (100, 64),
            (9, 200),
        ] {
            for levels in [2u64, 7, 1 << 30] {
                let x: Vec<f64> = (0..n1).map(|_| (next() % levels) as f64 * 0.5).collect();
                let mut y: Vec<f64> = (0..n2).map(|_| (next() % levels) as f64 * 0.5).collect();
                y[0] = -0.0;
                let (mut sx, mut sy) = (x.clone(), y.clone());
                sx.sort_unstable_by(f64::total_cmp);
                sy.sort_unstable_by(f64::total_cmp);
                assert_eq!(
                    mann_whitney_u_sorted(&sx, &sy),
                    mann_whitney_u(&x, &y),
                    "n={n1}+{n2} levels={levels}"
                );
                // Ranks not kept (the asymptotic test's case): the same sums.
                let (kept, summed) = (rank_sorted(&sx, &sy, true), rank_sorted(&sx, &sy, false));
                assert_eq!(kept.doubled.len(), n1 + n2);
                assert!(summed.doubled.is_empty());
                assert_eq!(
                    (kept.doubled_rank_sum_x, kept.tie_term),
                    (summed.doubled_rank_sum_x, summed.tie_term)
                );
            }
        }
    }

    #[test]
    fn fully_separated_five_by_five_is_two_over_252() {
        let a = [2.978, 2.982, 3.010, 2.984, 2.982];
        let b = [3.733, 3.750, 3.761, 3.737, 3.741];
        let r = mann_whitney_u(&a, &b).unwrap();
        assert_eq!(r.method, MwuMethod::Exact);
        assert!(r.ties);
        assert_eq!(r.u, 0.0);
        assert!((r.p - 2.0 / 252.0).abs() < 1e-15);
        let r = mann_whitney_u(&b, &a).unwrap();
        assert_eq!(r.u, 25.0);
        assert!((r.p - 2.0 / 252.0).abs() < 1e-15);
    }

    #[test]
    fn exact_with_ties_matches_scipy_permutation() {
        // scipy: mannwhitneyu([1,2,2,3],[2,3,3,4], method=PermutationMethod(inf))
        let r = mann_whitney_u(&[1.0, 2.0, 2.0, 3.0], &[2.0, 3.0, 3.0, 4.0]).unwrap();
        assert_eq!(r.u, 3.0);
        assert!((r.p - 0.2857142857142857).abs() < 1e-12, "{}", r.p);
    }

    #[test]
    fn identical_samples_give_one() {
        let r = mann_whitney_u(&[1.0; 3], &[1.0; 3]).unwrap();
        assert_eq!(r.p, 1.0);
        assert_eq!(r.u, 4.5);
        let r = mann_whitney_u_with(&[1.0; 30], &[1.0; 30], MwuChoice::Asymptotic).unwrap();
        assert_eq!(r.p, 1.0);
    }

    #[test]
    fn empty_or_nan_is_refused() {
        assert!(mann_whitney_u(&[], &[1.0]).is_none());
        assert!(mann_whitney_u(&[f64::NAN], &[1.0]).is_none());
    }

    #[test]
    fn min_possible_p_explains_small_n() {
        assert!((min_possible_p(5, 5) - 2.0 / 252.0).abs() < 1e-15);
        assert!(min_possible_p(3, 3) > 0.05);
        assert!(min_possible_p(4, 4) < 0.05);
    }
}
