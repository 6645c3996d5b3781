//! Which charts a section gets, and the bars they draw.

use super::*;
use crate::analysis::VariantSummary;
use crate::numfmt;

/// The bar of a variant drawn around `centre`: its confidence interval,
/// else ± one stddev (`true` in the third place), else no width.
pub fn bar(v: &VariantSummary, centre: f64) -> (f64, f64, bool) {
    match (v.ci_low, v.ci_high, v.stddev) {
        (Some(l), Some(h), _) => (l, h, false),
        (_, _, Some(sd)) => (centre - sd, centre + sd, true),
        _ => (centre, centre, false),
    }
}

/// What a set of error bars shows. Chart titles, axis notes and legends all
/// ask this one rule (built on [`bar`], which draws them), so that no chart
/// says "95% CI" over a bar that is a stddev.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bars {
    /// Every bar is a 95% confidence interval.
    Ci,
    /// Every bar is ± one standard deviation (no interval was stated).
    Sd,
    /// Some of each.
    Mixed,
}

impl Bars {
    /// What the bars of these variants show; `None` when none has a bar.
    pub fn of<'a>(variants: impl IntoIterator<Item = &'a VariantSummary>) -> Option<Bars> {
        let (mut ci, mut sd) = (false, false);
        for v in variants {
            match bar(v, 0.0) {
                (_, _, true) => sd = true,
                (l, h, false) if l != h => ci = true,
                _ => {}
            }
        }
        match (ci, sd) {
            (true, false) => Some(Bars::Ci),
            (false, true) => Some(Bars::Sd),
            (true, true) => Some(Bars::Mixed),
            (false, false) => None,
        }
    }

    /// The bars in a few words, for axis notes.
    pub fn phrase(self) -> &'static str {
        match self {
            Bars::Ci => "95% CI",
            Bars::Sd => "± stddev",
            Bars::Mixed => "95% CI, or ± stddev where no interval was stated",
        }
    }
}

/// The variants a family draws as a mean with a bar (no samples to plot).
pub fn summary_only<'f>(f: &'f Family<'_>) -> impl Iterator<Item = &'f VariantSummary> {
    f.groups
        .iter()
        .flat_map(|g| &g.variants)
        .filter(|v| !v.has_samples())
}

/// The sides of a family drawn thinned, as (n, runs per bucket), each
/// pair once, in report order.
fn thinned_sides(f: &Family<'_>) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = Vec::new();
    for t in f
        .groups
        .iter()
        .flat_map(|g| &g.variants)
        .filter_map(|v| v.thinned.as_ref())
    {
        if !out.contains(&(t.n, t.per)) {
            out.push((t.n, t.per));
        }
    }
    out
}

/// How the run-order chart draws the family's sides of more samples than
/// it draws one by one (`n = 10,000,000, drawn as min–max and mean per
/// 2,442 runs`); `None` when it draws every sample.
pub fn runs_thinned_note(f: &Family<'_>) -> Option<String> {
    thinned_note(f, |n, per| {
        format!("n = {n}, drawn as min–max and mean per {per} runs")
    })
}

/// How the distribution chart draws those sides: the box of every
/// sample, and as points only the bucket extremes beyond the whiskers.
pub fn distribution_thinned_note(f: &Family<'_>) -> Option<String> {
    thinned_note(f, |n, per| {
        format!(
            "n = {n}: box of every sample, points the min and max of each {per} runs beyond the whiskers"
        )
    })
}

/// One `say(n, runs per bucket)` per thinned side of the family, the
/// counts written with their thousands set apart; `None` when none is.
fn thinned_note(f: &Family<'_>, say: impl Fn(&str, &str) -> String) -> Option<String> {
    let sides = thinned_sides(f);
    (!sides.is_empty()).then(|| {
        sides
            .iter()
            .map(|(n, per)| say(&numfmt::grouped(*n), &numfmt::grouped(*per)))
            .collect::<Vec<_>>()
            .join("; ")
    })
}

/// `title` with `note` after a dash, when there is one.
fn noted(title: String, note: Option<String>) -> String {
    match note {
        Some(n) => format!("{title} — {n}"),
        None => title,
    }
}

