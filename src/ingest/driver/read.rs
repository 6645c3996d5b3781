//! Reading one input with the format detection or `--format` chooses,
//! and the fallbacks when none does.

use super::account::{
    account, accounts_lines, numeric_lines, report_of, Account, LineSet, SafeNames,
};
use super::detect::detect;
use super::inputs::Input;
use super::loop_runs::{read_runs, read_runs_of};
use super::pieces;
use super::refused::refused_or_read;
use super::streamed::{read_streamed, STREAM_BYTES};
use super::types::{FileReport, IngestOptions};
use crate::error::Result;
use crate::ingest::{Format, Parsed, Registry, Source};
use crate::model::Batch;

/// Reads one input: a part of a folder with its directory format, a piece
/// of a large file with the format planned for it, or a file with the
/// format `--format` names or detection picks (else generically or as
/// prose), with what it adds to the reports.
pub(super) fn read_one(
    input: &Input,
    registry: &Registry,
    opts: &IngestOptions,
) -> Result<(Batch, Account)> {
    match input {
        Input::Part { dir, part, first } => {
            let f = registry
                .get(&dir.format)
                .expect("directory format came from this registry");
            let mut obs = f.parse_dir_part(&dir.path, part, &opts.selection)?;
            let mut names = SafeNames::default();
            obs.iter_mut().for_each(|o| names.make_safe(o));
            let obs = Batch::from(obs);
            let report = FileReport {
                rows: obs.len(),
                ..report_of(dir.path.display().to_string(), Some(dir.format.clone()))
            };
            let account = if *first {
                Account::Report(report)
            } else {
                Account::More(report)
            };
            Ok((obs, account))
        }
        Input::File(path, size) => {
            // Parquet is binary: read as a tidy table before any text is made of it.
            if crate::ingest::formats::tidy::parquet::is_parquet(path) {
                return read_parquet(path);
            }
            // A large JSON document is read from disk, its text never whole.
            if let Some(read) = read_streamed(path, *size, STREAM_BYTES, registry, opts)? {
                return Ok(read);
            }
            // The lines of a JSON document are made only for a reader or an
            // account that reads them.
            let src = Source::read_deferred(path)?;
            // Context files are recognised before detection so that a
            // permissive reader never claims a .config as a table.
            if opts.format.is_none() {
                if let Some(kind) = crate::ingest::context::context_kind(&src) {
                    let report = FileReport {
                        note: Some(format!(
                            "{}: context, not a benchmark output (read by `patchperf check` \
                             and compare --kconfig/--env)",
                            kind.label()
                        )),
                        ..report_of(src.path.to_string(), None)
                    };
                    return Ok((Batch::default(), Account::Report(report)));
                }
            }
            read_source(src, registry, opts)
        }
        Input::Piece { file, piece } => {
            let format = pieces::format(registry, file)?;
            let bytes = pieces::read(file, &piece.bytes)?;
            if piece.bytes.start == 0 && file.first_as_file {
                // The first piece, header and all, is read as a file.
                let src = Source::from_owned(&file.display, bytes)?;
                let parsed = format.parse_accounted(&src)?;
                let (obs, report) = account(&src, format, parsed)?;
                return Ok((obs, Account::Report(report)));
            }
            let body = Source::piece(&file.display, bytes, piece.first_line, file.json_like)?;
            let parsed = if piece.carry.is_empty() {
                format.parse_piece(&file.head, &body)?
            } else {
                let mut lines = file.head.lines.clone();
                lines.extend(piece.carry.iter().cloned());
                format.parse_piece(&Source::from_lines(&file.display, lines), &body)?
            };
            let (obs, report) = account(&body, format, parsed)?;
            if piece.bytes.start == 0 {
                return Ok((obs, Account::Report(report)));
            }
            Ok((obs, Account::More(report)))
        }
    }
}

