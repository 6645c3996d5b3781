//! dbench and tbench (dbench 4): the closing `Throughput 327.011 MB/sec  2
//! clients  2 procs  max_latency=58.308 ms` line, and the operation table
//! above it (`NTCreateX  27520  0.017  28.417`: count, average and maximum
//! latency in ms).
//!
//! Benchmark `dbench` (`tbench` when the file name or a command line in
//! it says so: both print the dbench banner), parameters `clients` and `procs`; metrics
//! `throughput` (MB/s), `max latency` (ms), and per operation `<op> count`,
//! `<op> latency avg`, `<op> latency max`, each a `sample` of the run. The
//! per-second progress lines, and the commands an LKP log records around
//! the run (`2023-10-30 16:04:30 tbench -t 30 128 127.0.0.1`), are left
//! out with the reason.
//!
//! Older dbench and tbench (1.x to 3.x) print only `Throughput 41.8089
//! MB/sec 2 procs` (1.x: `Throughput 11.17 MB/sec (NB=13.97 MB/sec 111.7
//! MBit/sec)`), often pasted under a heading per kernel in a mail: each
//! line is a `sample` of `throughput` with its `procs`, the heading above
//! it (the nearest line that is not another result, a date, a prompt or
//! a poster's `Average:`) its variant. An average stated beside them
//! (`Average: 136.3` below, `2.4.0: average 10.95 MB/sec` above) is their
//! stated `mean`.

