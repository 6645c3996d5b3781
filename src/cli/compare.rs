//! `patchperf compare BASE PATCHED [MORE…]`: read each argument as a variant,
//! analyse, print a benchstat-like table per benchmark, write `--json`, and
//! gate on regressions with the exit code.

use crate::analysis::{
    baseline_name, load_and_analyze as analyze_paths, trips_gate, Analysis, Center, Comparison,
    Correction, Filter, Group, LoadOptions, NoteKind, Settings, TestChoice, Verdict,
};
use crate::error::{Error, Result};
use crate::ingest::Ingested;
use crate::model::{Direction, Finding, Severity};
use crate::stats::format_p;
use crate::stats::pvalue::is_bound;
use clap::Args;
use hashbrown::HashMap;
use owo_colors::OwoColorize;
use rayon::prelude::*;
use serde::Serialize;
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

/// Arguments of `patchperf compare`.
#[derive(Debug, Clone, Args)]
pub struct CompareArgs {
    /// Baseline first, then the other variants: files, folders or globs. Each
    /// argument is one variant named after it; a single file holding several
    /// variants (an e-mail table) also works alone; `-` reads standard input.
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// The variant the others are compared with (default: the first).
    #[arg(long, value_name = "NAME")]
    pub baseline: Option<String>,
    /// Significance level, applied to the corrected p-values.
    #[arg(long, default_value_t = 0.05, value_name = "A")]
    pub alpha: f64,
    /// Smallest change that matters (`2%` or `2`): the equivalence margin and
    /// the regression gate.
    #[arg(long, default_value = "2%", value_parser = parse_percent, value_name = "PCT")]
    pub threshold: f64,
    /// Test on raw samples: auto (Mann-Whitney U), mwu, or welch.
    #[arg(long, default_value = "auto", value_parser = parse_test, value_name = "auto|mwu|welch")]
    pub test: TestChoice,
    /// n per side for summary tables that do not state it.
    #[arg(long, value_name = "N")]
    pub assume_n: Option<u64>,
    /// Multiple-comparison correction over all comparisons.
    #[arg(long, default_value = "bh", value_parser = parse_correction, value_name = "bh|holm|none")]
    pub correction: Correction,
    /// Seed of the bootstrap (results are reproducible for a seed).
    #[arg(long, default_value_t = Settings::default().seed)]
    pub seed: u64,
    /// Bootstrap resamples per comparison.
    #[arg(long, default_value_t = Settings::default().resamples, value_name = "N")]
    pub resamples: usize,
    /// Which way is better for a metric, overriding the input and the guess
    /// from its name and unit: `--direction tps=higher` (repeatable).
    #[arg(long, value_name = "METRIC=lower|higher", value_parser = parse_direction)]
    pub direction: Vec<(String, Direction)>,
    /// Select values: `block~rerun` (a document table by its heading),
    /// `threads>=64`, `variant=patched`, `metric=real`; conditions joined by
    /// `,` or `&&`; operators = != ~ !~ < <= > >=.
    #[arg(long, value_name = "EXPR")]
    pub filter: Option<String>,
    /// Write the comparisons and findings as JSON to PATH (`-`: stdout only).
    #[arg(long, value_name = "PATH|-")]
    pub json: Option<String>,
    /// Exit 1 when any comparison regressed by at least the threshold.
    #[arg(long)]
    pub fail_on_regression: bool,
    /// Read every input with this format instead of detecting it.
    #[arg(long, value_name = "NAME")]
    pub format: Option<String>,
    /// Map a CSV/JSON column to a tidy field (`--map ms=value`), as `ingest --map`; repeatable.
    #[arg(long = "map", value_name = "COLUMN=FIELD")]
    pub map: Vec<String>,
    /// Read files with a user-defined extractor (TOML, see examples/extractors/); repeatable.
    #[arg(long = "extractor", value_name = "FILE")]
    pub extractor: Vec<PathBuf>,
    /// Names for the variants, in argument order (`base,patched`).
    #[arg(long, value_delimiter = ',', value_name = "A,B,…")]
    pub variant_names: Vec<String>,
    /// Colours: auto (a terminal without NO_COLOR), always, never.
    #[arg(long, default_value = "auto", value_name = "auto|always|never",
          value_parser = ["auto", "always", "never"])]
    pub color: String,
    /// Kernel configs of the baseline and patched builds, checked for options
    /// that distort benchmarks (default: `*.config` found in variant folders).
    #[arg(long, num_args = 2, value_names = ["BASE", "PATCHED"])]
    pub kconfig: Vec<PathBuf>,
    /// Environment snapshots (`patchperf snapshot`) or capture folders of the
    /// baseline and patched systems (default: those found in variant folders).
    #[arg(long, num_args = 2, value_names = ["BASE", "PATCHED"])]
    pub env: Vec<PathBuf>,
    /// Kernel option rules file replacing the built-in one.
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
    /// Also write the report as one self-contained HTML file (as `patchperf report`).
    #[arg(long, value_name = "PATH")]
    pub html: Option<PathBuf>,
    /// Also write the report as PDF.
    #[arg(long, value_name = "PATH")]
    pub pdf: Option<PathBuf>,
    /// Also write the report as Markdown (pull-request comments).
    #[arg(long, value_name = "PATH")]
    pub md: Option<PathBuf>,
    /// Also write the report as plain text wrapped at 72 columns (e-mail replies).
    #[arg(long, value_name = "PATH")]
    pub txt: Option<PathBuf>,
}

