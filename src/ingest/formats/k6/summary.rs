//! k6's summary as JSON, in its three shapes:
//! - the data `handleSummary` is given (what a script writes with
//!   `JSON.stringify(data)`): `metrics.NAME` holds `type` (`trend`,
//!   `counter`, `rate`, `gauge`), `contains` (`time`, `data`, `default`)
//!   and `values`; `root_group` the checks' passes and fails per group,
//!   `state.testRunDurationMs` the run's length;
//! - `--summary-export FILE` (k6 before 1.0): `metrics.NAME` holds the
//!   values themselves (a rate's share as `value`), with no type or unit:
//!   the kind is told from the values' names, and a trend is in ms when
//!   it is one of k6's built-in timings;
//! - the `metrics` object alone (`jq .metrics` of the first).
//!
//! Rows as the text summary's (see the module): a rate's share in %, a
//! counter's total and `NAME rate` per second, a trend's statistics, a
//! gauge's value, minimum and maximum; per check `checks passes` and
//! `checks fails` with `group` and `check` parameters. Thresholds (pass
//! or fail) are no values.

use super::{builtin_time_trend, split_submetric, trend_stat, unit_of_contains, BENCHMARK};
use crate::error::Result;
use crate::ingest::shared::logscan::Params;
use crate::ingest::shared::row::Row;
use crate::ingest::shared::structured::parse_json;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{rescale, Observation, Stat};
use serde_json::{Map, Value};

/// The k6 JSON summary importer.
pub struct K6Summary;

impl Format for K6Summary {
    fn name(&self) -> &'static str {
        "k6-summary"
    }

    fn description(&self) -> &'static str {
        "k6's summary as JSON: handleSummary's data (`metrics` of `type`/`contains`/`values`, `root_group`), --summary-export, or the `metrics` object alone"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if !src.looks_like_json() {
            return 0;
        }
        let raw = src.raw_trimmed();
        let has = |k: &str| raw.contains(k);
        let kinds = ["\"trend\"", "\"counter\"", "\"rate\"", "\"gauge\""];
        if has("\"root_group\"") && has("\"metrics\"") {
            95
        } else if has("\"contains\"") && has("\"values\"") && kinds.iter().any(|k| has(k)) {
            90
        } else if has("\"metrics\"")
            && [
                "\"http_reqs\"",
                "\"iteration_duration\"",
                "\"vus_max\"",
                "\"iterations\"",
            ]
            .iter()
            .any(|k| has(k))
        {
            85
        } else {
            0
        }
    }

    fn reads_raw(&self) -> bool {
        true
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let doc: Value = parse_json(src, "k6 summary JSON")?;
        let mut out = Vec::new();
        let metrics = doc
            .get("metrics")
            .and_then(Value::as_object)
            .or_else(|| doc.as_object());
        for (key, m) in metrics.into_iter().flatten() {
            let Some(m) = m.as_object() else { continue };
            let (name, params) = split_submetric(key);
            let row = Row::at(src, 0).benchmark(BENCHMARK).params(&params);
            match m.get("values").and_then(Value::as_object) {
                Some(values) => {
                    let kind = m.get("type").and_then(Value::as_str).unwrap_or("");
                    let contains = m.get("contains").and_then(Value::as_str).unwrap_or("");
                    metric(
                        row,
                        name,
                        kind,
                        unit_of_contains(contains),
                        values,
                        &mut out,
                    );
                }
                None => {
                    let (kind, unit) = exported_kind(name, m);
                    metric(row, name, kind, unit, m, &mut out);
                }
            }
        }
        if let Some(g) = doc.get("root_group").and_then(Value::as_object) {
            checks(src, g, &mut out);
        }
        if let Some(ms) = doc
            .pointer("/state/testRunDurationMs")
            .and_then(Value::as_f64)
        {
            let row = Row::at(src, 0).benchmark(BENCHMARK);
            out.push(row.metric("test run duration").unit("ms").sample(ms));
        }
        if out.is_empty() {
            return Err(src.error(
                Some(1),
                "k6 summary JSON without a metric's values (`metrics.NAME`)",
            ));
        }
        Ok(Parsed::from(out))
    }
}

/// The kind and unit of a `--summary-export` metric, told from the names
/// of its values (the file states neither).
fn exported_kind(name: &str, m: &Map<String, Value>) -> (&'static str, &'static str) {
    let has = |k: &str| m.contains_key(k);
    if has("passes") || has("fails") {
        ("rate", "")
    } else if has("value") {
        ("gauge", "")
    } else if has("count") && has("rate") && !has("avg") {
        let data = matches!(name, "data_received" | "data_sent");
        ("counter", if data { "B" } else { "" })
    } else {
        let timed = builtin_time_trend(name);
        ("trend", if timed { "ms" } else { "" })
    }
}

