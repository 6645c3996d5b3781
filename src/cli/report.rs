//! `patchperf report STUDY.toml`: everything a study file asks for.

use crate::error::Error;
use crate::pipeline::{prepare, Study};
use crate::report::{self, OutputFormat};
use clap::Args;
use std::path::PathBuf;

/// Arguments of `patchperf report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Study files (TOML; see examples/README.md).
    #[arg(required = true, value_name = "STUDY.toml")]
    pub studies: Vec<PathBuf>,
    /// Output folder (default: the study's `output.dir`, else reports/<study name>).
    /// With several studies, each gets a sub-folder named after it.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Formats to write, comma-separated: html,pdf,md,txt,json,brief (default: the study's, else all).
    #[arg(long, value_name = "LIST")]
    pub formats: Option<String>,
    /// Folder of templates overriding the built-in ones (report.html.j2, …).
    #[arg(long, value_name = "DIR")]
    pub templates: Option<PathBuf>,
}

/// Runs `report` for each study; stops at the first one that fails.
pub fn run(args: ReportArgs) -> crate::Result<u8> {
    let several = args.studies.len() > 1;
    for path in &args.studies {
        let study = Study::load(path)?;
        let formats = match (&args.formats, study.output.formats.is_empty()) {
            (Some(list), _) => report::parse_formats(list)?,
            (None, false) => report::parse_formats(&study.output.formats.join(","))?,
            (None, true) => OutputFormat::ALL.to_vec(),
        };
        let out = match &args.out {
            Some(o) if several => o.join(study.name()),
            Some(o) => o.clone(),
            None => study
                .output_dir()?
                .unwrap_or_else(|| PathBuf::from("reports").join(study.name())),
        };
        let templates = args
            .templates
            .clone()
            .or_else(|| study.output.templates.as_ref().map(|t| study.resolve(t)));
        let progress =
            super::progress::Activity::reading(format!("{}: reading and analysing", study.name()));
        let prepared = prepare(&study)?;
        progress.stage(format!("{}: rendering the reports", study.name()));
        let rendered = report::render(
            &prepared.analysis,
            &prepared.context,
            &formats,
            templates.as_deref(),
        )?;
        progress.stage(format!("{}: writing {}", study.name(), out.display()));
        let written = report::write_rendered(&rendered, Some(&prepared.ingested.dataset), &out)?;
        drop(progress);
        let view = rendered
            .view
            .as_ref()
            .ok_or_else(|| Error::Other("the renderer built no view".into()))?;
        let counted = crate::report::format::counted;
        eprintln!(
            "{}: {}, {} -> {} ({})",
            path.display(),
            counted(view.summary.comparisons, "comparison"),
            counted(view.findings.len(), "finding"),
            out.display(),
            counted(written.len(), "file")
        );
        let errors: Vec<_> = view
            .findings
            .iter()
            .filter(|f| f.severity == "error")
            .collect();
        for f in errors.iter().take(3) {
            eprintln!("  error: {}", f.title);
        }
        if errors.len() > 3 {
            eprintln!("  … and {} more errors (see the report)", errors.len() - 3);
        }
        println!("{}: {}", study.name(), view.summary.headline);
    }
    if args.studies.is_empty() {
        return Err(Error::Usage("no study file given".into()));
    }
    Ok(0)
}
