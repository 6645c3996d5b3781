//! Power analysis for two independent sides, on the Welch t scale.
//!
//! - the minimum detectable difference at a power (80% by default) with the
//!   observed spreads and sizes;
//! - the n per side needed to detect a given difference at that power;
//! - the n per side at which an observed difference would become
//!   significant at all (for tables that do not state n).
//!
//! For Mann-Whitney comparisons the same normal-theory figures are used: they
//! are the usual planning approximation (the U test's efficiency relative to
//! t is ≥ 0.86 for any distribution and 0.95 for normal data).

use super::summary::t_quantile;
use super::welch::welch_df;

/// Power used throughout the reports.
pub const DEFAULT_POWER: f64 = 0.8;

/// Largest n per side the searches consider; beyond it "not reachable".
pub const MAX_N: u64 = 10_000_000;

/// One-sided quantile of t at probability `q` (t_{q, df}).
fn t_one_sided(q: f64, df: f64) -> f64 {
    // t_quantile takes a two-sided confidence c and returns t_{(1+c)/2}.
    t_quantile(2.0 * q - 1.0, df)
}

/// Smallest absolute difference of means a two-sided test at `alpha`
/// detects with probability `power`, given sds and sizes per side.
pub fn min_detectable_diff(
    s1: f64,
    n1: f64,
    s2: f64,
    n2: f64,
    alpha: f64,
    power: f64,
) -> Option<f64> {
    if n1 < 2.0 || n2 < 2.0 || !(s1 >= 0.0 && s2 >= 0.0) {
        return None;
    }
    let se = (s1 * s1 / n1 + s2 * s2 / n2).sqrt();
    if !(se > 0.0) {
        return None;
    }
    let df = welch_df(s1, n1, s2, n2);
    Some((t_one_sided(1.0 - alpha / 2.0, df) + t_one_sided(power, df)) * se)
}

/// Smallest n per side (equal sizes) that detects `diff` with `power` at
/// `alpha`. `None` without spread, for a zero difference, or beyond [`MAX_N`].
pub fn n_to_detect(diff: f64, s1: f64, s2: f64, alpha: f64, power: f64) -> Option<u64> {
    smallest_n(diff, s1, s2, |df| {
        t_one_sided(1.0 - alpha / 2.0, df) + t_one_sided(power, df)
    })
}

/// Smallest n per side (equal sizes) at which an observed difference `diff`
/// with sds `s1`, `s2` gives a two-sided Welch p below `alpha`.
pub fn n_to_significance(diff: f64, s1: f64, s2: f64, alpha: f64) -> Option<u64> {
    smallest_n(diff, s1, s2, |df| t_one_sided(1.0 - alpha / 2.0, df))
}

/// Smallest n ≥ 2 with crit(df(n)) · √((s1²+s2²)/n) < |diff|. The left
/// side falls monotonically with n, so the answer is the one n where the
/// test turns true; each test costs two t quantiles, so the search starts
/// where the normal approximation (crit at df = ∞, which the t quantiles
/// only exceed) puts that n, and gallops from there: about five tests
/// where doubling from 2 and bisecting took about thirteen.
fn smallest_n(diff: f64, s1: f64, s2: f64, crit: impl Fn(f64) -> f64) -> Option<u64> {
    let d = diff.abs();
    let ss = s1 * s1 + s2 * s2;
    if !(d > 0.0) || !(ss > 0.0) || !d.is_finite() || !ss.is_finite() {
        return None;
    }
    let ok = |n: u64| {
        let nf = n as f64;
        let df = welch_df(s1, nf, s2, nf);
        crit(df) * (ss / nf).sqrt() < d
    };
    let z = crit(f64::INFINITY);
    let guess = (z * z * ss / (d * d)).ceil();
    let start = if guess.is_finite() && guess >= 2.0 {
        (guess as u64).min(MAX_N)
    } else {
        2
    };
    // (lo, hi): not ok at lo (or lo < 2), ok at hi.
    let (lo, hi) = if ok(start) {
        let mut hi = start;
        let mut step = 1;
        loop {
            if hi <= 2 {
                return Some(2);
            }
            let below = hi.saturating_sub(step).max(2);
            if !ok(below) {
                break (below, hi);
            }
            hi = below;
            step *= 2;
        }
    } else {
        let mut lo = start;
        let mut step = 1;
        loop {
            if lo >= MAX_N {
                return None;
            }
            let above = (lo + step).min(MAX_N);
            if ok(above) {
                break (lo, above);
            }
            lo = above;
            step *= 2;
        }
    };
    Some(first_ok(lo, hi, ok))
}

