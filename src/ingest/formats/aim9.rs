//! AIM Independent Resource Benchmark, Suite IX (aim9, as LKP runs it):
//! one row per test under `Test Number / Test Name / Elapsed Time (sec) /
//! Iteration Count / Iteration Rate (loops/sec) / Operation Rate
//! (ops/sec)`, ending with what an operation is (`     1 tcp_test  300.00
//! 58982  196.60667  17694.60 TCP/IP Messages/second`). The suite's banner,
//! its questions and its projected and actual times frame the table.
//!
//! Benchmark `aim9`, parameter `test` (its name); metrics `ops` (ops/s,
//! the operation rate) and `loops` (/s, the iteration rate), samples of
//! the run; the elapsed time and count they are computed from are not read
//! apart.

use crate::error::Result;
use crate::ingest::shared::logscan::{any_near_start, lazy_re, num};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(
    HEADER,
    r"^Number\s+Name\s+Time \(sec\)\s+Count\s+Rate \(loops/sec\)\s+Rate \(ops/sec\)\s*$"
);
lazy_re!(
    ROW,
    r"^(\d+)\s+(\S+)\s+[0-9.]+\s+\d+\s+([0-9.]+)\s+([0-9.]+)\s+\S.*$"
);

/// The aim9 importer.
pub struct Aim9;

impl Format for Aim9 {
    fn name(&self) -> &'static str {
        "aim9"
    }

    fn description(&self) -> &'static str {
        "AIM Suite IX (aim9): each test's row of iteration and operation rates"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if any_near_start(src, &HEADER) {
            96
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut in_table = false;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            if HEADER.is_match(t) {
                in_table = true;
            } else if let Some(c) = ROW.captures(t).filter(|_| in_table) {
                let params = format!("test={}", &c[2]);
                let row = |metric: &str, unit: &str| {
                    Row::at(src, n)
                        .benchmark("aim9")
                        .params(&params)
                        .metric(metric)
                        .unit(unit)
                };
                let loops = num(src, n, &c[3], "aim9 iteration rate")?;
                let ops = num(src, n, &c[4], "aim9 operation rate")?;
                out.push(row("ops", "ops/s").sample(ops));
                out.push(row("loops", "/s").sample(loops));
            } else if t.starts_with("Projected Completion time") {
                in_table = false;
            }
        }
        // The banner, the answered questions and the suite's clock times
        // frame the table: no results.
        let consumed = Parsed::frame_lines(src, &out, &[]);
        Parsed::found(
            src,
            out,
            consumed,
            Vec::new(),
            "no aim9 result row under `Number  Name  Time (sec)  Count  Rate (loops/sec)  Rate (ops/sec)`",
        )
    }
}
