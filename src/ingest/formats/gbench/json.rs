//! Google Benchmark JSON (`--benchmark_format=json` / `--benchmark_out`).
//!
//! `"run_type": "iteration"` entries are the samples (one per repetition;
//! times are per iteration in `time_unit`). `"aggregate"` entries are
//! summaries: `mean`/`median`/`stddev` as such, `cv` a fraction stored here
//! in percent, and their `iterations` field is the repetition count (n).
//! A statistic the benchmark registered itself (`"aggregate_name": "max"`)
//! is a metric of its own (`real_time max`), in percent when its
//! `aggregate_unit` is `percentage` (a fraction, as `cv` is), else in the
//! entry's unit. An aggregate entry that names no statistic (no
//! `aggregate_name`, no `_<stat>` suffix on its name, as in old or
//! hand-made files) cannot be read as any one statistic: it is left out
//! with that reason.
//! The BigO and RMS entries of a complexity fit are kept apart under
//! `bigo_*` metrics of the family. Rate counters and user counters are
//! metrics of their own. The `context` object (build type, CPU scaling) is
//! environment evidence: see [`context`].

use crate::error::Result;
use crate::ingest::shared::structured::{finite, parse_json};
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::rescale;
use crate::model::{canonical_params, Observation, Stat};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The Google Benchmark JSON importer.
pub struct GbenchJson;

#[derive(Deserialize)]
struct Report {
    /// Absent from the inputs the library's compare tool keeps.
    #[serde(default)]
    context: serde_json::Value,
    benchmarks: Vec<Entry>,
}

#[derive(Deserialize)]
struct Entry {
    name: String,
    #[serde(default)]
    run_name: Option<String>,
    #[serde(default)]
    run_type: Option<String>,
    #[serde(default)]
    aggregate_name: Option<String>,
    /// `percentage` for a fraction (`cv`), else `time`.
    #[serde(default)]
    aggregate_unit: Option<String>,
    #[serde(default)]
    iterations: Option<f64>,
    #[serde(default)]
    real_time: Option<f64>,
    #[serde(default)]
    cpu_time: Option<f64>,
    #[serde(default)]
    time_unit: Option<String>,
    #[serde(default)]
    error_occurred: Option<bool>,
    #[serde(default)]
    skipped: Option<serde_json::Value>,
    #[serde(default)]
    big_o: Option<String>,
    #[serde(default)]
    real_coefficient: Option<f64>,
    #[serde(default)]
    cpu_coefficient: Option<f64>,
    #[serde(default)]
    rms: Option<f64>,
    /// Everything else: rate counters and user counters among bookkeeping.
    #[serde(flatten)]
    extra: BTreeMap<String, serde_json::Value>,
}

/// Numeric keys of an entry that are bookkeeping, not measurements.
const NOT_COUNTERS: &[&str] = &[
    "family_index",
    "per_family_instance_index",
    "repetitions",
    "repetition_index",
    "threads",
    "aggregate_unit",
    "label",
    "error_message",
    "skip_message",
];

/// The unit of a counter Google Benchmark names itself; user counters carry none.
pub(crate) fn counter_unit(name: &str) -> &'static str {
    match name {
        "bytes_per_second" => "B/s",
        "items_per_second" => "items/s",
        _ => "",
    }
}

/// Splits a Google Benchmark run name into the benchmark (family plus any
/// flag parts such as `real_time`) and params: `key:value` parts keep their
/// key, plain numbers are positional `arg0`, `arg1` ….
pub(crate) fn split_name(run_name: &str) -> (String, String) {
    let mut parts = run_name.split('/');
    let mut bench = parts.next().unwrap_or(run_name).to_string();
    let mut params: Vec<(String, String)> = Vec::new();
    let mut pos = 0;
    for p in parts {
        if let Some((k, v)) = p.split_once(':') {
            params.push((k.to_string(), v.to_string()));
        } else if crate::ingest::shared::numbers::parse_number(p).is_some() {
            params.push((format!("arg{pos}"), p.to_string()));
            pos += 1;
        } else {
            bench.push('/');
            bench.push_str(p);
        }
    }
    (bench, canonical_params(&params))
}

/// The stat of an aggregate name (`mean`, `median`, `stddev`, `cv`, or a
/// user statistic with a recognisable name).
pub(crate) fn aggregate_stat(name: &str) -> Option<Stat> {
    match name {
        "cv" => Some(Stat::Cv),
        other => other.parse().ok().filter(|s: &Stat| !s.is_sample()),
    }
}

