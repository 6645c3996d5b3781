//! One section per family: its comparison rows, variant rows and diagnostics.

use super::format::{self, Scale};
use super::*;
use crate::analysis::{signals, Center, Comparison, Verdict};
use std::collections::BTreeMap;

pub(super) fn comparison_view(
    i: usize,
    c: &Comparison,
    fam: Option<&Family<'_>>,
    suspect: bool,
    label_of: &dyn Fn(&str, &str) -> String,
) -> ComparisonView {
    let scale = fam
        .map(|f| f.scale.clone())
        .unwrap_or_else(|| Scale::for_values(&c.unit, c.baseline_center.abs()));
    let verdict = c.verdict.as_str().to_string();
    let verdict_text = if suspect
        && matches!(
            c.verdict,
            Verdict::Regressed | Verdict::Improved | Verdict::Changed
        ) {
        format!("{verdict}?")
    } else {
        verdict.clone()
    };
    ComparisonView {
        index: i + 1,
        anchor: fam.map(|f| f.anchor.clone()).unwrap_or_default(),
        benchmark: c.benchmark.clone(),
        params: c.params.clone(),
        metric: c.metric.clone(),
        label: match fam {
            Some(f) => label_of(&f.name, &f.varying(&c.params)),
            None => label_of(&c.benchmark, &c.params),
        },
        params_label: fam
            .map(|f| f.varying(&c.params))
            .unwrap_or_else(|| c.params.clone()),
        short_label: match fam.map(|f| f.varying(&c.params)) {
            Some(v) if !v.is_empty() => v,
            _ => fam
                .map(|f| f.name.clone())
                .unwrap_or_else(|| c.benchmark.clone()),
        },
        variant: c.variant.clone(),
        baseline: c.baseline.clone(),
        unit: scale.unit.clone(),
        direction: c.direction.to_string(),
        center: match c.center {
            Center::Median => "median".into(),
            Center::Mean => "mean".into(),
        },
        baseline_value: Num::new(
            Some(scale.value(c.baseline_center)),
            scale.fmt(c.baseline_center),
        ),
        variant_value: Num::new(
            Some(scale.value(c.variant_center)),
            scale.fmt(c.variant_center),
        ),
        change: Num::new(Some(c.change_pct), format::pct(c.change_pct)),
        ci: format::pct_ci(c.ci_low_pct, c.ci_high_pct),
        ci_low: c.ci_low_pct,
        ci_high: c.ci_high_pct,
        interval: c.interval,
        test: test_name(c.test).into(),
        p: Num::new(c.p_value, format::pvalue(c.p_value)),
        q: Num::new(c.q_value, format::pvalue(c.q_value)),
        effect: Num::new(c.effect_size, format::effect(c.effect_size)),
        n_baseline: format::count(c.n_baseline),
        n_variant: format::count(c.n_variant),
        min_detectable: Num::new(
            c.min_detectable_pct,
            c.min_detectable_pct
                .map(|v| format!("{}%", format::sig(v)))
                .unwrap_or_else(|| "n/a".into()),
        ),
        n_needed: c.n_needed,
        verdict,
        verdict_text,
        verdict_note: match (c.verdict, c.n_needed) {
            (Verdict::Inconclusive, Some(k)) => format!("n≥{k}/side"),
            _ => String::new(),
        },
        suspect,
        notes: c.notes.clone(),
        note_refs: Vec::new(),
        note_mark: String::new(),
    }
}

pub(super) fn opt_num(scale: &Scale, v: Option<f64>) -> Num {
    match v {
        Some(v) => Num::new(Some(scale.value(v)), scale.fmt(v)),
        None => Num::new(None, "n/a".into()),
    }
}

pub(super) fn section_rows(f: &Family<'_>, order: &[String]) -> Vec<VariantRow> {
    let mut rows = Vec::new();
    for g in &f.groups {
        for v in in_order(&g.variants, order) {
            rows.push(VariantRow {
                params: f.varying(&g.params),
                variant: v.variant.clone(),
                n: format::count(v.n),
                mean: opt_num(&f.scale, v.mean),
                median: opt_num(&f.scale, v.median),
                stddev: opt_num(&f.scale, v.stddev),
                cv: Num::new(v.cv_pct, format::plain_pct(v.cv_pct)),
                min: opt_num(&f.scale, v.min),
                max: opt_num(&f.scale, v.max),
                ci: match (v.ci_low, v.ci_high) {
                    (Some(l), Some(h)) => format!("[{}, {}]", f.scale.fmt(l), f.scale.fmt(h)),
                    _ => "n/a".into(),
                },
                outliers: v.outliers,
                trend_p: Num::new(v.trend_p, format::pvalue(v.trend_p)),
                source: if v.from_summary {
                    "summary".into()
                } else {
                    "samples".into()
                },
            });
        }
    }
    rows
}

