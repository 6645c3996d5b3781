//! The view model: one serde structure built from an [`Analysis`] that every
//! renderer (HTML, PDF, Markdown, text, JSON) reads. All numbers are
//! formatted here, through [`super::format`], so that every output shows
//! the same digits.

use super::format::{self, Scale};
use crate::analysis::{
    Analysis, Center, Comparison, Correction, Group, IntervalMethod, Note, NoteKind, TestChoice,
    TestKind, VariantSummary, Verdict,
};
use crate::ingest::FileReport;
use crate::model::{Finding, Severity};
use crate::stats::bootstrap::EXACT_MAX_N;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// Version of the JSON layout of [`ReportView`].
pub const SCHEMA_VERSION: u32 = 1;

/// What the report says about the study beyond the analysis itself: titles,
/// variant descriptions and the inputs read.
#[derive(Debug, Clone, Default)]
pub struct ReportContext {
    /// Short name, used for the output folder (`futex-wake-lockless`).
    pub name: String,
    pub title: String,
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
        let shown: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
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
    pub name: String,
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
    pub value: Option<f64>,
    pub text: String,
}

impl Num {
    fn new(value: Option<f64>, text: String) -> Num {
        Num { value, text }
    }
}

/// The whole report.
#[derive(Debug, Clone, Serialize)]
pub struct ReportView {
    pub schema: u32,
    pub generator: String,
    pub meta: Meta,
    pub summary: Summary,
    pub findings: Vec<FindingView>,
    /// The findings grouped by severity and code, for display: long runs of
    /// one kind (21 debug options) show a few in full and list the rest.
    pub finding_groups: Vec<FindingGroup>,
    pub comparisons: Vec<ComparisonView>,
    /// Remarks on comparisons, numbered; rows refer to them by number.
    pub notes: Vec<NoteView>,
    /// The forest plot of all changes, when there is at least one comparison.
    pub forest: Option<ChartView>,
    pub sections: Vec<SectionView>,
    pub methods: Methods,
    pub provenance: Vec<FileView>,
}

/// Study metadata.
#[derive(Debug, Clone, Serialize)]
pub struct Meta {
    pub name: String,
    pub title: String,
    pub description: String,
    pub baseline: String,
    pub variants: Vec<VariantView>,
}

/// One variant as listed at the top of the report.
#[derive(Debug, Clone, Serialize)]
pub struct VariantView {
    pub name: String,
    pub description: String,
    /// Chart colour (Okabe-Ito), the same in every chart.
    pub color: String,
    pub kconfig: Option<String>,
    pub environment: Option<String>,
    pub suspect: Option<String>,
    pub is_baseline: bool,
}

/// The one-paragraph verdict.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// "2 regressions, 1 improvement, 14 unchanged; 1 configuration error".
    pub headline: String,
    /// A sentence or two on how far to trust the headline.
    pub trust: String,
    pub counts: Vec<VerdictCount>,
    pub errors: usize,
    pub warnings: usize,
    pub comparisons: usize,
}

/// How many comparisons got one verdict.
#[derive(Debug, Clone, Serialize)]
pub struct VerdictCount {
    pub verdict: String,
    pub count: usize,
}

/// A finding as shown.
#[derive(Debug, Clone, Serialize)]
pub struct FindingView {
    pub severity: String,
    pub code: String,
    pub title: String,
    pub evidence: String,
    pub advice: String,
}