pub(crate) fn parse_percent(s: &str) -> std::result::Result<f64, String> {
    let t = s.trim().trim_end_matches('%').trim();
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("`{s}` is not a percentage ≥ 0 (e.g. 2%)")),
    }
}

fn parse_test(s: &str) -> std::result::Result<TestChoice, String> {
    match s.to_ascii_lowercase().as_str() {
        "auto" => Ok(TestChoice::Auto),
        "mwu" | "mann-whitney" | "u" => Ok(TestChoice::Mwu),
        "welch" | "t" => Ok(TestChoice::Welch),
        _ => Err(format!("unknown test `{s}` (auto, mwu, welch)")),
    }
}

fn parse_correction(s: &str) -> std::result::Result<Correction, String> {
    match s.to_ascii_lowercase().as_str() {
        "bh" | "fdr" => Ok(Correction::Bh),
        "holm" => Ok(Correction::Holm),
        "none" => Ok(Correction::None),
        _ => Err(format!("unknown correction `{s}` (bh, holm, none)")),
    }
}

pub(crate) fn parse_direction(s: &str) -> Result<(String, Direction), String> {
    let (metric, dir) = s
        .rsplit_once('=')
        .ok_or_else(|| format!("`{s}`: expected METRIC=lower or METRIC=higher"))?;
    Ok((metric.trim().to_string(), dir.parse()?))
}

impl CompareArgs {
    /// The analysis settings these flags ask for.
    pub fn settings(&self) -> Settings {
        Settings {
            baseline: self
                .baseline
                .as_deref()
                .map(|b| baseline_name(&self.inputs, &self.load_options(), b)),
            alpha: self.alpha,
            threshold_pct: self.threshold,
            correction: self.correction,
            test: self.test,
            assume_n: self.assume_n,
            seed: self.seed,
            resamples: self.resamples,
            directions: self.direction.iter().cloned().collect(),
        }
    }

    /// How the inputs are read and named.
    pub fn load_options(&self) -> LoadOptions {
        LoadOptions {
            format: self.format.clone(),
            variant_names: self.variant_names.clone(),
            map: self.map.clone(),
            extractors: self.extractor.clone(),
        }
    }
}

/// Reads the inputs and analyses them exactly as `compare` does; the report
/// commands reuse it so that every output shows the same numbers.
pub fn load_and_analyze(args: &CompareArgs) -> Result<(Ingested, Analysis)> {
    let filter = args.filter.as_deref().map(Filter::parse).transpose()?;
    let (ingested, mut analysis) = analyze_paths(
        &args.inputs,
        &args.load_options(),
        filter.as_ref(),
        &args.settings(),
    )?;
    // Config, environment and statistical-signature checks, errors first.
    let checks = crate::checks::inputs_for_compare(
        &args.inputs,
        &args.kconfig,
        &args.env,
        args.rules.clone(),
    )?;
    crate::checks::attach_findings(&mut analysis, &checks)?;
    if let Some(f) = generic_read_finding(&ingested) {
        analysis.findings.push(f);
        analysis.findings.sort_by_key(|f| f.severity);
    }
    Ok((ingested, analysis))
}

