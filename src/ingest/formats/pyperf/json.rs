//! pyperf JSON (`-o file.json`, also `.json.gz`): `benchmarks[].runs[]`,
//! each run one worker process. Every entry of a run's `values` is a sample,
//! per loop, in the benchmark's unit (`second`, `byte`, `integer`); runs
//! without values are calibration runs and `warmups` are never samples.
//! Benchmark metadata overrides the suite's. The metadata (CPU config,
//! frequency, ASLR, platform …) is environment evidence: see [`metadata`].

use crate::error::Result;
use crate::ingest::shared::structured::{finite, parse_json};
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Dataset, Observation, Stat};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The pyperf JSON importer.
pub struct PyperfJson;

type Metadata = BTreeMap<String, serde_json::Value>;

#[derive(Deserialize)]
struct Suite {
    benchmarks: Vec<Benchmark>,
    #[serde(default)]
    metadata: Metadata,
    #[serde(default)]
    version: Option<String>,
}

#[derive(Deserialize)]
struct Benchmark {
    runs: Vec<Run>,
    #[serde(default)]
    metadata: Metadata,
}

#[derive(Deserialize)]
struct Run {
    #[serde(default)]
    values: Vec<f64>,
}

/// The tidy unit and metric of a pyperf unit name.
fn unit_metric(unit: &str) -> (&'static str, &'static str) {
    match unit {
        "byte" => ("B", "memory"),
        "integer" => ("", "value"),
        _ => ("s", "time"),
    }
}

fn text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The suite metadata overlaid with each benchmark's, as text, keyed by
/// benchmark name: the environment a pyperf file records (`cpu_config`,
/// `cpu_freq`, `aslr`, `boot_time`, `platform`, `hostname` …).
pub fn metadata(src: &Source) -> Result<BTreeMap<String, BTreeMap<String, String>>> {
    let suite: Suite = parse_json(src, "pyperf JSON")?;
    let mut out = BTreeMap::new();
    for (i, b) in suite.benchmarks.iter().enumerate() {
        let mut m: BTreeMap<String, String> = suite
            .metadata
            .iter()
            .map(|(k, v)| (k.clone(), text(v)))
            .collect();
        m.extend(b.metadata.iter().map(|(k, v)| (k.clone(), text(v))));
        let name = m
            .get("name")
            .cloned()
            .unwrap_or_else(|| format!("benchmark{i}"));
        out.insert(name, m);
    }
    Ok(out)
}

impl Format for PyperfJson {
    fn name(&self) -> &'static str {
        "pyperf-json"
    }

    fn description(&self) -> &'static str {
        "pyperf JSON (.json/.json.gz): \"version\" + \"benchmarks\":[{\"runs\":[{\"values\":…}]}]; values are samples"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let raw = src.raw_trimmed();
        if src.looks_like_json()
            && raw.contains("\"benchmarks\"")
            && raw.contains("\"runs\"")
            && raw.contains("\"version\"")
        {
            90
        } else {
            0
        }
    }

    fn reads_raw(&self) -> bool {
        true
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let suite: Suite = parse_json(src, "pyperf JSON")?;
        if let Some(v) = &suite.version {
            if !v.starts_with("1.") {
                return Err(src.error(
                    None,
                    format!("pyperf JSON version {v} is not supported (expected 1.x)"),
                ));
            }
        }
        // Stored by column: a suite of millions of values is 8 bytes a
        // value (their runs count up from 0), not an observation each.
        let mut out = Dataset::default();
        for (i, b) in suite.benchmarks.iter().enumerate() {
            let get = |k: &str| {
                b.metadata
                    .get(k)
                    .or_else(|| suite.metadata.get(k))
                    .map(text)
            };
            let name = get("name").unwrap_or_else(|| format!("benchmark{i}"));
            let (unit, metric) = unit_metric(get("unit").as_deref().unwrap_or("second"));
            let template = Observation::new(name.as_str(), metric, unit, Stat::Sample, 0.0);
            let mut run_index = 0;
            for run in &b.runs {
                if let Some(&v) = run.values.iter().find(|v| !v.is_finite()) {
                    finite(src, None, v, &format!("{name} value"))?;
                }
                out.push_values(&template, &run.values, Some(run_index));
                run_index += run.values.len() as u32;
            }
        }
        Ok(Parsed {
            bulk: out,
            ..Parsed::default()
        })
    }
}
