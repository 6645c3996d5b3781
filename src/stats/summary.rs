//! Descriptive statistics of one sample and the intervals of its centre.

/// Which centre of a sample a change or a ratio is taken of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Center {
    /// The median.
    Median,
    /// The mean.
    Mean,
}

use statrs::distribution::{Binomial, ContinuousCDF, DiscreteCDF, StudentsT};

/// Descriptive statistics of a sample.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Number of values.
    pub n: usize,
    /// Arithmetic mean.
    pub mean: f64,
    /// Median.
    pub median: f64,
    /// Sample standard deviation (n − 1); 0 for a single value.
    pub stddev: f64,
    /// Coefficient of variation in percent; `None` when the mean is 0.
    pub cv_pct: Option<f64>,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// Median absolute deviation, unscaled.
    pub mad: f64,
}

impl Summary {
    /// Summarises `xs`; `None` for an empty slice or non-finite values.
    pub fn of(xs: &[f64]) -> Option<Summary> {
        if xs.is_empty() || xs.iter().any(|x| !x.is_finite()) {
            return None;
        }
        let mut sorted = xs.to_vec();
        sorted.sort_unstable_by(f64::total_cmp);
        Summary::of_sorted(xs, &sorted)
    }

    /// [`Summary::of`] given `sorted`, the values of `xs` in ascending
    /// order, so that a caller sorting them anyway does not sort twice (the
    /// sums still run in the order of `xs`).
    pub fn of_sorted(xs: &[f64], sorted: &[f64]) -> Option<Summary> {
        if xs.is_empty() || xs.len() != sorted.len() || xs.iter().any(|x| !x.is_finite()) {
            return None;
        }
        Some(Summary::of_moments(mean(xs), stddev(xs), sorted))
    }

    /// [`Summary::of_sorted`] given the mean and standard deviation of the
    /// values in run order, so that a caller can compute them, then sort
    /// its one vector of the values in place (`sorted`, at least one
    /// finite value): the sums are those of the run order all the same.
    pub fn of_moments(mean: f64, stddev: f64, sorted: &[f64]) -> Summary {
        let n = sorted.len();
        let median = percentile_sorted(sorted, 50.0);
        let mad = mad_sorted(sorted, median);
        Summary {
            n,
            mean,
            median,
            stddev,
            cv_pct: (mean != 0.0).then(|| 100.0 * stddev / mean.abs()),
            min: sorted[0],
            max: sorted[n - 1],
            mad,
        }
    }
}

/// Arithmetic mean (NaN for an empty slice).
pub fn mean(xs: &[f64]) -> f64 {
    let plain = xs.iter().sum::<f64>() / xs.len() as f64;
    if plain.is_finite() || xs.iter().any(|v| !v.is_finite()) {
        return plain;
    }
    // Finite values near f64::MAX whose sum overflows: their mean is a
    // number, summed in units of the largest.
    let c = xs.iter().fold(0.0, |m: f64, v| m.max(v.abs()));
    c * (xs.iter().map(|x| x / c).sum::<f64>() / xs.len() as f64)
}

/// Sample variance with n − 1 in the denominator, computed around the mean
/// in two passes (stable for values like 1e9 ± 1); 0 for n < 2.
pub fn variance(xs: &[f64]) -> f64 {
    if xs.len() < 2 {
        return 0.0;
    }
    let m = mean(xs);
    xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (xs.len() - 1) as f64
}

/// Sample standard deviation (n − 1).
///
/// Squared deviations of values beyond about 1e154 overflow, and of values
/// below about 1e-154 vanish or lose digits, though the deviation itself is
/// a number: the spread is then computed again in units of the largest
/// value. Other samples take the plain two passes, bit for bit.
pub fn stddev(xs: &[f64]) -> f64 {
    let v = variance(xs);
    let plain = v.sqrt();
    // A variance that is a normal number kept its precision.
    if v.is_normal() || xs.len() < 2 {
        return plain;
    }
    // 0 from values of ordinary size is a side with no spread.
    let c = xs.iter().fold(0.0, |m: f64, v| m.max(v.abs()));
    if !(c > 0.0 && c.is_finite()) || (plain == 0.0 && c >= 1e-150) {
        return plain;
    }
    let m = mean(xs) / c;
    let ss: f64 = xs.iter().map(|x| (x / c - m) * (x / c - m)).sum();
    let scaled = c * (ss / (xs.len() - 1) as f64).sqrt();
    // A side whose values are all equal keeps its 0.
    if scaled.is_finite() {
        scaled
    } else {
        plain
    }
}

