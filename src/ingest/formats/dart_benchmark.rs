//! Dart's `benchmark_harness` package: `report()` prints one line per
//! benchmark, `Template(RunTime): 1.0 us.`, the name given to the
//! benchmark, then the quantity measured in parentheses (`RunTime`, the
//! average time of one run of the exercise) and the value with its unit
//! and a closing period.
//!
//! Benchmark the name, metric the quantity, a sample each.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(
    LINE,
    r"^\s*(\S(?:.*?\S)?)\((\w+)\): ([\d.]+(?:[eE][+-]?\d+)?) (ns|us|µs|μs|ms|s)\.\s*$"
);

/// The Dart benchmark_harness importer.
pub struct DartBenchmark;

impl Format for DartBenchmark {
    fn name(&self) -> &'static str {
        "dart-benchmark"
    }

    fn description(&self) -> &'static str {
        "Dart benchmark_harness report lines: `Template(RunTime): 1.0 us.`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let lines = src.lines.iter().filter(|l| !l.text.trim().is_empty());
        let (mut all, mut any) = (true, false);
        for l in lines.take(200) {
            let m = LINE.is_match(&l.text);
            all &= m;
            any |= m;
        }
        // The line is distinctive but short: claimed alone, or as most
        // of a file when other output surrounds it.
        match (any, all) {
            (true, true) => 95,
            (true, false) if src.lines.iter().any(|l| l.text.contains("(RunTime): ")) => 80,
            _ => 0,
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        for l in &src.lines {
            let Some(c) = LINE.captures(&l.text) else {
                continue;
            };
            let unit = if c[4].starts_with(['μ', 'µ']) {
                "us"
            } else {
                &c[4]
            };
            let v = num(src, l.number, &c[3], &c[2])?;
            let row = Row::at(src, l.number).benchmark(&c[1]).metric(&c[2]);
            out.push(row.unit(unit).sample(v));
        }
        Parsed::found(
            src,
            out,
            Vec::new(),
            Vec::new(),
            "no `Name(RunTime): V us.` line",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::testing::{row, rows_of_file};

    #[test]
    fn each_line_is_its_benchmark_s_run_time() {
        // bencher's tool_output/dart/benchmark_harness/two.txt.
        let got = rows_of_file(&DartBenchmark, "tests/data/harness/dart/bencher-two.txt");
        assert_eq!(
            got,
            [
                row("Template", "", "RunTime", "us", 1.0),
                row("ForLoop", "", "RunTime", "us", 2.0)
            ]
        );
    }
}
