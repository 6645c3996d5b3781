//! The two ends of a percentile interval of the resampled ratios, found by
//! selection rather than by sorting every ratio.

use super::BLOCK;

/// [`percentile_by_selection`] at `p_lo` and at `p_hi` (the slice is
/// reordered). Only the values near the two ranks matter: thresholds taken
/// from every 16th value keep the few values beyond them, and the ranks are
/// selected among those; when a threshold keeps too few (an unlucky
/// subsample), the whole slice is used, so the result is always the exact
/// order statistic. The values must not be NaN.
pub(super) fn percentile_pair(values: &mut [f64], p_lo: f64, p_hi: f64) -> (f64, f64) {
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
pub(super) fn percentile_by_selection(values: &mut [f64], p: f64) -> f64 {
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
