//! Intervals of a ratio of centres for large samples, where resampling
//! costs more than it can add: ten thousand resamples of a side of 10⁶
//! values draw 10¹⁰ values, while each centre's sampling distribution is
//! already normal to well within the interval's own precision.
//!
//! A median's standard error comes from the distribution-free interval of
//! order statistics around it (no density estimate); a mean's from the
//! standard deviation. The ratio's interval is the delta method on the log
//! scale when both centres have one sign, else on the ratio itself.

use super::bootstrap::Center;
use super::summary::{mean, percentile_sorted, stddev};
use statrs::distribution::{ContinuousCDF, Normal};

/// Samples at least this large on the larger side get an asymptotic
/// interval instead of the bootstrap.
pub const LARGE_N: usize = 5000;

/// The `confidence` interval of centre(y) / centre(x) for sorted samples
/// `sx`, `sy`; `None` when a side has under 2 values, the baseline centre
/// is 0, or an end is not a number.
pub fn ratio_ci_asymptotic(
    sx: &[f64],
    sy: &[f64],
    centre: Center,
    confidence: f64,
) -> Option<(f64, f64)> {
    if sx.len() < 2 || sy.len() < 2 {
        return None;
    }
    let z = Normal::standard().inverse_cdf(0.5 + confidence / 2.0);
    let (cx, ex) = centre_and_se(sx, centre, z);
    let (cy, ey) = centre_and_se(sy, centre, z);
    if cx == 0.0 || !(cx.is_finite() && cy.is_finite() && ex.is_finite() && ey.is_finite()) {
        return None;
    }
    let r = cy / cx;
    let ci = if cx.signum() == cy.signum() && cy != 0.0 {
        let half = z * ((ex / cx).powi(2) + (ey / cy).powi(2)).sqrt();
        ((r.ln() - half).exp(), (r.ln() + half).exp())
    } else {
        // var(y/x) ≈ (ey² + r²·ex²) / x², which holds for y = 0 too.
        let half = z * (ey * ey + r * r * ex * ex).sqrt() / cx.abs();
        (r - half, r + half)
    };
    (ci.0.is_finite() && ci.1.is_finite()).then_some(ci)
}

/// The centre of a sorted sample and its standard error.
fn centre_and_se(s: &[f64], centre: Center, z: f64) -> (f64, f64) {
    let n = s.len() as f64;
    match centre {
        Center::Mean => (mean(s), stddev(s) / n.sqrt()),
        Center::Median => {
            // The order statistics that bound the median's distribution-free
            // interval at this confidence lie z·√n/2 ranks either side.
            let k = (z * n.sqrt() / 2.0).ceil() as usize;
            let mid = s.len() / 2;
            let lo = s[mid.saturating_sub(k)];
            let hi = s[(mid + k).min(s.len() - 1)];
            (percentile_sorted(s, 50.0), (hi - lo) / (2.0 * z))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn normal_sample(n: usize, centre: f64, sd: f64, seed: u64) -> Vec<f64> {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
        let mut v: Vec<f64> = (0..n)
            .map(|_| {
                // Box-Muller: the crate's normal sampler is not a dependency.
                let (u1, u2): (f64, f64) = (rng.random(), rng.random());
                centre + sd * (-2.0 * (1.0 - u1).ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
            })
            .collect();
        v.sort_by(f64::total_cmp);
        v
    }

    #[test]
    fn the_interval_covers_the_true_ratio_at_its_stated_rate() {
        // 200 pairs of 20,000 values with a true median ratio of 1.05: a 95%
        // interval misses it about 10 times (binomial sd ≈ 3).
        let mut misses = 0;
        for seed in 0..200 {
            let x = normal_sample(20_000, 100.0, 5.0, seed);
            let y = normal_sample(20_000, 105.0, 5.0, 1000 + seed);
            let (lo, hi) = ratio_ci_asymptotic(&x, &y, Center::Median, 0.95).unwrap();
            if !(lo..=hi).contains(&1.05) {
                misses += 1;
            }
        }
        assert!((2..=20).contains(&misses), "{misses} misses of 200");
    }

    #[test]
    fn a_median_interval_is_about_as_wide_as_theory_says() {
        // se(median) of N(μ, σ²) is σ·√(π/2n): for σ = 5, n = 20,000 that is
        // 0.0443; the ratio's half-width ≈ 1.96·√2·0.0443/100 = 0.00123.
        let x = normal_sample(20_000, 100.0, 5.0, 1);
        let y = normal_sample(20_000, 100.0, 5.0, 2);
        let (lo, hi) = ratio_ci_asymptotic(&x, &y, Center::Median, 0.95).unwrap();
        let half = (hi - lo) / 2.0;
        assert!((half / 0.00123 - 1.0).abs() < 0.15, "{half}");
    }

    #[test]
    fn signs_and_zero_baselines() {
        let x: Vec<f64> = (0..10).map(|i| -10.0 - i as f64).rev().collect();
        let y: Vec<f64> = (0..10).map(|i| 5.0 + i as f64).collect();
        let (lo, hi) = ratio_ci_asymptotic(&x, &y, Center::Mean, 0.95).unwrap();
        assert!(lo < hi && hi < 0.0, "{lo} {hi}");
        let zeros = [0.0, 0.0, 0.0];
        assert_eq!(ratio_ci_asymptotic(&zeros, &y, Center::Median, 0.95), None);
    }
}
