//! What the terminal says about the inputs: files nothing was read from,
//! numeric lines no format read, the benchmarks each variant has.

use crate::analysis::Analysis;
use crate::model::FileReport;

/// `variant: bench, bench; variant: …` for the message of a gate that has
/// nothing to compare (a few names each), from the analysis's groups: the
/// rows are gone by then.
pub fn benchmarks_per_variant(analysis: &Analysis) -> String {
    let mut seen: Vec<(&str, Vec<String>)> = Vec::new();
    for g in &analysis.groups {
        let name = if g.params.is_empty() {
            g.benchmark.clone()
        } else {
            format!("{} ({})", g.benchmark, g.params)
        };
        for v in &g.variants {
            let i = match seen.iter().position(|(s, _)| *s == v.variant) {
                Some(i) => i,
                None => {
                    seen.push((&v.variant, Vec::new()));
                    seen.len() - 1
                }
            };
            if !seen[i].1.contains(&name) {
                seen[i].1.push(name.clone());
            }
        }
    }
    seen.iter()
        .map(|(v, b)| {
            let more = b.len().saturating_sub(5);
            let mut list = b.iter().take(5).cloned().collect::<Vec<_>>().join(", ");
            if more > 0 {
                list.push_str(&format!(" and {more} more"));
            }
            format!("`{v}`: {list}")
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Tells on stderr about inputs nothing was read from, names those whose
/// values the fallback guessed, and sums up the numeric-looking lines no
/// format read (`patchperf ingest` lists them).
pub fn warn_unread(files: &[FileReport]) {
    let mut partial = 0;
    let mut lines = 0;
    for f in files {
        if f.format.is_none() {
            eprintln!(
                "patchperf: {}: not read: {}",
                f.path,
                f.note.as_deref().unwrap_or("unknown format")
            );
        } else if !f.unread_numeric.is_empty() {
            partial += 1;
            lines += f.unread_numeric.len();
        }
    }
    let guessed: Vec<&FileReport> = files.iter().filter(|f| f.fallback > 0).collect();
    if !guessed.is_empty() {
        let values: usize = guessed.iter().map(|f| f.fallback).sum();
        let names: Vec<&str> = guessed.iter().take(3).map(|f| f.path.as_str()).collect();
        let more = guessed.len().saturating_sub(names.len());
        eprintln!(
            "patchperf: {values} values in {}{} were read by the fallback, no layout rule \
             (params read=fallback): check them in the input",
            names.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        );
    }
    if partial > 0 {
        eprintln!(
            "patchperf: {lines} numeric-looking lines in {partial} file(s) were not read as values \
             (`patchperf ingest FILE` lists them)"
        );
    }
}
