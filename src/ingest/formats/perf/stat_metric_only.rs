//! `perf stat --metric-only` text output: one header line naming the
//! metrics, then a line of values per interval (`-I`) or per aggregate
//! (`--per-core`: `S0-C0    2     23.8%  …`), instead of a line per event.
//!
//! ```text
//! #           time  MB  Total_Memory_BW MB  Memory_RD_BW_Chip_1 …
//!      1.000067388                 36.4                      0.2 …
//! ```
//!
//! The header's names are parted by two spaces or more (`bad speculation
//! frontend bound`); where perf printed each metric's unit before its name
//! (`MB  Total_Memory_BW MB  Memory_RD_BW_Chip_1`), they are read as unit
//! and name pairs. A value line holds the interval's time (with `-I`), the
//! aggregate and the number of CPUs in it (with `--per-*`), then one value
//! per metric. Benchmark `perf stat`, metric each name, unit the header's
//! or `%` where the value carries it, each a `sample`; the aggregate is a
//! parameter named as the counters' reader names it (`core=S0-C0`). The
//! interval interrupted with `^C` is partial and left out, and so is, in
//! interval mode, the line of totals under `Performance counter stats
//! for`, which sums the intervals above. `seconds time elapsed` is read as
//! the counters' reader reads it.

use crate::error::Result;
use crate::ingest::shared::logscan::{has, lazy_re, num, Params};
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Observation;

lazy_re!(ELAPSED, r"^\s*([\d.,]+) seconds time elapsed");
lazy_re!(AGGREGATE, r"^(S\d+(?:-D\d+)?(?:-C\d+)?|N\d+|CPU\d+)$");

/// The `perf stat --metric-only` text importer.
pub struct PerfStatMetricOnly;

/// A header's metrics: name and unit.
type Names = Vec<(String, String)>;

/// What a value line holds.
struct Values<'a> {
    time: Option<&'a str>,
    aggregate: Option<&'a str>,
    cells: Vec<&'a str>,
}

impl Format for PerfStatMetricOnly {
    fn name(&self) -> &'static str {
        "perf-stat-metric-only"
    }

    fn description(&self) -> &'static str {
        "perf stat --metric-only text: a header line of metric names over a line of values per interval or aggregate"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if has(src, "Performance counter stats for") && tables(src).next().is_some() {
            96
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out: Vec<Observation> = Vec::new();
        let mut consumed = Vec::new();
        let mut skipped = Vec::new();
        let interval = src
            .lines
            .iter()
            .any(|l| l.text.trim_start().starts_with("# ") && l.text.contains(" time "));
        let mut names: Option<(usize, Names)> = None;
        let mut after_banner = false;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.as_str());
            if t.contains("Performance counter stats for") {
                after_banner = true;
                consumed.push(n);
                continue;
            }
            if let Some(c) = ELAPSED.captures(t) {
                let v = num(src, n, &c[1], "time elapsed")?;
                out.push(row(src, n, "", "time elapsed", "s").sample(v));
                continue;
            }
            if let Some(h) = header(t) {
                names = Some((h.len(), h));
                consumed.push(n);
                continue;
            }
            let Some((k, ref metrics)) = names else {
                continue;
            };
            if t.trim_start().starts_with("^C") {
                skipped.push((
                    n,
                    "the interval perf stat was stopped in (^C): partial".into(),
                ));
                continue;
            }
            let Some(v) = values(t, k) else {
                continue;
            };
            if interval && v.time.is_none() && after_banner {
                skipped.push((n, "the whole run's totals of the intervals above".into()));
                continue;
            }
            let mut p = Params::default();
            if let Some(a) = v.aggregate {
                p.set(super::stat::aggregation_key(a), a);
            }
            let params = p.render();
            for ((name, unit), cell) in metrics.iter().zip(&v.cells) {
                let (text, unit) = match cell.strip_suffix('%') {
                    Some(x) => (x, "%"),
                    None => (*cell, unit.as_str()),
                };
                let value = num(src, n, text, name)?;
                out.push(row(src, n, &params, name, unit).sample(value));
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no perf stat --metric-only table (a header of metric names over lines of values)",
        )
    }
}

fn row(src: &Source, n: u32, params: &str, metric: &str, unit: &str) -> Row {
    Row::at(src, n)
        .benchmark("perf stat")
        .params(params)
        .metric(metric)
        .unit(unit)
}

/// The header lines of `src` that a line of as many values follows.
fn tables(src: &Source) -> impl Iterator<Item = usize> + '_ {
    src.lines.windows(2).enumerate().filter_map(|(i, w)| {
        let h = header(&w[0].text)?;
        values(&w[1].text, h.len()).map(|_| i)
    })
}

