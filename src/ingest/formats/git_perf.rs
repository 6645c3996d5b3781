//! Git's performance suite (`t/perf`): the table its `run` and
//! `aggregate.perl` scripts print, one row per test and one column per
//! git tree or revision measured.
//!
//! ```text
//! Test                               HEAD^             HEAD
//! -----------------------------------------------------------------------
//! 0001.1: rev-list --all             0.69(0.65+0.02)   0.69(0.66+0.02) +0.0%
//! 5311.41: size   (1 days, --path-walk)      139.6K            139.7K +0.0%
//! ```
//!
//! A timed test's cell is `real(user+system)` in seconds: the repeat of
//! least real time (perf-lib keeps the fastest of `GIT_PERF_REPEAT_COUNT`
//! runs), its user and system time beside it. A `test_size` test's cell is
//! one figure, scaled by K, M or G (thousands), in whatever unit the test
//! measures. Every column but the first is followed by its change against
//! the first (`+0.3%`, `=` when both are zero, `+inf` from zero), once with
//! significance marks glued to it (`+3.2%*`, under a `Significance hints:`
//! line); a test that did not finish prints `<missing>`.
//!
//! Benchmark: the row's test number and description (`0001.1: rev-list
//! --all`, spacing collapsed); variant: the column's header (`this tree`,
//! a revision, a path), or `column N` for a row pasted without its header.
//! A row whose first cell carries a change lost its first column (the
//! writer cut it): its cells are numbered from the second. Metrics `real
//! time` (the `min` of the repeats), `user time` and `system time` (that
//! run's, each a `sample`), in s; `size` (a `sample`, no unit); and the
//! stated change of each later column's real time or size (`change%`).
//! The header, its rules and the significance legend are context.
//!
//! In a mail, a row is the suite's when it opens with a test number
//! (`0001.1:`); under a header and its rule, so is a row of timings with
//! any label (a writer's relabelled `full-v3  0.15(0.10+0.06)`). A line of
//! anything else ends the table.

use crate::error::Result;
use crate::ingest::shared::logscan::{any_with, lazy_re, num};
use crate::ingest::shared::numbers::scale_suffix;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};

lazy_re!(
    TIMED_ROW,
    r"^\s*\d{4}\.\d+:\s.*\d\(\d+(?:\.\d+)?\+\d+(?:\.\d+)?\)"
);
lazy_re!(HEADER, r"^\s*Test\s{2,}(\S.*?)\s*$");
lazy_re!(RULE, r"^\s*-{10,}\s*$");
lazy_re!(LEGEND, r"^\s*Significance hints:");
// A test's number: its script's four digits (`p0001-rev-list.sh`), a dot
// and the test's rank in the script.
lazy_re!(TEST_ID, r"^\d{4}\.\d+:");
// A cell of timings, at the end of a token: a quoted row elided by its
// writer glues it to the description (`--follow [...]8.56(8.41+0.15)`).
lazy_re!(
    TIMES,
    r"(\d+(?:\.\d+)?)\((\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)\)$"
);
lazy_re!(SIZE, r"^(\d+(?:\.\d+)?)([KMG]?)$");
lazy_re!(CHANGE, r"^(?:([+-]\d+(?:\.\d+)?)%|=|[+-]inf)[.*]*$");

/// The git perf-suite importer.
pub struct GitPerf;

/// What one cell of a row holds.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    /// Real, user and system time, in seconds.
    Times(String, String, String),
    /// A `test_size` figure and its scale factor.
    Size(String, f64),
    /// `<missing>`: the test did not finish.
    Missing,
}

/// One cell of a row: its value and the change printed after it (the
/// number of a `+0.3%`; `None` for the first column, `=`, `+inf`).
#[derive(Debug, Clone, PartialEq)]
struct Cell {
    value: Value,
    change: Option<String>,
    /// Whether any change was printed after it (`=` and `+inf` too).
    changed: bool,
}

/// One row: the test's label and its cells.
#[derive(Debug, PartialEq)]
struct TableRow {
    label: String,
    cells: Vec<Cell>,
    /// Whether the row has a cell of timings (not only sizes).
    timed: bool,
}

