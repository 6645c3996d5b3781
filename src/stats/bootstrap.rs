//! Seeded, reproducible percentile bootstrap of the ratio of two centres
//! (median or mean) of independent samples, and the delta-method interval
//! of the ratio of means for summary-only data.
//!
//! Resamples are split into fixed chunks, each with its own PCG stream
//! derived from (seed, chunk index), so the result is identical whatever
//! the number of threads. Both sides are sorted once; a resample is then a
//! vector of draw counts per value, from which the mean or median follows
//! without moving any data. Each chunk allocates its two count buffers once;
//! the inner loop allocates nothing.

use super::summary::{percentile_sorted, t_quantile};
use super::welch::welch_df;
use rand::RngCore;
use rand_pcg::Pcg64;
use rayon::prelude::*;

/// Which centre the ratio is taken of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Centre {
    Median,
    Mean,
}

/// Resamples per chunk (one RNG stream each).
const CHUNK: usize = 512;

/// Percentile bootstrap CI of centre(y) / centre(x) at `confidence`.
///
/// `None` when a side has fewer than 2 values, `resamples` is 0, or more
/// than 1% of resampled ratios are undefined (baseline centre 0).
pub fn ratio_ci(
    x: &[f64],
    y: &[f64],
    centre: Centre,
    resamples: usize,
    confidence: f64,
    seed: u64,
) -> Option<(f64, f64)> {
    if x.len() < 2 || y.len() < 2 || resamples == 0 || x.iter().chain(y).any(|v| !v.is_finite()) {
        return None;
    }
    // A resample's centre depends only on which values were drawn how often,
    // so both sides are sorted once and every resample is a vector of counts.
    let mut sx = x.to_vec();
    sx.sort_by(f64::total_cmp);
    let mut sy = y.to_vec();
    sy.sort_by(f64::total_cmp);
    let mut ratios = vec![0.0f64; resamples];
    ratios
        .par_chunks_mut(CHUNK)
        .enumerate()
        .for_each(|(chunk, out)| {
            let mut rng = Pcg64::new(
                (seed as u128) << 64 | 0x9e37_79b9_7f4a_7c15,
                (chunk as u128) << 1 | 1,
            );
            let mut rx = Resampler::new(&sx);
            let mut ry = Resampler::new(&sy);
            for slot in out.iter_mut() {
                let cx = rx.draw(&mut rng, centre);
                let cy = ry.draw(&mut rng, centre);
                *slot = cy / cx;
            }
        });
    ratios.retain(|r| r.is_finite());
    if (ratios.len() as f64) < 0.99 * resamples as f64 {
        return None;
    }
    ratios.sort_by(f64::total_cmp);
    let tail = (1.0 - confidence) / 2.0 * 100.0;
    Some((
        percentile_sorted(&ratios, tail),
        percentile_sorted(&ratios, 100.0 - tail),
    ))
}

/// Draws resamples of one sorted side; owns its count buffer so that the
/// inner loop allocates nothing.
struct Resampler<'a> {
    sorted: &'a [f64],
    counts: Vec<u32>,
}

impl<'a> Resampler<'a> {
    fn new(sorted: &'a [f64]) -> Self {
        Resampler {
            sorted,
            counts: vec![0; sorted.len()],
        }
    }

    /// A uniform index below n from one 64-bit draw (Lemire's multiply-shift;
    /// the bias, n / 2⁶⁴, is far below anything a CI can show).
    #[inline]
    fn index(rng: &mut Pcg64, n: usize) -> usize {
        ((rng.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// The centre of one resample of size n.
    fn draw(&mut self, rng: &mut Pcg64, centre: Centre) -> f64 {
        let n = self.sorted.len();
        match centre {
            Centre::Mean => {
                let mut sum = 0.0;
                for _ in 0..n {
                    sum += self.sorted[Self::index(rng, n)];
                }
                sum / n as f64
            }
            Centre::Median => {
                self.counts.fill(0);
                for _ in 0..n {
                    self.counts[Self::index(rng, n)] += 1;
                }
                // 0-based ranks of the two middle values (equal for odd n).
                let (lo_rank, hi_rank) = ((n - 1) / 2, n / 2);
                let mut seen = 0usize;
                let mut lo = f64::NAN;
                for (i, &c) in self.counts.iter().enumerate() {
                    seen += c as usize;
                    if lo.is_nan() && seen > lo_rank {
                        lo = self.sorted[i];
                    }
                    if seen > hi_rank {
                        return (lo + self.sorted[i]) / 2.0;
                    }
                }
                lo
            }
        }
    }
}

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
    fn reproducible_for_a_seed_and_different_across_seeds() {
        let x: Vec<f64> = (0..20).map(|i| 10.0 + (i as f64 * 0.37).sin()).collect();
        let y: Vec<f64> = x.iter().map(|v| v * 1.1).collect();
        let a = ratio_ci(&x, &y, Centre::Median, 4000, 0.95, 7).unwrap();
        let b = ratio_ci(&x, &y, Centre::Median, 4000, 0.95, 7).unwrap();
        let c = ratio_ci(&x, &y, Centre::Median, 4000, 0.95, 8).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
        // y is exactly x scaled by 1.1, but resampled independently, so the
        // interval contains 1.1 and is not degenerate.
        assert!(a.0 < 1.1 && a.1 > 1.1, "{a:?}");
        let m = ratio_ci(&x, &y, Centre::Mean, 4000, 0.95, 7).unwrap();
        assert!(m.0 < 1.1 && m.1 > 1.1, "{m:?}");
    }

    #[test]
    fn resampled_medians_come_from_the_counts() {
        // With n = 2 every resample is {a,a}, {a,b} or {b,b}: medians a, (a+b)/2, b.
        let sorted = [1.0, 3.0];
        let mut r = Resampler::new(&sorted);
        let mut rng = Pcg64::new(1, 1);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..200 {
            seen.insert(r.draw(&mut rng, Centre::Median).to_bits());
        }
        let want: std::collections::BTreeSet<u64> =
            [1.0f64, 2.0, 3.0].iter().map(|v| v.to_bits()).collect();
        assert_eq!(seen, want);
        // Odd n: always one of the values.
        let sorted = [1.0, 2.0, 7.0];
        let mut r = Resampler::new(&sorted);
        for _ in 0..200 {
            assert!(sorted.contains(&r.draw(&mut rng, Centre::Median)));
        }
    }

    #[test]
    fn undefined_ratios_give_none() {
        assert!(ratio_ci(&[0.0, 0.0], &[1.0, 2.0], Centre::Mean, 100, 0.95, 1).is_none());
        assert!(ratio_ci(&[1.0], &[1.0, 2.0], Centre::Mean, 100, 0.95, 1).is_none());
    }

    #[test]
    fn delta_method_brackets_the_ratio() {
        // seed 000 SCHED_FIFO, n = 5000 per side
        let (lo, hi) =
            delta_ratio_ci(6656.85, 463.30, 5000.0, 9720.12, 426.45, 5000.0, 0.95).unwrap();
        let r = 9720.12 / 6656.85;
        assert!(lo < r && r < hi);
        assert!((hi - lo) < 0.01, "{lo} {hi}");
        assert!(delta_ratio_ci(1.0, 0.0, 5.0, 2.0, 0.0, 5.0, 0.95).is_none());
    }
}
