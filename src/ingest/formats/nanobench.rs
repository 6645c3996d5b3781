//! nanobench, the C++ micro-benchmark library, and the Markdown table it
//! prints: a header row whose last column (not closed by `|`) is the
//! benchmark's title, by default `benchmark`,
//!
//! ```text
//! |               ns/op |                op/s |    err% |     total | benchmark
//! |--------------------:|--------------------:|--------:|----------:|:----------
//! |       10,149,086.00 |               98.53 |    0.1% |      0.11 | `sleep 10ms`
//! |              744.50 |        1,343,183.34 |   11.2% |      0.00 | :wavy_dash: `random fluctuations` (Unstable with ~23.3 iters. …)
//! ```
//!
//! Benchmark the name between backticks. Columns are read by their
//! header: `ns/op` (or another time unit per op or per byte …) as
//! `time/op` in that unit, `op/s` and other per-second rates as
//! `throughput`, `err%` (nanobench's median absolute percentage error)
//! as `err` in %, `total` (the seconds all epochs took) as `total time`,
//! the counters (`ins/op`, `cyc/op`, `IPC`, `bra/op`, `miss%`) under
//! their own names; each a sample. `relative` is the row's speed against
//! the table's first row, a ratio of two rows read already: not read.
//! A row nanobench marks unstable (`:wavy_dash:`) is read; its remark
//! stays out of the name.

use crate::error::Result;
use crate::ingest::shared::logscan::num;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

/// The nanobench Markdown importer.
pub struct Nanobench;

/// The header's cells, when `text` is a nanobench header row.
fn header(text: &str) -> Option<Vec<String>> {
    let t = text.trim();
    if !t.starts_with('|') || t.ends_with('|') {
        return None;
    }
    let cells: Vec<String> = t[1..].split('|').map(|c| c.trim().to_string()).collect();
    let known = ["err%", "total"];
    let named = cells
        .iter()
        .any(|c| c.ends_with("/op") || c.ends_with("/s"));
    (cells.len() >= 3 && known.iter().all(|k| cells.iter().any(|c| c == k)) && named)
        .then_some(cells)
}

/// Metric and unit of a column, or `None` for a column not read.
fn column(name: &str) -> Option<(String, String)> {
    if name == "relative" {
        return None;
    }
    if name == "total" {
        return Some(("total time".into(), "s".into()));
    }
    if name == "err%" {
        return Some(("err".into(), "%".into()));
    }
    if let Some((unit, per)) = name.split_once('/') {
        if matches!(unit, "ns" | "us" | "µs" | "ms" | "s") {
            return Some((format!("time/{per}"), unit.replace('µ', "u")));
        }
        if per == "s" {
            return Some(("throughput".into(), name.into()));
        }
    }
    let unit = if name.ends_with('%') { "%" } else { "" };
    Some((name.into(), unit.into()))
}

/// The benchmark's name in a row's last cell: between backticks, or the
/// cell as it is.
fn name_of(cell: &str) -> &str {
    match cell.split('`').nth(1) {
        Some(n) if cell.matches('`').count() >= 2 => n,
        _ => cell.trim(),
    }
}

impl Format for Nanobench {
    fn name(&self) -> &'static str {
        "nanobench"
    }

    fn description(&self) -> &'static str {
        "nanobench Markdown table: `| ns/op | op/s | err% | … | total | benchmark`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if src
            .lines
            .iter()
            .take(200)
            .any(|l| header(&l.text).is_some())
        {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed) = (Vec::new(), Vec::new());
        let mut cols: Option<Vec<String>> = None;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            if let Some(h) = header(t) {
                cols = Some(h);
                consumed.push(n);
                continue;
            }
            let Some(names) = &cols else { continue };
            if !t.starts_with('|') {
                cols = None;
                continue;
            }
            let cells: Vec<&str> = t[1..].split('|').map(str::trim).collect();
            if cells.len() != names.len() {
                cols = None;
                continue;
            }
            if cells
                .iter()
                .all(|c| c.chars().all(|ch| matches!(ch, '-' | ':')))
            {
                consumed.push(n);
                continue;
            }
            let bench = name_of(cells[cells.len() - 1]);
            for (name, cell) in names.iter().zip(&cells).take(names.len() - 1) {
                let Some((metric, unit)) = column(name) else {
                    continue;
                };
                if cell.is_empty() {
                    continue;
                }
                let v = num(src, n, cell.trim_end_matches('%'), name)?;
                let row = Row::at(src, n).benchmark(bench).metric(&metric).unit(&unit);
                out.push(row.sample(v));
            }
        }
        Parsed::found(src, out, consumed, Vec::new(), "no nanobench table row")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    #[test]
    fn each_row_is_read_by_its_columns_under_its_name() {
        let p = parse_file(
            &Nanobench,
            "tests/data/harness/nanobench/three-benchmarks.md",
        );
        let o = &p.observations;
        let get = |b: &str, metric: &str| {
            let r = o
                .iter()
                .find(|r| r.benchmark == b && r.metric == metric)
                .unwrap();
            (r.value, r.unit.to_string())
        };
        assert_eq!(get("sleep 10ms", "time/op"), (10149086.0, "ns".into()));
        assert_eq!(get("x += x", "throughput"), (3192709967.58, "op/s".into()));
        assert_eq!(get("random fluctuations", "err"), (11.2, "%".into()));
        assert_eq!(get("random fluctuations", "IPC").0, 1.185);
        assert_eq!(get("sleep 10ms", "miss%"), (88.9, "%".into()));
        assert_eq!(get("sleep 10ms", "total time"), (0.11, "s".into()));
        // Three rows of nine columns read.
        assert_eq!(o.len(), 27);
        assert_eq!(p.consumed, vec![2, 3]);
    }

    #[test]
    fn columns_are_named_by_their_header() {
        assert_eq!(column("ns/byte"), Some(("time/byte".into(), "ns".into())));
        assert_eq!(column("B/s"), Some(("throughput".into(), "B/s".into())));
        assert_eq!(column("relative"), None);
        assert_eq!(name_of(":wavy_dash: `a b` (Unstable with ~2 iters)"), "a b");
    }
}
