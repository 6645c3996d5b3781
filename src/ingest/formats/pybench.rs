//! pybench (CPython's `Tools/pybench`, `python pybench.py -n ROUNDS`): a
//! `* Round N done in X seconds.` line per round of the whole suite, then
//! a table per test under
//!
//! ```text
//! Test                             minimum  average  operation  overhead
//! -------------------------------------------------------------------------------
//!           BuiltinFunctionCalls:     23ms     23ms    0.05us    0.054ms
//! ```
//!
//! and a `Totals:` row of the two times. Benchmark `pybench`, the test
//! as `test=` (`Totals` for the row of totals); per test the round times'
//! `minimum` and `average` as `time` `min` and `mean` in ms (with the
//! `Rounds:` count of the details block as `n` when it is there), the
//! average time of one operation as `time per operation` (`mean`, µs),
//! and the least calibration overhead, which pybench subtracts from the
//! times, as `calibration overhead` (`min`, ms). Each round's time of the
//! whole suite is a `sample` of `round time` (s), one run per round.
//! Each table of a file (a loop of several pybench runs) is one run of
//! its tests. The comparison table of `-c OTHER` is not read.

use crate::error::Result;
use crate::ingest::shared::logscan::{any_with, lazy_re, num};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};

lazy_re!(
    HEADER,
    r"^Test\s+minimum\s+average\s+operation\s+overhead\s*$"
);
lazy_re!(
    TEST,
    r"^\s*(\w+):\s+([\d.]+)ms\s+([\d.]+)ms\s+([\d.]+)us\s+([\d.]+)ms\s*$"
);
lazy_re!(TOTALS, r"^Totals:\s+([\d.]+)ms\s+([\d.]+)ms\s*$");
lazy_re!(ROUND, r"^\* Round (\d+) done in ([\d.]+) seconds\.\s*$");
lazy_re!(ROUNDS, r"^\s*Rounds:\s+(\d+)\s*$");

/// The pybench importer.
pub struct Pybench;

impl Format for Pybench {
    fn name(&self) -> &'static str {
        "pybench"
    }

    fn description(&self) -> &'static str {
        "pybench: `* Round N done in X seconds.` lines and the \
         `Test  minimum  average  operation  overhead` table"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if any_with(src, "operation", &HEADER) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed) = (Vec::new(), Vec::new());
        // Tables seen (each a run of the tests), rounds seen, the rounds
        // count the details block states, and whether a table is open.
        let (mut tables, mut rounds) = (0u32, 0u32);
        let mut count: Option<f64> = None;
        let mut in_table = false;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.as_str());
            if let Some(c) = ROUND.captures(t) {
                let v = num(src, n, &c[2], "round time")?;
                out.push(
                    Row::at(src, n)
                        .benchmark("pybench")
                        .metric("round time")
                        .unit("s")
                        .sample(v)
                        .with_run(rounds),
                );
                rounds += 1;
            } else if let Some(c) = ROUNDS.captures(t) {
                count = Some(num(src, n, &c[1], "rounds")?);
                consumed.push(n);
            } else if HEADER.is_match(t) {
                in_table = true;
                tables += 1;
                consumed.push(n);
            } else if let Some(c) = TEST.captures(t).filter(|_| in_table) {
                let cells = [&c[2], &c[3], &c[4], &c[5]];
                test_rows(src, n, &c[1], &cells, count, tables - 1, &mut out)?;
            } else if let Some(c) = TOTALS.captures(t).filter(|_| in_table) {
                test_rows(
                    src,
                    n,
                    "Totals",
                    &[&c[1], &c[2]],
                    count,
                    tables - 1,
                    &mut out,
                )?;
                in_table = false;
            } else if in_table && !t.trim().is_empty() && !t.trim().starts_with("---") {
                in_table = false;
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            Vec::new(),
            "no pybench round or test row found",
        )
    }
}

/// The rows of one test: its minimum and average round time, and, when
/// given, the time per operation and the calibration overhead.
fn test_rows(
    src: &Source,
    n: u32,
    test: &str,
    cells: &[&str],
    rounds: Option<f64>,
    run: u32,
    out: &mut Vec<Observation>,
) -> Result<()> {
    let params = format!("test={test}");
    let row = |metric: &str, unit: &str, stat: Stat, v: f64| {
        Row::at(src, n)
            .benchmark("pybench")
            .params(&params)
            .metric(metric)
            .unit(unit)
            .stat(stat, v)
            .with_run(run)
    };
    let kinds = [
        ("time", "ms", Stat::Min),
        ("time", "ms", Stat::Mean),
        ("time per operation", "us", Stat::Mean),
        ("calibration overhead", "ms", Stat::Min),
    ];
    for ((metric, unit, stat), cell) in kinds.into_iter().zip(cells) {
        out.push(row(metric, unit, stat, num(src, n, cell, metric)?));
    }
    if let Some(k) = rounds {
        out.push(row("time", "ms", Stat::N, k));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    #[test]
    fn rounds_and_the_table_of_tests() {
        let p = parse_file(&Pybench, "tests/data/harness/pybench/lkp-01.txt");
        let rounds: Vec<(u32, f64, Option<u32>)> = p
            .observations
            .iter()
            .filter(|o| o.metric == "round time")
            .map(|o| (o.line, o.value, o.run))
            .collect();
        assert_eq!(rounds.len(), 20);
        assert_eq!(rounds[0], (16, 0.728, Some(0)));
        assert_eq!(rounds[19], (35, 0.729, Some(19)));
        let test = |name: &str| -> Vec<(&str, Stat, f64, &str)> {
            let params = format!("test={name}");
            p.observations
                .iter()
                .filter(|o| o.params == params)
                .map(|o| (o.metric.as_str(), o.stat, o.value, o.unit.as_str()))
                .collect()
        };
        // `          SmallTuples:     15ms     16ms    0.03us    0.075ms`.
        assert_eq!(
            test("SmallTuples"),
            [
                ("time", Stat::Min, 15.0, "ms"),
                ("time", Stat::Mean, 16.0, "ms"),
                ("time per operation", Stat::Mean, 0.03, "us"),
                ("calibration overhead", Stat::Min, 0.075, "ms"),
                ("time", Stat::N, 20.0, "ms"),
            ]
        );
        let tests = p.observations.iter().filter(|o| o.stat == Stat::N).count();
        assert_eq!(tests, 52);
        assert!(p.observations.iter().all(|o| o.benchmark == "pybench"));
        // `Totals:                            719ms    730ms`: the two times.
        assert_eq!(
            test("Totals"),
            [
                ("time", Stat::Min, 719.0, "ms"),
                ("time", Stat::Mean, 730.0, "ms"),
                ("time", Stat::N, 20.0, "ms"),
            ]
        );
        // Lines after the table are not its rows.
        let src = Source::from_text(
            "p.txt",
            "Test                             minimum  average  operation  overhead\n\
             \x20         BuiltinFunctionCalls:     23ms     23ms    0.05us    0.054ms\n\
             done.\n\
             \x20         BuiltinMethodLookup:     14ms     14ms    0.01us    0.059ms\n",
        );
        assert_eq!(Pybench.detect(&src), 95);
        assert_eq!(Pybench.parse(&src).unwrap().len(), 4);
    }
}
