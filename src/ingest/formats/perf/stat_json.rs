//! `perf stat -j` output: one JSON object per line (JSON Lines), keys
//! `counter-value` (a *string*: a number or `<not supported>`), `unit`,
//! `event`, `variance` (with `-r`: relative standard error in %), and
//! `event-runtime`/`runtime`, `pcnt-running`, `metric-value`, `metric-unit`,
//! `interval`/`timestamp` depending on the perf version. Unknown keys are
//! ignored. With a variance a counter gives `mean` and `stderr` (the run
//! count is not printed), without one a `sample`. Missing counters are
//! skipped.
//!
//! `-A` and `--per-core`/`--per-die`/`--per-socket`/`--per-node` give one
//! record per CPU (`"cpu" : "0"`), core (`"core" : "S0-D0-C0"`) and so on:
//! that key is a parameter, named and valued as the text and CSV readers
//! name it (`cpu=CPU0`, `core=S0-D0-C0`), so the records of one interval
//! are one run of each CPU or core rather than runs of one counter.
//! `--per-thread` names each record's thread (`"thread" : "python3-31677"`):
//! parameter `thread`, as perf prints it.
//!
//! `-I` with `--summary` ends with the records of the whole run, which have
//! no `interval` key: totals of the intervals above, not another sample of
//! them, they are left out with the reason.

use crate::error::Result;
use crate::ingest::formats::perf::stat::event_unit;
use crate::ingest::shared::logscan::{mean_with_sem, Params};
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use serde_json::Value;

/// The `perf stat -j` importer.
pub struct PerfStatJson;

/// The keys of a record's aggregation, as perf writes them.
pub(super) const AGGREGATIONS: &[&str] = &["cpu", "core", "die", "socket", "node", "thread"];

/// The record's aggregation as `key=value` parameters (empty without one).
pub(super) fn aggregation_params(obj: &serde_json::Map<String, Value>) -> String {
    let mut p = Params::default();
    for key in AGGREGATIONS {
        let value = match obj.get(*key) {
            Some(Value::String(s)) => s.trim().to_string(),
            Some(Value::Number(n)) => n.to_string(),
            _ => continue,
        };
        // `-A` JSON names a CPU by its number where the text says `CPU0`.
        let value = if *key == "cpu" && value.bytes().all(|b| b.is_ascii_digit()) {
            format!("CPU{value}")
        } else {
            value
        };
        p.set(key, value);
    }
    p.render()
}

