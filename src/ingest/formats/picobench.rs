//! picobench, the single-header C++ micro-benchmark library, and its text
//! report: per suite a title line (`NAME:`), then a table ruled with `=`
//!
//! ```text
//!    Name (baseline is *)   |   Dim   |  Total ms |  ns/op  |Baseline| Ops/second
//! ===============================================================================
//!          ComparisonSlow * |       1 |    10.056 |10055959 |      - |       99.4
//! ```
//!
//! one row per benchmark and dimension (the iterations of one sample).
//! Cells may touch the `|` that parts them; the name may end in `*`, the
//! suite's baseline.
//!
//! Benchmark the row's name, parameters `suite` (the title, when there is
//! one) and `dim`; metrics `time/op` (ns), `total time` (ms) and
//! `throughput` (ops/s), a sample each. `Baseline` is the ratio of the
//! row's time to the baseline's, a figure of two rows read already: not
//! read.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(
    HEADER,
    r"^\s*Name \(baseline is \*\)\s*\|\s*Dim\s*\|\s*Total ms\s*\|\s*ns/op\s*\|\s*Baseline\s*\|\s*Ops/second\s*$"
);
lazy_re!(RULE, r"^={20,}\s*$");
lazy_re!(TITLE, r"^(\S.*):\s*$");

/// The picobench importer.
pub struct Picobench;

impl Format for Picobench {
    fn name(&self) -> &'static str {
        "picobench"
    }

    fn description(&self) -> &'static str {
        "picobench text report: `Name (baseline is *) | Dim | Total ms | ns/op | Baseline | Ops/second`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if src.lines.iter().any(|l| HEADER.is_match(&l.text)) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed) = (Vec::new(), Vec::new());
        let mut suite: Option<String> = None;
        let mut in_table = false;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.as_str());
            if HEADER.is_match(t) {
                in_table = true;
                consumed.push(n);
                continue;
            }
            if RULE.is_match(t) {
                consumed.push(n);
                continue;
            }
            if let Some(c) = TITLE.captures(t) {
                suite = Some(c[1].trim().to_string());
                in_table = false;
                consumed.push(n);
                continue;
            }
            if !in_table {
                continue;
            }
            let cells: Vec<&str> = t.split('|').map(str::trim).collect();
            if cells.len() != 6 {
                in_table = false;
                continue;
            }
            let name = cells[0].trim_end_matches('*').trim_end();
            let mut p = Params::default();
            if let Some(s) = &suite {
                p.set("suite", s);
            }
            p.set("dim", format!("{}", num(src, n, cells[1], "Dim")?));
            let params = p.render();
            for (metric, unit, at) in [
                ("time/op", "ns", 3),
                ("total time", "ms", 2),
                ("throughput", "ops/s", 5),
            ] {
                let v = num(src, n, cells[at], metric)?;
                let row = Row::at(src, n).benchmark(name).params(&params);
                out.push(row.metric(metric).unit(unit).sample(v));
            }
        }
        Parsed::found(src, out, consumed, Vec::new(), "no picobench table row")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    #[test]
    fn each_row_gives_its_dimension_s_times() {
        let p = parse_file(&Picobench, "tests/data/harness/picobench/three-suites.txt");
        let o = &p.observations;
        let get = |b: &str, params: &str, metric: &str| {
            let r = o
                .iter()
                .find(|r| r.benchmark == b && r.params == params && r.metric == metric);
            r.map(|r| (r.value, r.unit.to_string(), r.line))
        };
        let slow = "dim=1,suite=ComparisonSlow";
        assert_eq!(
            get("ComparisonSlow", slow, "time/op"),
            Some((10055959.0, "ns".into(), 15))
        );
        assert_eq!(
            get("ComparisonSlow", slow, "total time"),
            Some((10.056, "ms".into(), 15))
        );
        assert_eq!(
            get("ComparisonSlow", slow, "throughput"),
            Some((99.4, "ops/s".into(), 15))
        );
        // A cell touching its `|`.
        let fast = "dim=512,suite=ComparisonFast";
        assert_eq!(
            get("ComparisonFast", fast, "throughput").unwrap().0,
            2560000000.0
        );
        let fl = "dim=8192,suite=fluctuating";
        assert_eq!(
            get("ComparisonFluctuating", fl, "time/op").unwrap().0,
            1098.0
        );
        // 5 + 4 + 5 rows, three values each.
        assert_eq!(o.len(), 42);
        assert!(o.iter().all(|r| r.stat == crate::model::Stat::Sample));
    }
}
