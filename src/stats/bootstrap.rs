//! Percentile bootstrap of the ratio of two centres (median or mean) of
//! independent samples, and the delta-method interval of the ratio of
//! means for summary-only data.
//!
//! For the medians of up to [`EXACT_MAX_N`] values no resampling is done:
//! the distribution of each resampled median is known exactly (below), and
//! the interval is the exact quantiles of their ratio (`ratio_quantile`),
//! the limit of ever more resamples. Otherwise the bootstrap is seeded and
//! reproducible; up to [`TABLE_MAX_N`] values it draws each resampled
//! median from the same exact distribution.
//!
//! Resamples are split into fixed chunks, each with its own PCG stream
//! derived from (seed, chunk index), so the result is identical whatever
//! the number of threads. Both sides are sorted once. For the median of up
//! to [`TABLE_MAX_N`] values, the exact distribution of a resample's median
//! (which values it can be and how likely each is) follows from binomial
//! counts and is tabulated once, so that a resample costs one uniform draw
//! and a binary search instead of n index draws; larger samples and the
//! mean resample as a vector of draw counts, without moving data. The inner
//! loop allocates nothing; the two interval ends are found by selection,
//! not by sorting every resampled ratio.

use super::ratio_quantile::{ratio_quantiles, Atoms};
use super::summary::t_quantile;
use super::welch::welch_df;
use rand::RngCore;
use rand_pcg::Pcg64;
use rayon::prelude::*;

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

/// [`percentile_by_selection`] at `p_lo` and at `p_hi` (the slice is
/// reordered). Only the values near the two ranks matter: thresholds taken
/// from every 16th value keep the few values beyond them, and the ranks are
/// selected among those; when a threshold keeps too few (an unlucky
/// subsample), the whole slice is used, so the result is always the exact
/// order statistic. The values must not be NaN.
fn percentile_pair(values: &mut [f64], p_lo: f64, p_hi: f64) -> (f64, f64) {
    const STRIDE: usize = 16;
    let n = values.len();
    let rank = |p: f64| {
        let h = (n.max(1) - 1) as f64 * p.clamp(0.0, 100.0) / 100.0;
        (h, h.floor() as usize)
    };
    let ((h_lo, r_lo), (h_hi, r_hi)) = (rank(p_lo), rank(p_hi));
    // Values needed: ranks r and r+1 below, ranks r..n above.
    let need_lo = (r_lo + 2).min(n);
    let need_hi = n - r_hi;
    if n < 64 * STRIDE || need_lo > n / 4 || need_hi > n / 4 {
        return (
            percentile_by_selection(values, p_lo),
            percentile_by_selection(values, p_hi),
        );
    }
    let mut sub: Vec<f64> = values.iter().step_by(STRIDE).copied().collect();
    let m = sub.len();
    // A subsample rank whose value has, in expectation, about 1.5 times the
    // needed values beyond it.
    let margin = |need: usize| (need * 3 / (2 * STRIDE) + 8).min(m - 1);
    let t_lo = *sub
        .select_nth_unstable_by(margin(need_lo), f64::total_cmp)
        .1;
    let t_hi = *sub
        .select_nth_unstable_by(m - 1 - margin(need_hi), f64::total_cmp)
        .1;
    let mut low: Vec<f64> = Vec::with_capacity(2 * need_lo);
    let mut high: Vec<f64> = Vec::with_capacity(2 * need_hi);
    if t_lo != 0.0 && t_hi != 0.0 && !t_lo.is_nan() && !t_hi.is_nan() {
        // Without NaN among the values (the caller's ratios are finite),
        // `<=` and `>=` order them as `total_cmp` does except ±0 against
        // ±0, which nonzero thresholds rule out; they cost less.
        // Few values lie beyond either threshold: blocks without any are
        // passed over with one vector comparison each.
        for block in values.chunks(BLOCK) {
            if !block
                .iter()
                .fold(false, |any, &v| any | (v <= t_lo) | (v >= t_hi))
            {
                continue;
            }
            for &v in block {
                if v <= t_lo {
                    low.push(v);
                }
                if v >= t_hi {
                    high.push(v);
                }
            }
        }
    } else {
        for &v in values.iter() {
            if v.total_cmp(&t_lo).is_le() {
                low.push(v);
            }
            if v.total_cmp(&t_hi).is_ge() {
                high.push(v);
            }
        }
    }
    // Every value of rank < need_lo is ≤ t_lo once `low` holds need_lo
    // values, so ranks agree there; likewise above.
    let lo = if low.len() >= need_lo {
        interpolate(&mut low, r_lo, h_lo - r_lo as f64)
    } else {
        percentile_by_selection(values, p_lo)
    };
    let hi = if high.len() >= need_hi {
        let offset = n - high.len();
        interpolate(&mut high, r_hi - offset, h_hi - r_hi as f64)
    } else {
        percentile_by_selection(values, p_hi)
    };
    (lo, hi)
}

