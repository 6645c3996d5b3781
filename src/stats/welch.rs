//! Welch's unequal-variance t-test, from samples or from stated summaries
//! (mean, standard deviation, n per side), with Welch–Satterthwaite degrees
//! of freedom. Matches SciPy's `ttest_ind(equal_var=False)` and
//! `ttest_ind_from_stats(equal_var=False)`.

use super::pvalue::clamp_p;
use super::summary::{mean, stddev};

/// Result of a two-sided Welch test of mean(y) − mean(x) (or b − a).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WelchResult {
    /// t statistic of the first side minus the second, SciPy's sign.
    pub t: f64,
    /// Welch–Satterthwaite degrees of freedom.
    pub df: f64,
    /// Two-sided p-value, clamped to [`super::P_FLOOR`].
    pub p: f64,
    /// Standard error of the difference of means.
    pub se: f64,
}

/// Welch test from summaries of side 1 (`m1`, `s1`, `n1`) and side 2.
///
/// `None` when a side has n < 2, a stddev is negative or non-finite, or both
/// stddevs are 0 (no variance information: the test is undefined, not
/// "infinitely significant").
pub fn welch_from_stats(
    m1: f64,
    s1: f64,
    n1: f64,
    m2: f64,
    s2: f64,
    n2: f64,
) -> Option<WelchResult> {
    let finite = [m1, s1, n1, m2, s2, n2].iter().all(|v| v.is_finite());
    if !finite || n1 < 2.0 || n2 < 2.0 || s1 < 0.0 || s2 < 0.0 {
        return None;
    }
    if let Some(w) = welch_unscaled(m1, s1, n1, m2, s2, n2).filter(|w| w.p.is_finite()) {
        return Some(w);
    }
    // Squares of values beyond about 1e154 overflow, and of values below
    // about 1e-154 vanish, which leaves t or df undefined or the spread 0.
    // The test does not depend on the unit, so it is taken again in units
    // of the largest value; `se` is scaled back.
    let c = [m1.abs(), s1, m2.abs(), s2].into_iter().fold(0.0, f64::max);
    if !(c > 0.0) {
        return None;
    }
    let w = welch_unscaled(m1 / c, s1 / c, n1, m2 / c, s2 / c, n2)?;
    w.p.is_finite().then_some(WelchResult { se: w.se * c, ..w })
}

/// [`welch_from_stats`] computed as the values come.
fn welch_unscaled(m1: f64, s1: f64, n1: f64, m2: f64, s2: f64, n2: f64) -> Option<WelchResult> {
    let v1 = s1 * s1 / n1;
    let v2 = s2 * s2 / n2;
    let se2 = v1 + v2;
    if se2 <= 0.0 {
        return None;
    }
    let se = se2.sqrt();
    let t = (m1 - m2) / se;
    let df = se2 * se2 / (v1 * v1 / (n1 - 1.0) + v2 * v2 / (n2 - 1.0));
    Some(WelchResult {
        t,
        df,
        p: clamp_p(t_two_sided_p(t, df)),
        se,
    })
}

/// Welch test on raw samples.
pub fn welch(x: &[f64], y: &[f64]) -> Option<WelchResult> {
    if x.len() < 2 || y.len() < 2 || x.iter().chain(y).any(|v| !v.is_finite()) {
        return None;
    }
    // `stddev` keeps the spread of values near 1e±200 a number, and
    // `welch_from_stats` squares it in units it can hold.
    welch_from_stats(
        mean(x),
        stddev(x),
        x.len() as f64,
        mean(y),
        stddev(y),
        y.len() as f64,
    )
}

/// Welch–Satterthwaite degrees of freedom for two sides.
pub fn welch_df(s1: f64, n1: f64, s2: f64, n2: f64) -> f64 {
    let v1 = s1 * s1 / n1;
    let v2 = s2 * s2 / n2;
    (v1 + v2).powi(2) / (v1 * v1 / (n1 - 1.0) + v2 * v2 / (n2 - 1.0))
}