/// Findings of one severity and code.
#[derive(Debug, Clone, Serialize)]
pub struct FindingGroup {
    pub severity: String,
    pub code: String,
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

fn group_findings(list: &[FindingView]) -> Vec<FindingGroup> {
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
    pub number: usize,
    pub text: String,
}

/// One row of the comparison table.
#[derive(Debug, Clone, Serialize)]
pub struct ComparisonView {
    /// 1-based row number.
    pub index: usize,
    /// Anchor of the benchmark section this row belongs to.
    pub anchor: String,
    pub benchmark: String,
    pub params: String,
    pub metric: String,
    /// `benchmark params` for one-line labels.
    pub label: String,
    /// The parameters that tell this row apart within its benchmark, or the
    /// benchmark when there are none (narrow labels).
    pub short_label: String,
    /// Only the parameters that tell this row apart (may be empty).
    pub params_label: String,
    pub variant: String,
    pub baseline: String,
    /// Display unit of the centre values.
    pub unit: String,
    pub direction: String,
    pub center: String,
    pub baseline_value: Num,
    pub variant_value: Num,
    pub change: Num,
    pub ci: String,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    /// How the interval was computed (as in `compare --json`).
    pub interval: Option<IntervalMethod>,
    pub test: String,
    pub p: Num,
    pub q: Num,
    pub effect: Num,
    pub n_baseline: String,
    pub n_variant: String,
    pub min_detectable: Num,
    pub n_needed: Option<u64>,
    pub verdict: String,
    /// The verdict as shown: `regressed?` when the variant is suspect.
    pub verdict_text: String,
    /// For inconclusive rows: the runs per side needed to detect the
    /// threshold (`n ≥ 28/side`); empty otherwise.
    pub verdict_note: String,
    /// True when the variant was measured on a broken setup (see findings).
    pub suspect: bool,
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
    pub title: String,
    /// A text alternative for screen readers and the text report.
    pub alt: String,
    /// Size in pixels (the SVG's own size; renderers scale it).
    pub width: u32,
    pub height: u32,
}

/// Width of every chart in pixels.
pub const CHART_WIDTH: u32 = 760;
/// Height of a parameter-sweep chart.
pub const SWEEP_HEIGHT: u32 = 420;
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

/// One benchmark (benchmark × metric) with all its parameter values.
#[derive(Debug, Clone, Serialize)]
pub struct SectionView {
    pub anchor: String,
    pub benchmark: String,
    pub metric: String,
    pub title: String,
    pub unit: String,
    pub direction: String,
    /// Name of the numeric parameter swept in this section, if any.
    pub sweep_param: Option<String>,
    /// Parameters shared by every row (`datasize=100, fds=40`), or empty.
    pub fixed_params: String,
    pub rows: Vec<VariantRow>,
    /// Which optional columns have anything to show (summaries have no
    /// median, min, max, outliers or trend).
    pub show_median: bool,
    pub show_minmax: bool,
    pub show_runs: bool,
    /// Row numbers (1-based) of this benchmark's comparisons.
    pub comparisons: Vec<usize>,
    pub charts: Vec<ChartView>,
    pub diagnostics: Vec<String>,
}

/// Summary of one variant at one parameter value.
#[derive(Debug, Clone, Serialize)]
pub struct VariantRow {
    pub params: String,
    pub variant: String,
    pub n: String,
    pub mean: Num,
    pub median: Num,
    pub stddev: Num,
    pub cv: Num,
    pub min: Num,
    pub max: Num,
    pub ci: String,
    pub outliers: usize,
    pub trend_p: Num,
    /// `samples` or `summary`.
    pub source: String,
}

/// How the numbers were obtained.
#[derive(Debug, Clone, Serialize)]
pub struct Methods {
    pub tests: Vec<String>,
    pub alpha: String,
    pub threshold: String,
    /// The threshold in percent, for charts.
    pub threshold_pct: f64,
    pub correction: String,
    pub test_choice: String,
    pub assumed_n: String,
    pub bootstrap: String,
    pub n_range: String,
    pub verdict_rules: Vec<String>,
}

/// One input file.
#[derive(Debug, Clone, Serialize)]
pub struct FileView {
    pub path: String,
    pub format: String,
    pub rows: usize,
    pub unread: usize,
    pub note: String,
}

/// The colour-blind-safe Okabe-Ito palette, baseline first.
pub const PALETTE: [&str; 7] = [
    "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#999999",
];

/// The baseline's name: the setting, or the baseline of the first comparison,
/// or the first variant of the first group.
pub fn baseline_name(a: &Analysis) -> String {
    a.settings
        .baseline
        .clone()
        .or_else(|| a.comparisons.first().map(|c| c.baseline.clone()))
        .or_else(|| {
            a.groups
                .first()
                .and_then(|g| g.variants.first())
                .map(|v| v.variant.clone())
        })
        .unwrap_or_else(|| "baseline".into())
}

/// Every variant name, baseline first, then in order of appearance.
pub fn variant_order(a: &Analysis, ctx: &ReportContext) -> Vec<String> {
    let mut out = vec![baseline_name(a)];
    let mut push = |v: &str| {
        if !out.iter().any(|o| o == v) {
            out.push(v.to_string());
        }
    };
    for v in &ctx.variants {
        push(&v.name);
    }
    for g in &a.groups {
        for v in &g.variants {
            push(&v.variant);
        }
    }
    for c in &a.comparisons {
        push(&c.variant);
    }
    out
}

/// Colour of every variant, stable across charts.
pub fn colors(order: &[String]) -> HashMap<String, String> {
    order
        .iter()
        .enumerate()
        .map(|(i, v)| (v.clone(), PALETTE[i % PALETTE.len()].to_string()))
        .collect()
}

/// A lower-case file- and anchor-safe slug.
pub fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let t = out.trim_end_matches('-');
    let t: String = t.chars().take(48).collect();
    if t.is_empty() {
        "x".into()
    } else {
        t
    }
}