/// Population standard deviation (n in the denominator), which some authors
/// report as "std. dev."; used only to cross-check stated values.
pub fn population_stddev(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    population_stddev_of(variance(xs), xs.len())
}

/// [`population_stddev`] of `n` values whose [`variance`] is `variance`.
pub fn population_stddev_of(variance: f64, n: usize) -> f64 {
    let n = n as f64;
    (variance * (n - 1.0) / n).sqrt()
}

/// The `p`-th percentile (0–100) of sorted data with linear interpolation
/// between order statistics (NumPy's default, Hyndman–Fan type 7).
pub fn percentile_sorted(sorted: &[f64], p: f64) -> f64 {
    let n = sorted.len();
    if n == 0 {
        return f64::NAN;
    }
    let h = (n - 1) as f64 * p.clamp(0.0, 100.0) / 100.0;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(n - 1);
    between(sorted[lo], sorted[hi], h - lo as f64)
}

/// `a + f (b − a)`, the interpolation NumPy's default percentile uses;
/// where `b − a` overflows (values near ±1e308 of opposite signs) the
/// weighted sum instead, which cannot, and `a` itself at `f = 0` (the
/// product would be 0 × ∞, NaN).
fn between(a: f64, b: f64, f: f64) -> f64 {
    let d = b - a;
    if d.is_finite() {
        a + f * d
    } else if f == 0.0 {
        a
    } else {
        a * (1.0 - f) + b * f
    }
}

/// `percentile_sorted(sorted, 50.0)` of the values of `v` without sorting
/// them: the two middle order statistics by selection (O(n); `v` is
/// reordered), combined with the same arithmetic.
pub fn median_by_selection(v: &mut [f64]) -> f64 {
    let n = v.len();
    if n == 0 {
        return f64::NAN;
    }
    let h = (n - 1) as f64 * 50.0 / 100.0;
    let lo = h.floor() as usize;
    let (_, &mut at, above) = v.select_nth_unstable_by(lo, f64::total_cmp);
    let next = if lo + 1 < n {
        above.iter().copied().min_by(f64::total_cmp).unwrap_or(at)
    } else {
        at
    };
    between(at, next, h - lo as f64)
}

/// The median of the absolute deviations from `median` of `sorted`
/// (finite values in ascending order), as [`median_by_selection`] gives it
/// for them, without a copy: the deviations of the values below `median`,
/// read from it downwards, and of the others, read upwards, each ascend,
/// so their order statistics come from merging the two. Ten million
/// samples a side made an 80 MB copy per side.
pub fn mad_sorted(sorted: &[f64], median: f64) -> f64 {
    let n = sorted.len();
    if n == 0 {
        return f64::NAN;
    }
    let h = (n - 1) as f64 * 50.0 / 100.0;
    let lo = h.floor() as usize;
    let split = sorted.partition_point(|&x| x < median);
    // The next deviation below is that of `sorted[down - 1]`, above that
    // of `sorted[up]`.
    let (mut down, mut up) = (split, split);
    let mut next = || {
        let below = (down > 0).then(|| (sorted[down - 1] - median).abs());
        let above = (up < n).then(|| (sorted[up] - median).abs());
        match (below, above) {
            (Some(b), Some(a)) if b <= a => {
                down -= 1;
                b
            }
            (Some(b), None) => {
                down -= 1;
                b
            }
            (_, Some(a)) => {
                up += 1;
                a
            }
            (None, None) => f64::NAN,
        }
    };
    for _ in 0..lo {
        next();
    }
    let at = next();
    let after = if lo + 1 < n { next() } else { at };
    between(at, after, h - lo as f64)
}

/// Median of unsorted data.
pub fn median(xs: &[f64]) -> f64 {
    let mut s = xs.to_vec();
    s.sort_unstable_by(f64::total_cmp);
    percentile_sorted(&s, 50.0)
}

