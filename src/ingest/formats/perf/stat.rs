//! `perf stat` default text output (written on stderr).
//!
//! With `-r N` every counter value is the mean of N runs and its `( +- x% )`
//! is the relative standard error of that mean (perf's `stddev_stats()`), so a
//! counter gives `mean`, `stderr`, `stddev` (= stderr·√N) and `n` = N. perf
//! omits the `+-` when it is zero. Without `-r` a value is one measurement: a
//! `sample`. With `--table` the per-run wall times are printed too: each is a
//! `sample` of `time elapsed`, beside the stated mean, SEM and n. The `# …`
//! shadow metrics are derived ratios and are not read.
//! `<not supported>` / `<not counted>` counters are missing values, not
//! zeros: they produce no row and are listed as skipped lines with the
//! reason, so that `ingest` shows which counters the machine lacked.
//!
//! The benchmark is the measured command (`perf stat` when the header is
//! missing); each counter is a metric named after its event. With `-I` each
//! timestamped line is one interval's count: a `sample` of that event.
//! `--per-thread` puts each thread's `comm-tid` before its counters:
//! parameter `thread`, as perf prints it, as `-A` gives `cpu`.
//! `-I` with `--summary` ends with the usual block of the whole run: its
//! counters are the totals of the intervals read, left out with the
//! reason; its elapsed, user and system times are read.

use crate::error::Result;
use crate::ingest::shared::logscan::{
    any, any_with, drop_derived_sd, has, last_line, lazy_re, mean_with_sem, num,
};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(
    HEADER,
    r"^\s*Performance counter stats for (?:'(.*)'|(.*?))(?: \((\d+) runs\))?:\s*$"
);
lazy_re!(NOISE, r"\(\s*\+-\s*([\d.]+)%\s*\)");
// perf 3.x printed the share in square brackets: `[100.00%]`.
lazy_re!(MULTIPLEXED, r"\(\s*[\d.]+%\s*\)|\[\s*[\d.]+%\s*\]");
// perf of 2009 set the figure apart by two spaces (`300.431591843
// seconds time elapsed`), later ones by one.
lazy_re!(
    ELAPSED,
    r"^\s*([\d.,]+)(?:\s+\+-\s+([\d.,]+))?\s+seconds time elapsed"
);
// `--null --repeat N` counts nothing but the wall time: its elapsed line
// with the spread of the runs is perf's alone.
lazy_re!(
    ELAPSED_SPREAD,
    r"^\s*[\d.,]+(?:\s+\+-\s+[\d.,]+)?\s+seconds time elapsed\s+\(\s*\+-\s*[\d.]+%\s*\)\s*$"
);
lazy_re!(USER_SYS, r"^\s*([\d.,]+) seconds (user|sys)\s*$");
lazy_re!(NOT_COUNTED, r"^\s*<not (?:supported|counted)>\s+(\S+)");
lazy_re!(VALUE, r"^\s*(\d[\d.,]*)\s+(.*)$");
// `--table`: one wall time per run, with its deviation from the mean.
lazy_re!(TABLE_ROW, r"^\s*(\d[\d.,]*) \(\s*[+-]?[\d.,]+\)\s*#*\s*$");
// `-I` with `-A`/`--per-core` … adds the aggregation's columns.
lazy_re!(
    INTERVAL_HEADER,
    r"^#\s+time\s+(?:(?:cpu|CPU|core|die|socket|node)\s+(?:cpus\s+)?)?counts\s+unit\s+events"
);
// `-A` (`CPU0`), `--per-core` (`S0-D0-C0`, then the CPU count),
// `--per-die`, `--per-socket`, `--per-node`: the counter's aggregation.
lazy_re!(
    AGGREGATE,
    r"^\s*(CPU\d+|S\d+-D\d+-C\d+|S\d+-D\d+|S\d+|N\d+)\s+(?:\d+\s+)?(\d.*|<not .*)$"
);
// An interval's time, then a value, a missing marker or an aggregation:
// a summary line (`1.25 msec task-clock`) has a unit after its number.
// `--per-thread`: the thread as `comm-tid` (the name may hold spaces,
// `/` and `:`: `kworker/1:1-events-23039`) before the counter.
lazy_re!(THREAD, r"^\s*(\S(?:.*?\S)?-\d+)\s+(\d.*|<not .*)$");
lazy_re!(TIMESTAMP, r"^\s*\d+\.\d+\s+((?:\d|<|CPU\d|S\d|N\d).*)$");