/// A group family: one benchmark and metric with all its parameter values.
pub struct Family<'a> {
    pub benchmark: &'a str,
    pub metric: &'a str,
    pub groups: Vec<&'a Group>,
    pub anchor: String,
    pub scale: Scale,
    /// The numeric parameter that varies across the groups, if exactly one does.
    pub sweep: Option<String>,
    /// Parameters every group of the family shares (`k=v,…`), shown once.
    pub fixed: String,
    /// The benchmark, with the metric when the benchmark has several.
    pub name: String,
}

impl Family<'_> {
    /// The parameters of `params` that vary within the family.
    pub fn varying(&self, params: &str) -> String {
        let fixed = parse_params(&self.fixed);
        parse_params(params)
            .into_iter()
            .filter(|kv| !fixed.contains(kv))
            .map(|(k, v)| if k.is_empty() { v } else { format!("{k}={v}") })
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// Splits groups into families in order of first appearance.
pub fn families(a: &Analysis) -> Vec<Family<'_>> {
    let mut out: Vec<Family<'_>> = Vec::new();
    for g in &a.groups {
        match out.iter_mut().find(|f| {
            f.benchmark == g.benchmark && f.metric == g.metric && f.groups[0].unit == g.unit
        }) {
            Some(f) => f.groups.push(g),
            None => out.push(Family {
                benchmark: &g.benchmark,
                metric: &g.metric,
                groups: vec![g],
                anchor: String::new(),
                scale: Scale {
                    factor: 1.0,
                    unit: String::new(),
                },
                sweep: None,
                fixed: String::new(),
                name: String::new(),
            }),
        }
    }
    // Benchmarks measured in several metrics name the metric everywhere.
    let mut metrics_of: HashMap<&str, Vec<&str>> = HashMap::new();
    for f in &out {
        let m = metrics_of.entry(f.benchmark).or_default();
        if !m.contains(&f.metric) {
            m.push(f.metric);
        }
    }
    let multi_metric: HashMap<&str, usize> =
        metrics_of.iter().map(|(b, m)| (*b, m.len())).collect();
    for (i, f) in out.iter_mut().enumerate() {
        let name = if multi_metric.get(f.benchmark).copied().unwrap_or(0) > 1 {
            format!("{} {}", f.benchmark, f.metric)
        } else {
            f.benchmark.to_string()
        };
        f.anchor = format!("b{}-{}", i + 1, slug(&name));
        f.name = name;
        let typical = f
            .groups
            .iter()
            .flat_map(|g| g.variants.iter())
            .filter_map(centre)
            .map(f64::abs)
            .fold(
                f64::NAN,
                |acc: f64, v| if acc.is_nan() { v } else { acc.max(v) },
            );
        f.scale = Scale::for_values(&f.groups[0].unit, typical);
        f.sweep = sweep_param(&f.groups);
        let first = parse_params(&f.groups[0].params);
        f.fixed = first
            .into_iter()
            .filter(|kv| {
                f.groups
                    .iter()
                    .all(|g| parse_params(&g.params).contains(kv))
            })
            .map(|(k, v)| if k.is_empty() { v } else { format!("{k}={v}") })
            .collect::<Vec<_>>()
            .join(",");
    }
    out
}

