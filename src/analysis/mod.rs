//! Analysis: groups a [`Dataset`] by (benchmark,
//! params, metric), compares every variant with the baseline and gives each
//! comparison a verdict. The types here are what every report renders.
//!
//! Entry points: [`analyze`] on a dataset; [`Filter`] for `--filter`.
//! Reading the inputs is not this stage's: `crate::pipeline` reads them
//! and hands the dataset over.

mod compare;
mod describe;
mod filter;
mod findings;
mod group;
pub mod history;
mod methods;
pub mod signals;
mod thinned;
mod types;
mod verdict;
pub mod version_order;

pub use filter::Filter;
pub use thinned::{BoxFigures, Bucket, Thinned, RUN_ORDER_POINTS};
pub use types::*;
pub use verdict::trips_gate;

use crate::error::{Error, Result};
use crate::model::{sort_findings, Dataset, Finding, FindingCode};
use rayon::prelude::*;

/// Analyses `data`: groups by (benchmark, params, metric), converts units to
/// the baseline's, compares each non-baseline variant to the baseline with
/// the test the data allows, corrects the family of p-values and gives
/// verdicts. Groups run in parallel; the output order is that of first
/// appearance in `data`, whatever the scheduling.
///
/// The baseline is `settings.baseline` or the first variant of `data`. A
/// named baseline that no row has is a usage error.
pub fn analyze(data: &Dataset, settings: &Settings) -> Result<Analysis> {
    analyze_with_variants(data, &data.variants(), settings)
}

/// [`analyze`] given `data.variants()`, which a caller that has them need
/// not compute again (a pass over every row, on one thread).
pub fn analyze_with_variants(
    data: &Dataset,
    variants: &[String],
    settings: &Settings,
) -> Result<Analysis> {
    analyze_from(Given::Borrowed(data), variants, settings)
}

/// [`analyze_with_variants`] that takes the dataset and frees it as soon as
/// its last groups have been copied out, before they are analysed: two
/// sides of ten million samples held the rows (196 MB) beside their sorted
/// copies. The samples of a long series are moved out of the rows rather
/// than copied ([`group::settle`]). For a caller that needs only the
/// analysis afterwards.
pub fn analyze_owned(data: Dataset, variants: &[String], settings: &Settings) -> Result<Analysis> {
    analyze_from(Given::Owned(data), variants, settings)
}

/// The dataset an analysis is given.
enum Given<'a> {
    Borrowed(&'a Dataset),
    /// Dropped once nothing more is copied out of it, its longest series
    /// moved out rather than copied.
    Owned(Dataset),
}

impl Given<'_> {
    fn get(&self) -> &Dataset {
        match self {
            Given::Borrowed(d) => d,
            Given::Owned(d) => d,
        }
    }
}

/// The analysis of a dataset borrowed or owned.
fn analyze_from(data: Given<'_>, variants: &[String], settings: &Settings) -> Result<Analysis> {
    if !(settings.alpha > 0.0 && settings.alpha < 1.0) {
        return Err(Error::Usage(format!(
            "--alpha {} must lie between 0 and 1",
            settings.alpha
        )));
    }
    if !(settings.threshold_pct.is_finite() && settings.threshold_pct >= 0.0) {
        return Err(Error::Usage(format!(
            "--threshold {} must be a percentage ≥ 0",
            settings.threshold_pct
        )));
    }
    // A summary of fewer than two runs has no spread to test with.
    if matches!(settings.assume_n, Some(0 | 1)) {
        return Err(Error::Usage(
            "the assumed n (--assume-n, assume_n) must be at least 2".into(),
        ));
    }
    let baseline = match &settings.baseline {
        Some(b) => {
            if !variants.iter().any(|v| v == b) {
                return Err(Error::Usage(format!(
                    "baseline `{b}` is not among the variants read: {}",
                    variants.join(", ")
                )));
            }
            b.clone()
        }
        None => variants.first().cloned().unwrap_or_default(),
    };
    // Groups are made and analysed a window at a time, each window on all
    // threads: the rows copied out of the dataset for a group live only
    // while its window is analysed.
    let read_nothing = data.get().is_empty();
    let buckets = group::buckets(data.get());
    let mut groups = Vec::with_capacity(buckets.len());
    // Two variants make at most a comparison a group: room for them once,
    // not the doubling that holds up to three times their bytes while a
    // million of them are moved.
    let mut comparisons = Vec::with_capacity(if variants.len() == 2 {
        buckets.len()
    } else {
        0
    });
    let mut findings = Vec::new();
    let mut take = |window: Vec<(Group, Vec<Comparison>, Vec<Finding>)>| {
        for (g, c, f) in window {
            groups.push(g);
            comparisons.extend(c);
            findings.extend(f);
        }
    };
    // The last window is built apart so that the rows can go before it is
    // analysed: a run of one huge group has a single window.
    let last = buckets.len().saturating_sub(1) / GROUPS_PER_WINDOW * GROUPS_PER_WINDOW;
    for window in buckets[..last].chunks(GROUPS_PER_WINDOW) {
        let raw = group::build_groups(data.get(), window, &baseline, &settings.directions, false)?;
        take(analyze_window(raw, &baseline, settings));
    }
    // Freeing millions of series heads costs as much as analysing a
    // window: the pool does it meanwhile. A few series (a harness's
    // millions of samples a side) are freed at once, before the window's
    // sorted samples are made, their longest series moved into the groups
    // instead of copied: the rows and the groups' samples are never held
    // together.
    let few = data.get().series_count() < PARALLEL_ROWS_FREED;
    let owned = matches!(data, Given::Owned(_));
    let mut raw = group::build_groups(
        data.get(),
        &buckets[last..],
        &baseline,
        &settings.directions,
        owned && few,
    )?;
    drop(buckets);
    let window = match data {
        Given::Owned(data) if few => {
            group::settle(&mut raw, data);
            analyze_window(raw, &baseline, settings)
        }
        Given::Owned(data) => {
            rayon::join(
                move || drop(data),
                || analyze_window(raw, &baseline, settings),
            )
            .1
        }
        Given::Borrowed(_) => analyze_window(raw, &baseline, settings),
    };
    take(window);
    verdict::decide(&mut comparisons, settings);
    let mut summary = findings::summary_findings(&comparisons, &groups, settings);
    findings.append(&mut summary);
    if comparisons.is_empty() && !read_nothing {
        findings.push(Finding::new(
            crate::model::Severity::Warning,
            FindingCode::NothingToCompare,
            "No benchmark has values for both the baseline and another variant",
            format!("variants read: {}; baseline: `{baseline}`", variants.join(", ")),
            "Give at least two inputs (baseline first), name the baseline with --baseline, or check \
             that the variants measured the same benchmarks.",
        ));
    }
    sort_findings(&mut findings);
    Ok(Analysis {
        settings: settings.clone(),
        groups,
        comparisons,
        findings,
    })
}

