//! The generic reader: a text log no importer recognises, read line by
//! line as `label: number [unit]`, `label = number [unit]` or `label
//! number [unit]`. It is never chosen by detection; the driver falls back
//! to it when no format claims a file (or the document reader claims one
//! and finds no table), and `--format generic` asks for it.
//!
//! Benchmark: the file's first line when it is a title (letters, no
//! digits, no value), else the file name without its extension. Metric:
//! the label, prefixed by the section it sits under (`Latency (ms):` then
//! an indented `min: 0.11` gives `Latency min` in ms). Unit: the token after the number,
//! else one in brackets at the label's end (`time (ms): 3`). Each value is
//! a `sample`; a label seen again (a log of several runs) is the next run.
//! Only lines whose whole text is label, number and unit are read: a line
//! with a second number is ambiguous and stays unread, so the accounting
//! lists it. A line of `key=value` pairs (`IOPS=59.08M, BW=28.84GiB/s`)
//! gives a value per pair, metric the key; a block of such lines under a
//! heading line (`IRQ, 128/32/32, cache off`) takes it as its variant.
//! A line naming its values in brackets (`Latencies [min, mean] 1ms,
//! 2ms`) gives a value per name (see `named_list`).
//! JSON is read by its structure instead (see `json`).

mod cut;
mod delimited;
mod embedded;
mod json;
mod label_lines;
mod literals;
mod named_list;
mod numbers;
mod pairs;
mod sections;
mod stacked;
mod value_line;
mod xml;

use crate::error::Result;
use crate::ingest::{Confidence, Format, Parsed, Source};
use label_lines::label_lines;
use value_line::{bracket_unit, is_unit, MAX_LABEL};

/// The name the accounting shows for generically read files.
pub const NAME: &str = "generic";

/// The generic `label: value` reader.
pub struct Generic;

/// Source code and patches hold `name = 3` lines that are no measurement:
/// the generic reader leaves them alone (their lines stay unread).
fn is_log(src: &Source) -> bool {
    const CODE: [&str; 16] = [
        "c", "cc", "cpp", "cxx", "h", "hpp", "rs", "py", "go", "java", "js", "ts", "diff", "patch",
        "sh", "toml",
    ];
    let name = src.file_name();
    let ext = name
        .rsplit_once('.')
        .map_or("", |(_, e)| e)
        .to_ascii_lowercase();
    if CODE.contains(&ext.as_str()) {
        return false;
    }
    let first = src.lines.iter().find(|l| !l.text.trim().is_empty());
    !first.is_some_and(|l| {
        let t = l.text.as_str();
        t.starts_with("diff --git")
            || t.starts_with("--- ")
            || t.starts_with("#include")
            || t.starts_with("From ")
    })
}

/// The file's name without its extensions.
fn file_stem(src: &Source) -> String {
    let name = src.file_name();
    name.split('.')
        .next()
        .filter(|s| !s.is_empty())
        .unwrap_or(name)
        .to_string()
}

impl Format for Generic {
    fn name(&self) -> &'static str {
        NAME
    }

    fn description(&self) -> &'static str {
        "any other text log: `label: number [unit]` / `label number [unit]` lines, `key=value` records, delimited tables with a header (`,` `;` or tab: a metric per numeric column), any other JSON or JSON lines, each number named by its keys, and any other XML document, each number named by its elements (used when no importer recognises a file)"
    }

    fn detect(&self, _src: &Source) -> Confidence {
        0
    }

    /// Section titles (`Latency (ms):`) and the title line are `consumed`.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        Generic::read(src).map(|(parsed, _)| parsed)
    }
}

/// Which of its readings the generic reader gave a file: the accounting
/// tells the user, since nothing but the layout named the values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// JSON or JSON lines, each number named by its keys.
    Json,
    /// Bare numbers, one a line, or lines of as many numbers each.
    Numbers,
    /// A delimited table under a header line.
    Delimited,
    /// An XML document, each number named by its elements.
    Xml,
    /// `label: value` lines and `key=value` records.
    Lines,
}

impl Shape {
    /// How the note to the user names this reading.
    pub fn describe(self) -> &'static str {
        match self {
            Shape::Json => "JSON, each number named by the keys above it",
            Shape::Numbers => "lines of numbers (nothing names them)",
            Shape::Delimited => "a delimited table, each numeric column named by its header",
            Shape::Xml => "XML, each number named by the elements above it",
            Shape::Lines => "`label: value` lines",
        }
    }
}