/// A finding when some values come from the generic `label: value` reader:
/// no importer vouches for what those numbers mean.
fn generic_read_finding(ingested: &Ingested) -> Option<crate::model::Finding> {
    let files: Vec<&str> = ingested
        .files
        .iter()
        .filter(|f| {
            f.rows > 0 && f.format.as_deref() == Some(crate::ingest::formats::generic::NAME)
        })
        .map(|f| f.path.as_str())
        .collect();
    if files.is_empty() {
        return None;
    }
    let shown: Vec<&str> = files.iter().take(5).copied().collect();
    let more = files.len().saturating_sub(shown.len());
    let evidence = if more > 0 {
        format!("{} and {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    };
    Some(crate::model::Finding::new(
        crate::model::Severity::Warning,
        "generic-read",
        format!(
            "{} input file(s) were read generically, as `label: value` lines",
            files.len()
        ),
        evidence,
        "No importer knows these files: check that each label is one measured quantity \
         (not a setting) before trusting a verdict on it, or read them with --format NAME \
         or --extractor FILE",
    ))
}

/// Writes `--html/--pdf/--md/--txt` with the renderers of `patchperf
/// report`, so that every file shows the same numbers.
fn write_reports(args: &CompareArgs, ingested: &Ingested, analysis: &Analysis) -> Result<()> {
    use crate::report::{write_file, OutputFormat, ReportContext};
    let wanted = [
        (OutputFormat::Html, &args.html),
        (OutputFormat::Pdf, &args.pdf),
        (OutputFormat::Md, &args.md),
        (OutputFormat::Txt, &args.txt),
    ];
    if wanted.iter().all(|(_, p)| p.is_none()) {
        return Ok(());
    }
    let ctx =
        ReportContext::for_compare(&args.inputs, &ingested.files, &ingested.dataset.variants());
    for (format, path) in wanted {
        if let Some(p) = path {
            write_file(analysis, &ctx, format, p, None)?;
        }
    }
    Ok(())
}

/// Runs `compare`; exit code 1 when `--fail-on-regression` trips.
pub fn run(args: CompareArgs) -> Result<u8> {
    let (ingested, analysis) = load_and_analyze(&args)?;
    if args.fail_on_regression && analysis.comparisons.is_empty() {
        // A gate that compared nothing has checked nothing: never a pass.
        return Err(Error::Usage(format!(
            "0 comparisons: the variants never share a benchmark, so --fail-on-regression \
             has nothing to gate on. Seen per variant: {}",
            benchmarks_per_variant(&ingested)
        )));
    }
    warn_unread(&ingested);
    write_reports(&args, &ingested, &analysis)?;
    let threshold = analysis.settings.threshold_pct;
    let tripped = analysis
        .comparisons
        .iter()
        .filter(|c| trips_gate(c, threshold))
        .count();
    write_outputs(&args, ingested, analysis)?;
    if args.fail_on_regression && tripped > 0 {
        eprintln!(
            "patchperf: {tripped} comparison{} regressed by ≥ {threshold}%: failing (--fail-on-regression)",
            if tripped == 1 { "" } else { "s" }
        );
        return Ok(1);
    }
    Ok(0)
}

/// `variant: bench, bench; variant: …` for the message of a gate that has
/// nothing to compare (a few names each).
fn benchmarks_per_variant(ingested: &Ingested) -> String {
    let mut seen: Vec<(String, Vec<String>)> = Vec::new();
    for o in ingested.dataset.rows() {
        let i = match seen.iter().position(|(v, _)| v == o.variant.as_str()) {
            Some(i) => i,
            None => {
                seen.push((o.variant.to_string(), Vec::new()));
                seen.len() - 1
            }
        };
        let name = if o.params.is_empty() {
            o.benchmark.to_string()
        } else {
            format!("{} ({})", o.benchmark, o.params)
        };
        if !seen[i].1.contains(&name) {
            seen[i].1.push(name);
        }
    }
    seen.iter()
        .map(|(v, b)| {
            let more = b.len().saturating_sub(5);
            let mut list = b.iter().take(5).cloned().collect::<Vec<_>>().join(", ");
            if more > 0 {
                list.push_str(&format!(" and {more} more"));
            }
            format!("`{v}`: {list}")
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Rows from which a run counts as large: its inputs and analysis are freed
/// on the pool (as `analysis` groups rows on it from this size on).
const PARALLEL_ROWS: usize = 50_000;

/// Writes `--json` (built only when asked for), then the terminal output
/// unless the JSON goes to stdout. Freeing a large run's rows and analysis
/// costs tens of millions of instructions: the pool frees the inputs while
/// the outputs are built, and the analysis while they are written, instead
/// of this thread after them.
fn write_outputs(args: &CompareArgs, ingested: Ingested, analysis: Analysis) -> Result<()> {
    let json_to_stdout = args.json.as_deref() == Some("-");
    let color = match args.color.as_str() {
        "always" => true,
        "never" => false,
        _ => {
            std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    };
    let serial = ingested.dataset.len() < PARALLEL_ROWS;
    let ((), (json, text)) = both(
        serial,
        move || drop(ingested),
        || {
            both(
                serial,
                || args.json.as_ref().map(|_| to_json(&analysis)).transpose(),
                || (!json_to_stdout).then(|| render(&analysis, color)),
            )
        },
    );
    let json = json?;
    let write = || -> Result<()> {
        match (args.json.as_deref(), &json) {
            (Some("-"), Some(json)) => {
                let mut out = std::io::stdout().lock();
                json.write_to(&mut out)
                    .map_err(|e| Error::io("<stdout>", e))?;
            }
            (Some(path), Some(json)) => {
                std::fs::File::create(path)
                    .and_then(|mut f| json.write_to(&mut f))
                    .map_err(|e| Error::io(path, e))?;
            }
            _ => {}
        }
        if let Some(text) = &text {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())
                .map_err(|e| Error::io("<stdout>", e))?;
        }
        Ok(())
    };
    let ((), written) = both(serial, move || drop(analysis), write);
    written
}

/// Tells on stderr about inputs nothing was read from, and sums up the
/// numeric-looking lines no format read (`patchperf ingest` lists them).
fn warn_unread(ing: &Ingested) {
    let mut partial = 0;
    let mut lines = 0;
    for f in &ing.files {
        if f.format.is_none() {
            eprintln!(
                "patchperf: {}: not read: {}",
                f.path,
                f.note.as_deref().unwrap_or("unknown format")
            );
        } else if !f.unread_numeric.is_empty() {
            partial += 1;
            lines += f.unread_numeric.len();
        }
    }
    if partial > 0 {
        eprintln!(
            "patchperf: {lines} numeric-looking lines in {partial} file(s) were not read as values \
             (`patchperf ingest FILE` lists them)"
        );
    }
}

/// One comparison in the `--json` schema (README, "compare --json").
#[derive(Debug, Serialize)]
pub struct JsonComparison<'a> {
    pub benchmark: &'a str,
    pub params: &'a str,
    pub metric: &'a str,
    pub unit: &'a str,
    pub direction: Direction,
    pub baseline: &'a str,
    pub variant: &'a str,
    pub n_baseline: Option<u64>,
    pub n_variant: Option<u64>,
    pub baseline_center: Option<f64>,
    pub variant_center: Option<f64>,
    pub center: Center,
    pub change_pct: Option<f64>,
    pub ci_low_pct: Option<f64>,
    pub ci_high_pct: Option<f64>,
    pub interval: Option<crate::analysis::IntervalMethod>,
    pub test: crate::analysis::TestKind,
    pub p_value: Option<f64>,
    pub q_value: Option<f64>,
    pub effect_size: Option<f64>,
    pub min_detectable_pct: Option<f64>,
    pub n_needed: Option<u64>,
    pub verdict: Verdict,
}

/// The whole `--json` document.
#[derive(Debug, Serialize)]
pub struct JsonReport<'a> {
    pub comparisons: Vec<JsonComparison<'a>>,
    pub findings: &'a [Finding],
}

fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

impl<'a> JsonComparison<'a> {
    /// A comparison as the `--json` schema shows it: non-finite numbers
    /// become null.
    pub fn of(c: &'a Comparison) -> Self {
        JsonComparison {
            benchmark: &c.benchmark,
            params: &c.params,
            metric: &c.metric,
            unit: &c.unit,
            direction: c.direction,
            baseline: &c.baseline,
            variant: &c.variant,
            n_baseline: c.n_baseline,
            n_variant: c.n_variant,
            baseline_center: finite(c.baseline_center),
            variant_center: finite(c.variant_center),
            center: c.center,
            change_pct: finite(c.change_pct),
            ci_low_pct: c.ci_low_pct.and_then(finite),
            ci_high_pct: c.ci_high_pct.and_then(finite),
            interval: c.interval,
            test: c.test,
            p_value: c.p_value,
            q_value: c.q_value,
            effect_size: c.effect_size.and_then(finite),
            min_detectable_pct: c.min_detectable_pct.and_then(finite),
            n_needed: c.n_needed,
            verdict: c.verdict,
        }
    }
}

impl<'a> JsonReport<'a> {
    /// The whole document as one value.
    pub fn of(a: &'a Analysis) -> Self {
        JsonReport {
            comparisons: a.comparisons.iter().map(JsonComparison::of).collect(),
            findings: &a.findings,
        }
    }
}

/// The `--json` document of an analysis: the bytes of [`JsonReport`]
/// pretty-printed by serde_json, with a final newline. The comparisons (a
/// lab's run has thousands) are serialised on all threads, in pieces
/// written in order; the fields are those of [`JsonReport`], in its order.
pub fn to_json(a: &Analysis) -> Result<crate::report::json::Pieces> {
    let mut doc = crate::report::json::Pieces::new();
    doc.push_raw(b"{\n  \"comparisons\": ");
    doc.push_array(&a.comparisons, 1, JsonComparison::of)?;
    doc.push_raw(b",\n  \"findings\": ");
    doc.push_value(&a.findings, 1)?;
    doc.push_raw(b"\n}\n");
    Ok(doc)
}

/// A number with about four significant digits.
fn sig(v: f64) -> String {
    if !v.is_finite() {
        return "?".into();
    }
    let a = v.abs();
    if a != 0.0 && !(1e-3..1e6).contains(&a) {
        return format!("{v:.3e}");
    }
    let mag = if a == 0.0 {
        0
    } else {
        a.log10().floor() as i32
    };
    let decimals = (3 - mag).clamp(0, 6) as usize;
    format!("{v:.decimals$}")
}

fn pct(v: f64) -> String {
    if !v.is_finite() {
        return "n/a".into();
    }
    if v.abs() >= 100.0 {
        format!("{v:+.0}%")
    } else {
        format!("{v:+.1}%")
    }
}

struct Row {
    cells: Vec<String>,
    /// Colour of the change and verdict cells: Some(true) good, Some(false) bad.
    good: Option<bool>,
    verdict: Option<Verdict>,
}

/// Comparisons by (benchmark, params, metric), in analysis order.
type CompsOf<'a> = HashMap<(&'a str, &'a str, &'a str), Vec<&'a Comparison>>;

/// The rows of one group as the table shows them: the baseline first, then
/// each other variant, with the comparison it belongs to.
fn group_rows<'a>(
    g: &'a Group,
    comps: &[&'a Comparison],
) -> Vec<(&'a crate::analysis::VariantSummary, Option<&'a Comparison>)> {
    let base_name = comps.first().map(|c| c.baseline.as_str());
    let mut v: Vec<_> = g.variants.iter().collect();
    if let Some(b) = base_name {
        v.sort_by_key(|s| s.variant != b);
    }
    v.into_iter()
        .map(|vs| {
            let comp = comps.iter().find(|c| c.variant == vs.variant).copied();
            (vs, comp)
        })
        .collect()
}

/// Whether the verdict cell of `c` shows the runs needed (`n≥N`), and the
/// notes its footnote marks point to (the one the cell already says left out).
fn cell_notes(c: &Comparison) -> (bool, impl Iterator<Item = &str>) {
    let shown_n = (c.verdict == Verdict::Untestable || c.verdict == Verdict::Inconclusive)
        && c.n_needed.is_some();
    let notes = c
        .notes
        .iter()
        .filter(move |n| !(shown_n && n.kind == NoteKind::SignificantIfN))
        .map(|n| n.text.as_str());
    (shown_n, notes)
}

/// Renders the terminal output: one table per (benchmark, metric), footnotes,
/// findings and the summary line.
pub fn render(a: &Analysis, color: bool) -> String {
    let mut out = String::new();
    // A broken comparison must be seen before its numbers: every finding,
    // errors first, comes above the tables.
    out.push_str(&render_findings(a, color));
    // Tables in order of first appearance of (benchmark, metric), and the
    // comparisons of each group: both indexes are built once, side by side,
    // because a lab's run has thousands of groups.
    let (tables, comps_of) = both(
        a.groups.len() < SERIAL_TABLES,
        || tables_of(&a.groups),
        || comps_of(a),
    );
    let small = tables.len() < SERIAL_TABLES;
    // Footnotes are numbered in order of first appearance over all tables:
    // each table lists the notes its cells point to, in order, on all
    // threads; they are numbered here in one pass, so that the tables can be
    // laid out in parallel and joined in order.
    let listed: Vec<TableNotes> = if small {
        tables
            .iter()
            .map(|t| table_notes(&t.1, &comps_of))
            .collect()
    } else {
        tables
            .par_iter()
            .map(|t| table_notes(&t.1, &comps_of))
            .collect()
    };
    let mut notes: Vec<&str> = Vec::new();
    let mut note_no: HashMap<&str, usize> = HashMap::new();
    let mut legend_n = false;
    for t in &listed {
        legend_n |= t.shown_n;
        for &n in &t.notes {
            note_no.entry(n).or_insert_with(|| {
                notes.push(n);
                notes.len()
            });
        }
    }
    // A few tables are laid out on this thread: waking the pool for them
    // costs more than the work.
    let lay_out = |(key, groups): &Table| render_table(*key, groups, &comps_of, &note_no, color);
    let laid_out: Vec<String> = if small {
        tables.iter().map(lay_out).collect()
    } else {
        tables.par_iter().map(lay_out).collect()
    };
    out.reserve(laid_out.iter().map(String::len).sum::<usize>());
    for t in laid_out {
        out.push_str(&t);
    }
    if legend_n {
        let _ = writeln!(
            out,
            "n≥N: runs per side needed (inconclusive: to detect a {}% change with 80% power; \
             untestable: for the observed difference to reach p < {})",
            a.settings.threshold_pct, a.settings.alpha
        );
    }
    for (i, n) in notes.iter().enumerate() {
        let _ = writeln!(out, "[{}] {n}", i + 1);
    }
    if legend_n || !notes.is_empty() {
        out.push('\n');
    }
    out.push_str(&summary_line(a));
    out.push('\n');
    out
}

/// Fewer groups than this are rendered on the calling thread: waking the
/// pool costs more than the work.
const SERIAL_TABLES: usize = 64;

/// A (benchmark, metric) table: its key and its groups in analysis order.
type Table<'a> = ((&'a str, &'a str), Vec<&'a Group>);

/// `(f(), g())`, side by side on the pool unless `serial`.
fn both<A: Send, B: Send>(
    serial: bool,
    f: impl FnOnce() -> A + Send,
    g: impl FnOnce() -> B + Send,
) -> (A, B) {
    if serial {
        (f(), g())
    } else {
        rayon::join(f, g)
    }
}

/// The groups by (benchmark, metric), tables in order of first appearance.
fn tables_of(groups: &[Group]) -> Vec<Table<'_>> {
    let mut tables: Vec<Table> = Vec::new();
    let mut table_of: HashMap<(&str, &str), usize> = HashMap::new();
    for g in groups {
        let key = (g.benchmark.as_str(), g.metric.as_str());
        let i = *table_of.entry(key).or_insert_with(|| {
            tables.push((key, Vec::new()));
            tables.len() - 1
        });
        tables[i].1.push(g);
    }
    tables
}