/// Two-sided p of Student's t: P(|T| ≥ |t|) = I_{df/(df+t²)}(df/2, ½).
///
/// Computed directly from the regularised incomplete beta rather than as
/// 2·(1 − cdf) so that small p-values keep their relative precision.
pub fn t_two_sided_p(t: f64, df: f64) -> f64 {
    if t.is_nan() || df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if t.is_infinite() {
        return 0.0;
    }
    if df.is_infinite() {
        // The t distribution's limit; df / (df + t²) would be ∞ / ∞.
        let normal = statrs::distribution::Normal::standard();
        return (2.0 * statrs::distribution::ContinuousCDF::sf(&normal, t.abs())).min(1.0);
    }
    let x = df / (df + t * t);
    if x >= 1.0 {
        return 1.0;
    }
    // statrs panics outside its domain; no input may reach a panic.
    statrs::function::beta::checked_beta_reg(df / 2.0, 0.5, x).unwrap_or(f64::NAN)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_003_table_1_at_64_threads_with_n_10() {
        // scipy.stats.ttest_ind_from_stats(0.897, 0.3455, 10, 2.557, 0.371, 10, equal_var=False)
        let r = welch_from_stats(0.897, 0.3455, 10.0, 2.557, 0.371, 10.0).unwrap();
        assert!((r.t - -10.35456887213928).abs() < 1e-9, "{}", r.t);
        assert!((r.p / 5.48420636432145e-09 - 1.0).abs() < 1e-9, "{}", r.p);
    }

    #[test]
    fn underflow_is_clamped_not_zero() {
        let r = welch_from_stats(6656.85, 463.30, 5000.0, 9720.12, 426.45, 5000.0).unwrap();
        assert!((r.t - -343.98945412999325).abs() < 1e-6);
        assert_eq!(r.p, crate::stats::P_FLOOR);
    }

    #[test]
    fn the_unit_does_not_matter_even_where_squares_overflow() {
        let at = |c: f64| welch_from_stats(0.897 * c, 0.3455 * c, 10.0, 2.557 * c, 0.371 * c, 10.0);
        let one = at(1.0).unwrap();
        for c in [1e-200, 1e-160, 1e160, 1e200, 1e300] {
            let r = at(c).unwrap_or_else(|| panic!("no test at scale {c}"));
            assert!((r.t / one.t - 1.0).abs() < 1e-12, "{c}: t {}", r.t);
            assert!((r.df / one.df - 1.0).abs() < 1e-12, "{c}: df {}", r.df);
            assert!((r.p / one.p - 1.0).abs() < 1e-9, "{c}: p {}", r.p);
        }
        // Raw samples whose squared deviations overflow: the same test.
        let x = [0.897, 1.2, 0.5, 0.9];
        let y = [2.557, 2.1, 2.9, 2.6];
        let big = |s: &[f64]| s.iter().map(|v| v * 1e200).collect::<Vec<_>>();
        let (w, wb) = (welch(&x, &y).unwrap(), welch(&big(&x), &big(&y)).unwrap());
        assert!((wb.t / w.t - 1.0).abs() < 1e-12 && (wb.p / w.p - 1.0).abs() < 1e-9);
        // And whose squared deviations vanish.
        let tiny = |s: &[f64]| s.iter().map(|v| v * 1e-200).collect::<Vec<_>>();
        let wt = welch(&tiny(&x), &tiny(&y)).unwrap();
        assert!((wt.t / w.t - 1.0).abs() < 1e-12 && (wt.p / w.p - 1.0).abs() < 1e-9);
        // Sides 400 orders of magnitude apart: the first is 0 in units of
        // the second, whose spread alone remains (t = −√10 / 0.1, df = 9).
        // scipy.stats.ttest_ind_from_stats(0, 0, 10, 1, 0.1, 10,
        // equal_var=False).pvalue = 1.5522133898e-10
        let far = welch_from_stats(1e-200, 1e-201, 10.0, 1e200, 1e199, 10.0).unwrap();
        assert!((far.df - 9.0).abs() < 1e-9, "{}", far.df);
        assert!((far.p / 1.5522133898e-10 - 1.0).abs() < 1e-6, "{}", far.p);
    }

    #[test]
    fn refuses_what_it_cannot_test() {
        assert!(welch_from_stats(1.0, 0.0, 5.0, 2.0, 0.0, 5.0).is_none());
        assert!(welch_from_stats(1.0, 1.0, 1.0, 2.0, 1.0, 5.0).is_none());
        assert!(welch(&[1.0], &[1.0, 2.0]).is_none());
    }

    #[test]
    fn t_p_is_precise_in_the_tail() {
        // scipy: 2*stats.t.sf(8, 20) = 1.165662827148851e-07
        let p = t_two_sided_p(8.0, 20.0);
        assert!((p / 1.165662827148851e-07 - 1.0).abs() < 1e-9, "{p}");
    }
}
