//! The serialisable structures of the view model and the chart geometry they carry.

use crate::analysis::{IntervalMethod, Note};
use crate::model::FileReport;
use serde::Serialize;
use std::collections::HashMap;

/// Version of the JSON layout of [`ReportView`].
pub const SCHEMA_VERSION: u32 = 1;

/// What the report says about the study beyond the analysis itself: titles,
/// variant descriptions and the inputs read.
#[derive(Debug, Clone, Default)]
pub struct ReportContext {
    /// Short name, used for the output folder (`futex-wake-lockless`).
    pub name: String,
    /// The report's title.
    pub title: String,
    /// Text shown under the title.
    pub description: String,
    /// Descriptions and configuration per variant (may be empty).
    pub variants: Vec<VariantInfo>,
    /// Every input read and what became of it.
    pub files: Vec<FileReport>,
    /// Display names of metrics (`time` → `wake-up time`).
    pub metric_names: HashMap<String, String>,
}

impl ReportContext {
    /// The context of a `compare` run: a title naming the inputs and the
    /// files read; no descriptions.
    pub fn for_compare(
        inputs: &[std::path::PathBuf],
        files: &[FileReport],
        variants: &[String],
    ) -> ReportContext {
        let shown: Vec<String> = inputs.iter().map(|p| crate::model::shown_path(p)).collect();
        let title = if variants.len() >= 2 {
            format!("{} vs {}", variants[1..].join(", "), variants[0])
        } else {
            "Benchmark comparison".to_string()
        };
        ReportContext {
            name: "compare".into(),
            title,
            description: format!("patchperf compare {}", shown.join(" ")),
            variants: Vec::new(),
            files: files.to_vec(),
            metric_names: HashMap::new(),
        }
    }
}

/// What the study says about one variant.
#[derive(Debug, Clone, Default)]
pub struct VariantInfo {
    /// The variant's name.
    pub name: String,
    /// What the study says it is (may be empty).
    pub description: String,
    /// Kernel `.config` file, as given in the study.
    pub kconfig: Option<String>,
    /// Environment snapshot file, as given in the study.
    pub environment: Option<String>,
    /// Why this variant's numbers are not to be trusted (set by the checks:
    /// a debug option the baseline does not have).
    pub suspect: Option<String>,
}

/// A number as shown, plus its exact value for machines.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Num {
    /// The exact value; `None` when there is none.
    pub value: Option<f64>,
    /// The value as written in the report (`n/a` when there is none).
    pub text: String,
}

impl Num {
    pub(super) fn new(value: Option<f64>, text: String) -> Num {
        Num { value, text }
    }
}

/// The whole report.
#[derive(Debug, Clone, Serialize)]
pub struct ReportView {
    /// Version of this layout ([`SCHEMA_VERSION`]).
    pub schema: u32,
    /// `patchperf` and its version.
    pub generator: String,
    /// The study's names and variants.
    pub meta: Meta,
    /// The one-paragraph verdict.
    pub summary: Summary,
    /// Every finding, as shown.
    pub findings: Vec<FindingView>,
    /// The findings grouped by severity and code, for display: long runs of
    /// one kind (21 debug options) show a few in full and list the rest.
    pub finding_groups: Vec<FindingGroup>,
    /// One row per comparison.
    pub comparisons: Vec<ComparisonView>,
    /// Remarks on comparisons, numbered; rows refer to them by number.
    pub notes: Vec<NoteView>,
    /// The forest plot of all changes, when there is at least one comparison.
    pub forest: Option<ChartView>,
    /// One section per benchmark and metric.
    pub sections: Vec<SectionView>,
    /// How the numbers were obtained.
    pub methods: Methods,
    /// Every input file and what was read from it.
    pub provenance: Vec<FileView>,
}

/// Study metadata.
#[derive(Debug, Clone, Serialize)]
pub struct Meta {
    /// Short name of the study (its output folder).
    pub name: String,
    /// The report's title.
    pub title: String,
    /// Text shown under the title.
    pub description: String,
    /// The baseline variant's name.
    pub baseline: String,
    /// Every variant, the baseline among them.
    pub variants: Vec<VariantView>,
}

