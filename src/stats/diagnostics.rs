//! Diagnostics of one sample or of two sides: outliers (counted, never
//! dropped), trend over run order, variance ratio and bimodality.

use super::summary::{mean, median_by_selection, percentile_sorted, variance};
use statrs::distribution::{ContinuousCDF, FisherSnedecor, Normal};

/// Values outside Tukey's fences [Q1 − 1.5·IQR, Q3 + 1.5·IQR] (quartiles by
/// linear interpolation). Fewer than 4 values: 0.
pub fn tukey_outliers(xs: &[f64]) -> usize {
    if xs.len() < 4 {
        return 0;
    }
    let mut s = xs.to_vec();
    s.sort_unstable_by(f64::total_cmp);
    tukey_outliers_sorted(&s)
}

/// [`tukey_outliers`] of values already in ascending order.
pub fn tukey_outliers_sorted(s: &[f64]) -> usize {
    if s.len() < 4 {
        return 0;
    }
    let q1 = percentile_sorted(s, 25.0);
    let q3 = percentile_sorted(s, 75.0);
    let iqr = q3 - q1;
    let (lo, hi) = (q1 - 1.5 * iqr, q3 + 1.5 * iqr);
    s.iter().filter(|&&v| v < lo || v > hi).count()
}

/// Values whose modified z-score |x − median| / (1.4826 · MAD) exceeds 3.5
/// (Iglewicz and Hoaglin's rule; robust to the outliers themselves). When
/// more than half the values are equal (MAD = 0) no value is flagged.
pub fn mad_outliers(xs: &[f64]) -> usize {
    if xs.len() < 3 {
        return 0;
    }
    let mut s = xs.to_vec();
    s.sort_unstable_by(f64::total_cmp);
    mad_outliers_sorted(&s)
}

/// [`mad_outliers`] of values already in ascending order.
pub fn mad_outliers_sorted(s: &[f64]) -> usize {
    if s.len() < 3 {
        return 0;
    }
    let med = percentile_sorted(s, 50.0);
    let mut dev: Vec<f64> = s.iter().map(|v| (v - med).abs()).collect();
    mad_outliers_given(s, med, median_by_selection(&mut dev))
}

/// [`mad_outliers`] of `xs` given their median and their unscaled median
/// absolute deviation (as [`Summary`](super::summary::Summary) holds them).
pub fn mad_outliers_given(xs: &[f64], median: f64, mad: f64) -> usize {
    if xs.len() < 3 {
        return 0;
    }
    let mad = mad * 1.4826;
    if !(mad > 0.0) {
        return 0;
    }
    xs.iter()
        .filter(|&&v| (v - median).abs() / mad > 3.5)
        .count()
}

/// Mann-Kendall trend test over run order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Trend {
    /// S = Σ_{i<j} sign(x_j − x_i): positive when values rise with run order.
    pub s: i64,
    /// Standardised S with continuity correction.
    pub z: f64,
    /// Two-sided p-value (normal approximation, tie-corrected variance).
    pub p: f64,
}

/// Mann-Kendall test of `xs` in run order; `None` for fewer than 5 values
/// or no variation at all.
pub fn mann_kendall(xs: &[f64]) -> Option<Trend> {
    if xs.len() < 5 {
        return None;
    }
    let mut sorted = xs.to_vec();
    sorted.sort_unstable_by(f64::total_cmp);
    mann_kendall_sorted(xs, &sorted)
}

/// [`mann_kendall`] given `sorted`, the values of `xs` in ascending order
/// (for the tie correction).
pub fn mann_kendall_sorted(xs: &[f64], sorted: &[f64]) -> Option<Trend> {
    let n = xs.len();
    if n < 5 || sorted.len() != n {
        return None;
    }
    mann_kendall_of_s(kendall_s(xs, sorted), sorted)
}

/// Mann-Kendall's S of `xs` in run order, given `sorted`, the same
/// values in ascending order: by ranks for long samples without NaN
/// (O(n log n)), pair by pair otherwise.
pub fn kendall_s(xs: &[f64], sorted: &[f64]) -> i64 {
    if xs.len() > 64 && sorted.iter().all(|v| !v.is_nan()) {
        kendall_s_by_ranks(xs, sorted)
    } else {
        kendall_s_by_pairs(xs)
    }
}