/// The value at rank `r` of `values`, moved towards the next one by
/// `frac` of the gap (as [`percentile_by_selection`]).
fn interpolate(values: &mut [f64], r: usize, frac: f64) -> f64 {
    let (_, &mut at, above) = values.select_nth_unstable_by(r, f64::total_cmp);
    if above.is_empty() {
        return at;
    }
    let next = above.iter().copied().fold(f64::INFINITY, f64::min);
    at + frac * (next - at)
}

/// The same linear interpolation as
/// [`percentile_sorted`](super::summary::percentile_sorted), found by
/// selection in O(n) (the slice is reordered, not sorted).
fn percentile_by_selection(values: &mut [f64], p: f64) -> f64 {
    let n = values.len();
    let h = (n - 1) as f64 * p.clamp(0.0, 100.0) / 100.0;
    let lo = h.floor() as usize;
    let (_, &mut at, above) = values.select_nth_unstable_by(lo, f64::total_cmp);
    if lo + 1 >= n {
        return at;
    }
    let next = above.iter().copied().fold(f64::INFINITY, f64::min);
    at + (h - lo as f64) * (next - at)
}

/// The exact distribution of the median of a bootstrap resample of a small
/// sorted sample: each possible median value with its cumulative
/// probability.
///
/// With C_i the number of the n draws that land on sorted index ≤ i
/// (binomial), the lower middle order statistic (1-based rank k = ⌈n/2⌉) is
/// index i exactly when C_{i-1} ≤ k-1 and C_i ≥ k. For odd n that is the
/// median. For even n the median is the mean of ranks k and k+1: both are at
/// i when C_{i-1} ≤ k-1 and C_i ≥ k+1; when C_i = k exactly, rank k+1 is the
/// smallest of the n-k draws above i, each uniform over the n-1-i values
/// there.
struct MedianTable {
    cdf: &'static [f64],
    values: Vec<f64>,
    /// `guide[b]`: the first entry whose cumulative probability exceeds
    /// b / guide.len() of the total, so that a draw starts its search there
    /// and moves on one or two entries on average (a guide table); with
    /// [`SURE`] set when every draw of bucket b stops at that entry.
    guide: &'static [u32],
    /// `guide.len()` and the total probability, as the draw uses them.
    guide_len: u64,
    total: f64,
}

/// What a [`MedianTable`] of n values owes to n alone: the probabilities
/// (cumulated), the guide, and which sorted values each entry's median is
/// made of. Built once per n and kept for the life of the process: a run
/// compares thousands of groups with the same n.
struct Layout {
    cdf: Vec<f64>,
    /// As [`MedianTable::guide`].
    guide: Vec<u32>,
    /// Sorted indices (i, j) of each entry: the median is value i when
    /// i == j, else the mean of values i and j.
    pairs: Vec<(u32, u32)>,
    /// Each entry's probability (`cdf` cumulates them).
    probs: Vec<f64>,
    /// The entries the exact search weighs ([`searched_entries`]); empty
    /// above [`EXACT_MAX_N`] values, which the search does not take.
    searched: Vec<u32>,
}

