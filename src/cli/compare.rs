//! `patchperf compare BASE PATCHED [MORE…]`: read each argument as a variant,
//! analyse, print a benchstat-like table per benchmark, write `--json`, and
//! gate on regressions with the exit code.

use super::values::{parse_correction, parse_direction, parse_percent, parse_test};
use crate::analysis::{trips_gate, Analysis, Correction, Filter, Settings, TestChoice};
use crate::error::{Error, Result};
use crate::model::Direction;
use crate::pipeline::{baseline_name, CheckFiles, InputsRead, LoadOptions};
use crate::report::brief::Brief;
use crate::report::compare_json::CompareJson;
use crate::report::terminal::{benchmarks_per_variant, warn_unread, Terminal};
use crate::report::{Renderer, Report, ReportContext};
use clap::Args;
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
    /// Print only the brief instead of the tables: at most 25 lines of 72
    /// columns (a line per comparison and per error) to paste into a reply.
    #[arg(long)]
    pub brief: bool,
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
            // Only the report files draw the samples.
            keep_run_order: [&self.html, &self.pdf, &self.md, &self.txt]
                .iter()
                .any(|p| p.is_some()),
        }
    }

    /// How the inputs are read and named.
    pub fn load_options(&self) -> LoadOptions {
        LoadOptions {
            format: self.format.clone(),
            variant_names: self.variant_names.clone(),
            map: self.map.clone(),
            extractors: self.extractor.clone(),
            selection: Default::default(),
        }
    }
}

/// Reads the inputs and analyses them exactly as `compare` does; the report
/// commands reuse it so that every output shows the same numbers.
pub fn load_and_analyze(args: &CompareArgs) -> Result<(InputsRead, Analysis)> {
    let filter = args.filter.as_deref().map(Filter::parse).transpose()?;
    let checks = CheckFiles {
        kconfig: args.kconfig.clone(),
        env: args.env.clone(),
        rules: args.rules.clone(),
    };
    crate::pipeline::compare(
        &args.inputs,
        &args.load_options(),
        filter.as_ref(),
        &args.settings(),
        &checks,
    )
}

/// Writes `--html/--pdf/--md/--txt` with the renderers of `patchperf
/// report`, so that every file shows the same numbers.
fn write_reports(args: &CompareArgs, read: &InputsRead, analysis: &Analysis) -> Result<()> {
    use crate::report::{write_file, OutputFormat};
    let wanted = [
        (OutputFormat::Html, &args.html),
        (OutputFormat::Pdf, &args.pdf),
        (OutputFormat::Md, &args.md),
        (OutputFormat::Txt, &args.txt),
    ];
    if wanted.iter().all(|(_, p)| p.is_none()) {
        return Ok(());
    }
    let ctx = ReportContext::for_compare(&args.inputs, &read.files, &read.variants);
    for (format, path) in wanted {
        if let Some(p) = path {
            write_file(analysis, &ctx, format, p, None)?;
        }
    }
    Ok(())
}

/// Runs `compare`; exit code 1 when `--fail-on-regression` trips.
pub fn run(args: CompareArgs) -> Result<u8> {
    let progress = super::progress::Activity::reading("reading and analysing");
    let (read, analysis) = load_and_analyze(&args)?;
    progress.stage(format!(
        "writing the results of {} comparison{}",
        analysis.comparisons.len(),
        if analysis.comparisons.len() == 1 {
            ""
        } else {
            "s"
        }
    ));
    if args.fail_on_regression && analysis.comparisons.is_empty() {
        // A gate that compared nothing has checked nothing: never a pass.
        return Err(Error::Usage(format!(
            "0 comparisons: the variants never share a benchmark, so --fail-on-regression \
             has nothing to gate on. Seen per variant: {}",
            benchmarks_per_variant(&analysis)
        )));
    }
    warn_unread(&read.files);
    write_reports(&args, &read, &analysis)?;
    let threshold = analysis.settings.threshold_pct;
    let tripped = analysis
        .comparisons
        .iter()
        .filter(|c| trips_gate(c, threshold))
        .count();
    // Cleared before the terminal output, which it would otherwise cut.
    drop(progress);
    // The brief's first line names the comparison as the reports do.
    let ctx = if args.brief {
        ReportContext::for_compare(&args.inputs, &[], &read.variants)
    } else {
        ReportContext::default()
    };
    drop(read);
    write_outputs(&args, &ctx, &analysis)?;
    if args.fail_on_regression && tripped > 0 {
        eprintln!(
            "patchperf: {tripped} comparison{} regressed by ≥ {threshold}%: failing (--fail-on-regression)",
            if tripped == 1 { "" } else { "s" }
        );
        return Ok(1);
    }
    Ok(0)
}

/// Writes `--json` (made only when asked for), then the terminal output
/// unless the JSON goes to stdout, each as it is made: a run of millions of
/// comparisons never holds its outputs.
fn write_outputs(args: &CompareArgs, ctx: &ReportContext, analysis: &Analysis) -> Result<()> {
    let json_to_stdout = args.json.as_deref() == Some("-");
    let color = super::global::color();
    let report = Report::new(analysis, ctx);
    let screen: &dyn Renderer = if args.brief {
        &Brief
    } else {
        &Terminal { color }
    };
    let stdout = std::path::Path::new("<stdout>");
    match args.json.as_deref() {
        Some("-") => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            CompareJson.render_to(&report, &mut out, stdout)?;
        }
        Some(path) => {
            let file = std::fs::File::create(path).map_err(|e| Error::io(path, e))?;
            let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
            CompareJson.render_to(&report, &mut out, std::path::Path::new(path))?;
        }
        None => {}
    }
    if !json_to_stdout {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        screen.render_to(&report, &mut out, stdout)?;
    }
    Ok(())
}