/// Series below which a dataset is freed before its last window is
/// analysed rather than beside it: a few large frees.
const PARALLEL_ROWS_FREED: usize = 4096;

/// Groups made and analysed together: enough to keep every thread busy,
/// few enough that their copied rows stay small.
const GROUPS_PER_WINDOW: usize = 16_384;

/// Analyses a window of groups on all threads, in their order.
fn analyze_window(
    mut raw: Vec<group::RawGroup>,
    baseline: &str,
    settings: &Settings,
) -> Vec<(Group, Vec<Comparison>, Vec<Finding>)> {
    let per_group = raw
        .par_iter_mut()
        .map(|g| analyze_group(g, baseline, settings))
        .collect();
    // A lab's run has hundreds of thousands of samples to free: all
    // threads free them.
    if raw.len() < 64 {
        drop(raw);
    } else {
        raw.into_par_iter().for_each(drop);
    }
    per_group
}

fn analyze_group(
    g: &mut group::RawGroup,
    baseline: &str,
    settings: &Settings,
) -> (Group, Vec<Comparison>, Vec<Finding>) {
    let mut findings = Vec::new();
    if let Some((count, source, line)) = &g.unit_assumed {
        findings.push(Finding::new(
            crate::model::Severity::Info,
            FindingCode::UnitAssumed,
            format!(
                "{}: {count} values without a unit were taken to be in `{}`",
                describe::describe_group(g, ""),
                g.unit
            ),
            format!("first at {source}:{line}"),
            "Check that the unit stated elsewhere in the input applies to these values too.",
        ));
    }
    // Each side's samples move into its summary, not copied.
    let samples: Vec<Vec<f64>> = g
        .variants
        .iter_mut()
        .map(|v| std::mem::take(&mut v.samples))
        .collect();
    let g = &*g;
    let sides: Vec<describe::Side> = g
        .variants
        .iter()
        .zip(samples)
        .map(|(v, x)| {
            let keep = settings.keep_run_order;
            describe::describe(v, x, g, settings.assume_n, keep, &mut findings)
        })
        .collect();
    let mut comparisons = Vec::new();
    // A group without the baseline (a benchmark only some variants ran)
    // compares with its own first variant, unless the baseline was named.
    let bi = g
        .variants
        .iter()
        .position(|v| v.name == baseline)
        .or_else(|| {
            if settings.baseline.is_some() || g.variants.len() < 2 {
                return None;
            }
            findings.push(Finding::new(
                crate::model::Severity::Info,
                FindingCode::GroupBaseline,
                format!(
                    "{}: no `{baseline}` values; compared with `{}` instead",
                    describe::describe_group(g, ""),
                    g.variants[0].name
                ),
                format!(
                    "variants of this benchmark: {}",
                    g.variants
                        .iter()
                        .map(|v| v.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                "Name the baseline with --baseline to compare only against it.",
            ));
            Some(0)
        });
    if let Some(bi) = bi {
        for (i, side) in sides.iter().enumerate() {
            if i != bi {
                let c = compare::compare(g, &sides[bi], side, settings);
                findings::stated_change(g, bi, i, &sides, &c, &mut findings);
                comparisons.push(c);
            }
        }
        findings::group_findings(g, &sides, bi, &mut findings);
    }
    let group = Group {
        benchmark: g.benchmark.clone(),
        params: g.params.clone(),
        metric: g.metric.clone(),
        unit: g.unit.clone(),
        direction: g.direction,
        variants: sides.into_iter().map(|s| s.summary).collect(),
    };
    (group, comparisons, findings)
}

#[cfg(test)]
mod tests;
