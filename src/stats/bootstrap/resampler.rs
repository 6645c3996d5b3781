//! One side's resamples: a median from its exact table or from draw
//! counts, a mean from draw counts, without moving data.

use super::median_table::MedianTable;
use super::Center;
use rand::RngCore;
use rand_pcg::Pcg64;

/// Draws resamples of one sorted side; owns its count buffer so that the
/// inner loop allocates nothing.
pub(super) struct Resampler<'a> {
    pub(super) sorted: &'a [f64],
    pub(super) counts: Vec<u32>,
    pub(super) table: Option<&'a MedianTable>,
}

impl<'a> Resampler<'a> {
    #[inline]
    pub(super) fn new(sorted: &'a [f64], table: Option<&'a MedianTable>) -> Self {
        Resampler {
            sorted,
            counts: vec![0; sorted.len()],
            table,
        }
    }

    /// Calls `f` with n uniform indices below n, two from each 64-bit draw
    /// (multiply-shift on 32-bit halves; the bias, n / 2³², is far below
    /// anything a CI can show).
    #[inline]
    pub(super) fn indices(rng: &mut Pcg64, n: usize, mut f: impl FnMut(usize)) {
        let n64 = n as u64;
        let mut left = n;
        while left >= 2 {
            let r = rng.next_u64();
            f((((r & 0xffff_ffff) * n64) >> 32) as usize);
            f((((r >> 32) * n64) >> 32) as usize);
            left -= 2;
        }
        if left == 1 {
            let r = rng.next_u64();
            f((((r & 0xffff_ffff) * n64) >> 32) as usize);
        }
    }

    /// The centre of one resample of size n.
    #[inline]
    pub(super) fn draw(&mut self, rng: &mut Pcg64, centre: Center) -> f64 {
        let n = self.sorted.len();
        match centre {
            Center::Mean => {
                let mut sum = 0.0;
                let sorted = self.sorted;
                Self::indices(rng, n, |i| sum += sorted[i]);
                sum / n as f64
            }
            Center::Median => {
                if let Some(t) = self.table {
                    return t.sample(rng);
                }
                self.counts.fill(0);
                let counts = &mut self.counts;
                Self::indices(rng, n, |i| counts[i] += 1);
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
