//! A file of several runs of one tool, as a shell loop leaves it (`for i
//! in 1 2 3; do echo $i; tool; done > log`), that does not read as one run
//! of the tool: detection, judging the whole file, finds a document or no
//! tool (the loop's `=== run 2 ===` above a tool's first line), or the
//! tool's importer refuses the second run's header as a row of the first.
//! Cut into its runs by structure alone ([`loop_runs`]), each run is read
//! as that file alone would be, when every run is the same tool's.

use super::account::{account, Account};
use super::refused::refused_or_read;
use crate::error::Result;
use crate::ingest::formats::document::Document;
use crate::ingest::formats::generic;
use crate::ingest::shared::prompt::behind_prompt;
use crate::ingest::shared::runs::{loop_runs, LoopRuns};
use crate::ingest::{Format, Parsed, Registry, Source};
use crate::model::Batch;

/// Why a loop's line between runs gives no value.
const BETWEEN_RUNS: &str = "printed between runs by the loop that ran the tool";

/// `src` read run by run, when it splits into runs that detection gives
/// one importer for: not the document reader, nor the fallback reader
/// (document or generic) detection gave the `whole` file; `None`
/// otherwise, or when that importer refuses a run.
pub(super) fn read_runs(
    registry: &Registry,
    src: &Source,
    whole: Option<&dyn Format>,
) -> Result<Option<(Batch, Account)>> {
    read_runs_as(registry, src, whole, false)
}

/// `src` read run by run when each of its runs is, by detection, the
/// output of `format`, the importer detection chose for the whole file: a
/// loop's log of one tool, each run read as that run alone would be (the
/// whole read at once may take one run's header or the loop's counter
/// for another run's values). `None` otherwise.
pub(super) fn read_runs_of(
    registry: &Registry,
    src: &Source,
    format: &dyn Format,
) -> Result<Option<(Batch, Account)>> {
    read_runs_as(registry, src, Some(format), true)
}

/// [`read_runs`], or with `same`, [`read_runs_of`].
fn read_runs_as(
    registry: &Registry,
    src: &Source,
    whole: Option<&dyn Format>,
    same: bool,
) -> Result<Option<(Batch, Account)>> {
    let Some(runs) = loop_runs(src) else {
        return Ok(None);
    };
    let mut prompts = Vec::new();
    let parts: Vec<Source> = runs
        .parts
        .iter()
        .map(|r| {
            let part = Source::from_lines(&src.path, src.lines[r.clone()].to_vec());
            capture(registry, part, &mut prompts)
        })
        .collect();
    // Every run the same importer's; or, when detection knows none of
    // them, the generic reader's (a bare `perf bench -f simple` figure).
    // Runs of the same text are detected once: a loop over a tool that
    // prints one line, or one line pasted 10^5 times, is as many runs.
    let mut detected: hashbrown::HashMap<Vec<&str>, Option<usize>> = hashbrown::HashMap::new();
    let mut found = None;
    for part in &parts {
        let text: Vec<&str> = part.lines.iter().map(|l| l.text.as_str()).collect();
        let at = *detected
            .entry(text)
            .or_insert_with(|| registry.detect_scored_at(part).map(|(at, _)| at));
        if found.is_some_and(|f| f != at) {
            return Ok(None);
        }
        found = Some(at);
    }
    // The document reader is no tool; a run it finds no table in is read
    // generically, as the run alone would be.
    let document = crate::ingest::formats::document::Document;
    let is_document = |at: usize| registry.at(at).is_some_and(|f| f.name() == document.name());
    let found = found.flatten().filter(|&at| {
        !is_document(at)
            || parts.iter().any(|p| {
                document
                    .parse_accounted(p)
                    .is_ok_and(|d| !d.observations.is_empty())
            })
    });
    let Some(format) = found
        .or_else(|| registry.index_of(generic::NAME))
        .and_then(|at| registry.at(at))
    else {
        return Ok(None);
    };
    if same && whole.is_none_or(|w| w.name() != format.name()) {
        return Ok(None);
    }
    // Nor is a reader the whole file already fell back to.
    let document = document.name();
    let fallback = |f: &dyn Format| f.name() == document || f.name() == generic::NAME;
    if format.name() == document || whole.is_some_and(|w| fallback(w) && w.name() == format.name())
    {
        return Ok(None);
    }
    let Some(mut all) = read_each(registry, format, &parts, &runs, src, 0)? else {
        return Ok(None);
    };
    all.consumed.extend(prompts);
    let (obs, mut report) = account(src, format, all)?;
    if format.name() == generic::NAME {
        report.note = Some(
            "no importer recognised this file: each of its runs read generically \
             (check the values, or name a format with --format NAME)"
                .into(),
        );
    }
    Ok(Some((obs, Account::Report(report))))
}

