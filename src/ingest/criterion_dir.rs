//! A Criterion.rs `target/criterion` tree, read as a whole.
//!
//! Layout: `<group>/<function>/<parameter>/{new,base,<baseline>,change}/`.
//! Every folder holding `estimates.json` (other than `change/`) is one
//! saved run; its name (`new`, `base`, `main` …) becomes the variant, so a
//! single tree compares `base` against `new` on its own. `sample.json`
//! holds per-sample totals: the per-iteration time `times[i] / iters[i]`
//! is the sample. `change/estimates.json` holds the stated relative change
//! as a fraction, stored here in percent.

use super::structured::{finite, parse_json};
use super::{Confidence, Format, Source};
use crate::error::{Error, Result};
use crate::model::{canonical_params, Observation, SmolStr, Stat};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The Criterion directory importer.
pub struct CriterionDir;

/// `benchmark.json` (both schemas share these fields).
#[derive(Deserialize)]
struct BenchmarkId {
    group_id: String,
    #[serde(default)]
    function_id: Option<String>,
    #[serde(default)]
    value_str: Option<String>,
    #[serde(default)]
    throughput: Option<Throughput>,
}

/// Externally tagged, as Criterion serialises its enum.
#[derive(Deserialize)]
enum Throughput {
    Bytes(f64),
    BytesDecimal(f64),
    Elements(f64),
    Bits(f64),
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
#[derive(Deserialize)]
struct Estimates {
    #[serde(alias = "Mean")]
    mean: Estimate,
    #[serde(alias = "Median")]
    median: Estimate,
    #[serde(default, alias = "StdDev")]
    std_dev: Option<Estimate>,
}

/// `sample.json`: current object form or the older `[[iters…],[times…]]`.
#[derive(Deserialize)]
#[serde(untagged)]
enum Sample {
    Current { iters: Vec<f64>, times: Vec<f64> },
    Old((Vec<f64>, Vec<f64>)),
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

