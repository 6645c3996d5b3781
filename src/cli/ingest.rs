//! `patchperf ingest`: read inputs, write the tidy table, account for every file.

use crate::error::Error;
use crate::ingest::{ingest_each, FileReport, IngestOptions, Registry};
use crate::model::{TableFormat, TableWriter};
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
                Some(w) => w.encode(&obs).map(|e| (n, Some(e))),
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
    print_accounting(&files, rows, shown);
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
        print_accounting(&report.read, report.rows_written, shown);
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

/// Which inputs get an accounting line of their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listing {
    /// Every input.
    Every,
    /// Those that lost numeric lines or were not recognised.
    Notable,
    /// None; one line sums up the losses, if any.
    Quiet,
}

/// Prints, per input, the format used, the rows produced and the numeric
/// lines left unread, so that nothing is dropped silently: whatever the
/// listing, the closing line counts the inputs that lost something.
pub fn print_accounting(files: &[FileReport], rows: usize, listing: Listing) {
    let lossy = |f: &FileReport| !f.unread_numeric.is_empty() || is_unknown(f);
    let losses = files.iter().filter(|f| lossy(f)).count();
    let mut folded = 0usize;
    for f in files {
        let own_line = match listing {
            Listing::Every => true,
            Listing::Notable => lossy(f),
            Listing::Quiet => false,
        };
        if !own_line {
            folded += 1;
            continue;
        }
        let format = f.format.as_deref().unwrap_or("unknown");
        let mut line = format!("{}: format {format}, {} rows", f.path, f.rows);
        if !f.unread_numeric.is_empty() {
            let shown: Vec<String> = f
                .unread_numeric
                .iter()
                .take(8)
                .map(|n| n.to_string())
                .collect();
            let more = if f.unread_numeric.len() > 8 {
                ", …"
            } else {
                ""
            };
            line.push_str(&format!(
                ", {} numeric-looking lines not read (lines {}{more})",
                f.unread_numeric.len(),
                shown.join(", ")
            ));
        }
        if !f.skipped.is_empty() {
            // One entry per reason, with the lines it covers: ten context
            // lines of one kind read better as one entry than as ten.
            let mut reasons: Vec<(&str, Vec<u32>)> = Vec::new();
            for (n, why) in &f.skipped {
                match reasons.iter_mut().find(|(r, _)| r == why) {
                    Some((_, lines)) => lines.push(*n),
                    None => reasons.push((why, vec![*n])),
                }
            }
            let shown: Vec<String> = reasons
                .iter()
                .take(4)
                .map(|(why, lines)| format!("{}: {why}", line_list(lines)))
                .collect();
            let more = if reasons.len() > 4 { "; …" } else { "" };
            line.push_str(&format!(
                ", {} lines left out on purpose ({}{more})",
                f.skipped.len(),
                shown.join("; ")
            ));
        }
        if let Some(note) = &f.note {
            line.push_str(&format!("; {note}"));
        }
        eprintln!("{line}");
    }
    let unknown = files.iter().filter(|f| is_unknown(f)).count();
    let (n, s) = (files.len(), if files.len() == 1 { "" } else { "s" });
    let mut summary = format!("patchperf: {rows} rows from {n} input{s} ({unknown} not recognised");
    match listing {
        Listing::Notable if folded > 0 => summary.push_str(&format!(
            "; {folded} read without loss not listed, --verbose lists them"
        )),
        Listing::Quiet if losses > 0 => summary.push_str(&format!(
            "; {losses} lost lines or were not recognised, run without --quiet to see which"
        )),
        _ => {}
    }
    summary.push(')');
    if listing != Listing::Quiet || losses > 0 {
        eprintln!("{summary}");
    }
}

/// An input no reader recognised (context files such as configs excepted).
fn is_unknown(f: &FileReport) -> bool {
    f.format.is_none()
        && !f
            .note
            .as_deref()
            .unwrap_or("")
            .contains("context, not a benchmark")
}

/// `3`, `3-5`, `3-5, 9` …: consecutive line numbers folded into ranges.
fn line_list(lines: &[u32]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let mut j = i;
        while j + 1 < lines.len() && lines[j + 1] == lines[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            lines[i].to_string()
        } else {
            format!("{}-{}", lines[i], lines[j])
        });
        i = j + 1;
    }
    if parts.len() > 6 {
        let n = parts.len();
        parts.truncate(6);
        parts.push(format!("… ({n} ranges)"));
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::line_list;

    #[test]
    fn line_lists_fold_runs_into_ranges() {
        assert_eq!(line_list(&[3]), "3");
        assert_eq!(line_list(&[3, 4, 5, 9]), "3-5, 9");
        assert_eq!(
            line_list(&[1, 3, 5, 7, 9, 11, 13, 15]),
            "1, 3, 5, 7, 9, 11, … (8 ranges)"
        );
    }
}