/// The rows of one metric of `kind` whose values are `v`.
fn metric(
    row: Row,
    name: &str,
    kind: &str,
    unit: &str,
    v: &Map<String, Value>,
    out: &mut Vec<Observation>,
) {
    let get = |k: &str| v.get(k).and_then(Value::as_f64).filter(|x| x.is_finite());
    let named = |suffix: &str| format!("{name} {suffix}");
    match kind {
        "rate" => {
            if let Some(share) = get("rate").or(get("value")) {
                out.push(
                    row.clone()
                        .metric(name)
                        .unit("%")
                        .sample(rescale(share, 100.0)),
                );
            }
            for (k, what) in [("passes", "passes"), ("fails", "fails")] {
                if let Some(x) = get(k) {
                    out.push(row.clone().metric(&named(what)).stat(Stat::Total, x));
                }
            }
        }
        "counter" => {
            if let Some(x) = get("count") {
                out.push(row.clone().metric(name).unit(unit).stat(Stat::Total, x));
            }
            if let Some(x) = get("rate") {
                let per = format!("{unit}/s");
                out.push(row.metric(&named("rate")).unit(&per).sample(x));
            }
        }
        "gauge" => {
            for (k, stat) in [
                ("value", Stat::Sample),
                ("min", Stat::Min),
                ("max", Stat::Max),
            ] {
                if let Some(x) = get(k) {
                    out.push(row.clone().metric(name).unit(unit).stat(stat, x));
                }
            }
        }
        _ => {
            for (k, x) in v {
                let (Some(stat), Some(x)) = (trend_stat(k), x.as_f64()) else {
                    continue;
                };
                let unit = if stat == Stat::N { "" } else { unit };
                out.push(row.clone().metric(name).unit(unit).stat(stat, x));
            }
        }
    }
}

/// The passes and fails of every check under group `g` (its `checks` and
/// its sub-`groups`, as arrays in handleSummary's data, as objects keyed
/// by name in `--summary-export`).
fn checks(src: &Source, g: &Map<String, Value>, out: &mut Vec<Observation>) {
    let members = |k: &str| -> Vec<&Value> {
        match g.get(k) {
            Some(Value::Array(a)) => a.iter().collect(),
            Some(Value::Object(o)) => o.values().collect(),
            _ => Vec::new(),
        }
    };
    let path = g.get("path").and_then(Value::as_str).unwrap_or("");
    for c in members("checks") {
        let name = c.get("name").and_then(Value::as_str).unwrap_or("");
        let mut params = Params::default();
        params.set("group", path);
        params.set("check", name);
        let row = Row::at(src, 0)
            .benchmark(BENCHMARK)
            .params(&params.render());
        for k in ["passes", "fails"] {
            if let Some(x) = c.get(k).and_then(Value::as_f64) {
                let metric = format!("checks {k}");
                out.push(row.clone().metric(&metric).stat(Stat::Total, x));
            }
        }
    }
    for sub in members("groups") {
        if let Some(sub) = sub.as_object() {
            checks(src, sub, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    fn value(p: &Parsed, metric: &str, params: &str, stat: Stat) -> (f64, String) {
        let o = p
            .observations
            .iter()
            .find(|o| o.metric == metric && o.params == params && o.stat == stat)
            .unwrap_or_else(|| panic!("no {metric} {params} {stat:?}"));
        (o.value, o.unit.to_string())
    }

    #[test]
    fn handle_summary_data_and_the_old_export_agree() {
        for file in ["handlesummary-k6-test.json", "summary-export-k6-test.json"] {
            let p = parse_file(&K6Summary, &format!("tests/data/harness/k6/{file}"));
            let trend = |s| value(&p, "my_trend", "", s).0;
            assert_eq!(trend(Stat::Mean), 15.0, "{file}");
            assert_eq!(trend(Stat::Percentile(99_000)), 19.9, "{file}");
            assert_eq!(trend(Stat::N), 3.0);
            assert_eq!(value(&p, "checks", "", Stat::Sample), (75.0, "%".into()));
            assert_eq!(value(&p, "checks fails", "", Stat::Total).0, 15.0);
            assert_eq!(value(&p, "http_reqs rate", "", Stat::Sample).0, 3.0);
            assert_eq!(value(&p, "vus", "", Stat::Max).0, 1.0);
            let check = "check=check2,group=::child";
            assert_eq!(value(&p, "checks fails", check, Stat::Total).0, 10.0);
        }
    }

    #[test]
    fn metrics_object_alone_with_units() {
        let p = parse_file(
            &K6Summary,
            "tests/data/harness/k6/handlesummary-metrics-jq.json",
        );
        let sub = "expected_response=true";
        assert_eq!(
            value(&p, "http_req_duration", sub, Stat::Percentile(99_990)),
            (1.158166567199999, "ms".into())
        );
        assert_eq!(
            value(&p, "data_received", "", Stat::Total),
            (71874.0, "B".into())
        );
        assert_eq!(
            value(&p, "data_sent rate", "", Stat::Sample),
            (220.3781195661458, "B/s".into())
        );
        assert_eq!(value(&p, "http_req_failed", "", Stat::Sample).0, 0.0);
        assert_eq!(
            value(&p, "iteration_duration", "", Stat::Max).0,
            5001.418738
        );
    }
}
