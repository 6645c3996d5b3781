//! One variant against the baseline of its group: the test the data allows,
//! the change of the centre with its interval, effect size and power. The
//! verdict is given later, once the whole family's p-values are corrected.

use super::describe::{Side, CONFIDENCE};
use super::group::RawGroup;
use super::{Center, Comparison, IntervalMethod, Note, NoteKind, Settings, TestChoice, TestKind};
use crate::stats::bootstrap::{delta_ratio_ci, ratio_ci_sorted};
use crate::stats::diagnostics::mad_outliers_given;
use crate::stats::effect::{cliffs_delta_sorted, hedges_g};
use crate::stats::large_sample::{ratio_ci_asymptotic, LARGE_N};
use crate::stats::mann_whitney::{mann_whitney_u_sorted, min_possible_p};
use crate::stats::power::{min_detectable_diff, n_to_detect, n_to_significance, DEFAULT_POWER};
use crate::stats::summary::min_n_for_median_ci;
use crate::stats::welch::{welch, welch_from_stats};
use crate::stats::{format_p, pvalue::is_bound, pvalue::p_equals};

/// Compares `var` with `base` within group `g`.
pub(crate) fn compare(g: &RawGroup, base: &Side, var: &Side, settings: &Settings) -> Comparison {
    let mut notes = Vec::new();
    let (bs, vs) = (base.samples(), var.samples());
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
    let seed = settings.seed ^ key_hash(&[&g.benchmark, &g.params, &g.metric, &c.variant]);
    let ratio_to_pct = |(lo, hi): (f64, f64)| (Some((lo - 1.0) * 100.0), Some((hi - 1.0) * 100.0));
    // An interval is named only when both its ends are numbers: `--json`
    // shows an infinite end (the delta method far from 1) as null.
    let finite = |(lo, hi): (f64, f64)| lo.is_finite() && hi.is_finite();

    if bs.len() >= 2 && vs.len() >= 2 {
        let use_welch = settings.test == TestChoice::Welch;
        let w = welch(bs, vs);
        if use_welch {
            c.center = Center::Mean;
            c.test = TestKind::Welch;
            c.p_value = w.map(|w| w.p);
            c.effect_size = match (base.mean, base.sd, var.mean, var.sd) {
                (Some(m1), Some(s1), Some(m2), Some(s2)) => {
                    hedges_g(m1, s1, bs.len() as f64, m2, s2, vs.len() as f64)
                }
                _ => None,
            };
            if w.is_none() {
                notes.push(Note::new(
                    NoteKind::NoSpread,
                    "no spread on either side: Welch's t is undefined (try --test mwu)",
                ));
            }
        } else {
            c.center = Center::Median;
            c.test = TestKind::MannWhitney;
            let u = mann_whitney_u_sorted(&base.sorted, &var.sorted);
            c.p_value = u.map(|u| u.p);
            c.effect_size = cliffs_delta_sorted(&base.sorted, vs);
            if let Some(w) = w {
                notes.push(Note::new(
                    NoteKind::WelchReference,
                    format!("Welch's t for reference: {}", p_equals(w.p)),
                ));
            }
            let floor = min_possible_p(bs.len(), vs.len());
            if floor >= settings.alpha {
                notes.push(Note::new(NoteKind::TooFewForTest, format!(
                    "n={}+{}: no Mann-Whitney p can reach {} (smallest possible {}); needs ≥ 4 samples per side",
                    bs.len(),
                    vs.len(),
                    settings.alpha,
                    format_p(floor)
                )));
            }
        }
        let centre = if c.center == Center::Median {
            Center::Median
        } else {
            Center::Mean
        };
        c.baseline_center = centre_of(base, c.center);
        c.variant_center = centre_of(var, c.center);
        let sign = baseline_sign(&base.sorted);
        // A centre of 0 has its own note below: no change % at all.
        if sign == 0.0 && c.baseline_center != 0.0 {
            notes.push(Note::new(
                NoteKind::ChangeUndefined,
                "the baseline's values reach zero or both signs: no interval for a change relative to it",
            ));
        }
        let large = bs.len().max(vs.len()) >= LARGE_N;
        let ci = (sign != 0.0)
            .then(|| {
                if large {
                    ratio_ci_asymptotic(&base.sorted, &var.sorted, centre, CONFIDENCE)
                        .map(|ci| (ci, IntervalMethod::Asymptotic))
                } else {
                    ratio_ci_sorted(
                        &base.sorted,
                        &var.sorted,
                        centre,
                        settings.resamples,
                        CONFIDENCE,
                        seed,
                    )
                    .map(|(ci, exact)| {
                        let how = if exact {
                            IntervalMethod::Exact
                        } else {
                            IntervalMethod::Resampled
                        };
                        (ci, how)
                    })
                }
            })
            .flatten();
        if let Some((ci, how)) = ci {
            // Below a negative baseline the ratio falls as the values rise:
            // the change relative to the baseline's magnitude is 1 − ratio,
            // the ratio-to-percent step of 2 − ratio.
            let ci = if sign < 0.0 {
                (2.0 - ci.1, 2.0 - ci.0)
            } else {
                ci
            };
            (c.ci_low_pct, c.ci_high_pct) = ratio_to_pct(ci);
            c.interval = finite(ci).then_some(how);
        }
        let min_ci = min_n_for_median_ci(CONFIDENCE);
        if c.center == Center::Median && (bs.len() < min_ci || vs.len() < min_ci) {
            notes.push(Note::new(
                NoteKind::TooFewForInterval,
                format!(
                    "n={}+{}: needs ≥ {min_ci} samples per side for a distribution-free CI of each median",
                    bs.len(),
                    vs.len()
                ),
            ));
        }
    } else if let (Some(m1), Some(s1), Some(n1), Some(m2), Some(s2), Some(n2)) =
        (base.mean, base.sd, base.n, var.mean, var.sd, var.n)
    {
        c.center = Center::Mean;
        c.baseline_center = m1;
        c.variant_center = m2;
        match welch_from_stats(m1, s1, n1, m2, s2, n2) {
            Some(w) if n1 >= 2.0 && n2 >= 2.0 => {
                c.test = if base.summary.from_summary || var.summary.from_summary {
                    TestKind::WelchSummary
                } else {
                    TestKind::Welch
                };
                c.p_value = Some(w.p);
                c.effect_size = hedges_g(m1, s1, n1, m2, s2, n2);
                if let Some(ci) = delta_ratio_ci(m1, s1, n1, m2, s2, n2, CONFIDENCE) {
                    (c.ci_low_pct, c.ci_high_pct) = ratio_to_pct(ci);
                    c.interval = finite(ci).then_some(IntervalMethod::Delta);
                }
                if base.n_assumed || var.n_assumed {
                    notes.push(Note::new(
                        NoteKind::AssumedN,
                        format!(
                            "n not stated: assumed n={} per side (--assume-n)",
                            settings.assume_n.unwrap_or(0)
                        ),
                    ));
                }
            }
            _ => {
                notes.push(if n1 < 2.0 || n2 < 2.0 {
                    Note::new(
                        NoteKind::TooFewForTest,
                        "n < 2: no variance estimate, no test",
                    )
                } else {
                    Note::new(
                        NoteKind::NoSpread,
                        "no spread on either side: no test possible",
                    )
                });
            }
        }
    } else {
        // Untestable: report the change of whatever centre exists.
        let both_samples = !bs.is_empty() && !vs.is_empty();
        c.center = if both_samples {
            Center::Median
        } else {
            Center::Mean
        };
        c.baseline_center = centre_of(base, c.center);
        c.variant_center = centre_of(var, c.center);
        match (base.sd, var.sd, base.n, var.n) {
            (Some(_), Some(_), None, _) | (Some(_), Some(_), _, None) => {
                notes.push(Note::new(
                    NoteKind::NUnknown,
                    "n unknown: no test possible (give --assume-n N if the runs are known)",
                ));
            }
            (None, _, _, _) | (_, None, _, _) => {
                let n1 = base.summary.n.unwrap_or(0);
                let n2 = var.summary.n.unwrap_or(0);
                if both_samples && (n1 < 2 || n2 < 2) {
                    notes.push(Note::new(
                        NoteKind::TooFewForTest,
                        format!(
                            "n={n1}+{n2}: a single run per side has no variance; no test possible"
                        ),
                    ));
                } else {
                    notes.push(Note::new(
                        NoteKind::NoSpread,
                        "no spread stated: no variance information, no test possible",
                    ));
                }
            }
            _ => notes.push(Note::new(
                NoteKind::TooFewForTest,
                "not enough data for a test",
            )),
        }
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
                    s.summary.samples.len()
                ),
            ));
        }
        if let Some(p) = s
            .summary
            .trend_p
            .filter(|&p| super::signals::drifts(Some(p)))
        {
            notes.push(Note::new(
                NoteKind::Trend,
                format!(
                    "trend over run order in `{side}` (Mann-Kendall {})",
                    p_equals(p)
                ),
            ));
        }
    }
    c.notes = notes;
    c
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

fn centre_of(s: &Side, center: Center) -> f64 {
    let v = match center {
        Center::Median => s.summary.median.or(s.mean),
        Center::Mean => s.mean.or(s.summary.median),
    };
    v.unwrap_or(f64::NAN)
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