/// The scalar entries of the `context` object as text: environment
/// evidence such as `library_build_type` (`debug` builds distort timings),
/// `cpu_scaling_enabled`, `num_cpus`, `mhz_per_cpu`, `host_name`, `date`.
pub fn context(src: &Source) -> Result<BTreeMap<String, String>> {
    let report: Report = parse_json(src, "Google Benchmark JSON")?;
    let ctx = match report.context {
        serde_json::Value::Object(ctx) => ctx,
        serde_json::Value::Null => return Ok(BTreeMap::new()),
        _ => {
            return Err(src.error(None, "Google Benchmark JSON: `context` is not an object"));
        }
    };
    Ok(ctx
        .into_iter()
        .filter_map(|(k, v)| match v {
            serde_json::Value::String(s) => Some((k, s)),
            serde_json::Value::Number(n) => Some((k, n.to_string())),
            serde_json::Value::Bool(b) => Some((k, b.to_string())),
            _ => None,
        })
        .collect())
}

impl Format for GbenchJson {
    fn name(&self) -> &'static str {
        "gbench-json"
    }

    fn description(&self) -> &'static str {
        "Google Benchmark JSON: \"context\" + \"benchmarks\" entries with \"run_type\"; repetitions are samples"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let raw = src.raw_trimmed();
        if src.looks_like_json() && raw.contains("\"context\"") && raw.contains("\"benchmarks\"") {
            if raw.contains("\"run_type\"") || raw.contains("\"library_build_type\"") {
                return 95;
            }
            if raw.contains("\"real_time\"") {
                return 80;
            }
        }
        // The library's compare tool keeps inputs without `context`; the
        // run kind with the family's instance index is its own pair.
        if src.looks_like_json()
            && raw.contains("\"benchmarks\"")
            && raw.contains("\"run_type\"")
            && raw.contains("\"per_family_instance_index\"")
        {
            return 90;
        }
        0
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let report: Report = parse_json(src, "Google Benchmark JSON")?;
        // `context` is environment evidence, served by [`context`].
        let mut out = Vec::new();
        let mut left_out: Vec<(u32, String)> = Vec::new();
        let lines = entry_lines(src, report.benchmarks.len());
        let mut failed: BTreeMap<String, usize> = BTreeMap::new();
        for (i, e) in report.benchmarks.iter().enumerate() {
            let run_name = match (&e.run_name, &e.run_type) {
                (Some(r), _) => r.clone(),
                // Old files: strip an aggregate suffix to find the run.
                (None, None) => match e.name.rsplit_once('_') {
                    Some((base, "mean" | "median" | "stddev" | "cv" | "BigO" | "RMS")) => {
                        base.to_string()
                    }
                    _ => e.name.clone(),
                },
                // An aggregate without `run_name`: strip the statistic.
                (None, Some(k)) if k == "aggregate" => match e.name.rsplit_once('_') {
                    Some((base, sfx))
                        if e.aggregate_name.as_deref() == Some(sfx)
                            || matches!(
                                sfx,
                                "mean" | "median" | "stddev" | "cv" | "BigO" | "RMS"
                            ) =>
                    {
                        base.to_string()
                    }
                    _ => e.name.clone(),
                },
                (None, Some(_)) => e.name.clone(),
            };
            let (bench, params) = split_name(&run_name);
            let unit = e.time_unit.clone().unwrap_or_else(|| "ns".into());
            let skipped = match &e.skipped {
                Some(serde_json::Value::Bool(b)) => *b,
                Some(serde_json::Value::Number(_)) | Some(serde_json::Value::String(_)) => true,
                _ => false,
            };
            if e.error_occurred == Some(true) || skipped {
                *failed.entry(run_name).or_default() += 1;
                continue;
            }
            let mk = |metric: &str, unit: &str, stat: Stat, v: f64| -> Result<Observation> {
                if !v.is_finite() {
                    finite(src, None, v, &format!("`{}` {metric}", e.name))?;
                }
                Ok(Observation::new(bench.as_str(), metric, unit, stat, v)
                    .with_params_str(params.clone()))
            };
            // Before `run_type` existed (library < 1.5) only the name
            // suffix tells an aggregate from a repetition.
            let suffix = e.name.rsplit_once('_').map(|(_, s)| s).unwrap_or("");
            let old_aggregate = e.run_type.is_none()
                && e.run_name.is_none()
                && matches!(suffix, "mean" | "median" | "stddev" | "cv" | "BigO" | "RMS");
            let kind = match (&e.run_type, old_aggregate) {
                (Some(k), _) => k.as_str(),
                (None, true) => "aggregate",
                (None, false) => "iteration",
            };
            // Without `aggregate_name` the name's suffix says the statistic.
            let named_by_suffix = match &e.run_name {
                Some(r) => e
                    .name
                    .strip_prefix(r.as_str())
                    .and_then(|s| s.strip_prefix('_'))
                    .unwrap_or(""),
                None if aggregate_stat(suffix).is_some() || old_aggregate => suffix,
                None => "",
            };
            let agg = e.aggregate_name.as_deref().unwrap_or(named_by_suffix);
            if kind == "aggregate" && agg.is_empty() {
                let why = format!(
                    "aggregate entry `{}` names no statistic (no aggregate_name, \
                     no _mean/_median/… suffix): it cannot be read as any one",
                    e.name
                );
                left_out.push((lines[i], why));
                continue;
            }
            if kind == "aggregate" && (agg == "BigO" || agg == "RMS") {
                if let Some(v) = e.real_coefficient {
                    out.push(mk(
                        "bigo_real_coefficient",
                        e.big_o.as_deref().unwrap_or(""),
                        Stat::Mean,
                        v,
                    )?);
                }
                if let Some(v) = e.cpu_coefficient {
                    out.push(mk(
                        "bigo_cpu_coefficient",
                        e.big_o.as_deref().unwrap_or(""),
                        Stat::Mean,
                        v,
                    )?);
                }
                if let Some(v) = e.rms {
                    out.push(mk("bigo_rms", "%", Stat::Mean, v * 100.0)?);
                }
                continue;
            }
            // A statistic the benchmark registered: a metric of its own.
            let custom = (kind == "aggregate" && aggregate_stat(agg).is_none()).then_some(agg);
            let stat = if kind == "aggregate" {
                aggregate_stat(agg).unwrap_or(Stat::Sample)
            } else {
                Stat::Sample
            };
            let fraction = e.aggregate_unit.as_deref() == Some("percentage");
            // `cv` is a fraction for every metric; store percent, as for
            // any statistic whose aggregate_unit says it is a fraction.
            let scale = if stat == Stat::Cv || fraction {
                100.0
            } else {
                1.0
            };
            let named = |metric: &str| match custom {
                Some(stat) => format!("{metric} {stat}"),
                None => metric.to_string(),
            };
            let unit_of = |u: &'static str, time: bool| -> String {
                if custom.is_some() && fraction {
                    "%".into()
                } else if time {
                    unit.clone()
                } else {
                    u.into()
                }
            };
            let mut metrics: Vec<(String, String, f64)> = Vec::new();
            if let Some(v) = e.real_time {
                metrics.push((named("real_time"), unit_of("", true), v));
            }
            if let Some(v) = e.cpu_time {
                metrics.push((named("cpu_time"), unit_of("", true), v));
            }
            for (k, v) in &e.extra {
                if NOT_COUNTERS.contains(&k.as_str()) {
                    continue;
                }
                if let Some(x) = v.as_f64() {
                    metrics.push((named(k), unit_of(counter_unit(k), false), x));
                }
            }
            for (metric, u, v) in &metrics {
                out.push(mk(metric, u, stat, rescale(*v, scale))?);
                if stat == Stat::Mean {
                    if let Some(n) = e.iterations {
                        out.push(mk(metric, u, Stat::N, n)?);
                    }
                }
            }
        }
        for (run_name, n) in failed {
            let (bench, params) = split_name(&run_name);
            out.push(
                Observation::new(bench, "failed_runs", "", Stat::Total, n as f64)
                    .with_params_str(params),
            );
        }
        Ok(Parsed {
            observations: out,
            consumed: Vec::new(),
            skipped: left_out,
            ..Parsed::default()
        })
    }
}

