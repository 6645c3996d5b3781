//! stress-ng's metrics table on the terminal (`--metrics`, `--metrics-brief`):
//! `stress-ng: metrc: [PID] stressor  bogo ops real time …` then one row per
//! stressor (`info:` instead of `metrc:` before 0.14), and the
//! `miscellaneous metrics:` rows some stressors add
//! (`switch  2556.93 nanosecs per context switch (pipe method) …`; before
//! that header existed they stood among the table's rows: `memrate
//! 1656.82 write128 MB/sec (average per stressor)`), their unit split out
//! of the phrase (`names`).
//!
//! Benchmark `stress-ng <stressor>`, parameter `instances` from the
//! `dispatching hogs: 1 cpu, 1 vm` line. Metrics, each a `sample` of the
//! run: `bogo ops`, `real time`, `usr time`, `sys time` (s), `bogo ops/s`
//! (real time), `bogo ops/s usr+sys`, and with `--metrics` also
//! `cpu used per instance` (%) and `rss max` (KB). Several runs in one log
//! (a shell loop) give one run each. `--times` adds the CPU time of the
//! whole run (`available CPU time`, `user time`, `system time`, `total
//! time`, s): benchmark `stress-ng`, a parameter per dispatched stressor
//! giving its instances (`cpu=1,vm=1`), as it sums them all.
//!
//! Under a `<stressor>:` line, `--perf`'s counters and the `name value
//! unit` lines of `--rapl` and `--c-states` (`blocks`) are the stressor's.
//!
//! `--log-brief` prints the same lines without the `stress-ng: <level>:
//! [PID]` prefix: a file whose table header stands bare at the start of a
//! line is read line by line as it is, each line taken as a metrics line.

use super::{blocks, names};
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

/// Whether a line is the table's header as `--log-brief` prints it: bare,
/// at the start of the line.
fn bare_header(line: &str) -> bool {
    line.starts_with("stressor ") && line.contains("bogo ops")
}