/// One variant as listed at the top of the report.
#[derive(Debug, Clone, Serialize)]
pub struct VariantView {
    /// The variant's name.
    pub name: String,
    /// What the study says it is (may be empty).
    pub description: String,
    /// Chart colour (Okabe-Ito), the same in every chart.
    pub color: String,
    /// Kernel `.config` file, as given in the study.
    pub kconfig: Option<String>,
    /// Environment snapshot file, as given in the study.
    pub environment: Option<String>,
    /// Why its numbers are not to be trusted, when the checks found a reason.
    pub suspect: Option<String>,
    /// Whether it is the baseline.
    pub is_baseline: bool,
}

/// The one-paragraph verdict.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// "2 regressions, 1 improvement, 14 unchanged; 1 configuration error".
    pub headline: String,
    /// A sentence or two on how far to trust the headline.
    pub trust: String,
    /// How many comparisons got each verdict.
    pub counts: Vec<VerdictCount>,
    /// How many error findings.
    pub errors: usize,
    /// How many warning findings.
    pub warnings: usize,
    /// How many comparisons.
    pub comparisons: usize,
}

/// How many comparisons got one verdict.
#[derive(Debug, Clone, Serialize)]
pub struct VerdictCount {
    /// The verdict.
    pub verdict: String,
    /// How many comparisons got it.
    pub count: usize,
}

/// A finding as shown.
#[derive(Debug, Clone, Serialize)]
pub struct FindingView {
    /// `error`, `warning` or `info`.
    pub severity: String,
    /// Stable machine-readable code, e.g. `kconfig-debug-differs`.
    pub code: String,
    /// One line saying what was found.
    pub title: String,
    /// What in the inputs shows it.
    pub evidence: String,
    /// What to do about it.
    pub advice: String,
}

impl FindingView {
    /// The finding as the templates show it.
    pub fn of(f: &crate::model::Finding) -> FindingView {
        FindingView {
            severity: f.severity.to_string(),
            code: f.code.to_string(),
            title: f.title.clone(),
            evidence: f.evidence.clone(),
            advice: f.advice.clone(),
        }
    }
}

/// Findings of one severity and code.
#[derive(Debug, Clone, Serialize)]
pub struct FindingGroup {
    /// The severity of its findings.
    pub severity: String,
    /// The code of its findings.
    pub code: String,
    /// How many findings it holds.
    pub count: usize,
    /// Shown in full everywhere.
    pub shown: Vec<FindingView>,
    /// Shown in full in HTML (collapsed), by title elsewhere.
    pub rest: Vec<FindingView>,
}

/// How many findings of one kind are shown in full before the rest are
/// listed by title.
pub const FINDINGS_SHOWN: usize = 2;

/// Reflows text written with hard line breaks (TOML multi-line strings):
/// lines join into paragraphs, blank lines separate paragraphs.
pub fn reflow(s: &str) -> String {
    s.trim()
        .split("\n\n")
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n")
}

pub(super) fn group_findings(list: &[FindingView]) -> Vec<FindingGroup> {
    let mut out: Vec<FindingGroup> = Vec::new();
    for f in list {
        match out
            .iter_mut()
            .find(|g| g.severity == f.severity && g.code == f.code)
        {
            Some(g) => {
                g.count += 1;
                let shown = if f.severity == "error" {
                    FINDINGS_SHOWN
                } else {
                    1
                };
                if g.shown.len() < shown {
                    g.shown.push(f.clone());
                } else {
                    g.rest.push(f.clone());
                }
            }
            None => out.push(FindingGroup {
                severity: f.severity.clone(),
                code: f.code.clone(),
                count: 1,
                shown: vec![f.clone()],
                rest: vec![],
            }),
        }
    }
    out
}

/// A numbered remark on one or more comparisons.
#[derive(Debug, Clone, Serialize)]
pub struct NoteView {
    /// Its number, which rows refer to.
    pub number: usize,
    /// The remark.
    pub text: String,
}

