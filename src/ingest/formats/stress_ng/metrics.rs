//! stress-ng's metrics table on the terminal (`--metrics`, `--metrics-brief`):
//! `stress-ng: metrc: [PID] stressor  bogo ops real time …` then one row per
//! stressor (`info:` instead of `metrc:` before 0.14), and the
//! `miscellaneous metrics:` rows some stressors add
//! (`switch  2556.93 nanosecs per context switch (pipe method) …`).
//!
//! Benchmark `stress-ng <stressor>`, parameter `instances` from the
//! `dispatching hogs: 1 cpu, 1 vm` line. Metrics, each a `sample` of the
//! run: `bogo ops`, `real time`, `usr time`, `sys time` (s), `bogo ops/s`
//! (real time), `bogo ops/s usr+sys`, and with `--metrics` also
//! `cpu used per instance` (%) and `rss max` (KB). Several runs in one log
//! (a shell loop) give one run each.

use super::blocks;
use crate::error::Result;
use crate::ingest::shared::logscan::{has, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

/// The stress-ng metrics-table importer.
pub struct StressNg;

/// The columns of a metrics row, in order.
const COLUMNS: [(&str, &str); 8] = [
    ("bogo ops", ""),
    ("real time", "s"),
    ("usr time", "s"),
    ("sys time", "s"),
    ("bogo ops/s", "ops/s"),
    ("bogo ops/s usr+sys", "ops/s"),
    ("cpu used per instance", "%"),
    ("rss max", "KB"),
];

/// The text after `stress-ng: <level>: [PID] `, and whether the level is a
/// metrics one (`metrc`, or `info` for older versions).
fn body(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix("stress-ng: ")?;
    // `--timestamp` puts the time of day first: `05:16:45.51 metrc: …`.
    let rest = match rest.split_once(' ') {
        Some((time, after))
            if time.contains(':')
                && time
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b == b':' || b == b'.') =>
        {
            after
        }
        _ => rest,
    };
    let (level, rest) = rest.split_once(':')?;
    let rest = rest.trim_start().strip_prefix('[')?;
    let (_pid, rest) = rest.split_once("] ")?;
    Some((level.trim(), rest))
}

/// A miscellaneous metric's unit and name from the text after its number.
fn misc_metric(text: &str) -> (String, &'static str) {
    let text = text
        .split(" (geometic mean")
        .next()
        .unwrap_or(text)
        .split(" (harmonic mean")
        .next()
        .unwrap_or(text)
        .trim();
    for (prefix, unit) in [
        ("nanosecs per ", "ns"),
        ("microsecs per ", "us"),
        ("millisecs per ", "ms"),
        ("MB per sec ", "MB/s"),
    ] {
        if let Some(name) = text.strip_prefix(prefix) {
            return (name.to_string(), unit);
        }
    }
    (text.to_string(), "")
}