/// The centre a variant is drawn and scaled at: the median of samples,
/// the mean of a stated summary (which seldom states a median).
pub fn centre(v: &VariantSummary) -> Option<f64> {
    if v.from_summary {
        v.mean
    } else {
        v.median.or(v.mean)
    }
}

/// The variants of a group in report order (baseline first).
pub fn in_order<'a>(vs: &'a [VariantSummary], order: &[String]) -> Vec<&'a VariantSummary> {
    let mut v: Vec<&VariantSummary> = vs.iter().collect();
    v.sort_by_key(|s| {
        order
            .iter()
            .position(|o| o == &s.variant)
            .unwrap_or(usize::MAX)
    });
    v
}

/// Parses `k=v,k2=v2` into pairs.
pub fn parse_params(p: &str) -> Vec<(String, String)> {
    p.split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|kv| match kv.split_once('=') {
            Some((k, v)) => (k.trim().to_string(), v.trim().to_string()),
            None => (String::new(), kv.trim().to_string()),
        })
        .collect()
}

/// The one numeric parameter that varies across `groups` while the others
/// stay fixed; `None` when there is none or several vary.
fn sweep_param(groups: &[&Group]) -> Option<String> {
    if groups.len() < 2 {
        return None;
    }
    let parsed: Vec<Vec<(String, String)>> =
        groups.iter().map(|g| parse_params(&g.params)).collect();
    let keys: Vec<String> = parsed[0].iter().map(|(k, _)| k.clone()).collect();
    let mut varying = Vec::new();
    for k in &keys {
        let vals: Vec<Option<&String>> = parsed
            .iter()
            .map(|ps| ps.iter().find(|(kk, _)| kk == k).map(|(_, v)| v))
            .collect();
        if vals.iter().any(|v| v.is_none()) {
            return None;
        }
        let first = vals[0];
        if vals.iter().any(|v| *v != first) {
            varying.push((k.clone(), vals));
        }
    }
    if varying.len() != 1 {
        return None;
    }
    let (k, vals) = &varying[0];
    vals.iter()
        .all(|v| v.is_some_and(|s| s.parse::<f64>().is_ok_and(f64::is_finite)))
        .then(|| k.clone())
}

/// The value of parameter `key` in `params`, as a number.
pub fn param_value(params: &str, key: &str) -> Option<f64> {
    parse_params(params)
        .into_iter()
        .find(|(k, _)| k == key)
        .and_then(|(_, v)| v.parse().ok())
}

