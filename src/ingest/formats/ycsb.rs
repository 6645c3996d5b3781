//! YCSB (Yahoo! Cloud Serving Benchmark) text results: one `[SECTION],
//! Measurement, Value` line per figure, `[OVERALL], RunTime(ms), 10110`,
//! `[OVERALL], Throughput(ops/sec), 98.9`, and per operation (`[READ]`,
//! `[UPDATE]`, `[INSERT]`, `[CLEANUP]` …) `Operations`, `AverageLatency(us)`,
//! `Min|MaxLatency(us)`, `95thPercentileLatency(us)`, `Return=OK`; the
//! JVM's `[TOTAL_GC_TIME], Time(ms), 8` lines, and with the older histogram
//! exporter one bucket per line (`[READ], 0, 123`).
//!
//! Benchmark `ycsb`, parameter `op` (the section, lower case) except for
//! `[OVERALL]`; metrics `runtime` (ms), `throughput` (ops/s),
//! `operations`, `latency avg|min|max|pNN` in the stated unit, `return OK`
//! (and each other return code), other measurements by their name in
//! their bracketed unit, the collector sections by their own name (`total
//! gc time`, ms). Each is a sample of the run, as its figures are.
//!
//! A client's log without any result line (the run died: a stack trace
//! after `YCSB Client 0.9.0` and its `Command line:`) is recognised by
//! that banner and refused, naming the first exception it printed.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(LINE, r"^\[([A-Z][A-Za-z0-9_%-]*)\], ([^,]+), ([^,]+)$");
lazy_re!(NAMED, r"^([A-Za-z0-9. ]+?)\(([^)]+)\)$");
lazy_re!(PERCENTILE, r"^(\d+(?:\.\d+)?)(?:th)?PercentileLatency$");
lazy_re!(BUCKET, r"^>?\d+$");
lazy_re!(STATUS, r"\d+ sec: \d+ operations;");
// The client's banner: `YCSB Client 0.9.0`, then `Command line: -db …`.
lazy_re!(BANNER, r"^YCSB Client \d[\w.-]*$");
// A Java exception or error as its stack trace opens it.
lazy_re!(
    EXCEPTION,
    r"^(?:Exception in thread .*?)?[\w$.]+(?:Exception|Error)(?::\s.*)?$"
);

/// The YCSB importer.
pub struct Ycsb;

impl Format for Ycsb {
    fn name(&self) -> &'static str {
        "ycsb"
    }

    fn description(&self) -> &'static str {
        "YCSB text results: `[OVERALL], Throughput(ops/sec), N` and per-operation `[READ], AverageLatency(us), N` lines"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let overall = src.lines.iter().take(20_000).any(|l| {
            let t = l.text.trim();
            t.starts_with("[OVERALL], RunTime(ms), ")
                || t.starts_with("[OVERALL], Throughput(ops/sec), ")
        });
        if overall {
            96
        } else if src
            .lines
            .iter()
            .take(200)
            .any(|l| BANNER.is_match(l.text.trim()))
        {
            // The client started but may have printed no result.
            80
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut skipped = Vec::new();
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            if STATUS.is_match(t) {
                skipped.push((
                    n,
                    "a status report during the run; the result lines give its totals".to_string(),
                ));
                continue;
            }
            let Some(c) = LINE.captures(t) else {
                continue;
            };
            let (section, measure, value) = (&c[1], c[2].trim(), c[3].trim());
            if BUCKET.is_match(measure) {
                skipped.push((
                    n,
                    "a bucket of the latency histogram (the summary lines are read)".to_string(),
                ));
                continue;
            }
            let Some((metric, unit)) = metric(measure) else {
                skipped.push((n, format!("`{measure}` is no measurement YCSB defines")));
                continue;
            };
            let v = num(src, n, value, measure)?;
            let params = match section {
                "OVERALL" => String::new(),
                s if s.starts_with("TOTAL_GC") => String::new(),
                s => format!("op={}", s.to_ascii_lowercase()),
            };
            // The JVM's collector sections name what they count or time
            // (`[TOTAL_GC_TIME_PS_Scavenge], Time(ms)`): the section is the
            // metric, the measurement only gives the unit.
            let metric = if section.starts_with("TOTAL_GC") {
                section.to_ascii_lowercase().replace('_', " ")
            } else {
                metric
            };
            let row = Row::at(src, n)
                .benchmark("ycsb")
                .params(&params)
                .metric(&metric)
                .unit(&unit);
            out.push(row.sample(v));
        }
        let failed = src.lines.iter().find(|l| EXCEPTION.is_match(l.text.trim()));
        let why = match failed {
            Some(l) => format!(
                "no YCSB result line (`[OVERALL], Throughput(ops/sec), N`): the client failed at line {} (`{}`)",
                l.number,
                l.text.trim()
            ),
            None => "no YCSB result line (`[OVERALL], Throughput(ops/sec), N`)".to_string(),
        };
        Parsed::found(src, out, Vec::new(), skipped, why)
    }
}

/// The metric and unit of a measurement name (`AverageLatency(us)`,
/// `Throughput(ops/sec)`, `Return=OK`, `Operations`).
fn metric(measure: &str) -> Option<(String, String)> {
    if let Some(code) = measure.strip_prefix("Return=") {
        return Some((format!("return {code}"), String::new()));
    }
    if measure == "Operations" || measure == "Count" {
        return Some((measure.to_ascii_lowercase(), String::new()));
    }
    let c = NAMED.captures(measure)?;
    let (name, unit) = (c[1].trim(), c[2].trim());
    let unit = match unit {
        "ops/sec" => "ops/s".to_string(),
        u => u.to_string(),
    };
    let metric = match name {
        "RunTime" => "runtime".to_string(),
        "Throughput" => "throughput".to_string(),
        "AverageLatency" => "latency avg".to_string(),
        "MinLatency" => "latency min".to_string(),
        "MaxLatency" => "latency max".to_string(),
        n => match PERCENTILE.captures(n) {
            Some(p) => format!("latency p{}", &p[1]),
            None => n.to_ascii_lowercase(),
        },
    };
    Some((metric, unit))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_that_died_is_refused_at_its_exception() {
        let path = "tests/data/harness/ycsb/pkb-redis-read-timeout-no-result.txt";
        let src = Source::read(std::path::Path::new(path)).unwrap();
        assert!(Ycsb.detect(&src) >= 50);
        let e = Ycsb.parse_accounted(&src).unwrap_err().to_string();
        assert!(
            e.contains("line 23 (`redis.clients.jedis.exceptions.JedisConnectionException: java.net.SocketTimeoutException: Read timed out`)"),
            "{e}"
        );
        assert!(!EXCEPTION.is_match("Loading workload..."));
        assert!(!EXCEPTION.is_match("Caused by: java.net.SocketTimeoutException: Read timed out"));
    }

    #[test]
    fn measurement_names_give_metrics_and_units() {
        assert_eq!(
            metric("95thPercentileLatency(us)"),
            Some(("latency p95".into(), "us".into()))
        );
        assert_eq!(
            metric("99.9PercentileLatency(us)"),
            Some(("latency p99.9".into(), "us".into()))
        );
        assert_eq!(
            metric("Throughput(ops/sec)"),
            Some(("throughput".into(), "ops/s".into()))
        );
        assert_eq!(metric("Return=OK"), Some(("return OK".into(), "".into())));
    }
}