/// The `perf stat` text importer.
pub struct PerfStat;

/// The unit perf prints before an event, normalised (`msec` → `ms`); empty
/// for plain counts.
pub(crate) fn event_unit(raw: &str) -> String {
    match raw.trim() {
        "msec" => "ms".into(),
        "" => String::new(),
        u => crate::model::Unit::normalize_spelling(u).to_string(),
    }
}

impl Format for PerfStat {
    fn name(&self) -> &'static str {
        "perf-stat"
    }

    fn description(&self) -> &'static str {
        "perf stat text: ` Performance counter stats for '<cmd>' (N runs):` then one line per \
         counter, `( +- x% )` = relative SEM"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if any_with(src, "Performance counter stats for ", &HEADER) {
            95
        } else if any_with(src, "events", &INTERVAL_HEADER) {
            85
        } else if (has(src, "task-clock") && any_with(src, " seconds time elapsed", &ELAPSED))
            || any_with(src, " seconds time elapsed", &ELAPSED_SPREAD)
        {
            70
        } else {
            0
        }
    }

    /// The header is `consumed`; `<not supported>`/`<not counted>` counters
    /// are `skipped` with that reason.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut consumed = Vec::new();
        let mut skipped = Vec::new();
        let mut bench = String::from("perf stat");
        let mut runs: Option<usize> = None;
        // `-I` prefixes every counter line with a timestamp: each line is
        // then one interval's count, a sample of a time series.
        let interval = any(src, &INTERVAL_HEADER);
        // Output pasted without its header line is still read; with `-I`
        // the header only opens `--summary`'s block, after the intervals.
        let mut seen_header = interval || !any(src, &HEADER);
        // With `-I`, the block under the header: `--summary`'s totals.
        let mut summary = false;
        // The intervals come before the header that names the command.
        if interval {
            if let Some(c) = src.lines.iter().find_map(|l| HEADER.captures(&l.text)) {
                bench = measured(&c);
            }
        }
        let mut table_rows = 0usize;
        // The aggregation (CPU, core, socket …) of each line that has one.
        let mut aggregates: Vec<(u32, &'static str, String)> = Vec::new();
        for (i, l) in src.lines.iter().enumerate() {
            let n = l.number;
            let mut t = match TIMESTAMP.captures(&l.text) {
                Some(c) if interval => c.get(1).map_or("", |m| m.as_str()),
                _ => l.text.as_str(),
            };
            if t.starts_with(|c: char| c.is_ascii_whitespace() || matches!(c, 'C' | 'S' | 'N')) {
                if let Some(c) = AGGREGATE.captures(t) {
                    let id = c.get(1).map_or("", |m| m.as_str());
                    let key = aggregation_key(id);
                    aggregates.push((n, key, id.to_string()));
                    t = c.get(2).map_or("", |m| m.as_str());
                }
            }
            if !t
                .trim_start()
                .starts_with(|c: char| c.is_ascii_digit() || c == '<')
            {
                if let Some(c) = THREAD.captures(t) {
                    let id = c.get(1).map_or("", |m| m.as_str());
                    aggregates.push((n, "thread", id.to_string()));
                    t = c.get(2).map_or("", |m| m.as_str());
                }
            }
            if let Some(c) = HEADER.captures(t) {
                bench = measured(&c);
                runs = c.get(3).and_then(|m| m.as_str().parse().ok());
                seen_header = true;
                summary = interval;
                consumed.push(n);
                continue;
            }
            if let Some(c) = NOT_COUNTED.captures(t) {
                skipped.push((n, missing_reason(t, &c[1])));
                continue;
            }
            if let Some(c) = TABLE_ROW.captures(t) {
                let v = num(src, n, &c[1], "run wall time")?;
                out.push(
                    Row::at(src, n)
                        .benchmark(&bench)
                        .metric("time elapsed")
                        .unit("s")
                        .sample(v),
                );
                table_rows += 1;
                continue;
            }
            if let Some(c) = ELAPSED.captures(t) {
                let v = num(src, n, &c[1], "time elapsed")?;
                match (runs, c.get(2)) {
                    (Some(r), Some(se)) if r > 1 => {
                        let se = num(src, n, se.as_str(), "time elapsed error")?;
                        let start = out.len();
                        mean_with_sem(
                            &mut out,
                            src,
                            n,
                            &bench,
                            "",
                            "time elapsed",
                            "s",
                            v,
                            Some(se),
                            Some(r),
                        );
                        // With `--table` the runs are there: an SD derived
                        // from the rounded `+-` would only disagree with them.
                        drop_derived_sd(&mut out, start, table_rows);
                        table_rows = 0;
                    }
                    _ => out.push(
                        Row::at(src, n)
                            .benchmark(&bench)
                            .metric("time elapsed")
                            .unit("s")
                            .sample(v),
                    ),
                }
                continue;
            }
            if let Some(c) = USER_SYS.captures(t) {
                let v = num(src, n, &c[1], "time")?;
                out.push(
                    Row::at(src, n)
                        .benchmark(&bench)
                        .metric(&format!("time {}", &c[2]))
                        .unit("s")
                        .sample(v),
                );
                continue;
            }
            if !seen_header {
                continue;
            }
            if let Some(c) = VALUE.captures(t).filter(|_| summary) {
                let event = c[2].split('#').next().unwrap_or("").trim();
                skipped.push((
                    n,
                    format!("{event}: the --summary total of the whole run, the sum of the intervals read"),
                ));
                continue;
            }
            if let Some(c) = VALUE.captures(t) {
                // `<value> [unit] <event> [# shadow metric] [( +- x% )] [(pct%)]`
                let rest = c[2].split('#').next().unwrap_or("");
                let rest = NOISE.replace(rest, "");
                // A trailing `(NN.NN%)` or `[NN.NN%]` is the multiplexing
                // share, not a value.
                let rest = MULTIPLEXED.replace(&rest, "");
                let words: Vec<&str> = rest.split_whitespace().collect();
                let (unit, event) = match words.as_slice() {
                    [event] => ("", *event),
                    [unit, event] => (*unit, *event),
                    _ => continue,
                };
                let v = num(src, n, &c[1], event)?;
                let unit = event_unit(unit);
                match runs {
                    Some(r) if r > 1 && !interval => {
                        // A mail client that wrapped the line put the
                        // comment's end and the spread on the next one.
                        let wrapped = src
                            .lines
                            .get(i + 1)
                            .filter(|_| !NOISE.is_match(t) && t.contains('#'))
                            .filter(|next| !VALUE.is_match(&next.text))
                            .and_then(|next| NOISE.captures(&next.text).map(|p| (next.number, p)));
                        let pct = match (NOISE.captures(t), wrapped) {
                            (Some(p), _) => num(src, n, &p[1], "relative error")?,
                            (None, Some((next, p))) => {
                                consumed.push(next);
                                num(src, next, &p[1], "relative error")?
                            }
                            (None, None) => 0.0,
                        };
                        let se = v * pct / 100.0;
                        mean_with_sem(
                            &mut out,
                            src,
                            n,
                            &bench,
                            "",
                            event,
                            &unit,
                            v,
                            Some(se),
                            Some(r),
                        );
                    }
                    _ => out.push(
                        Row::at(src, n)
                            .benchmark(&bench)
                            .metric(event)
                            .unit(&unit)
                            .sample(v),
                    ),
                }
            }
        }
        if out.is_empty() {
            return Err(src.error(
                last_line(src),
                "no perf stat counter line found (truncated, or every counter <not supported>?)",
            ));
        }
        if !aggregates.is_empty() {
            for o in out.iter_mut() {
                if let Ok(i) = aggregates.binary_search_by_key(&o.line, |(l, _, _)| *l) {
                    let (_, key, id) = &aggregates[i];
                    o.params = format!("{key}={id}").into();
                }
            }
        }
        Ok(Parsed {
            observations: out,
            consumed,
            skipped,
            ..Parsed::default()
        })
    }
}

