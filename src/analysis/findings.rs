//! Findings the statistics themselves raise about a comparison's soundness:
//! untestable data, assumed n, unequal spread, drift, outliers. (Stated vs
//! recomputed summaries are checked in `describe`.)

use super::describe::Side;
use super::group::RawGroup;
use super::{Comparison, NoteKind, Settings, TestKind};
use crate::model::{Finding, FindingCode, Severity};
use crate::stats::diagnostics::variance_ratio_from_stats;

use super::signals::{drifts, spread_differs, BIMODAL};
use crate::numfmt::{fixed, p_equals, pair as fmt_pair, sig, signed_pct, times};

/// Per-group findings: drift within a variant and spread that differs
/// between a variant and the baseline.
pub(crate) fn group_findings(g: &RawGroup, sides: &[Side], base: usize, out: &mut Vec<Finding>) {
    let what = super::describe::describe_group(g, "");
    let unit = g.unit_suffix();
    for s in sides {
        let Some(p) = s.summary.trend_p.filter(|&p| drifts(Some(p))) else {
            continue;
        };
        let (first, last) = s
            .run_order
            .map_or((f64::NAN, f64::NAN), |r| (r.first, r.last));
        out.push(Finding::new(
            Severity::Warning,
            FindingCode::TrendOverRuns,
            format!("{what}: `{}` drifts over its run order", s.summary.variant),
            format!(
                "Mann-Kendall {} over {} runs in order (first {}{unit}, last {}{unit})",
                p_equals(p),
                s.sample_count(),
                sig(first),
                sig(last)
            ),
            "Runs are not independent: look for warm-up, thermal throttling or a growing \
             cache/page state; interleave baseline and patched runs.",
        ));
    }
    for s in sides {
        if let Some(bc) = s.run_order.and_then(|r| r.bimodality) {
            if bc > BIMODAL {
                out.push(Finding::new(
                    Severity::Info,
                    FindingCode::Bimodal,
                    format!("{what}: `{}` may have two modes", s.summary.variant),
                    format!(
                        "bimodality coefficient {} over {} runs (above {}, that of a uniform distribution)",
                        fixed(bc, 2),
                        s.sample_count(),
                        fixed(BIMODAL, 3)
                    ),
                    "Two clusters of run times usually mean two machine states (CPU placement, \
                     frequency, cache or NUMA locality); a median or mean hides that.",
                ));
            }
        }
    }
    let b = &sides[base];
    for (i, s) in sides.iter().enumerate() {
        if i == base {
            continue;
        }
        let vr = if let (Some(rb), Some(rs), true) = (
            b.run_order,
            s.run_order,
            b.sample_count() >= 2 && s.sample_count() >= 2,
        ) {
            // The variances of the samples in run order, as
            // `variance_ratio` of the samples takes them.
            variance_ratio_from_stats(
                rb.variance.sqrt(),
                b.sample_count() as f64,
                rs.variance.sqrt(),
                s.sample_count() as f64,
            )
        } else {
            match (b.sd, b.n, s.sd, s.n) {
                (Some(s1), Some(n1), Some(s2), Some(n2)) => {
                    variance_ratio_from_stats(s1, n1, s2, n2)
                }
                _ => None,
            }
        };
        if let Some(vr) = vr {
            let sd_ratio = vr.ratio.sqrt();
            if spread_differs(&vr) {
                out.push(Finding::new(
                    Severity::Warning,
                    FindingCode::VarianceDiffers,
                    format!(
                        "{what}: `{}` is {} as spread as `{}`",
                        s.summary.variant,
                        times(sd_ratio),
                        b.summary.variant
                    ),
                    {
                        let (sd, base_sd) = fmt_pair(s.sd, b.sd);
                        format!(
                            "stddev {sd} vs {base_sd} (variance ratio {}, F-test {})",
                            fixed(vr.ratio, 2),
                            p_equals(vr.p)
                        )
                    },
                    "A change in spread often means the two sides did not run under the same \
                     conditions (debug options, another governor, background load); compare the \
                     configurations before trusting the change of the centre.",
                ));
            }
        }
    }
}

