//! Bencher Metric Format (`--format bmf`): benchmark → measure →
//! `{value, lower_value, upper_value}`. One value per benchmark and measure
//! per run, so this is a summary input: `value` is stored as the mean and
//! the bounds as `ci_low`/`ci_high`. Bencher's built-in measures carry
//! fixed units (latency in ns, throughput in operations per second, build
//! time in seconds, file size in bytes); other measures have none.
//! The shape is generic JSON, so detection is weak: force it with `--format bmf`.

use crate::error::Result;
use crate::ingest::shared::structured::{finite, parse_json};
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The Bencher Metric Format importer.
pub struct Bmf;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Metric {
    value: f64,
    #[serde(default)]
    lower_value: Option<f64>,
    #[serde(default)]
    upper_value: Option<f64>,
}

/// benchmark → measure → metric; BTreeMap keeps a stable order, and JSON
/// objects have none to keep.
type Document = BTreeMap<String, BTreeMap<String, Metric>>;

fn unit_of(measure: &str) -> &'static str {
    match measure {
        "latency" => "ns",
        "throughput" => "ops/s",
        "build-time" => "s",
        "file-size" => "B",
        _ => "",
    }
}

impl Format for Bmf {
    fn name(&self) -> &'static str {
        "bmf"
    }

    fn description(&self) -> &'static str {
        "Bencher Metric Format JSON: {benchmark: {measure: {value, lower_value, upper_value}}} (weak signature: use --format bmf)"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if !src.raw_trimmed().starts_with('{') || !src.raw.contains("\"value\"") {
            return 0;
        }
        // Cheap shape check on the parsed document; any other JSON fails it.
        match serde_json::from_str::<Document>(&src.raw) {
            Ok(d) if !d.is_empty() && d.values().all(|m| !m.is_empty()) => 30,
            _ => 0,
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let doc: Document = parse_json(src, "Bencher Metric Format JSON")?;
        let mut out = Vec::new();
        for (bench, measures) in &doc {
            for (measure, m) in measures {
                let unit = unit_of(measure);
                let mut push = |stat: Stat, v: f64| -> Result<()> {
                    if !v.is_finite() {
                        finite(src, None, v, &format!("{bench} {measure}"))?;
                    }
                    out.push(Observation::new(
                        bench.as_str(),
                        measure.as_str(),
                        unit,
                        stat,
                        v,
                    ));
                    Ok(())
                };
                push(Stat::Mean, m.value)?;
                if let Some(lo) = m.lower_value {
                    push(Stat::CiLow, lo)?;
                }
                if let Some(hi) = m.upper_value {
                    push(Stat::CiHigh, hi)?;
                }
            }
        }
        Ok(out.into())
    }
}