/// [`mann_kendall`] of values whose S over run order is `s` (as
/// [`sort_counting_kendall_s`] gives it), now in ascending order in
/// `sorted` (for the tie correction).
pub fn mann_kendall_of_s(s: i64, sorted: &[f64]) -> Option<Trend> {
    let n = sorted.len();
    if n < 5 {
        return None;
    }
    let mut tie_sum = 0.0;
    let mut i = 0;
    while i < n {
        let mut j = i + 1;
        while j < n && sorted[j] == sorted[i] {
            j += 1;
        }
        let t = (j - i) as f64;
        tie_sum += t * (t - 1.0) * (2.0 * t + 5.0);
        i = j;
    }
    let nf = n as f64;
    let var = (nf * (nf - 1.0) * (2.0 * nf + 5.0) - tie_sum) / 18.0;
    if !(var > 0.0) {
        return None;
    }
    let z = match s.signum() {
        1 => (s - 1) as f64 / var.sqrt(),
        -1 => (s + 1) as f64 / var.sqrt(),
        _ => 0.0,
    };
    let p = (2.0 * Normal::standard().sf(z.abs())).min(1.0);
    Some(Trend { s, z, p })
}

/// Sorts `xs` (no NaN) into ascending order in place and returns the S of
/// [`kendall_s_by_pairs`] of their order before, counted while they are
/// merged: a side of ten million samples in run order then needs no
/// sorted copy of itself for its trend (80 MB), only a buffer of half its
/// length while it is sorted. Exact (integer counts), so the S is that of
/// the other ways of counting it.
pub fn sort_counting_kendall_s(xs: &mut [f64]) -> i64 {
    let mut buffer = Vec::with_capacity(xs.len() / 2);
    merge_sort_counting(xs, &mut buffer)
}

/// Runs at most this long are counted pair by pair and sorted directly.
const SMALL_RUN: usize = 32;

fn merge_sort_counting(xs: &mut [f64], buffer: &mut Vec<f64>) -> i64 {
    let n = xs.len();
    if n <= SMALL_RUN {
        let s = kendall_s_by_pairs(xs);
        xs.sort_unstable_by(f64::total_cmp);
        return s;
    }
    let mid = n / 2;
    let (left, right) = xs.split_at_mut(mid);
    let mut s = merge_sort_counting(left, buffer) + merge_sort_counting(right, buffer);
    buffer.clear();
    buffer.extend_from_slice(&xs[..mid]);
    // Each later value against the earlier half: those below it count +1,
    // those above it −1. Both halves ascend by `total_cmp`, which orders
    // values without NaN as `<` does (−0 before 0, which `<` holds equal),
    // so the counts of earlier values below and not above a later one grow
    // with it: one pass of two cursors.
    let (mut below, mut not_above) = (0usize, 0usize);
    for &x in &xs[mid..] {
        while below < mid && buffer[below] < x {
            below += 1;
        }
        while not_above < mid && buffer[not_above] <= x {
            not_above += 1;
        }
        s += below as i64 - (mid - not_above) as i64;
    }
    // Merged into place: the write position never passes the next unread
    // value of the later half.
    let (mut i, mut j) = (0, mid);
    for k in 0..n {
        if i == mid {
            break;
        }
        if j < n && xs[j].total_cmp(&buffer[i]).is_lt() {
            xs[k] = xs[j];
            j += 1;
        } else {
            xs[k] = buffer[i];
            i += 1;
        }
    }
    s
}

/// S = Σ_{i<j} sign(x_j − x_i) over all pairs; equal or unordered (NaN)
/// values count 0.
fn kendall_s_by_pairs(xs: &[f64]) -> i64 {
    let mut s: i64 = 0;
    for (i, &xi) in xs.iter().enumerate() {
        // Two comparisons rather than a match: the inner loop has no branch.
        s += xs[i + 1..]
            .iter()
            .map(|&xj| (xj > xi) as i64 - (xj < xi) as i64)
            .sum::<i64>();
    }
    s
}

