//! rt-tests `cyclictest --json=FILE`: `"file_version": 1`, `"thread"` object
//! keyed by thread number, each with `cycles`, `min`, `avg`, `max` (µs) and a
//! `histogram` object (bucket → count) that is empty unless `-h` was given.
//! The same metrics as the text output (`latency min/avg/max` per
//! `thread=N`, plus histogram percentiles when a histogram is present). The
//! writer's keys `"cmdline:"` and `"rt_test_version:"` really end in a colon.
//! JSON values have no line: `line` is 0.
//!
//! cyclicdeadline and oslat write the same document: the benchmark is the
//! program of `"cmdline:"`. oslat's threads have no `cycles` (a busy loop
//! counts no wake-ups) and its histogram's last bucket holds the overflows.
//!
//! cyclictest's JSON has no overflow count: with `-h N` the samples above
//! N µs are in `cycles` but in no bucket (`"cycles": 200` beside a
//! histogram summing to 2). The overflow is `cycles` less the histogram's
//! sum, and a percentile that lies in it is left out with the reason: the
//! histogram alone would put it far too low.

use crate::error::Result;
use crate::ingest::formats::rt_tests::cyclictest_hist::{percentile_bucket, PERCENTILES};
use crate::ingest::shared::logscan::Params;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use serde_json::Value;

/// The cyclictest JSON importer.
pub struct CyclictestJson;

impl Format for CyclictestJson {
    fn name(&self) -> &'static str {
        "cyclictest-json"
    }

    fn description(&self) -> &'static str {
        "rt-tests cyclictest, cyclicdeadline and oslat --json: `\"file_version\": 1` and a `\"thread\"` object"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let raw = src.raw_trimmed();
        if src.looks_like_json()
            && raw.contains("\"file_version\"")
            && raw.contains("\"thread\"")
            && (raw.contains("\"cycles\"") || raw.contains("\"cmdline:\": \"oslat"))
        {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let doc = super::json_doc::read(src, "cyclictest JSON")?;
        let keys = super::json_doc::threads(src, &doc, "cyclictest JSON")?;
        // `/usr/bin/oslat -D 10` → `oslat`.
        let bench = super::json_doc::program(&doc, "cyclictest");
        let mut out = Vec::new();
        let mut skipped = Vec::new();
        // The line of thread `key`'s object, for the accounting.
        let thread_line = |key: &str| {
            let open = format!("\"{key}\": {{");
            let start = src.lines.iter().position(|l| l.text.contains("\"thread\""));
            start
                .and_then(|s| src.lines[s..].iter().find(|l| l.text.trim() == open))
                .map_or(0, |l| l.number)
        };
        for (_, key, th) in keys {
            let field = |name: &str| -> Result<f64> {
                th.get(name)
                    .and_then(Value::as_f64)
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| {
                        src.error(
                            None,
                            format!("thread {key}: `{name}` missing or not a number"),
                        )
                    })
            };
            if th.get("cycles").is_some() && field("cycles")? == 0.0 {
                continue;
            }
            let mut p = Params::default();
            p.set("thread", key);
            let params = p.render();
            for (name, metric) in [
                ("min", "latency min"),
                ("avg", "latency avg"),
                ("max", "latency max"),
            ] {
                out.push(
                    Row::at(src, 0)
                        .benchmark(&bench)
                        .params(&params)
                        .metric(metric)
                        .unit("us")
                        .sample(field(name)?),
                );
            }
            let Some(hist) = th.get("histogram").and_then(Value::as_object) else {
                continue;
            };
            let mut buckets: Vec<(f64, u64)> = Vec::new();
            for (k, v) in hist {
                let (Ok(b), Some(c)) = (k.parse::<f64>(), v.as_u64()) else {
                    return Err(src.error(
                        None,
                        format!("thread {key}: histogram entry `{k}` is not bucket → count"),
                    ));
                };
                buckets.push((b, c));
            }
            buckets.sort_by(|a, b| a.0.total_cmp(&b.0));
            let mut over = th.get("overflows").and_then(Value::as_u64).unwrap_or(0);
            let in_range: u64 = buckets.iter().map(|&(_, c)| c).sum();
            let cycles = th.get("cycles").and_then(Value::as_u64);
            if let Some(c) = cycles {
                over = over.max(c.saturating_sub(in_range));
            }
            for (pct, metric) in PERCENTILES {
                let Some(i) = percentile_bucket(&buckets, over, pct) else {
                    if in_range > 0 && over > 0 {
                        let last = buckets.last().map_or(0.0, |b| b.0);
                        skipped.push((
                            thread_line(key),
                            format!(
                                "thread {key}: {metric} lies above the histogram (last bucket {last} us): \
                                 {over} of {} samples overflowed it, so it cannot be read from the buckets",
                                in_range + over
                            ),
                        ));
                    }
                    continue;
                };
                out.push(
                    Row::at(src, 0)
                        .benchmark(&bench)
                        .params(&params)
                        .metric(metric)
                        .unit("us")
                        .sample(buckets[i].0),
                );
            }
        }
        if out.is_empty() {
            return Err(src.error(None, "rt-tests JSON holds no thread with measured cycles"));
        }
        Ok(Parsed {
            observations: out,
            consumed: Vec::new(),
            skipped,
            ..Parsed::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_in_the_overflow_of_a_histogram_are_left_out() {
        // `-h 60`: 198 of 200 cycles were above 60 us; the histogram holds 2.
        let p = crate::ingest::parse_file(
            &CyclictestJson,
            "tests/data/harness/cyclictest/json-hist-t1.json",
        );
        let got: Vec<(&str, f64)> = p
            .observations
            .iter()
            .map(|o| (o.metric.as_str(), o.value))
            .collect();
        assert_eq!(
            got,
            [
                ("latency min", 24.0),
                ("latency avg", 70.52),
                ("latency max", 848.0)
            ]
        );
        assert_eq!(p.skipped.len(), 4, "{:?}", p.skipped);
        assert_eq!(p.skipped[0].0, 19);
        assert!(p.skipped[0].1.contains("latency p50"));
        assert!(p.skipped[0].1.contains("198 of 200 samples"));
    }
}
