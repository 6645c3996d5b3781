//! `redis-benchmark -q`: one `TEST: X requests per second, p50=Y msec` line per
//! test. The live `rps=… (overall: …)` progress is redrawn with carriage
//! returns; [`Source`] keeps only the final segment of each line. Benchmark
//! `redis-benchmark`, parameter `test=<name>`; metrics `rps` (requests/s) and
//! `latency p50` (ms, redis ≥ 6), each a `sample` of the run.

use crate::error::Result;
use crate::ingest::shared::logscan::{any_with, last_line, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(
    RESULT,
    r"^\s*(\S.*?): ([\d.]+) requests per second(?:, p50=([\d.]+) msec)?\s*$"
);
lazy_re!(PROGRESS, r"^\s*\S.*?: rps=[\d.]+ \(overall: ");

/// The redis-benchmark quiet-mode importer.
pub struct RedisQuiet;

impl Format for RedisQuiet {
    fn name(&self) -> &'static str {
        "redis-quiet"
    }

    fn description(&self) -> &'static str {
        "redis-benchmark -q: `SET: 531914.94 requests per second, p50=0.503 msec` lines"
    }

    fn detect(&self, src: &Source) -> Confidence {
        // The default report's `throughput summary: X requests per second`
        // has the same shape; its `====== test ======` blocks tell it apart.
        if src.lines.iter().any(|l| l.text.starts_with("====== ")) {
            return 0;
        }
        if any_with(src, " requests per second", &RESULT) {
            90
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        for l in &src.lines {
            let t = l.text.as_str();
            let n = l.number;
            if let Some(c) = RESULT.captures(t) {
                let mut p = Params::default();
                p.set("test", &c[1]);
                let params = p.render();
                let rps = num(src, n, &c[2], "requests per second")?;
                out.push(
                    Row::at(src, n)
                        .benchmark("redis-benchmark")
                        .params(&params)
                        .metric("rps")
                        .unit("req/s")
                        .sample(rps),
                );
                if let Some(p50) = c.get(3) {
                    let v = num(src, n, p50.as_str(), "p50")?;
                    out.push(
                        Row::at(src, n)
                            .benchmark("redis-benchmark")
                            .params(&params)
                            .metric("latency p50")
                            .unit("ms")
                            .sample(v),
                    );
                }
            } else if PROGRESS.is_match(t) {
                // A progress line whose final result never came.
                return Err(src.error(
                    Some(n),
                    "redis-benchmark test interrupted before its result line",
                ));
            }
        }
        if out.is_empty() {
            return Err(src.error(last_line(src), "no `requests per second` result line found"));
        }
        Ok(out.into())
    }
}
