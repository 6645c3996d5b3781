//! Phoronix Test Suite results exported as CSV, in either of its two
//! layouts:
//!
//! - `result-file-to-csv`: the systems' hardware and software, then a
//!   table of the tests, a row each: `"Title - Description (unit)",HIB,v1,v2`
//!   under a header ` ,,"system1","system2"` naming each column's system.
//!   Each value is the mean the suite computed.
//! - `result-file-raw-to-csv`: per test, a quoted `"Title version -
//!   Description",` heading, its `Higher Results Are Better` line, then a
//!   line per system with the value of each of its runs (one sample each).
//!
//! The names agree with the XML and JSON readers': the test's title is the
//! benchmark (the raw layout's version after it is dropped), the
//! description the parameters, the system the variant.

use crate::error::Result;
use crate::ingest::formats::phoronix::description_params;
use crate::ingest::shared::logscan::num;
use crate::ingest::shared::structured::split_csv;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Direction, Observation, Stat};

/// A test's parameters, as [`description_params`] gives them.
type Params = Vec<(String, String)>;

/// The Phoronix Test Suite CSV export importer.
pub struct PhoronixCsv;

/// How many lines detection looks at: the system table above the results
/// is a dozen lines per component kind.
const DETECT_LINES: usize = 400;

fn direction_of(cell: &str) -> Option<Direction> {
    match cell.trim() {
        "HIB" | "Higher Results Are Better" => Some(Direction::Higher),
        "LIB" | "Lower Results Are Better" => Some(Direction::Lower),
        _ => None,
    }
}

/// A summary row: a quoted name ending in a unit in brackets, then the
/// proportion.
fn is_summary_row(t: &str) -> bool {
    // The quote first: most lines are ruled out before any split.
    if !t.starts_with('"') || !t.contains("\",") {
        return false;
    }
    let cells = split_csv(t, ',');
    cells.len() >= 3
        && cells[0].trim_end().ends_with(')')
        && matches!(cells[1].trim(), "HIB" | "LIB")
}

/// `Title - Description (unit)` as (title, description, unit).
fn split_name(cell: &str) -> (&str, &str, &str) {
    let cell = cell.trim();
    let (name, unit) = match cell.strip_suffix(')').and_then(|c| c.rsplit_once(" (")) {
        Some((name, unit)) => (name, unit),
        None => (cell, ""),
    };
    match name.split_once(" - ") {
        Some((title, desc)) => (title.trim(), desc.trim(), unit),
        None => (name.trim(), "", unit),
    }
}

/// The raw layout's heading names the test with its version
/// (`Sysbench Local 1.0.20`); the other exports name it without.
fn without_version(title: &str) -> &str {
    match title.rsplit_once(' ') {
        Some((head, last))
            if last
                .trim_start_matches('v')
                .starts_with(|c: char| c.is_ascii_digit())
                && last
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_')) =>
        {
            head.trim_end()
        }
        _ => title,
    }
}

impl Format for PhoronixCsv {
    fn name(&self) -> &'static str {
        "phoronix-csv"
    }

    fn description(&self) -> &'static str {
        "Phoronix Test Suite result-file-to-csv (each system's mean) and result-file-raw-to-csv (each run) exports"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let lines: Vec<&str> = src
            .lines
            .iter()
            .take(DETECT_LINES)
            .map(|l| l.text.trim_end())
            .collect();
        let summary =
            lines.iter().any(|t| t.starts_with(" ,,\"")) && lines.iter().any(|t| is_summary_row(t));
        let raw = lines.windows(2).any(|w| {
            w[0].starts_with('"')
                && w[0].ends_with("\",")
                && matches!(
                    w[1],
                    "Higher Results Are Better" | "Lower Results Are Better"
                )
        });
        if summary || raw {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut consumed = Vec::new();
        // The summary layout's columns, from its latest header.
        let mut systems: Vec<String> = Vec::new();
        // The raw layout's test: title, parameters and direction.
        let mut test: Option<(String, Params, Option<Direction>)> = None;
        let mut in_data = false;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim_end());
            if t.is_empty() {
                // A blank line after a raw heading opens its system lines;
                // one after them closes the test.
                in_data = test.is_some() && !in_data;
                if !in_data {
                    test = None;
                }
                continue;
            }
            if let Some(header) = t.strip_prefix(" ,,") {
                systems = split_csv(header, ',')
                    .into_iter()
                    .map(|c| c.trim().to_string())
                    .collect();
                consumed.push(n);
                continue;
            }
            if is_summary_row(t) {
                let cells = split_csv(t, ',');
                let (title, desc, unit) = split_name(&cells[0]);
                let params = description_params(desc);
                let direction = direction_of(&cells[1]);
                for (system, cell) in systems.iter().zip(&cells[2..]) {
                    if cell.trim().is_empty() {
                        continue;
                    }
                    let mut o = Observation::new(
                        title,
                        "result",
                        unit,
                        Stat::Mean,
                        num(src, n, cell.trim(), "value")?,
                    )
                    .with_params(&params)
                    .with_variant(system.as_str())
                    .at_line(n);
                    o.direction = direction;
                    out.push(o);
                }
                continue;
            }
            if !in_data && t.starts_with('"') && t.ends_with("\",") {
                let name = t.trim_end_matches(',').trim_matches('"');
                let (title, desc, _) = split_name(name);
                test = Some((
                    without_version(title).to_string(),
                    description_params(desc),
                    None,
                ));
                consumed.push(n);
                continue;
            }
            if let (Some(d), Some((_, _, dir))) = (direction_of(t), test.as_mut()) {
                *dir = Some(d);
                consumed.push(n);
                continue;
            }
            if let (true, Some((title, params, direction))) = (in_data, &test) {
                let cells = split_csv(t, ',');
                let system = cells[0].trim();
                for (run, cell) in cells[1..]
                    .iter()
                    .filter(|c| !c.trim().is_empty())
                    .enumerate()
                {
                    let mut o = Observation::new(
                        title,
                        "result",
                        "",
                        Stat::Sample,
                        num(src, n, cell.trim(), "run value")?,
                    )
                    .with_params(params)
                    .with_variant(system)
                    .at_line(n)
                    .with_run(run as u32);
                    o.direction = *direction;
                    out.push(o);
                }
                continue;
            }
            // The title line and the systems' components (`Processor,,…`)
            // describe the comparison.
            consumed.push(n);
        }
        Parsed::found(
            src,
            out,
            consumed,
            Vec::new(),
            "a Phoronix CSV export without a result value",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_versions() {
        assert_eq!(
            split_name("Sysbench Local - Test: CPU (Events/sec)"),
            ("Sysbench Local", "Test: CPU", "Events/sec")
        );
        assert_eq!(without_version("Sysbench Local 1.0.20"), "Sysbench Local");
        assert_eq!(without_version("Sysbench Local"), "Sysbench Local");
        assert_eq!(without_version("PostgreSQL 16"), "PostgreSQL");
    }
}
