//! Change points of a series of benchmark results.
//!
//! - [`otava`]: E-divisive means exactly as Apache Otava computes it
//!   (`otava.analysis.compute_change_points`) on one value per point:
//!   Q̂ by recurrences ([`qhat`]), Student's t-test as significance
//!   ([`ttest`]), sliding windows at a relaxed threshold ([`split`]) and
//!   the weak/strong merge ([`merge`]). Parity is tested on Otava's own
//!   expectations and on generated series whose expectations the
//!   `apache-otava` package computed (`scripts/otava_fixtures.py`).
//! - [`replicates`]: with several runs per point, each candidate step is
//!   tested on the runs of its two adjacent segments.
//!
//! Index convention (Otava's): a change point's index is the 0-based index
//! of the first point of the new segment.

pub mod merge;
mod numpy_sum;
pub mod qhat;
pub mod replicates;
pub mod split;
pub mod ttest;

pub use ttest::SegmentStats;

/// A change point and the t-test of its two adjacent segments.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChangePoint {
    /// First point of the new segment (0-based).
    pub index: usize,
    /// The t-test of the segments before and after it.
    pub stats: SegmentStats,
}

/// Otava's first-pass threshold for `max_pvalue`: 10× below 0.05, 2×
/// below 0.5, unchanged above.
pub fn first_pass_pvalue(max_pvalue: f64) -> f64 {
    if max_pvalue < 0.05 {
        max_pvalue * 10.0
    } else if max_pvalue < 0.5 {
        max_pvalue * 2.0
    } else {
        max_pvalue
    }
}

/// Otava's change points of `series` (`compute_change_points(series,
/// window_len, max_pvalue, min_magnitude)`), sorted by index. Otava's
/// defaults are a window of 50, p 0.001 and magnitude 0.
///
/// # Panics
/// When `window_len < 2` (Otava asserts the same); callers validate it.
pub fn otava(
    series: &[f64],
    window_len: usize,
    max_pvalue: f64,
    min_magnitude: f64,
) -> Vec<ChangePoint> {
    let weak = split::split(series, window_len, first_pass_pvalue(max_pvalue));
    merge::merge(weak, series, max_pvalue, min_magnitude)
}