/// Probability of the possible medians the exact interval leaves out, at
/// most, per side: the interval is the exact one of a distribution that
/// differs from the true one by no more than this, in any probability.
/// One in a million is some 1,500 times less than the standard error of a
/// 2.5% percentile from 10,000 resamples (0.0016). At 100 values the
/// search then weighs 512 of the table's 1,507 entries, against 826 with
/// a budget of 10⁻⁹, and takes 87 µs instead of 158 (resampling: 93).
pub const NEGLIGIBLE: f64 = 1e-6;

/// Guide buckets per table entry.
const GUIDE_PER_ENTRY: usize = 4;

/// Flag of a guide entry whose bucket lies wholly below the entry's
/// cumulative probability: a draw there needs no comparison at all.
const SURE: u32 = 1 << 31;

static LAYOUTS: [std::sync::OnceLock<Option<Layout>>; TABLE_MAX_N + 1] =
    [const { std::sync::OnceLock::new() }; TABLE_MAX_N + 1];

impl Layout {
    /// The layout for samples of n values (`None` for n = 0 or above
    /// [`TABLE_MAX_N`]).
    fn of(n: usize) -> Option<&'static Layout> {
        LAYOUTS.get(n)?.get_or_init(|| Layout::new(n)).as_ref()
    }

    fn new(n: usize) -> Option<Layout> {
        if n == 0 || n > TABLE_MAX_N {
            return None;
        }
        let k = n.div_ceil(2);
        let even = n.is_multiple_of(2);
        let mut cdf = Vec::with_capacity(n * (n + 1) / 2);
        let mut pairs = Vec::with_capacity(n * (n + 1) / 2);
        let mut probs = Vec::with_capacity(n * (n + 1) / 2);
        let mut acc = 0.0;
        // Entries below 1e-17 are left out: together they weigh less than
        // n² · 1e-17, far below what 10⁴–10⁶ resamples can show, and they
        // make up most pairs of a large even sample.
        let mut push = |pair: (usize, usize), p: f64| {
            if p > 1e-17 {
                acc += p;
                cdf.push(acc);
                probs.push(p);
                pairs.push((pair.0 as u32, pair.1 as u32));
            }
        };
        // C_{i-1} ~ Bin(n, i/n) and C_i ~ Bin(n, (i+1)/n); given C_{i-1} = m,
        // each of the other n-m draws lands on i with probability 1/(n-i).
        // Every term below is a difference of their pmfs and tails, so the
        // table costs O(n²).
        let mut prev = vec![0.0; n + 1];
        let mut cur = vec![0.0; n + 1];
        binomial_pmf(n, 0.0, &mut prev);
        let tail =
            |pmf: &[f64], from: usize| pmf.get(from..).map_or(0.0, |t| t.iter().sum::<f64>());
        for i in 0..n {
            binomial_pmf(n, (i + 1) as f64 / n as f64, &mut cur);
            // P(no other draw lands on i | C_{i-1} = k).
            let none_at_i = (1.0 - 1.0 / (n - i) as f64).powi((n - k) as i32);
            let (same, exactly_k) = if even {
                // Both middle ranks at i: C_{i-1} ≤ k-1 and C_i ≥ k+1.
                let both = tail(&cur, k + 1) - tail(&prev, k + 1) - prev[k] * (1.0 - none_at_i);
                // C_{i-1} ≤ k-1 and C_i = k.
                (both, cur[k] - prev[k] * none_at_i)
            } else {
                // C_{i-1} ≤ k-1 and C_i ≥ k.
                (tail(&cur, k) - tail(&prev, k), 0.0)
            };
            std::mem::swap(&mut prev, &mut cur);
            push((i, i), same);
            let above = n - 1 - i;
            if even && exactly_k > 0.0 && above > 0 {
                let r = (n - k) as i32;
                let kf = above as f64;
                // P(smallest draw above i is at offset ≥ t) = ((K-t+1)/K)^r.
                let mut at_least_t = 1.0;
                for t in 1..=above {
                    let at_least_next = ((kf - t as f64) / kf).powi(r);
                    push((i, i + t), exactly_k * (at_least_t - at_least_next));
                    at_least_t = at_least_next;
                }
            }
        }
        let total = *cdf.last()?;
        // Several buckets per entry: most entries of the tails weigh far
        // less than a bucket, and a draw landing among them searched past
        // six of them on average with one bucket per entry.
        let buckets = cdf.len() * GUIDE_PER_ENTRY;
        // One merge pass: the bucket starts rise with b, so does the entry.
        let mut guide = Vec::with_capacity(buckets);
        let mut e = 0;
        for b in 0..buckets {
            let u = b as f64 / buckets as f64 * total;
            while e + 1 < cdf.len() && cdf[e] <= u {
                e += 1;
            }
            guide.push(e as u32);
        }
        // A draw x of bucket b has x < (b+1)/len ([`TableDraws::at_draw`]
        // takes the bucket exactly; the tests' floating-point one has
        // fl(x·len) < b + 1, which implies it), so its u = fl(x·total)
        // stays below the bound, computed with a margin for its three
        // roundings. When the bucket's first entry already exceeds that
        // bound (or is the last), the search stops there for every x of
        // the bucket: the flag only skips comparisons whose outcome is
        // known.
        let last = cdf.len() - 1;
        for (b, g) in guide.iter_mut().enumerate() {
            let e = *g as usize;
            let bound = (b + 1) as f64 / buckets as f64 * total * (1.0 + 4.0 * f64::EPSILON);
            if e == last || cdf[e] > bound {
                *g |= SURE;
            }
        }
        // Only sizes the exact search takes need its entries: sorting the
        // entries of 100 values by weight cost a third of this layout.
        let searched = if n <= EXACT_MAX_N {
            searched_entries(&probs, total)
        } else {
            Vec::new()
        };
        Some(Layout {
            cdf,
            guide,
            pairs,
            probs,
            searched,
        })
    }

    /// The value of entry (i, j) for a sorted sample.
    fn median_of(sorted: &[f64], (i, j): (u32, u32)) -> f64 {
        let (i, j) = (i as usize, j as usize);
        if i == j {
            sorted[i]
        } else {
            (sorted[i] + sorted[j]) / 2.0
        }
    }

    /// The resampled median's distribution for this sorted sample, less
    /// its negligible values.
    fn atoms(&self, sorted: &[f64]) -> Atoms {
        Atoms::new(
            self.searched
                .iter()
                .map(|&e| {
                    let e = e as usize;
                    (Self::median_of(sorted, self.pairs[e]), self.probs[e])
                })
                .collect(),
        )
    }
}

