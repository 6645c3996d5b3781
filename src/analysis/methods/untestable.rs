//! When no test is possible: the change of whatever centre exists, and a
//! note saying what is missing (n, spread, a second run).

use super::{centre_of, Context, Outcome, TestMethod};
use crate::analysis::describe::Side;
use crate::analysis::{Center, Note, NoteKind};

/// No test: the data lacks n, a spread, or a second value per side.
pub(super) struct Untestable;

impl TestMethod for Untestable {
    fn run(&self, base: &Side, var: &Side, _cx: &Context<'_>) -> Outcome {
        let both_samples = base.sample_count() > 0 && var.sample_count() > 0;
        let center = if both_samples {
            Center::Median
        } else {
            Center::Mean
        };
        let note = match (base.sd, var.sd, base.n, var.n) {
            (Some(_), Some(_), None, _) | (Some(_), Some(_), _, None) => Note::new(
                NoteKind::NUnknown,
                "n unknown: no test possible (give --assume-n N if the runs are known)",
            ),
            (None, _, _, _) | (_, None, _, _) => {
                let n1 = base.summary.n.unwrap_or(0);
                let n2 = var.summary.n.unwrap_or(0);
                if both_samples && (n1 < 2 || n2 < 2) {
                    Note::new(
                        NoteKind::TooFewForTest,
                        format!(
                            "n={n1}+{n2}: a single run per side has no variance; no test possible"
                        ),
                    )
                } else {
                    Note::new(
                        NoteKind::NoSpread,
                        "no spread stated: no variance information, no test possible",
                    )
                }
            }
            _ => Note::new(NoteKind::TooFewForTest, "not enough data for a test"),
        };
        Outcome {
            center,
            baseline_center: centre_of(base, center),
            variant_center: centre_of(var, center),
            notes: vec![note],
            ..Outcome::default()
        }
    }
}
