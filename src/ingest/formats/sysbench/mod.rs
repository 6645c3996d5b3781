//! sysbench run output (akopytov/sysbench 1.0.x, and the newer
//! `Throughput:` / `events/s (eps):` / `time elapsed:` spelling of master).
//!
//! The test is named from the output where it says (`Prime numbers limit` →
//! cpu, `memory speed test` → memory, `SQL statistics` → oltp, `File
//! operations` → fileio) and otherwise from the file name (`sysbench_mutex-…`),
//! because the threads and mutex tests print nothing that tells them apart.
//! Benchmark `sysbench <test>`; parameters `threads` and the test options
//! printed in the header (`max_prime`, `block_size`, `total_size`,
//! `operation`, `scope`).
//!
//! fileio prints its settings above the run (`Extra file open flags:
//! directio`, `2 files, 16MiB each`, `32MiB total file size`, `Block size
//! 16KiB`, `Doing random read test`): they are context, the test mode
//! (`mode=seqwr`, `seqrd`, `rndrd` …, as `--file-test-mode` names it),
//! `block_size`, `total_size`, `files` and any `extra_flags` parameters,
//! the other settings lines read past. `--rate`'s `Target transaction rate:
//! 300/sec` is the `rate` parameter.
//!
//! `--report-interval` lines (`[ 1s ] reads: …`, `[ 2s ] thds: 2 tps: …`,
//! 0.5's `[   2s] threads: 2, tps:`) are a time series inside the run, as
//! pgbench's `-P` progress lines are: each figure is a sample of its own
//! metric, the summary's name with `interval ` in front (`interval tps`,
//! `interval latency p95`), one run per interval, so that a series is
//! never pooled with the run's totals (see [`interval`]). `--histogram`'s
//! buckets are left out with the reason: the run's latency figures below
//! them are its result.
//!
//! sysbench 0.5 prints the run's latency as a `response time:` block under
//! `General statistics:` (`min: 10.49ms`, `approx.  99 percentile:
//! 17.73ms`), read as 1.0's `Latency (ms):` block is.
//!
//! Metrics, each a `sample` of the run: `events/s` (cpu), `operations/s` and
//! `bandwidth` (memory), `tps`/`qps`, the `read`/`write`/`other queries`
//! counts and `ignored errors`, `reconnects` (count and `/s`) (oltp; 0.5's
//! `read/write requests` and `other operations` likewise), `reads/s`, `writes/s`,
//! `fsyncs/s`, `read MiB/s`, `written MiB/s` (fileio), and for every test
//! `total time` (s), `events`, and the run's latency statistics `latency
//! min/avg/max/p95` (ms; the percentile follows `--percentile`).