/// The line of each of the `count` benchmark entries: the lines where a
/// `"name"` key opens one, in order (the context object has none). Line 1
/// for every entry when the file does not lay them out one key a line.
fn entry_lines(src: &Source, count: usize) -> Vec<u32> {
    let found: Vec<u32> = src
        .lines
        .iter()
        .filter(|l| {
            let t = l.text.trim_start().trim_start_matches(['{', ',', ' ']);
            t.starts_with("\"name\"")
        })
        .map(|l| l.number)
        .collect();
    if found.len() == count {
        found
    } else {
        vec![src.lines.first().map_or(1, |l| l.number); count]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_without_context_or_times_are_recognised_and_give_no_value() {
        let text = r#"{"benchmarks": [
            {"name": "99 family 0 instance 0 repetition 0", "run_type": "iteration",
             "family_index": 0, "per_family_instance_index": 0, "repetition_index": 0}]}"#;
        let src = Source::from_text("test4_run.json", text);
        assert_eq!(GbenchJson.detect(&src), 90);
        assert!(GbenchJson
            .parse_accounted(&src)
            .unwrap()
            .observations
            .is_empty());
    }

    #[test]
    fn old_files_without_run_type_use_the_name_suffix() {
        let text = r#"{"context":{"library_build_type":"release"},"benchmarks":[
            {"name":"BM_a/8","iterations":10,"real_time":2.0,"cpu_time":2.0,"time_unit":"ns"},
            {"name":"BM_a/8","iterations":10,"real_time":4.0,"cpu_time":4.0,"time_unit":"ns"},
            {"name":"BM_a/8_mean","iterations":2,"real_time":3.0,"cpu_time":3.0,"time_unit":"ns"}]}"#;
        let obs = GbenchJson
            .parse(&Source::from_text("old.json", text))
            .unwrap();
        let samples = obs
            .iter()
            .filter(|o| o.stat == Stat::Sample && o.metric == "real_time")
            .count();
        assert_eq!(samples, 2);
        let mean = obs
            .iter()
            .find(|o| o.stat == Stat::Mean && o.metric == "real_time")
            .unwrap();
        assert_eq!(
            (mean.benchmark.as_str(), mean.params.as_str(), mean.value),
            ("BM_a", "arg0=8", 3.0)
        );
    }

    #[test]
    fn names_split_into_family_and_params() {
        assert_eq!(
            split_name("BM_StringCopy/64"),
            ("BM_StringCopy".into(), "arg0=64".into())
        );
        assert_eq!(
            split_name("BM_x/8/size:4/real_time/threads:2"),
            ("BM_x/real_time".into(), "arg0=8,size=4,threads=2".into())
        );
    }

    #[test]
    fn aggregates_naming_no_statistic_are_left_out_with_the_reason() {
        let path = "tests/data/harness/gbench/compare-test3_run0.json";
        let p = crate::ingest::parse_file(&GbenchJson, path);
        // BM_One (line 11), short (lines 33, 41): run_type aggregate only.
        let skipped: Vec<u32> = p.skipped.iter().map(|(n, _)| *n).collect();
        assert_eq!(skipped, [11, 33, 41]);
        assert!(p.skipped[0]
            .1
            .starts_with("aggregate entry `BM_One` names no statistic"));
        let got: Vec<(&str, &str, f64)> = p
            .observations
            .iter()
            .filter(|o| o.metric == "real_time")
            .map(|o| (o.benchmark.as_str(), o.stat.name(), o.value))
            .collect();
        assert_eq!(
            got,
            [
                ("BM_Two", "sample", 9.0),
                ("BM_Two", "sample", 8.0),
                ("medium", "sample", 8.0),
                ("medium", "sample", 9.0),
            ]
        );
    }

    #[test]
    fn a_registered_percentage_statistic_is_a_metric_in_percent() {
        let path = "tests/data/harness/gbench/compare-test4_run0.json";
        let p = crate::ingest::parse_file(&GbenchJson, path);
        let got: Vec<(&str, &str, &str, Stat, f64)> = p
            .observations
            .iter()
            .map(|o| {
                (
                    o.benchmark.as_str(),
                    o.metric.as_str(),
                    o.unit.as_str(),
                    o.stat,
                    o.value,
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("whocares", "real_time zz", "%", Stat::Sample, 1.0),
                ("whocares", "cpu_time zz", "%", Stat::Sample, 10.0),
            ]
        );
    }

    #[test]
    fn a_registered_time_statistic_keeps_the_time_unit() {
        let path = "tests/data/harness/gbench/reps-counters.json";
        let p = crate::ingest::parse_file(&GbenchJson, path);
        let spread: Vec<(&str, &str)> = p
            .observations
            .iter()
            .filter(|o| o.metric.ends_with(" spread"))
            .map(|o| (o.metric.as_str(), o.unit.as_str()))
            .collect();
        assert_eq!(
            spread,
            [("real_time spread", "ns"), ("cpu_time spread", "ns")]
        );
    }
}
