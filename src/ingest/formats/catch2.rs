//! Catch2's console reporter for `BENCHMARK` blocks (v2.9 and later, v3):
//! under each test case's title, a header of stacked lines, each a row of
//! column names parted by two spaces or more,
//!
//! ```text
//! benchmark name                       samples       iterations    est run time
//!                                      mean          low mean      high mean
//!                                      std dev       low std dev   high std dev
//! -------------------------------------------------------------------------------
//! Fibonacci 20                                   100             2     8.3712 ms
//!                                          41.731 us      41.25 us     42.622 us
//!                                           3.256 us      2.163 us      5.353 us
//! ```
//!
//! then a record per benchmark of as many lines as the header has, each
//! ending in as many values as its header line has names (a number and
//! its time unit); a name too long for its column goes on at the start of
//! the record's next lines.
//!
//! Benchmark the record's name, with the test case's title (and its
//! sections) as parameter `case`, since two test cases may hold benchmarks
//! of the same name. Metric `time`: `mean` with its bootstrap interval
//! (`low mean`, `high mean`) as `ci_low`/`ci_high`, `std dev` as stddev,
//! `samples` as n. `iterations` and the estimated run time are settings
//! Catch2 chose for the run and the bounds of the standard deviation's
//! interval have no place in a row: these cells are not read. Column
//! names are taken from the header, not from their place, so a record of
//! other columns is read by what its header says.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, lines_containing, Params};
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::shared::source::Line;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};

lazy_re!(LOCATION, r"^\S+:\d+$");
lazy_re!(TOTALS, r"^(?:test cases|assertions): +(?:\d+ \||- none -)");

/// The Catch2 benchmark console importer.
pub struct Catch2;

/// A rule of dashes, which Catch2 puts around a test case's title.
fn is_dashes(text: &str) -> bool {
    is_rule(text) && text.trim_start().starts_with('-')
}

/// The first header line's opening cell.
const FIRST: &str = "benchmark name";

/// The cells of a line parted by two spaces or more.
fn cells(text: &str) -> Vec<&str> {
    text.split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect()
}

/// A line of one character repeated (Catch2's rules), at least 20 long.
fn is_rule(text: &str) -> bool {
    let t = text.trim();
    t.len() >= 20
        && t.bytes().all(|b| b == t.as_bytes()[0])
        && !t.as_bytes()[0].is_ascii_alphanumeric()
}

/// The header starting at `i`: its lines' column names (the first line's
/// without `benchmark name`) when the next lines hold only names and a
/// rule closes it; with the index of the rule.
fn header(lines: &[Line], i: usize) -> Option<(Vec<Vec<String>>, usize)> {
    let first = lines[i].text.trim_start().strip_prefix(FIRST)?;
    let mut names = vec![cells(first)
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()];
    let mut j = i + 1;
    while j < lines.len() && !is_rule(&lines[j].text) {
        let row = cells(&lines[j].text);
        if row.is_empty() || row.iter().any(|c| parse_number(c).is_some()) {
            return None;
        }
        names.push(row.iter().map(|c| c.to_string()).collect());
        j += 1;
    }
    let named = names.iter().all(|r| !r.is_empty()) && names.len() >= 2;
    (named && j < lines.len()).then_some((names, j))
}

/// Splits a record line into the text before its values and its last
/// `count` values, each a number and the time unit after it if any.
fn values(text: &str, count: usize) -> Option<(String, Vec<(f64, String)>)> {
    let mut tokens: Vec<&str> = text.split_whitespace().collect();
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let last = tokens.pop()?;
        let (num, unit) = match parse_number(last) {
            Some(v) => (v, ""),
            None if is_time_unit(last) => (parse_number(tokens.pop()?)?, last),
            None => return None,
        };
        out.push((num, unit.to_string()));
    }
    out.reverse();
    Some((tokens.join(" "), out))
}

fn is_time_unit(t: &str) -> bool {
    matches!(t, "ns" | "us" | "µs" | "ms" | "s")
}

