//! cargo-criterion `--message-format=json`: one JSON object per line; the
//! `benchmark-complete` messages carry per-sample totals (`measured_values`
//! with `iteration_count`, so a sample is their ratio), the estimates, and
//! the change as a fraction despite its `"unit":"%"` label. Other messages
//! (`group-complete`, cargo's own) are skipped.

use crate::error::Result;
use crate::ingest::shared::structured::{finite, json_error, raw_lines};
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};
use serde::Deserialize;

/// The cargo-criterion JSON message importer.
pub struct CargoCriterion;

#[derive(Deserialize)]
struct Message {
    reason: String,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    iteration_count: Vec<f64>,
    #[serde(default)]
    measured_values: Vec<f64>,
    #[serde(default)]
    unit: Option<String>,
    #[serde(default)]
    mean: Option<Estimate>,
    #[serde(default)]
    median: Option<Estimate>,
    #[serde(default)]
    change: Option<Change>,
}

#[derive(Deserialize)]
struct Estimate {
    estimate: f64,
    #[serde(default)]
    lower_bound: Option<f64>,
    #[serde(default)]
    upper_bound: Option<f64>,
    #[serde(default)]
    unit: Option<String>,
}

#[derive(Deserialize)]
struct Change {
    #[serde(default)]
    mean: Option<Estimate>,
}

impl Format for CargoCriterion {
    fn name(&self) -> &'static str {
        "cargo-criterion-json"
    }

    fn description(&self) -> &'static str {
        "cargo-criterion --message-format=json: JSON lines with \"reason\":\"benchmark-complete\""
    }

    fn detect(&self, src: &Source) -> Confidence {
        // One substring search rules out nearly every file before the
        // line by line check.
        if !src.raw.contains("\"benchmark-complete\"") {
            return 0;
        }
        let hit = raw_lines(src).any(|(_, l)| {
            let t = l.trim_start();
            t.starts_with('{') && t.contains("\"reason\"") && t.contains("\"benchmark-complete\"")
        });
        if hit {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        for (n, l) in raw_lines(src) {
            let t = l.trim();
            if !t.starts_with('{') {
                continue; // cargo's human-readable stderr, merged in
            }
            let msg: Message = serde_json::from_str(t)
                .map_err(|e| json_error(src, &e, n - 1, "cargo-criterion message"))?;
            if msg.reason != "benchmark-complete" {
                continue;
            }
            let Some(id) = msg.id.as_deref() else {
                return Err(src.error(Some(n), "benchmark-complete message without an `id`"));
            };
            let (benchmark, params) = crate::ingest::formats::criterion::console::split_id(id);
            let unit = msg.unit.clone().unwrap_or_else(|| "ns".into());
            let mk = |stat: Stat, v: f64, unit: &str| {
                Observation::new(benchmark.as_str(), "time", unit, stat, v)
                    .with_params_str(params.clone())
                    .at_line(n)
            };
            if msg.iteration_count.len() != msg.measured_values.len() {
                return Err(src.error(
                    Some(n),
                    format!(
                        "{} iteration counts but {} measured values",
                        msg.iteration_count.len(),
                        msg.measured_values.len()
                    ),
                ));
            }
            let sample = mk(Stat::Sample, 0.0, &unit);
            for (i, (it, v)) in msg
                .iteration_count
                .iter()
                .zip(&msg.measured_values)
                .enumerate()
            {
                if *it <= 0.0 {
                    return Err(src.error(
                        Some(n),
                        format!("sample {i}: iteration count {it} is not positive"),
                    ));
                }
                let per_iter = v / it;
                if !per_iter.is_finite() {
                    // The message is only built when it is needed.
                    finite(src, Some(n), per_iter, &format!("sample {i}"))?;
                }
                let mut o = sample.clone();
                o.value = per_iter;
                o.run = Some(i as u32);
                out.push(o);
            }
            for (stat, est) in [(Stat::Mean, &msg.mean), (Stat::Median, &msg.median)] {
                let Some(e) = est else { continue };
                let u = e.unit.clone().unwrap_or_else(|| unit.clone());
                out.push(mk(stat, finite(src, Some(n), e.estimate, "estimate")?, &u));
                if stat == Stat::Mean {
                    if let (Some(lo), Some(hi)) = (e.lower_bound, e.upper_bound) {
                        out.push(mk(
                            Stat::CiLow,
                            finite(src, Some(n), lo, "lower bound")?,
                            &u,
                        ));
                        out.push(mk(
                            Stat::CiHigh,
                            finite(src, Some(n), hi, "upper bound")?,
                            &u,
                        ));
                    }
                }
            }
            if let Some(e) = msg.change.as_ref().and_then(|c| c.mean.as_ref()) {
                let pct = finite(src, Some(n), e.estimate * 100.0, "mean change")?;
                out.push(mk(Stat::ChangePct, pct, &unit));
            }
        }
        Ok(out.into())
    }
}