/// `src`, a file's text, read with the format `--format` names or
/// detection picks, else generically or as prose. A capture whose first
/// line is a shell prompt (`$ ./bench --quick`) that no importer reads
/// with its prompt is read as the output behind it, the prompt line taken
/// as the capture's command.
fn read_source(
    mut src: Source,
    registry: &Registry,
    opts: &IngestOptions,
) -> Result<(Batch, Account)> {
    let format = match &opts.format {
        Some(name) => registry.get(name),
        None => detect(registry, &src),
    };
    // A help text is what a failed start prints: no reader of
    // unknown text may take its defaults for results.
    let unknown_text = opts.format.is_none() && format.is_none_or(|f| f.name() == "document");
    if src.lines_deferred() && needs_lines(format, opts, &src) {
        src.ensure_lines();
    }
    if let Some(line) = unknown_text
        .then(|| super::usage::usage_line(&src))
        .flatten()
    {
        let report = FileReport {
            note: Some(format!(
                "a program's usage text (line {line}: `Usage:` and its options), \
                 printed instead of a run: no result to read"
            )),
            ..report_of(src.path.to_string(), None)
        };
        return Ok((Batch::default(), Account::Report(report)));
    }
    // A loop's runs, one after the other, that the whole file's
    // detection misses.
    let fell_back = format.is_none_or(is_fallback);
    if opts.format.is_none() && fell_back {
        if let Some(read) = read_runs(registry, &src, format)? {
            return Ok(read);
        }
        if let Some(read) = read_behind_prompt(&src, registry, opts)? {
            return Ok(read);
        }
    }
    let Some(format) = format else {
        if let Some(read) = read_generically(registry, &src)? {
            return Ok(read);
        }
        if let Some(read) = read_as_prose(registry, &src)? {
            return Ok(read);
        }
        let report = FileReport {
            unread_numeric: numeric_lines(&src, &LineSet::for_source(&src)),
            note: Some(
                "no importer recognised this file; name one with --format NAME \
                 (see `patchperf formats`) or describe it with --extractor FILE"
                    .into(),
            ),
            ..report_of(src.path.to_string(), None)
        };
        return Ok((Batch::default(), Account::Report(report)));
    };
    let (format, parsed, refused) = if opts.format.is_some() {
        (format, format.parse_accounted(&src)?, None)
    } else {
        // The importer refuses a second run's header as a row of
        // the first, or a loop's line as its own: read run by run,
        // or refused (the document reader's reading of a refused
        // mail stands).
        // A loop's log of several runs of this tool.
        if !src.lines_deferred() {
            if let Some(runs) = read_runs_of(registry, &src, format)? {
                return Ok(runs);
            }
        }
        let read = refused_or_read(registry, format, &src);
        if matches!(read, Err(_) | Ok((_, _, Some(_)))) {
            src.ensure_lines();
            if let Some(runs) = read_runs(registry, &src, Some(format))? {
                return Ok(runs);
            }
            // The importer knows the tool but not the prompt above it.
            if let Ok(Some(read)) = read_behind_prompt(&src, registry, opts) {
                return Ok(read);
            }
        }
        read?
    };
    // The document reader claims any text with numbers; when it
    // finds no table there, the generic reader may still read it.
    if opts.format.is_none() && parsed.observations.is_empty() && format.name() == "document" {
        if let Some(read) = read_generically(registry, &src)? {
            return Ok(read);
        }
    }
    if src.lines_deferred() && accounts_lines(&parsed) {
        src.ensure_lines();
    }
    let (obs, mut report) = account(&src, format, parsed)?;
    // The account's own note (a file recognised but empty) stands
    // unless an importer's refusal says more.
    if refused.is_some() {
        report.note = refused;
    }
    Ok((obs, Account::Report(report)))
}

/// `src` read as the capture behind its leading shell prompt, when it has
/// one and values lie behind it: the prompt hid the tool from detection,
/// or its importer refused the prompt as a line of its output. The report
/// names the prompt's line and command.
fn read_behind_prompt(
    src: &Source,
    registry: &Registry,
    opts: &IngestOptions,
) -> Result<Option<(Batch, Account)>> {
    use crate::ingest::shared::prompt::{behind_prompt, shell_prompt};
    let Some((bare, lines)) = behind_prompt(src) else {
        return Ok(None);
    };
    let known = detect(registry, &bare).is_some_and(|f| !is_fallback(f));
    let (obs, mut account) = match read_source(bare, registry, opts) {
        Ok(read) => read,
        Err(e) if known => return Err(e),
        Err(_) => return Ok(None),
    };
    // Text no importer knows is read behind its prompt as well, as each
    // run of a loop's log is (a run's values then do not depend on the
    // prompt above it), when values lie there.
    if !known && obs.is_empty() {
        return Ok(None);
    }
    // The prompt nearest the output is the command that printed it.
    let line = lines.last().copied().unwrap_or_default();
    let command = src
        .lines
        .iter()
        .find(|l| l.number == line)
        .and_then(|l| shell_prompt(&l.text))
        .unwrap_or_default();
    let said = format!(
        "line {line} is the shell prompt the output was captured from (`{command}`): \
         read as its command, not as output"
    );
    let report = match &mut account {
        Account::Report(r) | Account::More(r) => r,
    };
    report.note = Some(match report.note.take() {
        Some(note) => format!("{note}; {said}"),
        None => said,
    });
    Ok(Some((obs, account)))
}

/// Whether `format` is a reader of text no importer recognised.
fn is_fallback(format: &dyn Format) -> bool {
    format.name() == crate::ingest::formats::document::Document.name()
        || format.name() == crate::ingest::formats::generic::NAME
}

/// Whether reading `src` with `format` (none: the fallbacks) may read its
/// lines: any reader but one of [`Format::reads_raw`], which the document
/// reader joins when the text is prose ([`mixed::read`]).
///
/// [`mixed::read`]: crate::ingest::formats::document::mixed::read
fn needs_lines(format: Option<&dyn Format>, opts: &IngestOptions, src: &Source) -> bool {
    use crate::ingest::formats::document::mixed::is_prose_document;
    match format {
        Some(f) if f.reads_raw() => opts.format.is_none() && is_prose_document(src),
        _ => true,
    }
}

