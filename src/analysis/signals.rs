//! The limits of the soundness rules, each defined once, and the tests that
//! apply them. The analysis' findings, the checks' signatures and the
//! reports' per-benchmark notes all decide through these, so the same runs
//! are never called drifting or noisy in one output and not in another.

use crate::stats::diagnostics::{variance_ratio_from_stats, VarianceRatio};

/// Mann-Kendall p below which a side is said to drift over its run order.
/// Strict, because every side of every group is tested.
pub const DRIFT_P: f64 = 0.01;

/// Coefficient of variation (percent) from which a side is too noisy for
/// changes of a few percent to be read.
pub const HIGH_CV_PCT: f64 = 10.0;

/// Factor between two sides' standard deviations (either way) from which
/// their spreads are said to differ …
pub const SPREAD_RATIO: f64 = 2.0;

/// … when the F-test of equal variances also gives p below this.
pub const SPREAD_P: f64 = 0.01;

/// Sarle's bimodality coefficient of a uniform distribution, 5/9: above
/// it, a side's runs may fall into two clusters.
pub const BIMODAL: f64 = 5.0 / 9.0;

/// The debug-kernel pattern: the smallest |change| in percent that counts
/// as "a large factor" …
pub const PATTERN_MIN_CHANGE_PCT: f64 = 30.0;
/// … the share of a variant's comparisons that must move together …
pub const PATTERN_MIN_SHARE: f64 = 0.9;
/// … the fewest comparisons for the pattern to mean anything …
pub const PATTERN_MIN_COMPARISONS: usize = 3;
/// … and the inflation of spread that goes with it: the median ratio of
/// standard deviations at least [`SPREAD_RATIO`] …
pub const PATTERN_SD_RATIO: f64 = SPREAD_RATIO;
/// … or the median ratio of coefficients of variation at least this.
pub const PATTERN_CV_RATIO: f64 = 1.5;

/// Whether a side with this trend p drifts over its run order.
pub fn drifts(trend_p: Option<f64>) -> bool {
    trend_p.is_some_and(|p| p < DRIFT_P)
}

/// Whether a side with this coefficient of variation (percent) is noisy.
pub fn noisy(cv_pct: Option<f64>) -> bool {
    cv_pct.is_some_and(|cv| cv >= HIGH_CV_PCT)
}

/// Whether a variance ratio says the spreads differ: by [`SPREAD_RATIO`]
/// or more either way, and beyond chance ([`SPREAD_P`]).
pub fn spread_differs(vr: &VarianceRatio) -> bool {
    let sd_ratio = vr.ratio.sqrt();
    vr.p < SPREAD_P && !(1.0 / SPREAD_RATIO..=SPREAD_RATIO).contains(&sd_ratio)
}

/// [`spread_differs`] from stated spreads and counts: the variance ratio
/// (variant over baseline) when the spreads differ, `None` otherwise or
/// when either side lacks a spread or has fewer than two runs.
pub fn spread_differs_from_stats(
    base: (Option<f64>, Option<u64>),
    variant: (Option<f64>, Option<u64>),
) -> Option<VarianceRatio> {
    let ((Some(s1), Some(n1)), (Some(s2), Some(n2))) = (base, variant) else {
        return None;
    };
    variance_ratio_from_stats(s1, n1 as f64, s2, n2 as f64).filter(spread_differs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_limit_is_where_its_rule_turns() {
        assert!(drifts(Some(0.009)) && !drifts(Some(0.01)) && !drifts(None));
        assert!(noisy(Some(10.0)) && !noisy(Some(9.99)) && !noisy(None));
        // Twice the spread on 30 runs a side: beyond chance.
        let wide = spread_differs_from_stats((Some(1.0), Some(30)), (Some(2.5), Some(30)));
        assert!(wide.is_some_and(|vr| vr.ratio > 6.0));
        // The same factor the other way round.
        assert!(spread_differs_from_stats((Some(2.5), Some(30)), (Some(1.0), Some(30))).is_some());
        // Under the factor, however many runs.
        assert!(
            spread_differs_from_stats((Some(1.0), Some(1000)), (Some(1.9), Some(1000))).is_none()
        );
        // Over the factor but on three runs a side: chance can do that.
        assert!(spread_differs_from_stats((Some(1.0), Some(3)), (Some(2.5), Some(3))).is_none());
        assert!(spread_differs_from_stats((None, Some(30)), (Some(2.5), Some(30))).is_none());
    }
}