/// One row of the comparison table.
#[derive(Debug, Clone, Serialize)]
pub struct ComparisonView {
    /// 1-based row number.
    pub index: usize,
    /// Anchor of the benchmark section this row belongs to.
    pub anchor: String,
    /// What was measured.
    pub benchmark: String,
    /// Its parameters, `key=value` pairs joined by commas.
    pub params: String,
    /// Which quantity the values are.
    pub metric: String,
    /// `benchmark params` for one-line labels.
    pub label: String,
    /// The parameters that tell this row apart within its benchmark, or the
    /// benchmark when there are none (narrow labels).
    pub short_label: String,
    /// Only the parameters that tell this row apart (may be empty).
    pub params_label: String,
    /// The compared variant's name.
    pub variant: String,
    /// The baseline variant's name.
    pub baseline: String,
    /// Display unit of the centre values.
    pub unit: String,
    /// Which way is better: `lower`, `higher` or `unknown`.
    pub direction: String,
    /// Which centre the change is taken of: `median` or `mean`.
    pub center: String,
    /// The baseline's centre.
    pub baseline_value: Num,
    /// The variant's centre.
    pub variant_value: Num,
    /// The change in percent.
    pub change: Num,
    /// The change's confidence interval in percent, as shown.
    pub ci: String,
    /// Lower bound of that interval, in percent.
    pub ci_low: Option<f64>,
    /// Upper bound of that interval, in percent.
    pub ci_high: Option<f64>,
    /// How the interval was computed (as in `compare --json`).
    pub interval: Option<IntervalMethod>,
    /// The test that gave `p`.
    pub test: String,
    /// The test's p-value.
    pub p: Num,
    /// The p-value after the correction.
    pub q: Num,
    /// The effect size (Hedges' g or Cliff's δ).
    pub effect: Num,
    /// The baseline's n, as shown.
    pub n_baseline: String,
    /// The variant's n, as shown.
    pub n_variant: String,
    /// Smallest change detectable at 80% power, in percent.
    pub min_detectable: Num,
    /// n per side needed to detect the threshold.
    pub n_needed: Option<u64>,
    /// The verdict's word.
    pub verdict: String,
    /// The verdict as shown: `regressed?` when the variant is suspect.
    pub verdict_text: String,
    /// For inconclusive rows: the runs per side needed to detect the
    /// threshold (`n ≥ 28/side`); empty otherwise.
    pub verdict_note: String,
    /// True when the variant was measured on a broken setup (see findings).
    pub suspect: bool,
    /// Remarks on this comparison.
    pub notes: Vec<Note>,
    /// Numbers of the entries of [`ReportView::notes`] this row refers to.
    pub note_refs: Vec<usize>,
    /// `[1,2]`-style marker for the refs, empty when none.
    pub note_mark: String,
}