/// The S of [`kendall_s_by_pairs`] in O(n log n) for values without NaN:
/// each value is compared, through its rank among the distinct values, with
/// the counts of earlier ranks kept in a Fenwick tree. Exact (integer
/// counts); `sorted` is `xs` in ascending order.
fn kendall_s_by_ranks(xs: &[f64], sorted: &[f64]) -> i64 {
    // `==` as the pairwise sign sees it (so −0 and 0 share a rank). The
    // distinct values are counted first and gathered into room for them
    // alone: a copy of the side thinned afterwards was 80 MB for ten
    // million samples of a timer's few thousand values.
    let count = 1 + sorted.windows(2).filter(|w| w[1] != w[0]).count();
    let mut distinct: Vec<f64> = Vec::with_capacity(count);
    for &v in sorted {
        if distinct.last() != Some(&v) {
            distinct.push(v);
        }
    }
    // Counts never pass the samples' number, which a `u32` run index
    // bounds: half the tree of 64-bit counts.
    let mut tree = vec![0u32; distinct.len() + 1];
    let mut s: i64 = 0;
    for (seen, &x) in xs.iter().enumerate() {
        // 1-based rank of x; earlier values below it and not above it.
        let rank = distinct.partition_point(|&d| d < x) + 1;
        let (mut below, mut not_above) = (0i64, 0i64);
        let mut k = rank - 1;
        while k > 0 {
            below += i64::from(tree[k]);
            k &= k - 1;
        }
        let mut k = rank;
        while k > 0 {
            not_above += i64::from(tree[k]);
            k &= k - 1;
        }
        s += below - (seen as i64 - not_above);
        let mut k = rank;
        while k < tree.len() {
            tree[k] += 1;
            k += k & k.wrapping_neg();
        }
    }
    s
}

/// Ratio of variances between two sides and its two-sided F-test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VarianceRatio {
    /// var(y) / var(x).
    pub ratio: f64,
    /// Two-sided p of H0: equal variances (F with n_y − 1, n_x − 1 df).
    pub p: f64,
}

/// Variance ratio of `y` to `x` from samples.
pub fn variance_ratio(x: &[f64], y: &[f64]) -> Option<VarianceRatio> {
    if x.len() < 2 || y.len() < 2 {
        return None;
    }
    variance_ratio_from_stats(
        variance(x).sqrt(),
        x.len() as f64,
        variance(y).sqrt(),
        y.len() as f64,
    )
}

/// Variance ratio from stated sds and sizes.
pub fn variance_ratio_from_stats(s1: f64, n1: f64, s2: f64, n2: f64) -> Option<VarianceRatio> {
    if n1 < 2.0 || n2 < 2.0 || !(s1 > 0.0) || !s2.is_finite() || s2 < 0.0 {
        return None;
    }
    // Near 1e±154 the squares overflow or vanish where the ratio of the
    // spreads, squared, does not (and statrs panics on a NaN).
    let plain = (s2 * s2) / (s1 * s1);
    let ratio = if plain.is_normal() {
        plain
    } else {
        (s2 / s1).powi(2)
    };
    if ratio.is_nan() {
        return None;
    }
    let f = FisherSnedecor::new(n2 - 1.0, n1 - 1.0).ok()?;
    let one = if ratio >= 1.0 {
        f.sf(ratio)
    } else {
        f.cdf(ratio)
    };
    Some(VarianceRatio {
        ratio,
        p: (2.0 * one).min(1.0),
    })
}

