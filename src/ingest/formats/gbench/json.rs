//! Google Benchmark JSON (`--benchmark_format=json` / `--benchmark_out`).
//!
//! `"run_type": "iteration"` entries are the samples (one per repetition;
//! times are per iteration in `time_unit`). `"aggregate"` entries are
//! summaries: `mean`/`median`/`stddev` as such, `cv` a fraction stored here
//! in percent, and their `iterations` field is the repetition count (n).
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
    let serde_json::Value::Object(ctx) = report.context else {
        return Err(src.error(None, "Google Benchmark JSON: `context` is not an object"));
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
        0
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let report: Report = parse_json(src, "Google Benchmark JSON")?;
        // `context` is environment evidence, served by [`context`].
        let mut out = Vec::new();
        let mut failed: BTreeMap<String, usize> = BTreeMap::new();
        for e in &report.benchmarks {
            let run_name = match (&e.run_name, &e.run_type) {
                (Some(r), _) => r.clone(),
                // Old files: strip an aggregate suffix to find the run.
                (None, None) => match e.name.rsplit_once('_') {
                    Some((base, "mean" | "median" | "stddev" | "cv" | "BigO" | "RMS")) => {
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
            let agg =
                e.aggregate_name
                    .as_deref()
                    .unwrap_or(if old_aggregate { suffix } else { "" });
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
            let stat = if kind == "aggregate" {
                match aggregate_stat(agg) {
                    Some(s) => s,
                    None => continue, // a user statistic with no tidy name
                }
            } else {
                Stat::Sample
            };
            // `cv` is a fraction for every metric; store percent.
            let scale = if stat == Stat::Cv { 100.0 } else { 1.0 };
            let mut metrics: Vec<(String, &str, f64)> = Vec::new();
            if let Some(v) = e.real_time {
                metrics.push(("real_time".into(), unit.as_str(), v));
            }
            if let Some(v) = e.cpu_time {
                metrics.push(("cpu_time".into(), unit.as_str(), v));
            }
            for (k, v) in &e.extra {
                if NOT_COUNTERS.contains(&k.as_str()) {
                    continue;
                }
                if let Some(x) = v.as_f64() {
                    metrics.push((k.clone(), counter_unit(k), x));
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
        Ok(out.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
