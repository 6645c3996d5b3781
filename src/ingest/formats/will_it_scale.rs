//! will-it-scale, both outputs:
//! - `runtest.py` CSV: header `tasks,processes,processes_idle,threads,
//!   threads_idle,linear`, one row per task count. `processes` / `threads`
//!   are total operations per second over all tasks: metrics `processes` and
//!   `threads` (ops/s) per `tasks=N`, plus the per-task figures
//!   `per_process_ops` / `per_thread_ops` that 0-day reports quote. The
//!   `tasks=0` row is the idle reference and a 0 means that mode was not run:
//!   neither is a measurement.
//! - one test binary: `testcase:<desc>`, per-second `min:… max:… total:…`
//!   lines after `measurement`, and `average:N`: metric `ops/s` (the
//!   average), and the per-second totals as `interval ops/s` samples.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(TESTCASE, r"^testcase:(.*)$");
lazy_re!(INTERVAL, r"^min:(\d+) max:(\d+) total:(\d+)\s*$");
lazy_re!(AVERAGE, r"^average:(\d+)\s*$");

const HEADER: &str = "tasks,processes,processes_idle,threads,threads_idle,linear";

/// The will-it-scale importer.
pub struct WillItScale;

impl Format for WillItScale {
    fn name(&self) -> &'static str {
        "will-it-scale"
    }

    fn description(&self) -> &'static str {
        "will-it-scale: runtest.py CSV `tasks,processes,processes_idle,threads,threads_idle,linear`, \
         or a test binary's `testcase:` + `min:… max:… total:…` + `average:`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let texts = || src.lines.iter().map(|l| l.text.trim());
        // A line that is the header, or starts with `testcase:` once
        // trimmed, holds that text: text without it has no such line.
        let holds = |literal| crate::ingest::shared::logscan::has(src, literal);
        if holds(HEADER) && texts().any(|t| t == HEADER) {
            return 95;
        }
        // The literals gate the regexes, compiled only for input with them.
        let testcase = holds("testcase:")
            && texts().any(|t| t.starts_with("testcase:") && TESTCASE.is_match(t));
        if !testcase {
            return 0;
        }
        let interval = texts().any(is_interval_line);
        if testcase && interval {
            90
        } else {
            0
        }
    }

    /// Warm-up intervals and the `tasks = 0` idle row of the CSV are
    /// `skipped` with the reason.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut skipped = Vec::new();
        let mut out = Vec::new();
        let mut csv = false;
        let mut testcase = String::from("will-it-scale");
        let mut measuring = false;
        let mut open: Option<Open> = None;
        for l in &src.lines {
            let t = l.text.trim();
            let n = l.number;
            if t == HEADER {
                csv = true;
                continue;
            }
            if csv {
                if t.is_empty() {
                    continue;
                }
                let f: Vec<&str> = t.split(',').collect();
                if f.len() != 6 {
                    return Err(src.error(
                        Some(n),
                        format!("will-it-scale row has {} fields, expected 6", f.len()),
                    ));
                }
                let tasks = num(src, n, f[0], "tasks")?;
                let processes = num(src, n, f[1], "processes")?;
                let threads = num(src, n, f[3], "threads")?;
                if tasks <= 0.0 {
                    let why = "tasks = 0: the idle reference row, no load ran";
                    skipped.push((n, why.to_string()));
                    continue;
                }
                let mut p = Params::default();
                p.set("tasks", f[0]);
                let params = p.render();
                let mut failed = Vec::new();
                for (metric, per, v) in [
                    ("processes", "per_process_ops", processes),
                    ("threads", "per_thread_ops", threads),
                ] {
                    // runtest.py starts each average at -1 and keeps it
                    // when the test binary printed no `average:` line.
                    if v < 0.0 {
                        failed.push(metric);
                    }
                    if v > 0.0 {
                        out.push(
                            Row::at(src, n)
                                .benchmark(&testcase)
                                .params(&params)
                                .metric(metric)
                                .unit("ops/s")
                                .sample(v),
                        );
                        out.push(
                            Row::at(src, n)
                                .benchmark(&testcase)
                                .params(&params)
                                .metric(per)
                                .unit("ops/s")
                                .sample(v / tasks),
                        );
                    }
                }
                if !failed.is_empty() {
                    let why = format!(
                        "tasks = {}: the {} run failed (runtest.py writes -1 when the test \
                         printed no `average:` line)",
                        f[0].trim(),
                        failed.join(" and ")
                    );
                    skipped.push((n, why));
                }
                continue;
            }
            if let Some(c) = TESTCASE.captures(t) {
                unfinished(&mut open, &mut skipped);
                testcase = format!("will-it-scale {}", c[1].trim());
                open = Some(Open::at(n, &testcase));
                measuring = false;
            } else if t == "measurement" {
                measuring = true;
            } else if t == "warmup" {
                measuring = false;
            } else if let Some(c) = INTERVAL.captures(t) {
                if let Some(o) = open.as_mut() {
                    o.intervals += 1;
                    o.measured += u32::from(measuring);
                }
                if !measuring {
                    skipped.push((n, "warm-up interval, not measured".to_string()));
                } else {
                    let v = num(src, n, &c[3], "total")?;
                    out.push(
                        Row::at(src, n)
                            .benchmark(&testcase)
                            .metric("interval ops/s")
                            .unit("ops/s")
                            .sample(v),
                    );
                }
            } else if let Some(c) = AVERAGE.captures(t) {
                open = None;
                let v = num(src, n, &c[1], "average")?;
                out.push(
                    Row::at(src, n)
                        .benchmark(&testcase)
                        .metric("ops/s")
                        .unit("ops/s")
                        .sample(v),
                );
            }
        }
        unfinished(&mut open, &mut skipped);
        // A run that failed before its measurement is the whole story of
        // a file without values: the error says which test it was.
        if out.is_empty() {
            if let Some((n, why)) = skipped.iter().rev().find(|(_, why)| why.contains(ENDED)) {
                return Err(src.error(Some(*n), why.clone()));
            }
        }
        Parsed::found(
            src,
            out,
            Vec::new(),
            skipped,
            "no will-it-scale measurement found",
        )
    }
}

