//! redis-benchmark's default (not `-q`, not `--csv`) report: a
//! `====== SET ======` block per test, ending (redis ≥ 6) in
//! `throughput summary: X requests per second` and a `latency summary (msec):`
//! table (`avg min p50 p95 p99 max` header, values on the next line), or
//! (older redis) in a bare `X requests per second` line. Benchmark
//! `redis-benchmark`, parameter `test=<name>`; metrics `rps` (requests/s) and
//! `latency avg/min/p50/p95/p99/max` (ms), each a `sample` of the run — the
//! same names as the CSV and quiet importers.

use crate::error::Result;
use crate::ingest::shared::logscan::{any_with, last_line, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(TEST, r"^====== (.+?) ======\s*$");
lazy_re!(
    RPS,
    r"^\s*(?:throughput summary: )?([\d.]+) requests per second\s*$"
);
lazy_re!(
    COMPLETED,
    r"^\s*\d+ requests completed in [\d.]+ seconds\s*$"
);
lazy_re!(
    DISTRIBUTION,
    r"^\s*[\d.]+% <= [\d.]+ milliseconds(?: \(cumulative count \d+\))?\s*$"
);
lazy_re!(LAT_HEADER, r"^\s*latency summary \(msec\):\s*$");

/// The redis-benchmark default-report importer.
pub struct RedisText;

impl Format for RedisText {
    fn name(&self) -> &'static str {
        "redis-text"
    }

    fn description(&self) -> &'static str {
        "redis-benchmark default report: `====== SET ======` blocks with `… requests per second`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        match (
            any_with(src, "====== ", &TEST),
            any_with(src, " requests per second", &RPS),
        ) {
            (true, true) => 90,
            _ => 0,
        }
    }

    /// Test headers and the latency summary's name row are `consumed`; the
    /// request count and, where a latency summary follows, the cumulative
    /// distribution are `skipped`. Without a summary (older redis) the
    /// distribution is the only latency information and stays unread.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut consumed = Vec::new();
        let mut skipped = Vec::new();
        // Distribution lines of the current block, skipped once a summary
        // of the same block is found.
        let mut distribution: Vec<u32> = Vec::new();
        let mut out = Vec::new();
        let mut test: Option<String> = None;
        let lines = &src.lines;
        let mut i = 0;
        while i < lines.len() {
            let t = lines[i].text.as_str();
            let n = lines[i].number;
            i += 1;
            if let Some(c) = TEST.captures(t) {
                test = Some(c[1].trim().to_string());
                consumed.push(n);
                distribution.clear();
                continue;
            }
            if COMPLETED.is_match(t) {
                let why = "request count and duration; their ratio, requests per second, is read";
                skipped.push((n, why.to_string()));
                continue;
            }
            if DISTRIBUTION.is_match(t) {
                distribution.push(n);
                continue;
            }
            let Some(name) = test.as_deref() else {
                continue;
            };
            let mut p = Params::default();
            p.set("test", name);
            let params = p.render();
            if let Some(c) = RPS.captures(t) {
                let v = num(src, n, &c[1], "requests per second")?;
                out.push(
                    Row::at(src, n)
                        .benchmark("redis-benchmark")
                        .params(&params)
                        .metric("rps")
                        .unit("req/s")
                        .sample(v),
                );
            } else if LAT_HEADER.is_match(t) {
                // Column names, then the values, on the next two lines.
                let (Some(head), Some(vals)) = (lines.get(i), lines.get(i + 1)) else {
                    return Err(
                        src.error(Some(n), "latency summary without its table (truncated?)")
                    );
                };
                consumed.extend([n, head.number]);
                for d in distribution.drain(..) {
                    let why = "cumulative latency distribution; its summary percentiles are read";
                    skipped.push((d, why.to_string()));
                }
                let names: Vec<&str> = head.text.split_whitespace().collect();
                let values: Vec<&str> = vals.text.split_whitespace().collect();
                if names.is_empty() || names.len() != values.len() {
                    return Err(src.error(
                        Some(vals.number),
                        format!(
                            "latency summary has {} names and {} values",
                            names.len(),
                            values.len()
                        ),
                    ));
                }
                for (name, v) in names.iter().zip(&values) {
                    let metric = format!("latency {name}");
                    let v = num(src, vals.number, v, &metric)?;
                    out.push(
                        Row::at(src, vals.number)
                            .benchmark("redis-benchmark")
                            .params(&params)
                            .metric(&metric)
                            .unit("ms")
                            .sample(v),
                    );
                }
                i += 2;
            }
        }
        if out.is_empty() {
            return Err(src.error(
                last_line(src),
                "no `requests per second` result in any `====== test ======` block",
            ));
        }
        skipped.sort_by_key(|s| s.0);
        Ok(Parsed {
            observations: out,
            consumed,
            skipped,
        })
    }
}