use crate::error::Result;
use crate::ingest::shared::logscan::{any, any_with, last_line, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

mod interval;

lazy_re!(VERSION, r"^sysbench \d+\.\d+");
lazy_re!(
    SECTION,
    r"^(General statistics|Throughput|Latency \(ms\)|CPU speed|SQL statistics|OLTP test statistics|File operations|Threads fairness):\s*$"
);
lazy_re!(THREADS, r"^Number of threads: (\d+)");
lazy_re!(PRIME, r"^Prime numbers limit: (\d+)");
lazy_re!(
    MEM_OPT,
    r"^\s+(block size|total size|operation|scope): (\S+)"
);
lazy_re!(
    EPS,
    r"^\s*(?:events per second|events/s \(eps\)):\s+([\d.]+)"
);
lazy_re!(TOTAL_TIME, r"^\s*(?:total time|time elapsed):\s+([\d.]+)s");
lazy_re!(EVENTS, r"^\s*total number of events:\s+(\d+)");
lazy_re!(
    LAT,
    r"^\s*(min|avg|max|(\d+(?:\.\d+)?)th percentile|sum):\s+([\d.]+)"
);
// sysbench pads the rate to a field width: `( 9616.06 per second)`.
lazy_re!(
    MEM_OPS,
    r"^Total operations: (\d+) \(\s*([\d.]+) per second\)"
);
lazy_re!(MEM_BW, r"^([\d.]+) MiB transferred \(([\d.]+) MiB/sec\)");
// `transactions: 1959 (651.54 per sec.)`, `ignored errors: 9 (2.99 per
// sec.)`, 0.5's `read/write requests: 3279924 (2733.24 per sec.)`.
lazy_re!(
    OLTP,
    r"^\s+([a-z][a-z/ ]*):\s+(\d+)\s+\(\s*([\d.]+) per sec\.\)\s*$"
);
// The counts under `queries performed:`.
lazy_re!(QUERIES, r"^\s+(read|write|other|total):\s+(\d+)\s*$");
// `--histogram`'s rows: `0.402 |**********   18`.
lazy_re!(HISTOGRAM_ROW, r"^\s*[\d.]+ \|[* ]*\s\d+\s*$");
lazy_re!(RATE, r"^Target transaction rate: (\d+(?:\.\d+)?)/sec\s*$");
lazy_re!(
    FILEIO,
    r"^\s*(reads/s|writes/s|fsyncs/s|read, MiB/s|written, MiB/s):\s+([\d.]+)"
);

// fileio's settings banner.
lazy_re!(EXTRA_FLAGS, r"^Extra file open flags: (.+?)\s*$");
lazy_re!(FILES, r"^(\d+) files, \S+ each\s*$");
lazy_re!(TOTAL_SIZE, r"^(\S+) total file size\s*$");
lazy_re!(BLOCK_SIZE, r"^Block size (\S+)\s*$");
lazy_re!(MODE, r"^Doing (.+) test\s*$");
// Settings lines that are no parameter: read past as context.
lazy_re!(
    SETTINGS,
    r"^(?:Number of IO requests: \d+|Read/Write ratio for combined random IO test: [\d.]+|Periodic FSYNC enabled|Calling fsync\(\) at the end|Using (?:a?synchronous|mmap) I/O mode|Report intermediate results every \d+|Random number generator seed is \d+)"
);
// 0.5's latency block: `min: 10.49ms`, `approx.  99 percentile: 17.73ms`.
lazy_re!(
    RESPONSE,
    r"^\s*(min|avg|max|approx\.\s+(\d+(?:\.\d+)?) percentile):\s+([\d.]+)ms\s*$"
);

/// The sysbench importer.
pub struct Sysbench;

/// `--file-test-mode`'s name of the mode a `Doing … test` line names.
fn file_test_mode(doing: &str) -> String {
    match doing {
        "sequential write (creation)" => "seqwr",
        "sequential rewrite" => "seqrewr",
        "sequential read" => "seqrd",
        "random read" => "rndrd",
        "random write" => "rndwr",
        "random r/w" => "rndrw",
        other => other,
    }
    .to_string()
}

/// The test named by one run's output, if it says.
fn test_from_content(lines: &[crate::ingest::Line]) -> Option<&'static str> {
    for l in lines {
        let t = l.text.as_str();
        if t.starts_with("Prime numbers limit") || t.starts_with("CPU speed:") {
            return Some("cpu");
        }
        if t.contains("memory speed test") || t.starts_with("Total operations:") {
            return Some("memory");
        }
        if t.starts_with("SQL statistics:") || t.starts_with("OLTP test statistics:") {
            return Some("oltp");
        }
        if t.starts_with("File operations:") || t.contains("random r/w test") {
            return Some("fileio");
        }
    }
    None
}

/// The test named by the file (`sysbench_mutex-baseline-1.txt`).
fn test_from_file(name: &str) -> Option<&'static str> {
    let n = name.to_ascii_lowercase();
    ["mutex", "threads", "cpu", "memory", "fileio", "oltp"]
        .into_iter()
        .find(|t| n.contains(t))
}

impl Format for Sysbench {
    fn name(&self) -> &'static str {
        "sysbench"
    }

    fn description(&self) -> &'static str {
        "sysbench: `sysbench 1.0.20 …` banner + `General statistics:` (1.0) or `Throughput:` (newer)"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let sections = src.lines.iter().any(|l| {
            let t = l.text.trim_end();
            t == "General statistics:" || t == "Throughput:"
        });
        match (any_with(src, "sysbench ", &VERSION), sections) {
            (true, true) => 95,
            (false, true) if any(src, &TOTAL_TIME) => 70,
            (true, false) => 40,
            _ => 0,
        }
    }

    /// The version, section and option lines are `consumed`; the latency
    /// `sum` and the threads-fairness block are `skipped` with the reason.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut consumed = Vec::new();
        let mut skipped: Vec<(u32, String)> = Vec::new();
        let mut out = Vec::new();
        for block in runs(src) {
            self.parse_run(src, block, &mut out, &mut consumed, &mut skipped)?;
        }
        if out.is_empty() {
            return Err(src.error(
                last_line(src),
                "no sysbench result line found (truncated run?)",
            ));
        }
        let has_result = out.iter().any(|o| o.metric == "total time");
        if !has_result {
            return Err(src.error(
                last_line(src),
                "sysbench output has no `total time` (truncated run?)",
            ));
        }
        Ok(Parsed {
            observations: out,
            consumed,
            skipped,
            ..Parsed::default()
        })
    }
}

