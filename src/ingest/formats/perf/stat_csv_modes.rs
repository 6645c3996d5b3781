//! `perf stat -x SEP` records with leading columns: `-I` puts the interval
//! time first (`0.500595017,0.84,msec,task-clock,…`), `-A` the CPU
//! (`CPU0,304.70,msec,…`), `--per-core` / `--per-die` / `--per-socket` /
//! `--per-node` the aggregation and its CPU count (`S0-D0-C0,1,301.95,…`),
//! `--per-thread` the thread as `comm-tid` (`python3-31677,280,,…`), and
//! `-I` with either both. Past those columns the record is the plain
//! one [`crate::ingest::formats::perf::stat_csv`] reads.
//!
//! Benchmark `perf stat`; parameter `cpu`, `core`, `die`, `socket`,
//! `node` or `thread` (its `comm-tid` as perf prints it) for an aggregation; each value a `sample` (an interval's count is
//! one point of a time series). `<not counted>` records are skipped with
//! the reason. `-I` with `--summary` ends with records whose time column
//! says `summary`: the whole run's totals, the sum of the intervals read,
//! left out with the reason.

use crate::error::Result;
use crate::ingest::formats::perf::stat::event_unit;
use crate::ingest::formats::perf::stat_csv::{is_missing, is_record, SEPARATORS};
use crate::ingest::shared::logscan::num;
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

/// The `perf stat -x` importer for interval and per-CPU/aggregated records.
pub struct PerfStatCsvModes;

/// Whether a field is `--per-thread`'s `comm-tid` (`python3-31677`,
/// `kworker/1:1-events-23039`): a name, a dash, the thread id.
fn is_thread(field: &str) -> bool {
    field.rsplit_once('-').is_some_and(|(comm, tid)| {
        !comm.trim().is_empty() && !tid.is_empty() && tid.bytes().all(|b| b.is_ascii_digit())
    })
}

/// The aggregation a field names (`CPU3` → cpu), if it is one.
fn aggregation(field: &str) -> Option<&'static str> {
    let f = field.trim();
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if f.strip_prefix("CPU").is_some_and(digits) {
        return Some("cpu");
    }
    if f.strip_prefix('N').is_some_and(digits) {
        return Some("node");
    }
    let parts: Vec<&str> = f.split('-').collect();
    let ok = |p: &str, c: char| p.strip_prefix(c).is_some_and(digits);
    match parts.as_slice() {
        [s] if ok(s, 'S') => Some("socket"),
        [s, d] if ok(s, 'S') && ok(d, 'D') => Some("die"),
        [s, d, c] if ok(s, 'S') && ok(d, 'D') && ok(c, 'C') => Some("core"),
        _ if is_thread(f) => Some("thread"),
        _ => None,
    }
}

/// A record's aggregation: its kind (`cpu`, `core` …) and name (`CPU0`).
type Aggregation<'a> = Option<(&'static str, &'a str)>;

/// What `--summary` prints in the interval time's column of its totals.
const SUMMARY: &str = "summary";

/// A record's aggregation and the plain record after its leading interval
/// time and aggregation columns; `None` when the line has neither or is
/// no record.
fn split_modes<'a>(fields: &'a [&'a str]) -> Option<(Aggregation<'a>, &'a [&'a str])> {
    let mut rest = fields;
    let mut interval = false;
    // An interval time (or `summary`) is followed by a value (or a missing
    // marker) or an aggregation, where a plain record has its unit.
    if rest.len() > 2
        && (parse_number(rest[0]).is_some() || rest[0].trim() == SUMMARY)
        && (parse_number(rest[1]).is_some()
            || is_missing(rest[1])
            || aggregation(rest[1]).is_some())
    {
        interval = true;
        rest = &rest[1..];
    }
    let mut agg = None;
    if let Some(key) = rest.first().and_then(|f| aggregation(f)) {
        agg = Some((key, rest[0].trim()));
        rest = &rest[1..];
        // Aggregations other than CPU and thread print the number of CPUs
        // next.
        if key != "cpu"
            && key != "thread"
            && rest.len() > 1
            && rest[0].trim().bytes().all(|b| b.is_ascii_digit())
        {
            rest = &rest[1..];
        }
    }
    ((interval || agg.is_some()) && is_record(rest)).then_some((agg, rest))
}

/// Whether the trimmed line `t` can open a record: by its first byte, or
/// (`--per-thread`) by a `comm-tid` before its first separator.
fn may_start_record(t: &str) -> bool {
    matches!(
        t.as_bytes().first(),
        Some(b'0'..=b'9' | b'-' | b'.' | b'+' | b'<' | b'C' | b'S' | b'N' | b's')
    ) || t
        .split([',', ';', '\t', '|'])
        .next()
        .is_some_and(|first| first.len() < t.len() && is_thread(first))
}

/// The separator that splits most lines into records with leading
/// columns (the first of equals), and how many it splits so.
fn separator(src: &Source) -> Option<(char, usize)> {
    let candidates = src
        .lines
        .iter()
        .filter(|l| may_start_record(l.text.trim()))
        .count();
    let mut best: Option<(char, usize)> = None;
    for sep in SEPARATORS {
        let hits = src
            .lines
            .iter()
            .map(|l| l.text.trim())
            // Cheap first: a record holds at least five separators.
            .filter(|t| may_start_record(t) && t.matches(sep).nth(4).is_some())
            .filter(|t| split_modes(&t.split(sep).collect::<Vec<_>>()).is_some())
            .count();
        if hits > 0 && best.is_none_or(|(_, b)| hits > b) {
            best = Some((sep, hits));
        }
        // One that splits nearly every candidate line is the one: the
        // usual comma needs no look at the others.
        if hits * 10 >= candidates * 9 {
            break;
        }
    }
    best
}

