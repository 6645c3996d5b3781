//! Table lines a mail client wrapped: a client that wraps plain text at
//! 72-80 columns cuts every longer line at its last gap before the width,
//! so a wide table comes out with each header, rule and row over two
//! lines (`File  Program  States (A)  States` / `(DIFF)  Insns (A) …`).
//! Read as they stand, the second halves are rows of their own, with
//! values under no header and the header's last words lost.
//!
//! A paragraph is taken as wrapped when it ends in a run of such pairs
//! (at least two), each pair's first line too full for the second line's
//! first word to have fitted (the line as long as the paragraph's longest
//! allowed, which is the client's width at most), neither half holding as
//! many cells as the rest of the table's lines, and every joined pair (or
//! unwrapped line) holding the same number of cells. The second half of a
//! row holds what overflowed: it is shorter than the first, with fewer
//! cells, and its cells do not stand under the first half's (two rows of a
//! table, or two tables side by side, line up; a rule's runs are left out
//! of that test, as they line up with anything by chance). The paragraph's
//! lines before the run (a title, a command) are left as they are. The
//! pairs are joined, the second line's number accounted as read.

use super::rewrite;
use crate::ingest::{Line, Source};
use std::borrow::Cow;

/// The widest line a mail client's wrapping leaves: widths set in clients
/// are 72 to 80 columns. A paragraph with a longer line was not wrapped.
const MAX_WIDTH: usize = 80;

/// The narrowest paragraph taken as wrapped: below it a client's width is
/// not what ended the lines.
const MIN_WIDTH: usize = 56;