impl Format for GitPerf {
    fn name(&self) -> &'static str {
        "git-perf"
    }

    fn description(&self) -> &'static str {
        "git's performance suite (t/perf run/aggregate.perl): `0001.1: rev-list --all   \
         0.69(0.65+0.02)` rows, real(user+system) seconds or a size per tree"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if any_with(src, ")", &TIMED_ROW) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        // The column names of the table under way, once its rule is seen;
        // a header line waits for its rule.
        let mut columns: Option<Vec<String>> = None;
        let mut pending: Option<(u32, Vec<String>)> = None;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            if t.is_empty() {
                continue;
            }
            if RULE.is_match(t) {
                if let Some((h, names)) = pending.take() {
                    consumed.push(h);
                    columns = Some(names);
                }
                if columns.is_some() {
                    consumed.push(n);
                }
                continue;
            }
            pending = None;
            if let Some(c) = HEADER.captures(t) {
                columns = None;
                pending = Some((n, split_header(&c[1])));
                continue;
            }
            if columns.is_some() && LEGEND.is_match(t) {
                consumed.push(n);
                continue;
            }
            let header = columns.as_deref();
            match parse_row(t, header.map(<[String]>::len)) {
                // A line of prose ending in a number is no row of sizes.
                Some(row) if TEST_ID.is_match(&row.label) || header.is_some() && row.timed => {
                    if row.cells.iter().all(|c| c.value == Value::Missing) {
                        skipped.push((n, MISSING.to_string()));
                    } else {
                        emit(src, n, &row, header, &mut out)?;
                    }
                }
                _ => columns = None,
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no row of git's perf suite (`0001.1: rev-list --all   0.69(0.65+0.02)`)",
        )
    }
}

/// Why a row of `<missing>` cells gives nothing.
const MISSING: &str = "every cell `<missing>`: the test did not finish in any tree";

/// The column names after `Test`: aggregate.perl pads each to its
/// column's width and puts three spaces between, and a name may hold one
/// space (`this tree`).
fn split_header(names: &str) -> Vec<String> {
    names
        .split("  ")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// `text` read as a row of the table, or `None`. A row of timings has
/// its label before the first `r(u+s)` cell and nothing but cells and
/// changes after it; a row of sizes is read from its end, at most
/// `width` cells (the header's count) when a header is known.
fn parse_row(text: &str, width: Option<usize>) -> Option<TableRow> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let first = tokens.iter().position(|t| TIMES.is_match(t));
    let (label, cells) = match first {
        Some(i) => {
            let m = TIMES.find(tokens[i])?;
            let mut label: Vec<&str> = tokens[..i].to_vec();
            let head = &tokens[i][..m.start()];
            if !head.is_empty() {
                label.push(head);
            }
            let mut cells = vec![&tokens[i][m.start()..]];
            cells.extend(&tokens[i + 1..]);
            // `<missing>` cells before the first timed one.
            let missing = label
                .iter()
                .rev()
                .take_while(|t| **t == "<missing>")
                .count();
            let rest = cells;
            let mut cells: Vec<&str> = label.split_off(label.len() - missing);
            cells.extend(rest);
            (label, read_cells(&cells)?)
        }
        None => {
            // From the end: changes and sizes, up to the header's width.
            let limit = width.unwrap_or(usize::MAX);
            let mut start = tokens.len();
            let mut values = 0;
            while start > 0 {
                let t = tokens[start - 1];
                if CHANGE.is_match(t) {
                    // A change follows a value: the token before must be one.
                    if start < 2 || !is_value(tokens[start - 2]) {
                        break;
                    }
                } else if is_value(t) {
                    if values == limit {
                        break;
                    }
                    values += 1;
                } else {
                    break;
                }
                start -= 1;
            }
            // A change read with no value after the label before it is the
            // label's (never the case when the loop stops on a value).
            if values == 0 {
                return None;
            }
            (tokens[..start].to_vec(), read_cells(&tokens[start..])?)
        }
    };
    if cells.is_empty() {
        return None;
    }
    Some(TableRow {
        label: label.join(" "),
        cells,
        timed: first.is_some(),
    })
}

/// Whether `t` is the value of a row of sizes: a size or `<missing>`.
fn is_value(t: &str) -> bool {
    t == "<missing>" || SIZE.is_match(t)
}

/// `tokens`, every one a cell's value or the change after one, as cells.
fn read_cells(tokens: &[&str]) -> Option<Vec<Cell>> {
    let mut cells: Vec<Cell> = Vec::new();
    for t in tokens {
        if let Some(c) = CHANGE.captures(t) {
            let cell = cells.last_mut().filter(|c| !c.changed)?;
            cell.changed = true;
            cell.change = c.get(1).map(|m| m.as_str().to_string());
            continue;
        }
        let value = if *t == "<missing>" {
            Value::Missing
        } else if let Some(c) = TIMES
            .captures(t)
            .filter(|c| c.get(0).is_some_and(|m| m.start() == 0))
        {
            Value::Times(c[1].to_string(), c[2].to_string(), c[3].to_string())
        } else if let Some(c) = SIZE.captures(t) {
            Value::Size(c[1].to_string(), scale_suffix(&c[2]).unwrap_or(1.0))
        } else {
            return None;
        };
        cells.push(Cell {
            value,
            change: None,
            changed: false,
        });
    }
    Some(cells)
}