/// What the account of a run without its `average:` line says.
const ENDED: &str = "ended without its `average:` line";

/// A test binary's run read so far: its `testcase:` line and intervals.
struct Open {
    line: u32,
    testcase: String,
    intervals: u32,
    measured: u32,
}

impl Open {
    fn at(line: u32, testcase: &str) -> Open {
        Open {
            line,
            testcase: testcase.to_string(),
            intervals: 0,
            measured: 0,
        }
    }
}

/// Accounts for a run whose `average:` line never came (the test failed
/// or was stopped): on its `testcase:` line, with what it did print. Its
/// measured intervals, if any, stay values.
fn unfinished(open: &mut Option<Open>, skipped: &mut Vec<(u32, String)>) {
    if let Some(o) = open.take() {
        let why = format!(
            "{}: the run {ENDED} (it failed or was stopped after {} interval(s), {} measured)",
            o.testcase, o.intervals, o.measured
        );
        skipped.push((o.line, why));
    }
}

/// Whether the trimmed line `t` is a `min:` or `average:` interval line.
fn is_interval_line(t: &str) -> bool {
    (t.starts_with("min:") && INTERVAL.is_match(t))
        || (t.starts_with("average:") && AVERAGE.is_match(t))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Detection as it was before the joined-text search: every line.
    fn detect_by_line(src: &Source) -> Confidence {
        let texts = || src.lines.iter().map(|l| l.text.trim());
        if texts().any(|t| t == HEADER) {
            return 95;
        }
        let testcase = texts().any(|t| t.starts_with("testcase:") && TESTCASE.is_match(t));
        if !testcase {
            return 0;
        }
        let interval = texts().any(is_interval_line);
        if testcase && interval {
            90
        } else {
            0
        }
    }

    #[test]
    fn detection_gives_the_score_the_line_search_gives() {
        assert!(crate::ingest::assert_detection_agrees(&WillItScale, detect_by_line) > 0);
    }

    #[test]
    fn warm_up_intervals_are_skipped_with_their_reason() {
        let path = "tests/data/logs/will_it_scale_binary-constructed.txt";
        let p = crate::ingest::parse_file(&WillItScale, path);
        let lines: Vec<u32> = p.skipped.iter().map(|(l, _)| *l).collect();
        assert_eq!(lines, vec![3, 4]);
        assert!(p.skipped.iter().all(|(_, why)| why.starts_with("warm-up")));
        // The measured intervals and the average are values.
        let read: Vec<u32> = p.observations.iter().map(|o| o.line).collect();
        assert_eq!(read, vec![6, 7, 8, 9]);
    }

    #[test]
    fn a_run_that_stops_before_its_average_is_accounted_by_name() {
        let path = "tests/data/logs/will_it_scale_binary_failed-constructed.txt";
        let p = crate::ingest::parse_file(&WillItScale, path);
        let ended: Vec<&(u32, String)> = p
            .skipped
            .iter()
            .filter(|(_, w)| w.contains(ENDED))
            .collect();
        assert_eq!(ended.len(), 1);
        let (line, why) = ended[0];
        assert_eq!(*line, 1);
        // Its three warm-up intervals and the next test's six.
        assert_eq!(p.skipped.len(), 1 + 3 + 6);
        assert!(why.starts_with("will-it-scale Separate file open/close: the run ended"));
        assert!(why.contains("after 3 interval(s), 0 measured"), "{why}");
        // The next test's run is read whole.
        let read: Vec<(u32, f64)> = p.observations.iter().map(|o| (o.line, o.value)).collect();
        assert_eq!(read, vec![(15, 197317.0), (16, 197396.0), (17, 197356.0)]);
        assert!(p
            .observations
            .iter()
            .all(|o| o.benchmark == "will-it-scale Context switch via pipes"));
        // A log of the failed run alone is an error naming it.
        let text = std::fs::read_to_string(path).unwrap();
        let alone: Vec<&str> = text.lines().take(5).collect();
        let src = crate::ingest::testing::source_of_lines(&alone);
        let e = WillItScale.parse_accounted(&src).unwrap_err().to_string();
        assert!(
            e.contains("1") && e.contains("Separate file open/close: the run ended"),
            "{e}"
        );
    }

    #[test]
    fn a_failed_mode_of_runtest_py_is_accounted_not_dropped() {
        let path = "tests/data/logs/will_it_scale_failed-constructed.csv";
        let p = crate::ingest::parse_file(&WillItScale, path);
        let why: Vec<(u32, &str)> = p.skipped.iter().map(|(n, w)| (*n, w.as_str())).collect();
        assert_eq!(why[0].0, 2);
        assert_eq!(why[1].0, 3);
        assert!(why[1]
            .1
            .starts_with("tasks = 1: the processes and threads run failed"));
        assert_eq!(why[2].0, 4);
        assert!(why[2].1.starts_with("tasks = 2: the threads run failed"));
        let read: Vec<(&str, f64)> = p
            .observations
            .iter()
            .map(|o| (o.metric.as_str(), o.value))
            .collect();
        assert_eq!(
            read,
            vec![("processes", 401233.0), ("per_process_ops", 200616.5)]
        );
    }
}