/// Findings over all comparisons: what could not be tested and why, assumed
/// n, outliers.
pub(crate) fn summary_findings(
    comparisons: &[Comparison],
    groups: &[super::Group],
    settings: &Settings,
) -> Vec<Finding> {
    let mut out = Vec::new();
    let untestable: Vec<&Comparison> = comparisons
        .iter()
        .filter(|c| c.test == TestKind::None)
        .collect();
    let n_unknown: Vec<&&Comparison> = untestable
        .iter()
        .filter(|c| c.notes.iter().any(|n| n.kind == NoteKind::NUnknown))
        .collect();
    if !n_unknown.is_empty() {
        let ex: Vec<String> = n_unknown
            .iter()
            .take(6)
            .map(|c| {
                let need = c
                    .n_needed
                    .map(|n| format!("n ≥ {n}"))
                    .unwrap_or_else(|| "never".into());
                format!(
                    "{} vs {}: {}, significant if {need}",
                    label(c),
                    c.baseline,
                    signed_pct(c.change_pct, 1)
                )
            })
            .collect();
        out.push(Finding::new(
            Severity::Warning,
            FindingCode::NUnknown,
            format!("{} comparisons state mean and spread but not n: no test possible", n_unknown.len()),
            ex.join("; "),
            "Ask for the number of runs behind each figure, or rerun with --assume-n N when it is \
             known from the text; the smallest n that would make each difference significant is shown.",
        ));
    }
    let no_var: Vec<&&Comparison> = untestable
        .iter()
        .filter(|c| !c.notes.iter().any(|n| n.kind == NoteKind::NUnknown))
        .collect();
    if !no_var.is_empty() {
        let single = no_var
            .iter()
            .any(|c| c.n_baseline == Some(1) || c.n_variant == Some(1));
        let ex: Vec<String> = no_var
            .iter()
            .take(6)
            .map(|c| {
                format!(
                    "{} `{}` vs `{}`: {}",
                    label(c),
                    c.variant,
                    c.baseline,
                    signed_pct(c.change_pct, 2)
                )
            })
            .collect();
        out.push(Finding::new(
            Severity::Warning,
            if single {
                FindingCode::SingleSample
            } else {
                FindingCode::NoVariance
            },
            format!(
                "{} comparisons have no variance information ({}): changes are shown, not tested",
                no_var.len(),
                if single {
                    "one value per side"
                } else {
                    "no spread stated"
                }
            ),
            ex.join("; "),
            "Run each side several times (at least 5, better 10, rebooting between kernels) so \
             that run-to-run noise can be told from the change.",
        ));
    }
    if let Some(n) = settings.assume_n {
        let used = comparisons
            .iter()
            .filter(|c| c.notes.iter().any(|x| x.kind == NoteKind::AssumedN))
            .count();
        if used > 0 {
            out.push(Finding::new(
                Severity::Info,
                FindingCode::AssumedN,
                format!("n = {n} per side was assumed for {used} comparisons (--assume-n)"),
                "the input does not state how many runs each figure summarises",
                "The p-values hold only if each figure really summarises that many independent runs.",
            ));
        }
    }
    let outliers: Vec<String> = groups
        .iter()
        .flat_map(|g| {
            g.variants.iter().filter(|v| v.outliers > 0).map(move |v| {
                format!(
                    "{} `{}`: {} of {}",
                    g.benchmark,
                    v.variant,
                    v.outliers,
                    v.n.unwrap_or(0)
                )
            })
        })
        .collect();
    if !outliers.is_empty() {
        out.push(Finding::new(
            Severity::Info,
            FindingCode::Outliers,
            format!(
                "{} {} outliers beyond Tukey's fences (kept in the analysis)",
                outliers.len(),
                if outliers.len() == 1 { "variant has" } else { "variants have" }
            ),
            outliers.into_iter().take(8).collect::<Vec<_>>().join("; "),
            "Medians and the Mann-Whitney test are robust to them; look at the runs if there are many.",
        ));
    }
    out
}

fn label(c: &Comparison) -> String {
    if c.params.is_empty() {
        c.benchmark.clone()
    } else {
        format!("{} [{}]", c.benchmark, c.params)
    }
}