/// The rows of one table row: each cell under its column's name.
fn emit(
    src: &Source,
    n: u32,
    row: &TableRow,
    header: Option<&[String]>,
    out: &mut Vec<Observation>,
) -> Result<()> {
    // aggregate.perl prints no change after the first column: a row whose
    // first cell has one lost its first column.
    let offset = usize::from(row.cells[0].changed);
    let name = |i: usize| -> String {
        match header {
            Some(h) if h.len() >= offset + row.cells.len() => h[offset + i].clone(),
            _ => format!("column {}", offset + i + 1),
        }
    };
    let at = || Row::at(src, n).benchmark(&row.label);
    for (i, cell) in row.cells.iter().enumerate() {
        let variant = name(i);
        let changed_metric = match &cell.value {
            Value::Missing => continue,
            Value::Times(r, u, s) => {
                let time = |m: &str, v: &str| num(src, n, v, m);
                out.push(
                    at().metric("real time")
                        .unit("s")
                        .stat(Stat::Min, time("real time", r)?)
                        .with_variant(variant.as_str()),
                );
                for (m, v) in [("user time", u), ("system time", s)] {
                    out.push(
                        at().metric(m)
                            .unit("s")
                            .sample(time(m, v)?)
                            .with_variant(variant.as_str()),
                    );
                }
                ("real time", "s")
            }
            Value::Size(v, scale) => {
                let v = num(src, n, v, "size")? * scale;
                out.push(at().metric("size").sample(v).with_variant(variant.as_str()));
                ("size", "")
            }
        };
        if let Some(c) = &cell.change {
            let (metric, unit) = changed_metric;
            out.push(
                at().metric(metric)
                    .unit(unit)
                    .stat(Stat::ChangePct, num(src, n, c, "change")?)
                    .with_variant(variant.as_str()),
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    /// The `(variant, metric, stat, value)` of the rows of `label`.
    fn of(p: &Parsed, label: &str) -> Vec<(String, String, Stat, f64)> {
        p.observations
            .iter()
            .filter(|o| o.benchmark == label)
            .map(|o| (o.variant.to_string(), o.metric.to_string(), o.stat, o.value))
            .collect()
    }

    fn row(variant: &str, metric: &str, stat: Stat, value: f64) -> (String, String, Stat, f64) {
        (variant.into(), metric.into(), stat, value)
    }

    #[test]
    fn times_and_sizes_of_one_tree() {
        let p = parse_file(
            &GitPerf,
            "tests/data/harness/git-perf/p5313-this-tree-times-and-sizes.txt",
        );
        assert_eq!(p.observations.len(), 4 * 3 + 4);
        assert_eq!(
            of(&p, "5313.24: repack with --path-walk"),
            [
                row("this tree", "real time", Stat::Min, 81.29),
                row("this tree", "user time", Stat::Sample, 96.08),
                row("this tree", "system time", Stat::Sample, 0.71),
            ]
        );
        assert_eq!(
            of(&p, "5313.25: repack size with --path-walk"),
            [row("this tree", "size", Stat::Sample, 142.5e6)]
        );
        assert!(p.observations.iter().all(|o| o.line > 2));
        assert_eq!(p.consumed, [1, 2]);
    }

    #[test]
    fn later_columns_state_their_change_against_the_first() {
        let p = parse_file(
            &GitPerf,
            "tests/data/harness/git-perf/p5311-head-vs-parent-times-and-sizes.txt",
        );
        // Two tables: 16 timed rows (3 values a column, a change) and 8
        // of sizes, then 2 more of sizes under a header of their own.
        assert_eq!(p.observations.len(), 16 * 7 + 10 * 3);
        assert_eq!(p.consumed, [1, 2, 28, 29]);
        assert_eq!(
            of(&p, "5311.40: server (1 days, --path-walk)"),
            [
                row("HEAD^", "real time", Stat::Min, 1.43),
                row("HEAD^", "user time", Stat::Sample, 1.39),
                row("HEAD^", "system time", Stat::Sample, 0.04),
                row("HEAD", "real time", Stat::Min, 0.01),
                row("HEAD", "user time", Stat::Sample, 0.01),
                row("HEAD", "system time", Stat::Sample, 0.0),
                row("HEAD", "real time", Stat::ChangePct, -99.3),
            ]
        );
        // A size row's description keeps its words, its padding collapsed.
        assert_eq!(
            of(&p, "5311.61: size (32 days, --path-walk)"),
            [
                row("HEAD^", "size", Stat::Sample, 4.2e6),
                row("HEAD", "size", Stat::Sample, 4.2e6),
                row("HEAD", "size", Stat::ChangePct, 0.1),
            ]
        );
    }

    #[test]
    fn three_trees_with_significance_marks_and_their_legend() {
        let p = parse_file(
            &GitPerf,
            "tests/data/harness/git-perf/p4000-three-trees-significance-hints.txt",
        );
        assert_eq!(p.observations.len(), 5 * 11);
        let rows = of(&p, "4000.3: log -p -3000 (Myers)");
        assert_eq!(
            rows[0],
            row("tr/darwin-xdl-fast-hash", "real time", Stat::Min, 1.81)
        );
        assert_eq!(rows[3], row("origin/next", "real time", Stat::Min, 1.81));
        assert_eq!(
            rows[10],
            row("origin/master", "real time", Stat::ChangePct, 10.2)
        );
        // Header, both rules and the legend.
        assert_eq!(p.consumed, [1, 2, 8, 9]);
    }

    #[test]
    fn quoted_rows_without_a_header_are_numbered_and_a_cut_first_column_is_seen() {
        let src = Source::from_text(
            "mail.txt",
            "Two of them come back quoted:\n\
             \n\
             > > 4211.3: git log --follow [...]8.56(8.41+0.15) -0.2%       3.67(3.53+0.13) -57.2%\n\
             > > 0001.9: rev-list --objects $commit --not --all    0.08(0.05+0.03)   0.08(0.05+0.03) +0.0%\n\
             > > 0001.10: size of it   12.5K   <missing>\n",
        );
        let p = GitPerf.parse_accounted(&src).unwrap();
        let cut = of(&p, "4211.3: git log --follow [...]");
        assert_eq!(cut[0], row("column 2", "real time", Stat::Min, 8.56));
        assert_eq!(cut[3], row("column 2", "real time", Stat::ChangePct, -0.2));
        assert_eq!(cut[4], row("column 3", "real time", Stat::Min, 3.67));
        let whole = of(&p, "0001.9: rev-list --objects $commit --not --all");
        assert_eq!(whole[0], row("column 1", "real time", Stat::Min, 0.08));
        assert_eq!(whole[3], row("column 2", "real time", Stat::Min, 0.08));
        assert_eq!(
            of(&p, "0001.10: size of it"),
            [row("column 1", "size", Stat::Sample, 12.5e3)]
        );
        assert!(p.observations.iter().all(|o| o.line >= 3));
    }

    #[test]
    fn prose_and_rows_of_nothing_are_not_rows() {
        let src = Source::from_text(
            "mail.txt",
            "Test                 HEAD^             HEAD\n\
             ------------------------------------------------\n\
             full-v3              0.15(0.10+0.06)   0.32(0.16+0.17) +113.3%\n\
             0002.1: read         <missing>         <missing>\n\
             and I ran it 3 times and got 5\n\
             full-v4              0.15(0.11+0.05)   0.32(0.17+0.16) +113.3%\n",
        );
        let p = GitPerf.parse_accounted(&src).unwrap();
        assert_eq!(of(&p, "full-v3").len(), 7);
        assert_eq!(p.skipped.len(), 1);
        assert_eq!(p.skipped[0].0, 4);
        // The prose line ended the table: a relabelled row after it is
        // no longer under a header.
        assert!(of(&p, "and I ran it 3 times and got").is_empty());
        assert!(of(&p, "full-v4").is_empty());
    }

    #[test]
    fn only_the_suite_s_rows_are_detected() {
        let yes = Source::from_text("a.txt", "0001.1: rev-list --all   0.69(0.65+0.02)\n");
        assert_eq!(GitPerf.detect(&yes), 95);
        for no in [
            "2.6.18: 0.69(0.65+0.02)\n",
            "Test   HEAD\n-----------\nfoo 12.5\n",
            "real 0.69 (0.65+0.02)\n",
        ] {
            assert_eq!(GitPerf.detect(&Source::from_text("a.txt", no)), 0, "{no}");
        }
        assert!(GitPerf
            .parse_accounted(&Source::from_text("a.txt", "nothing here\n"))
            .is_err());
    }
}
