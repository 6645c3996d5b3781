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
use crate::ingest::formats::generic;
use crate::ingest::shared::runs::loop_runs;
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
    let Some(runs) = loop_runs(src) else {
        return Ok(None);
    };
    let parts: Vec<Source> = runs
        .parts
        .iter()
        .map(|r| Source::from_lines(&src.path, src.lines[r.clone()].to_vec()))
        .collect();
    // Every run the same importer's; or, when detection knows none of
    // them, the generic reader's (a bare `perf bench -f simple` figure).
    let mut found = None;
    for part in &parts {
        let at = registry.detect_scored_at(part).map(|(at, _)| at);
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
    // Nor is a reader the whole file already fell back to.
    let document = document.name();
    let fallback = |f: &dyn Format| f.name() == document || f.name() == generic::NAME;
    if format.name() == document || whole.is_some_and(|w| fallback(w) && w.name() == format.name())
    {
        return Ok(None);
    }
    let mut all = Parsed::default();
    for part in &parts {
        let read = if format.name() == generic::NAME {
            generic::Generic::read(part).map(|(p, _)| (format, p, None))
        } else {
            refused_or_read(registry, format, part)
        };
        let Ok((_, mut p, None)) = read else {
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
    if all.bulk.is_empty() && all.observations.is_empty() {
        return Ok(None);
    }
    all.skipped.extend(
        runs.separators
            .iter()
            .map(|&i| (src.lines[i].number, BETWEEN_RUNS.to_string())),
    );
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
