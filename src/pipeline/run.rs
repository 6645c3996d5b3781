//! `compare`'s run: read the paths as variants, filter, analyse, then add
//! the checks' findings, so that the terminal, `--json` and the report files
//! of one run show the same numbers and the same findings.

use super::inputs::{load, unread_inputs, LoadOptions};
use crate::analysis::{self, Analysis, Filter, Settings};
use crate::checks::{attach_findings, generic_read_finding, inputs_for_compare};
use crate::error::{Error, Result};
use crate::model::FileReport;
use std::path::PathBuf;

/// What `compare` keeps of its inputs once they are analysed: each file's
/// account and the variants in input order. The rows themselves go to the
/// analysis, which frees them as soon as it has grouped them.
#[derive(Debug, Clone, Default)]
pub struct InputsRead {
    /// Each input file's account.
    pub files: Vec<FileReport>,
    /// Variants in order of first appearance.
    pub variants: Vec<String>,
    /// Rows the analysis was given (after `--filter`).
    pub rows: usize,
}

/// The config and environment files `compare` checks: `--kconfig` and
/// `--env` (two paths each, or none) and `--rules`. With none given, the
/// configs and snapshots inside the first two inputs are used when both
/// are folders.
#[derive(Debug, Clone, Default)]
pub struct CheckFiles {
    /// `--kconfig`: the two sides' kernel configs.
    pub kconfig: Vec<PathBuf>,
    /// `--env`: the two sides' snapshots or capture folders.
    pub env: Vec<PathBuf>,
    /// `--rules`: a rules file instead of the built-in one.
    pub rules: Option<PathBuf>,
}

/// [`load_and_analyze`], then the config, environment and
/// statistical-signature checks, and a note when values were read by the
/// generic reader; findings errors first.
pub fn compare(
    paths: &[PathBuf],
    load_opts: &LoadOptions,
    filter: Option<&Filter>,
    settings: &Settings,
    checks: &CheckFiles,
) -> Result<(InputsRead, Analysis)> {
    let (read, mut analysis) = load_and_analyze(paths, load_opts, filter, settings)?;
    let inputs = inputs_for_compare(paths, &checks.kconfig, &checks.env, checks.rules.clone())?;
    attach_findings(&mut analysis, &inputs)?;
    if let Some(f) = generic_read_finding(&read.files) {
        analysis.findings.push(f);
        analysis.findings.sort_by_key(|f| f.severity);
    }
    Ok((read, analysis))
}

/// Reads `paths` as variants ([`load`]), applies `filter` (never dropping
/// the baseline's rows for a `variant` condition) and analyses the result,
/// which takes the rows over.
pub fn load_and_analyze(
    paths: &[PathBuf],
    load_opts: &LoadOptions,
    filter: Option<&Filter>,
    settings: &Settings,
) -> Result<(InputsRead, Analysis)> {
    let mut ingested = match filter {
        Some(f) => load(
            paths,
            &LoadOptions {
                selection: f.selection(false),
                ..load_opts.clone()
            },
        )?,
        None => load(paths, load_opts)?,
    };
    if let Some(f) = filter {
        // An explicit baseline always stays. Otherwise a filter that leaves
        // two or more variants decides the baseline among them (the first);
        // one that leaves a single variant keeps the data's first variant
        // too, so that `variant=patched` still compares with the baseline.
        let filtered = match &settings.baseline {
            Some(b) => f.apply_keeping(&ingested.dataset, Some(b)),
            None => {
                let plain = f.apply(&ingested.dataset);
                if plain.variants().len() >= 2 {
                    plain
                } else {
                    let first = ingested.dataset.variants().into_iter().next();
                    f.apply_keeping(&ingested.dataset, first.as_deref())
                }
            }
        };
        if filtered.is_empty() {
            return Err(Error::Usage(format!(
                "--filter left no values (of {} read); variants: {}",
                ingested.dataset.len(),
                ingested.dataset.variants().join(", ")
            )));
        }
        ingested.dataset = filtered;
    }
    let variants = ingested.dataset.variants();
    if variants.len() < 2 {
        return Err(Error::Usage(format!(
            "only one variant (`{}`) to compare{}: give the baseline and at least one other input, \
             or a file whose tables hold several variants{}",
            variants.first().map(String::as_str).unwrap_or(""),
            if filter.is_some() { " after --filter" } else { "" },
            // A variant whose files gave nothing is gone from the rows.
            unread_inputs(&ingested.files)
        )));
    }
    let rows = ingested.dataset.len();
    let analysis =
        analysis::analyze_owned(ingested.dataset, &variants, settings).map_err(|e| match e {
            // A --baseline missing from the rows: its files may have given nothing.
            Error::Usage(m) => Error::Usage(format!("{m}{}", unread_inputs(&ingested.files))),
            other => other,
        })?;
    let read = InputsRead {
        files: ingested.files,
        variants,
        rows,
    };
    Ok((read, analysis))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corpus_criterion_console_and_gbench_csv_raise_no_false_mismatch() {
        // End to end through the importers, on the corpus copies.
        let run = |a: &str, b: &str| {
            let paths = [
                std::path::PathBuf::from(format!("tests/data/corpus/{a}")),
                std::path::PathBuf::from(format!("tests/data/corpus/{b}")),
            ];
            let loaded = load(&paths, &LoadOptions::default()).unwrap();
            let a = crate::analysis::analyze(&loaded.dataset, &Settings::default()).unwrap();
            a.findings
                .into_iter()
                .map(|f| f.code.to_string())
                .collect::<Vec<_>>()
        };
        let codes = run("criterion-baseline-1.txt", "criterion-patched-1.txt");
        assert!(
            !codes.iter().any(|c| c == "stated-change-mismatch"),
            "{codes:?}"
        );
        let estimator = codes
            .iter()
            .filter(|c| *c == "stated-change-estimator")
            .count();
        assert_eq!(estimator, 4, "{codes:?}");
        for (a, b) in [
            ("gbench_csv-baseline-1.csv", "gbench_csv-patched-1.csv"),
            ("gbench_csv-baseline-2.csv", "gbench_csv-patched-2.csv"),
        ] {
            let codes = run(a, b);
            assert!(
                !codes.iter().any(|c| c == "stated-summary-mismatch"),
                "{a}: {codes:?}"
            );
            // 3 benchmarks × 2 sizes … every stated summary group is verified.
            assert!(
                codes
                    .iter()
                    .filter(|c| *c == "stated-summary-verified")
                    .count()
                    >= 30,
                "{a}: {codes:?}"
            );
        }
    }
}
