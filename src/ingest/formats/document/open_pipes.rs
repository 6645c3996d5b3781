//! Pipe tables written without their outer pipes (`bytes |  NEW | openssl`
//! over `     0 |  155 |   168`), as Markdown allows and as many write a
//! table by hand. The box-row reader knows a row by its outer pipes; without
//! them the rows were read as text with numbers in it (a row's first cells
//! became its name, the header one variant).
//!
//! A run of two lines or more (three when each holds a single pipe) that
//! each hold the same number of pipes, none at either end, none doubled
//! (`||`, a shell's or) and no shell prompt, whose lines after the first
//! hold numbers alone in every cell, is a table: each of its lines gets
//! its outer pipes. Rows with words in their cells (`Process 10 Time:
//! 0.35 | 0.42`, `64 | W/seq | 41987`) are left to the grid reader, which
//! reads pipes between space-aligned columns as it reads gaps.
//! A Markdown delimiter row (`---|:--:|---`) belongs to the run. The
//! rewrite keeps each line's number and quote depth, and moves every inner
//! pipe by the same two columns.

use super::rewrite;
use crate::ingest::Source;
use std::borrow::Cow;

/// `src`, or a copy whose pipe tables without outer pipes have them.
pub fn close(src: &Source) -> Cow<'_, Source> {
    let lines = &src.lines;
    let tables: Vec<_> = rewrite::runs(lines, |_, l| inner_pipes(&l.text))
        .into_iter()
        .filter(|(r, k)| {
            let long_enough = r.len() >= if *k == 1 { 3 } else { 2 };
            let (i, j) = (r.start, r.end);
            // Rows under a rule are the body of a table whose header stands
            // above the rule, which the grid reader reads with it.
            let under_rule = i > 0
                && lines[i - 1].quote_depth == lines[i].quote_depth
                && crate::ingest::shared::text::is_rule(lines[i - 1].text.trim())
                && lines[i..j].iter().all(|l| numbers_only(&l.text));
            long_enough && !under_rule && lines[i + 1..j].iter().all(|l| numbers_only(&l.text))
        })
        .map(|(r, _)| r)
        .collect();
    rewrite::lines_of(src, &tables, |l| closed(&l.text))
}

/// How many pipes part the cells of `text`, when it may be a row of a table
/// without outer pipes.
fn inner_pipes(text: &str) -> Option<usize> {
    // A line without a pipe is ruled out by one scan.
    memchr::memchr(b'|', text.as_bytes())?;
    let t = text.trim();
    if t.is_empty()
        || t.starts_with('|')
        || t.ends_with('|')
        || t.contains("||")
        || t.starts_with("$ ")
        || t.starts_with("# ")
    {
        return None;
    }
    let k = t.matches('|').count();
    (k >= 1).then_some(k)
}

/// Whether every cell of `text` is a number (with a sign, a decimal comma,
/// a `%`) or empty, or the line is a Markdown delimiter row (`---|:--:`).
fn numbers_only(text: &str) -> bool {
    let cells: Vec<&str> = text.split('|').map(str::trim).collect();
    let delimiter = cells
        .iter()
        .all(|c| !c.is_empty() && c.chars().all(|ch| matches!(ch, '-' | ':')));
    delimiter
        || cells.iter().all(|c| {
            // A number may carry its unit after a space (`136 Gbps`).
            let c = match c.rsplit_once(' ') {
                Some((n, u)) if super::lines::known_unit(u) => n.trim_end(),
                _ => c,
            };
            let digits = c.trim_start_matches(['+', '-']).trim_end_matches('%');
            digits.is_empty() && c.is_empty()
                || digits.starts_with(|ch: char| ch.is_ascii_digit())
                    && digits
                        .chars()
                        .all(|ch| ch.is_ascii_digit() || ch == '.' || ch == ',')
        })
}

/// `text` between outer pipes; its inner pipes all move by two columns,
/// so that a table's columns stay aligned.
fn closed(text: &str) -> String {
    format!("| {} |", text.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::Format;

    fn closed_lines(text: &str) -> Vec<String> {
        let src = Source::from_text("t.txt", text);
        close(&src).lines.iter().map(|l| l.text.clone()).collect()
    }

    #[test]
    fn a_table_without_outer_pipes_gets_them() {
        // A 2019 review's table, as posted (quote marks removed).
        let got = closed_lines(
            "bytes |  NEW | openssl | delta | delta / openssl\n     0 |  155 |   168   |   -13 |  -7,74%\n     1 |  260 |   283   |   -23 |  -8,13%\n",
        );
        assert_eq!(
            got[0],
            "| bytes |  NEW | openssl | delta | delta / openssl |"
        );
        assert_eq!(got[1], "|      0 |  155 |   168   |   -13 |  -7,74% |");
    }

    #[test]
    fn markdown_delimiter_rows_and_two_columns() {
        let got = closed_lines("size | time\n---|---\n4096 | 1.23\n8192 | 2,50\n");
        assert!(
            got.iter().all(|l| l.starts_with('|') && l.ends_with('|')),
            "{got:?}"
        );
    }

    /// The rest of a table of a part-q post, quoted after a reply broke
    /// into it: no header, a unit in each value cell.
    #[test]
    fn values_with_their_units_are_numbers_of_a_row() {
        let got = closed_lines(
            "          32 |         136 Gbps    |     183 Gbps
          48 |         159 Gbps    |     185 Gbps
",
        );
        assert_eq!(
            got[0],
            "|           32 |         136 Gbps    |     183 Gbps |"
        );
        let src = Source::from_text(
            "t.txt",
            "The rest:

          32 |         136 Gbps    |     183 Gbps
          48 |         159 Gbps    |     185 Gbps
",
        );
        let rows = crate::ingest::formats::document::Document
            .parse(&src)
            .unwrap();
        for v in [136.0, 183.0, 159.0, 185.0] {
            assert!(rows.iter().any(|o| o.value == v), "{v}: {rows:?}");
        }
        // The same rows under their header and its rule are the grid's.
        let headed = "  no. of     | rx buf backed       | rx buf backed
 connections | with page fragments | with full page
-------------+---------------------+---------------
           4 |         139 Gbps    |     138 Gbps
           8 |         140 Gbps    |     162 Gbps
";
        assert!(matches!(
            close(&Source::from_text("t.txt", headed)),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn shell_pipelines_and_prose_stay() {
        for text in [
            "cat /proc/vmstat | grep pgfault | sort\nperf stat -e cycles ./a | tee out\n",
            "$ seq 1 10 | sort -n | head -3\n$ seq 1 10 | sort -n | tail -3\n",
            "a || b || c\nd || e || f\n",
            "| 1 | 2 |\n| 3 | 4 |\n",
            "one | two\n3 | 4\n",
            // Words in the rows' cells: the grid reader's.
            "      6.2 |  6.2 + V12\nProcess 10 Time:  0.35 | 0.42\nthread 10 Time:  0.35 | 0.43\n",
            " bs kB |  type |    V\n     1 | W/seq | 14795\n    64 | W/seq | 41987\n",
            // A word after a number that is no unit.
            "1 | 2 apples | 3\n4 | 5 pears | 6\n",
        ] {
            let src = Source::from_text("t.txt", text);
            assert!(matches!(close(&src), Cow::Borrowed(_)), "{text}");
        }
    }
}
