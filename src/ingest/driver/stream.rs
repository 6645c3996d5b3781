//! Reading the inputs a window at a time on the thread pool, preparing
//! and handing on their rows in input order.

use super::account::Account;
use super::budget;
use super::inputs::{cut_large, expand, input_bytes, input_size, Input};
use super::read::read_one;
use super::run_counter::RunCounter;
use super::runs::{LocalRuns, Variants};
use super::types::{FileReport, IngestOptions};
use crate::error::{Error, Result};
use crate::ingest::Registry;
use crate::model::Batch;
use rayon::prelude::*;
use std::path::PathBuf;

/// Rows of consecutive small inputs are handed on together up to this many,
/// so that a folder of thousands of one-line logs does not become thousands
/// of Parquet row groups.
pub(super) const BATCH_ROWS: usize = 1 << 16;

/// How far a [`stream`] has come when it hands a batch on: the bytes of
/// the batch's inputs and of all inputs before them, out of all inputs'
/// bytes (each input counted as [`input_bytes`] counts it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Progress {
    pub(super) done: u64,
    pub(super) total: u64,
}

impl Progress {
    /// The rows all inputs would give if the rest gave as many per byte
    /// as those done, given `rows` so far (`rows` itself when nothing is
    /// known).
    pub(super) fn rows_expected(self, rows: usize) -> usize {
        if self.done == 0 || self.done >= self.total {
            return rows;
        }
        (rows as f64 * self.total as f64 / self.done as f64).ceil() as usize
    }
}

/// [`ingest_each`] with the window size as a parameter (tests use tiny ones).
pub(super) fn stream<T: Send>(
    paths: &[PathBuf],
    registry: &Registry,
    opts: &IngestOptions,
    window_bytes_per_thread: u64,
    prepare: impl Fn(Batch) -> Result<T> + Sync,
    sink: impl FnMut(T, Progress) -> Result<()> + Send,
) -> Result<Vec<FileReport>> {
    if let Some(name) = &opts.format {
        if registry.get(name).is_none() {
            let known: Vec<&str> = registry.formats().map(|f| f.name()).collect();
            return Err(Error::Usage(format!(
                "unknown format `{name}`; known formats: {}",
                known.join(", ")
            )));
        }
    }
    let mut inputs = Vec::new();
    for p in paths {
        expand(p, registry, opts, &mut inputs)?;
    }
    let size: u64 = inputs.iter().map(input_size).sum();
    let threads = rayon::current_num_threads().max(1);
    let readers = budget::readers(threads, size);
    // Planning the pieces runs on the readers' pool too: a thread of the
    // wider pool that allocated a file's text and never ran again kept
    // what its heap held (a 15 MB Go log on 4 threads: 153 MB, 123 on 2).
    let prepare = &prepare;
    let all = move || {
        each_window(
            inputs,
            registry,
            opts,
            (window_bytes_per_thread, readers, size),
            prepare,
            sink,
        )
    };
    match budget::reading_pool(readers) {
        Some(pool) => pool.install(all),
        None => all(),
    }
}

