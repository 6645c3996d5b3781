//! The delta-method interval of the ratio of two means given as summaries
//! (mean, sd, n), as e-mail tables state them.

use super::summary::t_quantile;
use super::welch::welch_df;

/// Delta-method CI of the ratio of means m2 / m1 from summaries, built on
/// the log scale (so it stays positive and is asymmetric like the ratio):
/// ln(m2/m1) ± t · √(s1²/(n1·m1²) + s2²/(n2·m2²)), with t at the
/// Welch–Satterthwaite df of the two means. `None` for non-positive means,
/// n < 2, or no spread information.
pub fn delta_ratio_ci(
    m1: f64,
    s1: f64,
    n1: f64,
    m2: f64,
    s2: f64,
    n2: f64,
    confidence: f64,
) -> Option<(f64, f64)> {
    if !(m1 > 0.0 && m2 > 0.0) || n1 < 2.0 || n2 < 2.0 || s1 < 0.0 || s2 < 0.0 {
        return None;
    }
    let rel2 = s1 * s1 / (n1 * m1 * m1) + s2 * s2 / (n2 * m2 * m2);
    if !(rel2 > 0.0) || !rel2.is_finite() {
        return None;
    }
    let df = welch_df(s1, n1, s2, n2);
    let t = t_quantile(
        confidence,
        if df.is_finite() && df > 0.0 {
            df
        } else {
            f64::INFINITY
        },
    );
    let centre = (m2 / m1).ln();
    let half = t * rel2.sqrt();
    Some(((centre - half).exp(), (centre + half).exp()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positive_means_give_an_interval_around_their_ratio() {
        let (lo, hi) = delta_ratio_ci(100.0, 10.0, 10.0, 110.0, 10.0, 10.0, 0.95).unwrap();
        assert!(lo < 1.1 && 1.1 < hi, "{lo} {hi}");
        assert!(delta_ratio_ci(-1.0, 1.0, 5.0, 2.0, 1.0, 5.0, 0.95).is_none());
    }
}
