//! Reads files and folders with the registry, in parallel, and accounts for
//! every file and every numeric-looking line that no format read.

mod carry;
mod pieces;

use crate::error::{Error, Result};
use crate::ingest::{shared::numbers::looks_numeric, Format, Parsed, Registry, Source};
use crate::model::{text_eq, Dataset, Observation, SmolStr};
use pieces::PiecedFile;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How to read the inputs.
#[derive(Debug, Clone, Default)]
pub struct IngestOptions {
    /// Force this format instead of detecting one.
    pub format: Option<String>,
    /// Override every observation's variant with this name.
    pub variant: Option<String>,
    /// Give observations that carry no variant this name.
    pub default_variant: Option<String>,
}

/// What happened to one input file (or folder a directory format reads).
#[derive(Debug, Clone, PartialEq)]
pub struct FileReport {
    /// The path as given or found while walking a folder.
    pub path: String,
    /// The format that read it; `None` when no format recognised it.
    pub format: Option<String>,
    /// Observations produced.
    pub rows: usize,
    /// Original line numbers that look numeric but produced no observation.
    /// Empty for structured formats, whose values have no line.
    pub unread_numeric: Vec<u32>,
    /// Lines the format left out on purpose, with its reason.
    pub skipped: Vec<(u32, String)>,
    /// A remark for the user (why a file was skipped).
    pub note: Option<String>,
}

/// The result of ingesting a set of paths.
#[derive(Debug, Clone, Default)]
pub struct Ingested {
    pub dataset: Dataset,
    pub files: Vec<FileReport>,
}

/// One unit of work: a file, or a part of a folder a directory format
/// claims (read a few parts at a time, like files, so that a large tree is
/// never held whole).
enum Input {
    /// A file and its size in bytes.
    File(PathBuf, u64),
    /// A part of a folder (see [`crate::ingest::Format::dir_parts`]); `first` for
    /// the folder's first part, which opens its report.
    Part {
        dir: Arc<DirInput>,
        part: PathBuf,
        first: bool,
    },
    /// A piece of a large file (see [`pieces`]); the one at byte 0 opens
    /// the file's report.
    Piece {
        file: Arc<PiecedFile>,
        piece: pieces::Piece,
    },
}

/// A folder read by a directory format, shared by its parts.
struct DirInput {
    path: PathBuf,
    format: String,
}

/// What reading one input adds to the reports: a file's report (or a
/// folder's or a pieced file's, opened by its first part), or what a later
/// part adds to the report its first part opened (its rows, unread and
/// skipped lines; its path, format and note are the first part's).
enum Account {
    Report(FileReport),
    More(FileReport),
}

impl Account {
    fn add_to(self, reports: &mut Vec<FileReport>) {
        match self {
            Account::Report(r) => reports.push(r),
            Account::More(more) => {
                if let Some(r) = reports.last_mut() {
                    // A pieced file whose first piece held no values says
                    // so only while no later piece has held any.
                    if r.rows == 0 && more.rows > 0 {
                        r.note = None;
                    }
                    r.rows += more.rows;
                    r.unread_numeric.extend(more.unread_numeric);
                    r.skipped.extend(more.skipped);
                }
            }
        }
    }
}

/// Reads every path (files, folders, glob patterns) and returns the tidy
/// table plus a report per input. The first malformed input aborts with an
/// error naming it; unrecognised files are reported, not fatal.
pub fn ingest(paths: &[PathBuf], registry: &Registry, opts: &IngestOptions) -> Result<Ingested> {
    let mut rows: Vec<Observation> = Vec::new();
    let sink = |obs: Vec<Observation>, progress: Progress| {
        // A first batch that is all there is (or of which nothing is
        // known) becomes the table as it is.
        if rows.is_empty() && obs.len() >= progress.rows_expected(obs.len()) {
            rows = obs;
            return Ok(());
        }
        // Room for the rows the inputs still hold, as many per byte as so
        // far, and a tenth more: the table is then copied once or twice
        // while it is small, not at every doubling, each copy holding the
        // old table and the new at once (a large file read in pieces comes
        // as hundreds of batches). Room not yet filled costs address space,
        // not memory.
        let needed = rows.len() + obs.len();
        if needed > rows.capacity() {
            let expected = progress.rows_expected(needed);
            let room = expected + expected / 10;
            rows.reserve_exact(room.max(needed) - rows.len());
        }
        rows.extend(obs);
        Ok(())
    };
    let files = stream(paths, registry, opts, WINDOW_BYTES_PER_THREAD, Ok, sink)?;
    Ok(Ingested {
        dataset: Dataset::new(rows),
        files,
    })
}

/// Rows of consecutive small inputs are handed on together up to this many,
/// so that a folder of thousands of one-line logs does not become thousands
/// of Parquet row groups.
const BATCH_ROWS: usize = 1 << 16;

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
    prepare: impl Fn(Vec<Observation>) -> Result<T> + Sync,
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

/// How far a [`stream`] has come when it hands a batch on: the bytes of
/// the batch's inputs and of all inputs before them, out of all inputs'
/// bytes (each input counted as [`input_bytes`] counts it).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Progress {
    done: u64,
    total: u64,
}

impl Progress {
    /// The rows all inputs would give if the rest gave as many per byte
    /// as those done, given `rows` so far (`rows` itself when nothing is
    /// known).
    fn rows_expected(self, rows: usize) -> usize {
        if self.done == 0 || self.done >= self.total {
            return rows;
        }
        (rows as f64 * self.total as f64 / self.done as f64).ceil() as usize
    }
}

/// [`ingest_each`] with the window size as a parameter (tests use tiny ones).
fn stream<T: Send>(
    paths: &[PathBuf],
    registry: &Registry,
    opts: &IngestOptions,
    window_bytes_per_thread: u64,
    prepare: impl Fn(Vec<Observation>) -> Result<T> + Sync,
    mut sink: impl FnMut(T, Progress) -> Result<()> + Send,
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
    // A large file is cut into pieces of a window's share for one thread.
    let piece_bytes = window_bytes_per_thread as usize;
    for p in paths {
        expand(p, registry, opts, &mut inputs)?;
    }
    let inputs = cut_large(inputs, registry, opts, piece_bytes)?;
    let variants = Variants::new(opts);
    let mut runs = RunCounter::default();
    let mut reports = Vec::with_capacity(inputs.len());
    let read = |input: &Input| -> Result<(ReadInput, Account)> {
        let (mut obs, report) = read_one(input, registry, opts)?;
        variants.apply(&mut obs);
        let runs = LocalRuns::count(&mut obs);
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
    // Bytes of the inputs whose rows went into batches so far.
    let mut batched = 0;
    // Each round reads one window while the window read before is prepared
    // and the one before that is sunk. The only serial steps are the run
    // offsets (one lookup per distinct key and input) and the sink.
    let threads = rayon::current_num_threads().max(1);
    let mut windows = windows(&inputs, threads, window_bytes_per_thread).into_iter();
    let mut pending: Vec<Result<(ReadInput, Account)>> = Vec::new();
    let mut prepared: Vec<(Result<T>, Progress)> = Vec::new();
    loop {
        let window: &[Input] = windows.next().unwrap_or(&[]);
        let mut numbered = Vec::with_capacity(pending.len());
        for r in std::mem::take(&mut pending) {
            match r {
                Ok((r, report)) => {
                    let offsets = runs.offsets(&r.runs);
                    report.add_to(&mut reports);
                    numbered.push((r, offsets));
                }
                Err(e) => {
                    // Rows of earlier inputs are delivered before the error.
                    sink_all(prepared)?;
                    return Err(e);
                }
            }
        }
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
                        Job::Read(input) => Done::Read(read(input)),
                        Job::Prepare(rows, progress) => Done::Prepared(prepare(rows), progress),
                    })
                    .collect::<Vec<_>>()
            },
        );
        sunk?;
        for d in done {
            match d {
                Done::Read(r) => pending.push(r),
                Done::Prepared(p, progress) => prepared.push((p, progress)),
            }
        }
    }
}

/// One piece of a round's parallel pass.
enum Job<'a> {
    /// Read an input of this round's window.
    Read(&'a Input),
    /// Prepare a batch of rows of the window read in the round before.
    Prepare(Vec<Observation>, Progress),
}