    fn parse(&self, src: &Source) -> Result<Vec<Observation>> {
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

    fn parse_dir(&self, dir: &Path) -> Result<Vec<Observation>> {
        let mut run_dirs = Vec::new();
        collect_run_dirs(dir, 0, &mut run_dirs)?;
        run_dirs.sort();
        if run_dirs.is_empty() {
            return Err(Error::input(
                dir,
                None,
                "no Criterion estimates.json found under this folder",
            ));
        }
        let mut out = Vec::new();
        for run in &run_dirs {
            read_run(dir, run, &mut out)?;
        }
        Ok(out)
    }
}

/// True for a folder that is (or directly holds) a Criterion output tree:
/// named `criterion`, holding a `criterion` child that is one, or whose
/// every sub-folder leads to saved runs within three levels. The last rule
/// accepts copied or renamed trees and single groups without claiming a
/// parent folder that merely contains a tree somewhere deep inside.
fn is_criterion_root(dir: &Path) -> bool {
    let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if name == "criterion" && has_run_within(dir, 5) {
        return true;
    }
    if dir.join("criterion").is_dir() && is_criterion_root(&dir.join("criterion")) {
        return true;
    }
    let children = subdirs(dir);
    if children.is_empty() || !has_run_within(dir, 3) {
        return false;
    }
    children.iter().all(|c| {
        let n = c.file_name().and_then(|n| n.to_str()).unwrap_or("");
        NOT_RUNS.contains(&n) || has_run_within(c, 3)
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
    let mut v: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    v.sort();
    v
}

fn collect_run_dirs(dir: &Path, depth: u32, out: &mut Vec<PathBuf>) -> Result<()> {
    // Criterion ids are at most group/function/parameter deep; the bound
    // only guards against symlink loops.
    if depth > 12 {
        return Ok(());
    }
    if is_run_dir(dir) {
        out.push(dir.to_path_buf());
        return Ok(());
    }
    for c in subdirs(dir) {
        collect_run_dirs(&c, depth + 1, out)?;
    }
    Ok(())
}

fn read_source(path: &Path) -> Result<Source> {
    Source::read(path)
}

/// Reads one saved run (`…/<id>/<variant>/`) and, for `new`, the stated
/// change next to it.
fn read_run(root: &Path, run: &Path, out: &mut Vec<Observation>) -> Result<()> {
    let variant = run
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("new")
        .to_string();
    let bench_dir = run.parent().unwrap_or(root);
    let bench_path = run.join("benchmark.json");
    let (benchmark, params, throughput) = if bench_path.is_file() {
        let src = read_source(&bench_path)?;
        let id: BenchmarkId = parse_json(&src, "Criterion benchmark.json")?;
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
        let (b, p) = super::criterion_console::split_id(&id);
        (b, p, None)
    };
    // The source is the folder as given, the input the user named; errors
    // name the JSON file inside it that is at fault. Formatted once: a
    // `Path`'s Display re-validates UTF-8 on every call.
    let source: SmolStr = root.display().to_string().into();
    let mk = |stat: Stat, v: f64, metric: &str, unit: &str| {
        let mut o = Observation::new(benchmark.as_str(), metric, unit, stat, v)
            .with_variant(variant.as_str())
            .with_params_str(params.clone());
        o.source = source.clone();
        o
    };

    let sample_path = run.join("sample.json");
    if sample_path.is_file() {
        let src = read_source(&sample_path)?;
        let sample: Sample = parse_json(&src, "Criterion sample.json")?;
        let (iters, times) = match sample {
            Sample::Current { iters, times } => (iters, times),
            Sample::Old((i, t)) => (i, t),
        };
        if iters.len() != times.len() {
            return Err(src.error(
                None,
                format!("{} iteration counts but {} times", iters.len(), times.len()),
            ));
        }
        for (i, (n, t)) in iters.iter().zip(&times).enumerate() {
            if *n <= 0.0 {
                return Err(src.error(
                    None,
                    format!("sample {i}: iteration count {n} is not positive"),
                ));
            }
            let per_iter = finite(&src, None, t / n, &format!("sample {i}"))?;
            out.push(mk(Stat::Sample, per_iter, "time", "ns").with_run(i as u32));
            if let Some(tp) = &throughput {
                let (amount, unit) = match tp {
                    Throughput::Bytes(b) | Throughput::BytesDecimal(b) => (*b, "B/s"),
                    Throughput::Elements(e) => (*e, "elem/s"),
                    Throughput::Bits(b) => (*b, "bit/s"),
                };
                if per_iter > 0.0 {
                    out.push(
                        mk(Stat::Sample, amount / (per_iter * 1e-9), "thrpt", unit)
                            .with_run(i as u32),
                    );
                }
            }
        }
    }

    let est_path = run.join("estimates.json");
    let src = read_source(&est_path)?;
    let est: Estimates = parse_json(&src, "Criterion estimates.json")?;
    let mut stated = vec![
        (Stat::Mean, est.mean.point_estimate),
        (Stat::CiLow, est.mean.confidence_interval.lower_bound),
        (Stat::CiHigh, est.mean.confidence_interval.upper_bound),
        (Stat::Median, est.median.point_estimate),
    ];
    if let Some(sd) = &est.std_dev {
        stated.push((Stat::Stddev, sd.point_estimate));
    }
    for (stat, v) in stated {
        let v = finite(&src, None, v, &format!("{stat} estimate"))?;
        out.push(mk(stat, v, "time", "ns"));
    }

    // The stated change belongs to the run measured last, `new`.
    let change_path = bench_dir.join("change").join("estimates.json");
    if variant == "new" && change_path.is_file() {
        let src = read_source(&change_path)?;
        let change: Estimates = parse_json(&src, "Criterion change/estimates.json")?;
        let pct = finite(
            &src,
            None,
            change.mean.point_estimate * 100.0,
            "mean change",
        )?;
        // The row keeps its group's unit so that groups stay unit-pure; the
        // stat itself says the value is a percentage.
        out.push(mk(Stat::ChangePct, pct, "time", "ns"));
    }
    Ok(())
}
