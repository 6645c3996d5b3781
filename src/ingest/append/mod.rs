//! `ingest --into DIR`: appends inputs to a results archive (see
//! [`crate::ingest::formats::archive`] for its layout). An input whose
//! size and modification time are as the manifest has them is not read;
//! one whose bytes changed replaces its rows; one that is gone is
//! reported (and its rows dropped with `prune`). The manifest is replaced
//! in one step after every part is written, and old parts are removed
//! only then, so an interrupted run leaves the archive as it was.

mod fingerprint;
mod part;
mod read;

use crate::error::{Error, Result};
use crate::ingest::formats::archive::layout::variant_of;
use crate::ingest::formats::archive::manifest::Manifest;
use crate::ingest::{units, FileReport, IngestOptions, Registry, Unit};
use crate::model::OutputLock;
use std::path::{Path, PathBuf};

/// How to read what is appended.
#[derive(Debug, Clone, Default)]
pub struct AppendOptions {
    /// Force this format instead of detecting one.
    pub format: Option<String>,
    /// The variant of every value read; by default, values that name none
    /// take the name of the folder given or of the file.
    pub variant: Option<String>,
    /// Drop the rows of inputs that no longer exist.
    pub prune: bool,
}

/// What an append did.
#[derive(Debug, Clone, Default)]
pub struct AppendReport {
    /// The inputs read now (new or changed), as `ingest` reports them.
    pub read: Vec<FileReport>,
    /// Inputs new to the archive.
    pub added: usize,
    /// Archived inputs whose content changed: their rows replaced.
    pub replaced: usize,
    /// Inputs given whose content was as archived: not read.
    pub unchanged: usize,
    /// Archived inputs that no longer exist.
    pub removed: Vec<String>,
    /// Rows the inputs read now gave.
    pub rows_written: usize,
    /// Rows in the archive afterwards.
    pub rows_total: usize,
}

/// An input to read now, and the manifest entry it replaces, if any.
struct Job {
    unit: Unit,
    path: String,
    variant: Option<String>,
    size: u64,
    modified_ns: u64,
    hash: String,
    replaces: Option<usize>,
}

/// Appends `args` (files, folders, globs) to the archive at `dir`,
/// creating it when `dir` is new or empty.
pub fn append(
    dir: &Path,
    args: &[PathBuf],
    registry: &Registry,
    opts: &AppendOptions,
) -> Result<AppendReport> {
    let root = open_root(dir)?;
    let _lock = OutputLock::take(
        crate::model::folder_of(&root),
        &root.file_name().unwrap_or_default().to_string_lossy(),
    )?;
    let mut manifest = Manifest::load(&root)?.unwrap_or_else(Manifest::new);
    let stale_reader = manifest.written_by != Manifest::new().written_by;
    let read_opts = IngestOptions {
        format: opts.format.clone(),
        ..Default::default()
    };
    let mut report = AppendReport::default();
    let mut jobs: Vec<Job> = Vec::new();
    let mut given = std::collections::HashSet::new();
    let archived: std::collections::HashMap<String, usize> = manifest
        .inputs
        .iter()
        .enumerate()
        .map(|(i, e)| (e.path.clone(), i))
        .collect();
    for arg in args {
        for unit in units(std::slice::from_ref(arg), registry, &read_opts)? {
            let abs = std::fs::canonicalize(&unit.path).map_err(|e| Error::io(&unit.path, e))?;
            if abs.starts_with(&root) {
                continue;
            }
            let path = abs.to_string_lossy().into_owned();
            if !given.insert(path.clone()) {
                continue;
            }
            let stamp = fingerprint::stamp(&abs, unit.folder)?;
            let known = archived.get(&path).copied();
            let entry = known.map(|i| &manifest.inputs[i]);
            // Inputs nothing read are read again: a later extractor or
            // release may read them.
            let rereadable = stale_reader || entry.is_some_and(|e| e.format.is_none());
            if !rereadable
                && entry.is_some_and(|e| e.size == stamp.size && e.modified_ns == stamp.modified_ns)
            {
                report.unchanged += 1;
                continue;
            }
            let hash = fingerprint::digest(&abs, unit.folder)?;
            if !rereadable && entry.is_some_and(|e| e.hash == hash) {
                let e = &mut manifest.inputs[known.expect("entry found")];
                (e.size, e.modified_ns) = (stamp.size, stamp.modified_ns);
                report.unchanged += 1;
                continue;
            }
            let variant = opts.variant.clone().or_else(|| Some(label(arg, &unit)));
            jobs.push(Job {
                unit,
                path,
                variant,
                size: stamp.size,
                modified_ns: stamp.modified_ns,
                hash,
                replaces: known,
            });
        }
    }
    let (entries, files) = read::read_jobs(
        &root,
        &jobs,
        registry,
        opts.format.clone(),
        opts.variant.clone(),
    )?;
    report.read = files;
    let mut old_parts: Vec<String> = Vec::new();
    for (job, entry) in jobs.iter().zip(entries) {
        report.rows_written += entry.rows;
        match job.replaces {
            Some(i) => {
                report.replaced += 1;
                let old = std::mem::replace(&mut manifest.inputs[i], entry);
                let kept = &manifest.inputs[i].parts;
                old_parts.extend(old.parts.into_iter().filter(|p| !kept.contains(p)));
            }
            None => {
                report.added += 1;
                manifest.inputs.push(entry);
            }
        }
    }
    manifest.inputs.retain(|e| {
        if given.contains(&e.path) || Path::new(&e.path).exists() {
            return true;
        }
        report.removed.push(e.path.clone());
        if opts.prune {
            old_parts.extend(e.parts.iter().cloned());
        }
        !opts.prune
    });
    manifest.written_by = Manifest::new().written_by;
    manifest.save(&root)?;
    for p in old_parts {
        remove_part(&root, &p);
    }
    report.rows_total = manifest.inputs.iter().map(|e| e.rows).sum();
    Ok(report)
}

/// The archive's root, created if need be; a folder that holds files but
/// no manifest is refused rather than mixed into.
fn open_root(dir: &Path) -> Result<PathBuf> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let root = std::fs::canonicalize(dir).map_err(|e| Error::io(dir, e))?;
    if !Manifest::is_archive(&root) {
        let mut entries = std::fs::read_dir(&root).map_err(|e| Error::io(&root, e))?;
        if entries.next().is_some() {
            return Err(Error::Usage(format!(
                "{}: not an archive (no manifest.json) and not empty; give a new or empty folder",
                dir.display()
            )));
        }
    }
    Ok(root)
}

/// The variant of values that name none: the folder given, or the file.
fn label(arg: &Path, unit: &Unit) -> String {
    let named = if arg.is_dir() { arg } else { &unit.path };
    let name = named
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if named.is_dir() {
        return name;
    }
    crate::model::point_name(&name)
}

/// Removes a part no entry lists any more, and its partition folder when
/// that is left empty.
fn remove_part(root: &Path, rel: &str) {
    let path = root.join(rel);
    let _ = std::fs::remove_file(&path);
    if variant_of(Path::new(rel)).is_some() {
        if let Some(dir) = path.parent() {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_named_without_its_extension_a_version_kept_whole() {
        let unit = |p: &str| Unit {
            path: PathBuf::from(p),
            folder: false,
        };
        let arg = Path::new("/nonexistent/x");
        assert_eq!(label(arg, &unit("/r/6.8-rc1.json")), "6.8-rc1");
        assert_eq!(label(arg, &unit("/r/6.8")), "6.8");
        assert_eq!(label(arg, &unit("/r/base.txt.gz")), "base");
    }
}
