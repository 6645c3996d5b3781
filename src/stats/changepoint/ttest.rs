//! Otava's significance test of a split: Student's two-sample t-test
//! (pooled variance) on the two segments, computed as SciPy's
//! `ttest_ind_from_stats` does when it is given NumPy's population standard
//! deviations (`ddof=0`), which is what Otava passes.

use super::numpy_sum;
use crate::stats::welch::t_two_sided_p;

/// The statistics of two adjacent segments.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SegmentStats {
    /// Mean of the segment before.
    pub mean_before: f64,
    /// Mean of the segment after.
    pub mean_after: f64,
    /// Population standard deviations (0 for a single value).
    pub std_before: f64,
    /// Population standard deviation of the segment after (`std_before`: before).
    pub std_after: f64,
    /// Two-sided p; NaN when both segments are constant and equal.
    pub p: f64,
}

impl SegmentStats {
    /// `mean_after / mean_before − 1`, 0 when the mean before is 0.
    pub fn forward_rel_change(&self) -> f64 {
        if self.mean_before == 0.0 {
            0.0
        } else {
            self.mean_after / self.mean_before - 1.0
        }
    }

    /// `mean_before / mean_after − 1`, 0 when the mean after is 0.
    pub fn backward_rel_change(&self) -> f64 {
        if self.mean_after == 0.0 {
            0.0
        } else {
            self.mean_before / self.mean_after - 1.0
        }
    }

    /// The larger of both relative changes in absolute value (Otava's
    /// `change_magnitude`, which `min_magnitude` is compared with).
    pub fn magnitude(&self) -> f64 {
        py_max(
            self.forward_rel_change().abs(),
            self.backward_rel_change().abs(),
        )
    }
}

/// Python's `max(a, b)`: `b` only when `b > a` (so a NaN `a` stays).
fn py_max(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}

/// Tests `left` against `right` (both non-empty).
pub fn compare(left: &[f64], right: &[f64]) -> SegmentStats {
    debug_assert!(!left.is_empty() && !right.is_empty());
    let mean_l = numpy_sum::mean(left);
    let mean_r = numpy_sum::mean(right);
    let std_l = if left.len() >= 2 {
        numpy_sum::std(left)
    } else {
        0.0
    };
    let std_r = if right.len() >= 2 {
        numpy_sum::std(right)
    } else {
        0.0
    };
    let (n1, n2) = (left.len(), right.len());
    let p = if n1 + n2 > 2 {
        let v1 = if n1 == 1 { 0.0 } else { std_l * std_l };
        let v2 = if n2 == 1 { 0.0 } else { std_r * std_r };
        let df = n1 as f64 + n2 as f64 - 2.0;
        let svar = ((n1 - 1) as f64 * v1 + (n2 - 1) as f64 * v2) / df;
        let denom = (svar * (1.0 / n1 as f64 + 1.0 / n2 as f64)).sqrt();
        let t = (mean_l - mean_r) / denom;
        t_two_sided_p(t, df)
    } else {
        1.0
    };
    SegmentStats {
        mean_before: mean_l,
        mean_after: mean_r,
        std_before: std_l,
        std_after: std_r,
        p,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_scipy_on_population_deviations() {
        // x = [1, 2, 3, 4], y = [3, 5, 4, 6, 7];
        // ttest_ind_from_stats(np.mean(x), np.std(x), 4, np.mean(y), np.std(y), 5)
        // = (-2.8764964242089706, 0.023770271154038115)
        let s = compare(&[1.0, 2.0, 3.0, 4.0], &[3.0, 5.0, 4.0, 6.0, 7.0]);
        assert!((s.p / 0.023770271154038115 - 1.0).abs() < 1e-12, "{}", s.p);
        assert_eq!(s.mean_before, 2.5);
        assert_eq!(s.mean_after, 5.0);
        // Constant and equal: 0/0 is NaN, as in SciPy; constant and
        // different: an infinite t and p = 0.
        assert!(compare(&[1.0, 1.0], &[1.0, 1.0]).p.is_nan());
        assert_eq!(compare(&[1.0, 1.0], &[2.0, 2.0]).p, 0.0);
        assert_eq!(compare(&[1.0], &[2.0]).p, 1.0);
        assert_eq!(s.magnitude(), 1.0);
    }
}