/// The runs of a log, each from its `sysbench 1.0.20 …` banner to the next
/// (a log of several tests, or a shell loop's runs, one after another).
fn runs(src: &Source) -> Vec<&[crate::ingest::Line]> {
    let mut starts: Vec<usize> = src
        .lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.text.starts_with("sysbench ") && VERSION.is_match(&l.text))
        .map(|(i, _)| i)
        .collect();
    if starts.first() != Some(&0) {
        starts.insert(0, 0);
    }
    let mut out = Vec::with_capacity(starts.len());
    for (k, &from) in starts.iter().enumerate() {
        let to = starts.get(k + 1).copied().unwrap_or(src.lines.len());
        out.push(&src.lines[from..to]);
    }
    out
}

impl Sysbench {
    /// Reads one run: its test, options and results, never mixed with
    /// another run's.
    fn parse_run(
        &self,
        src: &Source,
        lines: &[crate::ingest::Line],
        out: &mut Vec<crate::model::Observation>,
        consumed: &mut Vec<u32>,
        skipped: &mut Vec<(u32, String)>,
    ) -> Result<()> {
        let test = test_from_content(lines).or_else(|| test_from_file(src.file_name()));
        let bench = match test {
            Some(t) => format!("sysbench {t}"),
            None => "sysbench".to_string(),
        };
        let mut params = Params::default();
        let mut section = String::new();
        for l in lines {
            let t = l.text.trim_end();
            let n = l.number;
            if let Some(c) = SECTION.captures(t) {
                section = c[1].to_string();
                consumed.push(n);
                continue;
            }
            if t.trim().is_empty() {
                continue;
            }
            if VERSION.is_match(t) {
                consumed.push(n);
                continue;
            }
            if interval::is_interval(t) {
                let figures = interval::figures(t).map_err(|e| {
                    src.error(Some(n), format!("--report-interval line: {e}: `{t}`"))
                })?;
                for f in figures {
                    out.push(
                        Row::at(src, n)
                            .benchmark(&bench)
                            .params(&params.render())
                            .metric(&format!("interval {}", f.metric))
                            .unit(&f.unit)
                            .sample(f.value),
                    );
                }
                continue;
            }
            if t.starts_with("Latency histogram") {
                section = "histogram".into();
                consumed.push(n);
                continue;
            }
            if section == "histogram" {
                if t.trim_start().starts_with("value ") {
                    consumed.push(n);
                    continue;
                }
                if HISTOGRAM_ROW.is_match(t) {
                    let why = "a --histogram bucket (latency in ms, events): \
                               the run's latency figures are read from its summary";
                    skipped.push((n, why.into()));
                    continue;
                }
                section.clear();
            }
            if t.trim() == "queries performed:" {
                section = "queries performed".into();
                consumed.push(n);
                continue;
            }
            if section == "queries performed" {
                if let Some(c) = QUERIES.captures(t) {
                    if &c[1] == "total" {
                        let why = "the sum of the read, write and other counts";
                        skipped.push((n, why.into()));
                    } else {
                        let metric = format!("{} queries", &c[1]);
                        let v = num(src, n, &c[2], &metric)?;
                        out.push(
                            Row::at(src, n)
                                .benchmark(&bench)
                                .params(&params.render())
                                .metric(&metric)
                                .sample(v),
                        );
                    }
                    continue;
                }
                section = "SQL statistics".into();
            }
            if section == "General statistics" && t.trim() == "response time:" {
                section = "response time".into();
                consumed.push(n);
                continue;
            }
            if section == "response time" {
                if let Some(c) = RESPONSE.captures(t) {
                    let metric = match c.get(2) {
                        Some(p) => format!("latency p{}", p.as_str()),
                        None => format!("latency {}", &c[1]),
                    };
                    let v = num(src, n, &c[3], &metric)?;
                    out.push(
                        Row::at(src, n)
                            .benchmark(&bench)
                            .params(&params.render())
                            .metric(&metric)
                            .unit("ms")
                            .sample(v),
                    );
                    continue;
                }
                section.clear();
            }
            if t.trim_start()
                .starts_with("total time taken by event execution:")
            {
                let why = "sum of all event times over threads (threads × total time)";
                skipped.push((n, why.into()));
                continue;
            }
            if section == "Threads fairness" && t.starts_with(char::is_whitespace) {
                let why = "spread of work over threads (avg/stddev per thread), not a run result";
                skipped.push((n, why.into()));
                continue;
            }
            let mut push = |metric: &str, unit: &str, v: f64, params: &Params| {
                out.push(
                    Row::at(src, n)
                        .benchmark(&bench)
                        .params(&params.render())
                        .metric(metric)
                        .unit(unit)
                        .sample(v),
                );
            };
            if let Some(c) = THREADS.captures(t) {
                params.set("threads", &c[1]);
                consumed.push(n);
            } else if let Some(c) = RATE.captures(t) {
                params.set("rate", &c[1]);
                consumed.push(n);
            } else if let Some(c) = PRIME.captures(t) {
                params.set("max_prime", &c[1]);
                consumed.push(n);
            } else if let Some(c) = MEM_OPT.captures(t) {
                params.set(&c[1].replace(' ', "_"), &c[2]);
                consumed.push(n);
            } else if let Some(c) = EXTRA_FLAGS.captures(t) {
                if &c[1] != "(none)" && &c[1] != "0" {
                    params.set("extra_flags", &c[1]);
                }
                consumed.push(n);
            } else if let Some(c) = FILES.captures(t) {
                params.set("files", &c[1]);
                consumed.push(n);
            } else if let Some(c) = TOTAL_SIZE.captures(t) {
                params.set("total_size", &c[1]);
                consumed.push(n);
            } else if let Some(c) = BLOCK_SIZE.captures(t) {
                params.set("block_size", &c[1]);
                consumed.push(n);
            } else if let Some(c) = MODE.captures(t) {
                params.set("mode", file_test_mode(&c[1]));
                consumed.push(n);
            } else if SETTINGS.is_match(t) {
                consumed.push(n);
            } else if let Some(c) = EPS.captures(t) {
                push(
                    "events/s",
                    "events/s",
                    num(src, n, &c[1], "events per second")?,
                    &params,
                );
            } else if let Some(c) = TOTAL_TIME.captures(t) {
                push(
                    "total time",
                    "s",
                    num(src, n, &c[1], "total time")?,
                    &params,
                );
            } else if let Some(c) = EVENTS.captures(t) {
                push(
                    "events",
                    "",
                    num(src, n, &c[1], "total number of events")?,
                    &params,
                );
            } else if let Some(c) = MEM_OPS.captures(t) {
                push(
                    "operations/s",
                    "ops/s",
                    num(src, n, &c[2], "operations per second")?,
                    &params,
                );
            } else if let Some(c) = MEM_BW.captures(t) {
                push(
                    "bandwidth",
                    "MiB/s",
                    num(src, n, &c[2], "MiB/sec")?,
                    &params,
                );
            } else if let Some(c) = OLTP.captures(t) {
                let rate = num(src, n, &c[3], &c[1])?;
                match &c[1] {
                    // Their counts are the events and the total of the
                    // queries read above.
                    "transactions" => push("tps", "tps", rate, &params),
                    "queries" => push("qps", "qps", rate, &params),
                    label => {
                        push(label, "", num(src, n, &c[2], label)?, &params);
                        push(&format!("{label}/s"), "/s", rate, &params);
                    }
                }
            } else if let Some(c) = FILEIO.captures(t) {
                let (metric, unit) = match &c[1] {
                    "read, MiB/s" => ("read MiB/s", "MiB/s"),
                    "written, MiB/s" => ("written MiB/s", "MiB/s"),
                    other => (other, "ops/s"),
                };
                push(metric, unit, num(src, n, &c[2], metric)?, &params);
            } else if section == "Latency (ms)" {
                if let Some(c) = LAT.captures(t) {
                    let metric = match (&c[1], c.get(2)) {
                        (_, Some(p)) => format!("latency p{}", p.as_str()),
                        ("sum", _) => {
                            let why = "sum of all event latencies (avg × events)";
                            skipped.push((n, why.into()));
                            continue;
                        }
                        (s, _) => format!("latency {s}"),
                    };
                    push(&metric, "ms", num(src, n, &c[3], &metric)?, &params);
                } else if t.trim_start().starts_with("percentile stats:") {
                    // `--percentile=0` prints this in place of the percentile.
                    let why = "percentile turned off (--percentile=0)";
                    skipped.push((n, why.into()));
                } else if t.trim_start().split(':').count() > 1 {
                    // A latency key whose value is not a number.
                    return Err(src.error(
                        Some(n),
                        format!("unexpected line in the latency block: `{}`", t.trim()),
                    ));
                } else {
                    // Anything else (a histogram, other output) ends the block.
                    section.clear();
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(path: &str) -> Parsed {
        crate::ingest::parse_file(&Sysbench, path)
    }

    #[test]
    fn three_tests_in_one_log_are_three_series() {
        let p = read("tests/data/harness/sysbench/cpu-fileio-threads.txt");
        let benches: std::collections::BTreeSet<(&str, &str)> = p
            .observations
            .iter()
            .map(|o| (o.benchmark.as_str(), o.params.as_str()))
            .collect();
        assert_eq!(
            benches.into_iter().collect::<Vec<_>>(),
            vec![
                ("sysbench cpu", "max_prime=5000,threads=1"),
                (
                    "sysbench fileio",
                    "block_size=16KiB,files=4,mode=rndrw,threads=1,total_size=16MiB"
                ),
                ("sysbench threads", "threads=2"),
            ]
        );
        let total: Vec<(&str, f64)> = p
            .observations
            .iter()
            .filter(|o| o.metric == "total time")
            .map(|o| (o.benchmark.as_str(), o.value))
            .collect();
        assert_eq!(
            total,
            vec![
                ("sysbench cpu", 2.0002),
                ("sysbench fileio", 2.0120),
                ("sysbench threads", 2.0009)
            ]
        );
    }

    #[test]
    fn a_loop_over_thread_counts_keeps_each_run_apart() {
        let p = read("tests/data/harness/sysbench/cpu-loop-threads.txt");
        let eps: Vec<(&str, f64)> = p
            .observations
            .iter()
            .filter(|o| o.metric == "events/s")
            .map(|o| (o.params.as_str(), o.value))
            .collect();
        assert_eq!(eps.len(), 2);
        assert_eq!(eps[0].0, "max_prime=10000,threads=1");
        assert_eq!(eps[1].0, "max_prime=10000,threads=2");
    }

    #[test]
    fn padded_memory_rate_is_read() {
        // `Total operations: 20480 ( 9616.06 per second)`: the space inside
        // the parenthesis once left the rate unread.
        let p = read("tests/data/corpus/sysbench_memory-patched-1.txt");
        let ops = p
            .observations
            .iter()
            .find(|o| o.metric == "operations/s")
            .expect("operations/s read");
        assert_eq!((ops.line, ops.value), (18, 9616.06));
    }

    #[test]
    fn latency_sum_and_fairness_are_skipped_with_reasons() {
        let p = read("tests/data/corpus/sysbench_cpu-baseline-1.txt");
        let lines: Vec<u32> = p.skipped.iter().map(|(l, _)| *l).collect();
        assert_eq!(lines, vec![26, 29, 30]);
        assert!(p.skipped[0].1.contains("sum of all event latencies"));
        assert!(p.skipped[1].1.contains("threads"));
        // Version, `Number of threads`, section and option lines are context.
        for l in [1, 4, 8, 21] {
            assert!(p.consumed.contains(&l), "line {l} not consumed");
        }
    }

    fn rows(p: &Parsed) -> Vec<(u32, &str, &str, f64)> {
        p.observations
            .iter()
            .map(|o| (o.line, o.params.as_str(), o.metric.as_str(), o.value))
            .collect()
    }

    #[test]
    fn fileio_settings_are_parameters_and_intervals_are_a_series() {
        let p = read("tests/data/harness/sysbench/fileio-rndrd-direct-t2-interval.txt");
        let params =
            "block_size=16KiB,extra_flags=directio,files=2,mode=rndrd,threads=2,total_size=32MiB";
        let got = rows(&p);
        assert!(got.iter().all(|r| r.1 == params), "{got:?}");
        // `[ 1s ] reads: 356.07 MiB/s writes: 0.00 MiB/s fsyncs: 0.00/s
        // latency (ms,95%): 0.139` and `[ 2s ] …`.
        let units: Vec<(u32, &str, &str, f64)> = p
            .observations
            .iter()
            .take(8)
            .map(|o| (o.line, o.metric.as_str(), o.unit.as_str(), o.value))
            .collect();
        assert_eq!(
            units,
            [
                (23, "interval read MiB/s", "MiB/s", 356.07),
                (23, "interval written MiB/s", "MiB/s", 0.0),
                (23, "interval fsyncs/s", "ops/s", 0.0),
                (23, "interval latency p95", "ms", 0.139),
                (24, "interval read MiB/s", "MiB/s", 324.78),
                (24, "interval written MiB/s", "MiB/s", 0.0),
                (24, "interval fsyncs/s", "ops/s", 0.0),
                (24, "interval latency p95", "ms", 0.189),
            ]
        );
        let got = &got[8..];
        assert_eq!(got[0], (27, params, "reads/s", 21755.61));
        assert_eq!(got[3], (32, params, "read MiB/s", 339.93));
        assert_eq!(got[10], (43, params, "latency p95", 0.17));
        assert_eq!(got.len(), 11);
        // The banner is context: flags, files, sizes, settings, mode.
        for l in [5, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18] {
            assert!(p.consumed.contains(&l), "line {l} not consumed");
        }
        // Sequential write and read runs differ by their mode.
        let wr = read("tests/data/harness/sysbench/fileio-seqwr.txt");
        assert_eq!(
            rows(&wr)[1],
            (
                23,
                "block_size=16KiB,files=2,mode=seqwr,threads=1,total_size=32MiB",
                "writes/s",
                48338.77
            )
        );
        let rd = read("tests/data/harness/sysbench/fileio-seqrd.txt");
        assert!(rows(&rd).iter().all(|r| r.1.contains("mode=seqrd")));
    }

    #[test]
    fn sysbench_0_5_response_time_block() {
        let p = read("tests/data/harness/sysbench/v05-oltp-pkb-trimmed.txt");
        let got: Vec<(u32, &str, f64)> = rows(&p).into_iter().map(|r| (r.0, r.2, r.3)).collect();
        // `[   2s] threads: 2, tps: 144.13, reads: 2030.88, writes: 577.53,
        // response time: 17.52ms (99%), errors: 0.00, reconnects:  0.00`.
        assert_eq!(
            got[..6],
            [
                (13, "interval tps", 144.13),
                (13, "interval read qps", 2030.88),
                (13, "interval write qps", 577.53),
                (13, "interval latency p99", 17.52),
                (13, "interval ignored errors/s", 0.0),
                (13, "interval reconnects/s", 0.0),
            ]
        );
        assert_eq!(got[12], (15, "interval tps", 147.98));
        assert_eq!(
            got[18..],
            [
                (18, "read queries", 2551052.0),
                (19, "write queries", 728872.0),
                (20, "other queries", 364436.0),
                (22, "tps", 151.85),
                (23, "read/write requests", 3279924.0),
                (23, "read/write requests/s", 2733.24),
                (24, "other operations", 364436.0),
                (24, "other operations/s", 303.69),
                (25, "ignored errors", 0.0),
                (25, "ignored errors/s", 0.0),
                (26, "reconnects", 0.0),
                (26, "reconnects/s", 0.0),
                (29, "total time", 1200.0136),
                (30, "events", 182218.0),
                (33, "latency min", 10.49),
                (34, "latency avg", 13.17),
                (35, "latency max", 210.53),
                (36, "latency p99", 17.73),
            ]
        );
        assert!(p
            .observations
            .iter()
            .all(|o| o.benchmark == "sysbench oltp" && o.params == "threads=2"));
        assert!(p.skipped_reason(21).starts_with("the sum of the read"));
        assert!(p.skipped_reason(31).starts_with("sum of all event times"));
    }
}