/// `src` read by the generic `label: value` reader, when it finds values
/// there; the report says so.
pub(super) fn read_generically(
    registry: &Registry,
    src: &Source,
) -> Result<Option<(Batch, Account)>> {
    use crate::ingest::formats::generic;
    let Some(format) = registry.get(generic::NAME) else {
        return Ok(None);
    };
    let (parsed, shape) = generic::Generic::read(src)?;
    if parsed.observations.is_empty() || failed_run(src, &parsed) {
        return Ok(None);
    }
    let (obs, mut report) = account(src, format, parsed)?;
    let how = shape.describe();
    report.note = Some(format!(
        "no importer recognised this file: read generically as {how} \
         (check the values, or name a format with --format NAME)"
    ));
    Ok(Some((obs, Account::Report(report))))
}

/// A Parquet tidy table, its rows made safe and accounted as a file's.
fn read_parquet(path: &std::path::Path) -> Result<(Batch, Account)> {
    let display = crate::model::shown_path(path);
    let mut obs = crate::ingest::formats::tidy::parquet::read(path, &display)?;
    let mut names = SafeNames::default();
    obs.iter_mut().for_each(|o| names.make_safe(o));
    let obs = Batch::from(obs);
    let report = FileReport {
        rows: obs.len(),
        ..report_of(display, Some("tidy-parquet".to_string()))
    };
    Ok((obs, Account::Report(report)))
}

/// `src`, text no importer recognised, read by the document reader as
/// the last resort before refusing it: prose with a few result lines (a
/// mail, no table), or a log of some tool no importer knows (a table,
/// `label: value` lines), so that an unknown log is not a dead end. The
/// report says so. Without sentences around them, values of a single line
/// are no reading: that is an error message quoting a version number. A
/// reader that errs on it is no reading.
pub(super) fn read_as_prose(registry: &Registry, src: &Source) -> Result<Option<(Batch, Account)>> {
    let Some(document) = registry.get(crate::ingest::formats::document::Document.name()) else {
        return Ok(None);
    };
    let prose = crate::ingest::formats::document::mixed::has_sentences(src);
    let Ok(parsed) = document.parse_accounted(src) else {
        return Ok(None);
    };
    let mut lines = parsed.observations.iter().map(|o| o.line);
    let first = lines.next();
    let several_lines = first.is_some_and(|f| lines.any(|l| l != f));
    if parsed.observations.is_empty() || (!prose && (!several_lines || looks_like_code(src))) {
        return Ok(None);
    }
    let (obs, mut report) = account(src, document, parsed)?;
    report.note = Some(if prose {
        "no importer recognised this file: its lines of values among the prose were read \
         as a document (check the names, or name a format with --format NAME)"
            .into()
    } else {
        "no importer recognised this file: its tables and lines of values were read as a \
         document (check the names, or name a format with --format NAME)"
            .into()
    });
    Ok(Some((obs, Account::Report(report))))
}

/// Whether `src` is source code or a patch rather than output: a fifth or
/// more of its filled lines end a statement or block (`;`, `{`, `}`) or
/// are diff hunk and file lines. Their numbers are constants, not results.
fn looks_like_code(src: &Source) -> bool {
    let (mut filled, mut code) = (0usize, 0usize);
    for l in src.lines.iter().take(4000) {
        let t = l.text.trim();
        if t.is_empty() {
            continue;
        }
        filled += 1;
        let diff = ["@@ ", "diff --git", "+++ ", "--- a/", "index "]
            .iter()
            .any(|p| t.starts_with(p));
        if diff || t.ends_with(';') || t.ends_with('{') || t.ends_with('}') {
            code += 1;
        }
    }
    filled > 0 && code * 5 >= filled
}

/// Whether values all read from one line come from the output of a run
/// that failed: another line of the file reports an error (`apr_socket_
/// recv: Connection refused`), so the one number is a version or a count
/// in its banner, not a result. The lines the reader took as the values'
/// frame are no report of an error: a table's header naming a column of
/// error counts (`ecc.errors.corrected.volatile.total`) over its one row.
fn failed_run(src: &Source, parsed: &Parsed) -> bool {
    let observations = &parsed.observations;
    let Some(first) = observations.first().map(|o| o.line) else {
        return false;
    };
    // A JSON document on one line holds all its values there.
    if src.looks_like_json() {
        return false;
    }
    if observations.iter().any(|o| o.line != first) {
        return false;
    }
    const FAILURES: [&str; 9] = [
        "error",
        "fail",
        "refused",
        "unable to",
        "cannot",
        "can't",
        "not found",
        "denied",
        "timed out",
    ];
    src.lines.iter().take(4000).any(|l| {
        let t = l.text.to_ascii_lowercase();
        l.number != first
            && !parsed.consumed.contains(&l.number)
            && FAILURES.iter().any(|w| t.contains(w))
    })
}