/// Loops within loops: a run read alone that is itself a loop's log of
/// the same tool is read run by run, to this depth.
const NESTED: usize = 3;

/// Each of `parts`, the runs `runs` cuts `src` into, read with `format`
/// as that run alone would be, joined in order, the loop's lines skipped;
/// `None` when `format` refuses a run or finds nothing in one.
fn read_each(
    registry: &Registry,
    format: &dyn Format,
    parts: &[Source],
    runs: &LoopRuns,
    src: &Source,
    depth: usize,
) -> Result<Option<Parsed>> {
    let mut all = Parsed::default();
    for part in parts {
        let Some(mut p) = read_part(registry, format, part, depth)? else {
            return Ok(None);
        };
        if p.bulk.is_empty() && p.observations.is_empty() {
            return Ok(None);
        }
        all.bulk.append(std::mem::take(&mut p.bulk));
        all.observations.append(&mut p.observations);
        all.consumed.append(&mut p.consumed);
        all.skipped.append(&mut p.skipped);
    }
    all.skipped.extend(
        runs.separators
            .iter()
            .map(|&i| (src.lines[i].number, BETWEEN_RUNS.to_string())),
    );
    Ok(Some(all))
}

/// One run read with `format`: run by run again when it is a loop's log
/// of the same tool itself, else as a file of it.
fn read_part(
    registry: &Registry,
    format: &dyn Format,
    part: &Source,
    depth: usize,
) -> Result<Option<Parsed>> {
    if depth < NESTED {
        if let Some(runs) = loop_runs(part) {
            let mut prompts = Vec::new();
            let inner: Vec<Source> = runs
                .parts
                .iter()
                .map(|r| {
                    let run = Source::from_lines(&part.path, part.lines[r.clone()].to_vec());
                    capture(registry, run, &mut prompts)
                })
                .collect();
            let same = inner.iter().all(|p| {
                registry
                    .detect_scored_at(p)
                    .and_then(|(at, _)| registry.at(at))
                    .is_some_and(|f| f.name() == format.name())
            });
            if same {
                if let Some(mut p) = read_each(registry, format, &inner, &runs, part, depth + 1)? {
                    p.consumed.extend(prompts);
                    return Ok(Some(p));
                }
            }
        }
    }
    let read = if format.name() == generic::NAME {
        generic::Generic::read(part).map(|(p, _)| (format, p, None))
    } else {
        refused_or_read(registry, format, part)
    };
    Ok(match read {
        Ok((_, p, None)) => Some(p),
        // The importer knows the tool but not the prompt above this run.
        _ => match behind_prompt(part) {
            Some((bare, lines)) => match refused_or_read(registry, format, &bare) {
                Ok((_, mut p, None)) => {
                    p.consumed.extend(lines);
                    Some(p)
                }
                _ => None,
            },
            None => None,
        },
    })
}

/// A run as it is read: behind its shell prompt (the prompt's line put in
/// `prompts`) unless an importer recognises the run with its prompt
/// (`$ bw_mem 8m rd` names lmbench's test), as the whole file's is.
fn capture(registry: &Registry, run: Source, prompts: &mut Vec<u32>) -> Source {
    let Some((bare, lines)) = behind_prompt(&run) else {
        return run;
    };
    let known = registry
        .detect_scored_at(&run)
        .and_then(|(at, _)| registry.at(at))
        .is_some_and(|f| f.name() != generic::NAME && f.name() != Document.name());
    if known {
        return run;
    }
    prompts.extend(lines);
    bare
}