impl Format for StressNg {
    fn name(&self) -> &'static str {
        "stress-ng"
    }

    fn description(&self) -> &'static str {
        "stress-ng --metrics / --metrics-brief: `stress-ng: metrc: [PID] stressor  bogo ops …` tables"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let header = crate::ingest::shared::logscan::lines_containing(src, "] stressor ")
            .any(|l| l.starts_with("stress-ng: ") && l.contains("bogo ops"));
        if header {
            95
        } else if has(src, "stress-ng: info:") && has(src, "dispatching hogs") {
            40
        } else {
            0
        }
    }

    /// Header, units, dispatch and completion lines are `consumed`; the
    /// `--times` CPU-time lines and load average are `skipped`. `--perf`
    /// counters give `perf <event>` (a count) and `perf <event> rate` (/s)
    /// of their stressor; a stressor's own table (the hash stressor's) gives
    /// its columns, with the row's name as a parameter named by the
    /// header's first word.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut consumed = Vec::new();
        let mut skipped = Vec::new();
        let mut instances: Vec<(String, String)> = Vec::new();
        let mut in_table = false;
        let mut misc = false;
        // The stressor whose `--perf` counters follow, and a stressor's own
        // table with its column names.
        let mut perf_of: Option<String> = None;
        let mut own: Option<(String, String)> = None;
        for l in &src.lines {
            let n = l.number;
            let Some((level, rest)) = body(&l.text) else {
                continue;
            };
            let t = rest.trim();
            if let Some(hogs) = t.strip_prefix("dispatching hogs:") {
                instances = hogs
                    .split(',')
                    .filter_map(|h| {
                        let (k, name) = h.trim().split_once(' ')?;
                        Some((name.trim().to_string(), k.to_string()))
                    })
                    .collect();
                consumed.push(n);
                continue;
            }
            if t.starts_with("stressor ") && t.contains("bogo ops") {
                in_table = true;
                misc = false;
                consumed.push(n);
                continue;
            }
            if t.starts_with("(secs)") {
                consumed.push(n);
                continue;
            }
            if t == "miscellaneous metrics:" {
                misc = true;
                consumed.push(n);
                continue;
            }
            if !matches!(level, "metrc" | "info") || t.is_empty() {
                continue;
            }
            if let Some(name) = t.strip_suffix(':').filter(|n| !n.contains(' ')) {
                if instances.iter().any(|(s, _)| s == name) {
                    perf_of = Some(name.to_string());
                    consumed.push(n);
                    continue;
                }
            }
            if let Some(stressor) = &perf_of {
                if let Some((count, event, rate)) = blocks::perf_counter(t) {
                    let bench = format!("stress-ng {stressor}");
                    let mut params = Params::default();
                    if let Some((_, k)) = instances.iter().find(|(s, _)| s == stressor) {
                        params.set("instances", k);
                    }
                    for (metric, unit, v) in [
                        (event.clone(), "", count),
                        (format!("{event} rate"), "/s", rate),
                    ] {
                        out.push(
                            Row::at(src, n)
                                .benchmark(&bench)
                                .params(&params.render())
                                .metric(&format!("perf {metric}"))
                                .unit(unit)
                                .sample(v),
                        );
                    }
                    continue;
                }
                perf_of = None;
            }
            if let Some((name, rest)) = t.split_once(": ") {
                if instances.iter().any(|(s, _)| s == name) {
                    let rest = rest.trim();
                    let cells: Vec<&str> = rest.split_whitespace().collect();
                    let values = cells
                        .iter()
                        .skip(1)
                        .filter(|w| crate::ingest::shared::numbers::parse_number(w).is_some())
                        .count();
                    if !rest.bytes().any(|b| b.is_ascii_digit()) {
                        own = Some((name.to_string(), rest.to_string()));
                        consumed.push(n);
                        continue;
                    }
                    if let Some((_, header)) = own.as_ref().filter(|(s, _)| s == name) {
                        if values + 1 == cells.len() {
                            if let Some(columns) = blocks::own_columns(header, values) {
                                let method = header.split_whitespace().next().unwrap_or("row");
                                let mut params = Params::default();
                                params.set(method, cells[0]);
                                for (w, column) in cells[1..].iter().zip(&columns) {
                                    out.push(
                                        Row::at(src, n)
                                            .benchmark(&format!("stress-ng {name}"))
                                            .params(&params.render())
                                            .metric(column)
                                            .unit(&blocks::column_unit(column))
                                            .sample(num(src, n, w, column)?),
                                    );
                                }
                                continue;
                            }
                        }
                    }
                }
            }
            let mut words = t.split_whitespace();
            let Some(stressor) = words.next() else {
                continue;
            };
            let numbers: Vec<&str> = words.clone().collect();
            let mut params = Params::default();
            if let Some((_, k)) = instances.iter().find(|(s, _)| s == stressor) {
                params.set("instances", k);
            }
            let bench = format!("stress-ng {stressor}");
            if misc
                && numbers.len() >= 2
                && crate::ingest::shared::numbers::parse_number(numbers[0]).is_some()
            {
                let v = num(src, n, numbers[0], "miscellaneous metric")?;
                let after = t[stressor.len()..].trim_start()[numbers[0].len()..].trim();
                let (metric, unit) = misc_metric(after);
                out.push(
                    Row::at(src, n)
                        .benchmark(&bench)
                        .params(&params.render())
                        .metric(&metric)
                        .unit(unit)
                        .sample(v),
                );
                continue;
            }
            let all_numeric = numbers.len() >= 6
                && numbers.len() <= COLUMNS.len()
                && numbers
                    .iter()
                    .all(|w| crate::ingest::shared::numbers::parse_number(w).is_some());
            if in_table && !misc && all_numeric {
                for (w, (metric, unit)) in numbers.iter().zip(COLUMNS) {
                    let v = num(src, n, w, metric)?;
                    out.push(
                        Row::at(src, n)
                            .benchmark(&bench)
                            .params(&params.render())
                            .metric(metric)
                            .unit(unit)
                            .sample(v),
                    );
                }
                continue;
            }
            if t.starts_with("successful run completed")
                || t.starts_with("setting to a")
                || t.starts_with("for a ")
            {
                in_table = false;
                misc = false;
                consumed.push(n);
            } else if level == "info" && t.chars().any(|c| c.is_ascii_digit()) {
                skipped.push((
                    n,
                    "run-wide CPU time or load summary (--times), not a stressor's result".into(),
                ));
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no stress-ng metrics row found (run with --metrics or --metrics-brief)",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(path: &str) -> Parsed {
        crate::ingest::parse_file(&StressNg, path)
    }

    fn value(p: &Parsed, bench: &str, metric: &str) -> Vec<f64> {
        p.observations
            .iter()
            .filter(|o| o.benchmark == bench && o.metric == metric)
            .map(|o| o.value)
            .collect()
    }

    #[test]
    fn metrics_row_has_all_eight_columns() {
        let p = read("tests/data/harness/stress-ng/metrics-cpu.txt");
        assert_eq!(p.observations.len(), 8);
        assert_eq!(value(&p, "stress-ng cpu", "bogo ops/s"), vec![3306.81]);
        assert_eq!(
            value(&p, "stress-ng cpu", "bogo ops/s usr+sys"),
            vec![3578.41]
        );
        assert_eq!(value(&p, "stress-ng cpu", "rss max"), vec![3056.0]);
        assert_eq!(p.observations[0].params, "instances=1");
    }

    #[test]
    fn brief_rows_of_two_stressors_stay_apart() {
        let p = read("tests/data/harness/stress-ng/metrics-brief-cpu-vm.txt");
        assert_eq!(p.observations.len(), 12);
        assert_eq!(value(&p, "stress-ng vm", "bogo ops"), vec![73293.0]);
        assert_eq!(value(&p, "stress-ng cpu", "bogo ops/s"), vec![1154.36]);
    }

    #[test]
    fn miscellaneous_metrics_and_times_are_accounted() {
        let p = read("tests/data/harness/stress-ng/metrics-brief-pipe-times.txt");
        let rate = value(&p, "stress-ng pipe", "pipe write rate");
        assert_eq!(rate, vec![531.44]);
        assert_eq!(p.skipped.len(), 5, "{:?}", p.skipped);
        let p = read("tests/data/harness/stress-ng/metrics-yaml-run.txt");
        let ns = value(&p, "stress-ng switch", "context switch (pipe method)");
        assert_eq!(ns, vec![2556.93]);
    }

    #[test]
    fn a_shell_loop_gives_one_row_per_run() {
        let p = read("tests/data/harness/stress-ng/loop-3runs-brief.txt");
        let ops = value(&p, "stress-ng cpu", "bogo ops/s");
        assert_eq!(ops.len(), 3);
    }
}