impl Format for PerfStatCsvModes {
    fn name(&self) -> &'static str {
        "perf-stat-csv-modes"
    }

    fn description(&self) -> &'static str {
        "perf stat -x SEP with -I, -A, --per-core/--per-die/--per-socket/--per-node: `[time,][CPU0|S0-D0-C0,N,]value,unit,event,…`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        // Four in five content lines must be records, and a record starts
        // with a number, a missing marker or an aggregation (`CPU0`, `S0`,
        // `N0`): a look at first bytes rules out most text before any line
        // is split (and every separator tried).
        let mut content = 0usize;
        let mut candidates = 0usize;
        for l in &src.lines {
            let t = l.text.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            content += 1;
            candidates += usize::from(may_start_record(t));
        }
        if candidates * 10 < content * 8 {
            return 0;
        }
        let Some((_, records)) = separator(src) else {
            return 0;
        };
        if records * 10 >= content * 8 {
            85
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut skipped = Vec::new();
        let sep = separator(src).map_or(',', |(s, _)| s);
        for l in &src.lines {
            let t = l.text.trim();
            let f: Vec<&str> = t.split(sep).collect();
            let Some((agg, r)) = split_modes(&f) else {
                continue;
            };
            let event = r[2].trim();
            if f[0].trim() == SUMMARY {
                skipped.push((
                    l.number,
                    format!("{event}: the --summary total of the whole run, the sum of the intervals read"),
                ));
                continue;
            }
            if is_missing(r[0]) {
                skipped.push((
                    l.number,
                    crate::ingest::formats::perf::stat::missing_reason(r[0], event),
                ));
                continue;
            }
            let v = num(src, l.number, r[0], event)?;
            let params = agg.map_or(String::new(), |(k, id)| format!("{k}={id}"));
            let unit = event_unit(r[1]);
            out.push(
                Row::at(src, l.number)
                    .benchmark("perf stat")
                    .params(&params)
                    .metric(event)
                    .unit(&unit)
                    .sample(v),
            );
        }
        Parsed::found(
            src,
            out,
            Vec::new(),
            skipped,
            "no counted perf stat -x record found",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(name: &str) -> Parsed {
        crate::ingest::parse_file(
            &PerfStatCsvModes,
            &format!("tests/data/harness/perf-stat/{name}"),
        )
    }

    fn rows(p: &Parsed) -> Vec<(&str, &str, f64)> {
        p.observations
            .iter()
            .map(|o| (o.params.as_str(), o.metric.as_str(), o.value))
            .collect()
    }

    #[test]
    fn interval_records_are_samples_and_not_counted_ones_skipped() {
        let p = read("interval.csv");
        assert_eq!(
            rows(&p),
            vec![
                ("", "task-clock", 0.84),
                ("", "context-switches", 1.0),
                ("", "task-clock", 0.07),
                ("", "context-switches", 0.0)
            ]
        );
        assert_eq!(p.skipped.len(), 2);
    }

    #[test]
    fn per_thread_records_carry_their_thread() {
        let p = read("per-thread-p.csv");
        assert_eq!(
            rows(&p),
            vec![
                ("thread=python3-31678", "task-clock", 4.70),
                ("thread=python3-31677", "task-clock", 3.06),
                ("thread=python3-31677", "context-switches", 280.0),
                ("thread=python3-31678", "context-switches", 266.0)
            ]
        );
        assert_eq!(p.skipped.len(), 2);
        assert_eq!(
            PerfStatCsvModes.detect(&Source::from_text(
                "t.csv",
                "python3-31678,4.70,msec,task-clock,4699750,100.00,0.016,CPUs utilized\n"
            )),
            85
        );
    }

    #[test]
    fn summary_records_after_intervals_are_left_out_as_totals() {
        let p = read("interval-summary.csv");
        assert_eq!(
            rows(&p),
            vec![
                ("", "task-clock", 1.06),
                ("", "context-switches", 1.0),
                ("", "page-faults", 75.0),
                ("", "task-clock", 0.09),
                ("", "context-switches", 0.0),
                ("", "page-faults", 0.0)
            ]
        );
        let lines: Vec<u32> = p.skipped.iter().map(|(n, _)| *n).collect();
        assert_eq!(lines, vec![4, 5, 6, 10, 11, 12]);
        assert!(p.skipped[3]
            .1
            .starts_with("task-clock: the --summary total"));
    }

    #[test]
    fn per_cpu_core_and_socket_records_carry_their_aggregation() {
        let p = read("per-cpu-A.csv");
        assert_eq!(rows(&p)[1], ("cpu=CPU1", "task-clock", 304.71));
        assert_eq!(rows(&p)[3], ("cpu=CPU1", "context-switches", 279.0));
        let p = read("per-core.csv");
        assert_eq!(rows(&p)[2], ("core=S0-D0-C1", "task-clock", 301.96));
        let p = read("per-socket.csv");
        assert_eq!(
            rows(&p),
            vec![
                ("socket=S0", "task-clock", 606.98),
                ("socket=S0", "context-switches", 398.0)
            ]
        );
        let p = read("interval-per-cpu-A.csv");
        assert_eq!(p.observations.len(), 6);
        assert_eq!(rows(&p)[5], ("cpu=CPU1", "task-clock", 112.83));
    }
}