/// The comparisons of each (benchmark, params, metric), in analysis order.
fn comps_of(a: &Analysis) -> CompsOf<'_> {
    let mut comps_of: CompsOf = HashMap::new();
    for c in &a.comparisons {
        comps_of
            .entry((c.benchmark.as_str(), c.params.as_str(), c.metric.as_str()))
            .or_default()
            .push(c);
    }
    comps_of
}

/// What a table's cells say beyond their numbers.
struct TableNotes<'a> {
    /// Whether a verdict cell shows the runs needed (`n≥N`, explained once).
    shown_n: bool,
    /// The notes the cells point to, in order (a note repeated in the next
    /// cell listed once).
    notes: Vec<&'a str>,
}

/// The notes of one table's cells, in the order [`render_table`] marks them.
fn table_notes<'a>(groups: &[&'a Group], comps_of: &CompsOf<'a>) -> TableNotes<'a> {
    let mut t = TableNotes {
        shown_n: false,
        notes: Vec::new(),
    };
    for g in groups {
        for (_, comp) in group_rows(g, comps_for(comps_of, g)) {
            let Some(c) = comp else { continue };
            let (shown_n, cell) = cell_notes(c);
            t.shown_n |= shown_n;
            for n in cell {
                if t.notes.last() != Some(&n) {
                    t.notes.push(n);
                }
            }
        }
    }
    t
}