use crate::error::Result;
use crate::ingest::shared::lkp_wrapper;
use crate::ingest::shared::logscan::{any_with, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Stat;

lazy_re!(
    FAILED,
    r"^\s*(client \d+ failed to start|failed to connect to \S+)"
);
lazy_re!(
    THROUGHPUT,
    r"^Throughput ([\d.]+) MB/sec(?:\s+\([^)]*\))*\s+(\d+) clients\s+(\d+) procs\s+max_latency=([\d.]+) ms"
);
lazy_re!(
    OLD_THROUGHPUT,
    r"^\s*Throughput ([\d.]+) MB/sec(?:\s+\([^)]*\))*(?:\s+(\d+) procs)?\s*$"
);
lazy_re!(
    AVERAGE,
    r"(?i)^(?:(.*?):\s*)?average:?\s+([\d.]+)(?: MB/sec)?\s*$"
);
lazy_re!(
    NOT_A_HEADING,
    r"^(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \w{3} +\d+ |\d+ clients started|\[[^\]]*\][#$]|[#$] )"
);
lazy_re!(OLD_PROGRESS, r"^\d+\s+\d+\s+[\d.]+ MB/sec");
lazy_re!(OP, r"^ (\w+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s*$");
lazy_re!(PROGRESS, r"^\s+\d+\s+(\d+\s+[\d.]+ MB/sec|cleanup)");
// A command line running tbench (not its server, tbench_srv): the
// command word, after a log's timestamp or a prompt, not a word of prose.
lazy_re!(
    TBENCH_COMMAND,
    r"^\s*(?:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d |\S*[#$]\s*)?(?:\S*/)?tbench\s+(?:-\w|\d)"
);

/// The dbench/tbench importer.
pub struct Dbench;

impl Format for Dbench {
    fn name(&self) -> &'static str {
        "dbench"
    }

    fn description(&self) -> &'static str {
        "dbench/tbench: `Throughput N MB/sec  N clients  N procs  max_latency=N ms` and the operation table; older `Throughput N MB/sec N procs` lines under their headings"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if any_with(src, "MB/sec", &THROUGHPUT) {
            95
        } else if any_with(src, "Throughput", &OLD_THROUGHPUT) {
            90
        } else if crate::ingest::shared::logscan::has(src, "dbench version") {
            40
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let bench = if src.file_name().to_ascii_lowercase().contains("tbench")
            || any_with(src, "tbench", &TBENCH_COMMAND)
        {
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
        // The nearest heading above, and whether a result used it yet.
        let mut heading: Option<(u32, String)> = None;
        // A client that failed to start, in the run under way: its closing
        // line reports zeros, which measure nothing.
        let mut failed: Option<(u32, String)> = None;
        for l in &src.lines {
            let n = l.number;
            let t = l.text.trim_end();
            if t.starts_with("dbench version") {
                failed = None;
            }
            if lkp_wrapper::is_logged_command(t) {
                // LKP's log of the commands around the run (the server
                // started, the client found, the run itself, the kill).
                skipped.push((
                    n,
                    "LKP wrapper: a command it runs, behind a timestamp".into(),
                ));
                continue;
            }
            if FAILED.is_match(t) {
                failed.get_or_insert((n, t.trim().to_string()));
                consumed.push(n);
                continue;
            }
            if let Some(c) = OLD_THROUGHPUT.captures(t) {
                let mut p = Params::default();
                if let Some(procs) = c.get(2) {
                    p.set("procs", procs.as_str());
                }
                let tp = num(src, n, &c[1], "throughput")?;
                let mut o = Row::at(src, n)
                    .benchmark(bench)
                    .params(&p.render())
                    .metric("throughput")
                    .unit("MB/s")
                    .sample(tp);
                if let Some((line, h)) = &heading {
                    o.variant = h.as_str().into();
                    if consumed.last() != Some(line) {
                        consumed.push(*line);
                    }
                }
                out.push(o);
                continue;
            }
            if let Some(c) = AVERAGE.captures(t.trim()) {
                // `label: average N` opens the runs it averages; a bare
                // `Average: N` closes the runs above it.
                let label = c
                    .get(1)
                    .map(|m| m.as_str().trim())
                    .filter(|m| !m.is_empty());
                let (params, variant) = match label {
                    Some(label) => {
                        heading = Some((n, label.to_string()));
                        (String::new(), label.to_string())
                    }
                    None => match out.last() {
                        Some(o) => (o.params.to_string(), o.variant.to_string()),
                        None => (String::new(), String::new()),
                    },
                };
                let v = num(src, n, &c[2], "average")?;
                let mut o = Row::at(src, n)
                    .benchmark(bench)
                    .params(&params)
                    .metric("throughput")
                    .unit("MB/s")
                    .stat(Stat::Mean, v);
                o.variant = variant.as_str().into();
                out.push(o);
                continue;
            }
            let trimmed = t.trim();
            if OLD_PROGRESS.is_match(trimmed) {
                skipped.push((n, "progress of the running clients, not the result".into()));
                continue;
            }
            if NOT_A_HEADING.is_match(trimmed) {
                consumed.push(n);
                continue;
            }
            if crate::ingest::shared::text::is_heading(trimmed)
                && !THROUGHPUT.is_match(t)
                && !OP.is_match(t)
                && !PROGRESS.is_match(t)
                && !trimmed.starts_with("Running for")
                && !trimmed.starts_with("dbench version")
                && !trimmed.contains("processes prepared for launch")
            {
                heading = Some((n, trimmed.trim_end_matches(':').trim().to_string()));
                continue;
            }
            if let Some(c) = THROUGHPUT.captures(t) {
                if let Some((at, why)) = &failed {
                    ops.clear();
                    skipped.push((
                        n,
                        format!("no measurement: a client failed to start (line {at}: {why})"),
                    ));
                    continue;
                }
                let mut p = Params::default();
                p.set("clients", &c[2]);
                p.set("procs", &c[3]);
                let params = p.render();
                for (line, op, v) in ops.drain(..) {
                    for (metric, value) in ["count", "latency avg", "latency max"].iter().zip(v) {
                        let unit = if *metric == "count" { "" } else { "ms" };
                        let metric = format!("{op} {metric}");
                        out.push(
                            Row::at(src, line)
                                .benchmark(bench)
                                .params(&params)
                                .metric(&metric)
                                .unit(unit)
                                .sample(value),
                        );
                    }
                }
                let tp = num(src, n, &c[1], "throughput")?;
                out.push(
                    Row::at(src, n)
                        .benchmark(bench)
                        .params(&params)
                        .metric("throughput")
                        .unit("MB/s")
                        .sample(tp),
                );
                let lat = num(src, n, &c[4], "max_latency")?;
                out.push(
                    Row::at(src, n)
                        .benchmark(bench)
                        .params(&params)
                        .metric("max latency")
                        .unit("ms")
                        .sample(lat),
                );
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
        if out.is_empty() && failed.is_some() {
            // Nothing measured, and the accounting says why: an error here
            // would hand the log to the document reader, which makes
            // values of the closing line of zeros.
            return Ok(Parsed {
                observations: out,
                consumed,
                skipped,
                ..Parsed::default()
            });
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
    fn a_run_whose_client_failed_to_start_measures_nothing() {
        // tbench 4.00 with no server listening, its waiting lines cut.
        let src = Source::from_text(
            "tbench-failed.txt",
            "dbench version 4.00 - Copyright Andrew Tridgell 1999-2004\n\n\
             Running for 2 seconds with load '/usr/share/dbench/client.txt' and minimum warmup 0 secs\n\
             0 of 1 processes prepared for launch   0 sec\n\
             failed to connect to 127.0.0.1 - Connection refused\n\
             client 0 failed to start\n\
             -1 of 1 processes prepared for launch   0 sec\n\
             FAILED TO START 1 CLIENTS (started -1)\n\
             Throughput 0 MB/sec  1 clients  1 procs  max_latency=0.000 ms\n",
        );
        let p = Dbench.parse_accounted(&src).unwrap();
        assert!(p.observations.is_empty());
        let (line, why) = &p.skipped[0];
        assert_eq!(*line, 9);
        assert!(
            why.contains("line 5: failed to connect to 127.0.0.1"),
            "{why}"
        );
    }

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

#[cfg(test)]
mod lkp_logs {
    use super::*;
    use crate::ingest::parse_file;

    #[test]
    fn two_tbench_runs_give_each_its_throughput_and_max_latency() {
        let p = parse_file(
            &Dbench,
            "tests/data/harness/dbench/lkp-tbench-01-two-runs.txt",
        );
        let got: Vec<(&str, &str, &str, f64, u32)> = p
            .observations
            .iter()
            .filter(|o| o.metric == "throughput" || o.metric == "max latency")
            .map(|o| {
                (
                    o.benchmark.as_str(),
                    o.params.as_str(),
                    o.metric.as_str(),
                    o.value,
                    o.line,
                )
            })
            .collect();
        let c = "clients=128,procs=128";
        assert_eq!(
            got,
            [
                ("tbench", c, "throughput", 23775.4, 68),
                ("tbench", c, "max latency", 8.632, 68),
                ("tbench", c, "throughput", 20853.0, 132),
                ("tbench", c, "max latency", 8.158, 132),
            ]
        );
        // Each run's sixteen operations, three figures each.
        assert_eq!(p.observations.len(), 2 * (16 * 3 + 2));
        let wrapper: Vec<u32> = p
            .skipped
            .iter()
            .filter(|(_, why)| why.starts_with("LKP wrapper"))
            .map(|(n, _)| *n)
            .collect();
        assert_eq!(wrapper, [1, 3, 5, 69, 133]);
        // Named by its command line when the file name does not say.
        let text = std::fs::read_to_string("tests/data/harness/dbench/lkp-tbench-02.txt").unwrap();
        let p = Dbench
            .parse_accounted(&Source::from_text("02", &text))
            .unwrap();
        assert!(p.observations.iter().all(|o| o.benchmark == "tbench"));
        let lat = p
            .observations
            .iter()
            .find(|o| o.metric == "max latency")
            .unwrap();
        assert_eq!(
            (lat.value, lat.unit.as_str(), lat.params.as_str()),
            (0.47, "ms", "clients=32,procs=32")
        );
    }
}

#[cfg(test)]
mod old_versions {
    use super::*;

    #[test]
    fn old_throughput_lines_take_the_heading_above_as_variant() {
        let text = "w/o extents:\n[root@zefir root]# /root/db2.sh 2 16\nThroughput 119.199 MB/sec 16 procs\nThroughput 106.09 MB/sec 16 procs\nAverage: 112.64450\n\n\nwith extents:\n[root@zefir root]# /root/db2.sh 2 16\nThroughput 156.846 MB/sec 16 procs\n";
        let src = Source::from_text("mail.txt", text);
        assert!(Dbench.detect(&src) >= 90);
        let p = Dbench.parse_accounted(&src).unwrap();
        let got: Vec<(&str, &str, f64)> = p
            .observations
            .iter()
            .map(|o| (o.variant.as_str(), o.params.as_str(), o.value))
            .collect();
        assert_eq!(
            got,
            [
                ("w/o extents", "procs=16", 119.199),
                ("w/o extents", "procs=16", 106.09),
                ("w/o extents", "procs=16", 112.6445),
                ("with extents", "procs=16", 156.846)
            ]
        );
        let mean = p
            .observations
            .iter()
            .find(|o| o.stat == Stat::Mean)
            .unwrap();
        assert_eq!(
            (mean.variant.as_str(), mean.params.as_str(), mean.value),
            ("w/o extents", "procs=16", 112.6445)
        );
    }

    #[test]
    fn a_loop_log_and_the_netbench_form() {
        let text = "Tue Aug  3 04:27:03 GMT 2004\n2 clients started\n   0     62477  41.81 MB/secc\nThroughput 41.8089 MB/sec 2 procs\nTue Aug  3 04:27:21 GMT 2004\n2 clients started\nThroughput 9.35182 MB/sec 2 procs\n";
        let p = Dbench
            .parse_accounted(&Source::from_text("loop.txt", text))
            .unwrap();
        let got: Vec<(&str, f64)> = p
            .observations
            .iter()
            .map(|o| (o.variant.as_str(), o.value))
            .collect();
        assert_eq!(got, [("", 41.8089), ("", 9.35182)]);
        let text = "2.4.0-prerelease:     average 10.9536 MB/sec\n\nThroughput 11.1771 MB/sec (NB=13.9714 MB/sec  111.771 MBit/sec)\n";
        let p = Dbench
            .parse_accounted(&Source::from_text("nb.txt", text))
            .unwrap();
        let got: Vec<(&str, Stat, f64)> = p
            .observations
            .iter()
            .map(|o| (o.variant.as_str(), o.stat, o.value))
            .collect();
        assert_eq!(
            got,
            [
                ("2.4.0-prerelease", Stat::Mean, 10.9536),
                ("2.4.0-prerelease", Stat::Sample, 11.1771)
            ]
        );
    }
}

#[cfg(test)]
mod real_old_outputs {
    use super::*;
    use crate::ingest::parse_file;

    #[test]
    fn a_mail_of_three_process_counts_before_and_after() {
        let p = parse_file(
            &Dbench,
            "tests/data/harness/dbench/dbench3-mail-before-after.txt",
        );
        let count = |variant: &str, procs: &str| {
            p.observations
                .iter()
                .filter(|o| o.variant == variant && o.params == procs && o.stat == Stat::Sample)
                .count()
        };
        assert_eq!(p.observations.len(), 30);
        for procs in ["procs=8", "procs=16", "procs=32"] {
            assert_eq!(
                (count("before", procs), count("after", procs)),
                (4, 4),
                "{procs}"
            );
        }
        let first = &p.observations[0];
        assert_eq!((first.value, first.unit.as_str()), (150.215, "MB/s"));
    }

    #[test]
    fn flags_after_the_throughput_do_not_hide_it() {
        let p = parse_file(&Dbench, "tests/data/harness/dbench/dbench-sync-flags.txt");
        let tp = p
            .observations
            .iter()
            .find(|o| o.metric == "throughput")
            .unwrap();
        assert_eq!(
            (tp.value, tp.params.as_str()),
            (84.9019, "clients=1,procs=1")
        );
    }
}
