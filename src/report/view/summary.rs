//! The headline counts of a report: verdicts, findings, suspect rows.

use super::*;
use crate::analysis::{Analysis, Verdict};
use crate::model::{Finding, Severity, Topic};

pub(super) fn verdict_plural(v: Verdict, n: usize) -> String {
    let word = match (v, n == 1) {
        (Verdict::Regressed, true) => "regression",
        (Verdict::Regressed, false) => "regressions",
        (Verdict::Improved, true) => "improvement",
        (Verdict::Improved, false) => "improvements",
        (Verdict::Changed, _) => "changed (direction unknown)",
        (Verdict::Unchanged, _) => "unchanged",
        (Verdict::Inconclusive, _) => "inconclusive",
        (Verdict::Untestable, _) => "untestable",
    };
    format!("{n} {word}")
}

/// The order in which every output lists verdicts: the worst news first.
pub const VERDICT_ORDER: [Verdict; 6] = [
    Verdict::Regressed,
    Verdict::Improved,
    Verdict::Changed,
    Verdict::Unchanged,
    Verdict::Inconclusive,
    Verdict::Untestable,
];

/// How many comparisons have each verdict, in [`VERDICT_ORDER`] (zeros
/// included): the one count every output's headline is made from.
pub fn verdict_counts(a: &Analysis) -> [(Verdict, usize); 6] {
    VERDICT_ORDER.map(|v| (v, a.comparisons.iter().filter(|c| c.verdict == v).count()))
}

pub(super) fn summary(a: &Analysis, findings: &[Finding], suspect_rows: usize) -> Summary {
    let mut counts = Vec::new();
    let mut parts = Vec::new();
    for (v, n) in verdict_counts(a) {
        if n > 0 {
            parts.push(verdict_plural(v, n));
            counts.push(VerdictCount {
                verdict: v.as_str().into(),
                count: n,
            });
        }
    }
    let errors = findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    let warnings = findings
        .iter()
        .filter(|f| f.severity == Severity::Warning)
        .count();
    let config_errors = findings
        .iter()
        .filter(|f| {
            f.severity == Severity::Error
                && matches!(f.code.topic(), Topic::Kconfig | Topic::Environment)
        })
        .count();
    let other_errors = errors - config_errors;
    let mut headline = if parts.is_empty() {
        "No comparisons".to_string()
    } else {
        parts.join(", ")
    };
    let mut tail = Vec::new();
    if config_errors > 0 {
        tail.push(format!(
            "{config_errors} configuration error{}",
            if config_errors == 1 { "" } else { "s" }
        ));
    }
    if other_errors > 0 {
        tail.push(format!(
            "{other_errors} error{}",
            if other_errors == 1 { "" } else { "s" }
        ));
    }
    if warnings > 0 {
        tail.push(format!(
            "{warnings} warning{}",
            if warnings == 1 { "" } else { "s" }
        ));
    }
    if !tail.is_empty() {
        headline = format!("{headline}; {}", tail.join(", "));
    }
    headline.push('.');
    let trust = if a.comparisons.is_empty() {
        "There was nothing to compare: the inputs have one variant only, or no benchmark has values on both sides.".to_string()
    } else if errors > 0 {
        let mut s = String::from(
            "The comparison itself is broken (see the findings): do not act on these verdicts before the errors are fixed and the runs repeated.",
        );
        if suspect_rows > 0 {
            s.push_str(&format!(
                " {suspect_rows} comparison{} of variants measured on a broken setup {} marked with a question mark.",
                if suspect_rows == 1 { "" } else { "s" },
                if suspect_rows == 1 { "is" } else { "are" }
            ));
        }
        s
    } else if warnings > 0 {
        "The verdicts stand, with the caveats in the warnings below.".to_string()
    } else {
        "No problem with the comparison itself was found.".to_string()
    };
    Summary {
        headline,
        trust,
        counts,
        errors,
        warnings,
        comparisons: a.comparisons.len(),
    }
}
