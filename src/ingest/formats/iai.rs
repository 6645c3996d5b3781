//! iai, the one-shot Cachegrind benchmark harness for Rust (the crate
//! Gungraun grew from): under `cargo bench` each benchmark's name alone on
//! a line, then its counts,
//!
//! ```text
//! iai_benchmark_short
//!   Instructions:                1243 (+1.139138%)
//!   L1 Accesses:                 1580 (+0.701083%)
//!   L2 Accesses:                    1 (-50.00000%)
//!   RAM Accesses:                   2 (No change)
//!   Estimated Cycles:            1655 (+0.363857%)
//! ```
//!
//! Benchmark the name; metric each count's name (`Instructions`, `L1
//! Accesses`, `L2 Accesses`, `RAM Accesses`, `Estimated Cycles`), a sample
//! each. The change in parentheses is against the run iai kept from
//! before, which is not in the file: not read. libtest's frame (`running 0
//! tests`, `test result:`) around the output is left out with the reason;
//! cargo's `Running target/…` line is context; a bare number on its own
//! line (a shell loop's counter) names no benchmark and is left out.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(
    COUNT,
    r"^  (Instructions|L1 Accesses|L2 Accesses|RAM Accesses|Estimated Cycles):\s+(\d+)(?: \((?:[+-][\d.]+%|No change)\))?\s*$"
);
lazy_re!(NAME, r"^(\S+)\s*$");
lazy_re!(LIBTEST, r"^(?:running \d+ tests?|test result: )");
lazy_re!(CARGO, r"^\s*Running ");

/// The iai importer.
pub struct Iai;

impl Format for Iai {
    fn name(&self) -> &'static str {
        "iai"
    }

    fn description(&self) -> &'static str {
        "iai (Cachegrind) console: a benchmark's name, then `  Instructions:  1243 (+1.14%)` lines"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if src.lines.iter().take(2000).any(|l| COUNT.is_match(&l.text)) {
            90
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let mut bench: Option<String> = None;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.as_str());
            if let Some(c) = COUNT.captures(t) {
                let Some(b) = &bench else {
                    return Err(src.error(Some(n), "an iai count before any benchmark name"));
                };
                let v = num(src, n, &c[2], &c[1])?;
                out.push(
                    Row::at(src, n)
                        .benchmark(b)
                        .metric(&c[1])
                        .unit("")
                        .sample(v),
                );
            } else if LIBTEST.is_match(t) {
                skipped.push((
                    n,
                    "libtest's test count or summary, not a benchmark value".into(),
                ));
            } else if CARGO.is_match(t) {
                consumed.push(n);
            } else if crate::ingest::shared::numbers::parse_number(t.trim()).is_some() {
                // A loop's `echo $i` between runs: a number names no benchmark.
                skipped.push((
                    n,
                    "a bare number between the outputs, not a benchmark name".into(),
                ));
            } else if let Some(c) = NAME.captures(t) {
                bench = Some(c[1].to_string());
                consumed.push(n);
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no iai `  Instructions: N` line",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    #[test]
    fn each_benchmark_gives_its_counts_and_the_changes_are_not_values() {
        // bencher's tool_output/rust/iai/change.txt: libtest's frame, then
        // two benchmarks with their change against the last run.
        let p = parse_file(&Iai, "tests/data/harness/iai/bencher-change.txt");
        let o = &p.observations;
        let get = |b: &str, m: &str| {
            let r = o
                .iter()
                .find(|r| r.benchmark == b && r.metric == m)
                .unwrap();
            (r.line, r.value)
        };
        assert_eq!(get("iai_benchmark_short", "Instructions"), (6, 1243.0));
        assert_eq!(get("iai_benchmark_short", "RAM Accesses"), (9, 2.0));
        assert_eq!(
            get("iai_benchmark_long", "Estimated Cycles"),
            (17, 23447295.0)
        );
        assert_eq!(o.len(), 10);
        let skipped: Vec<u32> = p.skipped.iter().map(|(n, _)| *n).collect();
        assert_eq!(skipped, [1, 3]);
    }

    #[test]
    fn cargo_s_running_line_is_context_not_a_name() {
        // bencher's tool_output/rust/iai/two.txt.
        let p = parse_file(&Iai, "tests/data/harness/iai/bencher-two.txt");
        let names: Vec<&str> = p
            .observations
            .iter()
            .map(|o| o.benchmark.as_str())
            .collect();
        assert_eq!(names.len(), 10);
        assert!(names.iter().all(|n| n.starts_with("bench_fibonacci_")));
        assert_eq!(p.consumed[0], 1);
        // A loop's counter between two copies is no benchmark name.
        let text = std::fs::read_to_string("tests/data/harness/iai/bencher-two.txt").unwrap();
        let src = Source::from_text("loop.txt", &format!("1\n{text}2\n{text}"));
        let p = Iai.parse_accounted(&src).unwrap();
        assert!(p
            .observations
            .iter()
            .all(|o| o.benchmark.starts_with("bench_fibonacci_")));
        assert_eq!(p.skipped.len(), 2);
    }
}
