//! One file of a Criterion.rs saved run given alone (a file picked out of
//! `target/criterion/<id>/new/`), read as the tree reader reads it inside
//! its folder:
//!
//! - `estimates.json` (both the current lower-case and the older
//!   capitalised keys): metric `time` (ns), the mean with its confidence
//!   interval, the median and the standard deviation;
//! - `change/estimates.json`, told apart by its folder or, alone, by
//!   holding only the mean and median (no spread, no slope): the stated
//!   change of the mean, in percent;
//! - `sample.json` (the `{"iters":…,"times":…}` object, or the older
//!   `[[iters…],[times…]]` pair when the file's name ends so): one `time`
//!   sample per measurement, its total time over its iterations;
//! - `raw.csv` (`group,function,value,…,iteration_count`, with
//!   `sample_time_nanos` before 0.3, `sample_measured_value,unit` after):
//!   the same samples, named by its own group, function and value columns;
//! - `tukey.json` (a bare array of four numbers): the fences Criterion
//!   classifies a run's outliers by (low severe, low mild, high mild, high
//!   severe, from its sample's quartiles), not measurements: recognised,
//!   and accounted without rows.
//!
//! The benchmark and run come from where the file lies (see [`id::of`]).

mod id;

use super::dir::Estimates;
use super::samples::read_samples;
use crate::error::Result;
use crate::ingest::shared::logscan::lazy_re;
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::shared::structured::{finite, parse_json, split_csv};
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{canonical_params, Observation, Stat};

/// The lone Criterion file importer.
pub struct CriterionFile;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Estimates,
    Samples,
    RawCsv,
    Tukey,
}

// Criterion writes these keys first (and so does a key-sorting printer).
lazy_re!(JSON_START, r#"^\{\s*"(mean|Mean|sampling_mode|iters)"\s*:"#);
lazy_re!(RAW_HEADER, r"^group,function,value,.*\biteration_count\b");

fn kind(src: &Source) -> Option<Kind> {
    let text = src.raw_trimmed();
    if let Some(c) = JSON_START.captures(text) {
        return match &c[1] {
            "mean" | "Mean" if text.contains("\"point_estimate\"") => Some(Kind::Estimates),
            "sampling_mode" | "iters" if text.contains("\"times\"") => Some(Kind::Samples),
            _ => None,
        };
    }
    // The older pair of columns is a bare array of two arrays: only its
    // name says what it is (kept at the end of a flattened copy's name).
    if text.starts_with("[[") && src.file_name().ends_with("sample.json") {
        return Some(Kind::Samples);
    }
    if src.file_name().ends_with("tukey.json") && is_four_fences(text) {
        return Some(Kind::Tukey);
    }
    let header = src.lines.first().map_or("", |l| l.text.as_str());
    RAW_HEADER.is_match(header).then_some(Kind::RawCsv)
}

impl Format for CriterionFile {
    fn name(&self) -> &'static str {
        "criterion-file"
    }

    fn description(&self) -> &'static str {
        "one Criterion.rs run file alone: estimates.json, change/estimates.json, sample.json or raw.csv, named by its folders"
    }

    fn detect(&self, src: &Source) -> Confidence {
        match kind(src) {
            Some(Kind::RawCsv) => 95,
            Some(_) => 90,
            None => 0,
        }
    }

    /// A file forced on this reader that is none of the kinds is read as
    /// the kind its first character suggests, so that the error says what
    /// that kind lacks.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let text = src.raw_trimmed();
        match kind(src) {
            Some(Kind::RawCsv) => raw_csv(src),
            Some(Kind::Tukey) => Ok(fences(src)),
            Some(Kind::Samples) => Ok(samples(src)?.into()),
            Some(Kind::Estimates) => Ok(estimates(src)?.into()),
            None if text.starts_with("[[") => Ok(samples(src)?.into()),
            None if src.looks_like_json() => Ok(estimates(src)?.into()),
            None => raw_csv(src),
        }
    }
}

/// Whether `text` is a JSON array of exactly four numbers, as Criterion
/// writes its fences.
fn is_four_fences(text: &str) -> bool {
    let Some(inner) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) else {
        return false;
    };
    let cells: Vec<&str> = inner.split(',').map(str::trim).collect();
    cells.len() == 4 && cells.iter().all(|c| parse_number(c).is_some())
}

/// A `tukey.json`: every line accounted, none a value. Its numbers are
/// bounds computed from the sample, which the run's `sample.json` and
/// `estimates.json` give; read as values they would pass for four timings.
fn fences(src: &Source) -> Parsed {
    let why = "Criterion's Tukey fences (low severe, low mild, high mild, high severe), \
               bounds for classifying outliers, not measurements: the run's sample.json \
               and estimates.json hold its values";
    Parsed {
        skipped: src
            .lines
            .iter()
            .map(|l| (l.number, why.to_string()))
            .collect(),
        ..Parsed::default()
    }
}

/// A row of `id` at `line` (0 in a JSON file).
fn row(
    src: &Source,
    line: u32,
    id: &id::Id,
    (metric, unit): (&str, &str),
    stat: Stat,
    value: f64,
) -> Observation {
    Row::at(src, line)
        .benchmark(&id.benchmark)
        .params(&id.params)
        .metric(metric)
        .unit(unit)
        .stat(stat, value)
        .with_variant(id.variant.as_str())
}