/// The family's notes on its runs, one line per kind of problem. Drift,
/// noise and unequal spread are decided by the analysis' own tests
/// (`analysis::signals`), so a note here and a finding agree.
pub(super) fn diagnostics(f: &Family<'_>, order: &[String]) -> Vec<String> {
    // Collected per kind and variant, so that a sweep of many parameter
    // values gives one line per problem, not one per row; variants in
    // report order (the keys are positions in `order`).
    let pos = |v: &str| order.iter().position(|o| o == v).unwrap_or(usize::MAX);
    let mut noisy: BTreeMap<(usize, String), Vec<String>> = BTreeMap::new();
    let mut drift: Vec<String> = Vec::new();
    let mut outliers: Vec<String> = Vec::new();
    let mut no_n: BTreeMap<(usize, String), Vec<String>> = BTreeMap::new();
    let mut single: BTreeMap<(usize, String), Vec<String>> = BTreeMap::new();
    let mut spread: Vec<String> = Vec::new();
    for g in &f.groups {
        let place = f.varying(&g.params);
        let at = |s: &str| {
            if place.is_empty() {
                s.to_string()
            } else {
                format!("{s} at {place}")
            }
        };
        for v in in_order(&g.variants, order) {
            if v.outliers > 0 {
                outliers.push(format!("{} ({})", at(&v.variant), v.outliers));
            }
            if let Some(p) = v.trend_p.filter(|&p| signals::drifts(Some(p))) {
                drift.push(format!(
                    "{} (Mann-Kendall {})",
                    at(&v.variant),
                    crate::numfmt::p_equals(p)
                ));
            }
            if let Some(cv) = v.cv_pct.filter(|&cv| signals::noisy(Some(cv))) {
                let what = if place.is_empty() {
                    format::plain_pct(Some(cv))
                } else {
                    format!("{place}: {}", format::plain_pct(Some(cv)))
                };
                noisy
                    .entry((pos(&v.variant), v.variant.clone()))
                    .or_default()
                    .push(what);
            }
            if v.n.is_none() {
                no_n.entry((pos(&v.variant), v.variant.clone()))
                    .or_default()
                    .push(place.clone());
            } else if v.n == Some(1) {
                single
                    .entry((pos(&v.variant), v.variant.clone()))
                    .or_default()
                    .push(place.clone());
            }
        }
        let base = order
            .first()
            .and_then(|b| g.variants.iter().find(|v| &v.variant == b));
        for v in in_order(&g.variants, order).into_iter().skip(1) {
            let Some(b) = base else { break };
            if let Some(vr) = signals::spread_differs_from_stats((b.stddev, b.n), (v.stddev, v.n)) {
                let r = vr.ratio.sqrt();
                spread.push(if r >= 1.0 {
                    format!("{}: {}x wider", at(&v.variant), format::sig(r))
                } else {
                    format!("{}: {}x narrower", at(&v.variant), format::sig(1.0 / r))
                });
            }
        }
    }
    let mut out = Vec::new();
    for ((_, v), list) in noisy {
        out.push(format!(
            "{v}: noisy, coefficient of variation of {}% or more ({}).",
            signals::HIGH_CV_PCT,
            list.join(", ")
        ));
    }
    if !spread.is_empty() {
        out.push(format!(
            "Standard deviations differ {}-fold or more from the baseline's, beyond chance at the {}% level (F-test): {}. Compare the spread, not only the centre.",
            signals::SPREAD_RATIO,
            signals::SPREAD_P * 100.0,
            spread.join(", ")
        ));
    }
    if !drift.is_empty() {
        out.push(format!(
            "Samples drift over the run order (warm-up or a changing machine): {}.",
            drift.join(", ")
        ));
    }
    if !outliers.is_empty() {
        out.push(format!(
            "Outliers by Tukey's fences, kept in the analysis: {}.",
            outliers.join(", ")
        ));
    }
    for ((_, v), places) in no_n {
        let at = places
            .iter()
            .filter(|p| !p.is_empty())
            .cloned()
            .collect::<Vec<_>>();
        out.push(format!(
            "{v}: n unknown{}, no test is possible without it (state it in the study with assume_n).",
            if at.is_empty() { String::new() } else { format!(" ({})", at.join(", ")) }
        ));
    }
    if !single.is_empty() {
        let names: Vec<String> = single.into_keys().map(|(_, v)| v).collect();
        out.push(format!(
            "A single sample, no variance information: {}.",
            names.join(", ")
        ));
    }
    out
}
