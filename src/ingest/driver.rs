//! Reads files and folders with the registry, in parallel, and accounts for
//! every file and every numeric-looking line that no format read.

use super::{numbers::looks_numeric, Registry, Source};
use crate::error::{Error, Result};
use crate::model::{Dataset, Observation, SmolStr};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

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

/// What happened to one input file (or directory read as a whole).
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

/// One unit of work: a file, or a folder a directory format claims.
enum Input {
    /// A file and its size in bytes.
    File(PathBuf, u64),
    Dir(PathBuf, String),
}

/// Reads every path (files, folders, glob patterns) and returns the tidy
/// table plus a report per input. The first malformed input aborts with an
/// error naming it; unrecognised files are reported, not fatal.
pub fn ingest(paths: &[PathBuf], registry: &Registry, opts: &IngestOptions) -> Result<Ingested> {
    let mut rows = Vec::new();
    let files = ingest_each(paths, registry, opts, |obs| {
        if rows.is_empty() {
            rows = obs;
        } else {
            rows.extend(obs);
        }
        Ok(())
    })?;
    Ok(Ingested {
        dataset: Dataset::new(rows),
        files,
    })
}

/// [`ingest`] without holding the table: each input's rows go to `sink` in
/// input order, with variants set and runs numbered as [`ingest`] would, and
/// are dropped once the sink returns. A few inputs are read in parallel
/// ahead of the sink, so memory is bounded by those inputs, not by all of
/// them; `ingest --out` streams this way. Returns the per-input reports.
pub fn ingest_each(
    paths: &[PathBuf],
    registry: &Registry,
    opts: &IngestOptions,
    mut sink: impl FnMut(Vec<Observation>) -> Result<()> + Send,
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
    let mut post = PostProcess::new(opts);
    let mut reports = Vec::with_capacity(inputs.len());
    let mut deliver =
        |batch: Vec<Result<(Vec<Observation>, FileReport)>>| -> Result<Vec<FileReport>> {
            let mut done = Vec::with_capacity(batch.len());
            for r in batch {
                let (mut obs, report) = r?;
                post.apply(&mut obs);
                sink(obs)?;
                done.push(report);
            }
            Ok(done)
        };
    // Inputs are read a window at a time on the thread pool while the sink
    // takes the previous window: reading and writing overlap, and at most
    // two windows of rows are alive.
    let mut pending = Vec::new();
    for chunk in windows(&inputs, rayon::current_num_threads().max(1)) {
        let (delivered, read) = rayon::join(
            || deliver(std::mem::take(&mut pending)),
            || {
                chunk
                    .par_iter()
                    .map(|input| read_one(input, registry, opts))
                    .collect::<Vec<_>>()
            },
        );
        reports.extend(delivered?);
        pending = read;
    }
    reports.extend(deliver(pending)?);
    Ok(reports)
}

/// Bytes of input a window may hold per thread. Rows cost several times
/// their input text in memory (a row of hyperfine JSON is 14 bytes of text
/// and 176 bytes as an `Observation`), so this, not the number of files,
/// bounds what `ingest --out` holds at once.
const WINDOW_BYTES_PER_THREAD: u64 = 4 << 20;

/// Splits the inputs into windows of at least `threads` inputs (one for each
/// thread to read) that together hold about `threads` ×
/// [`WINDOW_BYTES_PER_THREAD`] bytes: many small files go together, large ones
/// go a few at a time. A folder read as a whole counts as large.
fn windows(inputs: &[Input], threads: usize) -> Vec<&[Input]> {
    let budget = threads as u64 * WINDOW_BYTES_PER_THREAD;
    let mut out = Vec::new();
    let (mut start, mut bytes) = (0, 0u64);
    for (i, input) in inputs.iter().enumerate() {
        bytes += match input {
            Input::File(_, size) => *size,
            Input::Dir(..) => u64::MAX / 2,
        };
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

/// What happens to every row after its importer: the variant options, and
/// run numbers 0, 1, 2 … per (benchmark, params, variant, metric) in input
/// order across files, so that run order survives for drift checks.
struct PostProcess {
    variant: Option<SmolStr>,
    default_variant: Option<SmolStr>,
    next_run: hashbrown::HashMap<RunKey, u32>,
}

type RunKey = (SmolStr, SmolStr, SmolStr, SmolStr);

/// A [`RunKey`] borrowed from a row, so that looking a row's counter up
/// copies no strings.
#[derive(Hash)]
struct RunKeyRef<'a>(&'a str, &'a str, &'a str, &'a str);

impl hashbrown::Equivalent<RunKey> for RunKeyRef<'_> {
    fn equivalent(&self, k: &RunKey) -> bool {
        self.0 == k.0 && self.1 == k.1 && self.2 == k.2 && self.3 == k.3
    }
}

impl PostProcess {
    fn new(opts: &IngestOptions) -> Self {
        PostProcess {
            variant: opts.variant.as_deref().map(Into::into),
            default_variant: opts.default_variant.as_deref().map(Into::into),
            next_run: hashbrown::HashMap::new(),
        }
    }

    fn apply(&mut self, rows: &mut [Observation]) {
        for o in rows.iter_mut() {
            if let Some(v) = &self.variant {
                o.variant = v.clone();
            } else if o.variant.is_empty() {
                if let Some(v) = &self.default_variant {
                    o.variant = v.clone();
                }
            }
            if o.stat.is_sample() {
                // Hashing the borrowed strings must agree with hashing the
                // owned tuple: both hash four `str`s in order.
                let key = RunKeyRef(&o.benchmark, &o.params, &o.variant, &o.metric);
                let n = match self.next_run.get_mut(&key) {
                    Some(n) => n,
                    None => self
                        .next_run
                        .entry((
                            o.benchmark.clone(),
                            o.params.clone(),
                            o.variant.clone(),
                            o.metric.clone(),
                        ))
                        .or_insert(0),
                };
                o.run = Some(*n);
                *n += 1;
            }
        }
    }
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
            out.push(Input::Dir(p.to_path_buf(), f.name().to_string()));
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

fn read_one(
    input: &Input,
    registry: &Registry,
    opts: &IngestOptions,
) -> Result<(Vec<Observation>, FileReport)> {
    match input {
        Input::Dir(dir, name) => {
            let f = registry
                .get(name)
                .expect("directory format came from this registry");
            let obs = f.parse_dir(dir)?;
            let report = FileReport {
                path: dir.display().to_string(),
                format: Some(name.clone()),
                rows: obs.len(),
                unread_numeric: Vec::new(),
                skipped: Vec::new(),
                note: None,
            };
            Ok((obs, report))
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
                    return Ok((Vec::new(), report));
                }
            }
            let format = match &opts.format {
                Some(name) => registry.get(name),
                None => detect(registry, &src),
            };
            let Some(format) = format else {
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
                return Ok((Vec::new(), report));
            };
            let parsed = format.parse_accounted(&src)?;
            let mut obs = parsed.observations;
            for o in obs.iter_mut() {
                if o.source.is_empty() {
                    o.source = src.path.clone();
                }
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
                let mut used = LineSet::for_source(&src);
                obs.iter().for_each(|o| used.insert(o.line));
                parsed.consumed.iter().for_each(|&l| used.insert(l));
                parsed.skipped.iter().for_each(|(l, _)| used.insert(*l));
                numeric_lines(&src, &used)
            };
            let note = obs
                .is_empty()
                .then(|| "recognised, but it holds no values (no table found)".to_string());
            let report = FileReport {
                path: src.path.to_string(),
                format: Some(format.name().to_string()),
                rows: obs.len(),
                unread_numeric: unread,
                skipped: parsed.skipped,
                note,
            };
            Ok((obs, report))
        }
    }
}