/// [`stream`] of the expanded inputs, on the pool it runs on: `shape` is
/// the window's bytes per thread, the readers at once and the inputs' size.
fn each_window<T: Send>(
    inputs: Vec<Input>,
    registry: &Registry,
    opts: &IngestOptions,
    (window_bytes_per_thread, readers, size): (u64, usize, u64),
    prepare: impl Fn(Batch) -> Result<T> + Sync,
    mut sink: impl FnMut(T, Progress) -> Result<()> + Send,
) -> Result<Vec<FileReport>> {
    // A large file is cut into pieces of a window's share for one thread.
    let piece_bytes = window_bytes_per_thread as usize;
    let inputs = cut_large(inputs, registry, opts, piece_bytes)?;
    let variants = Variants::new(opts);
    let mut runs = RunCounter::default();
    let mut reports = Vec::with_capacity(inputs.len());
    let read = |input: &Input| -> Result<(ReadInput, Account)> {
        let (mut obs, report) = read_one(input, registry, opts)?;
        variants.apply(&mut obs);
        let runs = LocalRuns::count(&mut obs);
        crate::ingest::progress::read(input_size(input));
        let bytes = input_bytes(input);
        Ok((ReadInput { obs, runs, bytes }, report))
    };
    let mut sink_all = |prepared: Vec<(Result<T>, Progress)>| -> Result<()> {
        for (p, progress) in prepared {
            sink(p?, progress)?;
        }
        Ok(())
    };
    let total = inputs.iter().map(input_bytes).sum();
    crate::ingest::progress::planned(size);
    // Bytes of the inputs whose rows went into batches so far.
    let mut batched = 0;
    // Each round reads one window while the window read before is prepared
    // and the one before that is sunk. The only serial steps are the run
    // offsets (one lookup per distinct key and input) and the sink.
    let rounds = || -> Result<Vec<FileReport>> {
        let mut windows = windows(&inputs, readers, window_bytes_per_thread).into_iter();
        let mut pending: Vec<Result<(ReadInput, Account)>> = Vec::new();
        let mut prepared: Vec<(Result<T>, Progress)> = Vec::new();
        loop {
            let window: &[Input] = windows.next().unwrap_or(&[]);
            let mut delivered = Vec::with_capacity(pending.len());
            for r in std::mem::take(&mut pending) {
                match r {
                    Ok((r, report)) => {
                        report.add_to(&mut reports);
                        delivered.push(r);
                    }
                    Err(e) => {
                        // Rows of earlier inputs are delivered before the error.
                        sink_all(prepared)?;
                        return Err(e);
                    }
                }
            }
            let keys: Vec<&LocalRuns> = delivered.iter().map(|r| &r.runs).collect();
            let offsets = runs.offsets(&keys);
            let mut numbered: Vec<(ReadInput, Vec<u32>)> =
                delivered.into_iter().zip(offsets).collect();
            numbered
                .par_iter_mut()
                .for_each(|(r, offsets)| r.number_runs(offsets));
            let batches = batches(numbered.into_iter().map(|(r, _)| r).collect());
            if window.is_empty() && batches.is_empty() {
                sink_all(prepared)?;
                return Ok(reports);
            }
            let batches = batches.into_iter().map(|(rows, bytes)| {
                batched += bytes;
                let progress = Progress {
                    done: batched,
                    total,
                };
                (rows, progress)
            });
            // Reading and preparing are one parallel pass with the two kinds
            // of job alternating, so that the halves the pool splits it into
            // hold about equal work: as two joined passes, a thread that had
            // finished its share waited for the other's last large input.
            let jobs = interleave(window, batches);
            let (sunk, done) = rayon::join(
                || sink_all(std::mem::take(&mut prepared)),
                || {
                    jobs.into_par_iter()
                        .with_max_len(1)
                        .map(|job| match job {
                            Job::Read(input) => Done::Read(Box::new(read(input))),
                            Job::Prepare(rows, progress) => Done::Prepared(prepare(rows), progress),
                        })
                        .collect::<Vec<_>>()
                },
            );
            sunk?;
            for d in done {
                match d {
                    Done::Read(r) => pending.push(*r),
                    Done::Prepared(p, progress) => prepared.push((p, progress)),
                }
            }
        }
    };
    rounds()
}

/// One piece of a round's parallel pass.
pub(super) enum Job<'a> {
    /// Read an input of this round's window.
    Read(&'a Input),
    /// Prepare a batch of rows of the window read in the round before.
    Prepare(Batch, Progress),
}

/// What a [`Job`] gave. A read input is boxed: its table's columns and
/// run keys would make every `Done` five times the size of a prepared one.
pub(super) enum Done<T> {
    Read(Box<Result<(ReadInput, Account)>>),
    Prepared(Result<T>, Progress),
}

