//! `perf stat -j --metric-only` output: one JSON object per line whose
//! keys are the metrics' own names (perf's metric units: `"insn per
//! cycle"`, `"GHz"`, `"branch-misses of all branches"`) and whose values
//! are the metric values as strings (`{"GHz" : "0.990", "insn per cycle" :
//! "2.06"}`), with, under an aggregation, its key first (`"socket" :
//! "S0", "aggregate-number" : 8`) and, with `-I`, the `"interval"`. No
//! `event` and no `counter-value`: that is what tells it from the
//! counters' records.
//!
//! Benchmark `perf stat`; metric each key as perf writes it, unit the key
//! itself when it is one word (`GHz`, `K/sec`), none otherwise (perf cuts
//! the `%` of a percentage metric off in this mode); each a `sample`. The
//! aggregation is a parameter named as the counters' reader names it
//! (`socket=S0`), so an interval's records are one run of each socket or
//! CPU. `aggregate-number` (how many CPUs were summed) and the interval's
//! time are not results.

use crate::error::Result;
use crate::ingest::formats::perf::stat::event_unit;
use crate::ingest::formats::perf::stat_json::{aggregation_params, AGGREGATIONS};
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use serde_json::{Map, Value};

/// Keys of a metric-only record that are no metric.
const NOT_METRICS: &[&str] = &[
    "aggregate-number",
    "interval",
    "timestamp",
    "cgroup",
    "thread",
];

/// The `perf stat -j --metric-only` importer.
pub struct PerfStatJsonMetricOnly;

/// The record of line `t` when it has the shape of a metric-only record:
/// perf's spacing, an object without `event`, every other key's value a
/// string that is a number (or empty: a metric perf could not compute),
/// one at least.
fn record(t: &str) -> Option<Map<String, Value>> {
    // perf writes `"key" : "value"` with a space each side of the colon,
    // and short records: a long or differently spaced line is not parsed
    // (detection runs on every input, a minified JSON file of any size).
    if !t.starts_with('{') || t.len() > 64 * 1024 || !t.contains("\" : \"") {
        return None;
    }
    let Ok(Value::Object(obj)) = serde_json::from_str::<Value>(t) else {
        return None;
    };
    let mut metrics = 0;
    for (k, v) in &obj {
        if AGGREGATIONS.contains(&k.as_str()) || NOT_METRICS.contains(&k.as_str()) {
            continue;
        }
        match v {
            Value::String(s) if s.trim().is_empty() => {}
            Value::String(s) if parse_number(s.trim()).is_some() => metrics += 1,
            _ => return None,
        }
    }
    (metrics > 0).then_some(obj)
}

impl Format for PerfStatJsonMetricOnly {
    fn name(&self) -> &'static str {
        "perf-stat-json-metric-only"
    }

    fn description(&self) -> &'static str {
        "perf stat -j --metric-only: JSON Lines objects of `\"metric\" : \"value\"` pairs"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let mut lines = src
            .lines
            .iter()
            .map(|l| l.text.trim())
            .filter(|t| !t.is_empty())
            .peekable();
        if lines.peek().is_none() {
            return 0;
        }
        // Numbers written as strings, line after line, is perf's habit:
        // a JSON file of another tool would hold one number as a number.
        if lines.all(|t| record(t).is_some()) {
            80
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed) = (Vec::new(), Vec::new());
        for l in &src.lines {
            let t = l.text.trim();
            if t.is_empty() {
                continue;
            }
            let Some(obj) = record(t) else {
                return Err(src.error(
                    Some(l.number),
                    "not a perf stat --metric-only JSON record (`\"metric\" : \"value\"` pairs)",
                ));
            };
            let params = aggregation_params(&obj);
            // The keys come in name order: the record is an unordered map.
            let before = out.len();
            for (k, v) in &obj {
                if AGGREGATIONS.contains(&k.as_str()) || NOT_METRICS.contains(&k.as_str()) {
                    continue;
                }
                let Some(value) = v.as_str().and_then(|s| parse_number(s.trim())) else {
                    continue;
                };
                let metric = k.trim();
                let unit = if metric.contains(' ') {
                    String::new()
                } else {
                    event_unit(metric)
                };
                out.push(
                    Row::at(src, l.number)
                        .benchmark("perf stat")
                        .params(&params)
                        .metric(metric)
                        .unit(&unit)
                        .sample(value),
                );
            }
            if out.len() == before {
                // Every metric empty: perf could not compute one.
                consumed.push(l.number);
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            Vec::new(),
            "no value in the perf stat --metric-only JSON records",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::testing::rows_of_file as rows_of;

    fn rows(path: &str) -> Vec<crate::ingest::testing::RowView> {
        rows_of(&PerfStatJsonMetricOnly, path)
    }

    #[test]
    fn each_metric_with_its_unit_and_the_aggregation() {
        // Every record's benchmark is the tool's.
        let r = |p: &str, m: &str, u: &str, v: f64| {
            let b = "perf stat".to_string();
            (b, p.to_string(), m.to_string(), u.to_string(), v)
        };
        assert_eq!(
            rows("tests/data/harness/perf-stat/metric-only-a.json"),
            [
                r("", "GHz", "GHz", 0.990),
                r("", "branch-misses of all branches", "", 0.59),
                r("", "insn per cycle", "", 2.06),
            ]
        );
        assert_eq!(
            rows("tests/data/harness/perf-stat/metric-only-per-socket.json"),
            [
                r("socket=S0", "GHz", "GHz", 0.439),
                r("socket=S0", "branch-misses of all branches", "", 0.51),
                r("socket=S0", "insn per cycle", "", 2.14),
            ]
        );
    }

    #[test]
    fn counters_records_and_other_json_are_not_metric_only() {
        for text in [
            r#"{"counter-value" : "403.743884", "unit" : "msec", "event" : "task-clock"}"#,
            r#"{"name": "x", "value": 1.5}"#,
            r#"{"socket" : "S0", "aggregate-number" : 8}"#,
        ] {
            let src = Source::from_text("x.json", text);
            assert_eq!(PerfStatJsonMetricOnly.detect(&src), 0, "{text}");
        }
    }
}
