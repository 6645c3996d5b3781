//! Welch's t on samples (`--test welch`): means, Hedges' g, and the ratio
//! interval of the means.

use super::interval::sample_interval;
use super::{centre_of, welch_of_samples, Context, Outcome, TestMethod};
use crate::analysis::describe::Side;
use crate::analysis::{Center, Note, NoteKind, TestKind};
use crate::stats::effect::hedges_g;

/// Welch's unequal-variance t-test on two samples of at least 2 values.
pub(super) struct WelchSamples;

impl TestMethod for WelchSamples {
    fn run(&self, base: &Side, var: &Side, cx: &Context<'_>) -> Outcome {
        let (nb, nv) = (base.sample_count(), var.sample_count());
        let mut notes = Vec::new();
        let w = welch_of_samples(base, var);
        let effect_size = match (base.mean, base.sd, var.mean, var.sd) {
            (Some(m1), Some(s1), Some(m2), Some(s2)) => {
                hedges_g(m1, s1, nb as f64, m2, s2, nv as f64)
            }
            _ => None,
        };
        if w.is_none() {
            notes.push(Note::new(
                NoteKind::NoSpread,
                "no spread on either side: Welch's t is undefined (try --test mwu)",
            ));
        }
        let baseline_center = centre_of(base, Center::Mean);
        let interval = sample_interval(base, var, Center::Mean, baseline_center, cx, &mut notes);
        Outcome {
            center: Center::Mean,
            test: TestKind::Welch,
            p_value: w.map(|w| w.p),
            effect_size,
            baseline_center,
            variant_center: centre_of(var, Center::Mean),
            interval,
            notes,
        }
    }
}
