//! The view model: one serde structure built from an [`Analysis`] that every
//! renderer (HTML, PDF, Markdown, text, JSON) reads. All numbers are
//! formatted here, through [`super::format`], so that every output shows
//! the same digits.

use super::format;
use crate::analysis::{Analysis, NoteKind};
use crate::model::Finding;
use std::collections::{BTreeMap, HashMap};

mod charts;
mod families;
mod methods;
mod order;
mod sections;
mod summary;
#[cfg(test)]
mod tests;
mod types;

pub use charts::{
    bar, distribution_facets, runs_thinned_note, section_chart_views, summary_only,
    sweep_has_change, sweep_height, Bars, MAX_FACETS,
};
pub use families::{centre, families, in_order, param_value, parse_params, Family};
pub use order::{baseline_name, colors, slug, variant_order, PALETTE};
pub use types::*;

use methods::{methods, test_name};
use sections::{comparison_view, diagnostics, section_rows};
use summary::summary;
pub use summary::{verdict_counts, VERDICT_ORDER};

/// Builds the view model. `ctx.variants[..].suspect` marks the comparisons
/// of those variants as suspect.
pub fn build(a: &Analysis, ctx: &ReportContext) -> ReportView {
    build_with(a, ctx, &families(a))
}

/// [`build`] from the analysis' [`families`], for a caller that needs them
/// too (the charts are drawn from the same families).
pub fn build_with(a: &Analysis, ctx: &ReportContext, fams: &[Family<'_>]) -> ReportView {
    let order = variant_order(a, ctx);
    let palette = colors(&order);
    let baseline = baseline_name(a);
    let suspect: HashMap<&str, &str> = ctx
        .variants
        .iter()
        .filter_map(|v| v.suspect.as_deref().map(|s| (v.name.as_str(), s)))
        .collect();
    let display = |metric: &str| {
        ctx.metric_names
            .get(metric)
            .cloned()
            .unwrap_or_else(|| metric.to_string())
    };
    let label_of = |b: &str, p: &str| {
        if p.is_empty() {
            b.to_string()
        } else {
            format!("{b} {p}")
        }
    };

    let mut findings: Vec<Finding> = a.findings.clone();
    crate::model::sort_findings(&mut findings);

    let mut comparisons: Vec<ComparisonView> = a
        .comparisons
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let fam = fams
                .iter()
                .find(|f| {
                    f.benchmark == c.benchmark
                        && f.metric == c.metric
                        && f.groups
                            .iter()
                            .any(|g| g.params == c.params && g.unit == c.unit)
                })
                .or_else(|| {
                    fams.iter()
                        .find(|f| f.benchmark == c.benchmark && f.metric == c.metric)
                });
            comparison_view(
                i,
                c,
                fam,
                suspect.contains_key(c.variant.as_str()),
                &label_of,
            )
        })
        .collect();
    let mut notes: Vec<NoteView> = Vec::new();
    for c in comparisons.iter_mut() {
        // The reference Welch p-value beside a rank test is kept in the JSON
        // notes but would make one footnote per row.
        for n in c
            .notes
            .iter()
            .filter(|n| n.kind != NoteKind::WelchReference)
        {
            let text = n.footnote_text();
            let number = match notes.iter().find(|x| x.text == text) {
                Some(x) => x.number,
                None => {
                    notes.push(NoteView {
                        number: notes.len() + 1,
                        text: text.to_string(),
                    });
                    notes.len()
                }
            };
            if !c.note_refs.contains(&number) {
                c.note_refs.push(number);
            }
        }
        if !c.note_refs.is_empty() {
            let refs: Vec<String> = c.note_refs.iter().map(|n| n.to_string()).collect();
            c.note_mark = format!("[{}]", refs.join(","));
        }
    }
    let suspect_rows = comparisons
        .iter()
        .filter(|c| c.verdict_text.ends_with('?'))
        .count();

    let mut metrics_of: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for f in fams {
        let m = metrics_of.entry(f.benchmark).or_default();
        if !m.contains(&f.metric) {
            m.push(f.metric);
        }
    }
    let multi: BTreeMap<&str, usize> = metrics_of.iter().map(|(b, m)| (*b, m.len())).collect();
    let sections = fams
        .iter()
        .map(|f| {
            let title = if multi.get(f.benchmark).copied().unwrap_or(0) > 1
                || ctx.metric_names.contains_key(f.metric)
            {
                format!("{} — {}", f.benchmark, display(f.metric))
            } else {
                f.benchmark.to_string()
            };
            let rows = section_rows(f, &order);
            SectionView {
                show_median: rows.iter().any(|r| r.median.value.is_some()),
                show_minmax: rows
                    .iter()
                    .any(|r| r.min.value.is_some() || r.max.value.is_some()),
                show_runs: rows.iter().any(|r| r.source == "samples"),
                comparisons: comparisons
                    .iter()
                    .filter(|c| c.anchor == f.anchor)
                    .map(|c| c.index)
                    .collect(),
                anchor: f.anchor.clone(),
                benchmark: f.benchmark.to_string(),
                metric: display(f.metric),
                title: title.clone(),
                unit: f.scale.unit.clone(),
                direction: f.groups[0]
                    .direction
                    .phrase()
                    .unwrap_or("direction unknown")
                    .into(),
                sweep_param: f.sweep.clone(),
                fixed_params: f.fixed.replace(',', ", "),
                rows,
                charts: section_chart_views(f, &title),
                diagnostics: diagnostics(f, &order),
            }
        })
        .collect();

    let variants = order
        .iter()
        .map(|name| {
            let info = ctx.variants.iter().find(|v| &v.name == name);
            VariantView {
                name: name.clone(),
                description: info.map(|i| reflow(&i.description)).unwrap_or_default(),
                color: palette
                    .get(name)
                    .cloned()
                    .unwrap_or_else(|| PALETTE[0].into()),
                kconfig: info.and_then(|i| i.kconfig.clone()),
                environment: info.and_then(|i| i.environment.clone()),
                suspect: info.and_then(|i| i.suspect.clone()),
                is_baseline: *name == baseline,
            }
        })
        .collect();

    let forest = (!a.comparisons.is_empty()).then(|| ChartView {
        kind: "forest".into(),
        file: "charts/forest.svg".into(),
        title: "Change of every comparison with its 95% confidence interval".into(),
        alt: format!(
            "Forest plot: change in percent against {baseline} for each of the {} comparisons; the shaded band is the +/-{}% threshold",
            a.comparisons.len(),
            format::sig(a.settings.threshold_pct)
        ),
        width: CHART_WIDTH,
        height: forest_height(a.comparisons.len()),
    });

    let finding_views: Vec<FindingView> = findings.iter().map(FindingView::of).collect();
    ReportView {
        schema: SCHEMA_VERSION,
        generator: format!("patchperf {}", env!("CARGO_PKG_VERSION")),
        meta: Meta {
            name: ctx.name.clone(),
            title: if ctx.title.is_empty() {
                "Benchmark comparison".into()
            } else {
                ctx.title.clone()
            },
            description: reflow(&ctx.description),
            baseline,
            variants,
        },
        summary: summary(a, &findings, suspect_rows),
        finding_groups: group_findings(&finding_views),
        findings: finding_views,
        comparisons,
        notes,
        forest,
        sections,
        methods: methods(a),
        provenance: ctx
            .files
            .iter()
            .map(|f| FileView {
                path: f.path.clone(),
                format: f.format.clone().unwrap_or_else(|| "not recognised".into()),
                rows: f.rows,
                fallback: f.fallback,
                unread: f.unread_numeric.len(),
                note: f.note.clone().unwrap_or_default(),
            })
            .collect(),
    }
}