/// The smallest n in (lo, hi] at which `ok` holds, given that it does not
/// at `lo` and does at `hi` (and from there on).
fn first_ok(mut lo: u64, mut hi: u64, ok: impl Fn(u64) -> bool) -> u64 {
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if ok(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// The search [`smallest_n`] replaced (doubling from 2, then bisection),
/// kept to check that both give the same n.
#[cfg(test)]
fn smallest_n_by_doubling(diff: f64, s1: f64, s2: f64, crit: impl Fn(f64) -> f64) -> Option<u64> {
    let d = diff.abs();
    let ss = s1 * s1 + s2 * s2;
    if !(d > 0.0) || !(ss > 0.0) || !d.is_finite() || !ss.is_finite() {
        return None;
    }
    let ok = |n: u64| {
        let nf = n as f64;
        let df = welch_df(s1, nf, s2, nf);
        crit(df) * (ss / nf).sqrt() < d
    };
    let mut hi = 2u64;
    while !ok(hi) {
        if hi >= MAX_N {
            return None;
        }
        hi = (hi * 2).min(MAX_N);
    }
    let lo = hi / 2;
    if lo < 2 {
        return Some(2);
    }
    Some(first_ok(lo, hi, ok))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::welch::welch_from_stats;

    /// With hundreds of thousands of samples per side the t quantiles of
    /// the search must still fall with n (they once came from an inversion
    /// that drifted at large df): the n found is the first that detects
    /// the difference, and the one before it does not.
    #[test]
    fn n_to_detect_is_exact_at_large_n() {
        for (diff, s1, s2) in [(0.01, 1.0, 1.3), (0.003, 0.5, 0.7), (0.0005, 0.1, 0.2)] {
            let n = n_to_detect(diff, s1, s2, 0.05, DEFAULT_POWER).unwrap();
            assert!(n > 100_000, "{n}");
            let mdd = |n: u64| {
                min_detectable_diff(s1, n as f64, s2, n as f64, 0.05, DEFAULT_POWER).unwrap()
            };
            assert!(mdd(n) < diff, "n {n}");
            assert!(mdd(n - 1) >= diff, "n {n}");
            // And the quantity the search bisects on falls with n.
            let mut last = f64::INFINITY;
            for k in (n - 50..n + 50).step_by(7) {
                assert!(mdd(k) < last, "not monotone at {k}");
                last = mdd(k);
            }
        }
    }

    #[test]
    fn significance_n_is_the_first_n_below_alpha() {
        // Seed 003, table 1 at 512 threads: 4.241 ± 0.9762 vs 12.366 ± 5.102.
        let n = n_to_significance(12.366 - 4.241, 0.9762, 5.102, 0.05).unwrap();
        let p = |n: f64| {
            welch_from_stats(4.241, 0.9762, n, 12.366, 5.102, n)
                .unwrap()
                .p
        };
        assert!(p(n as f64) < 0.05);
        assert!(n == 2 || p((n - 1) as f64) >= 0.05, "n = {n}");
        assert_eq!(n, 4);
    }

    #[test]
    fn detect_n_matches_the_textbook_formula_for_large_n() {
        // sd 1 per side, diff 0.2: n ≈ 2 (1.96 + 0.8416)² / 0.04 = 392.4 → 394 with t.
        let n = n_to_detect(0.2, 1.0, 1.0, 0.05, 0.8).unwrap();
        assert!((393..=395).contains(&n), "{n}");
        let mdd = min_detectable_diff(1.0, n as f64, 1.0, n as f64, 0.05, 0.8).unwrap();
        assert!(mdd <= 0.2 && mdd > 0.199, "{mdd}");
    }

    /// The galloping search finds the n the doubling search found, over
    /// answers from 2 to beyond [`MAX_N`], for both criteria.
    #[test]
    fn galloping_search_agrees_with_doubling() {
        let detect = |df: f64| t_one_sided(1.0 - 0.05 / 2.0, df) + t_one_sided(DEFAULT_POWER, df);
        let signif = |df: f64| t_one_sided(1.0 - 0.05 / 2.0, df);
        let mut checked = 0;
        for &(s1, s2) in &[(1.0, 1.0), (0.5, 2.0), (3.0, 0.01), (1e-3, 1e-3)] {
            let mut diff = 40.0 * (s1 + s2);
            while diff > 1e-4 * (s1 + s2) {
                assert_eq!(
                    smallest_n(diff, s1, s2, detect),
                    smallest_n_by_doubling(diff, s1, s2, detect),
                    "detect diff {diff} sds {s1} {s2}"
                );
                assert_eq!(
                    smallest_n(diff, s1, s2, signif),
                    smallest_n_by_doubling(diff, s1, s2, signif),
                    "significance diff {diff} sds {s1} {s2}"
                );
                checked += 1;
                diff *= 0.83;
            }
        }
        assert!(checked > 150, "{checked}");
        // Beyond the largest n searched: no answer either way.
        assert_eq!(smallest_n(1e-9, 1.0, 1.0, detect), None);
        assert_eq!(smallest_n_by_doubling(1e-9, 1.0, 1.0, detect), None);
    }

    #[test]
    fn no_spread_or_no_difference_has_no_answer() {
        assert_eq!(n_to_significance(1.0, 0.0, 0.0, 0.05), None);
        assert_eq!(n_to_detect(0.0, 1.0, 1.0, 0.05, 0.8), None);
        assert_eq!(min_detectable_diff(1.0, 1.0, 1.0, 5.0, 0.05, 0.8), None);
    }
}