/// What a [`Job`] gave.
enum Done<T> {
    Read(Result<(ReadInput, Account)>),
    Prepared(Result<T>, Progress),
}

/// The batches and the window's inputs, alternating (each kind in order).
/// A batch comes before an input: a thread then frees a batch's rows before
/// it reads new ones, and the two windows' rows are not all held at once.
fn interleave(
    window: &[Input],
    batches: impl ExactSizeIterator<Item = (Vec<Observation>, Progress)>,
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
struct ReadInput {
    obs: Vec<Observation>,
    runs: LocalRuns,
    /// What the input counts for ([`input_bytes`]).
    bytes: u64,
}

impl ReadInput {
    /// Turns the run numbers within this input into numbers across inputs:
    /// `offsets` holds, per key of `runs`, the samples earlier inputs had.
    fn number_runs(&mut self, offsets: &[u32]) {
        for (o, &k) in self.obs.iter_mut().zip(&self.runs.key_of) {
            if let (Some(run), Some(off)) = (o.run.as_mut(), offsets.get(k as usize)) {
                *run += off;
            }
        }
    }
}

/// Cuts the rows into batches in order: an input's rows as they are (no
/// copy), small inputs' rows joined up to [`BATCH_ROWS`]; each with the
/// bytes its inputs count for.
fn batches(read: Vec<ReadInput>) -> Vec<(Vec<Observation>, u64)> {
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
        let mut batch = Vec::with_capacity(rows);
        let mut bytes = first.bytes;
        batch.extend(first.obs);
        for r in read.by_ref().take(n - 1) {
            bytes += r.bytes;
            batch.extend(r.obs);
        }
        out.push((batch, bytes));
    }
    out
}

/// The variant options, applied to every row as its input is read.
struct Variants {
    variant: Option<SmolStr>,
    default_variant: Option<SmolStr>,
}

impl Variants {
    fn new(opts: &IngestOptions) -> Self {
        Variants {
            variant: opts.variant.as_deref().map(Into::into),
            default_variant: opts.default_variant.as_deref().map(Into::into),
        }
    }

    fn apply(&self, rows: &mut [Observation]) {
        for o in rows.iter_mut() {
            if let Some(v) = &self.variant {
                o.variant = v.clone();
            } else if o.variant.is_empty() {
                if let Some(v) = &self.default_variant {
                    o.variant = v.clone();
                }
            }
        }
    }
}

/// Samples are numbered 0, 1, 2 … per (benchmark, params, variant, metric)
/// in input order across files, so that run order survives for drift
/// checks. Each input numbers its own samples from 0 (in parallel); the
/// counts of earlier inputs are then added per key.
type RunKey = (SmolStr, SmolStr, SmolStr, SmolStr);

/// A [`RunKey`] borrowed from a row, so that looking a row's key up copies
/// no strings.
#[derive(Hash)]
struct RunKeyRef<'a>(&'a str, &'a str, &'a str, &'a str);

impl hashbrown::Equivalent<RunKey> for RunKeyRef<'_> {
    fn equivalent(&self, k: &RunKey) -> bool {
        text_eq(self.3, &k.3)
            && text_eq(self.0, &k.0)
            && text_eq(self.1, &k.1)
            && text_eq(self.2, &k.2)
    }
}

/// The keys of one input's samples and how many samples each has.
#[derive(Default)]
struct LocalRuns {
    /// Each key and its index in `counts`.
    index: hashbrown::HashMap<RunKey, u32>,
    /// Samples per key.
    counts: Vec<u32>,
    /// Per row: its key's index; `u32::MAX` for summaries.
    key_of: Vec<u32>,
}

/// The (benchmark, params, variant) of a row, borrowed: the part of its
/// [`RunKey`] that rows of one line or one command share.
#[derive(Hash)]
struct GroupKey<'a>(&'a str, &'a str, &'a str);

impl PartialEq for GroupKey<'_> {
    fn eq(&self, k: &Self) -> bool {
        text_eq(self.0, k.0) && text_eq(self.1, k.1) && text_eq(self.2, k.2)
    }
}

impl Eq for GroupKey<'_> {}

/// Metrics per group up to which a group's keys are found by a scan; past
/// it, by hashing the whole key.
const GROUP_SCAN: usize = 32;

impl LocalRuns {
    /// Numbers the samples of one input from 0 per key.
    ///
    /// Keys are found in two steps: the row's group (benchmark, params,
    /// variant), which is mostly the previous sample's and otherwise
    /// hashed, then its metric among the group's few. A Go line's three
    /// metrics, or a command's runs, then cost no hashing at all. The
    /// first pass only reads the rows, so that groups and metrics are
    /// borrowed names, each looked at once per row; the second numbers.
    fn count(rows: &mut [Observation]) -> LocalRuns {
        let mut runs = LocalRuns {
            key_of: Vec::with_capacity(rows.len()),
            ..LocalRuns::default()
        };
        {
            let mut groups: hashbrown::HashMap<GroupKey, u32> = hashbrown::HashMap::new();
            // Per group: the keys of its metrics so far.
            let mut metrics: Vec<Vec<(&str, u32)>> = Vec::new();
            // The previous sample's group.
            let mut last: Option<(GroupKey, u32)> = None;
            for o in rows.iter() {
                if !o.stat.is_sample() {
                    runs.key_of.push(u32::MAX);
                    continue;
                }
                let group = GroupKey(&o.benchmark, &o.params, &o.variant);
                let g = match &last {
                    Some((above, g)) if *above == group => *g,
                    _ => {
                        let next = metrics.len() as u32;
                        let g = *groups
                            .entry(GroupKey(group.0, group.1, group.2))
                            .or_insert(next);
                        if g == next {
                            metrics.push(Vec::new());
                        }
                        g
                    }
                };
                let metric: &str = &o.metric;
                let known = &metrics[g as usize];
                let found = if known.len() <= GROUP_SCAN {
                    known
                        .iter()
                        .find(|(m, _)| text_eq(m, metric))
                        .map(|&(_, k)| k)
                } else {
                    // Hashing the borrowed strings agrees with hashing the
                    // owned tuple: both hash four `str`s in order.
                    let key = RunKeyRef(group.0, group.1, group.2, metric);
                    runs.index.get(&key).copied()
                };
                let k = match found {
                    Some(k) => k,
                    None => {
                        let owned = (
                            o.benchmark.clone(),
                            o.params.clone(),
                            o.variant.clone(),
                            o.metric.clone(),
                        );
                        let k = runs.counts.len() as u32;
                        runs.counts.push(0);
                        runs.index.insert(owned, k);
                        metrics[g as usize].push((metric, k));
                        k
                    }
                };
                last = Some((group, g));
                runs.key_of.push(k);
            }
        }
        for (row, &k) in rows.iter_mut().zip(&runs.key_of) {
            if let Some(n) = runs.counts.get_mut(k as usize) {
                row.run = Some(*n);
                *n += 1;
            }
        }
        runs
    }
}

/// Samples counted so far per key, over the inputs already delivered.
///
/// A table of a few million distinct rows (a long e-mail table, each row
/// its own benchmark) has as many keys, and the counter outlives every
/// row: held as four names each, its keys were most of the memory of such
/// an ingest (220 of 305 MB for a 20 MB mail). A key is held as a 128-bit
/// digest of its names instead, 16 bytes a key: the first 64 bits find it,
/// the next 32 tell it from another key with the same first 64 (those few
/// go to `shared`, by the whole digest).
#[derive(Default)]
struct RunCounter {
    /// First 64 bits of a key's digest → (its next 32 bits, samples).
    keys: hashbrown::HashMap<u64, (u32, u32)>,
    /// Keys whose first 64 bits another key has: digest → samples.
    shared: hashbrown::HashMap<u128, u32>,
}

impl RunCounter {
    /// Per key of an input: the samples earlier inputs had; counts the
    /// input's own.
    fn offsets(&mut self, runs: &LocalRuns) -> Vec<u32> {
        let mut offsets = vec![0; runs.counts.len()];
        for (key, &k) in &runs.index {
            let n = runs.counts[k as usize];
            let seen = self.count_of(digest(key));
            offsets[k as usize] = *seen;
            *seen += n;
        }
        offsets
    }