/// The entries the exact search weighs, in table order: all but the
/// lightest, which together weigh at most [`NEGLIGIBLE`] of `total`. In an
/// even sample those are most of the entries and most of the search's work.
fn searched_entries(probs: &[f64], total: f64) -> Vec<u32> {
    let mut by_weight: Vec<u32> = (0..probs.len() as u32).collect();
    by_weight.sort_unstable_by(|&a, &b| probs[a as usize].total_cmp(&probs[b as usize]));
    let mut dropped = 0.0;
    let budget = NEGLIGIBLE * total;
    let light = by_weight
        .iter()
        .take_while(|&&e| {
            dropped += probs[e as usize];
            dropped <= budget
        })
        .count();
    let mut searched = by_weight.split_off(light);
    searched.sort_unstable();
    searched
}

impl MedianTable {
    fn new(sorted: &[f64]) -> Option<MedianTable> {
        let layout = Layout::of(sorted.len())?;
        let values = layout
            .pairs
            .iter()
            .map(|&pair| Layout::median_of(sorted, pair))
            .collect();
        Some(MedianTable {
            cdf: &layout.cdf,
            values,
            guide: &layout.guide,
            guide_len: layout.guide.len() as u64,
            total: *layout.cdf.last()?,
        })
    }

    /// One resampled median from a uniform draw.
    #[inline(always)]
    fn sample(&self, rng: &mut Pcg64) -> f64 {
        self.draws().at_draw(rng.next_u64() >> 11)
    }

