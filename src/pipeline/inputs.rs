//! From command-line paths to a dataset whose variants have readable names.
//!
//! Each argument (file, folder or glob) is one variant named after the file
//! stem or folder name. Names that share leading or trailing tokens lose them
//! at token boundaries (`hackbench-baseline.txt`, `hackbench-patched.txt` →
//! `baseline`, `patched`). When every name ends in a run index and several
//! files share the rest (`x-baseline-1.txt … x-baseline-10.txt` as a shell
//! expands a glob), those files form one variant with runs in numeric order.
//! A single argument keeps the variants its file states (an e-mail table);
//! values without one get the file's name.

use super::names::{all_distinct, split_run_index, strip_common, tokens};
use crate::error::{Error, Result};
use crate::ingest::{ingest, IngestOptions, Ingested, Registry};
use std::path::{Path, PathBuf};

/// How to read and name the inputs.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// Force one input format (see `patchperf formats`).
    pub format: Option<String>,
    /// Names for the variants, one per variant in argument order; empty =
    /// derive them from the paths.
    pub variant_names: Vec<String>,
    /// `--map COLUMN=FIELD` specs: read CSV/JSON tables with these columns
    /// (see [`crate::ingest::add_user_formats`]).
    pub map: Vec<String>,
    /// User-defined extractor files (TOML), tried before the built-ins.
    pub extractors: Vec<PathBuf>,
    /// Rows a reader may leave out before making them (see
    /// [`crate::analysis::Filter::selection`]).
    pub selection: crate::model::Selection,
}

/// One variant to read: its name and its paths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariantInput {
    /// The variant's name.
    pub name: String,
    /// Its input files and folders.
    pub paths: Vec<PathBuf>,
}

/// Reads `paths` as variants (see the module documentation) with the
/// built-in formats and the user formats of `opts` (`map`, `extractors`)
/// in front of them, as `patchperf ingest` does. An empty result is a usage
/// error that lists what each file was read as.
pub fn load(paths: &[PathBuf], opts: &LoadOptions) -> Result<Ingested> {
    let mut registry = Registry::builtin();
    crate::ingest::add_user_formats(&mut registry, &opts.map, &opts.extractors)?;
    load_with(paths, opts, &registry)
}

