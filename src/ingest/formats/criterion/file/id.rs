//! Which benchmark and saved run a lone Criterion file belongs to, from
//! where it lies: Criterion writes `<group>/<function>/<parameter>/<run>/`
//! under `target/criterion`, with the exact id in the run's
//! `benchmark.json`.

use super::super::dir::{BenchmarkId, Throughput};
use crate::error::Result;
use crate::ingest::shared::structured::parse_json;
use crate::ingest::Source;
use crate::model::canonical_params;
use std::path::Path;

/// The names of a file's rows.
pub(super) struct Id {
    pub benchmark: String,
    pub params: String,
    /// The saved run (`new`, `base`, a `--save-baseline` name); empty when
    /// the path does not say.
    pub variant: String,
    pub throughput: Option<Throughput>,
}

/// The folders Criterion names its saved runs by, besides baselines.
const RUNS: [&str; 3] = ["new", "base", "change"];

/// The id of `src`, a file of the run folder it lies in. In order: the
/// run's `benchmark.json` (for `change/`, the `new` run's beside it); the
/// folders between a `criterion` folder and the run, as the tree reader
/// names pre-0.3 trees; the folder above a `new`/`base`/`change` folder;
/// else the file's own name, with no variant. A `change/` file's change is
/// that of the `new` run, as the tree reader keeps it.
pub(super) fn of(src: &Source, change: bool) -> Result<Id> {
    let path = Path::new(src.path.as_str());
    let run_dir = path.parent().unwrap_or(Path::new(""));
    let folder = name(run_dir);
    let in_change = change || folder == "change";
    let variant = if in_change { "new" } else { folder };
    let meta = match in_change {
        true => run_dir
            .parent()
            .map(|b| b.join("new").join("benchmark.json")),
        false => Some(run_dir.join("benchmark.json")),
    };
    if let Some(meta) = meta.filter(|m| m.is_file()) {
        let id: BenchmarkId = parse_json(&Source::read(&meta)?, "Criterion benchmark.json")?;
        let mut p: Vec<(&str, String)> = Vec::new();
        if let Some(f) = id.function_id {
            p.push(("function", f));
        }
        if let Some(v) = id.value_str {
            p.push(("parameter", v));
        }
        return Ok(Id {
            benchmark: id.group_id,
            params: canonical_params(&p),
            variant: variant.to_string(),
            throughput: id.throughput,
        });
    }
    let above: Vec<&str> = run_dir
        .parent()
        .map(|p| p.iter().filter_map(|c| c.to_str()).collect())
        .unwrap_or_default();
    let from_tree = above
        .iter()
        .rposition(|c| *c == "criterion")
        .map(|root| above[root + 1..].join("/"))
        .filter(|id| !id.is_empty());
    let (benchmark, params, variant) = match (from_tree, above.last()) {
        (Some(id), _) => {
            let (b, p) = crate::ingest::formats::criterion::console::split_id(&id);
            (b, p, variant)
        }
        (None, Some(bench)) if RUNS.contains(&folder) => {
            (bench.to_string(), String::new(), variant)
        }
        _ => {
            let stem = path.file_stem().and_then(|s| s.to_str());
            (stem.unwrap_or("criterion").to_string(), String::new(), "")
        }
    };
    Ok(Id {
        benchmark,
        params,
        variant: variant.to_string(),
        throughput: None,
    })
}

fn name(dir: &Path) -> &str {
    dir.file_name().and_then(|n| n.to_str()).unwrap_or("")
}