impl Format for PerfStatJson {
    fn name(&self) -> &'static str {
        "perf-stat-json"
    }

    fn description(&self) -> &'static str {
        "perf stat -j: JSON Lines objects with `counter-value` and `event` keys"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let first = src
            .lines
            .iter()
            .map(|l| l.text.trim())
            .find(|t| !t.is_empty());
        match first {
            Some(t)
                if t.starts_with('{')
                    && t.contains("\"counter-value\"")
                    && t.contains("\"event\"") =>
            {
                95
            }
            _ => 0,
        }
    }

    /// `<not supported>`/`<not counted>` records are `skipped` with that
    /// reason.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut skipped = Vec::new();
        let interval = crate::ingest::shared::logscan::has(src, "\"interval\"");
        for l in &src.lines {
            let t = l.text.trim();
            if t.is_empty() {
                continue;
            }
            let v: Value = serde_json::from_str(t).map_err(|e| {
                src.error(Some(l.number), format!("not a perf stat JSON record: {e}"))
            })?;
            let Some(obj) = v.as_object() else {
                return Err(src.error(Some(l.number), "perf stat JSON record is not an object"));
            };
            let event = match obj.get("event") {
                Some(Value::String(s)) if !s.trim().is_empty() => s.trim(),
                _ => {
                    return Err(src.error(
                        Some(l.number),
                        "perf stat JSON record without an `event` name",
                    ))
                }
            };
            if interval && !obj.contains_key("interval") {
                skipped.push((
                    l.number,
                    format!("{event}: the --summary total of the whole run, the sum of the intervals read"),
                ));
                continue;
            }
            let value = match obj.get("counter-value") {
                Some(Value::String(s)) if s.trim().starts_with('<') => {
                    let reason = crate::ingest::formats::perf::stat::missing_reason(s, event);
                    skipped.push((l.number, reason));
                    continue;
                }
                Some(Value::String(s)) => parse_number(s),
                Some(Value::Number(n)) => n.as_f64().filter(|f| f.is_finite()),
                _ => None,
            };
            let Some(value) = value else {
                return Err(src.error(
                    Some(l.number),
                    format!("`counter-value` of `{event}` is missing or not a number"),
                ));
            };
            let unit = event_unit(obj.get("unit").and_then(Value::as_str).unwrap_or(""));
            let params = aggregation_params(obj);
            match obj.get("variance") {
                Some(Value::Number(p)) => {
                    let pct = p.as_f64().unwrap_or(0.0);
                    let se = value * pct / 100.0;
                    mean_with_sem(
                        &mut out,
                        src,
                        l.number,
                        "perf stat",
                        &params,
                        event,
                        &unit,
                        value,
                        Some(se),
                        None,
                    );
                }
                None | Some(Value::Null) => {
                    out.push(
                        Row::at(src, l.number)
                            .benchmark("perf stat")
                            .params(&params)
                            .metric(event)
                            .unit(&unit)
                            .sample(value),
                    );
                }
                Some(_) => {
                    return Err(src.error(
                        Some(l.number),
                        format!("`variance` of `{event}` is not a number"),
                    ));
                }
            }
        }
        Parsed::found(
            src,
            out,
            Vec::new(),
            skipped,
            "no counted perf stat JSON record found",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(path: &str) -> Vec<(String, String, f64)> {
        let p = crate::ingest::parse_file(&PerfStatJson, path);
        p.observations
            .iter()
            .map(|o| (o.params.to_string(), o.metric.to_string(), o.value))
            .collect()
    }

    #[test]
    fn per_thread_records_carry_their_thread() {
        let path = "tests/data/harness/perf-stat/per-thread-p.json";
        let r = rows(path);
        assert_eq!(r.len(), 4);
        assert_eq!(
            r[3],
            (
                "thread=python3-31727".into(),
                "context-switches".into(),
                267.0
            )
        );
    }

    #[test]
    fn summary_records_after_intervals_are_left_out_as_totals() {
        let path = "tests/data/harness/perf-stat/interval-summary.json";
        assert_eq!(
            rows(path),
            vec![
                (String::new(), "task-clock".into(), 1.286823),
                (String::new(), "context-switches".into(), 9.0),
                (String::new(), "task-clock".into(), 0.05772),
                (String::new(), "context-switches".into(), 0.0),
            ]
        );
        let p = crate::ingest::parse_file(&PerfStatJson, path);
        let lines: Vec<u32> = p.skipped.iter().map(|(n, _)| *n).collect();
        assert_eq!(lines, vec![3, 4, 7, 8]);
        assert!(
            p.skipped[2].1.contains("--summary total"),
            "{:?}",
            p.skipped
        );
    }

    #[test]
    fn per_core_and_per_cpu_records_carry_their_aggregation() {
        let got = rows("tests/data/harness/perf-stat/interval-per-core.json");
        assert_eq!(got.len(), 6);
        assert_eq!(
            got[..2],
            [
                ("core=S0-D0-C0".into(), "task-clock".into(), 403.743884),
                ("core=S0-D0-C1".into(), "task-clock".into(), 403.841259),
            ]
        );
        assert_eq!(got[5].0, "core=S0-D0-C1");
        // `-A`: `"cpu" : "1"` is the text output's `CPU1`.
        let got = rows("tests/data/harness/perf-stat/per-cpu-A.json");
        assert_eq!(got[1], ("cpu=CPU1".into(), "task-clock".into(), 315.312264));
        // Without an aggregation there is no parameter.
        let got = rows("tests/data/harness/perf-stat/interval.json");
        assert!(got.iter().all(|r| r.0.is_empty()));
    }
}
