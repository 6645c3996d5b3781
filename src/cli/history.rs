//! `patchperf history INPUT…`: each input is one point of a series (a
//! kernel, a commit, a night), read as `compare` reads a variant; every
//! (benchmark, params, metric) is a series; its change points are found
//! and each is given a verdict. Exit 1 when `--fail-on-regression` trips,
//! 2 on bad input or when no series has the 3 points needed.

use super::values::{parse_direction, parse_fraction, parse_percent};
use crate::analysis::history::HistorySettings;
use crate::analysis::Filter;
use crate::error::{Error, Result};
use crate::model::Direction;
use crate::pipeline::history::{load_history, HistoryInputs};
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `patchperf history`.
#[derive(Debug, Clone, Args)]
pub struct HistoryArgs {
    /// The points in order: files, folders or globs, one point each; a
    /// single tidy table (or e-mail table) gives one point per variant, in
    /// order of first appearance.
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// Order of the points: as given, or sorted as kernel versions
    /// (6.8-rc1 < 6.8-rc7 < 6.8 < 6.8.1 < 6.9-rc1).
    #[arg(long, default_value = "given", value_parser = ["given", "version"], value_name = "given|version")]
    pub order: String,
    /// Points per sliding window of the change-point search (Otava's window_len).
    #[arg(long, default_value_t = HistorySettings::default().window_len, value_name = "N")]
    pub window: usize,
    /// Largest p of a change point (Otava's max_pvalue; with runs, also the q over all series).
    #[arg(long, default_value_t = HistorySettings::default().max_pvalue, value_name = "P")]
    pub max_pvalue: f64,
    /// Smallest relative change of a change point (Otava's min_magnitude): `0.05` or `5%`.
    #[arg(long, default_value = "0", value_parser = parse_fraction, value_name = "M")]
    pub min_magnitude: f64,
    /// Smallest regression that trips --fail-on-regression (`2%` or `2`).
    #[arg(long, default_value = "2%", value_parser = parse_percent, value_name = "PCT")]
    pub threshold: f64,
    /// Exit 1 when the latest change point of any series is a regression of at least the threshold.
    #[arg(long)]
    pub fail_on_regression: bool,
    /// Select values, as `compare --filter` (`metric=time`, `threads>=64`).
    #[arg(long, value_name = "EXPR")]
    pub filter: Option<String>,
    /// Write the history as JSON to PATH (`-`: stdout only).
    #[arg(long, value_name = "PATH|-")]
    pub json: Option<String>,
    /// Also write the history as Markdown.
    #[arg(long, value_name = "PATH")]
    pub md: Option<PathBuf>,
    /// Also write the history as plain text (the e-mail form).
    #[arg(long, value_name = "PATH")]
    pub txt: Option<PathBuf>,
    /// Also write the history as one self-contained HTML file with a chart per series.
    #[arg(long, value_name = "PATH")]
    pub html: Option<PathBuf>,
    /// Also write the history as PDF with a chart per series.
    #[arg(long, value_name = "PATH")]
    pub pdf: Option<PathBuf>,
    /// Templates overriding the built-in `history.html.j2`/`history.typ.j2`.
    #[arg(long, value_name = "DIR")]
    pub templates: Option<PathBuf>,
    /// Names for the points, in argument order (`6.8,6.9`).
    #[arg(long, value_delimiter = ',', value_name = "A,B,…")]
    pub variant_names: Vec<String>,
    /// Which way is better for a metric: `--direction tps=higher` (repeatable).
    #[arg(long, value_name = "METRIC=lower|higher", value_parser = parse_direction)]
    pub direction: Vec<(String, Direction)>,
    /// Read every input with this format instead of detecting it.
    #[arg(long, value_name = "NAME")]
    pub format: Option<String>,
    /// Map a CSV/JSON column to a tidy field (`--map ms=value`); repeatable.
    #[arg(long = "map", value_name = "COLUMN=FIELD")]
    pub map: Vec<String>,
    /// Read files with a user-defined extractor (TOML); repeatable.
    #[arg(long = "extractor", value_name = "FILE")]
    pub extractor: Vec<PathBuf>,
    /// Seed of the bootstrap of the change's interval.
    #[arg(long, default_value_t = HistorySettings::default().seed)]
    pub seed: u64,
    /// Bootstrap resamples per change point.
    #[arg(long, default_value_t = HistorySettings::default().resamples, value_name = "N")]
    pub resamples: usize,
    /// Kernel option rules file replacing the built-in one (for the config
    /// differences named at each change point).
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
}

impl HistoryArgs {
    fn settings(&self) -> Result<HistorySettings> {
        if self.window < 2 {
            return Err(Error::Usage(format!(
                "--window {} must be at least 2",
                self.window
            )));
        }
        if !(self.max_pvalue > 0.0 && self.max_pvalue <= 1.0) {
            return Err(Error::Usage(format!(
                "--max-pvalue {} must lie in (0, 1]",
                self.max_pvalue
            )));
        }
        Ok(HistorySettings {
            window_len: self.window,
            max_pvalue: self.max_pvalue,
            min_magnitude: self.min_magnitude,
            threshold_pct: self.threshold,
            resamples: self.resamples,
            seed: self.seed,
            directions: self.direction.iter().cloned().collect(),
        })
    }
}

/// Through a fresh temporary name and a rename, as every report is
/// written: a reader sees the old file or the new one.
fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    crate::report::write_atomic(path, bytes)
}

/// Runs `history`.
pub fn run(args: HistoryArgs) -> Result<u8> {
    let progress = super::progress::Activity::reading("reading and finding change points");
    let inputs = HistoryInputs {
        inputs: args.inputs.clone(),
        variant_names: args.variant_names.clone(),
        by_version: args.order == "version",
        format: args.format.clone(),
        map: args.map.clone(),
        extractors: args.extractor.clone(),
        filter: args.filter.as_deref().map(Filter::parse).transpose()?,
        rules: args.rules.clone(),
    };
    let h = load_history(&inputs, &args.settings()?)?;
    drop(progress);
    let color = super::global::color();
    if let Some(j) = &args.json {
        let mut text = serde_json::to_string_pretty(&h).map_err(|e| Error::Other(e.to_string()))?;
        text.push('\n');
        if j == "-" {
            std::io::stdout()
                .lock()
                .write_all(text.as_bytes())
                .map_err(|e| Error::io("<stdout>", e))?;
        } else {
            write(Path::new(j), text.as_bytes())?;
        }
    }
    let mut reports = crate::report::history::Reports::new(&h, args.templates.as_deref())?;
    if let Some(p) = &args.md {
        write(p, reports.markdown().as_bytes())?;
    }
    if let Some(p) = &args.txt {
        write(p, reports.text(false).as_bytes())?;
    }
    if let Some(p) = &args.html {
        write(p, reports.html()?.as_bytes())?;
    }
    if let Some(p) = &args.pdf {
        write(p, &reports.pdf()?)?;
    }
    if args.json.as_deref() != Some("-") {
        std::io::stdout()
            .lock()
            .write_all(reports.text(color).as_bytes())
            .map_err(|e| Error::io("<stdout>", e))?;
    }
    if h.analysed() == 0 {
        eprintln!("patchperf: no series has the 3 points needed to look for change points");
        return Ok(2);
    }
    let tripped = h.gate_tripped();
    if args.fail_on_regression && !tripped.is_empty() {
        eprintln!(
            "patchperf: the latest change point of {} series is a regression of ≥ {}%: failing (--fail-on-regression)",
            tripped.len(),
            h.settings.threshold_pct
        );
        return Ok(1);
    }
    Ok(0)
}