/// Lines and bytes of a large file that detection looks at first.
const PROBE_LINES: usize = 4000;
const PROBE_BYTES: usize = 256 << 10;

/// Detection for large inputs: every format's `detect` scans the whole file,
/// which for a file of millions of lines costs more than parsing it. When
/// a format is certain (≥ 90) from the first [`PROBE_LINES`] lines (at most
/// [`PROBE_BYTES`]: one-line JSON has a single huge line), that is
/// the answer; otherwise detection runs on the whole file as for small ones,
/// so a file whose telling lines come late is detected as before.
fn detect<'r>(registry: &'r Registry, src: &Source) -> Option<&'r dyn super::Format> {
    if let Some(probe) = src.head(PROBE_LINES, PROBE_BYTES) {
        if let Some(f) = registry.detect(&probe) {
            if f.detect(&probe) >= 90 {
                return Some(f);
            }
        }
    }
    registry.detect(src)
}

/// A set of original line numbers of one source.
struct LineSet(Vec<bool>);

impl LineSet {
    fn for_source(src: &Source) -> Self {
        let last = src.lines.last().map_or(0, |l| l.number as usize);
        LineSet(vec![false; last + 1])
    }

    fn insert(&mut self, line: u32) {
        let i = line as usize;
        if i >= self.0.len() {
            self.0.resize(i + 1, false);
        }
        self.0[i] = true;
    }

    fn contains(&self, line: u32) -> bool {
        self.0.get(line as usize).copied().unwrap_or(false)
    }
}

fn numeric_lines(src: &Source, used: &LineSet) -> Vec<u32> {
    let mut v: Vec<u32> = src
        .lines
        .iter()
        .filter(|l| !used.contains(l.number) && looks_numeric(&l.text))
        .map(|l| l.number)
        .collect();
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let files = ingest_each(&[dir.path().to_path_buf()], &registry, &opts, |obs| {
            batches += 1;
            streamed.extend(obs);
            Ok(())
        })
        .unwrap();
        assert_eq!(batches, paths.len());
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
    fn windows_hold_a_few_large_files_or_many_small_ones() {
        let mb = 1u64 << 20;
        let files = |sizes: &[u64]| -> Vec<Input> {
            sizes
                .iter()
                .map(|&s| Input::File(PathBuf::from("f"), s))
                .collect()
        };
        let lens = |inputs: &[Input], threads| -> Vec<usize> {
            windows(inputs, threads).iter().map(|w| w.len()).collect()
        };
        // Large files: one per thread at a time.
        assert_eq!(lens(&files(&[14 * mb; 5]), 2), vec![2, 2, 1]);
        // 1 MiB files: four per thread's budget.
        assert_eq!(lens(&files(&[mb; 20]), 2), vec![8, 8, 4]);
        // Tiny files all go together.
        assert_eq!(lens(&files(&[100; 1000]), 2), vec![1000]);
        // A folder read whole fills a window.
        let mut mixed = files(&[100, 100, 100]);
        mixed.insert(1, Input::Dir(PathBuf::from("d"), "criterion".into()));
        assert_eq!(lens(&mixed, 2), vec![2, 2]);
        assert!(windows(&[], 2).is_empty());
    }

    #[test]
    fn a_sink_error_stops_the_ingest() {
        let dir = tempfile::tempdir().unwrap();
        hackbench_inputs(dir.path(), 9);
        let mut seen = 0;
        let err = ingest_each(
            &[dir.path().to_path_buf()],
            &Registry::builtin(),
            &IngestOptions::default(),
            |_| {
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
}
