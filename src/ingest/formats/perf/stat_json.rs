//! `perf stat -j` output: one JSON object per line (JSON Lines), keys
//! `counter-value` (a *string*: a number or `<not supported>`), `unit`,
//! `event`, `variance` (with `-r`: relative standard error in %), and
//! `event-runtime`/`runtime`, `pcnt-running`, `metric-value`, `metric-unit`,
//! `interval`/`timestamp` depending on the perf version. Unknown keys are
//! ignored. With a variance a counter gives `mean` and `stderr` (the run
//! count is not printed), without one a `sample`. Missing counters are
//! skipped.

use crate::error::Result;
use crate::ingest::formats::perf::stat::event_unit;
use crate::ingest::shared::logscan::mean_with_sem;
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use serde_json::Value;

/// The `perf stat -j` importer.
pub struct PerfStatJson;

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
            match obj.get("variance") {
                Some(Value::Number(p)) => {
                    let pct = p.as_f64().unwrap_or(0.0);
                    let se = value * pct / 100.0;
                    mean_with_sem(
                        &mut out,
                        src,
                        l.number,
                        "perf stat",
                        "",
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
