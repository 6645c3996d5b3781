//! Welch's t from stated summaries (mean, sd and n per side, as e-mail
//! tables give them), with the delta-method interval of the ratio of means.

use super::{named, ratio_to_pct, Context, Outcome, TestMethod};
use crate::analysis::describe::{Side, CONFIDENCE};
use crate::analysis::{Center, IntervalMethod, Note, NoteKind, TestKind};
use crate::stats::delta::delta_ratio_ci;
use crate::stats::effect::hedges_g;
use crate::stats::welch::welch_from_stats;

/// Welch's t on mean, sd and n; [`super::choose`] gives it only sides
/// that have all three.
pub(super) struct WelchSummary;

impl TestMethod for WelchSummary {
    fn run(&self, base: &Side, var: &Side, cx: &Context<'_>) -> Outcome {
        let nan = f64::NAN;
        let (m1, s1, n1) = (
            base.mean.unwrap_or(nan),
            base.sd.unwrap_or(nan),
            base.n.unwrap_or(nan),
        );
        let (m2, s2, n2) = (
            var.mean.unwrap_or(nan),
            var.sd.unwrap_or(nan),
            var.n.unwrap_or(nan),
        );
        let mut out = Outcome {
            center: Center::Mean,
            baseline_center: m1,
            variant_center: m2,
            ..Outcome::default()
        };
        match welch_from_stats(m1, s1, n1, m2, s2, n2) {
            Some(w) if n1 >= 2.0 && n2 >= 2.0 => {
                out.test = if base.summary.from_summary || var.summary.from_summary {
                    TestKind::WelchSummary
                } else {
                    TestKind::Welch
                };
                out.p_value = Some(w.p);
                out.effect_size = hedges_g(m1, s1, n1, m2, s2, n2);
                if let Some(ci) = delta_ratio_ci(m1, s1, n1, m2, s2, n2, CONFIDENCE) {
                    let (lo, hi) = ratio_to_pct(ci);
                    out.interval = Some((lo, hi, named(ci, IntervalMethod::Delta)));
                }
                if base.n_assumed || var.n_assumed {
                    out.notes.push(Note::new(
                        NoteKind::AssumedN,
                        format!(
                            "n not stated: assumed n={} per side (--assume-n)",
                            cx.settings.assume_n.unwrap_or(0)
                        ),
                    ));
                }
            }
            _ => out.notes.push(if n1 < 2.0 || n2 < 2.0 {
                Note::new(
                    NoteKind::TooFewForTest,
                    "n < 2: no variance estimate, no test",
                )
            } else {
                Note::new(
                    NoteKind::NoSpread,
                    "no spread on either side: no test possible",
                )
            }),
        }
        out
    }
}
