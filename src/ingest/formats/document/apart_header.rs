//! Pipe tables whose header stands apart from their rows: perf sched
//! latency's summary pasted as one header over blocks of rows, each under
//! a title of its own and a blank line,
//!
//! ```text
//!     Task                  |   Runtime ms  | Switches | Avg delay ms    |
//!
//!   100ms massive_intr 500us cyclictest NO_PREEMPT_SHORT
//!
//!   1 massive_intr:(5)      | 846018.956 ms |   779188 | avg:   0.273 ms |
//! ```
//!
//! and cells that repeat their column's name before the value (`avg:
//! 0.273 ms` under `Avg delay ms`, `max at: 20131.146441 s` under `Maximum
//! delay at`). Read as they stood, the rows had no header and the cell's
//! word split the value from its row: every value came from the fallback,
//! named `value 2`, `value 3`.
//!
//! A header is a line of three pipes or more whose cells are words
//! (no digit). A block of its rows is a run of lines at its quote depth
//! with as many pipes, a digit in half their cells or more, reached from
//! the header over blank lines, lines without pipes, and blocks before it.
//! A block whose line above is blank is read with the header written on
//! that blank line; a cell that opens with a word and a colon, where that
//! word begins its column's header cell, is read without them (spaces in
//! their place, so that the columns stay aligned). Line numbers and quote
//! depths are kept.

use super::rewrite;
use crate::ingest::Source;
use std::borrow::Cow;

/// `src`, or a copy whose pipe tables are read with their header over
/// each block of rows and without the names their cells repeat.
pub fn rejoin(src: &Source) -> Cow<'_, Source> {
    let lines = &src.lines;
    if !lines.iter().any(|l| l.text.contains('|')) {
        return Cow::Borrowed(src);
    }
    let pipes_of: Vec<usize> = lines
        .iter()
        .map(|l| memchr::memchr_iter(b'|', l.text.as_bytes()).count())
        .collect();
    let mut new: Vec<Option<String>> = vec![None; lines.len()];
    let mut i = 0;
    while i < lines.len() {
        let Some(head) = (pipes_of[i] >= 3).then(|| header(&lines[i].text)).flatten() else {
            i += 1;
            continue;
        };
        let pipes = pipes_of[i];
        let depth = lines[i].quote_depth;
        let mut j = i + 1;
        while j < lines.len() {
            let l = &lines[j];
            let count = pipes_of[j];
            if count == 0 {
                j += 1;
                continue;
            }
            if count != pipes || l.quote_depth != depth || !is_row(&l.text) {
                break;
            }
            // A block of rows: the header over it where a blank line is.
            if j > i + 1 && lines[j - 1].text.trim().is_empty() {
                new[j - 1] = Some(lines[i].text.clone());
            }
            while j < lines.len()
                && lines[j].quote_depth == depth
                && pipes_of[j] == pipes
                && is_row(&lines[j].text)
            {
                new[j] = unnamed(&lines[j].text, &head);
                j += 1;
            }
        }
        i = j.max(i + 1);
    }
    if new.iter().all(Option::is_none) {
        return Cow::Borrowed(src);
    }
    rewrite::each_line(src, |i, _| new[i].take())
}

/// The cells of a header line: three pipes or more, words in every cell.
fn header(text: &str) -> Option<Vec<String>> {
    if text.matches('|').count() < 3 || text.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    let cells: Vec<String> = text.split('|').map(|c| c.trim().to_lowercase()).collect();
    let named = cells.iter().filter(|c| !c.is_empty()).count();
    let words = cells
        .iter()
        .filter(|c| !c.is_empty())
        .all(|c| c.chars().any(char::is_alphabetic));
    (named >= 3 && words).then_some(cells)
}

/// Whether a line with pipes is a row: a digit in half its cells or more.
fn is_row(text: &str) -> bool {
    let (mut cells, mut numeric) = (0, 0);
    for c in text.split('|').filter(|c| !c.trim().is_empty()) {
        cells += 1;
        numeric += usize::from(c.bytes().any(|b| b.is_ascii_digit()));
    }
    cells > 0 && 2 * numeric >= cells
}