impl Generic {
    /// The values the generic reader finds in `src`, and which reading
    /// found them.
    pub fn read(src: &Source) -> Result<(Parsed, Shape)> {
        if src.looks_like_json() {
            let parsed = json::read(src, &file_stem(src)).unwrap_or_else(|| Ok(Parsed::default()));
            return parsed.map(|p| (p, Shape::Json));
        }
        if xml::looks_like_xml(src) {
            if let Some(values) = xml::read(src, &file_stem(src)) {
                return Ok((values, Shape::Xml));
            }
        }
        if !is_log(src) {
            return Ok((Parsed::default(), Shape::Lines));
        }
        if let Some(found) = embedded::read(src, &file_stem(src)) {
            let (mut parsed, inside) = found?;
            // The lines around the documents are read as any log's.
            let rest = label_lines(&without(src, &inside));
            parsed.observations.extend(rest.observations);
            parsed.consumed.extend(rest.consumed);
            parsed.skipped.extend(rest.skipped);
            return Ok((parsed, Shape::Json));
        }
        if let Some(values) = numbers::bare_numbers(src) {
            return Ok((values, Shape::Numbers));
        }
        if let Some(values) = delimited::read(src, &file_stem(src)) {
            return Ok((values, Shape::Delimited));
        }
        Ok((label_lines(src), Shape::Lines))
    }
}