fn estimates(src: &Source) -> Result<Vec<Observation>> {
    let est: Estimates = parse_json(src, "Criterion estimates.json")?;
    let folder_says_change = std::path::Path::new(src.path.as_str())
        .parent()
        .and_then(|p| p.file_name())
        .is_some_and(|n| n == "change");
    let change = folder_says_change || est.is_change();
    let id = id::of(src, change)?;
    if change {
        let pct = finite(src, None, est.mean_change_pct(), "mean change")?;
        // The unit of the run's times, as the tree reader keeps it.
        return Ok(vec![row(src, 0, &id, ("time", "ns"), Stat::ChangePct, pct)]);
    }
    let mut out = Vec::new();
    for (stat, v) in est.stated() {
        let v = finite(src, None, v, &format!("{stat} estimate"))?;
        out.push(row(src, 0, &id, ("time", "ns"), stat, v));
    }
    Ok(out)
}

fn samples(src: &Source) -> Result<Vec<Observation>> {
    let s = read_samples(src)?;
    if s.iters.len() != s.times.len() {
        return Err(src.error(
            None,
            format!(
                "{} iteration counts but {} times",
                s.iters.len(),
                s.times.len()
            ),
        ));
    }
    let id = id::of(src, false)?;
    let throughput = id.throughput.as_ref().map(|t| t.per_iteration());
    let mut out = Vec::with_capacity(s.iters.len());
    for (i, (n, t)) in s.iters.iter().zip(&s.times).enumerate() {
        if *n <= 0.0 {
            let msg = format!("sample {i}: iteration count {n} is not positive");
            return Err(src.error(None, msg));
        }
        let v = finite(src, None, t / n, &format!("sample {i}"))?;
        out.push(row(src, 0, &id, ("time", "ns"), Stat::Sample, v));
        if let Some((amount, unit)) = throughput.filter(|_| v > 0.0) {
            let rate = amount / (v * 1e-9);
            out.push(row(src, 0, &id, ("thrpt", unit), Stat::Sample, rate));
        }
    }
    Ok(out)
}

/// `raw.csv`: one measurement a line, named by its own columns.
fn raw_csv(src: &Source) -> Result<Parsed> {
    let Some(head) = src.lines.first().filter(|l| RAW_HEADER.is_match(&l.text)) else {
        return Err(src.error(
            src.lines.first().map(|l| l.number),
            "not a Criterion raw.csv (header `group,function,value,…,iteration_count`)",
        ));
    };
    let header = split_csv(&head.text, ',');
    let col = |name: &str| header.iter().position(|h| h == name);
    let time = col("sample_time_nanos");
    let unit_col = col("unit");
    let (thr_num, thr_type) = (col("throughput_num"), col("throughput_type"));
    let (Some(iters), Some(value_col)) = (
        col("iteration_count"),
        time.or(col("sample_measured_value")),
    ) else {
        return Err(src.error(
            Some(head.number),
            "raw.csv names no `iteration_count` column, or no `sample_time_nanos` or `sample_measured_value`",
        ));
    };
    let path_id = id::of(src, false)?;
    let mut out = Vec::new();
    for l in src
        .lines
        .iter()
        .skip(1)
        .filter(|l| !l.text.trim().is_empty())
    {
        let cells = split_csv(&l.text, ',');
        if cells.len() != header.len() {
            let msg = format!(
                "expected {} cells like the header, found {}",
                header.len(),
                cells.len()
            );
            return Err(src.error(Some(l.number), msg));
        }
        let number = |i: usize, what: &str| {
            parse_number(&cells[i]).ok_or_else(|| {
                src.error(
                    Some(l.number),
                    format!("{what}: `{}` is not a number", cells[i]),
                )
            })
        };
        let n = number(iters, "iteration_count")?;
        if n <= 0.0 {
            return Err(src.error(
                Some(l.number),
                format!("iteration count {n} is not positive"),
            ));
        }
        let unit = match (time, unit_col) {
            (Some(_), _) => "ns",
            (None, Some(u)) => cells[u].as_str(),
            (None, None) => "",
        };
        let v = finite(
            src,
            Some(l.number),
            number(value_col, "measured value")? / n,
            "sample",
        )?;
        let mut params: Vec<(&str, &str)> = Vec::new();
        if !cells[1].is_empty() {
            params.push(("function", &cells[1]));
        }
        if !cells[2].is_empty() {
            params.push(("parameter", &cells[2]));
        }
        let id = id::Id {
            benchmark: cells[0].clone(),
            params: canonical_params(&params),
            variant: path_id.variant.clone(),
            throughput: None,
        };
        out.push(row(src, l.number, &id, ("time", unit), Stat::Sample, v));
        // A rate only where the time is in seconds' terms.
        let rate = match (thr_num, thr_type) {
            (Some(a), Some(t)) if unit == "ns" && v > 0.0 && !cells[a].is_empty() => {
                let per = match cells[t].to_ascii_lowercase().as_str() {
                    "bytes" => Some("B/s"),
                    "elements" => Some("elem/s"),
                    "bits" => Some("bit/s"),
                    _ => None,
                };
                per.map(|u| (number(a, "throughput_num"), u))
            }
            _ => None,
        };
        if let Some((amount, per)) = rate {
            let rate = amount? / (v * 1e-9);
            out.push(row(src, l.number, &id, ("thrpt", per), Stat::Sample, rate));
        }
    }
    Parsed::found(
        src,
        out,
        vec![head.number],
        Vec::new(),
        "raw.csv has no measurement line",
    )
}

#[cfg(test)]
mod tests;