/// Two-sided quantile of Student's t with `df` degrees of freedom for a
/// `confidence` interval (e.g. 0.95 → t_{0.975, df}).
pub fn t_quantile(confidence: f64, df: f64) -> f64 {
    // statrs inverts the t CDF iteratively (some 13,000 instructions a
    // call), and an analysis asks again and again for the same few
    // (confidence, df): every side of n samples has df = n − 1. The last
    // few answers are kept per thread; a hit returns the very same bits.
    const KEPT: usize = 8;
    type Kept = [Option<((u64, u64), f64)>; KEPT];
    thread_local! {
        static KNOWN: std::cell::Cell<(Kept, usize)> =
            const { std::cell::Cell::new(([None; KEPT], 0)) };
    }
    let key = (confidence.to_bits(), df.to_bits());
    let (mut kept, next) = KNOWN.get();
    if let Some((_, t)) = kept.iter().flatten().find(|(k, _)| *k == key) {
        return *t;
    }
    let t = t_quantile_uncached(confidence, df);
    kept[next] = Some((key, t));
    KNOWN.set((kept, (next + 1) % KEPT));
    t
}

/// [`t_quantile`] computed afresh.
fn t_quantile_uncached(confidence: f64, df: f64) -> f64 {
    let p = 0.5 + confidence / 2.0;
    let normal = statrs::distribution::Normal::standard();
    if df >= LARGE_DF {
        return t_quantile_large_df(normal.inverse_cdf(p), df);
    }
    match StudentsT::new(0.0, 1.0, df) {
        Ok(t) if df > 0.0 => t.inverse_cdf(p),
        _ => normal.inverse_cdf(p),
    }
}

/// Degrees of freedom from which [`t_quantile`] uses the expansion below.
/// statrs inverts the t CDF iteratively, and the inversion drifts as df
/// grows (relative error 3e-9 at df = 1000, 7% at df = 10^7, against
/// SciPy), which power searches over millions of samples reach; from 500
/// on, the expansion agrees with SciPy to about 1e-12.
const LARGE_DF: f64 = 500.0;

/// The t quantile from the normal quantile `z` by its asymptotic expansion
/// in 1/df (Cornish-Fisher; Abramowitz & Stegun 26.7.5), to the 1/df^4
/// term.
fn t_quantile_large_df(z: f64, df: f64) -> f64 {
    if !df.is_finite() {
        return z;
    }
    let z2 = z * z;
    let g1 = z * (z2 + 1.0) / 4.0;
    let g2 = z * ((5.0 * z2 + 16.0) * z2 + 3.0) / 96.0;
    let g3 = z * (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) / 384.0;
    let g4 = z * ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) / 92160.0;
    z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df
}

/// Confidence interval of the mean from Student's t; `None` for n < 2.
pub fn mean_ci(xs: &[f64], confidence: f64) -> Option<(f64, f64)> {
    mean_ci_from_stats(mean(xs), stddev(xs), xs.len() as u64, confidence)
}

/// Confidence interval of the mean from a stated mean, stddev and n.
pub fn mean_ci_from_stats(mean: f64, sd: f64, n: u64, confidence: f64) -> Option<(f64, f64)> {
    if n < 2 || !sd.is_finite() {
        return None;
    }
    let half = t_quantile(confidence, (n - 1) as f64) * sd / (n as f64).sqrt();
    Some((mean - half, mean + half))
}

/// 1-based ranks `(l, u)` of the order statistics bounding a distribution-free
/// confidence interval of the median, symmetric as in benchstat: the
/// narrowest `[x_(l), x_(n+1−l)]` whose coverage P(l ≤ B ≤ n−l), B ~ Bin(n, ½),
/// is at least `confidence`. `None` when even `[min, max]` covers less (n < 6
/// at 95%), returned with the actual coverage otherwise.
pub fn median_ci_ranks(n: usize, confidence: f64) -> Option<(usize, usize, f64)> {
    // A pure function of (n, confidence) that costs two binomial CDFs per
    // rank tried, asked for every side of every group: kept per thread.
    type Ranks = Option<(usize, usize, f64)>;
    thread_local! {
        static KNOWN: std::cell::RefCell<std::collections::HashMap<(usize, u64), Ranks>> =
            std::cell::RefCell::new(std::collections::HashMap::new());
    }
    let key = (n, confidence.to_bits());
    if let Some(r) = KNOWN.with(|k| k.borrow().get(&key).copied()) {
        return r;
    }
    let r = median_ci_ranks_uncached(n, confidence);
    KNOWN.with(|k| k.borrow_mut().insert(key, r));
    r
}

fn median_ci_ranks_uncached(n: usize, confidence: f64) -> Option<(usize, usize, f64)> {
    if n < 2 {
        return None;
    }
    let bin = Binomial::new(0.5, n as u64).ok()?;
    // Coverage of [x_(l), x_(n+1-l)] = P(B <= n-l) - P(B <= l-1).
    let coverage = |l: usize| bin.cdf((n - l) as u64) - bin.cdf((l - 1) as u64);
    if coverage(1) < confidence {
        return None;
    }
    let mut l = 1;
    while l + 1 < n + 1 - l && coverage(l + 1) >= confidence {
        l += 1;
    }
    Some((l, n + 1 - l, coverage(l)))
}