/// Whether the file is a `--log-brief` log: its header has no prefix.
fn log_brief(src: &Source) -> bool {
    crate::ingest::shared::logscan::lines_containing(src, "bogo ops").any(bare_header)
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
        } else if log_brief(src) {
            // The header alone says stress-ng; its units line under it
            // (`(secs)`) is checked by the reader.
            90
        } else if has(src, "stress-ng: info:") && has(src, "dispatching hogs") {
            40
        } else if failure(src).is_some() {
            // A run that failed before its metrics: this reader says why.
            60
        } else {
            0
        }
    }

    /// Header, units, dispatch and completion lines are `consumed`; the
    /// load average after `--times`' block is `skipped`. `--perf`
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
        // Between `for a 2.00s run time:` and `load average:`: the --times
        // summary of the whole run.
        let mut times = false;
        // The stressor whose `--perf` counters follow, and a stressor's own
        // table with its column names.
        let mut perf_of: Option<String> = None;
        let mut own: Option<(String, String)> = None;
        let brief = log_brief(src);
        for l in &src.lines {
            let n = l.number;
            // `--log-brief` drops the level: every line is taken as a
            // metrics one, as the table's lines are.
            let Some((level, rest)) = body(&l.text).or(brief.then_some(("metrc", l.text.as_str())))
            else {
                continue;
            };
            let t = rest.trim();
            if let Some(hogs) = t.strip_prefix("dispatching hogs:") {
                times = false;
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
                times = false;
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
                if let Some((name, v, unit)) = blocks::named_value(t) {
                    let mut params = Params::default();
                    if let Some((_, k)) = instances.iter().find(|(s, _)| s == stressor) {
                        params.set("instances", k);
                    }
                    out.push(
                        Row::at(src, n)
                            .benchmark(&format!("stress-ng {stressor}"))
                            .params(&params.render())
                            .metric(&name)
                            .unit(&unit)
                            .sample(v),
                    );
                    continue;
                }
                perf_of = None;
            }
            if let Some((name @ "cyclic", rest)) = t.split_once(": ") {
                if let Some(stats) = blocks::cyclic_latency(rest) {
                    let mut params = Params::default();
                    if let Some((_, k)) = instances.iter().find(|(s, _)| s == name) {
                        params.set("instances", k);
                    }
                    if stats.is_empty() {
                        consumed.push(n);
                    }
                    for (metric, stat, v, unit) in stats {
                        out.push(
                            Row::at(src, n)
                                .benchmark("stress-ng cyclic")
                                .params(&params.render())
                                .metric(metric)
                                .unit(&unit)
                                .stat(stat, v),
                        );
                    }
                    continue;
                }
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
            let is_number = |w: &str| crate::ingest::shared::numbers::parse_number(w).is_some();
            // Under `miscellaneous metrics:`, or (before that header) a row
            // of the table whose value is followed by words.
            let misc_row = numbers.len() >= 2
                && is_number(numbers[0])
                && (misc || (in_table && !is_number(numbers[1])));
            if misc_row && !stressor.ends_with(':') {
                let v = num(src, n, numbers[0], "miscellaneous metric")?;
                let after = t[stressor.len()..].trim_start()[numbers[0].len()..].trim();
                let (metric, unit) = names::misc_metric(after);
                out.push(
                    Row::at(src, n)
                        .benchmark(&bench)
                        .params(&params.render())
                        .metric(&metric)
                        .unit(&unit)
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
            if times {
                if let Some((secs, what)) = blocks::cpu_time(t) {
                    let mut run = Params::default();
                    for (stressor, k) in &instances {
                        run.set(stressor, k);
                    }
                    out.push(
                        Row::at(src, n)
                            .benchmark("stress-ng")
                            .params(&run.render())
                            .metric(&what)
                            .unit("s")
                            .sample(secs),
                    );
                    continue;
                }
            }
            if t.starts_with("successful run completed")
                || t.starts_with("setting to a")
                || t.starts_with("for a ")
            {
                in_table = false;
                misc = false;
                times = t.starts_with("for a ");
                consumed.push(n);
            } else if (level == "info" || brief) && t.chars().any(|c| c.is_ascii_digit()) {
                let reason = if t.starts_with("load average:") {
                    "the system's load average (--times), not the run's result"
                } else if times {
                    "a line of the --times block that is no `Ns <what> time` line"
                } else if ["passed:", "failed:", "skipped:", "metrics untrustworthy:"]
                    .iter()
                    .any(|p| t.starts_with(p))
                {
                    "stress-ng's count of stressors passed, failed or skipped, not a result"
                } else if level == "info" {
                    "a stressor's message about its set-up or progress, not a metric"
                } else {
                    // A bare line of a `--log-brief` file that is none of
                    // stress-ng's own: another tool's output or a mail's
                    // prose, for the other readers.
                    continue;
                };
                if t.starts_with("load average:") {
                    times = false;
                }
                skipped.push((n, reason.into()));
            }
        }
        if out.is_empty() {
            if let Some((n, text)) = failure(src) {
                return Err(src.error(
                    Some(n),
                    format!("stress-ng failed and reported no metrics: `{text}`"),
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

/// The first `stress-ng: fail:` line, with its number: stress-ng's own
/// report of a run that went wrong.
fn failure(src: &Source) -> Option<(u32, &str)> {
    crate::ingest::shared::logscan::lines_containing(src, "stress-ng: fail:")
        .find(|l| l.trim_start().starts_with("stress-ng: fail:"))
        .and_then(|text| {
            src.lines
                .iter()
                .find(|l| l.text.as_str() == text)
                .map(|l| (l.number, text.trim()))
        })
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
    fn log_brief_lines_without_prefix_are_read_as_the_table() {
        let p = read("tests/data/harness/stress-ng/log-brief-cpu-switch-times.txt");
        assert_eq!(value(&p, "stress-ng cpu", "bogo ops"), vec![492.0]);
        assert_eq!(value(&p, "stress-ng switch", "rss max"), vec![2516.0]);
        assert_eq!(p.observations[0].params, "instances=1");
        let ns = value(&p, "stress-ng switch", "context switch pipe method");
        assert_eq!(ns, vec![5336.83]);
        assert_eq!(value(&p, "stress-ng", "total time"), vec![0.77]);
        // The load average alone is left out, with its reason.
        assert_eq!(p.skipped.len(), 1, "{:?}", p.skipped);
        assert_eq!(p.skipped[0].0, 14);
        let p = read("tests/data/harness/stress-ng/log-brief-metrics-cpu-vm.txt");
        assert_eq!(p.observations.len(), 16);
        assert_eq!(value(&p, "stress-ng vm", "bogo ops/s"), vec![4787.85]);
    }

    #[test]
    fn a_log_brief_run_leaves_other_tools_lines_to_other_readers() {
        // The log-brief run pasted after a shell's `time` lines: those are
        // no stressor's messages, and skipping them would hide them from
        // the readers that read them.
        let log =
            std::fs::read_to_string("tests/data/harness/stress-ng/log-brief-cpu-switch-times.txt")
                .unwrap();
        let text = format!("real\t0m1.05s\nuser\t0m0.36s\nsys\t0m0.41s\n\n{log}");
        let p = StressNg
            .parse_accounted(&Source::from_text("mail.txt", &text))
            .unwrap();
        assert_eq!(value(&p, "stress-ng cpu", "bogo ops"), vec![492.0]);
        assert!(p.skipped.iter().all(|(n, _)| *n > 4), "{:?}", p.skipped);
        assert_eq!(p.skipped.len(), 1, "{:?}", p.skipped);
    }

    #[test]
    fn miscellaneous_metrics_and_times_are_accounted() {
        let p = read("tests/data/harness/stress-ng/metrics-brief-pipe-times.txt");
        let rate = value(&p, "stress-ng pipe", "pipe write rate");
        assert_eq!(rate, vec![531.44]);
        assert_eq!(value(&p, "stress-ng", "system time"), vec![1.57]);
        // The load average alone is left out.
        assert_eq!(p.skipped.len(), 1, "{:?}", p.skipped);
        let p = read("tests/data/harness/stress-ng/metrics-yaml-run.txt");
        // The brackets go, as in the YAML key of the same metric.
        let ns = value(&p, "stress-ng switch", "context switch pipe method");
        assert_eq!(ns, vec![2556.93]);
    }

    #[test]
    fn rapl_power_and_c_state_residency_blocks_are_the_stressor_s() {
        let p = read("tests/data/harness/stress-ng/readme-rapl-matrix-3d.txt");
        assert_eq!(p.observations.len(), 5);
        assert_eq!(value(&p, "stress-ng matrix-3d", "pkg-0"), vec![8.2]);
        assert_eq!(value(&p, "stress-ng matrix-3d", "uncore"), vec![0.06]);
        assert_eq!(p.observations[0].unit, "W");
        assert_eq!(p.observations[0].params, "instances=8");
        let p = read("tests/data/harness/stress-ng/readme-c-states-intmath.txt");
        assert_eq!(p.observations.len(), 8);
        assert_eq!(value(&p, "stress-ng intmath", "C0"), vec![99.98]);
        assert_eq!(value(&p, "stress-ng intmath", "C1E"), vec![0.01]);
        assert!(p.observations.iter().all(|o| o.unit == "%"));
    }

    fn with_unit(p: &Parsed, bench: &str, metric: &str) -> Vec<(f64, String, String)> {
        p.observations
            .iter()
            .filter(|o| o.benchmark == bench && o.metric == metric)
            .map(|o| (o.value, o.unit.to_string(), o.params.to_string()))
            .collect()
    }

    fn one(v: f64, unit: &str, params: &str) -> Vec<(f64, String, String)> {
        vec![(v, unit.to_string(), params.to_string())]
    }

    #[test]
    fn the_unit_of_a_miscellaneous_metric_leaves_its_name() {
        let p = read("tests/data/harness/stress-ng/metrics-yaml-hdd-cache-run.txt");
        let hdd = "stress-ng hdd";
        assert_eq!(
            with_unit(&p, hdd, "read rate"),
            one(4930.99, "MB/s", "instances=1")
        );
        assert_eq!(
            with_unit(&p, hdd, "write rate"),
            one(546.34, "MB/s", "instances=1")
        );
        assert_eq!(
            with_unit(&p, hdd, "read/write combined rate"),
            one(983.69, "MB/s", "instances=1")
        );
        assert_eq!(
            with_unit(&p, "stress-ng cache", "cache ops"),
            one(252456755.69, "ops/s", "instances=1")
        );
        assert_eq!(p.observations.len(), 16 + 6);
        assert!(p.skipped.is_empty(), "{:?}", p.skipped);

        let p = read("tests/data/harness/stress-ng/loop-2runs-metrics-matrix-memrate.txt");
        let w = with_unit(&p, "stress-ng memrate", "write64stoq");
        assert_eq!(w.len(), 2);
        assert_eq!((w[0].0, w[0].1.as_str()), (14290.98, "MB/s"));
        assert_eq!((w[1].0, w[1].1.as_str()), (21368.23, "MB/s"));
        let add = with_unit(&p, "stress-ng matrix", "add matrix ops");
        assert_eq!((add[0].0, add[0].1.as_str()), (451131.53, "ops/s"));
        // `memrate: using buffer size of 4096K` is the stressor's own
        // message, not a --times summary.
        assert_eq!(p.skipped.len(), 2);
        assert!(p.skipped.iter().all(|(_, why)| why.contains("set-up")));

        let p = read("tests/data/harness/stress-ng/lkp-07-udp-flood.txt");
        let b = "stress-ng udp-flood";
        assert_eq!(
            with_unit(&p, b, "sendto rate"),
            one(0.04, "MB/s", "instances=128")
        );
        assert_eq!(
            with_unit(&p, b, "sendto calls"),
            one(1097.62, "calls/s", "instances=128")
        );
        assert_eq!(
            with_unit(&p, b, "sendto calls succeeded"),
            one(100.0, "%", "instances=128")
        );
    }

    #[test]
    fn old_per_stressor_rows_among_the_table_are_metrics() {
        let p = read("tests/data/harness/stress-ng/lkp-02-memrate-old-info.txt");
        let b = "stress-ng memrate";
        assert_eq!(with_unit(&p, b, "write128"), one(1656.82, "MB/s", ""));
        assert_eq!(with_unit(&p, b, "read128"), one(1754.68, "MB/s", ""));
        assert_eq!(with_unit(&p, b, "read8"), one(1078.30, "MB/s", ""));
        assert_eq!(value(&p, b, "bogo ops"), vec![3159.0]);
        assert_eq!(p.observations.len(), 6 + 10 + 4);
        // LKP kept no `dispatching hogs:` line to name the stressors by.
        assert_eq!(
            with_unit(&p, "stress-ng", "available CPU time"),
            one(5765.35, "s", "")
        );
        // Only the load average is left out, as such.
        assert_eq!(p.skipped.len(), 1, "{:?}", p.skipped);
        assert!(p.skipped.iter().all(|(_, why)| why.contains("--times")));
    }

    #[test]
    fn the_times_block_is_the_cpu_time_of_the_whole_run() {
        // `--times` after one stressor, and after two: their CPU time
        // together, named by the stressors it sums.
        let p = read("tests/data/harness/stress-ng/brief-cpu-times.txt");
        let got: Vec<_> = p
            .observations
            .iter()
            .filter(|o| o.benchmark == "stress-ng")
            .map(|o| {
                (
                    o.metric.as_str(),
                    o.value,
                    o.unit.as_str(),
                    o.params.as_str(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("available CPU time", 4.01, "s", "cpu=1"),
                ("user time", 1.90, "s", "cpu=1"),
                ("system time", 0.0, "s", "cpu=1"),
                ("total time", 1.90, "s", "cpu=1"),
            ]
        );
        assert_eq!(value(&p, "stress-ng cpu", "bogo ops"), vec![3065.0]);
        let p = read("tests/data/harness/stress-ng/brief-cpu-vm-times.txt");
        let total: Vec<_> = p
            .observations
            .iter()
            .filter(|o| o.benchmark == "stress-ng" && o.metric == "total time")
            .map(|o| (o.value, o.params.as_str()))
            .collect();
        assert_eq!(total, [(2.39, "cpu=1,vm=1")]);
        assert_eq!(p.skipped.len(), 1, "{:?}", p.skipped);
    }

    #[test]
    fn the_cyclic_stressor_s_latency_block_is_read() {
        let p = read("tests/data/harness/stress-ng/seq-scheduler-brief.txt");
        let stat = |s: crate::model::Stat| {
            p.observations
                .iter()
                .find(|o| o.benchmark == "stress-ng cyclic" && o.metric == "latency" && o.stat == s)
                .map(|o| (o.value, o.unit.to_string(), o.params.to_string()))
        };
        use crate::model::Stat;
        let ns = |v: f64| Some((v, "ns".to_string(), "instances=1".to_string()));
        assert_eq!(stat(Stat::Mean), ns(18648.37));
        assert_eq!(stat(Stat::Min), ns(8025.0));
        assert_eq!(stat(Stat::Max), ns(254589.0));
        assert_eq!(stat(Stat::Stddev), ns(7515.5));
        assert_eq!(stat(Stat::percentile(25.0)), ns(16416.0));
        assert_eq!(stat(Stat::percentile(95.4)), ns(25851.0));
        assert_eq!(stat(Stat::percentile(99.99)), ns(254589.0));
        assert_eq!(
            stat(Stat::N),
            Some((7994.0, String::new(), "instances=1".to_string()))
        );
        assert_eq!(value(&p, "stress-ng cyclic", "latency mode"), vec![16022.0]);
        assert_eq!(value(&p, "stress-ng cyclic", "bogo ops"), vec![7994.0]);
        assert!(
            p.skipped.iter().all(|(_, why)| !why.contains("--times")),
            "{:?}",
            p.skipped
        );
    }

    #[test]
    fn a_shell_loop_gives_one_row_per_run() {
        let p = read("tests/data/harness/stress-ng/loop-3runs-brief.txt");
        let ops = value(&p, "stress-ng cpu", "bogo ops/s");
        assert_eq!(ops.len(), 3);
    }
}
