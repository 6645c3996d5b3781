//! Benchmark.js (and what prints through it: Benchmark.Suite's
//! `String(event.target)`, used by many JavaScript projects' suites), a
//! line per benchmark:
//!
//! ```text
//! fib(20) x 12,146 ops/sec ±0.32% (96 runs sampled)
//! ```
//!
//! Benchmark the name before the last ` x ` that precedes the rate (a name
//! may hold ` x ` itself); metric `throughput` in ops/s: the rate as the
//! mean, the `±` relative margin of error (the 95 % interval's half-width
//! in percent of the mean) as `ci_low`/`ci_high`, and the runs sampled as
//! n. Other lines (a suite's `Running …`/`Done!` messages) are the frame.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, lines_containing, num};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};

lazy_re!(
    RESULT,
    r"^(.+) x ([\d,]+(?:\.\d+)?) ops/sec (?:±|\+/-|\+-) ?([\d.]+)% \((\d+) runs? sampled\)\s*$"
);

/// The Benchmark.js importer.
pub struct BenchmarkJs;

impl Format for BenchmarkJs {
    fn name(&self) -> &'static str {
        "benchmark-js"
    }

    fn description(&self) -> &'static str {
        "Benchmark.js lines: `name x 12,146 ops/sec ±0.32% (96 runs sampled)`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if lines_containing(src, "runs sampled)").any(|l| RESULT.is_match(l.trim())) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out: Vec<Observation> = Vec::new();
        for l in &src.lines {
            let Some(c) = RESULT.captures(l.text.trim()) else {
                continue;
            };
            let n = l.number;
            let rate = num(src, n, &c[2].replace(',', ""), "the rate")?;
            let rme = num(src, n, &c[3], "the margin of error")?;
            let runs = num(src, n, &c[4], "the runs sampled")?;
            let row = || {
                Row::at(src, n)
                    .benchmark(c[1].trim())
                    .metric("throughput")
                    .unit("ops/s")
            };
            out.push(row().stat(Stat::Mean, rate));
            out.push(row().stat(Stat::CiLow, rate * (1.0 - rme / 100.0)));
            out.push(row().stat(Stat::CiHigh, rate * (1.0 + rme / 100.0)));
            out.push(row().stat(Stat::N, runs));
        }
        Parsed::found(
            src,
            out,
            Vec::new(),
            Vec::new(),
            "no `name x N ops/sec ±P% (R runs sampled)` line",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Lines of bencher's lib/bencher_adapter/tool_output/js/benchmark/four.txt
    // and issue_506.txt.
    const RUN: &str = "Running 6 benchmarks on Chromium...
fib(10) x 1,431,759 ops/sec ±0.74% (93 runs sampled)
benchmark with x 2 many things x 50 ops/sec ±0.10% (96 runs sampled)

this x line should be ignored

text encoder utf16 x 55.25 ops/sec ±16.6% (19 runs sampled)
Done!
";

    fn of(rows: &[Observation], bench: &str) -> Vec<(Stat, f64)> {
        rows.iter()
            .filter(|o| o.benchmark == bench)
            .map(|o| (o.stat, o.value))
            .collect()
    }

    #[test]
    fn each_line_gives_rate_interval_and_runs() {
        let src = Source::from_text("b.txt", RUN);
        assert_eq!(BenchmarkJs.detect(&src), 95);
        let rows = BenchmarkJs.parse(&src).unwrap();
        let fib = of(&rows, "fib(10)");
        assert_eq!(fib[0], (Stat::Mean, 1431759.0));
        assert!((fib[1].1 - 1431759.0 * 0.9926).abs() < 1e-6);
        assert!((fib[2].1 - 1431759.0 * 1.0074).abs() < 1e-6);
        assert_eq!(fib[3], (Stat::N, 93.0));
        assert_eq!(
            of(&rows, "benchmark with x 2 many things")[0],
            (Stat::Mean, 50.0)
        );
        assert_eq!(of(&rows, "text encoder utf16")[3], (Stat::N, 19.0));
        assert_eq!(rows.len(), 12);
        assert!(rows
            .iter()
            .all(|o| o.unit == "ops/s" && o.metric == "throughput"));
    }

    #[test]
    fn a_line_without_the_runs_sampled_is_none() {
        let src = Source::from_text("b.txt", "fib(10) x 1,431,759 ops/sec\nthis x line\n");
        assert_eq!(BenchmarkJs.detect(&src), 0);
    }
}