/// The charts a section gets, before they are drawn (the renderer in
/// `charts` draws them under exactly these file names).
pub fn section_chart_views(f: &Family<'_>, title: &str) -> Vec<ChartView> {
    let mut charts = Vec::new();
    let base = format!("charts/{}", f.anchor);
    let unit = f.scale.axis_suffix();
    let has_samples = f
        .groups
        .iter()
        .any(|g| g.variants.iter().any(|v| v.has_samples()));
    // One answer for the title and the alt text.
    let bars = Bars::of(summary_only(f));
    charts.push(ChartView {
        kind: "distribution".into(),
        file: format!("{base}-dist.svg"),
        title: noted(
            format!(
                "{title}: {}{unit}",
                match (has_samples, bars) {
                    (true, None) => "distribution of the samples per variant",
                    (true, Some(_)) =>
                        "distribution of the samples, or the stated mean, per variant",
                    (false, Some(Bars::Sd)) => "mean ± stddev per variant",
                    (false, Some(Bars::Mixed)) => "mean with 95% interval or ± stddev per variant",
                    (false, Some(Bars::Ci)) => "mean with 95% interval per variant",
                    // Neither an interval nor a spread was stated: no bars.
                    (false, None) => "mean per variant",
                }
            ),
            distribution_thinned_note(f),
        ),
        alt: format!(
            "{} of {title} per variant{}",
            match (has_samples, bars) {
                (true, _) => "Box and strip plot of the samples",
                (false, Some(_)) => "Mean and interval",
                (false, None) => "Mean",
            },
            if f.groups.len() > 1 {
                " and parameter value"
            } else {
                ""
            }
        ),
        width: CHART_WIDTH,
        height: if distribution_facets(f) {
            facets_height(
                &f.groups
                    .iter()
                    .map(|g| g.variants.len())
                    .collect::<Vec<_>>(),
            )
        } else {
            distribution_height(f.groups.iter().map(|g| g.variants.len()).sum())
        },
    });
    if let Some(k) = &f.sweep {
        let change = sweep_has_change(f);
        charts.push(ChartView {
            kind: "sweep".into(),
            file: format!("{base}-sweep.svg"),
            title: if change {
                format!("{title}{unit} vs {k}, per variant, and the change against the baseline")
            } else {
                format!("{title}{unit} vs {k}, per variant")
            },
            alt: format!(
                "Line chart of the centre of {title} against {k} per variant, with error bars{}",
                if change {
                    "; below it, the change in percent with its 95% interval"
                } else {
                    ""
                }
            ),
            width: CHART_WIDTH,
            height: sweep_height(f),
        });
    }
    if f.groups.iter().any(|g| {
        g.variants
            .iter()
            .any(|v| v.samples.len() >= 3 || v.thinned.is_some())
    }) {
        charts.push(ChartView {
            kind: "runs".into(),
            file: format!("{base}-runs.svg"),
            title: noted(
                format!("{title}{unit} in run order (drift)"),
                runs_thinned_note(f),
            ),
            alt: format!("Samples of {title} in the order they were measured, per variant"),
            width: CHART_WIDTH,
            height: RUNS_HEIGHT,
        });
    }
    charts
}

/// Whether a sweep gets its panel of changes: some parameter value has a
/// variant to compare with the baseline.
pub fn sweep_has_change(f: &Family<'_>) -> bool {
    f.groups.iter().any(|g| g.variants.len() >= 2)
}

/// Height of a sweep chart, with its change panel when it has one.
pub fn sweep_height(f: &Family<'_>) -> u32 {
    if sweep_has_change(f) {
        SWEEP_HEIGHT + SWEEP_CHANGE_HEIGHT
    } else {
        SWEEP_HEIGHT
    }
}

/// Most parameter values a distribution chart draws as panels of their own;
/// beyond, one shared axis (the forest and the sweep show the changes).
pub const MAX_FACETS: usize = 12;

/// Whether the distribution chart gives each parameter value a panel with
/// its own axis: on one shared axis, a parameter value whose values span
/// less than a sixth of all of them (hackbench at 1 and at 16 groups)
/// would be squeezed to a dot.
pub fn distribution_facets(f: &Family<'_>) -> bool {
    if f.groups.len() < 2 || f.groups.len() > MAX_FACETS {
        return false;
    }
    let spans: Vec<(f64, f64)> = f
        .groups
        .iter()
        .filter_map(|g| {
            let vals: Vec<f64> = g
                .variants
                .iter()
                .flat_map(|v| {
                    let mut out = v.samples.clone();
                    // A thinned side draws its extremes (as whisker ends
                    // or points).
                    if v.thinned.is_some() {
                        out.extend(v.min.into_iter().chain(v.max));
                    }
                    if out.is_empty() {
                        if let Some(c) = centre(v) {
                            let (lo, hi, _) = bar(v, c);
                            out.extend([c, lo, hi]);
                        }
                    }
                    out
                })
                .filter(|x| x.is_finite())
                .collect();
            let lo = vals.iter().copied().reduce(f64::min)?;
            let hi = vals.iter().copied().reduce(f64::max)?;
            Some((lo, hi))
        })
        .collect();
    let lo = spans.iter().map(|s| s.0).reduce(f64::min);
    let hi = spans.iter().map(|s| s.1).reduce(f64::max);
    let (Some(lo), Some(hi)) = (lo, hi) else {
        return false;
    };
    let whole = hi - lo;
    whole > 0.0 && spans.iter().any(|(a, b)| b - a < whole / 6.0)
}
