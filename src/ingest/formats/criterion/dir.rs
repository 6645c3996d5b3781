//! A Criterion.rs `target/criterion` tree: one input, read saved run by
//! saved run (see [`Format::dir_parts`]).
//!
//! Layout: `<group>/<function>/<parameter>/{new,base,<baseline>,change}/`.
//! Every folder holding `estimates.json` (other than `change/`) is one
//! saved run; its name (`new`, `base`, `main` …) becomes the variant, so a
//! single tree compares `base` against `new` on its own. `sample.json`
//! holds per-sample totals: the per-iteration time `times[i] / iters[i]`
//! is the sample. `change/estimates.json` holds the stated relative change
//! as a fraction, stored here in percent.

use super::samples::{read_samples, samples_direct, samples_plain, Samples};
use crate::error::{Error, Result};
use crate::ingest::shared::structured::{finite, parse_json};
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{canonical_params, Observation, Selection, SmolStr, Stat};
use rayon::prelude::*;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The Criterion directory importer.
pub struct CriterionDir;

/// `benchmark.json` (both schemas share these fields).
#[derive(Deserialize)]
pub(super) struct BenchmarkId {
    pub(super) group_id: String,
    #[serde(default)]
    pub(super) function_id: Option<String>,
    #[serde(default)]
    pub(super) value_str: Option<String>,
    #[serde(default)]
    pub(super) throughput: Option<Throughput>,
}

/// Externally tagged, as Criterion serialises its enum.
#[derive(Deserialize)]
pub(super) enum Throughput {
    Bytes(f64),
    BytesDecimal(f64),
    Elements(f64),
    Bits(f64),
}

impl Throughput {
    /// The amount one iteration processes and the unit of its rate.
    pub(super) fn per_iteration(&self) -> (f64, &'static str) {
        match self {
            Throughput::Bytes(b) | Throughput::BytesDecimal(b) => (*b, "B/s"),
            Throughput::Elements(e) => (*e, "elem/s"),
            Throughput::Bits(b) => (*b, "bit/s"),
        }
    }
}

#[derive(Deserialize)]
struct Interval {
    lower_bound: f64,
    upper_bound: f64,
}

#[derive(Deserialize)]
struct Estimate {
    point_estimate: f64,
    confidence_interval: Interval,
}

/// `estimates.json`: current lower-case keys, older capitalised ones.
/// critcmp exports embed the same object.
#[derive(Deserialize)]
pub(crate) struct Estimates {
    #[serde(alias = "Mean")]
    mean: Estimate,
    #[serde(alias = "Median")]
    median: Estimate,
    #[serde(default, alias = "StdDev")]
    std_dev: Option<Estimate>,
    #[serde(default, alias = "MedianAbsDev")]
    median_abs_dev: Option<serde::de::IgnoredAny>,
    #[serde(default, alias = "Slope")]
    slope: Option<serde::de::IgnoredAny>,
}

impl Estimates {
    /// Whether these are a `change/estimates.json`'s: the relative change
    /// of the mean and median only, without the spread and slope that a
    /// run's estimates carry.
    pub(crate) fn is_change(&self) -> bool {
        self.std_dev.is_none() && self.median_abs_dev.is_none() && self.slope.is_none()
    }

    /// The stated change of the mean, in percent.
    pub(crate) fn mean_change_pct(&self) -> f64 {
        self.mean.point_estimate * 100.0
    }

    /// The statistics Criterion states: the mean with its interval, the
    /// median and, when present, the standard deviation.
    pub(crate) fn stated(&self) -> Vec<(Stat, f64)> {
        let mut stated = vec![
            (Stat::Mean, self.mean.point_estimate),
            (Stat::CiLow, self.mean.confidence_interval.lower_bound),
            (Stat::CiHigh, self.mean.confidence_interval.upper_bound),
            (Stat::Median, self.median.point_estimate),
        ];
        if let Some(sd) = &self.std_dev {
            stated.push((Stat::Stddev, sd.point_estimate));
        }
        stated
    }
}

/// Folders that never hold a saved run.
const NOT_RUNS: &[&str] = &["change", "report"];

