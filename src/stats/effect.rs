//! Effect sizes: Hedges' g (standardised mean difference with the small-sample
//! correction) and Cliff's δ (probability of superiority, distribution-free).

use statrs::function::gamma::ln_gamma;

/// Hedges' g of side 2 relative to side 1: (m2 − m1) / pooled sd, times the
/// exact small-sample correction J(df) = Γ(df/2) / (√(df/2) Γ((df−1)/2)),
/// df = n1 + n2 − 2. `None` for n < 2 per side or zero pooled spread.
pub fn hedges_g(m1: f64, s1: f64, n1: f64, m2: f64, s2: f64, n2: f64) -> Option<f64> {
    if n1 < 2.0 || n2 < 2.0 {
        return None;
    }
    let df = n1 + n2 - 2.0;
    let pooled = (((n1 - 1.0) * s1 * s1 + (n2 - 1.0) * s2 * s2) / df).sqrt();
    if !(pooled > 0.0) || !pooled.is_finite() {
        return None;
    }
    let d = (m2 - m1) / pooled;
    Some(d * small_sample_correction(df))
}

/// J(df), the bias correction of Cohen's d (→ 1 as df grows).
fn small_sample_correction(df: f64) -> f64 {
    (ln_gamma(df / 2.0) - ln_gamma((df - 1.0) / 2.0)).exp() / (df / 2.0).sqrt()
}

/// Cliff's δ of `y` against `x`: (#(y > x) − #(y < x)) / (n_x · n_y), in
/// [−1, 1]; positive when `y` tends to be larger. O((n+m) log(n+m)).
pub fn cliffs_delta(x: &[f64], y: &[f64]) -> Option<f64> {
    if x.is_empty() || y.is_empty() {
        return None;
    }
    let mut xs = x.to_vec();
    xs.sort_unstable_by(f64::total_cmp);
    cliffs_delta_sorted(&xs, y)
}

/// [`cliffs_delta`] with `xs` already in ascending order (`y` in any order).
pub fn cliffs_delta_sorted(xs: &[f64], y: &[f64]) -> Option<f64> {
    if xs.is_empty() || y.is_empty() {
        return None;
    }
    let mut greater = 0usize;
    let mut less = 0usize;
    for &v in y {
        // x values strictly below v, and strictly above v.
        let below = xs.partition_point(|&a| a < v);
        let not_above = xs.partition_point(|&a| a <= v);
        greater += below;
        less += xs.len() - not_above;
    }
    Some((greater as f64 - less as f64) / (xs.len() * y.len()) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hedges_g_applies_the_correction() {
        // d = (12 - 10) / 2 = 1; J(18) = Γ(9) / (3 Γ(8.5)) = 0.9576464270
        let g = hedges_g(10.0, 2.0, 10.0, 12.0, 2.0, 10.0).unwrap();
        assert!((g - 0.957646427023718).abs() < 1e-9, "{g}");
        assert!(
            (hedges_g(0.0, 1.0, 1000.0, 1.0, 1.0, 1000.0).unwrap() - 0.9996245698198566).abs()
                < 1e-9
        );
        assert!(hedges_g(1.0, 0.0, 5.0, 1.0, 0.0, 5.0).is_none());
    }

    #[test]
    fn cliffs_delta_counts_dominance() {
        assert_eq!(cliffs_delta(&[1.0, 2.0], &[3.0, 4.0]), Some(1.0));
        assert_eq!(cliffs_delta(&[3.0, 4.0], &[1.0, 2.0]), Some(-1.0));
        assert_eq!(cliffs_delta(&[1.0, 2.0], &[1.0, 2.0]), Some(0.0));
        // pairs: (1,2)>,(1,1)=,(3,2)<,(3,1)< → (1 - 2)/4
        assert_eq!(cliffs_delta(&[1.0, 3.0], &[2.0, 1.0]), Some(-0.25));
    }
}