/// What the cell under a header name holds.
fn stat_of(name: &str) -> Option<Stat> {
    match name {
        "mean" => Some(Stat::Mean),
        "low mean" => Some(Stat::CiLow),
        "high mean" => Some(Stat::CiHigh),
        "std dev" => Some(Stat::Stddev),
        "samples" => Some(Stat::N),
        _ => None,
    }
}

impl Format for Catch2 {
    fn name(&self) -> &'static str {
        "catch2"
    }

    fn description(&self) -> &'static str {
        "Catch2 benchmark console: `benchmark name  samples  iterations …` header of stacked lines, a record of as many lines per benchmark"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let starts = lines_containing(src, FIRST).count() > 0;
        if starts && (0..src.lines.len()).any(|i| header(&src.lines, i).is_some()) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let lines = &src.lines;
        let mut out: Vec<Observation> = Vec::new();
        let mut consumed: Vec<u32> = Vec::new();
        let mut skipped: Vec<(u32, String)> = Vec::new();
        let mut case = String::new();
        let mut i = 0;
        while i < lines.len() {
            if let Some((names, rule)) = header(lines, i) {
                consumed.extend(lines[i..=rule].iter().map(|l| l.number));
                i = records(src, rule + 1, &names, &case, &mut out);
                continue;
            }
            if is_dashes(&lines[i].text) {
                // A test case's title (and sections): the lines between two
                // rules of dashes, none blank; a header's lines end at such a
                // rule too, but are read above.
                let end = (i + 1..lines.len().min(i + 8))
                    .find(|&j| is_dashes(&lines[j].text) || lines[j].text.trim().is_empty());
                if let Some(end) = end.filter(|&e| e > i + 1 && is_dashes(&lines[e].text)) {
                    let title: Vec<&str> = lines[i + 1..end]
                        .iter()
                        .map(|l| l.text.trim())
                        .filter(|t| !t.is_empty())
                        .collect();
                    case = title.join(" / ");
                    consumed.extend(lines[i..=end].iter().map(|l| l.number));
                    i = end + 1;
                    // The test case's source location (`file.cpp:13`).
                    if lines
                        .get(i)
                        .is_some_and(|l| LOCATION.is_match(l.text.trim()))
                    {
                        consumed.push(lines[i].number);
                        i += 1;
                    }
                    continue;
                }
            }
            if TOTALS.is_match(&lines[i].text) {
                skipped.push((
                    lines[i].number,
                    "Catch2's count of test cases or assertions, no measurement".into(),
                ));
            }
            i += 1;
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no benchmark record under a `benchmark name  samples  iterations` header",
        )
    }
}