    fn count_of(&mut self, d: u128) -> &mut u32 {
        let (first, tag) = ((d >> 64) as u64, (d >> 32) as u32);
        let (own_tag, _) = *self.keys.entry(first).or_insert((tag, 0));
        if own_tag == tag {
            &mut self.keys.get_mut(&first).expect("just found").1
        } else {
            self.shared.entry(d).or_insert(0)
        }
    }
}

/// A 128-bit digest of a key's names, each preceded by its length so that
/// no two keys run together alike.
fn digest(key: &RunKey) -> u128 {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    for part in [&key.0, &key.1, &key.2, &key.3] {
        h.update(&(part.len() as u64).to_le_bytes());
        h.update(part.as_bytes());
    }
    h.digest128()
}

/// Bytes of input a window may hold per thread. Rows cost several times
/// their input text in memory (a row of hyperfine JSON is 14 bytes of text
/// and 176 bytes as an `Observation`), so this, not the number of files,
/// bounds what `ingest --out` holds at once.
const WINDOW_BYTES_PER_THREAD: u64 = 4 << 20;

/// What a part of a folder counts for in a window. Its files are not
/// measured (a `stat` each would cost about as much as reading them), and
/// by its bytes of text a window would take a 9 MB Criterion tree nearly
/// whole. 64 KiB makes a window 64 parts per thread: ~13,000 rows of
/// Criterion runs (2.4 MB) per window. Four times as many parts per window
/// made no faster ingest but doubled the peak memory (26 -> 46-68 MiB with
/// Parquet output, a 2,000-benchmark tree). The Parquet file, in row
/// groups of a window each, is 14% larger than in one group.
const DIR_PART_BYTES: u64 = 64 << 10;

/// What an input counts for in a window and in [`Progress`]: its bytes,
/// [`DIR_PART_BYTES`] for a part of a folder, a piece's bytes times its
/// file's weight.
fn input_bytes(input: &Input) -> u64 {
    match input {
        Input::File(_, size) => *size,
        Input::Part { .. } => DIR_PART_BYTES,
        Input::Piece { piece, file } => (piece.bytes.end - piece.bytes.start) * file.weight,
    }
}

/// Splits the inputs into windows of at least `threads` inputs (one for each
/// thread to read) that together hold about `threads` ×
/// [`WINDOW_BYTES_PER_THREAD`] bytes: many small files go together, large ones
/// go a few at a time. A part of a folder counts as [`DIR_PART_BYTES`].
fn windows(inputs: &[Input], threads: usize, bytes_per_thread: u64) -> Vec<&[Input]> {
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

fn expand(p: &Path, registry: &Registry, opts: &IngestOptions, out: &mut Vec<Input>) -> Result<()> {
    let s = p.to_string_lossy();
    if !p.exists() && s.contains(['*', '?', '[']) {
        let mut found = false;
        let entries = glob::glob(&s).map_err(|e| Error::Usage(format!("bad glob `{s}`: {e}")))?;
        for entry in entries.flatten() {
            found = true;
            expand(&entry, registry, opts, out)?;
        }
        if !found {
            return Err(Error::Usage(format!("{s}: no file matches")));
        }
        return Ok(());
    }
    let meta = std::fs::metadata(p).map_err(|e| Error::io(p, e))?;
    if meta.is_dir() {
        let forced = opts.format.as_deref().and_then(|n| registry.get(n));
        let dir_format = match forced {
            Some(f) if f.detect_dir(p) > 0 => Some(f),
            Some(_) => None,
            None => registry.detect_dir(p),
        };
        if let Some(f) = dir_format {
            let dir = Arc::new(DirInput {
                path: p.to_path_buf(),
                format: f.name().to_string(),
            });
            let parts = f.dir_parts(p)?;
            out.extend(parts.into_iter().enumerate().map(|(i, part)| Input::Part {
                dir: dir.clone(),
                part,
                first: i == 0,
            }));
            return Ok(());
        }
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
            .map_err(|e| Error::io(p, e))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|e| {
                !e.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with('.'))
            })
            .collect();
        entries.sort();
        for e in entries {
            expand(&e, registry, opts, out)?;
        }
    } else {
        out.push(Input::File(p.to_path_buf(), meta.len()));
    }
    Ok(())
}

/// The inputs with each large file that can be read in pieces replaced by
/// its pieces ([`pieces::plan`]). Planning reads a file once; the large
/// files of a folder are planned in parallel.
fn cut_large(
    inputs: Vec<Input>,
    registry: &Registry,
    opts: &IngestOptions,
    piece_bytes: usize,
) -> Result<Vec<Input>> {
    let large =
        |i: &Input| matches!(i, Input::File(_, size) if pieces::worth_planning(*size, piece_bytes));
    if !inputs.iter().any(large) {
        return Ok(inputs);
    }
    let planned: Vec<Result<Vec<Input>>> = inputs
        .into_par_iter()
        .with_max_len(1)
        .map(|input| match input {
            Input::File(path, size) if pieces::worth_planning(size, piece_bytes) => Ok(
                match pieces::plan(&path, size, registry, opts, piece_bytes)? {
                    Some((file, cut)) => cut
                        .into_iter()
                        .map(|piece| Input::Piece {
                            file: file.clone(),
                            piece,
                        })
                        .collect(),
                    None => vec![Input::File(path, size)],
                },
            ),
            other => Ok(vec![other]),
        })
        .collect();
    let mut out = Vec::with_capacity(planned.len());
    for p in planned {
        out.extend(p?);
    }
    Ok(out)
}

