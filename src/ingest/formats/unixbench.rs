//! UnixBench (BYTE UNIX Benchmarks 5.x) result files: per run (`Benchmark
//! Run: …`, `8 CPUs in system; running 8 parallel copies of tests`) a line
//! per test, `Pipe Throughput  1252875.2 lps  (10.0 s, 7 samples)`, then
//! the index table (`System Benchmarks Index Values  BASELINE  RESULT
//! INDEX`) and `System Benchmarks Index Score  1150.3`.
//!
//! Benchmark `unixbench`, parameter `copies` (the parallel copies of the
//! run); metrics the tests (`Pipe Throughput` in lps, `File Copy 1024
//! bufsize 2000 maxblocks` in KBps …), their `… index` and the `index
//! score`. A test's result is what UnixBench computed from its samples:
//! its `mean` with `n` when there were several, else a `sample`. The
//! index table's baseline and result columns are context (the result
//! repeats the test line). The progress lines of a console capture (`1 x
//! Pipe Throughput  1 2 3`) are left out with the reason.
//!
//! A run of one test (`./Run -i 1 fstime`, LKP's runs) prints its test line
//! and no index table, when the test has no baseline: the test line is
//! the result, read on its own under the banner or the `running N parallel
//! copies` line. The graphics tests index apart from the system ones
//! (`3D Graphics Benchmarks Index Values` … `3D Graphics Benchmarks Index
//! Score`): their score is `3D Graphics index score` (`2D Graphics …`),
//! not the system `index score`. The system description under the banner
//! is context, also where the banner was cut off (`CPU 0: … (5200.0
//! bogomips)`, the uptime line).

