//! Helpers for the importers' unit tests.

use crate::ingest::{Confidence, Format, Parsed, Source};
use std::path::Path;

impl Parsed {
    /// Why `line` was left out; empty when it was not.
    pub(crate) fn skipped_reason(&self, line: u32) -> &str {
        self.skipped
            .iter()
            .find(|(l, _)| *l == line)
            .map_or("", |(_, why)| why.as_str())
    }
}

/// A source of `lines` as given, numbered from 1, none quoted: for the
/// pre-passes' tests, which look at lines before any preparation.
pub(crate) fn source_of_lines(lines: &[&str]) -> Source {
    let lines = lines
        .iter()
        .enumerate()
        .map(|(i, t)| crate::ingest::Line {
            text: t.to_string(),
            number: i as u32 + 1,
            quote_depth: 0,
        })
        .collect();
    Source::from_lines("t.txt", lines)
}

/// One row of a reading as the importers' unit tests compare it:
/// benchmark, params, metric, unit and value.
pub(crate) type RowView = (String, String, String, String, f64);

/// A row as [`views`] gives it, from its five fields: what a test expects.
pub(crate) fn row(benchmark: &str, params: &str, metric: &str, unit: &str, value: f64) -> RowView {
    (
        benchmark.into(),
        params.into(),
        metric.into(),
        unit.into(),
        value,
    )
}

/// The rows `format` reads from `text` (a file called `name`), in order.
pub(crate) fn rows_of(format: &dyn Format, name: &str, text: &str) -> Vec<RowView> {
    views(&format.parse(&Source::from_text(name, text)).unwrap())
}

/// The rows `format` reads from the file at `path` (relative to the
/// crate), in order.
pub(crate) fn rows_of_file(format: &dyn Format, path: &str) -> Vec<RowView> {
    views(&parse_file(format, path).observations)
}

/// The rows of a reading already made, as [`rows_of`] gives them.
pub(crate) fn views(rows: &[crate::model::Observation]) -> Vec<RowView> {
    rows.iter()
        .map(|o| {
            (
                o.benchmark.to_string(),
                o.params.to_string(),
                o.metric.to_string(),
                o.unit.to_string(),
                o.value,
            )
        })
        .collect()
}

/// The rows of a reading as one line of text each, with the line they
/// came from: `LINE BENCHMARK|PARAMS|METRIC|UNIT=VALUE`.
pub(crate) fn row_lines(p: &Parsed) -> Vec<String> {
    p.observations
        .iter()
        .map(|o| {
            format!(
                "{} {}|{}|{}|{}={}",
                o.line, o.benchmark, o.params, o.metric, o.unit, o.value
            )
        })
        .collect()
}

/// Reads the file at `path` (relative to the crate) with `format`, for
/// importers' accounting tests.
pub(crate) fn parse_file(format: &dyn Format, path: &str) -> Parsed {
    format
        .parse_accounted(&Source::read(Path::new(path)).unwrap())
        .unwrap()
}

/// Checks that `format` scores every file under `tests/data` and `data`
/// as `reference` does: a detector made cheaper must give the answers of
/// the one it replaced. Returns how many files it recognised.
pub(crate) fn assert_detection_agrees(
    format: &dyn Format,
    reference: impl Fn(&Source) -> Confidence,
) -> usize {
    let mut seen = 0;
    let mut recognised = 0;
    let files = glob::glob("tests/data/**/*")
        .unwrap()
        .chain(glob::glob("data/**/*").unwrap());
    for path in files {
        let path = path.unwrap();
        let Ok(src) = Source::read(&path) else {
            continue;
        };
        let score = format.detect(&src);
        assert_eq!(score, reference(&src), "{}", path.display());
        seen += 1;
        recognised += usize::from(score > 0);
    }
    assert!(seen > 300, "only {seen} test files read");
    recognised
}

/// Whether a line of `src` holds `literal` and matches `re`: how detectors
/// searched before the joined-text search, kept for tests that compare the
/// two.
pub(crate) fn any_line_matches(src: &Source, literal: &str, re: &regex::Regex) -> bool {
    src.lines
        .iter()
        .any(|l| l.text.contains(literal) && re.is_match(&l.text))
}

/// A reader that gives at most `step` bytes a call: a reader of a file a
/// window at a time then meets the ends of its reads inside every token.
pub(crate) struct Trickle<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) step: usize,
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}