impl Format for CriterionDir {
    fn name(&self) -> &'static str {
        "criterion-dir"
    }

    fn description(&self) -> &'static str {
        "Criterion.rs target/criterion folder: <id>/{new,base,<baseline>}/{estimates,sample,benchmark}.json; each baseline a variant"
    }

    fn detect(&self, _src: &Source) -> Confidence {
        0
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        Err(src.error(
            None,
            "criterion-dir reads a whole target/criterion folder; give the folder, not one of its files",
        ))
    }

    fn detect_dir(&self, dir: &Path) -> Confidence {
        if is_criterion_root(dir) {
            90
        } else {
            0
        }
    }

    fn dir_parts(&self, dir: &Path, _select: &Selection) -> Result<Vec<PathBuf>> {
        // Sorted sub-folders, walked depth first: the runs come sorted.
        let run_dirs = collect_run_dirs(dir, 0);
        debug_assert!(run_dirs.is_sorted());
        if run_dirs.is_empty() {
            return Err(Error::input(
                dir,
                None,
                "no Criterion estimates.json found under this folder",
            ));
        }
        Ok(run_dirs)
    }

    /// One saved run. The source of its values is the folder as given,
    /// the input the user named.
    fn parse_dir_part(
        &self,
        dir: &Path,
        run: &Path,
        _select: &Selection,
    ) -> Result<Vec<Observation>> {
        let source: SmolStr = dir.display().to_string().into();
        let mut rows = Vec::new();
        read_run(dir, run, &source, &mut rows)?;
        Ok(rows)
    }
}

/// True for a folder that is (or directly holds) a Criterion output tree,
/// or is one saved run of it: named `criterion`, holding a `criterion` child that is one, or whose
/// every sub-folder leads to saved runs within three levels. The last rule
/// accepts copied or renamed trees and single groups without claiming a
/// parent folder that merely contains a tree somewhere deep inside.
fn is_criterion_root(dir: &Path) -> bool {
    let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("");
    // One saved run given alone (`target/criterion/<id>/new/`): read as the
    // run it is, so that its `benchmark.json` names it and no file of it
    // is an input of its own that nothing recognises.
    if is_run_dir(dir) && dir.join("benchmark.json").is_file() {
        return true;
    }
    if name == "criterion" && has_run_within(dir, 5) {
        return true;
    }
    // A cargo target folder, or one holding nothing else, stands for its
    // `criterion` tree (a target's other folders are builds). Any other
    // folder holding one is walked, so that the tree's siblings are read.
    if stands_for_its_tree(dir) && is_criterion_root(&dir.join("criterion")) {
        return true;
    }
    let children = subdirs(dir);
    // A tree holds folders only; a file beside them is another input.
    if children.is_empty() || has_plain_files(dir) || !has_run_within(dir, 3) {
        return false;
    }
    children.iter().all(|c| {
        let n = c.file_name().and_then(|n| n.to_str()).unwrap_or("");
        NOT_RUNS.contains(&n) || has_run_within(c, 3)
    })
}

/// Whether `dir` holds a file that is not hidden.
fn has_plain_files(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.filter_map(|e| e.ok()).any(|e| {
            e.file_type().is_ok_and(|t| t.is_file())
                && !e.file_name().to_string_lossy().starts_with('.')
        })
    })
}

/// Whether `dir` holds a `criterion` folder and is cargo's target folder
/// (the markers cargo leaves there) or holds nothing else.
fn stands_for_its_tree(dir: &Path) -> bool {
    if !dir.join("criterion").is_dir() {
        return false;
    }
    let cargo = ["CACHEDIR.TAG", ".rustc_info.json", "debug", "release"];
    cargo.iter().any(|m| dir.join(m).exists())
        || std::fs::read_dir(dir).is_ok_and(|entries| {
            entries.filter_map(|e| e.ok()).all(|e| {
                let name = e.file_name();
                let name = name.to_string_lossy();
                name == "criterion" || name.starts_with('.')
            })
        })
}

/// True when `dir` or a folder at most `levels` below it holds a saved run.
fn has_run_within(dir: &Path, levels: u32) -> bool {
    if is_run_dir(dir) {
        return true;
    }
    levels > 0 && subdirs(dir).iter().any(|c| has_run_within(c, levels - 1))
}

fn is_run_dir(dir: &Path) -> bool {
    let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("");
    !NOT_RUNS.contains(&name) && dir.join("estimates.json").is_file()
}

fn subdirs(dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    // The entry's type comes with the listing; only a symlink (or a file
    // system that does not say) needs a `stat` to know where it leads.
    let mut v: Vec<PathBuf> = rd
        .filter_map(|e| e.ok())
        .filter_map(|e| match e.file_type() {
            Ok(t) if t.is_dir() => Some(e.path()),
            Ok(t) if t.is_file() => None,
            _ => Some(e.path()).filter(|p| p.is_dir()),
        })
        .collect();
    // Siblings differ in their names alone, so names order them as paths
    // (comparing whole paths component by component cost more).
    v.sort_unstable_by(|a, b| a.file_name().cmp(&b.file_name()));
    v
}

/// The saved runs under `dir`, in path order. Sub-folders are walked in
/// parallel: a tree is thousands of folders, each a listing or a `stat`.
fn collect_run_dirs(dir: &Path, depth: u32) -> Vec<PathBuf> {
    // Criterion ids are at most group/function/parameter deep; the bound
    // only guards against symlink loops.
    if depth > 12 {
        return Vec::new();
    }
    if is_run_dir(dir) {
        return vec![dir.to_path_buf()];
    }
    subdirs(dir)
        .par_iter()
        .flat_map_iter(|c| collect_run_dirs(c, depth + 1))
        .collect()
}