/// Sarle's bimodality coefficient (skewness² + 1) / (excess kurtosis +
/// 3(n−1)²/((n−2)(n−3))) with the sample-size-corrected moments; values above
/// 5/9 (that of a uniform distribution) hint at two modes. `None` for n < 10.
pub fn bimodality_coefficient(xs: &[f64]) -> Option<f64> {
    let n = xs.len();
    if n < 10 {
        return None;
    }
    let nf = n as f64;
    let m = mean(xs);
    let m2 = xs.iter().map(|v| (v - m).powi(2)).sum::<f64>() / nf;
    if !(m2 > 0.0) {
        return None;
    }
    let m3 = xs.iter().map(|v| (v - m).powi(3)).sum::<f64>() / nf;
    let m4 = xs.iter().map(|v| (v - m).powi(4)).sum::<f64>() / nf;
    let g1 = m3 / m2.powf(1.5);
    let g2 = m4 / (m2 * m2) - 3.0;
    let skew = g1 * (nf * (nf - 1.0)).sqrt() / (nf - 2.0);
    let kurt = (nf - 1.0) / ((nf - 2.0) * (nf - 3.0)) * ((nf + 1.0) * g2 + 6.0);
    Some((skew * skew + 1.0) / (kurt + 3.0 * (nf - 1.0).powi(2) / ((nf - 2.0) * (nf - 3.0))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outliers_are_counted() {
        let xs = [10.0, 10.1, 9.9, 10.0, 10.2, 9.8, 10.1, 25.0];
        assert_eq!(tukey_outliers(&xs), 1);
        assert_eq!(mad_outliers(&xs), 1);
        assert_eq!(tukey_outliers(&[1.0, 2.0, 3.0, 4.0, 5.0]), 0);
        assert_eq!(mad_outliers(&[1.0, 1.0, 1.0, 5.0]), 0);
    }

    #[test]
    fn mann_kendall_sees_a_rising_series() {
        let xs: Vec<f64> = (0..12)
            .map(|i| i as f64 + if i % 2 == 0 { 0.3 } else { 0.0 })
            .collect();
        let t = mann_kendall(&xs).unwrap();
        assert!(t.s > 50 && t.p < 0.001, "{t:?}");
        // Alternating series: no trend.
        let flat = [1.0, 2.0, 1.0, 2.0, 1.0, 2.0, 1.0, 2.0];
        assert!(mann_kendall(&flat).unwrap().p > 0.5);
        assert!(mann_kendall(&[1.0; 6]).is_none());
        // S for 1..5 is 10, var = 5·4·15/18 = 16.67, z = 9/4.08 = 2.2045
        // Both ways of computing S agree, ties, signed zeros and long
        // samples included.
        let mut state = 12345u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            state >> 33
        };
        for n in [65usize, 100, 257] {
            for levels in [3u64, 50, 1 << 30] {
                let mut xs: Vec<f64> = (0..n).map(|_| (next() % levels) as f64 - 1.0).collect();
                xs[n / 2] = -0.0;
                xs[n / 3] = 0.0;
                let mut sorted = xs.clone();
                sorted.sort_unstable_by(f64::total_cmp);
                assert_eq!(
                    kendall_s_by_ranks(&xs, &sorted),
                    kendall_s_by_pairs(&xs),
                    "n={n} levels={levels}"
                );
            }
        }
        let t = mann_kendall(&[1.0, 2.0, 3.0, 4.0, 5.0]).unwrap();
        assert_eq!(t.s, 10);
        // Counted while sorting in place: the S of the pairs, and the
        // values sorted as `sort_unstable_by(total_cmp)` sorts them.
        for n in [0usize, 1, 5, 31, 32, 33, 64, 65, 100, 257, 1000] {
            for levels in [1u64, 3, 50, 1 << 30] {
                let mut xs: Vec<f64> = (0..n).map(|_| (next() % levels) as f64 - 1.0).collect();
                if n > 3 {
                    xs[n / 2] = -0.0;
                    xs[n / 3] = 0.0;
                }
                let mut sorted = xs.clone();
                sorted.sort_unstable_by(f64::total_cmp);
                let mut counted = xs.clone();
                let s = sort_counting_kendall_s(&mut counted);
                assert_eq!(s, kendall_s_by_pairs(&xs), "n={n} levels={levels}");
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&counted), bits(&sorted), "n={n} levels={levels}");
                assert_eq!(mann_kendall_of_s(s, &counted), mann_kendall(&xs));
            }
        }
        assert!((t.z - 9.0 / (250.0f64 / 18.0 * 1.2).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn variance_ratio_tests_equality() {
        let v = variance_ratio_from_stats(1.0, 10.0, 1.0, 10.0).unwrap();
        assert_eq!(v.ratio, 1.0);
        assert!((v.p - 1.0).abs() < 1e-12);
        // scipy: 2*stats.f.sf(9, 9, 9) = 0.0029...
        let v = variance_ratio_from_stats(1.0, 10.0, 3.0, 10.0).unwrap();
        assert_eq!(v.ratio, 9.0);
        assert!(v.p < 0.005 && v.p > 0.002, "{}", v.p);
    }

    #[test]
    fn two_clusters_look_bimodal() {
        let mut xs = vec![1.0; 10];
        xs.extend([5.0; 10]);
        for (i, v) in xs.iter_mut().enumerate() {
            *v += i as f64 * 0.001;
        }
        assert!(bimodality_coefficient(&xs).unwrap() > 5.0 / 9.0);
        let normalish: Vec<f64> = (0..30).map(|i| ((i * 7919) % 31) as f64).collect();
        assert!(bimodality_coefficient(&normalish).unwrap() < 0.6);
    }
}
