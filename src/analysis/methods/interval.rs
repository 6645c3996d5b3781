//! The interval of the change between two samples' centres: exact or
//! resampled ratio intervals, asymptotic ones for large samples, and
//! nothing when the baseline's values leave the ratio without meaning.

use super::{named, ratio_to_pct, Context};
use crate::analysis::describe::{Side, CONFIDENCE};
use crate::analysis::{Center, IntervalMethod, Note, NoteKind};
use crate::stats::bootstrap::ratio_ci_sorted;
use crate::stats::large_sample::{ratio_ci_asymptotic, LARGE_N};

/// The interval of the change of `centre` from `base` to `var` in percent
/// with how it was made, or `None`; a note when the baseline has no sign.
pub(super) fn sample_interval(
    base: &Side,
    var: &Side,
    centre: Center,
    baseline_center: f64,
    cx: &Context<'_>,
    notes: &mut Vec<Note>,
) -> Option<(f64, f64, Option<IntervalMethod>)> {
    let sign = baseline_sign(&base.sorted);
    // A centre of 0 has its own note later: no change % at all.
    if sign == 0.0 && baseline_center != 0.0 {
        notes.push(Note::new(
            NoteKind::ChangeUndefined,
            "the baseline's values reach zero or both signs: no interval for a change relative to it",
        ));
    }
    if sign == 0.0 {
        return None;
    }
    let large = base.sorted.len().max(var.sorted.len()) >= LARGE_N;
    let (ci, how) = if large {
        ratio_ci_asymptotic(&base.sorted, &var.sorted, centre, CONFIDENCE)
            .map(|ci| (ci, IntervalMethod::Asymptotic))
    } else {
        ratio_ci_sorted(
            &base.sorted,
            &var.sorted,
            centre,
            cx.settings.resamples,
            CONFIDENCE,
            cx.seed,
        )
        .map(|(ci, exact)| {
            let how = if exact {
                IntervalMethod::Exact
            } else {
                IntervalMethod::Resampled
            };
            (ci, how)
        })
    }?;
    // Below a negative baseline the ratio falls as the values rise: the
    // change relative to the baseline's magnitude is 1 − ratio, the
    // ratio-to-percent step of 2 − ratio.
    let ci = if sign < 0.0 {
        (2.0 - ci.1, 2.0 - ci.0)
    } else {
        ci
    };
    let (lo, hi) = ratio_to_pct(ci);
    Some((lo, hi, named(ci, how)))
}

/// 1 when every baseline value is positive, −1 when every one is negative,
/// 0 otherwise: a centre resampled from values of both signs (or zero)
/// can be zero or change sign, and a ratio to it means nothing.
fn baseline_sign(sorted: &[f64]) -> f64 {
    match (sorted.first(), sorted.last()) {
        (Some(&lo), Some(_)) if lo > 0.0 => 1.0,
        (Some(_), Some(&hi)) if hi < 0.0 => -1.0,
        _ => 0.0,
    }
}
