//! `redis-benchmark -q`: one `TEST: X requests per second, p50=Y msec` line per
//! test. The live `rps=… (overall: …)` progress is redrawn with carriage
//! returns; [`Source`] keeps only the final segment of each line. Benchmark
//! `redis-benchmark`, parameter `test=<name>`; metrics `rps` (requests/s) and
//! `latency p50` (ms, redis ≥ 6), each a `sample` of the run.

use crate::error::Result;
use crate::ingest::shared::logscan::{any_with, last_line, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Observation;

lazy_re!(
    RESULT,
    r"^\s*(\S.*?): ([\d.]+) requests per second(?:, p50=([\d.]+) msec)?\s*$"
);
lazy_re!(PROGRESS, r"^\s*\S.*?: rps=[\d.]+ \(overall: ");

/// The rows of a quiet result line `TEST: X requests per second[, p50=Y
/// msec]` (rps, and the p50 where printed), or `None` for another line.
/// The default report of some wrappers holds such a line too (LKP's, above
/// its blocks).
pub(super) fn result_rows(src: &Source, n: u32, t: &str) -> Option<Result<Vec<Observation>>> {
    let c = RESULT.captures(t)?;
    Some(rows_of(src, n, &c))
}

/// The rows of a quiet result line [`RESULT`] matched.
fn rows_of(src: &Source, n: u32, c: &regex::Captures) -> Result<Vec<Observation>> {
    let mut p = Params::default();
    p.set("test", &c[1]);
    let params = p.render();
    let row = |metric: &str, unit: &str, v: &str| -> Result<Observation> {
        Ok(Row::at(src, n)
            .benchmark("redis-benchmark")
            .params(&params)
            .metric(metric)
            .unit(unit)
            .sample(num(src, n, v, metric)?))
    };
    let mut rows = vec![row("rps", "req/s", &c[2])?];
    if let Some(p50) = c.get(3) {
        rows.push(row("latency p50", "ms", p50.as_str())?);
    }
    Ok(rows)
}

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
            if let Some(rows) = result_rows(src, n, t) {
                out.extend(rows?);
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