/// [`load`] with a given registry, used as is (`opts.map` and
/// `opts.extractors` are not added to it).
pub fn load_with(paths: &[PathBuf], opts: &LoadOptions, registry: &Registry) -> Result<Ingested> {
    if paths.is_empty() {
        return Err(Error::Usage("no input given".into()));
    }
    let mut plan = plan_variants(paths);
    if !opts.variant_names.is_empty() {
        if opts.variant_names.len() != plan.len() {
            return Err(Error::Usage(format!(
                "--variant-names gives {} names for {} variants ({})",
                opts.variant_names.len(),
                plan.len(),
                plan.iter()
                    .map(|v| v.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        for (v, name) in plan.iter_mut().zip(&opts.variant_names) {
            v.name = name.trim().to_string();
        }
    }
    load_plan(&plan, opts, registry)
}

/// Reads each variant of `plan` under its name (values that state their
/// own variant keep it), with `registry` as is; an empty result is a usage
/// error that lists what each file was read as. `history` gives its own
/// plan: one point per argument.
pub fn load_plan(
    plan: &[VariantInput],
    opts: &LoadOptions,
    registry: &Registry,
) -> Result<Ingested> {
    let mut read = Vec::with_capacity(plan.len());
    for v in plan {
        read.push(ingest(
            &v.paths,
            registry,
            &IngestOptions {
                format: opts.format.clone(),
                variant: None,
                default_variant: Some(v.name.clone()),
                selection: opts.selection.clone(),
            },
        )?);
    }
    super::unnamed::name_after_shared_part(&mut read);
    let mut out = Ingested::default();
    for r in read {
        out.append(r);
    }
    if out.dataset.is_empty() {
        let why: Vec<String> = out
            .files
            .iter()
            .map(|f| match &f.note {
                Some(n) => format!("{}: {n}", f.path),
                None => format!("{}: no values", f.path),
            })
            .collect();
        return Err(Error::Usage(format!(
            "no values were read from the inputs\n  {}",
            why.join("\n  ")
        )));
    }
    Ok(out)
}

/// The inputs that gave no value, each on a line of its own with why,
/// after "; no values were read from"; empty when each gave some. An error
/// about a variant missing from the rows adds it: that variant's files are
/// what went wrong, and nothing else names them.
pub(crate) fn unread_inputs(files: &[crate::model::FileReport]) -> String {
    let lines: Vec<String> = files
        .iter()
        .filter(|f| f.rows == 0)
        .map(|f| match &f.note {
            Some(n) => format!("\n  {}: {n}", f.path),
            None => format!("\n  {}: no values", f.path),
        })
        .collect();
    if lines.is_empty() {
        String::new()
    } else {
        format!("; no values were read from{}", lines.concat())
    }
}

/// Names the variants of `paths` and groups replicate files (pure: looks at
/// the names and at which paths are folders only).
pub fn plan_variants(paths: &[PathBuf]) -> Vec<VariantInput> {
    let labels: Vec<String> = paths.iter().map(|p| label(p)).collect();
    if paths.len() == 1 {
        return vec![VariantInput {
            name: labels[0].clone(),
            paths: paths.to_vec(),
        }];
    }
    // Replicates: every label ends in a number and dropping it merges some.
    let split: Vec<Option<(String, u64)>> = labels.iter().map(|l| split_run_index(l)).collect();
    let mut groups: Vec<(String, Vec<(u64, PathBuf)>)> = Vec::new();
    if split.iter().all(|s| s.is_some()) {
        for (s, p) in split.iter().flatten().zip(paths) {
            match groups.iter_mut().find(|g| g.0 == s.0) {
                Some(g) => g.1.push((s.1, p.clone())),
                None => groups.push((s.0.clone(), vec![(s.1, p.clone())])),
            }
        }
        if groups.len() < 2 || groups.len() == paths.len() {
            groups.clear();
        }
    }
    if groups.is_empty() {
        groups = labels
            .iter()
            .zip(paths)
            .map(|(l, p)| (l.clone(), vec![(0, p.clone())]))
            .collect();
    }
    for g in groups.iter_mut() {
        g.1.sort_by_key(|(i, _)| *i);
    }
    let mut names: Vec<String> = groups.iter().map(|g| g.0.clone()).collect();
    if !all_distinct(&names) {
        // Same stems in different folders: name by the whole path instead.
        names = groups
            .iter()
            .map(|g| strip_ext(&g.1[0].1.to_string_lossy()))
            .collect();
    }
    let names = strip_common(&names);
    groups
        .into_iter()
        .zip(names)
        .map(|((_, ps), name)| VariantInput {
            name,
            paths: ps.into_iter().map(|(_, p)| p).collect(),
        })
        .collect()
}

/// The variant `typed` means as `--baseline`: a variant's name as shown,
/// or the argument that gave it as typed (`data/v6.8`, `data/v6.8/`) or
/// its last part (`v6.8`). Anything else comes back as it was, for the
/// analysis to refuse with the list of names.
pub fn baseline_name(paths: &[PathBuf], opts: &LoadOptions, typed: &str) -> String {
    let mut plan = plan_variants(paths);
    if opts.variant_names.len() == plan.len() {
        for (v, name) in plan.iter_mut().zip(&opts.variant_names) {
            v.name = name.trim().to_string();
        }
    }
    if plan.iter().any(|v| v.name == typed) {
        return typed.to_string();
    }
    let t = typed.trim_end_matches('/');
    let spelled = |p: &PathBuf| {
        let s = p.to_string_lossy();
        s.trim_end_matches('/') == t
            || p.file_name().is_some_and(|f| f.to_string_lossy() == t)
            || label(p) == t
    };
    plan.iter()
        .find(|v| v.paths.iter().any(spelled))
        .map_or_else(|| typed.to_string(), |v| v.name.clone())
}

/// The name an argument gives its variant: a folder's name, a file's stem
/// (without `.gz` and the extension), a glob's file part without the tokens
/// that hold wildcards.
fn label(p: &Path) -> String {
    let s = p.to_string_lossy();
    let is_glob = !p.exists() && s.contains(['*', '?', '[']);
    let file = file_part(p);
    if p.is_dir() {
        return file;
    }
    let stem = strip_ext(&file);
    if is_glob {
        let kept: Vec<&str> = tokens(&stem)
            .into_iter()
            .filter(|&(a, b)| !stem[a..b].contains(['*', '?', '[', ']']))
            .map(|(a, b)| &stem[a..b])
            .collect();
        if !kept.is_empty() {
            return kept.join("-");
        }
    }
    stem
}

fn strip_ext(name: &str) -> String {
    let name = name.strip_suffix(".gz").unwrap_or(name);
    match name.rfind('.') {
        Some(i) if i > 0 && !name[i + 1..].contains('/') && name.len() - i <= 9 => {
            name[..i].to_string()
        }
        _ => name.to_string(),
    }
}

/// The last part of a path as typed (`data/v6.8/` → `v6.8`), the whole
/// path when it has none.
pub(crate) fn file_part(p: &Path) -> String {
    p.file_name()
        .map(|f| f.to_string_lossy().to_string())
        .unwrap_or_else(|| p.to_string_lossy().trim_end_matches('/').to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(paths: &[&str]) -> Vec<(String, usize)> {
        let p: Vec<PathBuf> = paths.iter().map(PathBuf::from).collect();
        plan_variants(&p)
            .into_iter()
            .map(|v| (v.name, v.paths.len()))
            .collect()
    }

    #[test]
    fn common_prefix_and_suffix_go() {
        assert_eq!(
            names(&["r/hackbench-baseline-1.txt", "r/hackbench-patched-1.txt"]),
            vec![("baseline".into(), 1), ("patched".into(), 1)]
        );
        assert_eq!(
            names(&["out/v6.8-rc1_fio.json", "out/v6.8-rc2_fio.json"]),
            vec![("v6.8-rc1".into(), 1), ("v6.8-rc2".into(), 1)]
        );
        assert_eq!(names(&["a.txt", "b.txt", "c.txt"]).len(), 3);
    }

    #[test]
    fn the_baseline_may_be_named_by_its_argument() {
        let p: Vec<PathBuf> = ["d/run-base.txt", "d/run-new.txt"]
            .iter()
            .map(PathBuf::from)
            .collect();
        let o = LoadOptions::default();
        assert_eq!(baseline_name(&p, &o, "base"), "base");
        assert_eq!(baseline_name(&p, &o, "d/run-base.txt"), "base");
        assert_eq!(baseline_name(&p, &o, "run-new.txt"), "new");
        assert_eq!(baseline_name(&p, &o, "other"), "other");
    }

    #[test]
    fn versions_are_kept_whole() {
        let dir = tempfile::tempdir().unwrap();
        let folders = |pair: [&str; 2]| {
            let p: Vec<PathBuf> = pair
                .iter()
                .map(|n| {
                    let p = dir.path().join(n);
                    std::fs::create_dir_all(&p).unwrap();
                    p
                })
                .collect();
            plan_variants(&p)
                .into_iter()
                .map(|v| v.name)
                .collect::<Vec<_>>()
        };
        for pair in [
            ["v6.8", "v6.8-patched"],
            ["v6.8", "v6.9"],
            ["linux-6.8", "linux-6.8-sched"],
            ["6.8-rc1", "6.8-rc1+fix"],
        ] {
            assert_eq!(folders(pair), pair, "{pair:?}");
        }
        // What is not a version still goes.
        assert_eq!(folders(["run-base", "run-new"]), ["base", "new"]);
        assert_eq!(
            names(&["r/v6.8-hackbench.txt", "r/v6.9-hackbench.txt"]),
            vec![("v6.8".into(), 1), ("v6.9".into(), 1)]
        );
    }

    #[test]
    fn replicate_files_form_one_variant_in_numeric_order() {
        let mut args: Vec<String> = (1..=10)
            .map(|i| format!("d/hackbench-baseline-{i}.txt"))
            .collect();
        args.sort(); // as a shell expands a glob: 1, 10, 2, …
        args.extend((1..=10).map(|i| format!("d/hackbench-patched-{i}.txt")));
        let refs: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
        let p: Vec<PathBuf> = refs.iter().map(PathBuf::from).collect();
        let plan = plan_variants(&p);
        assert_eq!(plan.len(), 2);
        assert_eq!(plan[0].name, "baseline");
        assert_eq!(plan[1].name, "patched");
        assert_eq!(plan[0].paths.len(), 10);
        assert_eq!(
            plan[0].paths[1],
            PathBuf::from("d/hackbench-baseline-2.txt")
        );
        assert_eq!(
            plan[0].paths[9],
            PathBuf::from("d/hackbench-baseline-10.txt")
        );
    }

    #[test]
    fn globs_and_same_stems_in_folders() {
        assert_eq!(
            names(&["x/hackbench-baseline-*.txt", "x/hackbench-patched-*.txt"]),
            vec![("baseline".into(), 1), ("patched".into(), 1)]
        );
        assert_eq!(
            names(&["runs/base/result.json", "runs/new/result.json"]),
            vec![("base".into(), 1), ("new".into(), 1)]
        );
        assert_eq!(names(&["mail.txt"]), vec![("mail".into(), 1)]);
    }
}
