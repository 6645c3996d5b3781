//! One variant against the baseline of its group: the test method the data
//! allows ([`methods`]), then what holds whatever the method: the change of
//! the centre, power, outliers and trends. The verdict is given later, once
//! the whole family's p-values are corrected.

use super::describe::Side;
use super::group::RawGroup;
use super::methods::{self, Context};
use super::{Comparison, Note, NoteKind, Settings};
use crate::numfmt::p_equals;
use crate::stats::diagnostics::mad_outliers_given;
use crate::stats::power::{min_detectable_diff, n_to_detect, n_to_significance, DEFAULT_POWER};
use crate::stats::pvalue::is_bound;

/// Compares `var` with `base` within group `g`.
pub(crate) fn compare(g: &RawGroup, base: &Side, var: &Side, settings: &Settings) -> Comparison {
    let mut c = Comparison {
        benchmark: g.benchmark.clone(),
        params: g.params.clone(),
        metric: g.metric.clone(),
        unit: g.unit.clone(),
        direction: g.direction,
        baseline: base.summary.variant.clone(),
        variant: var.summary.variant.clone(),
        n_baseline: base.summary.n,
        n_variant: var.summary.n,
        stated_change_pct: var.stated_change_pct,
        ..Comparison::default()
    };
    let cx = Context {
        settings,
        seed: settings.seed ^ key_hash(&[&g.benchmark, &g.params, &g.metric, &c.variant]),
    };
    let out = methods::choose(base, var, settings).run(base, var, &cx);
    c.center = out.center;
    c.test = out.test;
    c.p_value = out.p_value;
    c.effect_size = out.effect_size;
    c.baseline_center = out.baseline_center;
    c.variant_center = out.variant_center;
    if let Some((lo, hi, how)) = out.interval {
        (c.ci_low_pct, c.ci_high_pct, c.interval) = (Some(lo), Some(hi), how);
    }
    let mut notes = out.notes;
    if crate::model::read_by_fallback(&g.params) {
        notes.push(Note::new(
            NoteKind::Fallback,
            "values read by the fallback (read=fallback), no layout rule: check them in the input",
        ));
    }

    let (b, v) = (c.baseline_center, c.variant_center);
    if b.is_finite() && v.is_finite() && b > 0.0 {
        c.change_pct = (v / b - 1.0) * 100.0;
    } else if b.is_finite() && v.is_finite() && b < 0.0 {
        // Relative to the baseline's magnitude, so that the change has the
        // sign of the difference (v / b − 1 turns it round).
        c.change_pct = (v - b) / -b * 100.0;
        notes.push(Note::new(
            NoteKind::ChangeUndefined,
            "the baseline's centre is negative: the change is relative to its magnitude",
        ));
    } else if let Some(stated) = var.stated_change_pct {
        // No value to compute it from (a table giving only "%change"):
        // show what the input states.
        c.change_pct = stated;
        notes.push(Note::new(
            NoteKind::StatedChange,
            "change as stated by the input (no values to recompute it from)",
        ));
    } else if b == 0.0 && v.is_finite() {
        notes.push(Note::new(
            NoteKind::ChangeUndefined,
            "no change %: the baseline's centre is 0, and a relative change needs a non-zero baseline",
        ));
    }

    // Power: on the Welch scale with the observed spreads.
    let base_abs = c.baseline_center.abs();
    if let (Some(s1), Some(s2)) = (base.sd, var.sd) {
        if c.p_value.is_some() {
            if let (Some(n1), Some(n2)) = (base.n, var.n) {
                c.min_detectable_pct =
                    min_detectable_diff(s1, n1, s2, n2, settings.alpha, DEFAULT_POWER)
                        .filter(|_| base_abs > 0.0)
                        .map(|d| 100.0 * d / base_abs);
            }
            c.n_needed = n_to_detect(
                settings.threshold_pct / 100.0 * base_abs,
                s1,
                s2,
                settings.alpha,
                DEFAULT_POWER,
            );
        } else if base.n.is_none() || var.n.is_none() {
            c.n_needed =
                n_to_significance(c.variant_center - c.baseline_center, s1, s2, settings.alpha);
            match c.n_needed {
                Some(n) => notes.push(Note::new(
                    NoteKind::SignificantIfN,
                    format!("significant at α={} if n ≥ {n} per side", settings.alpha),
                )),
                None => notes.push(Note::new(
                    NoteKind::SignificantIfN,
                    "the observed difference would not become significant at any n",
                )),
            }
        }
    }
    if let Some(p) = c.p_value {
        if is_bound(p) {
            notes.push(Note::new(
                NoteKind::PBound,
                "p < 1e-300: below the range of double precision, reported as a bound",
            ));
        }
    }
    for (side, s) in [(&c.baseline, base), (&c.variant, var)] {
        let o = s.summary.outliers;
        let mad = mad_outliers_given(&s.sorted, s.median_mad.0, s.median_mad.1);
        if o > 0 || mad > 0 {
            notes.push(Note::new(
                NoteKind::Outliers,
                format!(
                    "outliers in `{side}`: {o} of {} beyond Tukey's fences, {mad} by the MAD rule (kept)",
                    s.sample_count()
                ),
            )
            .with_footnote(format!(
                "outliers in `{side}` beyond Tukey's fences or by the MAD rule, kept (Tukey counts in the findings)"
            )));
        }
        if let Some(p) = s
            .summary
            .trend_p
            .filter(|&p| super::signals::drifts(Some(p)))
        {
            notes.push(
                Note::new(
                    NoteKind::Trend,
                    format!(
                        "trend over run order in `{side}` (Mann-Kendall {})",
                        p_equals(p)
                    ),
                )
                .with_footnote(format!(
                    "trend over run order in `{side}` (Mann-Kendall; each p in the findings)"
                )),
            );
        }
    }
    c.notes = notes;
    c
}

/// FNV-1a over the key parts, so that each comparison's bootstrap stream
/// depends on what it compares, not on the order of evaluation.
fn key_hash(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain(std::iter::once(0xff)) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}