/// The batches and the window's inputs, alternating (each kind in order).
/// A batch comes before an input: a thread then frees a batch's rows before
/// it reads new ones, and the two windows' rows are not all held at once.
pub(super) fn interleave(
    window: &[Input],
    batches: impl ExactSizeIterator<Item = (Batch, Progress)>,
) -> Vec<Job<'_>> {
    let mut jobs = Vec::with_capacity(window.len() + batches.len());
    let mut reads = window.iter().map(Job::Read);
    let mut prepares = batches.map(|(rows, progress)| Job::Prepare(rows, progress));
    loop {
        match (prepares.next(), reads.next()) {
            (None, None) => return jobs,
            (p, r) => jobs.extend(p.into_iter().chain(r)),
        }
    }
}

/// One input read, its samples numbered from 0 within it.
pub(super) struct ReadInput {
    pub(super) obs: Batch,
    pub(super) runs: LocalRuns,
    /// What the input counts for ([`input_bytes`]).
    pub(super) bytes: u64,
}

impl ReadInput {
    /// Turns the run numbers within this input into numbers across inputs:
    /// `offsets` holds, per key of `runs`, the samples earlier inputs had.
    pub(super) fn number_runs(&mut self, offsets: &[u32]) {
        let series = self.obs.columns.series_count();
        let (heads, rows) = self.runs.key_of.split_at(series);
        for (si, &k) in heads.iter().enumerate() {
            if let Some(&off) = offsets.get(k as usize) {
                self.obs.columns.offset_runs(si, off);
            }
        }
        for (o, &k) in self.obs.rows.iter_mut().zip(rows) {
            if let (Some(run), Some(off)) = (o.run.as_mut(), offsets.get(k as usize)) {
                *run += off;
            }
        }
    }
}

/// Cuts the rows into batches in order: an input's rows as they are (no
/// copy), small inputs' rows joined up to [`BATCH_ROWS`]; each with the
/// bytes its inputs count for.
pub(super) fn batches(read: Vec<ReadInput>) -> Vec<(Batch, u64)> {
    // The sizes first, so that a joined batch is allocated once at its size
    // (growing it by doubling copied its rows two or three times over).
    let mut sizes: Vec<(usize, usize)> = Vec::new(); // (inputs, rows)
    for r in &read {
        match sizes.last_mut() {
            Some((n, rows)) if *rows + r.obs.len() <= BATCH_ROWS => {
                *n += 1;
                *rows += r.obs.len();
            }
            _ => sizes.push((1, r.obs.len())),
        }
    }
    let mut read = read.into_iter();
    let mut out = Vec::with_capacity(sizes.len());
    for (n, rows) in sizes {
        let Some(first) = read.next() else { break };
        if n == 1 {
            out.push((first.obs, first.bytes));
            continue;
        }
        let mut batch = first.obs;
        batch.rows.reserve_exact(rows - batch.len());
        let mut bytes = first.bytes;
        for r in read.by_ref().take(n - 1) {
            bytes += r.bytes;
            batch.append(r.obs);
        }
        out.push((batch, bytes));
    }
    out
}

/// Bytes of input a window may hold per thread. Rows can cost several
/// times their input text in memory (a row of a mail table read as an
/// `Observation` of 176 bytes), so this, not the number of files, bounds
/// what `ingest --out` holds at once.
pub(super) const WINDOW_BYTES_PER_THREAD: u64 = 4 << 20;

/// Splits the inputs into windows of at least `threads` inputs (one for each
/// thread to read) that together hold about `threads` ×
/// [`WINDOW_BYTES_PER_THREAD`] bytes: many small files go together, large ones
/// go a few at a time. A part of a folder counts as [`DIR_PART_BYTES`].
pub(super) fn windows(inputs: &[Input], threads: usize, bytes_per_thread: u64) -> Vec<&[Input]> {
    let budget = threads as u64 * bytes_per_thread;
    let mut out = Vec::new();
    let (mut start, mut bytes) = (0, 0u64);
    for (i, input) in inputs.iter().enumerate() {
        bytes += input_bytes(input);
        let count = i + 1 - start;
        if count >= threads && bytes >= budget {
            out.push(&inputs[start..=i]);
            (start, bytes) = (i + 1, 0);
        }
    }
    if start < inputs.len() {
        out.push(&inputs[start..]);
    }
    out
}