/// Reads the records from line `i` on, each as many lines as `names` has,
/// until a line that is no record's; returns the index of that line.
fn records(
    src: &Source,
    mut i: usize,
    names: &[Vec<String>],
    case: &str,
    out: &mut Vec<Observation>,
) -> usize {
    let lines = &src.lines;
    let mut params = Params::default();
    if !case.is_empty() {
        params.set("case", case);
    }
    let params = params.render();
    loop {
        while i < lines.len() && lines[i].text.trim().is_empty() {
            i += 1;
        }
        if i + names.len() > lines.len() {
            return i;
        }
        let mut name = Vec::new();
        let mut cells: Vec<(u32, &str, f64, String)> = Vec::new();
        for (k, row) in names.iter().enumerate() {
            let line = &lines[i + k];
            let Some((text, vals)) = values(&line.text, row.len()) else {
                return i;
            };
            if !text.is_empty() {
                name.push(text);
            }
            for (n, (v, u)) in row.iter().zip(vals) {
                cells.push((line.number, n.as_str(), v, u));
            }
        }
        if name.is_empty() {
            return i;
        }
        let benchmark = name.join(" ");
        // n has no unit; the others are times, in the mean's unit or their own.
        for (line, col, v, unit) in cells {
            let Some(stat) = stat_of(col) else { continue };
            let row = Row::at(src, line)
                .benchmark(&benchmark)
                .params(&params)
                .metric("time")
                .unit(&unit);
            out.push(row.stat(stat, v));
        }
        i += names.len();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<Observation> {
        let src = Source::from_text("c.txt", text);
        assert_eq!(Catch2.detect(&src), 95);
        Catch2.parse(&src).unwrap()
    }

    fn get(rows: &[Observation], bench: &str, stat: Stat) -> (f64, String) {
        let o = rows
            .iter()
            .find(|o| o.benchmark == bench && o.stat == stat)
            .unwrap_or_else(|| panic!("{bench} {stat:?}"));
        (o.value, o.unit.to_string())
    }

    // Lines of a Catch v2.11.0 run, from github-action-benchmark's
    // test/data/extract/catch2_output_v2.txt and bencher's
    // lib/bencher_adapter/tool_output/cpp/catch2/issue_351.txt.
    const RUN: &str =
        "-------------------------------------------------------------------------------
Even More Fibonacci
  With a long name
-------------------------------------------------------------------------------
/tmp/catch2_bench.cpp:26
...............................................................................

benchmark name                       samples       iterations    estimated
                                     mean          low mean      high mean
                                     std dev       low std dev   high std dev
-------------------------------------------------------------------------------
Fibonacci 10 with                                         100           208     7.1968 ms 
a long name                                            344 ns        341 ns        349 ns 
                                                        19 ns         11 ns         29 ns 
                                                                                          
Fibonacci-15_bench                                        100            20       7.48 ms 
                                                     3.789 us      3.734 us      3.888 us 
                                                       362 ns        234 ns        539 ns 

===============================================================================
test cases: 2 | 2 passed
";

    #[test]
    fn each_record_gives_mean_interval_stddev_and_n() {
        let rows = read(RUN);
        let b = "Fibonacci 10 with a long name";
        assert_eq!(get(&rows, b, Stat::Mean), (344.0, "ns".into()));
        assert_eq!(get(&rows, b, Stat::CiLow), (341.0, "ns".into()));
        assert_eq!(get(&rows, b, Stat::CiHigh), (349.0, "ns".into()));
        assert_eq!(get(&rows, b, Stat::Stddev), (19.0, "ns".into()));
        assert_eq!(get(&rows, b, Stat::N).0, 100.0);
        let b = "Fibonacci-15_bench";
        assert_eq!(get(&rows, b, Stat::Mean), (3.789, "us".into()));
        assert_eq!(get(&rows, b, Stat::Stddev), (362.0, "ns".into()));
        // iterations and the estimate are settings; the stddev bounds unread.
        assert_eq!(rows.len(), 10);
        assert!(rows
            .iter()
            .all(|o| o.params == "case=Even More Fibonacci / With a long name"));
        assert!(rows.iter().all(|o| o.metric == "time"));
        let src = Source::from_text("c.txt", RUN);
        let parsed = Catch2.parse_accounted(&src).unwrap();
        assert!(parsed.consumed.contains(&5), "the location line");
        assert_eq!(parsed.skipped.len(), 1);
        assert_eq!(parsed.skipped[0].0, 21);
    }

    #[test]
    fn a_header_needs_its_stacked_name_lines_and_rule() {
        // `benchmark name` alone, or followed by values, is no header.
        let src = Source::from_text(
            "c.txt",
            "benchmark name     samples\nFibonacci 10    100\n-----------------------------\n",
        );
        assert_eq!(Catch2.detect(&src), 0);
        let src = Source::from_text("c.txt", "benchmark name    samples    iterations\n");
        assert_eq!(Catch2.detect(&src), 0);
    }

    #[test]
    fn a_header_without_records_is_refused_at_the_last_line() {
        let text = "benchmark name   samples   iterations\n                 mean      low mean\n--------------------------------\n\nall done\n";
        let src = Source::from_text("c.txt", text);
        let e = Catch2.parse(&src).unwrap_err().to_string();
        assert!(e.contains("c.txt:5"), "{e}");
    }
}