/// A file of a saved run, as read. Its text is parsed as it is when it is
/// plain UTF-8 (what a [`Source`] of it would hold unchanged); the
/// `Source` is only built when that parse fails, to read the file exactly
/// as before and report its error, or to name the file in an error.
struct RunFile {
    path: PathBuf,
    bytes: Vec<u8>,
}

impl RunFile {
    /// The text (BOM removed), when a [`Source`] would hold these bytes
    /// unchanged: valid UTF-8 (so not gzip, whose second byte is not), not
    /// empty, no NUL.
    fn plain(&self) -> Option<&str> {
        if self.bytes.is_empty() || memchr::memchr(0, &self.bytes).is_some() {
            return None;
        }
        std::str::from_utf8(&self.bytes)
            .ok()
            .map(|t| t.trim_start_matches('\u{feff}'))
    }

    fn source(&self) -> Result<Source> {
        Source::from_bytes(&self.path.display().to_string(), &self.bytes)
    }

    /// An error naming this file, as [`Source::error`] would.
    fn error(&self, message: String) -> Error {
        Error::input(&self.path, None, message)
    }

    /// The file read by `fast` from its plain text, or else by `slow` from
    /// its [`Source`] (which gives the error, if any).
    fn read<T>(
        &self,
        fast: impl FnOnce(&str) -> Option<T>,
        slow: impl FnOnce(&Source) -> Result<T>,
    ) -> Result<T> {
        match self.plain().and_then(fast) {
            Some(v) => Ok(v),
            None => slow(&self.source()?),
        }
    }

    /// The document read with serde.
    fn json<T: serde::de::DeserializeOwned>(&self, what: &str) -> Result<T> {
        self.read(
            |t| serde_json::from_str(t).ok(),
            |src| parse_json(src, what),
        )
    }

    fn samples(&self) -> Result<Samples> {
        self.read(
            |t| samples_plain(t).or_else(|| samples_direct(t).ok()),
            read_samples,
        )
    }

    /// `v`, or the error [`finite`] gives when it is not finite (the
    /// message is only built then).
    fn finite(&self, v: f64, what: impl FnOnce() -> String) -> Result<f64> {
        if v.is_finite() {
            return Ok(v);
        }
        finite(&self.source()?, None, v, &what())
    }
}

