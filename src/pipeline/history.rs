//! `history`'s run: one point per input, read as `compare` reads a
//! variant, then the change points of every series, each with what differs
//! between the configs of the points around it.

use super::inputs::{load_plan, LoadOptions, VariantInput};
use crate::analysis::history::{history, History, HistorySettings};
use crate::analysis::version_order::sort_versions;
use crate::analysis::Filter;
use crate::error::{Error, Result};
use crate::ingest::Registry;
use std::path::{Path, PathBuf};

/// The name of a point: a folder's name; a file's name without `.gz` and
/// an alphabetic extension (`6.8-rc1.txt` → `6.8-rc1`, while `6.8` stays);
/// for a glob, the folder holding the wildcard part.
pub fn point_label(p: &Path) -> String {
    let file = super::inputs::file_part(p);
    if p.is_dir() {
        return file;
    }
    if !p.exists() && file.contains(['*', '?', '[']) {
        if let Some(parent) = p.parent().and_then(|d| d.file_name()) {
            return parent.to_string_lossy().to_string();
        }
    }
    crate::model::point_name(&file)
}

/// One point per argument, named by [`point_label`] (by the whole path when
/// two labels are the same) or by `variant_names` when given.
fn plan(inputs: &[PathBuf], variant_names: &[String]) -> Result<Vec<VariantInput>> {
    let mut names: Vec<String> = inputs.iter().map(|p| point_label(p)).collect();
    let distinct = |n: &[String]| n.iter().enumerate().all(|(i, a)| !n[..i].contains(a));
    if !distinct(&names) {
        names = inputs
            .iter()
            .map(|p| p.to_string_lossy().trim_end_matches('/').to_string())
            .collect();
    }
    if !variant_names.is_empty() {
        if variant_names.len() != inputs.len() {
            return Err(Error::Usage(format!(
                "--variant-names gives {} names for {} inputs",
                variant_names.len(),
                inputs.len()
            )));
        }
        names = variant_names.iter().map(|n| n.trim().to_string()).collect();
    }
    Ok(names
        .into_iter()
        .zip(inputs)
        .map(|(name, p)| VariantInput {
            name,
            paths: vec![p.clone()],
        })
        .collect())
}

/// What `history` reads and how.
#[derive(Debug, Clone, Default)]
pub struct HistoryInputs {
    /// One point per path, in the order given.
    pub inputs: Vec<PathBuf>,
    /// Names for the points, one per input; empty = from the paths.
    pub variant_names: Vec<String>,
    /// Sort the points by version (`v6.8` < `v6.10`) instead of as given.
    pub by_version: bool,
    /// Force one input format.
    pub format: Option<String>,
    /// `--map COLUMN=FIELD` specs and user extractor files.
    pub map: Vec<String>,
    /// User extractor files (`--extractor`).
    pub extractors: Vec<PathBuf>,
    /// Rows to keep (`--filter`).
    pub filter: Option<Filter>,
    /// A kernel-config rules file for the config changes at change points.
    pub rules: Option<PathBuf>,
}

/// Reads the inputs and analyses them as a history.
pub fn load_history(args: &HistoryInputs, settings: &HistorySettings) -> Result<History> {
    let filter = args.filter.as_ref();
    let mut registry = Registry::builtin();
    crate::ingest::add_user_formats(&mut registry, &args.map, &args.extractors)?;
    let opts = LoadOptions {
        format: args.format.clone(),
        selection: filter.map(|f| f.selection(true)).unwrap_or_default(),
        ..Default::default()
    };
    let points = plan(&args.inputs, &args.variant_names)?;
    let mut ingested = load_plan(&points, &opts, &registry)?;
    for f in &ingested.files {
        if f.format.is_none() {
            eprintln!(
                "patchperf: {}: not read: {}",
                f.path,
                f.note.as_deref().unwrap_or("unknown format")
            );
        }
    }
    if let Some(f) = filter {
        let kept = f.apply(&ingested.dataset);
        if kept.is_empty() {
            return Err(Error::Usage(format!(
                "--filter left no values (of {} read)",
                ingested.dataset.len()
            )));
        }
        ingested.dataset = kept;
    }
    let mut order = ingested.dataset.variants();
    if args.by_version {
        order = sort_versions(&order);
    }
    let mut h = history(&ingested.dataset, &order, settings)?;
    attach_config_changes(&mut h, &points, args.rules.clone())?;
    Ok(h)
}

/// For each change point between two points read from folders, what
/// differs between the kernel configs and environment snapshots found in
/// them (the checks of `compare`, with the debug-option rules), computed
/// once per pair of points.
fn attach_config_changes(
    h: &mut History,
    plan: &[VariantInput],
    rules: Option<PathBuf>,
) -> Result<()> {
    let dir_of = |name: &str| {
        plan.iter()
            .find(|v| v.name == name)
            .and_then(|v| v.paths.first())
            .filter(|p| p.is_dir())
            .cloned()
    };
    let mut cache: std::collections::HashMap<(String, String), Vec<crate::model::Finding>> =
        std::collections::HashMap::new();
    for s in &mut h.series {
        for c in &mut s.change_points {
            let key = (c.before.clone(), c.after.clone());
            if !cache.contains_key(&key) {
                let found = match (dir_of(&c.before), dir_of(&c.after)) {
                    (Some(a), Some(b)) => {
                        let mut inputs = crate::checks::CheckInputs::from_variant_dirs(&a, &b)?;
                        inputs.rules = rules.clone();
                        if inputs.is_empty() {
                            Vec::new()
                        } else {
                            crate::checks::comparison_findings(&inputs, None)?
                        }
                    }
                    _ => Vec::new(),
                };
                cache.insert(key.clone(), found);
            }
            c.config_changes = cache[&key].clone();
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_keep_version_dots_and_lose_alphabetic_extensions() {
        assert_eq!(point_label(Path::new("r/6.8-rc1.txt")), "6.8-rc1");
        assert_eq!(point_label(Path::new("r/6.8")), "6.8");
        assert_eq!(point_label(Path::new("r/6.8.1.json.gz")), "6.8.1");
        assert_eq!(point_label(Path::new("r/v6.9/*.txt")), "v6.9");
    }
}