fn verdict_plural(v: Verdict, n: usize) -> String {
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

const VERDICT_ORDER: [Verdict; 6] = [
    Verdict::Regressed,
    Verdict::Improved,
    Verdict::Changed,
    Verdict::Unchanged,
    Verdict::Inconclusive,
    Verdict::Untestable,
];

fn summary(a: &Analysis, findings: &[Finding], suspect_rows: usize) -> Summary {
    let mut counts = Vec::new();
    let mut parts = Vec::new();
    for v in VERDICT_ORDER {
        let n = a.comparisons.iter().filter(|c| c.verdict == v).count();
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
                && (f.code.contains("kconfig")
                    || f.code.contains("config")
                    || f.code.contains("env"))
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

fn test_name(t: TestKind) -> &'static str {
    match t {
        TestKind::MannWhitney => "Mann-Whitney U",
        TestKind::Welch => "Welch t",
        TestKind::WelchSummary => "Welch t (summary)",
        TestKind::None => "none",
    }
}

fn methods(a: &Analysis) -> Methods {
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
fn bootstrap_line(a: &Analysis) -> String {
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
fn bootstrap_words(
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

fn comparison_view(
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

fn opt_num(scale: &Scale, v: Option<f64>) -> Num {
    match v {
        Some(v) => Num::new(Some(scale.value(v)), scale.fmt(v)),
        None => Num::new(None, "n/a".into()),
    }
}

fn section_rows(f: &Family<'_>, order: &[String]) -> Vec<VariantRow> {
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

fn diagnostics(f: &Family<'_>, alpha: f64, order: &[String]) -> Vec<String> {
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
            if let Some(p) = v.trend_p.filter(|p| *p < alpha) {
                drift.push(format!(
                    "{} (Mann-Kendall {})",
                    at(&v.variant),
                    crate::stats::pvalue::p_equals(p)
                ));
            }
            if let Some(cv) = v.cv_pct.filter(|cv| *cv > 10.0) {
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
        let sds: Vec<f64> = g
            .variants
            .iter()
            .filter_map(|v| v.stddev)
            .filter(|s| *s > 0.0)
            .collect();
        if sds.len() >= 2 {
            let hi = sds.iter().cloned().fold(f64::MIN, f64::max);
            let lo = sds.iter().cloned().fold(f64::MAX, f64::min);
            if hi / lo >= 3.0 {
                spread.push(if place.is_empty() {
                    format!("{}x", format::sig(hi / lo))
                } else {
                    format!("{place}: {}x", format::sig(hi / lo))
                });
            }
        }
    }
    let mut out = Vec::new();
    for ((_, v), list) in noisy {
        out.push(format!(
            "{v}: noisy, coefficient of variation above 10% ({}).",
            list.join(", ")
        ));
    }
    if !spread.is_empty() {
        out.push(format!(
            "Standard deviations differ 3-fold or more between variants ({}): compare the spread, not only the centre.",
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
        .filter(|v| v.samples.is_empty())
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
        .any(|g| g.variants.iter().any(|v| !v.samples.is_empty()));
    // One answer for the title and the alt text.
    let bars = Bars::of(summary_only(f));
    charts.push(ChartView {
        kind: "distribution".into(),
        file: format!("{base}-dist.svg"),
        title: format!(
            "{title}: {}{unit}",
            match (has_samples, bars) {
                (true, None) => "distribution of the samples per variant",
                (true, Some(_)) => "distribution of the samples, or the stated mean, per variant",
                (false, Some(Bars::Sd)) => "mean ± stddev per variant",
                (false, Some(Bars::Mixed)) => "mean with 95% interval or ± stddev per variant",
                (false, Some(Bars::Ci)) => "mean with 95% interval per variant",
                // Neither an interval nor a spread was stated: no bars.
                (false, None) => "mean per variant",
            }
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
        height: distribution_height(f.groups.iter().map(|g| g.variants.len()).sum()),
    });
    if let Some(k) = &f.sweep {
        charts.push(ChartView {
            kind: "sweep".into(),
            file: format!("{base}-sweep.svg"),
            title: format!("{title}{unit} vs {k}, per variant"),
            alt: format!(
                "Line chart of the centre of {title} against {k} per variant, with error bars"
            ),
            width: CHART_WIDTH,
            height: SWEEP_HEIGHT,
        });
    }
    if f.groups
        .iter()
        .any(|g| g.variants.iter().any(|v| v.samples.len() >= 3))
    {
        charts.push(ChartView {
            kind: "runs".into(),
            file: format!("{base}-runs.svg"),
            title: format!("{title}{unit} in run order (drift)"),
            alt: format!("Samples of {title} in the order they were measured, per variant"),
            width: CHART_WIDTH,
            height: RUNS_HEIGHT,
        });
    }
    charts
}

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
            let number = match notes.iter().find(|x| x.text == n.text) {
                Some(x) => x.number,
                None => {
                    notes.push(NoteView {
                        number: notes.len() + 1,
                        text: n.text.clone(),
                    });
                    notes.len()
                }
            };
            c.note_refs.push(number);
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
                diagnostics: diagnostics(f, a.settings.alpha, &order),
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

    let finding_views: Vec<FindingView> = findings
        .iter()
        .map(|f| FindingView {
            severity: f.severity.to_string(),
            code: f.code.clone(),
            title: f.title.clone(),
            evidence: f.evidence.clone(),
            advice: f.advice.clone(),
        })
        .collect();
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
                unread: f.unread_numeric.len(),
                note: f.note.clone().unwrap_or_default(),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{Settings, VariantSummary};
    use crate::model::Direction;

    fn group(b: &str, params: &str, unit: &str) -> Group {
        let v = |name: &str| VariantSummary {
            variant: name.into(),
            n: Some(5),
            mean: Some(2.0),
            median: None,
            stddev: Some(0.1),
            min: None,
            max: None,
            cv_pct: Some(5.0),
            ci_low: None,
            ci_high: None,
            samples: vec![],
            from_summary: true,
            outliers: 0,
            trend_p: None,
        };
        Group {
            benchmark: b.into(),
            params: params.into(),
            metric: "time".into(),
            unit: unit.into(),
            direction: Direction::Lower,
            variants: vec![v("base"), v("new")],
        }
    }

    #[test]
    fn one_rule_says_what_bars_show() {
        let g = group("futex", "", "ms");
        let sd = g.variants[0].clone();
        let mut ci = sd.clone();
        (ci.ci_low, ci.ci_high) = (Some(1.9), Some(2.1));
        let mut none = sd.clone();
        none.stddev = None;
        assert_eq!(Bars::of([&ci, &ci]), Some(Bars::Ci));
        assert_eq!(Bars::of([&sd, &none]), Some(Bars::Sd));
        assert_eq!(Bars::of([&ci, &sd]), Some(Bars::Mixed));
        assert_eq!(Bars::of([&none]), None);
        assert_eq!(bar(&sd, 2.0), (1.9, 2.1, true));
        assert_eq!(bar(&ci, 2.0), (1.9, 2.1, false));
        // The section title follows the same rule as the chart's axis note.
        let a = Analysis {
            groups: vec![g],
            ..Default::default()
        };
        let f = families(&a);
        let charts = section_chart_views(&f[0], "futex");
        assert!(
            charts[0].title.contains("mean ± stddev per variant"),
            "{}",
            charts[0].title
        );
        // Nothing stated around the mean: the title promises no bars.
        let mut bare = a.clone();
        for v in &mut bare.groups[0].variants {
            v.stddev = None;
        }
        let f = families(&bare);
        let charts = section_chart_views(&f[0], "futex");
        assert!(
            charts[0].title.contains(": mean per variant"),
            "{}",
            charts[0].title
        );
    }

    #[test]
    fn the_methods_name_the_seed_only_when_something_was_resampled() {
        let with = |methods: &[Option<IntervalMethod>]| {
            let a = Analysis {
                comparisons: methods
                    .iter()
                    .map(|&interval| Comparison {
                        interval,
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            };
            bootstrap_line(&a)
        };
        let (e, r, d) = (
            Some(IntervalMethod::Exact),
            Some(IntervalMethod::Resampled),
            Some(IntervalMethod::Delta),
        );
        let seed = Settings::default().seed.to_string();
        assert_eq!(with(&[d, None]), "not used");
        let exact = with(&[e, e, d]);
        assert!(
            exact.starts_with("exact") && exact.contains("no resampling"),
            "{exact}"
        );
        assert!(!exact.contains(&seed), "{exact}");
        let resampled = with(&[r, None]);
        assert_eq!(resampled, format!("10000 resamples, seed {seed}"));
        let mixed = with(&[e, e, r]);
        assert!(
            mixed.contains("(2 intervals)") && mixed.contains("(1 interval)"),
            "{mixed}"
        );
        assert!(mixed.contains(&seed), "{mixed}");
    }

    #[test]
    fn families_sweep_and_shared_parameters() {
        let a = Analysis {
            groups: vec![
                group("futex", "mode=x,threads=32", "ms"),
                group("futex", "mode=x,threads=64", "ms"),
                group("futex", "mode=x,threads=128", "ms"),
                group("futex", "mode=x,threads=256", "us"),
                group("other", "k=a", "ms"),
                group("other", "k=b", "ms"),
            ],
            ..Default::default()
        };
        let f = families(&a);
        // A group in another unit is its own family, never mixed on one axis.
        assert_eq!(f.len(), 3);
        assert_eq!(f[0].groups.len(), 3);
        assert_eq!(f[0].sweep.as_deref(), Some("threads"));
        assert_eq!(f[0].fixed, "mode=x");
        assert_eq!(f[0].varying("mode=x,threads=64"), "threads=64");
        assert_eq!(f[2].sweep, None, "non-numeric parameters do not sweep");
        assert_eq!(f[0].anchor, "b1-futex");
        assert_eq!(param_value("mode=x,threads=64", "threads"), Some(64.0));
    }

    #[test]
    fn slugs_and_reflow() {
        assert_eq!(slug("<script>alert(1)</script>"), "script-alert-1-script");
        assert_eq!(slug("???"), "x");
        assert_eq!(reflow("a\nb\n\n c  d \n"), "a b\n\nc d");
    }
}