/// `path` read whole when it is a regular file, `None` when it is not
/// (absent, a folder). A tree is thousands of small files, and opening
/// them is most of the time: one `open`, one `read` into a buffer kept per
/// thread and one `close` each. A read that does not fill the buffer has
/// reached the end of a regular file, so only a file larger than the buffer
/// costs an `fstat` (for its type and size) and more reads.
fn read_if_file(path: &Path) -> Result<Option<RunFile>> {
    use std::io::{ErrorKind, Read};
    let absent_or = |e: std::io::Error| {
        if path.is_file() {
            Err(Error::io(path, e))
        } else {
            Ok(None)
        }
    };
    let mut file = match std::fs::File::open(path) {
        Ok(f) => f,
        // The usual case for `change/`: no `stat` needed to tell.
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return absent_or(e),
    };
    let mut scratch = SCRATCH.take();
    scratch.resize(SCRATCH_LEN, 0);
    let first = loop {
        match file.read(&mut scratch) {
            Ok(n) => break n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            // A folder opens but does not read.
            Err(e) if e.kind() == ErrorKind::IsADirectory => {
                SCRATCH.set(scratch);
                return Ok(None);
            }
            Err(e) => {
                SCRATCH.set(scratch);
                return Err(Error::io(path, e));
            }
        }
    };
    let mut bytes = scratch[..first].to_vec();
    SCRATCH.set(scratch);
    if first < SCRATCH_LEN {
        return Ok(Some(RunFile {
            path: path.to_path_buf(),
            bytes,
        }));
    }
    let meta = match file.metadata() {
        Ok(m) => m,
        Err(e) => return absent_or(e),
    };
    if !meta.is_file() {
        return Ok(None);
    }
    // A byte more than the size: a read that does not fill the buffer has
    // reached the end (of a regular file), so no second read looks for it.
    let size = meta.len() as usize;
    let mut len = bytes.len();
    bytes.resize(size.max(len) + 1, 0);
    loop {
        match file.read(&mut bytes[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(Error::io(path, e)),
        }
        if len == bytes.len() {
            // It grew since the `fstat`.
            bytes.resize(2 * len, 0);
        } else if len >= size {
            break;
        }
    }
    bytes.truncate(len);
    Ok(Some(RunFile {
        path: path.to_path_buf(),
        bytes,
    }))
}

/// Size of the per-thread read buffer of [`read_if_file`]: Criterion's
/// JSON files are a few KB (a `sample.json` of 100 samples about 4 KB).
const SCRATCH_LEN: usize = 16 << 10;

thread_local! {
    static SCRATCH: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Reads one saved run (`…/<id>/<variant>/`) and, for `new`, the stated
/// change next to it.
fn read_run(root: &Path, run: &Path, source: &SmolStr, out: &mut Vec<Observation>) -> Result<()> {
    let variant = run
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("new")
        .to_string();
    let bench_dir = run.parent().unwrap_or(root);
    let (benchmark, params, throughput) =
        if let Some(file) = read_if_file(&run.join("benchmark.json"))? {
            let id: BenchmarkId = file.json("Criterion benchmark.json")?;
            let mut p: Vec<(&str, String)> = Vec::new();
            if let Some(f) = id.function_id {
                p.push(("function", f));
            }
            if let Some(v) = id.value_str {
                p.push(("parameter", v));
            }
            (id.group_id, canonical_params(&p), id.throughput)
        } else {
            // Criterion before 0.3 wrote no benchmark.json: the folder path is the id.
            let rel = bench_dir.strip_prefix(root).unwrap_or(bench_dir);
            let id = rel.to_string_lossy().replace('\\', "/");
            let (b, p) = crate::ingest::formats::criterion::console::split_id(&id);
            (b, p, None)
        };
    // Errors name the JSON file inside the folder that is at fault. The
    // rows of a run share their names: one template per metric, cloned
    // per row (no allocation per row).
    let template = |metric: &str, unit: &str| {
        let mut o = Observation::new(benchmark.as_str(), metric, unit, Stat::Sample, 0.0)
            .with_variant(variant.as_str())
            .with_params_str(params.as_str());
        o.source = source.clone();
        o
    };
    let time = template("time", "ns");
    let mk = |tpl: &Observation, stat: Stat, v: f64| {
        let mut o = tpl.clone();
        o.stat = stat;
        o.value = v;
        o
    };

    if let Some(file) = read_if_file(&run.join("sample.json"))? {
        let Samples { iters, times } = file.samples()?;
        if iters.len() != times.len() {
            return Err(file.error(format!(
                "{} iteration counts but {} times",
                iters.len(),
                times.len()
            )));
        }
        let thrpt = throughput.as_ref().map(|tp| {
            let (amount, unit) = tp.per_iteration();
            (amount, template("thrpt", unit))
        });
        out.reserve(iters.len() * if thrpt.is_some() { 2 } else { 1 } + 6);
        // Checked first, so that the rows can be written straight into
        // place (a row built and then pushed is copied once more).
        for (i, (n, t)) in iters.iter().zip(&times).enumerate() {
            if *n <= 0.0 {
                return Err(file.error(format!("sample {i}: iteration count {n} is not positive")));
            }
            file.finite(t / n, || format!("sample {i}"))?;
        }
        let sample = |tpl: &Observation, i: usize, v: f64| {
            let mut o = tpl.clone();
            o.value = v;
            o.run = Some(i as u32);
            o
        };
        let per_iter = iters.iter().zip(&times).map(|(n, t)| t / n).enumerate();
        match &thrpt {
            None => out.extend(per_iter.map(|(i, v)| sample(&time, i, v))),
            Some((amount, tpl)) => {
                for (i, v) in per_iter {
                    out.push(sample(&time, i, v));
                    if v > 0.0 {
                        out.push(sample(tpl, i, amount / (v * 1e-9)));
                    }
                }
            }
        }
    }

    let est_path = run.join("estimates.json");
    let est: Estimates = match read_if_file(&est_path)? {
        Some(file) => {
            let est: Estimates = file.json("Criterion estimates.json")?;
            for (stat, v) in est.stated() {
                file.finite(v, || format!("{stat} estimate"))?;
            }
            est
        }
        // Gone since the folder was listed: the error of reading it.
        None => parse_json(&Source::read(&est_path)?, "Criterion estimates.json")?,
    };
    for (stat, v) in est.stated() {
        out.push(mk(&time, stat, v));
    }

    // The stated change belongs to the run measured last, `new`.
    if variant == "new" {
        if let Some(file) = read_if_file(&bench_dir.join("change").join("estimates.json"))? {
            let change: Estimates = file.json("Criterion change/estimates.json")?;
            let pct = file.finite(change.mean_change_pct(), || "mean change".into())?;
            // The row keeps its group's unit so that groups stay unit-pure;
            // the stat itself says the value is a percentage.
            out.push(mk(&time, Stat::ChangePct, pct));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