/// `text` with each cell's repeated column name blanked, or `None` when
/// no cell repeats its column's name.
fn unnamed(text: &str, head: &[String]) -> Option<String> {
    // Most rows name no cell: they are told before any cell is copied,
    // and a row without a colon names none.
    memchr::memchr(b':', text.as_bytes())?;
    let repeated = |k: usize, cell: &str| {
        named_part(cell)
            .zip(head.get(k))
            .filter(|(end, h)| begins(h, &cell[..*end]))
            .map(|(end, _)| end)
    };
    if !text
        .split('|')
        .enumerate()
        .any(|(k, c)| repeated(k, c).is_some())
    {
        return None;
    }
    let cells: Vec<String> = text
        .split('|')
        .enumerate()
        .map(|(k, cell)| match repeated(k, cell) {
            Some(end) => format!("{}{}", " ".repeat(end), &cell[end..]),
            None => cell.to_string(),
        })
        .collect();
    Some(cells.join("|"))
}

/// Where the name before a cell's value ends (past its colon), when the
/// cell is words, a colon and a number.
fn named_part(cell: &str) -> Option<usize> {
    let colon = cell.find(':')?;
    let name = cell[..colon].trim();
    let rest = cell[colon + 1..].trim_start();
    let words = !name.is_empty() && name.chars().all(|c| c.is_alphabetic() || c == ' ');
    (words && rest.starts_with(|c: char| c.is_ascii_digit())).then_some(colon + 1)
}

/// Whether the name a cell repeats begins its column's header cell: its
/// first word begins the header's first word (`avg` of `Average delay ms`).
fn begins(head: &str, name: &str) -> bool {
    let name = name.trim_end_matches(':').trim().to_lowercase();
    match (
        name.split_whitespace().next(),
        head.split_whitespace().next(),
    ) {
        (Some(n), Some(h)) => h.starts_with(n),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::Format;

    /// Lines of a corpus post (EEVDF short slices, perf sched latency over
    /// three runs).
    const POST: &str = "    Task                  |   Runtime ms  | Switches | Avg delay ms    | Max delay ms    | Sum delay ms     |\n\
        \n\
        \x20 100ms massive_intr 500us cyclictest NO_PREEMPT_SHORT\n\
        \n\
        \x20 1 massive_intr:(5)      | 846018.956 ms |   779188 | avg:   0.273 ms | max:  58.337 ms | sum:212545.245 ms |\n\
        \x20 2 massive_intr:(5)      | 853450.693 ms |   792269 | avg:   0.275 ms | max:  71.193 ms | sum:218263.588 ms |\n\
        \n\
        and with it:\n\
        \n\
        \x20 1 cyclictest:(5)        |  13156.391 ms |   667412 | avg:   0.373 ms | max:  38.247 ms | sum:249174.502 ms |\n";

    #[test]
    fn each_block_of_rows_is_read_under_the_header_without_repeated_names() {
        let src = Source::from_text("m.txt", POST);
        let out = rejoin(&src);
        assert_eq!(out.lines[3].text, src.lines[0].text);
        assert_eq!(out.lines[8].text, src.lines[0].text);
        assert_eq!(
            out.lines[4].text,
            "  1 massive_intr:(5)      | 846018.956 ms |   779188 |        0.273 ms |       58.337 ms |     212545.245 ms |"
        );
        let rows = crate::ingest::formats::document::Document
            .parse(&src)
            .unwrap();
        let cell = |name: &str, metric: &str, value: f64| {
            rows.iter().any(|o| {
                let label = format!("{} {}", o.benchmark, o.params);
                label.contains(name)
                    && o.metric.to_lowercase().contains(&metric.to_lowercase())
                    && o.value == value
            })
        };
        assert!(cell("massive_intr", "Runtime", 846018.956), "{rows:#?}");
        assert!(cell("massive_intr", "Avg delay", 0.275));
        assert!(cell("cyclictest", "Sum delay", 249174.502));
        assert!(cell("cyclictest", "Switches", 667412.0));
    }

    #[test]
    fn a_table_with_its_header_in_place_and_plain_cells_is_left_alone() {
        let text = "| name | a | b |\n| x | 1 | 2 |\n| y | 3 | 4 |\n";
        let src = Source::from_text("m.txt", text);
        assert!(matches!(rejoin(&src), Cow::Borrowed(_)));
    }
}
