//! Values nothing in their file names, when each variant is one file.
//!
//! A log of bare `Time: 1.02` lines names no benchmark, so its reader names
//! the values after the file (`timeonly-a`). That is right for a folder of
//! such logs, where `pipe.log` and `sched.log` are two benchmarks that pair
//! with the same names in another folder; but when each variant is one file
//! (or replicates of one), the file's name is the variant's, and a
//! benchmark named after it never meets its counterpart: the comparison
//! finds nothing. Such values are renamed after what the files' names
//! share (`hackbench-base.log`, `hackbench-patched.log` → `hackbench`), or
//! after their format when the names share nothing.

use super::names::{shared_part, split_run_index};
use crate::model::Ingested;
use std::path::Path;

/// The benchmark given to values that neither the file's text nor the
/// files' shared name name.
pub const UNNAMED: &str = "unnamed";

/// Renames, across `variants` (one [`Ingested`] per variant, in the plan's
/// order), benchmarks that are only their file's name, when every variant
/// holds at most one such file (replicates of one count as one) and at
/// least two do under different names. Values a reader named otherwise
/// are left alone.
pub(super) fn name_after_shared_part(variants: &mut [Ingested]) {
    let stems: Vec<Option<String>> = match variants.iter().map(file_named).collect() {
        Some(s) => s,
        None => return,
    };
    let named: Vec<&String> = stems.iter().flatten().collect();
    if named.len() < 2 || named.iter().all(|s| *s == named[0]) {
        return;
    }
    let owned: Vec<String> = named.iter().map(|s| (*s).clone()).collect();
    let shared = shared_part(&owned);
    let name = if shared.is_empty() {
        common_format(variants).unwrap_or_else(|| UNNAMED.to_string())
    } else {
        shared
    };
    for v in variants.iter_mut() {
        for h in v.dataset.heads_mut() {
            if is_file_named(&h.benchmark, &h.source) {
                h.benchmark = name.as_str().into();
            }
        }
    }
}

/// The one file name (run index dropped) a variant's file-named values
/// come from: `Some(None)` when it has none, `None` when it has several.
fn file_named(v: &Ingested) -> Option<Option<String>> {
    let mut found: Option<String> = None;
    for s in v.dataset.series() {
        let h = s.head;
        if !is_file_named(&h.benchmark, &h.source) {
            continue;
        }
        let stem = replicate_stem(&h.benchmark);
        match &found {
            Some(f) if *f != stem => return None,
            Some(_) => {}
            None => found = Some(stem),
        }
    }
    Some(found)
}

/// Whether `benchmark` is the name of the file `source`, as the readers
/// that fall back to it write it (up to the last or the first dot).
fn is_file_named(benchmark: &str, source: &str) -> bool {
    if benchmark.is_empty() {
        return false;
    }
    let path = Path::new(source);
    let last = path.file_stem().and_then(|s| s.to_str());
    let name = path.file_name().and_then(|s| s.to_str()).unwrap_or("");
    let first = name.split('.').next();
    last == Some(benchmark) || first == Some(benchmark)
}

/// `hb-base-3` → `hb-base`: replicates of one variant share a name.
fn replicate_stem(name: &str) -> String {
    split_run_index(name).map_or_else(|| name.to_string(), |(s, _)| s)
}

/// The format every file-named value was read with, unless that is one of
/// the readers of unknown text (whose name says nothing of the values).
fn common_format(variants: &[Ingested]) -> Option<String> {
    let mut formats = variants
        .iter()
        .flat_map(|v| v.files.iter())
        .filter(|f| f.rows > 0)
        .filter_map(|f| f.format.as_deref());
    let first = formats.next()?;
    let same = formats.all(|f| f == first);
    (same && !matches!(first, "document" | "generic")).then(|| first.to_string())
}