/// Distribution-free CI of the median from order statistics; `None` when n
/// is too small for `confidence` (see [`median_ci_ranks`]).
pub fn median_ci(xs: &[f64], confidence: f64) -> Option<(f64, f64)> {
    median_ci_ranks(xs.len(), confidence)?;
    let mut s = xs.to_vec();
    s.sort_unstable_by(f64::total_cmp);
    median_ci_sorted(&s, confidence)
}

/// [`median_ci`] of values already in ascending order.
pub fn median_ci_sorted(sorted: &[f64], confidence: f64) -> Option<(f64, f64)> {
    let (l, u, _) = median_ci_ranks(sorted.len(), confidence)?;
    Some((sorted[l - 1], sorted[u - 1]))
}

/// Smallest n for which [`median_ci_ranks`] gives an interval.
pub fn min_n_for_median_ci(confidence: f64) -> usize {
    (2..200)
        .find(|&n| median_ci_ranks(n, confidence).is_some())
        .unwrap_or(200)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mean_of_values_near_the_largest_double_is_a_number() {
        let xs = [1.5e308, 1.6e308, 1.7e308];
        let m = mean(&xs);
        assert!((m / 1.6e308 - 1.0).abs() < 1e-15, "{m}");
        let sd = stddev(&xs);
        assert!((sd / 1e307 - 1.0).abs() < 1e-12, "{sd}");
        // An infinite value stays what it is.
        assert!(mean(&[1.0, f64::INFINITY]).is_infinite());
    }

    #[test]
    fn the_spread_is_a_number_at_any_magnitude() {
        let xs = [0.897, 1.2, 0.5, 0.9];
        let one = stddev(&xs);
        for c in [1e-200, 1e-160, 1e160, 1e200, 1e300] {
            let scaled: Vec<f64> = xs.iter().map(|v| v * c).collect();
            assert!((stddev(&scaled) / (one * c) - 1.0).abs() < 1e-12, "{c}");
        }
        // Equal values keep no spread, tiny or not.
        assert_eq!(stddev(&[3e-200; 4]), 0.0);
        assert_eq!(stddev(&[2.5; 4]), 0.0);
    }

    #[test]
    fn summary_of_hackbench_samples() {
        let xs = [2.978, 2.982, 3.010, 2.984, 2.982];
        let s = Summary::of(&xs).unwrap();
        assert_eq!(s.n, 5);
        assert!((s.mean - 2.9872).abs() < 1e-12);
        assert_eq!(s.median, 2.982);
        assert!((s.stddev - 0.012930583899).abs() < 1e-9, "{}", s.stddev);
        assert_eq!(s.min, 2.978);
        assert_eq!(s.max, 3.010);
        assert!((s.mad - 0.002).abs() < 1e-12);
        assert!(Summary::of(&[]).is_none());
        assert!(Summary::of(&[1.0, f64::NAN]).is_none());
    }

    #[test]
    fn kept_t_quantiles_are_the_computed_bits() {
        // More distinct keys than are kept, asked twice over in an order
        // that makes every second ask a miss and every other a hit.
        let keys: Vec<(f64, f64)> = [0.9, 0.95, 0.99]
            .iter()
            .flat_map(|&c| [1.0, 4.0, 9.5, 99.0, 499.0, 600.0, f64::INFINITY].map(|d| (c, d)))
            .collect();
        for round in 0..3 {
            for (i, &(c, d)) in keys.iter().enumerate() {
                let want = t_quantile_uncached(c, d).to_bits();
                assert_eq!(t_quantile(c, d).to_bits(), want, "{c} {d} round {round}");
                // Asked again right away: from what is kept.
                assert_eq!(t_quantile(c, d).to_bits(), want);
                if i % 3 == 0 {
                    let (c0, d0) = keys[0];
                    assert_eq!(
                        t_quantile(c0, d0).to_bits(),
                        t_quantile_uncached(c0, d0).to_bits()
                    );
                }
            }
        }
        assert!((t_quantile(0.95, 99.0) - 1.9842169515).abs() < 1e-9);
    }

    #[test]
    fn percentiles_of_values_near_the_largest_double_are_numbers() {
        let big = f64::MAX / 2.0 * 1.9;
        assert_eq!(percentile_sorted(&[-big, big], 50.0), 0.0);
        assert_eq!(percentile_sorted(&[-big, big, big], 50.0), big);
        assert_eq!(percentile_sorted(&[-big, big, big], 0.0), -big);
        let q = percentile_sorted(&[-big, big], 25.0);
        assert!(q.is_finite() && q < 0.0, "{q}");
        let mut v = [big, -big, big];
        assert_eq!(median_by_selection(&mut v), big);
        let mut v = [big, -big];
        assert_eq!(median_by_selection(&mut v), 0.0);
    }

    #[test]
    fn median_by_selection_is_the_sorted_median() {
        let mut state = 99u64;
        for n in 1..60usize {
            for levels in [3u64, 1000] {
                let v: Vec<f64> = (0..n)
                    .map(|_| {
                        state = state
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        ((state >> 33) % levels) as f64 * 0.37 - 1.0
                    })
                    .collect();
                let mut sorted = v.clone();
                sorted.sort_unstable_by(f64::total_cmp);
                let mut w = v.clone();
                assert_eq!(
                    median_by_selection(&mut w).to_bits(),
                    percentile_sorted(&sorted, 50.0).to_bits(),
                    "n={n}"
                );
            }
        }
        assert!(median_by_selection(&mut []).is_nan());
    }

    /// The MAD read off the sorted values is, to the bit, the one selected
    /// from a copy of their deviations: odd and even counts, many ties or
    /// few, values on both sides of zero and far from it, and around any
    /// centre given (not only the median).
    #[test]
    fn mad_of_sorted_values_is_that_of_their_deviations() {
        let mut state = 7u64;
        for n in 1..80usize {
            for (levels, scale, offset) in [(3u64, 0.37, -1.0), (1000, 0.001, 1e6), (50, 1.5, 0.0)]
            {
                let mut sorted: Vec<f64> = (0..n)
                    .map(|_| {
                        state = state
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        ((state >> 33) % levels) as f64 * scale + offset
                    })
                    .collect();
                sorted.sort_unstable_by(f64::total_cmp);
                let median = percentile_sorted(&sorted, 50.0);
                for centre in [median, sorted[0], sorted[n - 1], median + 0.1] {
                    let mut dev: Vec<f64> = sorted.iter().map(|x| (x - centre).abs()).collect();
                    assert_eq!(
                        mad_sorted(&sorted, centre).to_bits(),
                        median_by_selection(&mut dev).to_bits(),
                        "n={n} levels={levels} centre={centre}"
                    );
                }
            }
        }
        assert!(mad_sorted(&[], 0.0).is_nan());
        assert_eq!(mad_sorted(&[-0.0, 0.0, 2.0], 0.0), 0.0);
    }

    #[test]
    fn variance_is_stable_for_large_offsets() {
        let xs = [1e9 + 1.0, 1e9 + 2.0, 1e9 + 3.0];
        assert!((variance(&xs) - 1.0).abs() < 1e-9);
    }

    #[test]
    fn percentiles_interpolate_like_numpy() {
        let s = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(percentile_sorted(&s, 50.0), 2.5);
        assert_eq!(percentile_sorted(&s, 25.0), 1.75);
        assert_eq!(percentile_sorted(&s, 100.0), 4.0);
    }

    #[test]
    fn median_ci_needs_six_samples_at_95() {
        assert_eq!(min_n_for_median_ci(0.95), 6);
        assert!(median_ci_ranks(5, 0.95).is_none());
        let (l, u, cov) = median_ci_ranks(6, 0.95).unwrap();
        assert_eq!((l, u), (1, 6));
        assert!((cov - (1.0 - 2.0 / 64.0)).abs() < 1e-12);
        // n = 10: [x_(2), x_(9)] covers 0.9785; [x_(3), x_(8)] only 0.8906.
        let (l, u, _) = median_ci_ranks(10, 0.95).unwrap();
        assert_eq!((l, u), (2, 9));
    }

    #[test]
    fn mean_ci_uses_t() {
        // mean 10, sd 2, n 4: t_{0.975,3} = 3.182446305
        let (lo, hi) = mean_ci_from_stats(10.0, 2.0, 4, 0.95).unwrap();
        assert!((hi - 10.0 - 3.182446305284263).abs() < 1e-8, "{hi}");
        assert!((10.0 - lo - 3.182446305284263).abs() < 1e-8);
        assert!(mean_ci_from_stats(10.0, 2.0, 1, 0.95).is_none());
    }
}