/// The metrics a header line names, when it is one: words only (no cell
/// that is a number), after the interval's `# time` and the aggregate's
/// column names.
fn header(text: &str) -> Option<Names> {
    let t = text.trim().trim_start_matches('#').trim();
    if t.is_empty() || !t.chars().any(char::is_alphabetic) {
        return None;
    }
    let words: Vec<&str> = t.split_whitespace().collect();
    if words
        .iter()
        .any(|w| parse_number(w.trim_end_matches('%')).is_some())
    {
        return None;
    }
    let skip = |c: &&str| {
        matches!(
            *c,
            "time" | "core" | "cpus" | "socket" | "die" | "node" | "CPU"
        )
    };
    let cells: Vec<&str> = t
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .skip_while(skip)
        .collect();
    if cells.is_empty()
        || cells
            .iter()
            .any(|c| c.contains("Performance") || c.ends_with(':'))
    {
        return None;
    }
    // `MB  Total_Memory_BW MB  Memory_RD_BW_Chip_1`: unit, name, unit, name.
    let words: Vec<&str> = words.into_iter().skip_while(skip).collect();
    let paired = words.len() >= 2
        && words.len().is_multiple_of(2)
        && words.chunks(2).all(|p| is_unit(p[0]) && !is_unit(p[1]));
    if paired {
        return Some(
            words
                .chunks(2)
                .map(|p| (p[1].to_string(), p[0].to_string()))
                .collect(),
        );
    }
    Some(
        cells
            .iter()
            .map(|c| (c.to_string(), String::new()))
            .collect(),
    )
}

/// A unit perf prints before a metric's name.
fn is_unit(w: &str) -> bool {
    use crate::model::{Dimension, Unit};
    let known = !matches!(
        Unit::parse(w).dimension,
        Dimension::Count | Dimension::Other(_)
    );
    (w.len() <= 6 && !w.contains('_') && known)
        || matches!(w, "%" | "GHz" | "MHz" | "K/sec" | "M/sec" | "CPUs")
}

/// A line of `k` values, after an interval's time or an aggregate and its
/// CPU count.
fn values(text: &str, k: usize) -> Option<Values<'_>> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let numeric = |w: &str| parse_number(w.trim_end_matches('%')).is_some();
    let (time, aggregate, cells) = match words.as_slice() {
        [a, count, rest @ ..] if AGGREGATE.is_match(a) && count.parse::<u32>().is_ok() => {
            (None, Some(*a), rest)
        }
        [time, rest @ ..] if rest.len() == k && time.contains('.') && numeric(time) => {
            (Some(*time), None, rest)
        }
        rest => (None, None, rest),
    };
    (k > 0 && cells.len() == k && cells.iter().all(|c| numeric(c))).then(|| Values {
        time,
        aggregate,
        cells: cells.to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(path: &str) -> Parsed {
        crate::ingest::parse_file(
            &PerfStatMetricOnly,
            &format!("tests/data/harness/perf-stat/{path}"),
        )
    }

    #[test]
    fn interval_lines_under_units_and_names() {
        let p = read("metric-only-interval-hv24x7.txt");
        let total: Vec<(f64, &str)> = p
            .observations
            .iter()
            .filter(|o| o.metric == "Total_Memory_BW")
            .map(|o| (o.value, o.unit.as_str()))
            .collect();
        assert_eq!(
            total,
            [
                (36.4, "MB"),
                (36.2, "MB"),
                (36.3, "MB"),
                (36.3, "MB"),
                (36.0, "MB")
            ]
        );
        let rd0: Vec<f64> = p
            .observations
            .iter()
            .filter(|o| o.metric == "Memory_RD_BW_Chip_0")
            .map(|o| o.value)
            .collect();
        assert_eq!(rd0, [72.1, 77.9, 81.2, 93.3, 81.5]);
        // The ^C interval and the totals line are left out, with reasons.
        assert_eq!(p.skipped.len(), 2);
        assert!(p.skipped[0].1.contains("^C"));
        assert!(p.skipped[1].1.contains("totals"));
        let elapsed = p
            .observations
            .iter()
            .find(|o| o.metric == "time elapsed")
            .unwrap();
        assert_eq!(elapsed.value, 5.368039176);
        assert_eq!(p.observations.len(), 5 * 5 + 1);
    }

    #[test]
    fn per_core_rows_under_names_of_several_words() {
        let p = read("metric-only-topdown-per-core.txt");
        let rows: Vec<(String, String, f64, String)> = p
            .observations
            .iter()
            .filter(|o| o.metric != "time elapsed")
            .map(|o| {
                (
                    o.params.to_string(),
                    o.metric.to_string(),
                    o.value,
                    o.unit.to_string(),
                )
            })
            .collect();
        let r = |c: &str, m: &str, v: f64| (format!("core={c}"), m.to_string(), v, "%".to_string());
        assert_eq!(
            rows,
            [
                r("S0-C0", "retiring", 23.8),
                r("S0-C0", "bad speculation", 11.6),
                r("S0-C0", "frontend bound", 28.3),
                r("S0-C0", "backend bound", 36.3),
                r("S0-C1", "retiring", 16.2),
                r("S0-C1", "bad speculation", 15.7),
                r("S0-C1", "frontend bound", 36.5),
                r("S0-C1", "backend bound", 31.6),
            ]
        );
    }

    #[test]
    fn the_event_output_is_not_this_readers() {
        let src = Source::from_text(
            "s.txt",
            " Performance counter stats for 'ls':\n\n              1.23 msec task-clock                #    0.5 CPUs utilized\n       0.002 seconds time elapsed\n",
        );
        assert_eq!(PerfStatMetricOnly.detect(&src), 0);
    }
}
