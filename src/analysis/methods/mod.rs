//! The test methods, one file per statistical assumption, behind one small
//! interface: given the two sides of a comparison, a [`TestMethod`] returns
//! the centres it compares, its p-value, the interval of the change, an
//! effect size and typed notes ([`Outcome`]). [`choose`] picks the method
//! the data and `--test` allow; the comparison then adds what does not
//! depend on the method (the change %, power, outliers, trends).
//!
//! - `rank.rs`: Mann-Whitney on samples, medians, Cliff's delta;
//! - `welch_samples.rs`: Welch's t on samples, means, Hedges' g;
//! - `welch_summary.rs`: Welch's t from stated mean, sd and n;
//! - `untestable.rs`: no test the data allows, and why;
//! - `interval.rs`: the interval of the ratio of two samples' centres,
//!   shared by both sample methods.

mod interval;
mod rank;
mod untestable;
mod welch_samples;
mod welch_summary;

use super::describe::Side;
use super::{Center, IntervalMethod, Note, Settings, TestChoice, TestKind};
use crate::stats::welch::{welch_from_stats, WelchResult};

/// What a method makes of one comparison.
#[derive(Debug)]
pub(crate) struct Outcome {
    pub center: Center,
    pub test: TestKind,
    pub p_value: Option<f64>,
    pub effect_size: Option<f64>,
    pub baseline_center: f64,
    pub variant_center: f64,
    /// The 95% interval of the change in percent, with how it was made;
    /// `None` when the method has none for this data.
    pub interval: Option<(f64, f64, Option<IntervalMethod>)>,
    /// Why something is missing or how to read it, in the order found.
    pub notes: Vec<Note>,
}

impl Default for Outcome {
    /// No test, no centres: what a method starts from.
    fn default() -> Self {
        Outcome {
            center: Center::Mean,
            test: TestKind::None,
            p_value: None,
            effect_size: None,
            baseline_center: f64::NAN,
            variant_center: f64::NAN,
            interval: None,
            notes: Vec::new(),
        }
    }
}

/// What every method is given besides the two sides.
pub(crate) struct Context<'a> {
    pub settings: &'a Settings,
    /// The seed of this comparison's resampling stream.
    pub seed: u64,
}

/// A statistical test of one variant against its baseline.
pub(crate) trait TestMethod {
    /// Tests `var` against `base`.
    fn run(&self, base: &Side, var: &Side, cx: &Context<'_>) -> Outcome;
}

/// The method the data allows: samples on both sides take the rank test,
/// or Welch's t on samples under `--test welch`; stated mean, sd and n take
/// Welch's t on summaries; anything else cannot be tested.
pub(crate) fn choose(base: &Side, var: &Side, settings: &Settings) -> &'static dyn TestMethod {
    if base.sample_count() >= 2 && var.sample_count() >= 2 {
        if settings.test == TestChoice::Welch {
            &welch_samples::WelchSamples
        } else {
            &rank::Rank
        }
    } else if [base.mean, base.sd, base.n, var.mean, var.sd, var.n]
        .iter()
        .all(Option::is_some)
    {
        &welch_summary::WelchSummary
    } else {
        &untestable::Untestable
    }
}

/// Welch's t on two sides' samples, from the mean and sd their summaries
/// took over the samples in run order: the `welch` of the samples
/// themselves (finite, as every side of samples is), which by now are
/// sorted.
fn welch_of_samples(base: &Side, var: &Side) -> Option<WelchResult> {
    let (n1, n2) = (base.sample_count(), var.sample_count());
    if n1 < 2 || n2 < 2 {
        return None;
    }
    welch_from_stats(
        base.mean?, base.sd?, n1 as f64, var.mean?, var.sd?, n2 as f64,
    )
}

/// The centre of one side: the median or mean asked for, else the other.
pub(crate) fn centre_of(s: &Side, center: Center) -> f64 {
    let v = match center {
        Center::Median => s.summary.median.or(s.mean),
        Center::Mean => s.mean.or(s.summary.median),
    };
    v.unwrap_or(f64::NAN)
}

/// A ratio interval `(lo, hi)` as percent changes.
fn ratio_to_pct((lo, hi): (f64, f64)) -> (f64, f64) {
    ((lo - 1.0) * 100.0, (hi - 1.0) * 100.0)
}

/// An interval is named only when both its ends are numbers: `--json`
/// shows an infinite end (the delta method far from 1) as null.
fn named(ci: (f64, f64), how: IntervalMethod) -> Option<IntervalMethod> {
    (ci.0.is_finite() && ci.1.is_finite()).then_some(how)
}