/// `src`, or a copy whose wrapped table lines are joined, with the numbers
/// of the lines joined to the one above them.
pub fn rejoin(src: &Source) -> (Cow<'_, Source>, Vec<u32>) {
    let lines = &src.lines;
    let mut joins: Vec<(usize, &'static str)> = Vec::new();
    for r in rewrite::paragraphs(lines) {
        let para = &lines[r.clone()];
        let mut found = paragraph_joins(para);
        if found.is_empty() {
            found = parenthesis_joins(para);
        }
        joins.extend(found.into_iter().map(|(i, sep)| (r.start + i, sep)));
    }
    if joins.is_empty() {
        return (Cow::Borrowed(src), Vec::new());
    }
    let mut out = Vec::with_capacity(lines.len() - joins.len());
    let mut continued = Vec::with_capacity(joins.len());
    let mut k = 0;
    let mut i = 0;
    while i < lines.len() {
        match joins.get(k) {
            Some(&(at, sep)) if at == i => {
                let (a, b) = (&lines[i], &lines[i + 1]);
                out.push(Line {
                    text: format!("{}{sep}{}", a.text.trim_end(), b.text),
                    number: a.number,
                    quote_depth: a.quote_depth,
                });
                continued.push(b.number);
                k += 1;
                i += 2;
            }
            _ => {
                out.push(lines[i].clone());
                i += 1;
            }
        }
    }
    (Cow::Owned(Source::from_lines(&src.path, out)), continued)
}

/// The pairs of a paragraph to join, by the index of their first line and
/// the gap to put between the halves: none when the paragraph does not end
/// in a wrapped table.
fn paragraph_joins(para: &[Line]) -> Vec<(usize, &'static str)> {
    if para.len() < 4 || para.iter().any(|l| l.text.contains('\t')) {
        return Vec::new();
    }
    let lens: Vec<usize> = para.iter().map(|l| l.text.chars().count()).collect();
    let width = lens.iter().copied().max().unwrap_or(0);
    if !(MIN_WIDTH..=MAX_WIDTH).contains(&width) {
        return Vec::new();
    }
    // A wrapped table needs two joins, each of a line too full for the
    // next one's first word and longer than it ([`pair`]): a paragraph
    // without two such pairs is passed before any cell is counted.
    let wraps = (0..para.len() - 1)
        .filter(|&i| {
            let (a, b) = (&para[i].text, &para[i + 1].text);
            is_wrap(lens[i], b, width) && b.trim().len() < a.trim().len()
        })
        .count();
    if wraps < 2 {
        return Vec::new();
    }
    // Each line's cells, asked of most lines many times over.
    let shape = Shape {
        cells: para.iter().map(|l| cells(&l.text)).collect(),
        lens,
    };
    for start in 0..para.len() - 3 {
        let rest = &para[start..];
        if !is_wrap(shape.lens[start], &rest[1].text, width) {
            continue;
        }
        for target in [joined_cells(rest, " "), joined_cells(rest, "  ")] {
            if let Some(joins) = table_of(rest, &shape, start, width, target) {
                return joins.into_iter().map(|(i, sep)| (start + i, sep)).collect();
            }
        }
    }
    Vec::new()
}

/// The length in characters and the count of [`cells`] of each line of a
/// paragraph.
struct Shape {
    lens: Vec<usize>,
    cells: Vec<usize>,
}

/// The lines of a paragraph that a list of values in parentheses runs
/// over (`Without-APF: 7029030180/minute = avg(7559625120 5962155840
/// 7823208540` over an indented `7629633480 6170527920)`): the next line,
/// indented deeper, holds values alone and closes the parenthesis the line
/// left open.
fn parenthesis_joins(para: &[Line]) -> Vec<(usize, &'static str)> {
    let indent = |t: &str| t.len() - t.trim_start().len();
    let depth = |t: &str| t.matches('(').count() as i64 - t.matches(')').count() as i64;
    (0..para.len().saturating_sub(1))
        .filter(|&i| {
            let (a, b) = (&para[i].text, &para[i + 1].text);
            let inner = b.trim().trim_end_matches(')');
            depth(a) > 0
                && depth(b) < 0
                && b.trim_end().ends_with(')')
                && indent(b) > indent(a)
                && !inner.is_empty()
                && inner.split_whitespace().all(|w| w.parse::<f64>().is_ok())
        })
        .map(|i| (i, " "))
        .collect()
}

/// The cells of the first two lines of `rest` joined by `sep`.
fn joined_cells(rest: &[Line], sep: &str) -> usize {
    cells(&format!("{}{sep}{}", rest[0].text.trim_end(), rest[1].text))
}

/// The joins that make every line of `rest` (the paragraph's lines from
/// `from` on) a row of `target` cells, when two pairs at least are needed
/// and each is a wrap.
fn table_of(
    rest: &[Line],
    shape: &Shape,
    from: usize,
    width: usize,
    target: usize,
) -> Option<Vec<(usize, &'static str)>> {
    if target < 3 {
        return None;
    }
    let mut joins = Vec::new();
    let mut i = 0;
    while i < rest.len() {
        let at = from + i;
        if let Some(sep) = rest
            .get(i + 1)
            .and_then(|b| pair(&rest[i].text, &b.text, shape, at, width, target))
        {
            joins.push((i, sep));
            i += 2;
        } else if shape.cells[at] == target {
            i += 1;
        } else {
            return None;
        }
    }
    (joins.len() >= 2).then_some(joins)
}

/// The gap that joins `a` and `b` (lines `at` and `at + 1` of the
/// paragraph) into a row of `target` cells, when `b` is what overflowed
/// `a`: shorter, with fewer cells, not under `a`'s cells. `a` may hold all
/// `target` cells when the cut fell inside its last one (`Base +` /
/// `mm_count_padding`).
fn pair(
    a: &str,
    b: &str,
    shape: &Shape,
    at: usize,
    width: usize,
    target: usize,
) -> Option<&'static str> {
    let (ca, cb) = (shape.cells[at], shape.cells[at + 1]);
    if !is_wrap(shape.lens[at], b, width)
        || ca > target
        || cb >= target
        || b.trim().len() >= a.trim().len()
        || (!is_rule(a) && (cb >= ca || aligned(a, b)))
    {
        return None;
    }
    [" ", "  "]
        .into_iter()
        .find(|sep| cells(&format!("{}{sep}{b}", a.trim_end())) == target)
}

/// Whether `b` may be the rest of a line of `a_len` characters that a
/// client wrapped at `width` or more: the line too full for `b`'s first
/// word to have fitted after it. The spaces a client leaves at the end of
/// the line count, as it counted them.
fn is_wrap(a_len: usize, b: &str, width: usize) -> bool {
    let first = b.split_whitespace().next().map_or(0, |w| w.chars().count());
    first > 0 && a_len + 1 + first > width
}

/// Whether the cells of `b` stand where those of `a` do: two and half the
/// edges of `b`'s cells ([`edges`]) at an edge of `a`'s. Two rows of one table are; the rest of a wrapped line, moved to
/// the left margin, is not.
fn aligned(a: &str, b: &str) -> bool {
    // The left margin is where both start, wrapped or not.
    let (ea, mut eb) = (edges(a), edges(b));
    eb.retain(|&x| x > 1);
    let near = |x: usize| ea.iter().any(|&y| x.abs_diff(y) <= 1);
    // One edge in the right place is chance.
    let matched = eb.iter().filter(|&&x| near(x)).count();
    matched >= 2 && 2 * matched >= eb.len()
}

