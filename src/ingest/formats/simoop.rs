//! simoop (a simulator of a large application's memory, file and CPU
//! load): reports of `Read latency usec: (p50: N) (p95: N) (p99: N) (max:
//! N)` lines for reads, writes and allocations, and `work rate = 35.50/sec
//! (avg 35.50/sec) (p50: …)` lines for the work, allocation-stall and
//! vmscan-write rates, each report under `Run time: N seconds`.
//!
//! The reports repeat while the run goes on and count from its start (the
//! warm-up excepted), so the **last** report of a run holds its result:
//! the earlier ones are left out with the reason. A run ends where the next
//! simoop command line starts another; a file of several runs gives one run
//! each.
//!
//! Benchmark `simoop`; metrics `read latency p50` … `read latency max` (and
//! `write`, `allocation`) in µs, and `work rate`, `allocstall rate`,
//! `nr_vmscan_write rate` (/s, the run's average), each a `sample` of the
//! run.

use crate::error::Result;
use crate::ingest::shared::lkp_wrapper;
use crate::ingest::shared::logscan::{any_with, lazy_re, num};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Observation;

lazy_re!(LATENCY, r"^(\w+) latency usec:((?:\s*\(\w+: \d+\))+)\s*$");
lazy_re!(PART, r"\((\w+): (\d+)\)");
lazy_re!(
    RATE,
    r"^(\w+) rate = [\d.]+/sec \(avg:? ([\d.]+)(?:/sec)?\)(?:\s*\(\w+: [\d.]+\))*\s*$"
);
lazy_re!(RUN_TIME, r"^Run time: \d+ seconds\s*$");
lazy_re!(WARMUP, r"^Warmup complete \(\d+ seconds\)\s*$");
lazy_re!(COMMAND, r"(?:^|[\s/])simoop\s+-");

/// The simoop importer.
pub struct Simoop;

impl Format for Simoop {
    fn name(&self) -> &'static str {
        "simoop"
    }

    fn description(&self) -> &'static str {
        "simoop: `Read latency usec: (p50: N) … (max: N)` and `work rate = N/sec (avg N/sec)` reports, the last of a run"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if any_with(src, "latency usec: (p50:", &LATENCY) && any_with(src, " rate = ", &RATE) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        // The report being read: its rows, and the lines of the report
        // before it, left out once a later one supersedes it.
        let mut report: Vec<Observation> = Vec::new();
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim_end());
            if COMMAND.is_match(t) {
                // A new run: the last report of the one before is its result.
                out.append(&mut report);
                skipped.push((
                    n,
                    lkp_wrapper::reason(t, "simoop")
                        .unwrap_or("simoop's command line")
                        .to_string(),
                ));
            } else if RUN_TIME.is_match(t) {
                supersede(&mut report, &mut skipped);
                consumed.push(n);
            } else if let Some(c) = LATENCY.captures(t) {
                let what = c[1].to_ascii_lowercase();
                for p in PART.captures_iter(&c[2]) {
                    let metric = format!("{what} latency {}", &p[1]);
                    let v = num(src, n, &p[2], &metric)?;
                    report.push(
                        Row::at(src, n)
                            .benchmark("simoop")
                            .metric(&metric)
                            .unit("us")
                            .sample(v),
                    );
                }
            } else if let Some(c) = RATE.captures(t) {
                let metric = format!("{} rate", &c[1]);
                let v = num(src, n, &c[2], &metric)?;
                report.push(
                    Row::at(src, n)
                        .benchmark("simoop")
                        .metric(&metric)
                        .unit("/s")
                        .sample(v),
                );
            } else if WARMUP.is_match(t) {
                consumed.push(n);
            } else if lkp_wrapper::is_logged_command(t) {
                skipped.push((n, "LKP wrapper: a command it runs around simoop".into()));
            }
        }
        out.append(&mut report);
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no simoop `Read latency usec: (p50: N) …` report",
        )
    }
}

/// Drops the rows of a report a later one supersedes, leaving its lines
/// out with the reason.
fn supersede(report: &mut Vec<Observation>, skipped: &mut Vec<(u32, String)>) {
    let mut lines: Vec<u32> = report.drain(..).map(|o| o.line).collect();
    lines.dedup();
    for n in lines {
        skipped.push((
            n,
            "an interim simoop report: the run's last report holds its result".into(),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    #[test]
    fn the_last_report_is_the_run_s_result() {
        let p = parse_file(&Simoop, "tests/data/harness/simoop/lkp-1.txt");
        let rows: Vec<(&str, &str, f64, u32)> = p
            .observations
            .iter()
            .map(|o| (o.metric.as_str(), o.unit.as_str(), o.value, o.line))
            .collect();
        assert_eq!(
            rows,
            [
                ("read latency p50", "us", 2969600.0, 14),
                ("read latency p95", "us", 3608576.0, 14),
                ("read latency p99", "us", 3837952.0, 14),
                ("read latency max", "us", 5485097.0, 14),
                ("write latency p50", "us", 4504.0, 15),
                ("write latency p95", "us", 6488.0, 15),
                ("write latency p99", "us", 271872.0, 15),
                ("write latency max", "us", 479354.0, 15),
                ("allocation latency p50", "us", 0.0, 16),
                ("allocation latency p95", "us", 0.0, 16),
                ("allocation latency p99", "us", 0.0, 16),
                ("allocation latency max", "us", 0.0, 16),
                ("work rate", "/s", 41.01, 17),
                ("allocstall rate", "/s", 0.0, 18),
                ("nr_vmscan_write rate", "/s", 0.0, 19),
            ]
        );
        // The `cd` and simoop's command lines and the first report's six
        // lines, with reasons.
        assert_eq!(p.skipped.len(), 8, "{:?}", p.skipped);
        assert!(p.skipped[2].1.starts_with("an interim simoop report"));
    }

    #[test]
    fn two_runs_give_each_its_last_report() {
        let run = "Run time: 2 seconds\nRead latency usec: (p50: 10) (p95: 20) (p99: 30) (max: 40)\nwork rate = 5.00/sec (avg 5.00/sec) (p50: 5.00) (p95: 5.00) (p99: 5.00)\nRun time: 4 seconds\nRead latency usec: (p50: 11) (p95: 21) (p99: 31) (max: 41)\nwork rate = 6.00/sec (avg 5.50/sec) (p50: 6.00) (p95: 6.00) (p99: 6.00)\n";
        let text = format!("./simoop -t 2 -r 4 /mnt\n{run}./simoop -t 2 -r 4 /mnt\n{run}");
        let src = Source::from_text("two.txt", &text);
        assert_eq!(Simoop.detect(&src), 95);
        let p = Simoop.parse_accounted(&src).unwrap();
        let rates: Vec<(u32, f64)> = p
            .observations
            .iter()
            .filter(|o| o.metric == "work rate")
            .map(|o| (o.line, o.value))
            .collect();
        assert_eq!(rates, [(7, 5.5), (14, 5.5)]);
    }
}
