//! The methods paragraph: which tests, intervals and corrections produced the numbers.

use super::format::{self};
use super::*;
use crate::analysis::{Analysis, Correction, IntervalMethod, TestChoice, TestKind};
use crate::stats::bootstrap::EXACT_MAX_N;

pub(super) fn test_name(t: TestKind) -> &'static str {
    match t {
        TestKind::MannWhitney => "Mann-Whitney U",
        TestKind::Welch => "Welch t",
        TestKind::WelchSummary => "Welch t (summary)",
        TestKind::None => "none",
    }
}

pub(super) fn methods(a: &Analysis) -> Methods {
    let s = &a.settings;
    let mut tests = Vec::new();
    let has = |k: TestKind| a.comparisons.iter().any(|c| c.test == k);
    if has(TestKind::MannWhitney) {
        tests.push("Raw samples: Mann-Whitney U test (exact for small n without ties, normal approximation with tie and continuity correction otherwise); change of the median with a bootstrap confidence interval of the ratio; Cliff's delta as effect size.".to_string());
    }
    if has(TestKind::Welch) {
        tests.push("Raw samples: Welch's t-test; change of the centre with a bootstrap confidence interval; Hedges' g as effect size.".to_string());
    }
    if has(TestKind::WelchSummary) {
        tests.push("Stated summaries (mean, stddev, n): Welch's t-test from the summary statistics; change of the mean with a delta-method confidence interval; Hedges' g as effect size.".to_string());
    }
    if has(TestKind::None) {
        tests.push("Without n or variance no test is possible: such rows are untestable and show the n per side that would make the observed difference significant.".to_string());
    }
    let ns: Vec<u64> = a
        .comparisons
        .iter()
        .flat_map(|c| [c.n_baseline, c.n_variant])
        .flatten()
        .collect();
    let n_range = match (ns.iter().min(), ns.iter().max()) {
        (Some(lo), Some(hi)) if lo == hi => format!("n = {lo} per side"),
        (Some(lo), Some(hi)) => format!("n = {lo} to {hi} per side"),
        _ => "n unknown".into(),
    };
    Methods {
        tests,
        alpha: format::sig(s.alpha),
        threshold: format!("{}%", format::sig(s.threshold_pct)),
        threshold_pct: s.threshold_pct,
        correction: match s.correction {
            Correction::Bh => "Benjamini-Hochberg (q-values, false discovery rate)".into(),
            Correction::Holm => "Holm (family-wise error rate)".into(),
            Correction::None => "none".into(),
        },
        test_choice: match s.test {
            TestChoice::Auto => "auto".into(),
            TestChoice::Mwu => "Mann-Whitney U".into(),
            TestChoice::Welch => "Welch".into(),
        },
        assumed_n: s.assume_n.map(|n| n.to_string()).unwrap_or_else(|| "none (tables without n are untestable)".into()),
        bootstrap: bootstrap_line(a),
        n_range,
        verdict_rules: vec![
            format!("regressed / improved: significant after correction (q < {}) and |change| >= {}% in the bad / good direction", format::sig(s.alpha), format::sig(s.threshold_pct)),
            format!("unchanged: not significant and the confidence interval of the change lies within +/-{}%", format::sig(s.threshold_pct)),
            format!("inconclusive: not significant, but the interval is wider than +/-{}%: more runs are needed", format::sig(s.threshold_pct)),
            "untestable: no variance information or n unknown".to_string(),
        ],
    }
}

/// What the methods say of the bootstrap: only what this report's intervals
/// used. The seed is named only when some interval was resampled, since
/// the exact ones do not depend on it.
pub(super) fn bootstrap_line(a: &Analysis) -> String {
    let count = |m: IntervalMethod| {
        a.comparisons
            .iter()
            .filter(|c| c.interval == Some(m))
            .count()
    };
    let (exact, resampled) = (
        count(IntervalMethod::Exact),
        count(IntervalMethod::Resampled),
    );
    let s = &a.settings;
    let intervals = |n: usize| {
        if n == 1 {
            "1 interval".to_string()
        } else {
            format!("{n} intervals")
        }
    };
    let large = count(IntervalMethod::Asymptotic);
    let line = bootstrap_words(exact, resampled, s, intervals);
    if large == 0 {
        return line;
    }
    let asymptotic = format!(
        "samples of {} values or more: asymptotic intervals instead (delta method, \
         order statistics; {})",
        crate::stats::large_sample::LARGE_N,
        intervals(large)
    );
    if exact + resampled == 0 {
        return format!("not used; {asymptotic}");
    }
    format!("{line}; {asymptotic}")
}

/// [`bootstrap_line`] for the exact and resampled intervals.
pub(super) fn bootstrap_words(
    exact: usize,
    resampled: usize,
    s: &crate::analysis::Settings,
    intervals: impl Fn(usize) -> String,
) -> String {
    match (exact, resampled) {
        (0, 0) => "not used".into(),
        (_, 0) => format!(
            "exact (medians of at most {EXACT_MAX_N} values per side), no resampling"
        ),
        (0, _) => format!("{} resamples, seed {}", s.resamples, s.seed),
        _ => format!(
            "exact for medians of at most {EXACT_MAX_N} values per side ({}), else {} resamples, seed {} ({})",
            intervals(exact),
            s.resamples,
            s.seed,
            intervals(resampled)
        ),
    }
}
