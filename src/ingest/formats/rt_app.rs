//! rt-app's per-thread logs (`<workload>-<thread>-<n>.log`): under a
//! `#idx perf run period start end rel_st slack c_duration c_period
//! wu_lat` header, one row per activation of the thread, times in µs. A
//! file may hold several logs one after another, each under its
//! `./name.log` line (`find -name '*.log' -exec cat`, as LKP collects
//! them), after rt-app's own `[rt-app] <notice> …` lines.
//!
//! Benchmark `rt-app`, parameter `task` (the log's name without `.log`,
//! when a `./name.log` line gives it); per row, metrics `perf` (the loops
//! the activation ran), `run`, `period`, `slack` and `wu_lat` (µs), each a
//! `sample` of the activation, read by the header's column names. `idx`
//! is the thread's number, `start`, `end` and `rel_st` are timestamps,
//! `c_duration` and `c_period` the configured values: none is a result. A
//! log with a header and no row is accounted as such.

use crate::error::Result;
use crate::ingest::shared::lkp_wrapper;
use crate::ingest::shared::logscan::{any_with, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(HEADER, r"^#idx\s+perf\s+run\s+period\b");
lazy_re!(LOG_NAME, r"^(?:\./)?(?:.*/)?([^/\s]+)\.log\s*$");
lazy_re!(ROW, r"^\s*-?\d+(?:\s+-?\d+)+\s*$");

/// The columns that measure, with their units.
const MEASURED: [(&str, &str); 5] = [
    ("perf", ""),
    ("run", "us"),
    ("period", "us"),
    ("slack", "us"),
    ("wu_lat", "us"),
];

/// The rt-app log importer.
pub struct RtApp;

impl Format for RtApp {
    fn name(&self) -> &'static str {
        "rt-app"
    }

    fn description(&self) -> &'static str {
        "rt-app thread logs: rows under `#idx perf run period start end rel_st slack …`, by column name"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if any_with(src, "#idx", &HEADER) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let mut params = Params::default();
        // The measured columns of the header above: (position, metric, unit).
        let mut columns: Vec<(usize, &str, &str)> = Vec::new();
        let mut width = 0;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim_end());
            if HEADER.is_match(t) {
                let names: Vec<&str> = t.trim_start_matches('#').split_whitespace().collect();
                width = names.len();
                columns = MEASURED
                    .iter()
                    .filter_map(|(m, u)| Some((names.iter().position(|c| c == m)?, *m, *u)))
                    .collect();
                consumed.push(n);
            } else if !columns.is_empty() && ROW.is_match(t) {
                let cells: Vec<&str> = t.split_whitespace().collect();
                if cells.len() != width {
                    skipped.push((
                        n,
                        format!("{} cells under a header of {width}", cells.len()),
                    ));
                    continue;
                }
                for &(i, metric, unit) in &columns {
                    let v = num(src, n, cells[i], metric)?;
                    out.push(
                        Row::at(src, n)
                            .benchmark("rt-app")
                            .params(&params.render())
                            .metric(metric)
                            .unit(unit)
                            .sample(v),
                    );
                }
            } else if let Some(c) = LOG_NAME.captures(t) {
                params.set("task", &c[1]);
                columns.clear();
                consumed.push(n);
            } else if t.starts_with("[rt-app]") {
                consumed.push(n);
            } else if let Some(why) = lkp_wrapper::reason(t, "rt-app") {
                skipped.push((n, why.into()));
            } else if lkp_wrapper::is_logged_command(t) {
                skipped.push((n, "LKP wrapper: a command it runs around rt-app".into()));
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no row under rt-app's `#idx perf run period …` header",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    #[test]
    fn each_activation_of_each_task_by_column_name() {
        let p = parse_file(&RtApp, "tests/data/harness/rt-app/lkp-01-mp3-short.txt");
        let of = |task: &str, metric: &str| -> Vec<f64> {
            p.observations
                .iter()
                .filter(|o| o.params == format!("task={task}") && o.metric == metric)
                .map(|o| o.value)
                .collect()
        };
        let run = of("mp3-OMXCall-4", "run");
        assert_eq!(run.len(), 12);
        assert_eq!((run[0], run[11]), (321.0, 294.0));
        assert_eq!(of("mp3-OMXCall-4", "perf")[0], 9.0);
        let tick = of("mp3-AudioTick-0", "wu_lat");
        assert_eq!((tick.len(), tick[0], tick[9]), (10, 61.0, 53.0));
        assert_eq!(of("mp3-AudioTick-0", "slack")[1], 5933.0);
        assert_eq!(of("mp3-AudioTick-0", "period")[0], 617.0);
        let o = p.observations.iter().find(|o| o.metric == "slack").unwrap();
        assert_eq!((o.benchmark.as_str(), o.unit.as_str()), ("rt-app", "us"));
        // Both logged commands, with the reason.
        assert_eq!(p.skipped.len(), 2, "{:?}", p.skipped);
    }

    #[test]
    fn a_log_without_rows_gives_nothing_to_its_task() {
        let p = parse_file(&RtApp, "tests/data/harness/rt-app/lkp-02-web-cut.txt");
        let tasks: std::collections::BTreeSet<&str> =
            p.observations.iter().map(|o| o.params.as_str()).collect();
        assert_eq!(tasks.len(), 5);
        assert!(!tasks.contains("task=web-Event-Browser-6"));
        let display: Vec<(&str, f64)> = p
            .observations
            .iter()
            .filter(|o| o.params == "task=web-Display-8")
            .map(|o| (o.metric.as_str(), o.value))
            .collect();
        assert_eq!(
            display,
            [
                ("perf", 666.0),
                ("run", 26414.0),
                ("period", 64055.0),
                ("slack", 0.0),
                ("wu_lat", 0.0)
            ]
        );
    }
}
