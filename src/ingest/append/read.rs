//! Reading the inputs an append needs, all in one pass of the ingest
//! driver (which reads them in parallel, in bounded windows), and writing
//! each input's parts as soon as its last row has come.

use super::part::write_part;
use super::Job;
use crate::error::Result;
use crate::ingest::formats::archive::layout::part_path;
use crate::ingest::formats::archive::manifest::Entry;
use crate::ingest::{ingest_each, FileReport, IngestOptions, Registry};
use crate::model::{Observation, SmolStr};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Reads every job's input; returns each job's manifest entry, in job
/// order, and the driver's reports.
pub(super) fn read_jobs(
    root: &Path,
    jobs: &[Job],
    registry: &Registry,
    format: Option<String>,
    variant: Option<String>,
) -> Result<(Vec<Entry>, Vec<FileReport>)> {
    let paths: Vec<PathBuf> = jobs.iter().map(|j| j.unit.path.clone()).collect();
    let index: HashMap<String, usize> = jobs
        .iter()
        .enumerate()
        .map(|(i, j)| (crate::model::shown_path(&j.unit.path), i))
        .collect();
    let mut parts: Vec<Vec<String>> = vec![Vec::new(); jobs.len()];
    let mut rows: Vec<usize> = vec![0; jobs.len()];
    // The input whose rows are coming, and its rows so far: an input's
    // rows come together, in one batch or (a large file) several.
    let mut current: Option<(usize, Vec<Observation>)> = None;
    let mut flush = |done: Option<(usize, Vec<Observation>)>| -> Result<()> {
        if let Some((i, obs)) = done {
            rows[i] += obs.len();
            parts[i].extend(write_input(root, &jobs[i], obs)?);
        }
        Ok(())
    };
    let opts = IngestOptions {
        format,
        variant,
        ..Default::default()
    };
    let files = ingest_each(&paths, registry, &opts, Ok, |batch| {
        for o in batch.into_observations() {
            // A row names its input; one that does not belongs to the
            // input being read.
            let i = index
                .get(o.source.as_str())
                .copied()
                .or(current.as_ref().map(|c| c.0))
                .unwrap_or(0);
            match &mut current {
                Some((c, obs)) if *c == i => obs.push(o),
                _ => {
                    flush(current.take())?;
                    current = Some((i, vec![o]));
                }
            }
        }
        Ok(())
    })?;
    flush(current.take())?;
    let entries = jobs
        .iter()
        .enumerate()
        .map(|(i, job)| {
            let shown = crate::model::shown_path(&job.unit.path);
            let format = files
                .iter()
                .filter(|f| f.path == shown)
                .find_map(|f| f.format.clone())
                .filter(|_| rows[i] > 0);
            Entry {
                path: job.path.clone(),
                size: job.size,
                modified_ns: job.modified_ns,
                hash: job.hash.clone(),
                format,
                rows: rows[i],
                parts: std::mem::take(&mut parts[i]),
            }
        })
        .collect();
    Ok((entries, files))
}

/// Writes one input's rows, a part per variant, named by the input's path
/// and content so that the parts it replaces stay whole until the new
/// manifest is in place; returns the parts' paths.
fn write_input(root: &Path, job: &Job, mut obs: Vec<Observation>) -> Result<Vec<String>> {
    if let Some(v) = &job.variant {
        let v = SmolStr::from(v.as_str());
        for o in obs.iter_mut().filter(|o| o.variant.is_empty()) {
            o.variant = v.clone();
        }
    }
    let digest = xxhash_rust::xxh3::xxh3_64(format!("{}\0{}", job.path, job.hash).as_bytes());
    let mut out = Vec::new();
    for (variant, mut rows) in by_variant(obs) {
        renumber(&mut rows);
        let rel = part_path(&variant, digest);
        write_part(root, &rel, rows)?;
        out.push(rel.to_string_lossy().replace('\\', "/"));
    }
    Ok(out)
}

/// Rows split by variant, variants in order of first appearance, each
/// keeping its rows' order.
fn by_variant(rows: Vec<Observation>) -> Vec<(String, Vec<Observation>)> {
    let mut out: Vec<(String, Vec<Observation>)> = Vec::new();
    for o in rows {
        match out.iter_mut().find(|(v, _)| *v == o.variant.as_str()) {
            Some((_, rows)) => rows.push(o),
            None => out.push((o.variant.to_string(), vec![o])),
        }
    }
    out
}

/// Samples numbered from 0 per (benchmark, params, metric) within the
/// part, as an ingest of the input alone numbers them (the driver numbers
/// across all the inputs it reads at once; reading the archive numbers
/// across its parts again).
fn renumber(rows: &mut [Observation]) {
    let mut next: HashMap<(SmolStr, SmolStr, SmolStr), u32> = HashMap::new();
    for o in rows.iter_mut().filter(|o| o.stat.is_sample()) {
        let n = next
            .entry((o.benchmark.clone(), o.params.clone(), o.metric.clone()))
            .or_insert(0);
        o.run = Some(*n);
        *n += 1;
    }
}