fn comps_for<'a, 'm>(comps_of: &'m CompsOf<'a>, g: &'a Group) -> &'m [&'a Comparison] {
    comps_of
        .get(&(g.benchmark.as_str(), g.params.as_str(), g.metric.as_str()))
        .map_or(&[], |v| v.as_slice())
}

/// One (benchmark, metric) table with its heading and a blank line after
/// it; footnote marks use the numbers of `note_no`.
fn render_table<'a>(
    (bench, metric): (&str, &str),
    groups: &[&'a Group],
    comps_of: &CompsOf<'a>,
    note_no: &HashMap<&str, usize>,
    color: bool,
) -> String {
    let mut out = String::new();
    let Some(first) = groups.first() else {
        return out;
    };
    let dir = first
        .direction
        .phrase()
        .map(|p| format!(", {p}"))
        .unwrap_or_default();
    let unit = if first.unit.is_empty() {
        String::new()
    } else {
        first.unit.clone()
    };
    let head = format!(
        "{bench}{} ({}{dir})",
        if metric.is_empty() || metric == bench {
            String::new()
        } else {
            format!(" · {metric}")
        },
        if unit.is_empty() {
            "no unit".to_string()
        } else {
            unit
        }
    );
    out.push_str(&if color { head.bold().to_string() } else { head });
    out.push('\n');
    let with_params = groups.iter().any(|g| !g.params.is_empty());
    let mut rows: Vec<Row> = vec![Row {
        cells: [
            "params",
            "variant",
            "n",
            "centre",
            "±95%",
            "change",
            "95% CI of change",
            "p",
            "q",
            "verdict",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
        good: None,
        verdict: None,
    }];
    for g in groups {
        let comps = comps_for(comps_of, g);
        let mut first_row = true;
        for (vs, comp) in group_rows(g, comps) {
            let center = comp.map(|c| c.center).or(comps.first().map(|c| c.center));
            let value = match center {
                Some(Center::Median) => vs.median.or(vs.mean),
                _ => vs.mean.or(vs.median),
            };
            let spread = match (value, vs.ci_low, vs.ci_high) {
                (Some(c), Some(l), Some(h))
                    if c != 0.0 && (vs.from_summary == (center != Some(Center::Median))) =>
                {
                    format!(
                        "±{:.1}%",
                        100.0 * (h - c).abs().max((c - l).abs()) / c.abs()
                    )
                }
                _ => String::new(),
            };
            let mut cells = vec![
                if first_row && with_params {
                    g.params.clone()
                } else {
                    String::new()
                },
                vs.variant.clone(),
                crate::report::format::count(vs.n),
                value.map(sig).unwrap_or_else(|| "?".into()),
                spread,
            ];
            first_row = false;
            match comp {
                None => {
                    cells.extend(std::iter::repeat_n(String::new(), 5));
                    rows.push(Row {
                        cells,
                        good: None,
                        verdict: None,
                    });
                }
                Some(c) => {
                    let ci = match (c.ci_low_pct, c.ci_high_pct) {
                        (Some(l), Some(h)) => format!("[{}, {}]", pct(l), pct(h)),
                        _ => String::new(),
                    };
                    let mut verdict = c.verdict.as_str().to_string();
                    let (shown_n, cell) = cell_notes(c);
                    if shown_n {
                        if let Some(n) = c.n_needed {
                            verdict.push_str(&format!(" (n≥{n})"));
                        }
                    }
                    let refs: Vec<String> = cell
                        .map(|n| note_no.get(n).copied().unwrap_or(0).to_string())
                        .collect();
                    if !refs.is_empty() {
                        verdict.push_str(&format!(" [{}]", refs.join(",")));
                    }
                    cells.extend([
                        pct(c.change_pct),
                        ci,
                        c.p_value.map(format_p).unwrap_or_else(|| "–".into()),
                        match (c.p_value, c.q_value) {
                            // q computed from a p at the floor is a bound too.
                            (Some(p), Some(q)) if is_bound(p) && !is_bound(q) => {
                                format!("< {}", format_p(q))
                            }
                            (_, Some(q)) => format_p(q),
                            _ => "–".into(),
                        },
                        verdict,
                    ]);
                    let good = match c.verdict {
                        Verdict::Improved => Some(true),
                        Verdict::Regressed => Some(false),
                        _ => None,
                    };
                    rows.push(Row {
                        cells,
                        good,
                        verdict: Some(c.verdict),
                    });
                }
            }
        }
    }
    if !with_params {
        for r in rows.iter_mut() {
            r.cells.remove(0);
        }
    }
    let ncol = rows[0].cells.len();
    let widths: Vec<usize> = (0..ncol)
        .map(|i| {
            rows.iter()
                .map(|r| r.cells[i].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for (ri, r) in rows.iter().enumerate() {
        let mut line = String::from(" ");
        for (i, cell) in r.cells.iter().enumerate() {
            let w = widths[i];
            let numeric = (2..ncol - 1).contains(&i) && ri > 0;
            let padded = if numeric && i != ncol - 3 && i != ncol - 4 {
                format!("{cell:>w$}")
            } else {
                format!("{cell:<w$}")
            };
            let is_change = i == ncol - 5 || i == ncol - 1;
            let styled = if !color || ri == 0 {
                padded
            } else if is_change && r.good == Some(true) {
                padded.green().to_string()
            } else if is_change && r.good == Some(false) {
                padded.red().to_string()
            } else if i == ncol - 1 && r.verdict == Some(Verdict::Changed) {
                padded.yellow().to_string()
            } else {
                padded
            };
            line.push(' ');
            line.push_str(&styled);
            line.push(' ');
        }
        let line = line.trim_end().to_string();
        out.push_str(&if color && ri == 0 {
            line.dimmed().to_string()
        } else {
            line
        });
        out.push('\n');
    }
    out.push('\n');
    out
}

/// The findings, errors first, each with its evidence and advice.
fn render_findings(a: &Analysis, color: bool) -> String {
    let mut out = String::new();
    let mut findings: Vec<&Finding> = a.findings.iter().collect();
    findings.sort_by_key(|f| f.severity);
    for f in findings {
        let label = f.severity.to_string();
        let label = if !color {
            label
        } else {
            match f.severity {
                Severity::Error => label.red().bold().to_string(),
                Severity::Warning => label.yellow().to_string(),
                Severity::Info => label.cyan().to_string(),
            }
        };
        out.push_str(&format!("{label}: {} [{}]\n", f.title, f.code));
        if !f.evidence.is_empty() {
            out.push_str(&format!("    {}\n", f.evidence));
        }
        if !f.advice.is_empty() {
            out.push_str(&format!("    → {}\n", f.advice));
        }
    }
    if !a.findings.is_empty() {
        out.push('\n');
    }
    out
}

/// `regressed 5, improved 1, … · geomean of ratios 1.234 (+23.4%) over 8`.
pub fn summary_line(a: &Analysis) -> String {
    let count = |v: Verdict| a.comparisons.iter().filter(|c| c.verdict == v).count();
    let mut parts: Vec<String> = [
        Verdict::Regressed,
        Verdict::Improved,
        Verdict::Changed,
        Verdict::Unchanged,
        Verdict::Inconclusive,
        Verdict::Untestable,
    ]
    .iter()
    .filter(|&&v| v != Verdict::Changed || count(v) > 0)
    .map(|&v| format!("{} {}", count(v), v.as_str()))
    .collect();
    let logs: Vec<f64> = a
        .comparisons
        .iter()
        .filter(|c| c.baseline_center > 0.0 && c.variant_center > 0.0)
        .map(|c| (c.variant_center / c.baseline_center).ln())
        .filter(|l| l.is_finite())
        .collect();
    let n = a.comparisons.len();
    let mut s = format!(
        "{n} comparison{}: {}",
        if n == 1 { "" } else { "s" },
        parts.join(", ")
    );
    parts.clear();
    if !logs.is_empty() {
        let g = (logs.iter().sum::<f64>() / logs.len() as f64).exp();
        s.push_str(&format!(
            "; geomean of variant/baseline ratios {g:.4} ({}) over {}",
            pct((g - 1.0) * 100.0),
            logs.len()
        ));
        if logs.len() < a.comparisons.len() {
            s.push_str(" (non-positive centres left out)");
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyze;
    use crate::model::{Dataset, Observation, Stat};

    /// rt-tests hackbench `-g 4 -l 200`, corpus files 1–10 per side (seconds).
    const HACK_BASE: [f64; 10] = [
        0.460, 0.523, 0.474, 0.687, 0.744, 0.688, 0.587, 0.642, 0.809, 0.851,
    ];
    const HACK_PATCHED: [f64; 10] = [
        0.593, 0.666, 0.607, 0.618, 0.768, 0.803, 0.517, 0.582, 0.653, 0.616,
    ];

    /// `groups` benchmarks from the hackbench figures, scaled per group; every
    /// third one has stated mean and stddev instead of samples (nulls in the
    /// JSON), every seventh a params string, and a last benchmark only the
    /// baseline ran (a group without a comparison).
    fn rows(groups: usize, with_patched: bool) -> Vec<Observation> {
        let mut rows = Vec::new();
        for g in 0..groups {
            let bench = format!("hackbench \"g{g}\"");
            let scale = 1.0 + g as f64 / 7.0;
            let params = if g % 7 == 0 { "threads=4" } else { "" };
            let sides: &[(&str, &[f64])] = if with_patched {
                &[("baseline", &HACK_BASE), ("patched", &HACK_PATCHED)]
            } else {
                &[("baseline", &HACK_BASE)]
            };
            for (variant, xs) in sides {
                if g % 3 == 1 {
                    let mean = scale * xs.iter().sum::<f64>() / xs.len() as f64;
                    for (stat, v) in [(Stat::Mean, mean), (Stat::Stddev, 0.1 * scale)] {
                        rows.push(
                            Observation::new(bench.as_str(), "time", "s", stat, v)
                                .with_params_str(params)
                                .with_variant(*variant),
                        );
                    }
                } else {
                    for (i, x) in xs.iter().enumerate() {
                        rows.push(
                            Observation::sample(bench.as_str(), "time", "s", scale * x)
                                .with_params_str(params)
                                .with_variant(*variant)
                                .with_run(i as u32),
                        );
                    }
                }
            }
        }
        rows.push(Observation::sample("baseline only", "time", "s", 1.0).with_variant("baseline"));
        rows
    }

    #[test]
    fn json_pieces_are_the_bytes_serde_writes_for_the_whole_document() {
        let settings = Settings {
            resamples: 200,
            ..Settings::default()
        };
        // No comparison at all (a finding says so), a few (serialised on
        // this thread) and more than the pool threshold.
        for (groups, with_patched, comparisons) in
            [(3, false, 0), (1, true, 1), (5, true, 5), (300, true, 300)]
        {
            let a = analyze(&Dataset::new(rows(groups, with_patched)), &settings).unwrap();
            assert_eq!(a.comparisons.len(), comparisons);
            assert!(!a.findings.is_empty());
            let mut reference = serde_json::to_string_pretty(&JsonReport::of(&a)).unwrap();
            reference.push('\n');
            let ours = String::from_utf8(to_json(&a).unwrap().into_bytes()).unwrap();
            assert_eq!(ours, reference, "{groups} groups");
        }
    }
}
