//! Percentile bootstrap of the ratio of two centres (median or mean) of
//! independent samples (the delta-method interval for summaries is
//! `stats::delta`).
//!
//! For the medians of up to [`EXACT_MAX_N`] values no resampling is done:
//! the distribution of each resampled median is known exactly (below), and
//! the interval is the exact quantiles of their ratio (`ratio_quantile`),
//! the limit of ever more resamples. Otherwise the bootstrap is seeded and
//! reproducible; up to `TABLE_MAX_N` values it draws each resampled
//! median from the same exact distribution.
//!
//! Resamples are split into fixed chunks, each with its own PCG stream
//! derived from (seed, chunk index), so the result is identical whatever
//! the number of threads. Both sides are sorted once. For the median of up
//! to `TABLE_MAX_N` values, the exact distribution of a resample's median
//! (which values it can be and how likely each is) follows from binomial
//! counts and is tabulated once, so that a resample costs one uniform draw
//! and a binary search instead of n index draws; larger samples and the
//! mean resample as a vector of draw counts, without moving data. The inner
//! loop allocates nothing; the two interval ends are found by selection,
//! not by sorting every resampled ratio.

use super::ratio_quantile::ratio_quantiles;
use rand::RngCore;
use rand_pcg::Pcg64;
use rayon::prelude::*;

mod median_table;
mod percentile;
mod resampler;

use median_table::{Layout, MedianTable, TableDraws};
#[cfg(test)]
use percentile::percentile_by_selection;
use percentile::percentile_pair;
use resampler::Resampler;

pub use super::summary::Center;

/// Resamples per chunk (one RNG stream each).
const CHUNK: usize = 512;

/// Largest sample whose resampled median is drawn from its exact
/// distribution table (the table has at most n(n+1)/2 entries; building it
/// costs O(n³) multiplications, far less than the resamples it saves).
const TABLE_MAX_N: usize = 128;

/// Percentile bootstrap CI of centre(y) / centre(x) at `confidence`.
///
/// `None` when a side has fewer than 2 values, `resamples` is 0, or more
/// than 1% of resampled ratios are undefined (baseline centre 0).
pub fn ratio_ci(
    x: &[f64],
    y: &[f64],
    centre: Center,
    resamples: usize,
    confidence: f64,
    seed: u64,
) -> Option<(f64, f64)> {
    if x.len() < 2 || y.len() < 2 || resamples == 0 || x.iter().chain(y).any(|v| !v.is_finite()) {
        return None;
    }
    // A resample's centre depends only on which values were drawn how often,
    // so both sides are sorted once and every resample is a vector of counts
    // (or, for small medians, one draw from the exact median distribution).
    let mut sx = x.to_vec();
    sx.sort_unstable_by(f64::total_cmp);
    let mut sy = y.to_vec();
    sy.sort_unstable_by(f64::total_cmp);
    ratio_ci_sorted(&sx, &sy, centre, resamples, confidence, seed).map(|(ci, _)| ci)
}

/// [`ratio_ci`] of two sides already in ascending order (the interval is
/// the same: a resample depends only on the sorted values), and whether it
/// is the exact one (true: nothing was resampled, and `seed` played no
/// part).
pub fn ratio_ci_sorted(
    sx: &[f64],
    sy: &[f64],
    centre: Center,
    resamples: usize,
    confidence: f64,
    seed: u64,
) -> Option<((f64, f64), bool)> {
    if sx.len() < 2 || sy.len() < 2 || resamples == 0 || sx.iter().chain(sy).any(|v| !v.is_finite())
    {
        return None;
    }
    if centre == Center::Median {
        if let Some(ci) = exact_median_ratio_ci(sx, sy, confidence) {
            return Some((ci, true));
        }
    }
    let (tx, ty) = match centre {
        Center::Median => (MedianTable::new(sx), MedianTable::new(sy)),
        Center::Mean => (None, None),
    };
    let mut ratios = RatioBuffer::take(resamples);
    ratios
        .par_chunks_mut(CHUNK)
        .enumerate()
        .for_each(|(chunk, out)| {
            let mut rng = Pcg64::new(
                (seed as u128) << 64 | 0x9e37_79b9_7f4a_7c15,
                (chunk as u128) << 1 | 1,
            );
            if let (Some(tx), Some(ty)) = (&tx, &ty) {
                // Both medians from their tables: one uniform draw each.
                fill_from_tables(tx.draws(), ty.draws(), &mut rng, out);
                return;
            }
            let mut rx = Resampler::new(sx, tx.as_ref());
            let mut ry = Resampler::new(sy, ty.as_ref());
            for slot in out.iter_mut() {
                let cx = rx.draw(&mut rng, centre);
                let cy = ry.draw(&mut rng, centre);
                *slot = cy / cx;
            }
        });
    // Undefined ratios are rare: the vector is compacted only when there
    // are some (a scan is several times cheaper than `retain`).
    if any_in_blocks(&ratios, |r| !r.is_finite()) {
        ratios.retain(|r| r.is_finite());
    }
    if (ratios.len() as f64) < 0.99 * resamples as f64 {
        return None;
    }
    let tail = (1.0 - confidence) / 2.0 * 100.0;
    let ci = percentile_pair(&mut ratios, tail, 100.0 - tail);
    RatioBuffer::give_back(ratios);
    Some((ci, false))
}

