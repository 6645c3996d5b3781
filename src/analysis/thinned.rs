//! What a report draws of a side too long to draw sample by sample: its
//! run order as the range and mean of each bucket of consecutive runs,
//! and the box of its distribution, read off the sorted side.
//!
//! A run-order chart is a few hundred pixels wide, so ten million points
//! on it are no more legible than four thousand buckets; keeping the
//! buckets instead of a run-order copy of the samples lets a report's
//! analysis sort each side in place, as `compare` without a report does.

use crate::stats::summary::percentile_sorted;
use serde::{Deserialize, Serialize};

/// Most samples a side keeps in run order for a report's charts, and most
/// buckets of a thinned side: a side of more is thinned.
pub const RUN_ORDER_POINTS: usize = 4096;

/// The range and mean of one bucket of consecutive runs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Bucket {
    /// Smallest sample of the bucket.
    pub min: f64,
    /// Largest sample of the bucket.
    pub max: f64,
    /// Mean of the bucket's samples.
    pub mean: f64,
}

/// A box plot's figures (Tukey's): quartiles by linear interpolation, and
/// the whiskers at the most extreme samples within 1.5 IQR of the box.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BoxFigures {
    /// Smallest sample at or above q1 − 1.5 IQR.
    pub low_whisker: f64,
    /// First quartile.
    pub q1: f64,
    /// Median.
    pub median: f64,
    /// Third quartile.
    pub q3: f64,
    /// Largest sample at or below q3 + 1.5 IQR.
    pub high_whisker: f64,
}

impl BoxFigures {
    /// The figures of samples in ascending order (at least one).
    pub fn of_sorted(sorted: &[f64]) -> BoxFigures {
        let q1 = percentile_sorted(sorted, 25.0);
        let q3 = percentile_sorted(sorted, 75.0);
        let iqr = q3 - q1;
        let (lo, hi) = (q1 - 1.5 * iqr, q3 + 1.5 * iqr);
        // Sorted, so the fences are found by bisection, not a scan.
        let first_in = sorted.partition_point(|v| *v < lo);
        let last_in = sorted.partition_point(|v| *v <= hi);
        BoxFigures {
            low_whisker: sorted.get(first_in).copied().unwrap_or(q1),
            q1,
            median: percentile_sorted(sorted, 50.0),
            q3,
            high_whisker: last_in
                .checked_sub(1)
                .and_then(|i| sorted.get(i))
                .copied()
                .unwrap_or(q3),
        }
    }
}

/// A side's samples as a report draws them when there are more than
/// [`RUN_ORDER_POINTS`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Thinned {
    /// Number of samples.
    pub n: u64,
    /// Consecutive runs per bucket (the last bucket may hold fewer).
    pub per: u64,
    /// The buckets in run order.
    pub buckets: Vec<Bucket>,
    /// The box of all the samples; `None` until the side is sorted.
    pub box_figures: Option<BoxFigures>,
}

impl Thinned {
    /// Buckets of `samples` (in run order, finite, at least one), at most
    /// `max_buckets` of them, in one pass. With no more samples than
    /// buckets each sample is a bucket of its own.
    pub fn of(samples: &[f64], max_buckets: usize) -> Thinned {
        let n = samples.len();
        let per = n.div_ceil(max_buckets.max(1)).max(1);
        let buckets = samples
            .chunks(per)
            .map(|c| {
                let (min, max) = c
                    .iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                        (lo.min(*x), hi.max(*x))
                    });
                let mean = c.iter().sum::<f64>() / c.len() as f64;
                Bucket { min, max, mean }
            })
            .collect();
        Thinned {
            n: n as u64,
            per: per as u64,
            buckets,
            box_figures: None,
        }
    }

    /// The bucket extremes outside the whiskers: every sample beyond them
    /// that is the smallest or largest of its bucket (an outlier's bucket
    /// may hold others, further in).
    pub fn extremes_outside(&self) -> Vec<f64> {
        let Some(b) = self.box_figures else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for k in &self.buckets {
            if k.min < b.low_whisker {
                out.push(k.min);
            }
            if k.max > b.high_whisker {
                out.push(k.max);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_hold_the_exact_range_of_their_runs() {
        let xs: Vec<f64> = (0..10_000).map(|i| f64::from((i * 7919) % 1000)).collect();
        let t = Thinned::of(&xs, 4096);
        assert_eq!((t.n, t.per), (10_000, 3));
        assert_eq!(t.buckets.len(), 3334);
        for (k, b) in t.buckets.iter().enumerate() {
            let part = &xs[k * 3..(k * 3 + 3).min(xs.len())];
            let min = part.iter().copied().fold(f64::INFINITY, f64::min);
            let max = part.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            assert_eq!((b.min, b.max), (min, max), "bucket {k}");
            let mean = part.iter().sum::<f64>() / part.len() as f64;
            assert_eq!(b.mean, mean);
        }
        // The last bucket is the one left over.
        assert_eq!(t.buckets[3333].min, xs[9999]);
    }

    #[test]
    fn no_more_samples_than_buckets_keeps_every_one() {
        let xs = [3.0, 1.0, 2.0, 5.0];
        let t = Thinned::of(&xs, 4096);
        assert_eq!(t.per, 1);
        let back: Vec<(f64, f64, f64)> = t.buckets.iter().map(|b| (b.min, b.max, b.mean)).collect();
        assert_eq!(back, xs.map(|x| (x, x, x)));
        let t = Thinned::of(&xs, 4);
        assert_eq!((t.per, t.buckets.len()), (1, 4));
    }

    #[test]
    fn a_single_spike_survives_thinning() {
        let mut xs = vec![1.0; 1_000_003];
        xs[654_321] = 50.0;
        xs[10] = -4.0;
        let mut t = Thinned::of(&xs, 4096);
        assert!(t.buckets.len() <= 4096);
        let hit = 654_321 / t.per as usize;
        assert_eq!(t.buckets[hit].max, 50.0);
        assert_eq!(t.buckets[0].min, -4.0);
        assert_eq!(t.buckets.iter().filter(|b| b.max > 1.0).count(), 1);
        let mut sorted = xs.clone();
        sorted.sort_unstable_by(f64::total_cmp);
        t.box_figures = Some(BoxFigures::of_sorted(&sorted));
        assert_eq!(t.extremes_outside(), [-4.0, 50.0]);
    }

    #[test]
    fn box_figures_follow_tukey() {
        let sorted = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 100.0];
        let b = BoxFigures::of_sorted(&sorted);
        assert_eq!((b.q1, b.median, b.q3), (3.0, 5.0, 7.0));
        assert_eq!((b.low_whisker, b.high_whisker), (1.0, 8.0));
        let one = BoxFigures::of_sorted(&[2.5]);
        assert_eq!((one.low_whisker, one.high_whisker), (2.5, 2.5));
    }
}
