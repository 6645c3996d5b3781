//! Pipe tables drawn with a pipe after every cell and none before the
//! first, the cells set by tabs and glued to the pipe before them
//! (`-t 2<TAB>|6924.18<TAB>|7456.54<TAB>|` under `req/s<TAB>| without
//! patch<TAB>| apply patch<TAB>|`, rules `--------+-------+-------+`).
//! The grid reader parts cells at gaps, and a value glued to its pipe is
//! no number to it; the box reader parts cells at pipes, but knows a row
//! by its first one. Such a run is read with the pipe (or, on its rules,
//! the `+`) it lacks at the left.
//!
//! A run is two lines or more at one quote depth that each end with a
//! pipe (a rule may end with a `+`) and start with neither, whose lines
//! other than rules hold the same number of pipes (two at least, none
//! doubled), two of them at least, and one of them after the first with
//! a cell glued to the pipe before it. Tables whose cells stand apart
//! from their pipes keep their reading (the grid's, by gaps).

use super::rewrite;
use crate::ingest::{Line, Source};
use std::borrow::Cow;

/// `src`, or a copy whose half-open pipe tables are closed at the left.
pub fn close(src: &Source) -> Cow<'_, Source> {
    let lines = &src.lines;
    let tables: Vec<_> = rewrite::runs(lines, |_, l| shape(&l.text).map(|_| l.quote_depth))
        .into_iter()
        .map(|(r, _)| r)
        .filter(|r| is_table(&lines[r.clone()]))
        .collect();
    rewrite::lines_of(src, &tables, |l| {
        let edge = if matches!(shape(&l.text), Some(Shape::Rule)) {
            '+'
        } else {
            '|'
        };
        let lead = l.text.len() - l.text.trim_start().len();
        format!("{}{edge}{}", &l.text[..lead], &l.text[lead..])
    })
}

/// What a line of a half-open table is.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Shape {
    /// A rule: dashes, equals signs or underscores parted by `+` or `|`.
    Rule,
    /// Cells, each followed by a pipe: how many pipes, and whether a
    /// cell is glued to the pipe before it.
    Cells(usize, bool),
}

/// The shape of `text` when it may be a line of a half-open table.
fn shape(text: &str) -> Option<Shape> {
    let t = text.trim();
    if t.is_empty()
        || t.starts_with(['|', '+'])
        || !t.ends_with(['|', '+'])
        || t.contains("||")
        || t.starts_with("$ ")
        || t.starts_with("# ")
    {
        return None;
    }
    if t.chars().all(|c| matches!(c, '-' | '=' | '_' | '+' | '|')) {
        return t.contains(['-', '=', '_']).then_some(Shape::Rule);
    }
    if !t.ends_with('|') {
        return None;
    }
    let pipes = t.matches('|').count();
    // A no-break space after a pipe (a mail client's padding) stands
    // apart like any other.
    let glued = t
        .split('|')
        .skip(1)
        .any(|cell| cell.starts_with(|c: char| !c.is_whitespace()));
    (pipes >= 2).then_some(Shape::Cells(pipes, glued))
}

/// Whether a run of candidate lines is a half-open table (see the module
/// documentation).
fn is_table(run: &[Line]) -> bool {
    let cells: Vec<(usize, bool)> = run
        .iter()
        .filter_map(|l| match shape(&l.text) {
            Some(Shape::Cells(n, g)) => Some((n, g)),
            _ => None,
        })
        .collect();
    cells.len() >= 2 && cells.iter().all(|c| c.0 == cells[0].0) && cells[1..].iter().any(|c| c.1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::Format;

    /// The first table of a part-t post (wrk under nginx), as quoted.
    const WRK: &str = ">> Requests/sec
>> --------+---------------+---------------+
>> req/s\t| without patch\t| apply patch\t|
>> --------+---------------+---------------+
>> -t 2\t|6924.18\t|7456.54\t|
>> --------+---------------+---------------+
>> -t 4\t|8731.68\t|9660.33\t|
>> --------+---------------+---------------+
";

    #[test]
    fn a_table_with_pipes_after_its_cells_only_is_closed_at_the_left() {
        let src = Source::from_text("t.txt", WRK);
        let got: Vec<String> = close(&src).lines.iter().map(|l| l.text.clone()).collect();
        assert_eq!(got[0], "Requests/sec");
        assert_eq!(got[1], "+--------+---------------+---------------+");
        assert_eq!(got[2], "|req/s\t| without patch\t| apply patch\t|");
        assert_eq!(got[4], "|-t 2\t|6924.18\t|7456.54\t|");
    }

    #[test]
    fn a_document_reads_each_cell_under_its_column() {
        let src = Source::from_text("t.txt", WRK);
        let rows = crate::ingest::formats::document::Document
            .parse(&src)
            .unwrap();
        let v = rows.iter().find(|o| o.value == 9660.33).expect("read");
        assert_eq!(
            (v.benchmark.as_str(), v.variant.as_str()),
            ("-t 4", "apply patch")
        );
        assert!(rows.iter().any(|o| o.value == 6924.18));
    }

    #[test]
    fn tables_whose_cells_stand_apart_from_their_pipes_stay() {
        for text in [
            // A part-r post's table: spaced pipes, read by the grid.
            "vCPU Count   | eager_page_split=N         | eager_page_split=Y         |\n------------ | -------------------------- | -------------------------- |\n2            | 0.326340139s               | 0.058645119s               |\n4            | 0.425658733s               | 0.059211364s               |\n",
            // Closed tables, a single row, counts that differ.
            "| 1 | 2 |\n| 3 | 4 |\n",
            "a\t|1\t|2\t|\n",
            // Cells padded with no-break spaces (a part-s post, decoded).
            "______|______|______|\n\u{a0} 1\u{a0} |\u{a0} 49%\u{a0} |\u{a0} 3.16\u{a0} |\n------|------|------|\n\u{a0} 6\u{a0} |\u{a0} 27%\u{a0} |\u{a0} 3.35\u{a0} |\n______|______|______|\n",
            "a\t| b\t| c\t|\nx\t|1\t|\ny\t|2\t|3\t|\n",
        ] {
            let src = Source::from_text("t.txt", text);
            assert!(matches!(close(&src), Cow::Borrowed(_)), "{text}");
        }
    }
}
