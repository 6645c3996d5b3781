//! Statistics: summaries, two-sample tests, intervals, effect sizes,
//! multiple-comparison corrections, power and diagnostics.
//!
//! Every function here works on plain `f64` slices and knows nothing about
//! benchmarks; `analysis` decides which of them apply to which data.
//! Distributions and special functions come from `statrs`; what is
//! implemented here is combinatorics (the exact Mann-Whitney distribution),
//! order statistics and resampling.
//!
//! Correctness is checked against SciPy on committed vectors
//! (`scripts/scipy_vectors.py`, `tests/stats_oracle.rs`).

// `!(x > 0.0)` is used on purpose: unlike `x <= 0.0` it also rejects NaN.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

pub mod bootstrap;
pub mod changepoint;
pub mod correction;
pub mod delta;
pub mod diagnostics;
pub mod effect;
pub mod large_sample;
pub mod mann_whitney;
pub mod power;
pub mod pvalue;
pub mod ratio_quantile;
pub mod summary;
pub mod welch;

pub use pvalue::P_FLOOR;
