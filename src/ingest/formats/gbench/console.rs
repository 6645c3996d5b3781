//! Google Benchmark console output:
//!
//! ```text
//! Benchmark                           Time             CPU   Iterations UserCounters...
//! BM_StringCopy/64                 28.5 ns         27.8 ns      5109169 bytes_per_second=2.14574G/s
//! BM_StringCopy/64_cv              3.72 %          2.29 %             3 bytes_per_second=2.26%
//! ```
//!
//! With `--benchmark_counters_tabular=true` the counters are columns of
//! their own, named in the header after `Iterations` (`items_per_second`,
//! `len`), each row's cells below them (`172.207M/s`, `16`); every table
//! the library starts for a new set of counters has its own header.
//!
//! Summaries of repetitions (`BM_x/8_mean`) are told by their name even
//! when the repetitions are not printed (see [`names`](super::names)); a statistic the
//! benchmark registered itself (`_max`) is read as its own metric
//! (`real_time max`) in the unit the row prints (`%` for a fraction).
//!
//! The comparison table `tools/compare.py` prints after the two runs'
//! tables (or alone) is read by [`compare`](super::compare), in the units
//! those tables gave each name.
//!
//! Values are rounded for display and counters carry SI prefixes
//! (`bytes_per_second` in powers of 1024, as the library prints it, every
//! other counter in powers of 1000); they are scaled back to base units.
//! Prefer the JSON output, which has full precision.

use crate::error::Result;
use crate::ingest::formats::gbench::compare;
use crate::ingest::formats::gbench::json::{aggregate_stat, counter_unit, split_name};
use crate::ingest::formats::gbench::names::{Kind, Names};
use crate::ingest::shared::logscan::num;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::rescale;
use crate::model::{Observation, Stat};
use regex::Regex;
use std::collections::HashMap;
use std::sync::LazyLock;

/// The Google Benchmark console importer.
pub struct GbenchConsole;

// Before version 1.0 the library named the unit in the header
// (`Time(ns)  CPU(ns)`) and printed bare numbers under it.
static HEADER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^Benchmark\s+Time(?:\((\w+)\))?\s+CPU(?:\(\w+\))?\s+Iterations")
        .expect("static regex")
});
static UNITLESS_ROW: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(\S+)\s+([\d.]+(?:e[-+]?\d+)?)\s+([\d.]+(?:e[-+]?\d+)?)\s+(\d+)(.*)$")
        .expect("static regex")
});
// The rates the library printed bare after the iterations before counters
// were named (`211.669MB/s`, `133.097kiB/s`, `33.2742k items/s`).
static BARE_RATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|\s)([\d.]+(?:e[-+]?\d+)?)([kMGTPE]?)(i?B/s| items/s)(?:\s|$)")
        .expect("static regex")
});
static ROW: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(\S+)\s+([\d.]+(?:e[-+]?\d+)?) (\S+)\s+([\d.]+(?:e[-+]?\d+)?) (\S+)(?:\s+(\d+))?(.*)$",
    )
    .expect("static regex")
});
static COUNTER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(\w+)=([\d.]+(?:e[-+]?\d+)?)([kMGTPEmunp]?)(/s|%)?").expect("static regex")
});
// One cell of a tabular counter column.
static CELL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^([\d.]+(?:e[-+]?\d+)?)([kMGTPEmunp]?)(/s|%)?$").expect("static regex")
});

/// The counter columns a header names after `Iterations`: none for the
/// `UserCounters...` form, whose rows say `name=value`.
fn tabular_columns(header: &str) -> Vec<String> {
    let tail = header
        .split_once("Iterations")
        .map_or("", |(_, rest)| rest)
        .trim();
    if tail.is_empty() || tail.starts_with("UserCounters") {
        return Vec::new();
    }
    tail.split_whitespace().map(str::to_string).collect()
}

// The context block the library prints before its table (also above the
// CSV header): date, program, CPU, caches, load, build warning.
static CONTEXT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\S*\s*$|Running \S|Run on \(|CPU Caches:|\s+L\d \w+ \d+ \w+ \(x\d+\)|Load Average: |\*\*\*WARNING\*\*\*)",
    )
    .expect("static regex")
});

