//! `patchperf ingest`: read inputs, write the tidy table, account for every file.

use crate::error::Error;
use crate::ingest::{ingest_each, IngestOptions, Registry};
use crate::model::{TableFormat, TableWriter};
use crate::report::terminal::{accounting, Listing};
use clap::Args;
use std::path::PathBuf;

/// Arguments of `patchperf ingest`.
#[derive(Debug, Args)]
pub struct IngestArgs {
    /// Files, folders or glob patterns to read (`-`: standard input).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Force a format instead of detecting one (see `patchperf formats`).
    #[arg(long, value_name = "NAME")]
    pub format: Option<String>,
    /// Set the variant of every value read (e.g. `baseline`).
    #[arg(long, value_name = "NAME")]
    pub variant: Option<String>,
    /// Write the table: `-` for CSV on stdout, or a .csv/.json/.jsonl/.parquet path.
    #[arg(long, short, value_name = "PATH", conflicts_with = "into")]
    pub out: Option<String>,
    /// Append to the results archive in DIR (created if new): Hive-partitioned
    /// Parquet with a manifest; inputs unchanged since they were archived are
    /// not read again, changed ones replace their rows.
    #[arg(long, value_name = "DIR")]
    pub into: Option<PathBuf>,
    /// With --into: drop the rows of archived inputs that no longer exist
    /// (by default they are kept and reported).
    #[arg(long, requires = "into")]
    pub prune: bool,
    /// Map a CSV column or JSON key to a tidy field (repeatable): FIELD is one
    /// of the tidy columns, `params.KEY` or `value.METRIC[:UNIT]`.
    #[arg(long = "map", value_name = "COLUMN=FIELD")]
    pub map: Vec<String>,
    /// Read files with a user-defined extractor (TOML, see examples/extractors/); repeatable.
    #[arg(long = "extractor", value_name = "FILE")]
    pub extractor: Vec<PathBuf>,
    /// One accounting line per input even when there are many (by default,
    /// beyond 10 inputs only those that lost lines or were not recognised
    /// get their own line, the rest are summed up).
    #[arg(long, short)]
    pub verbose: bool,
}

/// Runs `ingest`: exit 2 when nothing at all could be read.
///
/// The table is written as it is read (a few inputs at a time), so memory
/// stays bounded by those inputs however many there are.
pub fn run(args: IngestArgs) -> crate::Result<u8> {
    let mut registry = Registry::builtin();
    crate::ingest::add_user_formats(&mut registry, &args.map, &args.extractor)?;
    if let Some(dir) = &args.into {
        return append(&args, dir, &registry);
    }
    let opts = IngestOptions {
        format: args.format.clone(),
        variant: args.variant.clone(),
        default_variant: None,
        ..Default::default()
    };
    let writer = match args.out.as_deref() {
        Some("-") => Some(TableWriter::to_writer(std::io::stdout(), TableFormat::Csv)?),
        Some(path) => Some(TableWriter::create(std::path::Path::new(path))?),
        None => None,
    };
    let mut rows = 0usize;
    let progress = super::progress::Activity::reading("reading");
    let files = ingest_each(
        &args.files,
        &registry,
        &opts,
        // Batches are encoded on the pool while earlier ones are appended.
        |obs| {
            let n = obs.len();
            match &writer {
                Some(w) => w.encode_owned(obs).map(|e| (n, Some(e))),
                None => Ok((n, None)),
            }
        },
        |(n, encoded)| {
            rows += n;
            match (&writer, encoded) {
                (Some(w), Some(e)) => w.append(e),
                _ => Ok(()),
            }
        },
    )?;
    drop(progress);
    let shown = if super::global::quiet() {
        Listing::Quiet
    } else if args.verbose || files.len() <= FEW_INPUTS {
        Listing::Every
    } else {
        Listing::Notable
    };
    for line in accounting(&files, rows, shown) {
        eprintln!("{line}")
    }
    if rows == 0 {
        // Dropping the writer removes its unfinished file: no empty table.
        return Err(Error::Usage(
            "no values were read from any input (see the per-file notes above)".into(),
        ));
    }
    match writer {
        Some(w) => w.finish()?,
        None if super::global::quiet() => {}
        None => eprintln!(
            "{rows} rows read; add --out - (CSV on stdout) or --out FILE.csv|.json|.jsonl|.parquet to write them"
        ),
    }
    Ok(0)
}

/// `ingest --into DIR`: appends to the archive and accounts for every
/// input given: read (and how), unchanged, or gone.
fn append(args: &IngestArgs, dir: &std::path::Path, registry: &Registry) -> crate::Result<u8> {
    use crate::ingest::append::{append, AppendOptions};
    let opts = AppendOptions {
        format: args.format.clone(),
        variant: args.variant.clone(),
        prune: args.prune,
    };
    let progress = super::progress::Activity::reading("archiving");
    let report = append(dir, &args.files, registry, &opts)?;
    drop(progress);
    if !report.read.is_empty() {
        let shown = if super::global::quiet() {
            Listing::Quiet
        } else if args.verbose || report.read.len() <= FEW_INPUTS {
            Listing::Every
        } else {
            Listing::Notable
        };
        for line in accounting(&report.read, report.rows_written, shown) {
            eprintln!("{line}");
        }
    }
    for gone in &report.removed {
        let what = if args.prune {
            "rows dropped"
        } else {
            "rows kept; --prune drops them"
        };
        eprintln!("patchperf: {gone}: archived but no longer exists ({what})");
    }
    if !super::global::quiet() {
        let changed = report.replaced;
        eprintln!(
            "patchperf: archive {}: {} new and {} changed input{} read, {} unchanged and not read, {} gone; {} rows in all",
            dir.display(),
            report.added,
            changed,
            if changed == 1 { "" } else { "s" },
            report.unchanged,
            report.removed.len(),
            report.rows_total
        );
    }
    Ok(0)
}

/// Up to this many inputs, each gets its accounting line by default.
const FEW_INPUTS: usize = 10;
