//! dbench and tbench (dbench 4): the closing `Throughput 327.011 MB/sec  2
//! clients  2 procs  max_latency=58.308 ms` line, and the operation table
//! above it (`NTCreateX  27520  0.017  28.417`: count, average and maximum
//! latency in ms).
//!
//! Benchmark `dbench` (`tbench` when the file name says so: both print
//! the dbench banner), parameters `clients` and `procs`; metrics
//! `throughput` (MB/s), `max latency` (ms), and per operation `<op> count`,
//! `<op> latency avg`, `<op> latency max`, each a `sample` of the run. The
//! per-second progress lines are left out with the reason.

use crate::error::Result;
use crate::ingest::shared::logscan::{any_with, lazy_re, num, obs, Params};
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Stat;

lazy_re!(
    THROUGHPUT,
    r"^Throughput ([\d.]+) MB/sec\s+(\d+) clients\s+(\d+) procs\s+max_latency=([\d.]+) ms"
);
lazy_re!(OP, r"^ (\w+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s*$");
lazy_re!(PROGRESS, r"^\s+\d+\s+(\d+\s+[\d.]+ MB/sec|cleanup)");

/// The dbench/tbench importer.
pub struct Dbench;

impl Format for Dbench {
    fn name(&self) -> &'static str {
        "dbench"
    }

    fn description(&self) -> &'static str {
        "dbench/tbench: `Throughput N MB/sec  N clients  N procs  max_latency=N ms` and the operation table"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if any_with(src, "MB/sec", &THROUGHPUT) {
            95
        } else if crate::ingest::shared::logscan::has(src, "dbench version") {
            40
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let bench = if src.file_name().to_ascii_lowercase().contains("tbench") {
            "tbench"
        } else {
            "dbench"
        };
        let mut consumed = Vec::new();
        let mut skipped = Vec::new();
        let mut out = Vec::new();
        // Operation rows come before the throughput line that names the
        // clients: hold them until it does.
        let mut ops: Vec<(u32, String, [f64; 3])> = Vec::new();
        for l in &src.lines {
            let n = l.number;
            let t = l.text.trim_end();
            if let Some(c) = THROUGHPUT.captures(t) {
                let mut p = Params::default();
                p.set("clients", &c[2]);
                p.set("procs", &c[3]);
                let params = p.render();
                for (line, op, v) in ops.drain(..) {
                    for (metric, value) in ["count", "latency avg", "latency max"].iter().zip(v) {
                        let unit = if *metric == "count" { "" } else { "ms" };
                        let metric = format!("{op} {metric}");
                        out.push(obs(
                            src,
                            line,
                            bench,
                            &params,
                            &metric,
                            unit,
                            Stat::Sample,
                            value,
                        ));
                    }
                }
                let tp = num(src, n, &c[1], "throughput")?;
                out.push(obs(
                    src,
                    n,
                    bench,
                    &params,
                    "throughput",
                    "MB/s",
                    Stat::Sample,
                    tp,
                ));
                let lat = num(src, n, &c[4], "max_latency")?;
                out.push(obs(
                    src,
                    n,
                    bench,
                    &params,
                    "max latency",
                    "ms",
                    Stat::Sample,
                    lat,
                ));
            } else if let Some(c) = OP.captures(t) {
                let v = [
                    num(src, n, &c[2], "count")?,
                    num(src, n, &c[3], "AvgLat")?,
                    num(src, n, &c[4], "MaxLat")?,
                ];
                ops.push((n, c[1].to_string(), v));
            } else if PROGRESS.is_match(t) {
                skipped.push((n, "progress of the running clients, not the result".into()));
            } else if t.starts_with("Running for")
                || t.starts_with("dbench version")
                || t.contains("processes prepared for launch")
            {
                consumed.push(n);
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no `Throughput … MB/sec` line found (interrupted run?)",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn throughput_and_operation_table() {
        let p = crate::ingest::parse_file(&Dbench, "tests/data/harness/dbench/dbench-2clients.txt");
        assert_eq!(p.observations.len(), 16 * 3 + 2);
        let get = |m: &str| {
            p.observations
                .iter()
                .find(|o| o.metric == m)
                .map(|o| o.value)
        };
        assert_eq!(get("throughput"), Some(327.011));
        assert_eq!(get("max latency"), Some(58.308));
        assert_eq!(get("Flush latency max"), Some(58.297));
        assert_eq!(get("ReadX count"), Some(42822.0));
        assert_eq!(p.observations[0].params, "clients=2,procs=2");
        assert_eq!(p.skipped.len(), 4);
    }

    #[test]
    fn tbench_is_named_from_its_file() {
        let p = crate::ingest::parse_file(&Dbench, "tests/data/harness/dbench/tbench-2clients.txt");
        assert_eq!(p.observations[0].benchmark, "tbench");
        let tp = p
            .observations
            .iter()
            .find(|o| o.metric == "throughput")
            .unwrap();
        assert_eq!(tp.value, 755.619);
    }
}