use crate::error::Result;
use crate::ingest::shared::logscan::{has, lazy_re, lines_containing, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Stat;

lazy_re!(
    TEST,
    r"^(\S.*?\S)\s+([\d.]+) (\w+)\s+\(([\d.]+) s, (\d+) samples?\)\s*$"
);
lazy_re!(COPIES, r"running (\d+) parallel cop(?:y|ies) of tests");
lazy_re!(
    INDEX_ROW,
    r"^(\S.*?\S)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$"
);
lazy_re!(
    SCORE,
    r"^(System|[23]D Graphics) Benchmarks (?:Partial )?Index Score(?: \(Partial Only\))?\s+([\d.]+)\s*$"
);
lazy_re!(
    INDEX_HEADER,
    r"^(?:System|[23]D Graphics) Benchmarks (?:Index Values|Partial Index)"
);
// The system description: one line per CPU and its flags, the uptime.
lazy_re!(
    SYSTEM,
    r"^(?:CPU \d+: .*\(\d+(?:\.\d+)? bogomips\)|\d\d:\d\d:\d\d up .*load average: .*)$"
);
lazy_re!(PROGRESS, r"^\d+ x \S.*?(\s+\d+)+\s*$");

/// The UnixBench importer.
pub struct Unixbench;

impl Format for Unixbench {
    fn name(&self) -> &'static str {
        "unixbench"
    }

    fn description(&self) -> &'static str {
        "UnixBench 5: `Pipe Throughput  1252875.2 lps  (10.0 s, 7 samples)` lines per run, \
         the index table and `System Benchmarks Index Score`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let tests = lines_containing(src, " samples)")
            .filter(|l| TEST.is_match(l.trim()))
            .take(2)
            .count();
        // One test's line alone is UnixBench's under its banner or run
        // header.
        let run = has(src, "Benchmarks Index")
            || has(src, "BYTE UNIX Benchmarks")
            || lines_containing(src, "parallel cop").any(|l| COPIES.is_match(l));
        match tests {
            2 => 95,
            1 if run => 90,
            _ => 0,
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let mut params = String::new();
        let mut in_index = false;
        // The system description under the banner (`CPU 0: … (5200.0
        // bogomips)`, the uptime line) is context.
        let mut in_header = false;
        // Whether the line before was a `CPU N:` line, whose flags follow
        // it indented (`Hyper-Threading, x86-64, MMX, …`).
        let mut after_cpu = false;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            let flags = after_cpu && l.text.starts_with(char::is_whitespace) && t.contains(", ");
            after_cpu = t.starts_with("CPU ") && SYSTEM.is_match(t);
            if t.starts_with("BYTE UNIX Benchmarks") {
                in_header = true;
            } else if t.starts_with("---") || t.starts_with("Benchmark Run:") {
                in_header = false;
            }
            if in_header {
                consumed.push(n);
                continue;
            }
            if let Some(c) = COPIES.captures(t) {
                let mut p = Params::default();
                p.set("copies", &c[1]);
                params = p.render();
                consumed.push(n);
                in_index = false;
            } else if let Some(c) = TEST.captures(t) {
                let v = num(src, n, &c[2], &c[1])?;
                let samples = num(src, n, &c[5], "samples")?;
                let stat = if samples > 1.0 {
                    Stat::Mean
                } else {
                    Stat::Sample
                };
                let row = Row::at(src, n)
                    .benchmark("unixbench")
                    .params(&params)
                    .metric(&c[1])
                    .unit(&c[3]);
                out.push(row.clone().stat(stat, v));
                if samples > 1.0 {
                    out.push(row.stat(Stat::N, samples));
                }
            } else if INDEX_HEADER.is_match(t) {
                in_index = true;
                consumed.push(n);
            } else if let Some(c) = SCORE.captures(t) {
                let metric = match &c[1] {
                    "System" => "index score".to_string(),
                    graphics => format!("{graphics} index score"),
                };
                let v = num(src, n, &c[2], &metric)?;
                out.push(
                    Row::at(src, n)
                        .benchmark("unixbench")
                        .params(&params)
                        .metric(&metric)
                        .sample(v),
                );
                in_index = false;
            } else if let Some(c) = INDEX_ROW.captures(t).filter(|_| in_index) {
                let metric = format!("{} index", &c[1]);
                let v = num(src, n, &c[4], &metric)?;
                out.push(
                    Row::at(src, n)
                        .benchmark("unixbench")
                        .params(&params)
                        .metric(&metric)
                        .sample(v),
                );
            } else if PROGRESS.is_match(t) {
                skipped.push((n, "progress of a test's samples, not a result".into()));
            } else if t.starts_with("Benchmark Run:")
                || t.starts_with("BYTE UNIX Benchmarks")
                || SYSTEM.is_match(t)
                || flags
                || (in_index && t.bytes().all(|b| b == b'='))
            {
                consumed.push(n);
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no UnixBench test line (`Pipe Throughput  1252875.2 lps  (10.0 s, 7 samples)`)",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    fn get(p: &Parsed, metric: &str, params: &str, stat: Stat) -> f64 {
        p.observations
            .iter()
            .find(|o| o.metric == metric && o.params == params && o.stat == stat)
            .unwrap_or_else(|| panic!("no {metric} {params}"))
            .value
    }

    #[test]
    fn runs_of_one_and_of_all_copies() {
        let p = parse_file(&Unixbench, "tests/data/harness/unixbench/two-runs.txt");
        assert_eq!(
            get(&p, "Pipe Throughput", "copies=1", Stat::Sample),
            1252875.2
        );
        assert_eq!(
            get(&p, "Pipe Throughput", "copies=8", Stat::Sample),
            6976780.0
        );
        assert_eq!(
            get(&p, "Pipe Throughput index", "copies=1", Stat::Sample),
            1007.1
        );
        assert_eq!(get(&p, "index score", "copies=1", Stat::Sample), 1150.3);
        let o = p
            .observations
            .iter()
            .find(|o| o.metric.starts_with("File Copy 256"))
            .unwrap();
        assert_eq!((o.unit.as_str(), o.value), ("KB/s", 203821.0));
    }

    #[test]
    fn several_samples_give_a_mean_and_progress_is_accounted() {
        let p = parse_file(
            &Unixbench,
            "tests/data/harness/unixbench/console-samples.txt",
        );
        let mean = p
            .observations
            .iter()
            .find(|o| o.stat == Stat::Mean)
            .expect("a test of several samples");
        let n = get(&p, &mean.metric, &mean.params, Stat::N);
        assert!(n > 1.0);
        assert!(!p.skipped.is_empty());
        assert!(p.skipped[0].1.contains("progress"));
    }

    #[test]
    fn one_test_without_an_index_table() {
        let p = parse_file(
            &Unixbench,
            "tests/data/harness/unixbench/lkp-01-file-write-alone.txt",
        );
        let r: Vec<(&str, &str, &str, Stat, f64)> = p
            .observations
            .iter()
            .map(|o| {
                (
                    o.metric.as_str(),
                    o.unit.as_str(),
                    o.params.as_str(),
                    o.stat,
                    o.value,
                )
            })
            .collect();
        let write = "File Write 1024 bufsize 2000 maxblocks";
        assert_eq!(
            r,
            vec![
                (write, "KB/s", "copies=1", Stat::Mean, 3121976.0),
                (write, "KB/s", "copies=1", Stat::N, 7.0)
            ]
        );
        assert_eq!(p.observations[0].line, 15);
        assert_eq!(
            p.skipped,
            vec![(1, "progress of a test's samples, not a result".into())]
        );
    }

    #[test]
    fn graphics_tests_index_apart_from_the_system_ones() {
        let p = parse_file(
            &Unixbench,
            "tests/data/harness/unixbench/lkp-03-gears-banner-cut.txt",
        );
        let r: Vec<(&str, Stat, f64)> = p
            .observations
            .iter()
            .map(|o| (o.metric.as_str(), o.stat, o.value))
            .collect();
        assert_eq!(
            r,
            vec![
                ("3D graphics: gears", Stat::Mean, 3207.0),
                ("3D graphics: gears", Stat::N, 7.0),
                ("3D graphics: gears index", Stat::Sample, 960.2),
                ("3D Graphics index score", Stat::Sample, 960.2)
            ]
        );
        // The description of the system above the cut-off banner.
        assert!([1, 2, 3].iter().all(|n| p.consumed.contains(n)));
    }
}