/// The library's context lines before `first_table_line`, each `skipped`:
/// they describe the machine, which `patchperf check --env` compares, and
/// hold no result.
pub(super) fn context_skips(src: &Source, first_table_line: u32) -> Vec<(u32, String)> {
    src.lines
        .iter()
        .take_while(|l| l.number < first_table_line)
        .filter(|l| CONTEXT.is_match(&l.text))
        .map(|l| {
            let why = "machine context printed by the library (date, CPU, caches, load)";
            (l.number, why.to_string())
        })
        .collect()
}

impl Format for GbenchConsole {
    fn name(&self) -> &'static str {
        "gbench-console"
    }

    fn description(&self) -> &'static str {
        "Google Benchmark console table: header `Benchmark  Time  CPU  Iterations [UserCounters...]`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if crate::ingest::shared::logscan::any_with(src, "Iterations", &HEADER)
            || crate::ingest::shared::logscan::lines_containing(src, "Time Old")
                .any(compare::is_header)
        {
            90
        } else {
            0
        }
    }

    /// The context block above the table is `skipped` with its reason.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let header_line = src
            .lines
            .iter()
            .find(|l| HEADER.is_match(&l.text))
            .map_or(0, |l| l.number);
        let mut skipped = context_skips(src, header_line);
        let mut out = Vec::new();
        let mut in_table = false;
        let mut columns: Vec<String> = Vec::new();
        let mut names = Names::default();
        // Run name → time unit of its rows, for the summary rows after them.
        let mut seen_runs: HashMap<String, String> = HashMap::new();
        let mut consumed = Vec::new();
        let mut comparison: Option<compare::Table> = None;
        // The unit an old header names (`Time(ns)`), for its bare cells.
        let mut header_unit: Option<String> = None;
        for l in &src.lines {
            let t = l.text.trim_end();
            if let Some(h) = HEADER.captures(t) {
                in_table = true;
                comparison = None;
                columns = tabular_columns(t);
                header_unit = h.get(1).map(|u| u.as_str().to_string());
                continue;
            }
            if compare::is_header(t) {
                in_table = false;
                comparison = Some(compare::Table::default());
                consumed.push(l.number);
                continue;
            }
            if t.starts_with("Comparing ") {
                consumed.push(l.number);
                continue;
            }
            if let Some(table) = comparison.as_mut() {
                if !t.starts_with('-') {
                    table.read(src, l.number, t, &seen_runs, &mut out, &mut skipped)?;
                }
                continue;
            }
            if !in_table || t.starts_with('-') {
                continue;
            }
            let with_units;
            let t = match (&header_unit, UNITLESS_ROW.captures(t)) {
                (Some(u), Some(o)) => {
                    with_units =
                        format!("{} {} {u} {} {u} {}{}", &o[1], &o[2], &o[3], &o[4], &o[5]);
                    with_units.as_str()
                }
                _ => t,
            };
            let Some(c) = ROW.captures(t) else { continue };
            let name = &c[1];
            // A statistic the benchmark registered, named in the metric.
            let mut custom: Option<&str> = None;
            let (run_name, stat) = match names.classify(name) {
                Kind::BigO(base) => {
                    let (b, p) = split_name(base);
                    for (metric, i) in [("bigo_real_coefficient", 2), ("bigo_cpu_coefficient", 4)] {
                        let v = num(src, l.number, &c[i], "value")?;
                        out.push(
                            Observation::new(b.as_str(), metric, &c[i + 1], Stat::Mean, v)
                                .with_params_str(p.clone())
                                .at_line(l.number),
                        );
                    }
                    continue;
                }
                Kind::Rms(base) => {
                    let (b, p) = split_name(base);
                    let v = num(src, l.number, &c[2], "value")?;
                    out.push(
                        Observation::new(b, "bigo_rms", "%", Stat::Mean, v)
                            .with_params_str(p)
                            .at_line(l.number),
                    );
                    continue;
                }
                Kind::Aggregate { base, stat } => match aggregate_stat(stat) {
                    Some(s) => {
                        // Without the repetitions, the mean gives the unit.
                        if &c[3] != "%" {
                            seen_runs.insert(base.to_string(), c[3].to_string());
                        }
                        (base.to_string(), s)
                    }
                    None => {
                        custom = Some(stat);
                        (base.to_string(), Stat::Sample)
                    }
                },
                Kind::Run => {
                    seen_runs.insert(name.to_string(), c[3].to_string());
                    (name.to_string(), Stat::Sample)
                }
            };
            let named = |metric: &str| match custom {
                Some(stat) => format!("{metric} {stat}"),
                None => metric.to_string(),
            };
            let (b, p) = split_name(&run_name);
            let mk = |metric: &str, unit: &str, stat: Stat, v: f64| {
                Observation::new(b.as_str(), metric, unit, stat, v)
                    .with_params_str(p.clone())
                    .at_line(l.number)
            };
            // A `_cv` row prints `%` where the time unit goes; its rows keep
            // the unit of the times they describe so each group stays in one
            // unit, and the stat says the value is a percentage.
            let time_unit = if stat == Stat::Cv {
                seen_runs.get(&run_name).cloned().unwrap_or_default()
            } else {
                c[3].to_string()
            };
            let mut metrics: Vec<(String, String, f64)> = vec![
                (
                    named("real_time"),
                    time_unit.clone(),
                    num(src, l.number, &c[2], "value")?,
                ),
                (
                    named("cpu_time"),
                    time_unit.clone(),
                    num(src, l.number, &c[4], "value")?,
                ),
            ];
            let rest = c.get(7).map_or("", |m| m.as_str());
            // (name, number, SI prefix, `/s` or `%`) of each counter.
            let mut counters: Vec<(&str, &str, &str, &str)> = Vec::new();
            if columns.is_empty() {
                for cc in COUNTER.captures_iter(rest) {
                    let get = |i| cc.get(i).map_or("", |m| m.as_str());
                    counters.push((get(1), get(2), get(3), get(4)));
                }
                if counters.is_empty() {
                    for cc in BARE_RATE.captures_iter(rest) {
                        let get = |i| cc.get(i).map_or("", |m| m.as_str());
                        let key = if get(3) == " items/s" {
                            "items_per_second"
                        } else {
                            "bytes_per_second"
                        };
                        counters.push((key, get(1), get(2), "/s"));
                    }
                }
            } else {
                // Cells in column order; a label, if any, follows them.
                for (key, cell) in columns.iter().zip(rest.split_whitespace()) {
                    match CELL.captures(cell) {
                        Some(cc) => {
                            let get = |i| cc.get(i).map_or("", |m| m.as_str());
                            counters.push((key.as_str(), get(1), get(2), get(3)));
                        }
                        None => skipped.push((
                            l.number,
                            format!("counter column `{key}`: `{cell}` is not a number"),
                        )),
                    }
                }
            }
            for (key, number, prefix, suffix) in counters {
                let v = num(src, l.number, number, "value")?;
                let v = if stat == Stat::Cv || suffix == "%" {
                    v
                } else {
                    rescale(v, si_factor(prefix, key == "bytes_per_second"))
                };
                let unit = if custom.is_some() && suffix == "%" {
                    "%"
                } else {
                    counter_unit(key)
                };
                metrics.push((named(key), unit.to_string(), v));
            }
            for (metric, u, v) in &metrics {
                out.push(mk(metric, u, stat, *v));
            }
            if stat == Stat::Mean {
                if let Some(reps) = c.get(6) {
                    let reps = num(src, l.number, reps.as_str(), "value")?;
                    for (metric, u, _) in &metrics {
                        out.push(mk(metric, u, Stat::N, reps));
                    }
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

fn si_factor(prefix: &str, binary: bool) -> f64 {
    let base: f64 = if binary { 1024.0 } else { 1000.0 };
    match prefix {
        "k" => base,
        "M" => base.powi(2),
        "G" => base.powi(3),
        "T" => base.powi(4),
        "P" => base.powi(5),
        "E" => base.powi(6),
        "m" => 1e-3,
        "u" => 1e-6,
        "n" => 1e-9,
        "p" => 1e-12,
        _ => 1.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Detection as it was before the joined-text search: every line.
    fn detect_by_line(src: &Source) -> Confidence {
        if crate::ingest::any_line_matches(src, "Iterations", &HEADER)
            || src.lines.iter().any(|l| compare::is_header(&l.text))
        {
            90
        } else {
            0
        }
    }

    #[test]
    fn detection_gives_the_score_the_line_search_gives() {
        assert!(crate::ingest::assert_detection_agrees(&GbenchConsole, detect_by_line) > 0);
    }

    fn rows(path: &str) -> Vec<(u32, String, String, String, String, Stat, f64)> {
        let p = crate::ingest::parse_file(&GbenchConsole, path);
        p.observations
            .iter()
            .map(|o| {
                let name = format!("{} {}", o.benchmark, o.params);
                let (v, m, u) = (
                    o.variant.to_string(),
                    o.metric.to_string(),
                    o.unit.to_string(),
                );
                (o.line, name, v, m, u, o.stat, o.value)
            })
            .collect()
    }

    #[test]
    fn the_pre_1_0_header_names_the_unit_of_bare_cells() {
        let got = rows("tests/data/harness/gbench/doc-console-old-header.txt");
        let line = |n: u32| -> Vec<(String, String, f64)> {
            got.iter()
                .filter(|r| r.0 == n)
                .map(|r| (r.3.clone(), r.4.clone(), r.6))
                .collect()
        };
        let cell = |m: &str, u: &str, v: f64| (m.to_string(), u.to_string(), v);
        // `BM_SetInsert/1024/10   33157   33648   21431  1.13369MiB/s   290.225k items/s`
        assert_eq!(
            line(5),
            vec![
                cell("real_time", "ns", 33157.0),
                cell("cpu_time", "ns", 33648.0),
                cell("bytes_per_second", "B/s", rescale(1.13369, 1024.0 * 1024.0)),
                cell("items_per_second", "items/s", 290225.0),
            ]
        );
        assert_eq!(got[0].1, "BM_SetInsert arg0=1024,arg1=1");
        assert_eq!(
            line(3)[2],
            cell("bytes_per_second", "B/s", rescale(133.097, 1024.0))
        );
    }

    #[test]
    fn compare_py_s_table_gives_old_and_new_in_the_units_above_it() {
        let got = rows("tests/data/harness/gbench/doc-compare-benchmarks.txt");
        // The two runs' tables: 10 rows each, times and the bare rate.
        let runs = got.iter().filter(|r| r.2.is_empty() && r.5 == Stat::Sample);
        assert_eq!(runs.count(), 60);
        let at = |n: u32| -> Vec<(String, String, Stat, f64)> {
            got.iter()
                .filter(|r| r.0 == n)
                .map(|r| (r.2.clone(), format!("{} {}", r.3, r.4), r.5, r.6))
                .collect()
        };
        let cell = |v: &str, m: &str, s: Stat, x: f64| (v.to_string(), m.to_string(), s, x);
        // `BM_copy/1024  +0.0035  +0.0028  25169  25257  25169  25239`
        assert_eq!(
            at(45),
            vec![
                cell("", "real_time ns", Stat::ChangePct, 0.35),
                cell("", "cpu_time ns", Stat::ChangePct, 0.28),
                cell("old", "real_time ns", Stat::Sample, 25169.0),
                cell("new", "real_time ns", Stat::Sample, 25257.0),
                cell("old", "cpu_time ns", Stat::Sample, 25169.0),
                cell("new", "cpu_time ns", Stat::Sample, 25239.0),
            ]
        );
        // `BM_memcpy/8  36 ns  36 ns  19101577  211.669MB/s`: MB is 2^20.
        let rate = got.iter().find(|r| r.0 == 8 && r.3 == "bytes_per_second");
        assert_eq!(rate.unwrap().6, rescale(211.669, 1024.0 * 1024.0));
        let got = rows("tests/data/harness/gbench/doc-compare-filters.txt");
        let last = got.iter().rfind(|r| r.2 == "new").unwrap();
        assert_eq!(last.1, "[BM_memcpy vs. BM_copy] arg0=8192");
        assert_eq!((last.3.as_str(), last.6), ("cpu_time", 202990.0));
    }

    #[test]
    fn compare_py_s_u_test_table_alone() {
        let got = rows("tests/data/harness/gbench/doc-compare-utest.txt");
        let name = "benchmark/process_time/real_time threads=1";
        let of = |n: u32| got.iter().filter(move |r| r.0 == n);
        // The p-value row: 27 repetitions a side, for both times.
        assert!(of(3).all(|r| r.5 == Stat::N && r.6 == 27.0 && r.1.starts_with("benchmark")));
        assert_eq!(of(3).count(), 4);
        // `…real_time_mean  -0.1442  -0.1442  90  77  90  77`
        let mean: Vec<(String, String, f64)> =
            of(4).map(|r| (r.2.clone(), r.3.clone(), r.6)).collect();
        assert_eq!(mean[0], (String::new(), "real_time".into(), -14.42));
        assert_eq!(mean[3], ("new".into(), "real_time".into(), 77.0));
        assert!(of(4).skip(2).all(|r| r.5 == Stat::Mean));
        // Spreads give their change alone, the geomean its changes alone.
        let sd: Vec<(String, f64)> = of(6).map(|r| (r.3.clone(), r.6)).collect();
        assert_eq!(
            sd,
            vec![
                ("real_time stddev".into(), 39.74),
                ("cpu_time stddev".into(), 39.33)
            ]
        );
        assert_eq!(of(8).count(), 2);
        assert!(got.iter().all(|r| r.4.is_empty()));
        assert!(got.iter().all(|r| r.1 == name || r.1 == "OVERALL_GEOMEAN "));
    }

    #[test]
    fn tabular_counter_columns_are_read() {
        let path = "tests/data/harness/gbench/console-tabular.txt";
        let p = crate::ingest::parse_file(&GbenchConsole, path);
        let at = |line: u32| -> Vec<(&str, &str, f64)> {
            p.observations
                .iter()
                .filter(|o| o.line == line)
                .map(|o| (o.metric.as_str(), o.unit.as_str(), o.value))
                .collect()
        };
        // `BM_Sort/8  51.9 ns  46.5 ns  592424  172.207M/s`
        assert_eq!(
            at(14),
            [
                ("real_time", "ns", 51.9),
                ("cpu_time", "ns", 46.5),
                ("items_per_second", "items/s", 172.207e6),
            ]
        );
        // `BM_Concat/16  0.032 us  0.032 us  868423  469.879M/s  16  30.794M/s`
        assert_eq!(
            at(25),
            [
                ("real_time", "us", 0.032),
                ("cpu_time", "us", 0.032),
                ("bytes_per_second", "B/s", 469.879 * 1024.0 * 1024.0),
                ("len", "", 16.0),
                ("rate", "", 30.794e6),
            ]
        );
        // The table after the BigO rows has no counter columns.
        assert_eq!(at(30).len(), 2);
        assert!(p.skipped.iter().all(|(n, _)| *n <= 10));
    }

    #[test]
    fn aggregates_only_and_a_registered_statistic() {
        let path = "tests/data/harness/gbench/display-aggregates-only.txt";
        let p = crate::ingest::parse_file(&GbenchConsole, path);
        assert!(p
            .observations
            .iter()
            .all(|o| !o.stat.is_sample() || o.metric.ends_with(" spread")));
        let get = |metric: &str, stat: Stat| {
            p.observations
                .iter()
                .find(|o| o.benchmark == "BM_Sort" && o.metric == metric && o.stat == stat)
                .map(|o| (o.unit.as_str(), o.value))
        };
        assert_eq!(get("real_time", Stat::Mean), Some(("ns", 3316.0)));
        assert_eq!(get("real_time", Stat::Cv), Some(("ns", 18.91)));
        // `BM_Sort_spread  1251 ns  6.13 ns  3`
        assert_eq!(get("real_time spread", Stat::Sample), Some(("ns", 1251.0)));
        assert_eq!(get("cpu_time spread", Stat::Sample), Some(("ns", 6.13)));
    }
}
