//! Reads files and folders with the registry, in parallel, and accounts for
//! every file and every numeric-looking line that no format read.

use super::{numbers::looks_numeric, Registry, Source};
use crate::error::{Error, Result};
use crate::model::{Dataset, Observation, SmolStr};
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
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
    File(PathBuf),
    Dir(PathBuf, String),
}

/// Reads every path (files, folders, glob patterns) and returns the tidy
/// table plus a report per input. The first malformed input aborts with an
/// error naming it; unrecognised files are reported, not fatal.
pub fn ingest(paths: &[PathBuf], registry: &Registry, opts: &IngestOptions) -> Result<Ingested> {
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
    let results: Vec<Result<(Vec<Observation>, FileReport)>> = inputs
        .par_iter()
        .map(|input| read_one(input, registry, opts))
        .collect();
    let mut out = Ingested::default();
    let total: usize = results
        .iter()
        .map(|r| r.as_ref().map_or(0, |(o, _)| o.len()))
        .sum();
    let mut rows = Vec::with_capacity(total);
    for r in results {
        let (obs, report) = r?;
        rows.extend(obs);
        out.files.push(report);
    }
    let variant: Option<SmolStr> = opts.variant.as_deref().map(Into::into);
    let default_variant: Option<SmolStr> = opts.default_variant.as_deref().map(Into::into);
    for o in rows.iter_mut() {
        if let Some(v) = &variant {
            o.variant = v.clone();
        } else if o.variant.is_empty() {
            if let Some(v) = &default_variant {
                o.variant = v.clone();
            }
        }
    }
    number_runs(&mut rows);
    out.dataset = Dataset::new(rows);
    Ok(out)
}

/// Numbers samples 0, 1, 2 … per (benchmark, params, variant, metric) in
/// input order, across files, so that run order survives for drift checks.
fn number_runs(rows: &mut [Observation]) {
    // Keys borrow the rows (no string copies per row), so the numbers are
    // collected first and written in a second pass.
    let mut next: HashMap<(&str, &str, &str, &str), u32> = HashMap::new();
    let runs: Vec<Option<u32>> = rows
        .iter()
        .map(|o| {
            o.stat.is_sample().then(|| {
                let n = next
                    .entry((&o.benchmark, &o.params, &o.variant, &o.metric))
                    .or_insert(0);
                *n += 1;
                *n - 1
            })
        })
        .collect();
    drop(next);
    for (o, run) in rows.iter_mut().zip(runs) {
        if run.is_some() {
            o.run = run;
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
        out.push(Input::File(p.to_path_buf()));
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
        Input::File(path) => {
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
                    unread_numeric: numeric_lines(&src, &HashSet::new()),
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
            let used: HashSet<u32> = obs
                .iter()
                .map(|o| o.line)
                .filter(|&l| l > 0)
                .chain(parsed.consumed.iter().copied())
                .chain(parsed.skipped.iter().map(|(l, _)| *l))
                .collect();
            // Structured formats report line 0 for every value; counting their
            // lines as unread would only be noise.
            let unread = if obs.iter().all(|o| o.line == 0) && !obs.is_empty() {
                Vec::new()
            } else {
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

fn numeric_lines(src: &Source, used: &HashSet<u32>) -> Vec<u32> {
    let mut v: Vec<u32> = src
        .lines
        .iter()
        .filter(|l| !used.contains(&l.number) && looks_numeric(&l.text))
        .map(|l| l.number)
        .collect();
    v.dedup();
    v
}