/// Checks a change the input states against the one its own figures give:
/// from the stated means (authors compute from what they print), the
/// recomputed means, or the compared centres. A warning when none agrees to
/// the stated digits; an info when only the sign or the reference differs
/// (a "+ = better" convention, as mmtests prints, or a change relative to
/// the new value).
///
/// A stated change need not be of the estimator the stated centre is:
/// Criterion's console prints the change of the *mean* beside a `time:`
/// estimate that is the regression slope. The tidy table has no column for
/// the estimator (and a mark outside it would not survive `ingest --out`
/// and a re-read), so the check uses what the input states with its
/// centres: when both centres come with confidence intervals, a change of
/// another estimator of the same runs falls within the changes those
/// intervals allow, and such a change is an info saying so, not a
/// copy-error warning. A change outside that range is still a mismatch.
pub(crate) fn stated_change(
    g: &RawGroup,
    bi: usize,
    vi: usize,
    sides: &[Side],
    c: &Comparison,
    out: &mut Vec<Finding>,
) {
    let Some(stated) = c.stated_change_pct else {
        return;
    };
    let mut pairs: Vec<(f64, f64, &str)> = Vec::new();
    if let (Some(b), Some(v)) = (g.variants[bi].mean, g.variants[vi].mean) {
        pairs.push((b, v, "stated means"));
    }
    if let (Some(b), Some(v)) = (sides[bi].mean, sides[vi].mean) {
        pairs.push((b, v, "means"));
    }
    pairs.push((c.baseline_center, c.variant_center, "centres"));
    pairs.retain(|(b, v, _)| b.is_finite() && v.is_finite() && *b != 0.0 && *v != 0.0);
    let Some(&(b, v, of)) = pairs.first() else {
        return;
    };
    let change = |b: f64, v: f64| (v / b - 1.0) * 100.0;
    let any = |f: &dyn Fn(f64, f64) -> bool| pairs.iter().any(|&(b, v, _)| f(b, v));
    if any(&|b, v| agrees(stated, change(b, v))) {
        return;
    }
    let computed = change(b, v);
    let what = super::describe::describe_group(g, &c.variant);
    let (severity, code, title, advice) = if any(&|b, v| agrees(-stated, change(b, v))) {
        (
            Severity::Info,
            FindingCode::StatedChangeSign,
            format!("{what}: the stated change has the opposite sign"),
            "The input probably counts + as better; patchperf always reports (variant / baseline − 1).",
        )
    } else if any(&|b, v| agrees(stated.abs(), change(v, b).abs())) {
        (
            Severity::Info,
            FindingCode::StatedChangeInverse,
            format!("{what}: the stated change is relative to the variant, not the baseline"),
            "The input divides by the new value; patchperf divides by the baseline.",
        )
    } else if let Some((lo, hi)) = interval_change_range(g, bi, vi) {
        if stated >= lo - 1e-9 && stated <= hi + 1e-9 {
            let what = super::describe::describe_group(g, &c.variant);
            out.push(Finding::new(
                Severity::Info,
                FindingCode::StatedChangeEstimator,
                format!(
                    "{what}: the stated change is not that of the stated centres, but within \
                     their intervals: another estimator"
                ),
                format!(
                    "stated {stated:+}%; the stated centres give {} ({} → {}), and their \
                     intervals allow {} … {}",
                    signed_pct(change(c.baseline_center, c.variant_center), 2),
                    sig(c.baseline_center),
                    sig(c.variant_center),
                    signed_pct(lo, 2),
                    signed_pct(hi, 2)
                ),
                "Both can be right: Criterion, for one, states the change of the mean beside a \
                 slope estimate. The change column compares the stated centres.",
            ));
            return;
        }
        (
            Severity::Warning,
            FindingCode::StatedChangeMismatch,
            format!("{what}: the stated change does not follow from the values"),
            "Check the table: a copy error, a different baseline, or figures from another run.",
        )
    } else {
        (
            Severity::Warning,
            FindingCode::StatedChangeMismatch,
            format!("{what}: the stated change does not follow from the values"),
            "Check the table: a copy error, a different baseline, or figures from another run.",
        )
    };
    out.push(Finding::new(
        severity,
        code,
        title,
        format!(
            "stated {stated:+}%, the values give {} ({of} {} → {})",
            signed_pct(computed, 2),
            sig(b),
            sig(v)
        ),
        advice,
    ));
}

/// The range of percent changes that the stated confidence intervals of
/// both centres allow, (lowest variant / highest baseline − 1, highest
/// variant / lowest baseline − 1); `None` unless both sides state a
/// positive interval.
fn interval_change_range(g: &RawGroup, bi: usize, vi: usize) -> Option<(f64, f64)> {
    let (b, v) = (&g.variants[bi], &g.variants[vi]);
    let (bl, bh, vl, vh) = (b.ci_low?, b.ci_high?, v.ci_low?, v.ci_high?);
    if !(bl > 0.0 && bh >= bl && vl > 0.0 && vh >= vl) {
        return None;
    }
    Some(((vl / bh - 1.0) * 100.0, (vh / bl - 1.0) * 100.0))
}

/// `describe::agrees`, re-exported for the stated-change check.
fn agrees(stated: f64, actual: f64) -> bool {
    super::describe::agrees(stated, actual)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_findings_keep_their_digits_readable() {
        // Ordinary spreads and ratios as before.
        assert_eq!(
            fmt_pair(Some(71.63491), Some(4553.62834)),
            ("71.6349".into(), "4553.6283".into())
        );
        assert_eq!(fixed(7.761, 1), "7.8");
        assert_eq!(fixed(0.13, 1), "0.1");
        // A ratio that two places would show as 0.00.
        assert_eq!(fixed(2.475e-4, 2), "2.475e-4");
        // One spread of ten digits: both in scientific notation.
        assert_eq!(
            fmt_pair(Some(347905866.4739), Some(5454593379.5984)),
            ("3.479e8".into(), "5.455e9".into())
        );
        assert_eq!(fmt_pair(None, Some(1.0)), ("?".into(), "1.0000".into()));
        assert_eq!(fixed(f64::INFINITY, 1), "∞");
        assert_eq!(times(7.761), "7.8×");
        assert_eq!(times(0.03833), "1/26.1");
        assert_eq!(times(f64::INFINITY), "∞×");
    }
}