/// Largest sample whose median's interval is exact: 100 is Criterion's
/// default sample size. The search costs about a dozen passes over the
/// possible medians of both sides that are not negligible, and sorting
/// them; they grow with n (312 at 50 values, 376 at 64, 512 at 100, 599
/// at 128), where 10,000 resamples cost 70–120 µs. Measured on 200
/// different pairs of samples per size, one thread: 8 µs exact at 10
/// values, 33 at 30, 63 at 64 (94 resampled), 87–90 at 100 (93
/// resampled), 106 at 128 (70 resampled).
pub const EXACT_MAX_N: usize = 100;

/// The percentile interval that infinitely many resamples converge to,
/// from the exact distributions of both resampled medians; `None` when a
/// side has more than [`EXACT_MAX_N`] values or the baseline's possible
/// medians are not all positive (a ratio to 0 is undefined, one to a
/// negative value reverses the order).
fn exact_median_ratio_ci(sx: &[f64], sy: &[f64], confidence: f64) -> Option<(f64, f64)> {
    if sx.len() > EXACT_MAX_N || sy.len() > EXACT_MAX_N {
        return None;
    }
    let (lx, ly) = (Layout::of(sx.len())?, Layout::of(sy.len())?);
    let tail = (1.0 - confidence) / 2.0;
    let q = ratio_quantiles(&lx.atoms(sx), &ly.atoms(sy), &[tail, 1.0 - tail])?;
    Some((q[0], q[1]))
}

/// The vector of resampled ratios, kept per thread between comparisons:
/// a fresh one of 10,000 was zeroed (and its pages faulted in) for every
/// comparison, only to be overwritten.
struct RatioBuffer;

thread_local! {
    static KEPT_RATIOS: std::cell::Cell<Vec<f64>> = const { std::cell::Cell::new(Vec::new()) };
}

impl RatioBuffer {
    /// Larger vectors are not kept (8 bytes each).
    const KEEP: usize = 1 << 17;

    /// A vector of `len` values, each about to be overwritten. A thread
    /// that runs another comparison while it waits for this one's chunks
    /// finds nothing kept and gets a new vector.
    fn take(len: usize) -> Vec<f64> {
        let mut v = KEPT_RATIOS.take();
        v.resize(len, 0.0);
        v
    }

    fn give_back(v: Vec<f64>) {
        if v.capacity() <= Self::KEEP {
            KEPT_RATIOS.set(v);
        }
    }
}

/// Fills `out` with resampled ratios drawn from the two median tables,
/// baseline first, one draw each: the hot loop of a bootstrap, with the
/// tables' fields in locals so that they can stay in registers.
fn fill_from_tables(tx: TableDraws, ty: TableDraws, rng: &mut Pcg64, out: &mut [f64]) {
    for slot in out.iter_mut() {
        let cx = tx.at_draw(rng.next_u64() >> 11);
        let cy = ty.at_draw(rng.next_u64() >> 11);
        *slot = cy / cx;
    }
}

/// Values tested together by [`any_in_blocks`] and the threshold scan of
/// [`percentile_pair`]: a fold without early exit over a block compiles to
/// vector comparisons, where a per-value branch does not.
const BLOCK: usize = 8;

/// True when `f` holds for some value, tested [`BLOCK`] at a time.
fn any_in_blocks(values: &[f64], f: impl Fn(f64) -> bool) -> bool {
    values
        .chunks(BLOCK)
        .any(|block| block.iter().fold(false, |any, &v| any | f(v)))
}

#[cfg(test)]
mod tests;