fn read_one(
    input: &Input,
    registry: &Registry,
    opts: &IngestOptions,
) -> Result<(Vec<Observation>, Account)> {
    match input {
        Input::Part { dir, part, first } => {
            let f = registry
                .get(&dir.format)
                .expect("directory format came from this registry");
            let mut obs = f.parse_dir_part(&dir.path, part)?;
            let mut names = SafeNames::default();
            obs.iter_mut().for_each(|o| names.make_safe(o));
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
        Input::File(path, _) => {
            let src = Source::read(path)?;
            // Context files are recognised before detection so that a
            // permissive reader never claims a .config as a table.
            if opts.format.is_none() {
                if let Some(kind) = super::context::context_kind(&src) {
                    let report = FileReport {
                        path: src.path.to_string(),
                        format: None,
                        rows: 0,
                        unread_numeric: Vec::new(),
                        skipped: Vec::new(),
                        note: Some(format!(
                            "{kind}: context, not a benchmark output (read by `patchperf check` \
                             and compare --kconfig/--env)"
                        )),
                    };
                    return Ok((Vec::new(), Account::Report(report)));
                }
            }
            let format = match &opts.format {
                Some(name) => registry.get(name),
                None => detect(registry, &src),
            };
            let Some(format) = format else {
                if let Some(read) = read_generically(registry, &src)? {
                    return Ok(read);
                }
                if let Some(read) = read_as_prose(registry, &src)? {
                    return Ok(read);
                }
                let report = FileReport {
                    path: src.path.to_string(),
                    format: None,
                    rows: 0,
                    unread_numeric: numeric_lines(&src, &LineSet::for_source(&src)),
                    skipped: Vec::new(),
                    note: Some(
                        "no importer recognised this file; name one with --format NAME \
                         (see `patchperf formats`) or describe it with --extractor FILE"
                            .into(),
                    ),
                };
                return Ok((Vec::new(), Account::Report(report)));
            };
            let parsed = if opts.format.is_some() {
                format.parse_accounted(&src)?
            } else {
                crate::ingest::formats::document::mixed::read(format, &src)?
            };
            // The document reader claims any text with numbers; when it
            // finds no table there, the generic reader may still read it.
            if opts.format.is_none()
                && parsed.observations.is_empty()
                && format.name() == "document"
            {
                if let Some(read) = read_generically(registry, &src)? {
                    return Ok(read);
                }
            }
            let (obs, report) = account(&src, format, parsed)?;
            Ok((obs, Account::Report(report)))
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

/// `src` read by the generic `label: value` reader, when it finds values
/// there; the report says so.
fn read_generically(
    registry: &Registry,
    src: &Source,
) -> Result<Option<(Vec<Observation>, Account)>> {
    let Some(generic) = registry.get(crate::ingest::formats::generic::NAME) else {
        return Ok(None);
    };
    let parsed = generic.parse_accounted(src)?;
    if parsed.observations.is_empty() {
        return Ok(None);
    }
    let (obs, mut report) = account(src, generic, parsed)?;
    report.note = Some(
        "no importer recognised this file: read generically as `label: value` lines \
         (check the values, or name a format with --format NAME)"
            .into(),
    );
    Ok(Some((obs, Account::Report(report))))
}

/// `src`, prose no importer recognised (a mail of a few result lines,
/// no table), read by the document reader when it finds values there;
/// the report says so. A reader that errs on it is no reading.
fn read_as_prose(registry: &Registry, src: &Source) -> Result<Option<(Vec<Observation>, Account)>> {
    let Some(document) = registry.get(crate::ingest::formats::document::Document.name()) else {
        return Ok(None);
    };
    if !crate::ingest::formats::document::mixed::has_sentences(src) {
        return Ok(None);
    }
    let Ok(parsed) = document.parse_accounted(src) else {
        return Ok(None);
    };
    if parsed.observations.is_empty() {
        return Ok(None);
    }
    let (obs, mut report) = account(src, document, parsed)?;
    report.note = Some(
        "no importer recognised this file: its lines of values among the prose were read \
         as a document (check the names, or name a format with --format NAME)"
            .into(),
    );
    Ok(Some((obs, Account::Report(report))))
}

/// An empty report of `path`.
fn report_of(path: String, format: Option<String>) -> FileReport {
    FileReport {
        path,
        format,
        rows: 0,
        unread_numeric: Vec::new(),
        skipped: Vec::new(),
        note: None,
    }
}

/// The rows `format` read from `src`, each with its source, and their
/// report: the numeric-looking lines of `src` that nobody read, and those
/// the format left out. A value that is not a finite number is an error.
fn account(
    src: &Source,
    format: &dyn Format,
    parsed: Parsed,
) -> Result<(Vec<Observation>, FileReport)> {
    let mut obs = parsed.observations;
    let mut names = SafeNames::default();
    for o in obs.iter_mut() {
        if o.source.is_empty() {
            o.source = src.path.clone();
        }
        names.make_safe(o);
        if !o.value.is_finite() {
            return Err(src.error(
                (o.line > 0).then_some(o.line),
                format!(
                    "value of {} {} is not a finite number",
                    o.benchmark, o.metric
                ),
            ));
        }
    }
    // Structured formats report line 0 for every value; counting their
    // lines as unread would only be noise.
    let unread = if obs.iter().all(|o| o.line == 0) && !obs.is_empty() {
        Vec::new()
    } else {
        // Line numbers are dense: a bitmap beats a hash set of
        // millions of entries.
        let mut used = LineSet::for_source(src);
        obs.iter().for_each(|o| used.insert(o.line));
        parsed.consumed.iter().for_each(|&l| used.insert(l));
        parsed.skipped.iter().for_each(|(l, _)| used.insert(*l));
        numeric_lines(src, &used)
    };
    let note = obs
        .is_empty()
        .then(|| "recognised, but it holds no values (no table found)".to_string());
    let report = FileReport {
        rows: obs.len(),
        unread_numeric: unread,
        skipped: parsed.skipped,
        note,
        ..report_of(src.path.to_string(), Some(format.name().to_string()))
    };
    Ok((obs, report))
}

/// Escapes the names of rows ([`crate::model::escape_unsafe`]) for every
/// output at once. Rows of one input repeat a few names: a field equal to
/// the one of the row before is given that row's result without a scan.
#[derive(Default)]
struct SafeNames {
    last: [(SmolStr, SmolStr); 6],
}

impl SafeNames {
    fn make_safe(&mut self, o: &mut Observation) {
        let fields = [
            &mut o.source,
            &mut o.benchmark,
            &mut o.params,
            &mut o.variant,
            &mut o.metric,
            &mut o.unit,
        ];
        for (field, (seen, safe)) in fields.into_iter().zip(self.last.iter_mut()) {
            if *field != *seen {
                *seen = field.clone();
                crate::model::escape_in_place(field);
                *safe = field.clone();
            } else {
                *field = safe.clone();
            }
        }
    }
}

/// Lines and bytes of a large file that detection looks at first.
const PROBE_LINES: usize = 4000;
const PROBE_BYTES: usize = 256 << 10;
/// Lines and bytes detection looks at when the first probe is not certain.
const WIDE_PROBE_LINES: usize = 1 << 16;
pub(super) const WIDE_PROBE_BYTES: usize = 1 << 20;

/// Detection for large inputs: every format's `detect` scans what it is
/// given, and all of them scanning a file of millions of lines cost more
/// than parsing it (two thirds of the time for a 5 MB file of e-mail
/// tables, where no format is certain). When a format is certain (≥ 90)
/// from the first [`PROBE_LINES`] lines (at most [`PROBE_BYTES`]: one-line
/// JSON has a single huge line), that is the answer; otherwise the first
/// MiB ([`WIDE_PROBE_BYTES`]) decides. A file whose telling lines all come
/// after its first MiB is not recognised: `--format` names its reader.
pub(super) fn detect<'r>(
    registry: &'r Registry,
    src: &Source,
) -> Option<&'r dyn crate::ingest::Format> {
    registry.at(detect_at(registry, src)?)
}

/// [`detect`], giving the format's place in the registry.
pub(super) fn detect_at(registry: &Registry, src: &Source) -> Option<usize> {
    let at = |s: &Source| registry.detect_scored_at(s).map(|(i, _)| i);
    if let Some(probe) = src.head(PROBE_LINES, PROBE_BYTES) {
        if let Some((f, confidence)) = registry.detect_scored_at(&probe) {
            if confidence >= 90 {
                return Some(f);
            }
        }
        if let Some(wide) = src.head(WIDE_PROBE_LINES, WIDE_PROBE_BYTES) {
            return at(&wide);
        }
    }
    at(src)
}

/// A set of original line numbers of one source, those of its lines only
/// (a source may be a piece from the middle of a file; rows of a re-read
/// tidy table carry line numbers of the file they first came from).
struct LineSet {
    first: u32,
    seen: Vec<bool>,
}

impl LineSet {
    fn for_source(src: &Source) -> Self {
        let first = src.lines.first().map_or(0, |l| l.number);
        let last = src.lines.last().map_or(0, |l| l.number);
        LineSet {
            first,
            seen: vec![false; (last - first.min(last)) as usize + 1],
        }
    }

    fn insert(&mut self, line: u32) {
        if let Some(seen) = line
            .checked_sub(self.first)
            .and_then(|i| self.seen.get_mut(i as usize))
        {
            *seen = true;
        }
    }

    fn contains(&self, line: u32) -> bool {
        line.checked_sub(self.first)
            .and_then(|i| self.seen.get(i as usize))
            .copied()
            .unwrap_or(false)
    }
}

fn numeric_lines(src: &Source, used: &LineSet) -> Vec<u32> {
    // Most unread lines (table borders, headers, prose) hold no digit at
    // all: a word-at-a-time test settles them before the byte-wise one.
    let mut v: Vec<u32> = src
        .lines
        .iter()
        .filter(|l| {
            !used.contains(l.number) && has_digit(l.text.as_bytes()) && looks_numeric(&l.text)
        })
        .map(|l| l.number)
        .collect();
    v.dedup();
    v
}

/// Whether `b` holds an ASCII digit, eight bytes at a time.
fn has_digit(b: &[u8]) -> bool {
    let mut words = b.chunks_exact(8);
    for w in &mut words {
        let mut word = [0u8; 8];
        word.copy_from_slice(w);
        if word_has_digit(u64::from_le_bytes(word)) {
            return true;
        }
    }
    words.remainder().iter().any(u8::is_ascii_digit)
}

/// Whether any byte of `w` is in `b'0'..=b'9'`. On the low seven bits of
/// each byte, adding 0x50 sets the byte's top bit from 0x30 up and adding
/// 0x46 sets it above 0x39, with no carry into the next byte; bytes with
/// their own top bit set (not ASCII) are masked out.
fn word_has_digit(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = ONES * 0x80;
    let low = w & !HIGH;
    let from_0 = low + ONES * (0x80 - 0x30);
    let above_9 = low + ONES * (0x7f - 0x39);
    from_0 & !above_9 & !w & HIGH != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn every_byte_value_is_a_digit_or_not_in_every_position() {
        for byte in 0..=255u8 {
            for at in 0..12 {
                let mut b = vec![b'-'; 12];
                b[at] = byte;
                assert_eq!(has_digit(&b), byte.is_ascii_digit(), "{byte:#x} at {at}");
            }
        }
    }

    proptest! {
        #[test]
        fn has_digit_agrees_with_a_byte_scan(b in proptest::collection::vec(any::<u8>(), 0..40)) {
            prop_assert_eq!(has_digit(&b), b.iter().any(u8::is_ascii_digit));
        }
    }

    /// More inputs than a window, so that windows and their overlap with
    /// the sink are exercised.
    fn hackbench_inputs(dir: &Path, files: usize) -> Vec<PathBuf> {
        (0..files)
            .map(|i| {
                let p = dir.join(format!("run{i:02}.txt"));
                let text = format!(
                    "Running in process mode with 10 groups using 40 file descriptors each (== 400 tasks)\n\
                     Each sender will pass 100 messages of 100 bytes\nTime: {}.{i:03}\n\
                     Running in process mode with 10 groups using 40 file descriptors each (== 400 tasks)\n\
                     Each sender will pass 100 messages of 100 bytes\nTime: {}.5\n",
                    i + 1,
                    i + 2
                );
                std::fs::write(&p, text).unwrap();
                p
            })
            .collect()
    }

    #[test]
    fn batches_join_small_inputs_in_order_and_keep_large_ones_whole() {
        let input = |n: usize, tag: usize| ReadInput {
            obs: (0..n)
                .map(|i| Observation::sample("b", "m", "s", (tag * 1_000_000 + i) as f64))
                .collect(),
            runs: LocalRuns::default(),
            bytes: 1 << tag,
        };
        let sizes = [3, 2, BATCH_ROWS, 1, BATCH_ROWS - 1, 4, 0];
        let read: Vec<ReadInput> = sizes
            .iter()
            .enumerate()
            .map(|(t, &n)| input(n, t))
            .collect();
        let out = batches(read);
        let lens: Vec<usize> = out.iter().map(|(rows, _)| rows.len()).collect();
        assert_eq!(lens, [5, BATCH_ROWS, BATCH_ROWS, 4]);
        // Each batch counts its inputs' bytes: inputs 0+1, 2, 3+4, 5+6.
        let bytes: Vec<u64> = out.iter().map(|(_, b)| *b).collect();
        assert_eq!(bytes, [1 + 2, 4, 8 + 16, 32 + 64]);
        // Every row once, in input order.
        let values: Vec<f64> = out
            .iter()
            .flat_map(|(rows, _)| rows)
            .map(|o| o.value)
            .collect();
        let expected: Vec<f64> = sizes
            .iter()
            .enumerate()
            .flat_map(|(t, &n)| (0..n).map(move |i| (t * 1_000_000 + i) as f64))
            .collect();
        assert_eq!(values, expected);
        assert!(batches(Vec::new()).is_empty());
    }

    proptest::proptest! {
        /// Runs are numbered per key in row order, whichever way the keys
        /// interleave: groups and metrics changing in any order, groups
        /// with more metrics than are found by a scan, shared and
        /// separately allocated names, summaries in between.
        #[test]
        fn local_runs_number_each_key_from_zero(
            picks in proptest::collection::vec((0u8..4, 0u8..120, 0u8..4), 0..600)
        ) {
            let long = SmolStr::new("a-benchmark-name-longer-than-the-inline-limit");
            let mut rows: Vec<Observation> = picks
                .iter()
                .map(|&(group, metric, kind)| {
                    let stat = if kind == 0 {
                        crate::model::Stat::Mean
                    } else {
                        crate::model::Stat::Sample
                    };
                    let mut o = Observation::new("b", "m", "s", stat, 1.0);
                    o.benchmark = if group % 3 == 0 {
                        long.clone()
                    } else {
                        SmolStr::new(format!("b{}", group % 3))
                    };
                    o.variant = SmolStr::new(if group < 2 { "base" } else { "new" });
                    o.params = SmolStr::new(if kind == 3 { "n=1" } else { "" });
                    // A few metrics often, many now and then.
                    let m = if metric < 40 { metric % 3 } else { metric };
                    o.metric = SmolStr::new(format!("m{m}"));
                    o
                })
                .collect();
            let runs = LocalRuns::count(&mut rows);
            type Key = (String, String, String, String);
            let key = |o: &Observation| -> Key {
                (
                    o.benchmark.to_string(),
                    o.params.to_string(),
                    o.variant.to_string(),
                    o.metric.to_string(),
                )
            };
            let mut seen: std::collections::HashMap<Key, u32> = Default::default();
            let mut keys: std::collections::HashMap<Key, u32> = Default::default();
            for (o, k) in rows.iter().zip(&runs.key_of) {
                if o.stat.is_sample() {
                    let n = seen.entry(key(o)).or_insert(0);
                    proptest::prop_assert_eq!(o.run, Some(*n));
                    let index = keys.entry(key(o)).or_insert(*k);
                    proptest::prop_assert_eq!(*index, *k);
                    *n += 1;
                } else {
                    proptest::prop_assert_eq!(*k, u32::MAX);
                }
            }
            let total: u32 = runs.counts.iter().sum();
            proptest::prop_assert_eq!(total as usize, seen.values().sum::<u32>() as usize);
            proptest::prop_assert_eq!(runs.counts.len(), seen.len());
            proptest::prop_assert_eq!(runs.index.len(), seen.len());
            for (k, i) in &runs.index {
                let owned = (k.0.to_string(), k.1.to_string(), k.2.to_string(), k.3.to_string());
                proptest::prop_assert_eq!(keys.get(&owned), Some(i));
            }
        }
    }

    #[test]
    fn streaming_gives_the_rows_of_ingest_in_input_order_with_runs_across_files() {
        let dir = tempfile::tempdir().unwrap();
        let paths = hackbench_inputs(dir.path(), 4 * rayon::current_num_threads() + 3);
        let registry = Registry::builtin();
        let opts = IngestOptions {
            default_variant: Some("base".into()),
            ..Default::default()
        };
        let whole = ingest(&[dir.path().to_path_buf()], &registry, &opts).unwrap();
        let mut streamed = Vec::new();
        let mut batches = 0;
        let mut progresses = Vec::new();
        // Windows of one input per thread: many windows, each overlapping
        // the next one's reading.
        let files = stream(
            &[dir.path().to_path_buf()],
            &registry,
            &opts,
            1,
            Ok,
            |obs, progress| {
                batches += 1;
                streamed.extend(obs);
                progresses.push(progress);
                Ok(())
            },
        )
        .unwrap();
        // Each batch knows how far the inputs are read up to its own,
        // the last all of them.
        let total: u64 = paths
            .iter()
            .map(|p| std::fs::metadata(p).unwrap().len())
            .sum();
        assert!(progresses.windows(2).all(|w| w[0].done <= w[1].done));
        assert!(progresses.iter().all(|p| p.total == total && p.done > 0));
        assert_eq!(progresses.last().map(|p| p.done), Some(total));
        // Small inputs' rows travel together, a window at a time.
        let threads = rayon::current_num_threads();
        assert_eq!(batches, paths.len().div_ceil(threads), "{batches}");
        assert_eq!(files, whole.files);
        assert_eq!(streamed, whole.dataset.rows());
        let runs: Vec<Option<u32>> = streamed.iter().map(|o| o.run).collect();
        let expected: Vec<Option<u32>> = (0..2 * paths.len() as u32).map(Some).collect();
        assert_eq!(runs, expected, "runs count on across files in input order");
        assert!(streamed.iter().all(|o| o.variant == "base"));
        assert_eq!(streamed[1].source, paths[0].display().to_string());
        assert_eq!(streamed[2].source, paths[1].display().to_string());
        assert!((streamed[2].value - 2.001).abs() < 1e-12);
    }

    #[test]
    fn run_counts_of_keys_whose_digests_share_their_first_bits_stay_apart() {
        let mut c = RunCounter::default();
        let a = (7u128 << 64) | (1 << 32);
        let b = (7u128 << 64) | (2 << 32);
        *c.count_of(a) += 3;
        *c.count_of(b) += 5;
        *c.count_of(a) += 1;
        assert_eq!((*c.count_of(a), *c.count_of(b)), (4, 5));
        assert_eq!((c.keys.len(), c.shared.len()), (1, 1));
        // Names that would run together alike without their lengths.
        let key = |a: &str, b: &str| -> RunKey { (a.into(), b.into(), "".into(), "m".into()) };
        assert_ne!(digest(&key("ab", "c")), digest(&key("a", "bc")));
        assert_eq!(digest(&key("ab", "c")), digest(&key("ab", "c")));
    }

    #[test]
    fn rows_expected_scale_the_rows_so_far_by_the_bytes_left() {
        let p = |done, total| Progress { done, total };
        assert_eq!(p(25, 100).rows_expected(1000), 4000);
        assert_eq!(p(30, 100).rows_expected(1000), 3334);
        // Nothing read yet, or everything: only the rows at hand.
        assert_eq!(p(0, 100).rows_expected(7), 7);
        assert_eq!(p(100, 100).rows_expected(7), 7);
        assert_eq!(p(0, 0).rows_expected(0), 0);
    }

    #[test]
    fn windows_hold_a_few_large_files_or_many_small_ones() {
        let mb = 1u64 << 20;
        let files = |sizes: &[u64]| -> Vec<Input> {
            sizes
                .iter()
                .map(|&s| Input::File(PathBuf::from("f"), s))
                .collect()
        };
        let lens = |inputs: &[Input], threads| -> Vec<usize> {
            windows(inputs, threads, WINDOW_BYTES_PER_THREAD)
                .iter()
                .map(|w| w.len())
                .collect()
        };
        // Large files: one per thread at a time.
        assert_eq!(lens(&files(&[14 * mb; 5]), 2), vec![2, 2, 1]);
        // 1 MiB files: four per thread's budget.
        assert_eq!(lens(&files(&[mb; 20]), 2), vec![8, 8, 4]);
        // Tiny files all go together.
        assert_eq!(lens(&files(&[100; 1000]), 2), vec![1000]);
        // A folder's parts go 64 per thread, beside small files.
        let dir = Arc::new(DirInput {
            path: PathBuf::from("d"),
            format: "criterion-dir".into(),
        });
        let mut mixed = files(&[100, 100, 100]);
        mixed.splice(
            1..1,
            (0..300).map(|i| Input::Part {
                dir: dir.clone(),
                part: PathBuf::from(format!("d/{i}")),
                first: i == 0,
            }),
        );
        // The first window: a small file and 128 parts.
        assert_eq!(lens(&mixed, 2), vec![129, 128, 46]);
        assert!(windows(&[], 2, WINDOW_BYTES_PER_THREAD).is_empty());
    }

    #[test]
    fn large_files_are_detected_from_their_first_mebibyte() {
        let registry = Registry::builtin();
        let run = "Running in process mode with 10 groups using 40 file descriptors each (== 400 tasks)\n\
                   Each sender will pass 100 messages of 100 bytes\nTime: 1.5\n";
        let noise = |lines: usize| "a line of prose that no reader takes\n".repeat(lines);
        // Telling lines after the first probe but within the first MiB.
        let src = Source::from_text("late.txt", &format!("{}{}", noise(5000), run.repeat(2000)));
        assert_eq!(detect(&registry, &src).map(|f| f.name()), Some("hackbench"));
        // Telling lines only after the first MiB: not looked at.
        let src = Source::from_text("later.txt", &format!("{}{}", noise(40_000), run));
        assert!(src.raw.len() > WIDE_PROBE_BYTES);
        assert!(detect(&registry, &src).is_none());
        // Certain from the first lines: the first probe decides.
        let src = Source::from_text("early.txt", &format!("{}{}", run.repeat(10), noise(40_000)));
        assert_eq!(detect(&registry, &src).map(|f| f.name()), Some("hackbench"));
    }

    /// A tidy table of about `rows` rows with what a reading in pieces
    /// must carry over: blank lines, CRLF ends, quoted cells, names with
    /// `>` (quote stripping), summaries among samples, rows that keep the
    /// line numbers of the file they first came from.
    fn tidy_table(rows: usize) -> String {
        let mut t = String::from(
            "\n\u{feff}source,line,benchmark,params,variant,metric,unit,stat,value,run\n",
        );
        for i in 0..rows {
            let bench = match i % 7 {
                0 => "\"pipe,read\"".to_string(),
                1 => "a->b".to_string(),
                _ => format!("bench{}", i % 23),
            };
            let variant = if i % 2 == 0 { "base" } else { "new" };
            let stat = if i % 101 == 0 { "mean" } else { "sample" };
            let line = if i % 3 == 0 {
                3_000_000_000u64 + i as u64
            } else {
                0
            };
            let end = if i % 5 == 0 { "\r\n" } else { "\n" };
            t.push_str(&format!(
                "log.txt,{line},{bench},n={},{variant},time,ms,{stat},{}.{},{end}",
                i % 4,
                100 + i % 17,
                i % 1000,
            ));
            if i % 997 == 0 {
                t.push_str("\n  \n");
            }
        }
        t
    }

    /// `stream` of `path` with pieces of `piece_bytes` (a window of one
    /// piece per thread): its rows and reports, or its error.
    fn read_with_pieces(
        path: &Path,
        opts: &IngestOptions,
        piece_bytes: u64,
    ) -> Result<(Vec<Observation>, Vec<FileReport>)> {
        let mut rows = Vec::new();
        let files = stream(
            &[path.to_path_buf()],
            &Registry::builtin(),
            opts,
            piece_bytes,
            Ok,
            |obs, _| {
                rows.extend(obs);
                Ok(())
            },
        )?;
        Ok((rows, files))
    }

    #[test]
    fn a_large_table_read_in_pieces_gives_what_it_gives_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("table.csv");
        std::fs::write(&path, tidy_table(40_000)).unwrap();
        let (rows, _) = same_in_pieces_as_whole(&path, "tidy-csv");
        assert!(rows.iter().any(|o| o.benchmark == "a->b"));
        // Without a `line` column, rows carry their lines in this file.
        let text: String = tidy_table(60_000)
            .split_inclusive('\n')
            .map(|l| match l.strip_prefix("log.txt,") {
                Some(rest) => rest.split_once(',').map_or(rest, |r| r.1),
                None => l.strip_prefix("\u{feff}source,line,").unwrap_or(l),
            })
            .collect();
        assert!(!text.contains("log.txt") && text.contains("\nbenchmark,params"));
        std::fs::write(&path, text).unwrap();
        let (rows, _) = same_in_pieces_as_whole(&path, "tidy-csv");
        assert_eq!(rows.last().map(|o| o.line), Some(60_000 + 2 + 2 * 61));
    }

    #[test]
    fn a_pieced_file_is_read_by_the_format_detected_when_another_has_its_name() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("table.csv");
        std::fs::write(&path, tidy_table(40_000)).unwrap();
        let size = std::fs::metadata(&path).unwrap().len();
        // `--map` puts a mapped tidy reader, also called tidy-csv, first;
        // it does not claim a table without the mapped column.
        let mut registry = Registry::builtin();
        crate::ingest::add_user_formats(&mut registry, &["x=benchmark".into()], &[]).unwrap();
        let opts = IngestOptions::default();
        let (file, _) = pieces::plan(&path, size, &registry, &opts, 64 << 10)
            .unwrap()
            .unwrap();
        let read = pieces::format(&registry, &file).unwrap();
        let detected = detect(&registry, &Source::read(&path).unwrap()).unwrap();
        assert!(std::ptr::addr_eq(read, detected));
        assert!(!std::ptr::addr_eq(read, registry.get("tidy-csv").unwrap()));
    }

    #[test]
    fn large_files_among_small_ones_are_cut_in_order() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.csv"), tidy_table(40_000)).unwrap();
        std::fs::write(dir.path().join("b.csv"), tidy_table(50)).unwrap();
        std::fs::write(dir.path().join("c.csv"), tidy_table(45_000)).unwrap();
        let opts = IngestOptions::default();
        let whole = read_with_pieces(dir.path(), &opts, 1 << 30).unwrap();
        let pieced = read_with_pieces(dir.path(), &opts, 64 << 10).unwrap();
        assert_eq!(pieced, whole);
        let rows: Vec<usize> = whole.1.iter().map(|f| f.rows).collect();
        assert_eq!(rows, [40_000, 50, 45_000]);
        // Runs count on across the files and their pieces.
        let last = pieced
            .0
            .iter()
            .rev()
            .find(|o| o.benchmark == "bench2")
            .unwrap();
        let same_key = pieced.0.iter().filter(|o| {
            o.stat.is_sample()
                && (&o.benchmark, &o.params, &o.variant, &o.metric)
                    == (&last.benchmark, &last.params, &last.variant, &last.metric)
        });
        assert_eq!(last.run, Some(same_key.count() as u32 - 1));
    }

    #[test]
    fn large_json_lines_read_in_pieces_give_what_they_give_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("table.jsonl");
        let mut text = String::new();
        for i in 0..40_000 {
            // Rows without a `line` key carry their line in this file.
            let line = if i % 3 == 0 {
                String::new()
            } else {
                format!("\"line\":{},", 7 * i)
            };
            text.push_str(&format!(
                "{{\"source\":\"log.txt\",{line}\"benchmark\":\"b{}>c\",\"params\":\"\",\"variant\":\"{}\",\"metric\":\"time\",\"unit\":\"ms\",\"stat\":\"sample\",\"value\":{}.5,\"run\":null}}\n",
                i % 13,
                if i % 2 == 0 { "base" } else { "new" },
                100 + i % 9
            ));
            if i % 1000 == 0 {
                text.push('\n');
            }
        }
        std::fs::write(&path, &text).unwrap();
        let (rows, files) = same_in_pieces_as_whole(&path, "tidy-json");
        assert_eq!(files[0].rows, 40_000);
        assert!(rows.iter().any(|o| o.line == 7 * 39_998));
        // A broken line late in the file: the same error, on its line.
        let bad = "{\"benchmark\": \"x\", \"value\": 1,\n";
        same_error_late_in_pieces_as_whole(&path, &text, bad);
        // A JSON document (an array) is read whole.
        let array = format!(
            "[{}]",
            text.trim_end().replace("}\n", "},\n").replace("\n\n", "\n")
        );
        std::fs::write(&path, array.trim_end_matches(",\n]").to_string() + "]").unwrap();
        let size = std::fs::metadata(&path).unwrap().len();
        let opts = IngestOptions::default();
        assert!(
            pieces::plan(&path, size, &Registry::builtin(), &opts, 64 << 10)
                .unwrap()
                .is_none()
        );
    }

    /// A mail of long tables in several layouts (underlined, without a
    /// rule, quoted, with `±` spreads), prose and headings between them.
    fn long_mail() -> String {
        let mut t = String::from("Subject: [PATCH] mm: batch the frees\n\nNumbers below.\n\n");
        for round in 0..3 {
            t.push_str(&format!(
                "Results of round {round}, lower is better (usec):\n\n"
            ));
            t.push_str("benchmark            base      patched   change\n");
            t.push_str("----------------- --------- --------- --------\n");
            for i in 0..9_000 {
                let (b, p) = (100.0 + (i % 37) as f64 / 8.0, 99.0 + (i % 29) as f64 / 4.0);
                t.push_str(&format!(
                    "case-{round}-{i:<10} {b:>9.2} {p:>9.2} {:>+7.2}%\n",
                    (p - b) / b * 100.0
                ));
            }
            t.push_str("\nhackbench -g N, 10 runs each (seconds)\n\n");
            t.push_str("groups      before      after\n");
            for g in 0..6_000 {
                t.push_str(&format!(
                    "{:<6} {:>11.3} {:>10.3}\n",
                    g + 1,
                    1.0 + g as f64 / 1e3,
                    0.9 + g as f64 / 1e3
                ));
            }
            t.push_str("\nOn the other machine:\n\n> threads   before          after\n");
            for k in 0..6_000 {
                t.push_str(&format!(
                    "> {:<7} {:>6.1} ± {:<5.1} {:>6.1} ± {:.1}\n",
                    k + 1,
                    50.0 + (k % 7) as f64,
                    1.5,
                    48.0 + (k % 5) as f64,
                    1.25
                ));
            }
            t.push_str("\nThanks,\nsomeone\n\n");
        }
        t
    }

    #[test]
    fn a_large_mail_read_in_pieces_gives_what_it_gives_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mail.txt");
        std::fs::write(&path, long_mail()).unwrap();
        let size = std::fs::metadata(&path).unwrap().len();
        assert!(size > 2 * WIDE_PROBE_BYTES as u64, "{size}");
        let registry = Registry::builtin();
        let opts = IngestOptions::default();
        let small = 64 << 10;
        let (file, cut) = pieces::plan(&path, size, &registry, &opts, small)
            .unwrap()
            .expect("a plain mail is cut");
        assert_eq!(pieces::format(&registry, &file).unwrap().name(), "document");
        assert!(cut.len() > 20, "{}", cut.len());
        assert!(cut[1..].iter().all(|p| !p.carry.is_empty()));
        let whole = read_with_pieces(&path, &opts, 4 * size).unwrap();
        let pieced = read_with_pieces(&path, &opts, small as u64).unwrap();
        assert_eq!(
            whole.0.len(),
            // The hackbench table states its runs: a count per value.
            3 * (9_000 * 3 + 6_000 * 2 * 2 + 6_000 * 4),
            "{}",
            whole.0.len()
        );
        assert_eq!(pieced.0.len(), whole.0.len());
        for (p, w) in pieced.0.iter().zip(&whole.0) {
            assert_eq!(p, w);
        }
        assert_eq!(pieced.1, whole.1);
    }

    /// Reads `path` whole and in pieces, checks both give the same rows and
    /// reports, and returns them.
    fn same_in_pieces_as_whole(path: &Path, format: &str) -> (Vec<Observation>, Vec<FileReport>) {
        let path = path.to_path_buf();
        let size = std::fs::metadata(&path).unwrap().len();
        assert!(size > 2 * WIDE_PROBE_BYTES as u64, "{size}");
        let registry = Registry::builtin();
        let opts = IngestOptions {
            default_variant: Some("v".into()),
            ..Default::default()
        };
        let small = 64 << 10;
        let (file, cut) = pieces::plan(&path, size, &registry, &opts, small)
            .unwrap()
            .expect("a plain tidy table is cut");
        assert!(cut.len() > 20, "{}", cut.len());
        assert_eq!(pieces::format(&registry, &file).unwrap().name(), format);
        // Whole: pieces larger than the file.
        let whole = read_with_pieces(&path, &opts, 4 * size).unwrap();
        assert!(
            pieces::plan(&path, size, &registry, &opts, 4 * size as usize)
                .unwrap()
                .is_none()
        );
        let pieced = read_with_pieces(&path, &opts, small as u64).unwrap();
        assert_eq!(pieced.1, whole.1);
        assert_eq!(pieced.0.len(), whole.0.len());
        assert_eq!(pieced.0, whole.0);
        // Runs count on across pieces.
        let runs = pieced.0.iter().filter(|o| o.run.is_some()).count();
        assert!(runs > 39_000, "{runs}");
        // Forced, the format is not detected but the cut is the same.
        let forced = IngestOptions {
            format: Some(format.into()),
            ..opts.clone()
        };
        assert_eq!(
            read_with_pieces(&path, &forced, small as u64).unwrap(),
            whole
        );
        whole
    }

    #[test]
    fn a_large_go_log_read_in_pieces_gives_what_it_gives_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("go.txt");
        // Two packages with benchmarks of the same name (names qualified),
        // notes naming variants, quoted lines, and a `Unit` line at the end
        // that states a direction for every value before it.
        let mut text = String::from("goos: linux\ngoarch: amd64\n");
        for i in 0..40_000 {
            if i % 5000 == 0 {
                let pkg = if i % 10_000 == 0 {
                    "example.com/a"
                } else {
                    "example.com/b"
                };
                text.push_str(&format!("pkg: {pkg}\ncpu: generated\n"));
            }
            if i % 7000 == 0 {
                text.push_str(&format!("note: run{}\n", i / 7000));
            }
            if i % 9001 == 0 {
                text.push_str("> pkg: example.com/quoted\n> BenchmarkQuoted-8 \t 10 \t 7 ns/op\n");
            }
            text.push_str(&format!(
                "BenchmarkX/n={}-8 \t 1000 \t {} ns/op \t 24 B/op \t 1 allocs/op\n",
                i % 3,
                100 + i % 7
            ));
            if i % 8000 == 0 {
                text.push_str("PASS\nok  \texample.com/a\t1.000s\n");
            }
        }
        text.push_str("Unit B/op better=higher\n");
        std::fs::write(&path, &text).unwrap();
        let (rows, files) = same_in_pieces_as_whole(&path, "go-bench");
        assert_eq!(rows.len(), 3 * 40_000 + 5);
        assert!(rows.iter().any(|o| o.benchmark == "example.com/b.X"));
        assert!(rows
            .iter()
            .any(|o| o.benchmark == "example.com/quoted.Quoted"));
        assert_eq!(rows.last().map(|o| o.variant.as_str()), Some("run5"));
        let bytes = rows.iter().filter(|o| o.metric == "alloc-bytes/op");
        assert!(bytes.clone().count() > 0);
        assert!(bytes
            .into_iter()
            .all(|o| o.direction == Some(crate::model::Direction::Higher)));
        assert!(!files[0].skipped.is_empty());
    }

    #[test]
    fn a_bad_row_late_in_a_table_read_in_pieces_is_the_same_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("table.csv");
        // A row missing its value near the end.
        let bad = "log.txt,0,late,,base,time,ms,sample,,\n";
        same_error_late_in_pieces_as_whole(&path, &tidy_table(40_000), bad);
    }

    /// Writes `text` to `path` with `bad` inserted as a line near its end,
    /// and checks that reading it whole and in pieces fail alike, naming
    /// that line.
    fn same_error_late_in_pieces_as_whole(path: &Path, text: &str, bad: &str) {
        let mut text = text.to_string();
        let at = text.len() - 3000;
        let at = at + text[at..].find('\n').unwrap() + 1;
        text.insert_str(at, bad);
        std::fs::write(path, &text).unwrap();
        let opts = IngestOptions::default();
        let whole = read_with_pieces(path, &opts, 1 << 30)
            .unwrap_err()
            .to_string();
        let pieced = read_with_pieces(path, &opts, 64 << 10)
            .unwrap_err()
            .to_string();
        assert_eq!(pieced, whole);
        let line = text[..at].matches('\n').count() + 1;
        assert!(
            whole.contains(&format!(":{line}:")),
            "{whole} (line {line})"
        );
    }

    #[test]
    fn large_files_that_must_be_read_whole_are() {
        let dir = tempfile::tempdir().unwrap();
        let registry = Registry::builtin();
        let opts = IngestOptions::default();
        let small = 64 << 10;
        let table = tidy_table(40_000);
        // A late Latin-1 byte or quoted-printable sign: the whole file is
        // prepared differently, so it is read whole, with the same result.
        for (name, late) in [("latin1.csv", &b"\xe9"[..]), ("qp.csv", b"=3D")] {
            let path = dir.path().join(name);
            let mut bytes = table.clone().into_bytes();
            let at = bytes.len() - 100;
            let at = at + bytes[at..].iter().position(|&b| b == b',').unwrap();
            bytes.splice(at..at, late.iter().copied());
            std::fs::write(&path, &bytes).unwrap();
            let size = bytes.len() as u64;
            assert!(pieces::plan(&path, size, &registry, &opts, small)
                .unwrap()
                .is_none());
        }
        // Compressed: read whole.
        let gz = dir.path().join("table.csv.gz");
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut enc, table.as_bytes()).unwrap();
        let bytes = enc.finish().unwrap();
        std::fs::write(&gz, &bytes).unwrap();
        assert!(pieces::plan(&gz, 1 << 30, &registry, &opts, small)
            .unwrap()
            .is_none());
    }

    #[test]
    fn a_sink_error_stops_the_ingest() {
        let dir = tempfile::tempdir().unwrap();
        hackbench_inputs(dir.path(), 9);
        let mut seen = 0;
        let err = stream(
            &[dir.path().to_path_buf()],
            &Registry::builtin(),
            &IngestOptions::default(),
            1,
            Ok,
            |_, _| {
                seen += 1;
                if seen == 2 {
                    Err(Error::Other("disk full".into()))
                } else {
                    Ok(())
                }
            },
        )
        .unwrap_err();
        assert!(err.to_string().contains("disk full"), "{err}");
        assert_eq!(seen, 2);
    }

    #[test]
    fn a_malformed_run_late_in_a_tree_is_the_error_after_earlier_runs_went_out() {
        let dir = tempfile::tempdir().unwrap();
        let from = Path::new("tests/data/corpus/criterion_tree-patched-1/criterion/sum_100k");
        let root = dir.path().join("criterion");
        for b in 0..40 {
            for variant in ["base", "new"] {
                let to = root.join(format!("b{b:02}")).join(variant);
                std::fs::create_dir_all(&to).unwrap();
                for f in ["benchmark.json", "estimates.json", "sample.json"] {
                    std::fs::copy(from.join(variant).join(f), to.join(f)).unwrap();
                }
            }
        }
        let bad = root.join("b37/new/sample.json");
        std::fs::write(&bad, r#"{"iters":[1.0],"times":[2.0"#).unwrap();
        let mut sunk = 0;
        // One run per thread per window: the bad run is in window 37.
        let err = stream(
            &[root],
            &Registry::builtin(),
            &IngestOptions::default(),
            DIR_PART_BYTES,
            Ok,
            |obs, _| {
                sunk += obs.len();
                Ok(())
            },
        )
        .unwrap_err();
        let want = format!("{}:1: malformed Criterion sample.json", bad.display());
        assert!(err.to_string().starts_with(&want), "{err}");
        // The runs before it were handed on (a tree is not held whole), not
        // the ones after it.
        assert!(sunk < 75 * 106, "{sunk}");
        if rayon::current_num_threads() < 30 {
            assert!(sunk >= 105 * 20, "{sunk}");
        }
    }

    #[test]
    fn a_criterion_tree_streams_run_by_run_with_one_report() {
        let tree = PathBuf::from("tests/data/corpus/criterion_tree-patched-1");
        let hackbench = PathBuf::from("tests/data/corpus/hackbench-baseline-1.txt");
        let registry = Registry::builtin();
        let whole = registry
            .get("criterion-dir")
            .unwrap()
            .parse_dir(&tree)
            .unwrap();
        assert_eq!(whole.len(), 844);
        let mut streamed = Vec::new();
        let mut batches = Vec::new();
        // The tree twice around a file, one part per thread per window.
        let files = stream(
            &[tree.clone(), hackbench.clone(), tree.clone()],
            &registry,
            &IngestOptions::default(),
            DIR_PART_BYTES,
            Ok,
            |obs, _| {
                batches.push(obs.len());
                streamed.extend(obs);
                Ok(())
            },
        )
        .unwrap();
        let summary: Vec<(&str, Option<&str>, usize)> = files
            .iter()
            .map(|f| (f.path.as_str(), f.format.as_deref(), f.rows))
            .collect();
        let tree_report = (tree.to_str().unwrap(), Some("criterion-dir"), 844);
        assert_eq!(summary[0], tree_report);
        assert_eq!(summary[1].1, Some("hackbench"));
        assert_eq!(summary[2], tree_report);
        assert_eq!(files.len(), 3);
        let n = summary[1].2;
        // 8 saved runs of at most 211 rows per tree: a window holds one
        // per thread (and the file), never a whole tree.
        let threads = rayon::current_num_threads();
        assert!(batches.len() >= 16usize.div_ceil(threads), "{batches:?}");
        assert!(
            batches.iter().all(|&b| b <= threads * 211 + n),
            "{batches:?}"
        );
        assert_eq!(streamed[..844], whole[..]);
        // The second reading of the tree numbers its samples on from the
        // first's: 100 per run key.
        let again = &streamed[844 + n..];
        assert_eq!(again.len(), 844);
        for (a, w) in again.iter().zip(&whole) {
            assert_eq!(a.run, w.run.map(|r| r + 100), "{a:?}");
            assert_eq!(
                (a.value, &a.benchmark, a.stat),
                (w.value, &w.benchmark, w.stat)
            );
        }
    }
}