    /// What a draw reads, as values to keep in registers.
    fn draws(&self) -> TableDraws<'_> {
        TableDraws {
            guide: self.guide,
            values: &self.values,
            guide_len: self.guide_len,
            table: self,
        }
    }

    /// The first entry from `start` on whose cumulative probability exceeds
    /// x's share of the total (the last entry at most).
    #[cold]
    #[inline(never)]
    fn search(&self, start: usize, x: f64) -> f64 {
        let last = self.cdf.len() - 1;
        let u = x * self.total;
        let mut i = start;
        while i < last && self.cdf[i] <= u {
            i += 1;
        }
        self.values[i]
    }

    /// The median at quantile `x` in [0, 1) of the resampled-median
    /// distribution, its bucket taken in floating point: what
    /// [`TableDraws::at_draw`] computed before, kept as the tests' reference.
    #[cfg(test)]
    fn at(&self, x: f64) -> f64 {
        let guide_len = self.guide_len as f64;
        // x < 1, so the bucket fits an i64 (a cheaper conversion than to usize).
        let g = self.guide[(x * guide_len) as i64 as usize];
        if g & SURE != 0 {
            return self.values[(g & !SURE) as usize];
        }
        let last = self.cdf.len() - 1;
        let u = x * self.total;
        let mut i = g as usize;
        while i < last && self.cdf[i] <= u {
            i += 1;
        }
        self.values[i]
    }
}

/// The fields of a [`MedianTable`] every draw reads.
#[derive(Clone, Copy)]
struct TableDraws<'a> {
    guide: &'a [u32],
    values: &'a [f64],
    guide_len: u64,
    table: &'a MedianTable,
}

impl TableDraws<'_> {
    /// The median at quantile x = k / 2⁵³ (k < 2⁵³), as
    /// [`MedianTable::at`] gives it, with the bucket found in integers:
    /// ⌊k · len / 2⁵³⌋ is x's bucket exactly (the floating-point product may
    /// round up to the next one), so the guide's bounds hold a fortiori, and
    /// it costs a multiply and a shift instead of a rounding product and a
    /// saturating conversion. The search, needed by about one draw in thirty,
    /// is out of line.
    #[inline(always)]
    fn at_draw(self, k: u64) -> f64 {
        let b = ((k as u128 * self.guide_len as u128) >> 53) as usize;
        let g = self.guide[b];
        if g & SURE != 0 {
            return self.values[(g & !SURE) as usize];
        }
        // Below 2⁵³ the signed conversion is exact and one instruction.
        self.table
            .search(g as usize, (k as i64) as f64 * (1.0 / (1u64 << 53) as f64))
    }
}

/// Binomial(n, p) probabilities of 0..=n into `out[..=n]`, by the ratio
/// recurrence from whichever end is exact (n ≤ [`TABLE_MAX_N`], so nothing
/// underflows to zero that matters).
fn binomial_pmf(n: usize, p: f64, out: &mut [f64]) {
    out[..=n].fill(0.0);
    if p <= 0.0 {
        out[0] = 1.0;
        return;
    }
    if p >= 1.0 {
        out[n] = 1.0;
        return;
    }
    let odds = p / (1.0 - p);
    out[0] = (1.0 - p).powi(n as i32);
    for x in 0..n {
        out[x + 1] = out[x] * (n - x) as f64 / (x + 1) as f64 * odds;
    }
}

/// Draws resamples of one sorted side; owns its count buffer so that the
/// inner loop allocates nothing.
struct Resampler<'a> {
    sorted: &'a [f64],
    counts: Vec<u32>,
    table: Option<&'a MedianTable>,
}

impl<'a> Resampler<'a> {
    fn new(sorted: &'a [f64], table: Option<&'a MedianTable>) -> Self {
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
    fn indices(rng: &mut Pcg64, n: usize, mut f: impl FnMut(usize)) {
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
    fn draw(&mut self, rng: &mut Pcg64, centre: Center) -> f64 {
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
mod tests;