/// `src` with the lines flagged in `inside` (by index in `src.lines`)
/// blanked, every other line at its number.
fn without(src: &Source, inside: &[bool]) -> Source {
    let gone: std::collections::HashSet<u32> = src
        .lines
        .iter()
        .zip(inside)
        .filter(|(_, &i)| i)
        .map(|(l, _)| l.number)
        .collect();
    let text: Vec<&str> = (1u32..)
        .zip(src.raw.lines())
        .map(|(n, t)| if gone.contains(&n) { "" } else { t })
        .collect();
    Source::from_text(&src.path, &text.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_document_inside_a_log_is_read_with_the_lines_around_it() {
        // libtest's lines, then a JSON line cut from bencher's
        // rust/gungraun/json_one_callgrind_all_metrics.txt, and a label line.
        let text = "running 0 tests\n\n\
            {\"module_path\":\"play_game::bench_play_game_100\",\"Ir\":{\"Int\":21880}}\n\
            elapsed: 3.5 s\n";
        let src = Source::from_text("g.txt", text);
        let (p, shape) = Generic::read(&src).unwrap();
        assert_eq!(shape, Shape::Json);
        let got: Vec<(u32, &str, f64)> = p
            .observations
            .iter()
            .map(|o| (o.line, o.metric.as_str(), o.value))
            .collect();
        // The lines around are read as before (libtest's count too, as
        // in any log read generically).
        assert_eq!(
            got,
            [
                (3, "Ir.Int", 21880.0),
                (1, "running", 0.0),
                (4, "elapsed", 3.5)
            ]
        );
    }

    #[test]
    fn an_unknown_log_is_read_with_sections_and_runs() {
        let src = Source::from_text(
            "tests/data/x/mytool-run.log",
            "My Tool Benchmark\n\nthreads: 4\nLatency (ms):\n    min: 0.11\n    avg: 0.12\n\
             rate 510.5 ops/s\nrate 512.25 ops/s\nsee 2 errors in 3 files\n",
        );
        let p = Generic.parse_accounted(&src).unwrap();
        let got: Vec<(&str, &str, &str, f64)> = p
            .observations
            .iter()
            .map(|o| {
                (
                    o.benchmark.as_str(),
                    o.metric.as_str(),
                    o.unit.as_str(),
                    o.value,
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                ("My Tool Benchmark", "threads", "", 4.0),
                ("My Tool Benchmark", "Latency min", "ms", 0.11),
                ("My Tool Benchmark", "Latency avg", "ms", 0.12),
                ("My Tool Benchmark", "rate", "ops/s", 510.5),
                ("My Tool Benchmark", "rate", "ops/s", 512.25),
            ]
        );
        assert_eq!(p.consumed, vec![4]);
    }

    #[test]
    fn a_name_over_a_bare_number_is_its_label() {
        let src = Source::from_text(
            "bench.log",
            "gcc numa01.c -o numa01\nHyper-Threading IS enabled.\nnuma01\n313.17\n\
             numa01_HARD_BIND\n120.33\nThe End\n7\n",
        );
        let p = Generic.parse_accounted(&src).unwrap();
        let got: Vec<(&str, f64, u32)> = p
            .observations
            .iter()
            .map(|o| (o.metric.as_str(), o.value, o.line))
            .collect();
        // A phrase over a number is no label of it.
        assert_eq!(
            got,
            [("numa01", 313.17, 4), ("numa01_HARD_BIND", 120.33, 6)]
        );
        assert!(p.consumed.contains(&3) && p.consumed.contains(&5));
    }

    #[test]
    fn a_file_of_bare_numbers_is_named_by_the_file() {
        let src = Source::from_text("out/simple-sched-pipe.txt", "0.173\n");
        let p = Generic.parse_accounted(&src).unwrap();
        let o = &p.observations[0];
        assert_eq!(
            (o.benchmark.as_str(), o.metric.as_str(), o.value),
            ("simple-sched-pipe", "value", 0.173)
        );
    }

    #[test]
    fn lines_of_numbers_are_columns_and_each_line_a_run() {
        let src = Source::from_text(
            "tcp_stream.txt",
            "131072  16384  16384    2.00     10595.80   \n131072  16384  16384    2.00     10601.5\n",
        );
        let p = Generic.parse_accounted(&src).unwrap();
        let last: Vec<(&str, u32, f64)> = p
            .observations
            .iter()
            .filter(|o| o.metric == "column 5")
            .map(|o| (o.benchmark.as_str(), o.run.unwrap(), o.value))
            .collect();
        assert_eq!(
            last,
            [("tcp_stream", 0, 10595.8), ("tcp_stream", 1, 10601.5)]
        );
        assert_eq!(p.observations.len(), 10);
        // A closing unit is the last column's; lines of unequal width, or
        // with a word among the numbers, are no such table.
        let src = Source::from_text("rr.csv", "3939840,262484,2.00,35734.21,Trans/s\n");
        let p = Generic.parse_accounted(&src).unwrap();
        assert_eq!(p.observations[3].unit, "Trans/s");
        for text in ["1 2\n3 4 5\n", "1 2\nx 3\n", "1 and 2\n"] {
            let src = Source::from_text("x.txt", text);
            let p = Generic.parse_accounted(&src).unwrap();
            assert!(
                p.observations
                    .iter()
                    .all(|o| !o.metric.starts_with("column")),
                "{text:?}"
            );
        }
    }

    #[test]
    fn the_file_name_names_a_log_without_a_title() {
        let src = Source::from_text("logs/run-42.txt", "elapsed: 1.5 s\n");
        let p = Generic.parse_accounted(&src).unwrap();
        assert_eq!(p.observations[0].benchmark, "run-42");
        assert_eq!(p.observations[0].unit, "s");
    }

    #[test]
    fn pair_lines_give_a_value_per_pair_under_their_heading() {
        let src = Source::from_text(
            "t.txt",
            "IRQ, 128/32/32, cache off\nIOPS=59.08M, BW=28.84GiB/s, IOS/call=31/31\n\
             IOPS=59.30M, BW=28.96GiB/s, IOS/call=32/32\n\n=== run 2 ===\nIOPS=60.1M, BW=29.3GiB/s\n",
        );
        let p = Generic.parse_accounted(&src).unwrap();
        let got: Vec<(&str, &str, &str, f64)> = p
            .observations
            .iter()
            .map(|o| {
                (
                    o.variant.as_str(),
                    o.metric.as_str(),
                    o.unit.as_str(),
                    o.value,
                )
            })
            .collect();
        let off = "IRQ, 128/32/32, cache off";
        assert_eq!(
            got,
            vec![
                (off, "IOPS", "M", 59.08),
                (off, "BW", "GiB/s", 28.84),
                (off, "IOPS", "M", 59.30),
                (off, "BW", "GiB/s", 28.96),
                ("", "IOPS", "M", 60.1),
                ("", "BW", "GiB/s", 29.3),
            ]
        );
        assert!(p.consumed.contains(&1));
    }

    #[test]
    fn vegeta_s_named_lists_give_a_value_per_name() {
        let p = crate::ingest::parse_file(
            &Generic,
            "tests/data/harness/unknown/vegeta-readme-report-text.txt",
        );
        let got: Vec<(u32, &str, &str, f64)> = p
            .observations
            .iter()
            .map(|o| (o.line, o.metric.as_str(), o.unit.as_str(), o.value))
            .collect();
        assert_eq!(got.len(), 17);
        assert_eq!(got[0], (1, "Requests total", "", 1200.0));
        assert_eq!(got[3], (2, "Duration total", "s", 10.094965987));
        assert_eq!(got[11], (3, "Latencies max", "ms", 264.815246));
        assert_eq!(got[16], (6, "Success ratio", "%", 55.42));
    }

    #[test]
    fn blocks_under_their_own_headings_stay_apart() {
        let src = Source::from_text(
            "mail.txt",
            "Measured on a test box, previously:\n\nIOPS=99.19M, BW=48.43GiB/s\n\
             IOPS=99.48M, BW=48.57GiB/s\n\nand with the fix:\n\nIOPS=103.28M, BW=50.43GiB/s\n\n\
             About four percent more.\n",
        );
        let p = Generic.parse_accounted(&src).unwrap();
        let got: Vec<(&str, &str, f64)> = p
            .observations
            .iter()
            .map(|o| (o.variant.as_str(), o.metric.as_str(), o.value))
            .collect();
        assert_eq!(
            got,
            [
                ("previously", "IOPS", 99.19),
                ("previously", "BW", 48.43),
                ("previously", "IOPS", 99.48),
                ("previously", "BW", 48.57),
                ("with the fix", "IOPS", 103.28),
                ("with the fix", "BW", 50.43),
            ]
        );
        assert!(p.consumed.contains(&1) && p.consumed.contains(&6));
    }
}
