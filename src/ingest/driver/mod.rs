//! Reads files and folders with the registry, in parallel, and accounts for
//! every file and every numeric-looking line that no format read.

mod account;
mod budget;
mod carry;
mod detect;
mod inputs;
mod loop_runs;
mod pieces;
mod read;
mod refused;
mod run_counter;
mod runs;
mod stream;
mod streamed;
#[cfg(test)]
mod tests;
mod types;
mod usage;

pub use types::{FileReport, IngestOptions, Ingested, Unit};

use crate::error::Result;
use crate::ingest::Registry;
use crate::model::{Batch, Dataset};
use std::path::PathBuf;
use stream::stream;
use stream::Progress;
use stream::WINDOW_BYTES_PER_THREAD;

/// Reads every path (files, folders, glob patterns) and returns the tidy
/// table plus a report per input. The first malformed input aborts with an
/// error naming it; unrecognised files are reported, not fatal.
pub fn ingest(paths: &[PathBuf], registry: &Registry, opts: &IngestOptions) -> Result<Ingested> {
    let mut dataset = Dataset::default();
    let sink = |obs: Batch, progress: Progress| {
        // Room for the rows the inputs still hold, as many per byte as so
        // far, and a tenth more: the columns are then copied once or twice
        // while they are small, not at every doubling (a large file read
        // in pieces comes as hundreds of batches). Room not yet filled
        // costs address space, not memory.
        let needed = dataset.len() + obs.len();
        let expected = progress.rows_expected(needed);
        dataset.reserve_total(expected + expected / 10);
        dataset.append(obs.columns);
        dataset.extend_from_vec(obs.rows);
        Ok(())
    };
    let files = stream(paths, registry, opts, WINDOW_BYTES_PER_THREAD, Ok, sink)?;
    Ok(Ingested { dataset, files })
}

/// [`ingest`] without holding the table. The rows, with variants set and
/// runs numbered as [`ingest`] would, are cut into batches in input order
/// (an input's rows, or those of several small inputs); `prepare` turns
/// each batch into a `T` on any thread, several at once (e.g. encodes it),
/// and `sink` takes the results one by one in input order. Inputs are read a
/// window at a time on the thread pool while the previous window is
/// prepared and the one before it sunk, so memory is bounded by two
/// windows of rows and one of prepared results, not by all the inputs;
/// `ingest --out` streams this way. Returns the per-input reports.
pub fn ingest_each<T: Send>(
    paths: &[PathBuf],
    registry: &Registry,
    opts: &IngestOptions,
    prepare: impl Fn(Batch) -> Result<T> + Sync,
    mut sink: impl FnMut(T) -> Result<()> + Send,
) -> Result<Vec<FileReport>> {
    stream(
        paths,
        registry,
        opts,
        WINDOW_BYTES_PER_THREAD,
        prepare,
        |t, _| sink(t),
    )
}

/// What `paths` expand to, one [`Unit`] per report [`ingest`] would give:
/// each file of the folders and globs, and each folder a directory format
/// reads whole; nothing is read but the folders' listings.
pub fn units(paths: &[PathBuf], registry: &Registry, opts: &IngestOptions) -> Result<Vec<Unit>> {
    let mut inputs = Vec::new();
    for p in paths {
        inputs::expand(p, registry, opts, &mut inputs)?;
    }
    let mut out: Vec<Unit> = Vec::with_capacity(inputs.len());
    for input in inputs {
        match input {
            inputs::Input::File(path, _) => out.push(Unit {
                path,
                folder: false,
            }),
            inputs::Input::Part {
                dir, first: true, ..
            } => out.push(Unit {
                path: dir.path.clone(),
                folder: true,
            }),
            inputs::Input::Part { .. } | inputs::Input::Piece { .. } => {}
        }
    }
    Ok(out)
}