/// A rule under a header (`----  -------`): its runs line up with any
/// line's cells by chance, so alignment says nothing of it.
fn is_rule(text: &str) -> bool {
    let t = text.trim();
    !t.is_empty() && t.chars().all(|c| matches!(c, '-' | '=' | '+' | ' '))
}

/// Where the cells of a line start and end, by character: the bars of a
/// bar table (its cells' text need not line up), else the ends of runs of
/// text between gaps of two spaces or more.
fn edges(text: &str) -> Vec<usize> {
    let chars: Vec<char> = text.chars().collect();
    if chars.contains(&'|') {
        return (0..chars.len()).filter(|&i| chars[i] == '|').collect();
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == ' ' {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && !(chars[i] == ' ' && chars.get(i + 1).is_none_or(|c| *c == ' ')) {
            i += 1;
        }
        out.push(start);
        out.push(i);
    }
    out
}

/// The cells of a table line: between bars when it has any, dash or equals
/// runs of a rule, else runs of text set apart by two spaces or more.
fn cells(text: &str) -> usize {
    let t = text.trim();
    if t.contains('|') {
        return t.split('|').filter(|c| !c.trim().is_empty()).count();
    }
    if is_rule(t) {
        return t.split_whitespace().count();
    }
    t.split("  ").filter(|c| !c.trim().is_empty()).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(text: &str) -> Source {
        Source::from_bytes("m.txt", text.as_bytes()).unwrap()
    }

    /// veristat's compare output wrapped at 72 columns by a mail client,
    /// as a part-n post shows it: title and command, then the header,
    /// rule and rows each over two lines.
    #[test]
    fn a_table_a_client_wrapped_is_joined_back() {
        let text = "\
../../veristat/src/veristat -C -e file,prog,states,insns -f
\"insns_pct>1\" fork_after_arsh fork_before_and
File                   Program  States (A)  States (B)  States (DIFF)
Insns (A)  Insns (B)  Insns (DIFF)
---------------------  -------  ----------  ----------  -------------
---------  ---------  ------------
verifier_subreg.bpf.o  arsh_31           1           1    +0 (+0.00%)
       12         11   -1 (-8.33%)
verifier_subreg.bpf.o  arsh_63           1           1    +0 (+0.00%)
       12         11   -1 (-8.33%)
";
        let s = src(text);
        let (joined, continued) = rejoin(&s);
        assert_eq!(continued, vec![4, 6, 8, 10]);
        let texts: Vec<&str> = joined.lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts.len(), 6);
        assert_eq!(texts[0], s.lines[0].text);
        assert!(texts[2].ends_with("States (DIFF)  Insns (A)  Insns (B)  Insns (DIFF)"));
        assert!(texts[4].ends_with("+0 (+0.00%)        12         11   -1 (-8.33%)"));
        assert_eq!(cells(texts[2]), 8);
        assert_eq!(cells(texts[3]), 8);
        assert_eq!(cells(texts[5]), 8);
    }

    /// Read by the document reader, each value of the wrapped rows is
    /// named by its column, and the second lines are accounted as read.
    #[test]
    fn the_values_of_wrapped_rows_get_their_columns() {
        use crate::ingest::Format;
        let text = "\
The new selftests, previous version (A) against this one (B):

File                   Program  States (A)  States (B)  States (DIFF)
Insns (A)  Insns (B)  Insns (DIFF)
---------------------  -------  ----------  ----------  -------------
---------  ---------  ------------
verifier_subreg.bpf.o  arsh_31           1           1    +0 (+0.00%)
       12         11   -1 (-8.33%)
verifier_subreg.bpf.o  arsh_63           1           1    +0 (+0.00%)
       12         11   -1 (-8.33%)
";
        let parsed = super::super::Document.parse_accounted(&src(text)).unwrap();
        let metric_of = |v: f64| {
            parsed
                .observations
                .iter()
                .filter(|o| o.value == v)
                .map(|o| o.metric.to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(metric_of(12.0), ["Insns (A)", "Insns (A)"]);
        assert_eq!(metric_of(11.0), ["Insns (B)", "Insns (B)"]);
        assert!(parsed
            .observations
            .iter()
            .all(|o| o.line == 7 || o.line == 9));
        assert!([4, 6, 8, 10].iter().all(|n| parsed.consumed.contains(n)));
    }

    /// The same output wrapped where a cell holds a space: `States` /
    /// `(DIFF)` and `+0` / `(+0.00%)` are joined by one space, back into
    /// one cell.
    #[test]
    fn a_cell_cut_at_its_own_space_is_made_whole() {
        let text = "\
File          Program              States (A)  States (B)  States
(DIFF)  Insns (A)  Insns (B)  Insns (DIFF)
------------  -------------------  ----------  ----------
-------------  ---------  ---------  ------------
scxtop.bpf.o  schedule_stop_trace           1           1    +0
(+0.00%)         14         16  +2 (+14.29%)
";
        let s = src(text);
        let (joined, continued) = rejoin(&s);
        assert_eq!(continued, vec![2, 4, 6]);
        assert!(joined.lines[0].text.contains("States (DIFF)  Insns (A)"));
        assert!(joined.lines[2].text.contains("+0 (+0.00%)"));
    }

    /// A header cut inside its last cell (`Base +` / `mm_count_padding`),
    /// quoted, with the spaces the client left at the end of each first
    /// half: the header keeps its four cells, each row gets its third
    /// value back.
    #[test]
    fn a_header_cut_inside_a_cell_and_quoted_rows_are_joined() {
        let text = "\
>> Test:              Base (v6.4-rc1)   Base + new_mmcid_reverted  Base + 
>> mm_count_padding
>>   1-groups:         5.23 (0.00 pct)         4.61 (11.85 pct)        
>> 5.11 (2.29 pct)
>>   2-groups:         4.99 (0.00 pct)         4.72 (5.41 pct)         
>> 5.00 (-0.20 pct)
>> 16-groups:        11.48 (0.00 pct)         8.07 (29.70 pct)       
>> 10.68 (6.96 pct)
";
        let s = src(text);
        let (joined, continued) = rejoin(&s);
        // The last rest ends under the end of a cell above it (`10.68 (6.96
        // pct)` / `11.48`): one edge alone does not make it a row.
        assert_eq!(continued, vec![2, 4, 6, 8]);
        let texts: Vec<&str> = joined.lines.iter().map(|l| l.text.as_str()).collect();
        assert!(texts[0].ends_with("new_mmcid_reverted  Base + mm_count_padding"));
        assert!(texts[1].ends_with("4.61 (11.85 pct)  5.11 (2.29 pct)"));
        assert!(texts.iter().all(|t| cells(t) == 4));
    }

    /// A Markdown table wrapped after its header (from a corpus post): the
    /// rests' bars fall nowhere near the first halves' bars, though their
    /// text ends where a cell of the first half does.
    #[test]
    fn a_bar_table_is_lined_up_by_its_bars() {
        let text = "\
| feature | 1 | 2 | 1000 | 2000 | 3000 | 5800 |
| -------- | -------- | -------- | -------- | -------- | -------- | 
-------- |
| ASYNC     |  0.3%    |   1.0%   |   62.5%  |  111.3%  |  198.3%  | 
420.9%   |
| ASYNC_HYBRID     |    0.3%  |   1.0%   |  360%   |  435.5%  |  516.6% 
  |   1100%  |
";
        let s = src(text);
        let (joined, continued) = rejoin(&s);
        assert_eq!(continued, vec![3, 5, 7]);
        assert!(joined.lines.iter().all(|l| cells(&l.text) == 7));
    }

    /// Tables whose lines were never wrapped (rows of one shape, and two
    /// reports side by side, from corpus posts) and a prose paragraph
    /// filled to 72 columns are left as they are, though each line is as
    /// full as a wrapped one.
    #[test]
    fn tables_and_prose_a_client_did_not_wrap_stay() {
        let table = "\
Execl Throughput                           2311.6 lps   (29.9 secs, 3 samples)
C Compiler Throughput                      1331.9 lpm   (60.4 secs, 3 samples)
Shell Scripts (1 concurrent)               7500.7 lpm   (60.0 secs, 3 samples)
Shell Scripts (8 concurrent)               3031.0 lpm   (60.0 secs, 3 samples)
";
        let side_by_side = "\
Elapsed Time 338.122 (0.869207)       Elapsed Time 336.404 (1.69196)
User Time 2025.49 (4.11097)           User Time 2028.17 (1.34199)
System Time 218.098 (0.826632)        System Time 219.022 (0.978581)
Percent CPU 663 (2.12132)             Percent CPU 667.4 (3.20936)
";
        let prose = "\
The mail client wrapped veristat's wide compare output at about 72
columns, so the header, the rule and every row are split over two
lines: states before, after and their difference on the first line,
instructions before, after and their difference on the second.
";
        for text in [table, side_by_side, prose] {
            let (_, continued) = rejoin(&src(text));
            assert!(continued.is_empty(), "{text}");
        }
    }
}