/// The benchmark a header names: its command, or `perf stat` for none.
fn measured(c: &regex::Captures) -> String {
    let cmd = c
        .get(1)
        .or(c.get(2))
        .map(|m| m.as_str().trim())
        .unwrap_or("");
    if cmd.is_empty() {
        "perf stat".into()
    } else {
        cmd.to_string()
    }
}

/// The reason a counter without a value gives: perf's own word for it.
pub(super) fn missing_reason(text: &str, event: &str) -> String {
    let what = if text.contains("<not counted>") {
        "<not counted> (the counter never ran: multiplexing or a failed run)"
    } else {
        "<not supported> (no such counter on this machine)"
    };
    format!("{} {what}", event.trim())
}

/// What perf's aggregate id names, as the readers' parameter key: `CPU3`
/// a cpu, `N0` a node, `S0-D0-C1` (or `S0-C1`) a core, `S0-D1` a die,
/// `S0` a socket.
pub(super) fn aggregation_key(id: &str) -> &'static str {
    match id.as_bytes().first() {
        Some(b'C') => "cpu",
        Some(b'N') => "node",
        _ if id.contains("-C") => "core",
        _ if id.contains("-D") => "die",
        _ => "socket",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::Source;
    use crate::model::Stat;

    #[test]
    fn perf_3_s_bracketed_share_is_no_part_of_the_event() {
        // pbench's kvmstat sample: five `perf stat -e 'kvm:*' -a` blocks of
        // tracepoint counts, each ending in `[100.00%]`.
        let p = crate::ingest::parse_file(
            &PerfStat,
            "tests/data/harness/perf-stat/kvm-tracepoints-5-blocks.txt",
        );
        let o = &p.observations;
        let entry: Vec<f64> = o
            .iter()
            .filter(|r| r.metric == "kvm:kvm_entry")
            .map(|r| r.value)
            .collect();
        assert_eq!(entry.len(), 5);
        assert_eq!(entry[0], 3647161.0);
        assert!(o
            .iter()
            .all(|r| !r.metric.starts_with('[') && !r.unit.contains(':')));
        let pio = o.iter().find(|r| r.metric == "kvm:kvm_pio").unwrap();
        assert_eq!((pio.value, pio.unit.as_str(), pio.line), (712867.0, "", 7));
    }

    #[test]
    fn missing_counters_are_listed_with_their_reason() {
        let text = "\n Performance counter stats for 'true' (5 runs):\n\n\
                    \x20            0.88 msec task-clock   #    0.757 CPUs utilized   ( +- 1.01% )\n\
                    \x20  <not supported>      cycles\n\
                    \x20  <not counted>      instructions\n\n\
                    \x20      0.00116 +- 0.00002 seconds time elapsed  ( +-  1.72% )\n";
        let src = Source::from_text("perf.txt", text);
        let p = PerfStat.parse_accounted(&src).unwrap();
        assert_eq!(p.consumed, vec![2]);
        assert_eq!(p.skipped.len(), 2);
        assert_eq!(p.skipped[0].0, 5);
        assert!(
            p.skipped[0].1.starts_with("cycles <not supported>"),
            "{:?}",
            p.skipped
        );
        assert_eq!(p.skipped[1].0, 6);
        assert!(p.skipped[1].1.starts_with("instructions <not counted>"));
        // The counted values are still read, and `parse` agrees.
        assert!(p
            .observations
            .iter()
            .any(|o| o.metric == "task-clock" && o.line == 4));
        assert_eq!(PerfStat.parse(&src).unwrap(), p.observations);
    }

    #[test]
    fn intervals_before_a_summary_block_are_read_and_its_totals_left_out() {
        let p = crate::ingest::parse_file(
            &PerfStat,
            "tests/data/harness/perf-stat/interval-summary.txt",
        );
        let rows: Vec<(u32, &str, f64)> = p
            .observations
            .iter()
            .map(|o| (o.line, o.metric.as_str(), o.value))
            .collect();
        assert_eq!(
            rows[..4],
            [
                (2, "task-clock", 1.18),
                (3, "context-switches", 1.0),
                (4, "page-faults", 75.0),
                (8, "task-clock", 0.07)
            ]
        );
        assert_eq!(rows[6], (18, "time elapsed", 0.702157161));
        assert_eq!(rows.len(), 9);
        assert!(p.observations.iter().all(|o| o.benchmark == "sleep 0.7"));
        let lines: Vec<u32> = p.skipped.iter().map(|(n, _)| *n).collect();
        assert_eq!(lines, vec![5, 6, 7, 14, 15, 16]);
        // Per CPU, the summary's lines carry the CPU too.
        let p = crate::ingest::parse_file(
            &PerfStat,
            "tests/data/harness/perf-stat/interval-per-cpu-A-summary.txt",
        );
        assert_eq!(p.observations.len(), 7);
        assert_eq!(p.observations[5].params, "cpu=CPU1");
        assert_eq!(p.observations[5].value, 97.08);
        assert_eq!(p.skipped.len(), 2);
    }

    #[test]
    fn per_thread_lines_carry_their_thread() {
        let text = "\n Performance counter stats for 'system wide':\n\n\
                    \x20    lto cgu.130-4349                  89.07 msec task-clock   #    0.897 CPUs utilized\n\
                    kworker/1:1-events-23039                  0.20 msec task-clock   #    0.002 CPUs utilized\n\
                    \x20 memfd:sealed-91-28027                  0.05 msec task-clock   #    0.001 CPUs utilized\n\n\
                    \x20      0.100 seconds time elapsed\n";
        let src = Source::from_text("perf.txt", text);
        let p = PerfStat.parse_accounted(&src).unwrap();
        let rows: Vec<(&str, f64)> = p
            .observations
            .iter()
            .map(|o| (o.params.as_str(), o.value))
            .collect();
        assert_eq!(
            rows,
            vec![
                ("thread=lto cgu.130-4349", 89.07),
                ("thread=kworker/1:1-events-23039", 0.2),
                ("thread=memfd:sealed-91-28027", 0.05),
                ("", 0.1)
            ]
        );
        let p =
            crate::ingest::parse_file(&PerfStat, "tests/data/harness/perf-stat/per-thread-p.txt");
        assert_eq!(p.observations.len(), 5);
        assert_eq!(p.observations[2].params, "thread=python3-31617");
        assert_eq!(p.observations[2].metric, "context-switches");
        assert_eq!(p.skipped.len(), 2);
    }

    #[test]
    fn a_line_a_mail_client_wrapped_keeps_its_spread() {
        let text = "Performance counter stats for './hackbench 50 process 4000' (32 runs):\n\n\
                             2545.28 msec task-clock                #    6.938 CPUs \n\
                    utilized        ( +-  1.75% )\n\
                                  6166     context-switches          #    0.002 \n\
                    M/sec                    ( +-  1.58% )\n";
        let src = Source::from_text("perf.txt", text);
        let p = PerfStat.parse_accounted(&src).unwrap();
        let se = |m: &str| {
            p.observations
                .iter()
                .find(|o| o.metric == m && o.stat == Stat::Stderr)
                .map(|o| o.value)
        };
        assert!((se("task-clock").unwrap() - 2545.28 * 0.0175).abs() < 1e-9);
        assert!((se("context-switches").unwrap() - 6166.0 * 0.0158).abs() < 1e-9);
        // The continuation lines are accounted as read.
        assert!(
            p.consumed.contains(&4) && p.consumed.contains(&6),
            "{:?}",
            p.consumed
        );
    }

    #[test]
    fn elapsed_lines_of_old_perf_and_of_null_repeat_runs() {
        // perf of 2009: two spaces before `seconds`.
        let text = " Performance counter stats for '/home/user/parallel_pagefault':\n\n\
                    \x20        423130  context-switches         #      0.000 M/sec\n\n\
                    \x20 300.431591843  seconds time elapsed\n";
        let p = PerfStat
            .parse_accounted(&Source::from_text("perf.txt", text))
            .unwrap();
        let last = p.observations.last().unwrap();
        assert_eq!(
            (last.metric.as_str(), last.value),
            ("time elapsed", 300.431591843)
        );
        // `--null --repeat 10`: elapsed lines alone, each with its spread.
        let text = "   !NUMA:\n\
                    \x20  45.291088843 seconds time elapsed                                          ( +-  0.40% )\n\
                    \x20  45.154231752 seconds time elapsed                                          ( +-  0.36% )\n";
        let src = Source::from_text("perf.txt", text);
        assert_eq!(PerfStat.detect(&src), 70);
        let p = PerfStat.parse_accounted(&src).unwrap();
        let values: Vec<f64> = p.observations.iter().map(|o| o.value).collect();
        assert_eq!(values, vec![45.291088843, 45.154231752]);
        // An elapsed line alone, without the spread of repeated runs, is
        // any tool's sentence.
        let src = Source::from_text("t.txt", "  1.5 seconds time elapsed\n");
        assert_eq!(PerfStat.detect(&src), 0);
    }
}