/// A chart file and what it shows.
#[derive(Debug, Clone, Serialize)]
pub struct ChartView {
    /// `distribution`, `sweep`, `runs` or `forest`.
    pub kind: String,
    /// Path relative to the report folder (`charts/forest.svg`).
    pub file: String,
    /// The chart's title.
    pub title: String,
    /// A text alternative for screen readers and the text report.
    pub alt: String,
    /// Size in pixels (the SVG's own size; renderers scale it).
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

/// Width of every chart in pixels.
pub const CHART_WIDTH: u32 = 760;
/// Height of a parameter-sweep chart's panel of absolute values.
pub const SWEEP_HEIGHT: u32 = 420;
/// Height of a sweep's second panel, the change against the baseline.
pub const SWEEP_CHANGE_HEIGHT: u32 = 250;
/// Height of a run-order chart.
pub const RUNS_HEIGHT: u32 = 320;

/// Row height of the forest plot for `n` comparisons.
pub fn forest_row_height(n: usize) -> u32 {
    if n > 60 {
        16
    } else {
        24
    }
}

/// Height of the forest plot for `n` comparisons.
pub fn forest_height(n: usize) -> u32 {
    let n = n.max(1);
    (36 + forest_row_height(n) * n as u32 + 56).max(150)
}

/// Height of a distribution chart with `rows` rows.
pub fn distribution_height(rows: usize) -> u32 {
    (70 + 26 * rows.max(1) as u32 + 50).max(160)
}

/// Pixels above each panel of a faceted distribution chart (its title).
pub const FACET_TITLE: u32 = 22;
/// Pixels below each panel of a faceted distribution chart (its ticks).
pub const FACET_TICKS: u32 = 26;

/// Height of a distribution chart drawn as one panel per parameter value,
/// `rows[i]` rows in panel `i`: the legend above, the axis title below.
pub fn facets_height(rows: &[usize]) -> u32 {
    36 + rows
        .iter()
        .map(|r| FACET_TITLE + 26 * (*r).max(1) as u32 + FACET_TICKS)
        .sum::<u32>()
        + 30
}

/// One benchmark (benchmark × metric) with all its parameter values.
#[derive(Debug, Clone, Serialize)]
pub struct SectionView {
    /// Its id in the page, for links.
    pub anchor: String,
    /// The benchmark.
    pub benchmark: String,
    /// The metric (its display name when the study gives one).
    pub metric: String,
    /// Its heading.
    pub title: String,
    /// The display unit of its values.
    pub unit: String,
    /// Which way is better: `lower`, `higher` or `unknown`.
    pub direction: String,
    /// Name of the numeric parameter swept in this section, if any.
    pub sweep_param: Option<String>,
    /// Parameters shared by every row (`datasize=100, fds=40`), or empty.
    pub fixed_params: String,
    /// One row per variant and parameter value.
    pub rows: Vec<VariantRow>,
    /// Which optional columns have anything to show (summaries have no
    /// median, min, max, outliers or trend).
    pub show_median: bool,
    /// Whether the min and max columns have anything to show.
    pub show_minmax: bool,
    /// Whether any row has samples (run-level columns).
    pub show_runs: bool,
    /// Row numbers (1-based) of this benchmark's comparisons.
    pub comparisons: Vec<usize>,
    /// Its charts.
    pub charts: Vec<ChartView>,
    /// Notes on its runs (drift, noise, unequal spread), one line per kind of problem.
    pub diagnostics: Vec<String>,
}

/// Summary of one variant at one parameter value.
#[derive(Debug, Clone, Serialize)]
pub struct VariantRow {
    /// The parameter value(s) of the row.
    pub params: String,
    /// The variant's name.
    pub variant: String,
    /// The number of values, as shown.
    pub n: String,
    /// Mean.
    pub mean: Num,
    /// Median.
    pub median: Num,
    /// Standard deviation.
    pub stddev: Num,
    /// Coefficient of variation, in percent.
    pub cv: Num,
    /// Smallest value.
    pub min: Num,
    /// Largest value.
    pub max: Num,
    /// The centre's confidence interval, as shown.
    pub ci: String,
    /// Outliers by Tukey's fences (counted, never dropped).
    pub outliers: usize,
    /// Mann-Kendall trend p-value over run order.
    pub trend_p: Num,
    /// `samples` or `summary`.
    pub source: String,
}

/// How the numbers were obtained.
#[derive(Debug, Clone, Serialize)]
pub struct Methods {
    /// One sentence per kind of test used.
    pub tests: Vec<String>,
    /// The significance level.
    pub alpha: String,
    /// The smallest change that matters, as shown (`2%`).
    pub threshold: String,
    /// The threshold in percent, for charts.
    pub threshold_pct: f64,
    /// The multiple-comparison correction, in words.
    pub correction: String,
    /// Which test was asked for raw samples, in words.
    pub test_choice: String,
    /// The n assumed for tables without one, or `none (…)`.
    pub assumed_n: String,
    /// How the bootstrap was run, in one line.
    pub bootstrap: String,
    /// The range of n over the comparisons, in words.
    pub n_range: String,
    /// How each verdict is decided, one line each.
    pub verdict_rules: Vec<String>,
}

/// One input file.
#[derive(Debug, Clone, Serialize)]
pub struct FileView {
    /// The file as given.
    pub path: String,
    /// The format it was read as (`not recognised` when none).
    pub format: String,
    /// Rows read from it.
    pub rows: usize,
    /// How many of its rows the document reader's fallback guessed.
    pub fallback: usize,
    /// Lines holding numbers that nothing read.
    pub unread: usize,
    /// A remark for the user (why it was skipped), or empty.
    pub note: String,
}
