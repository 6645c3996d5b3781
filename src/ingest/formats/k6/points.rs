//! k6's `--out json=FILE`: one JSON object a line, a `Metric` line
//! declaring a metric (its `type` and what it `contains`) before the
//! first `Point` line of it; each point one measured value with its time
//! and tags.
//!
//! Each point is a sample of its metric (in ms for times, bytes for data,
//! as declared), filed under the tags that say which request or check it
//! measured: `scenario`, `group`, `name` (the URL unless the script named
//! the request), `method` and `check`. The tags that vary between
//! requests of one series (`status`, `url`, `proto`, `tls_version`,
//! `expected_response`, `error`) and the points' metadata are not
//! parameters, so that a slow or failed response stays in its series.

use super::{builtin_time_trend, unit_of_contains, BENCHMARK, SERIES_TAGS};
use crate::error::Result;
use crate::ingest::shared::logscan::Params;
use crate::ingest::shared::row::Row;
use crate::ingest::shared::structured::{parse_json_str, raw_lines};
use crate::ingest::{Confidence, Format, Parsed, Source};
use serde_json::Value;
use std::collections::HashMap;

/// The k6 `--out json` importer.
pub struct K6Points;

impl Format for K6Points {
    fn name(&self) -> &'static str {
        "k6-json"
    }

    fn description(&self) -> &'static str {
        "k6 run --out json: one `{\"type\":\"Metric\"|\"Point\",…,\"metric\":…}` object a line; each point a sample of its metric under its request's tags"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let first = src.raw_trimmed().lines().next().unwrap_or("");
        let typed =
            first.starts_with("{\"type\":\"Metric\"") || first.starts_with("{\"type\":\"Point\"");
        if typed && first.contains("\"metric\":") {
            95
        } else {
            0
        }
    }

    fn reads_raw(&self) -> bool {
        true
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut units: HashMap<String, &'static str> = HashMap::new();
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        for (n, line) in raw_lines(src) {
            let v: Value = parse_json_str(src, line, n - 1, "k6 JSON line")?;
            let metric = v.get("metric").and_then(Value::as_str).unwrap_or("");
            let data = &v["data"];
            match v.get("type").and_then(Value::as_str) {
                Some("Metric") => {
                    let contains = data.get("contains").and_then(Value::as_str).unwrap_or("");
                    units.insert(metric.to_string(), unit_of_contains(contains));
                    consumed.push(n);
                }
                Some("Point") => {
                    let Some(x) = data.get("value").and_then(Value::as_f64) else {
                        skipped.push((n, format!("a point of `{metric}` without a value")));
                        continue;
                    };
                    let mut params = Params::default();
                    if let Some(tags) = data.get("tags").and_then(Value::as_object) {
                        for t in SERIES_TAGS {
                            if let Some(s) = tags.get(t).and_then(Value::as_str) {
                                if !s.is_empty() {
                                    params.set(t, s);
                                }
                            }
                        }
                    }
                    // A file cut to points alone (`jq 'select(.type=="Point")'`)
                    // declares no metric: k6's built-in timings are in ms.
                    let unit = units.get(metric).copied().unwrap_or_else(|| {
                        if builtin_time_trend(metric) {
                            "ms"
                        } else {
                            ""
                        }
                    });
                    out.push(
                        Row::at(src, n)
                            .benchmark(BENCHMARK)
                            .params(&params.render())
                            .metric(metric)
                            .unit(unit)
                            .sample(x),
                    );
                }
                _ => skipped.push((n, "not a k6 Metric or Point line".to_string())),
            }
        }
        Parsed::found(src, out, consumed, skipped, "no k6 `Point` line")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    #[test]
    fn points_are_samples_of_their_metric_under_their_tags() {
        let p = parse_file(&K6Points, "tests/data/harness/k6/out-json-k6-test.jsonl");
        let got: Vec<(&str, &str, f64, u32)> = p
            .observations
            .iter()
            .map(|o| (o.metric.as_str(), o.unit.as_str(), o.value, o.line))
            .collect();
        assert_eq!(
            got,
            [
                ("my_metric1", "", 1.0, 2),
                ("my_metric1", "", 2.0, 3),
                ("my_metric2", "B", 3.0, 5),
                ("my_metric1", "", 4.0, 6),
                ("my_metric2", "B", 5.0, 7),
            ]
        );
        assert!(p.observations.iter().all(|o| o.params.is_empty()));
        // Points alone, filtered with jq: units of the built-in metrics.
        let p = parse_file(
            &K6Points,
            "tests/data/harness/k6/out-json-points-jq-filtered.jsonl",
        );
        assert_eq!(p.observations.len(), 12);
        let o = &p.observations[4];
        assert_eq!(
            (o.metric.as_str(), o.unit.as_str(), o.value),
            ("http_req_duration", "ms", 0.184015)
        );
        assert_eq!(o.params, "name=https://domain1.com,scenario=ramping_vus");
        let failed = &p.observations[2];
        assert_eq!(
            (failed.metric.as_str(), failed.unit.as_str()),
            ("http_req_failed", "")
        );
    }
}
