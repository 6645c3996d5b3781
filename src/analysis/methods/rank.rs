//! The rank test (Mann-Whitney U) on samples: the default, since benchmark
//! samples are seldom normal. Centres are medians, the effect size is
//! Cliff's delta, and Welch's p is noted for reference.

use super::interval::sample_interval;
use super::{centre_of, welch_of_samples, Context, Outcome, TestMethod};
use crate::analysis::describe::{Side, CONFIDENCE};
use crate::analysis::{Center, Note, NoteKind, TestKind};
use crate::numfmt::{format_p, p_equals};
use crate::stats::effect::cliffs_delta_sorted;
use crate::stats::mann_whitney::{mann_whitney_u_sorted, min_possible_p};
use crate::stats::summary::min_n_for_median_ci;

/// Mann-Whitney U on two samples of at least 2 values each.
pub(super) struct Rank;

impl TestMethod for Rank {
    fn run(&self, base: &Side, var: &Side, cx: &Context<'_>) -> Outcome {
        let (nb, nv) = (base.sample_count(), var.sample_count());
        let mut notes = Vec::new();
        let u = mann_whitney_u_sorted(&base.sorted, &var.sorted);
        if let Some(w) = welch_of_samples(base, var) {
            notes.push(Note::new(
                NoteKind::WelchReference,
                format!("Welch's t for reference: {}", p_equals(w.p)),
            ));
        }
        let alpha = cx.settings.alpha;
        let floor = min_possible_p(nb, nv);
        if floor >= alpha {
            notes.push(Note::new(NoteKind::TooFewForTest, format!(
                "n={}+{}: no Mann-Whitney p can reach {alpha} (smallest possible {}); needs ≥ 4 samples per side",
                nb,
                nv,
                format_p(floor)
            )));
        }
        let baseline_center = centre_of(base, Center::Median);
        let interval = sample_interval(base, var, Center::Median, baseline_center, cx, &mut notes);
        let min_ci = min_n_for_median_ci(CONFIDENCE);
        if nb < min_ci || nv < min_ci {
            notes.push(Note::new(
                NoteKind::TooFewForInterval,
                format!(
                    "n={}+{}: needs ≥ {min_ci} samples per side for a distribution-free CI of each median",
                    nb,
                    nv
                ),
            ));
        }
        Outcome {
            center: Center::Median,
            test: TestKind::MannWhitney,
            p_value: u.map(|u| u.p),
            effect_size: cliffs_delta_sorted(&base.sorted, &var.sorted),
            baseline_center,
            variant_center: centre_of(var, Center::Median),
            interval,
            notes,
        }
    }
}
