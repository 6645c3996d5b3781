//! Tables whose decimal mark is a comma, with no thousands grouped by
//! dots: `14,008(+/- 4,99 %)`, `1,48 %` beside `3.006(+/- 2.92 %)`. The
//! number readers take `4,99` for two numbers and `14,008` for fourteen
//! thousand and eight, so such a table's values were lost or misread.
//!
//! A single cell cannot tell: `14,008` may be a thousands group. The
//! paragraph decides. Where its lines write decimals with a comma (a comma
//! before one, two or four or more digits) on two lines or more, and none
//! of its numbers groups thousands (two commas, or a comma and a point),
//! every number with one comma in it is a decimal, `14,008` too, and is
//! respelled with a point. A paragraph that also has certain decimal
//! points (`3.88`) mixes both marks only where one column holds both, a
//! comma on one line and a point on another in the same blank-parted
//! field; commas in a column of their own there part two keys (fs_mark's
//! `6,10` directory order beside `0.73`) and stay. A respelled number
//! keeps its width; line numbers and quote depths are kept. Paragraphs
//! whose numbers grouped thousands with dots are
//! [`super::grouped_dots`]'s, which runs first.

use super::grouped_dots::{tokens, Token};
use super::rewrite;
use crate::ingest::Source;
use std::borrow::Cow;

/// What a number with a comma in it says of its paragraph's habit.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Comma {
    /// `4,99`, `0,5`, `1,2345`: a comma that can only be a decimal mark.
    Decimal,
    /// `14,008`: one comma before three digits, a group or a mark.
    Either,
    /// `1,234,567`, `1,234.5`: commas grouping thousands, certainly.
    Grouping,
}

/// The comma habit of one number token, `None` without a comma.
fn comma(tok: &str) -> Option<Comma> {
    let commas = tok.matches(',').count();
    if commas == 0 {
        return None;
    }
    if commas > 1 || tok.contains('.') {
        return Some(Comma::Grouping);
    }
    let (_, frac) = tok.split_once(',')?;
    Some(if frac.len() == 3 {
        Comma::Either
    } else {
        Comma::Decimal
    })
}

/// `src`, or a copy whose paragraphs with decimal commas are written with
/// decimal points (see the module documentation).
pub fn respell(src: &Source) -> Cow<'_, Source> {
    if !src.lines.iter().any(|l| l.text.contains(',')) {
        return Cow::Borrowed(src);
    }
    let mut decimal = vec![false; src.lines.len()];
    let blocks = rewrite::runs(&src.lines, |_, l| (!l.text.trim().is_empty()).then_some(()));
    for (r, ()) in blocks {
        let mut lines_with_marks = 0;
        let mut grouping = false;
        // The fields (blank-parted, counted from 0) holding a decimal comma
        // and those holding a certain decimal point.
        let (mut comma_fields, mut point_fields) = (Vec::new(), hashbrown::HashSet::new());
        for l in &src.lines[r.clone()] {
            let mut marked = false;
            let starts = field_starts(&l.text);
            for (s, e, kind) in tokens(&l.text) {
                grouping |= kind == Token::Grouped;
                match comma(&l.text[s..e]) {
                    Some(Comma::Decimal) => {
                        marked = true;
                        comma_fields.push(field(&starts, s));
                    }
                    Some(Comma::Grouping) => grouping = true,
                    _ if kind == Token::Point => {
                        point_fields.insert(field(&starts, s));
                    }
                    _ => {}
                }
            }
            lines_with_marks += usize::from(marked);
        }
        let mixed_in_a_column = comma_fields.iter().any(|f| point_fields.contains(f));
        if lines_with_marks >= 2 && !grouping && (point_fields.is_empty() || mixed_in_a_column) {
            decimal[r].fill(true);
        }
    }
    if !decimal.contains(&true) {
        return Cow::Borrowed(src);
    }
    rewrite::each_line(src, |i, l| {
        (decimal[i] && l.text.contains(',')).then(|| pointed(&l.text))
    })
}

/// Where the blank-parted fields of `text` start, in order: found once per
/// line, as a line of 10^5 numbers asks for the field of each.
fn field_starts(text: &str) -> Vec<usize> {
    let b = text.as_bytes();
    (0..b.len())
        .filter(|&i| !b[i].is_ascii_whitespace() && (i == 0 || b[i - 1].is_ascii_whitespace()))
        .collect()
}

/// The blank-parted field that byte `at` is in, counted from 0, given the
/// line's [`field_starts`].
fn field(starts: &[usize], at: usize) -> usize {
    starts.partition_point(|&s| s <= at).saturating_sub(1)
}

/// `text` with the comma of each number that has one made a point.
fn pointed(text: &str) -> String {
    let mut out = text.as_bytes().to_vec();
    for (s, e, _) in tokens(text) {
        if comma(&text[s..e]).is_some() {
            for b in &mut out[s..e] {
                if *b == b',' {
                    *b = b'.';
                }
            }
        }
    }
    // Only ASCII commas became ASCII points: still UTF-8.
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::Format;

    /// Lines of a corpus post (NUMA balancing by runnable_avg, hackbench
    /// on 224 CPUs), which mix decimal commas with points.
    const TABLE: &str = "  grp    tip/sched/core         +patchset              improvement\n\
        \x20 1      14,008(+/- 4,99 %)     13,800(+/- 3.88 %)     1,48 %\n\
        \x20 4       4,340(+/- 5.35 %)      4.283(+/- 4.85 %)     1,33 %\n\
        \x20 16      3,357(+/- 0.55 %)      3.359(+/- 0.54 %)    -0,06 %\n\
        \x20 64      2.968(+/- 1,85 %)      3.006(+/- 2.92 %)    -1.27 %\n";

    #[test]
    fn a_paragraph_with_decimal_commas_reads_every_comma_as_a_point() {
        let src = Source::from_text("m.txt", TABLE);
        let out = respell(&src);
        assert_eq!(
            out.lines[1].text,
            "  1      14.008(+/- 4.99 %)     13.800(+/- 3.88 %)     1.48 %"
        );
        assert_eq!(out.lines[4].text, src.lines[4].text.replace("1,85", "1.85"));
        let rows = crate::ingest::formats::document::Document
            .parse(&src)
            .unwrap();
        let values: Vec<f64> = rows.iter().map(|o| o.value).collect();
        for v in [14.008, 13.8, 4.34, 4.283, 3.357, 2.968] {
            assert!(values.contains(&v), "{v} not in {values:?}");
        }
    }

    #[test]
    fn fields_are_counted_from_zero_past_leading_blanks() {
        let field = |text: &str, at: usize| field(&field_starts(text), at);
        assert_eq!(field("  1   14,008(+/- 4,99 %)", 2), 0);
        assert_eq!(field("  1   14,008(+/- 4,99 %)", 6), 1);
        assert_eq!(field("  1   14,008(+/- 4,99 %)", 17), 2);
        assert_eq!(field("a b", 0), 0);
    }

    #[test]
    fn thousands_and_lists_keep_their_commas() {
        // Thousands grouped by commas in the same paragraph, a CPU list,
        // a single decimal comma on one line: nothing to decide from; and a
        // corpus post's key column of directory orders (fs_mark, ext4 fast
        // commits) beside decimal points in columns of their own.
        let text = "ops 1,234,567 and 0,5\nrun 2,5 s\n\nCPUs 0,1 and 2,3 were used\n\n\
            #no. \tOrder \t\twithout-patch(K) \twith-patch(K)\n\
            6\t6,6 \t\t87.92 \t\t\t103.38\n\
            7\t6,10 \t\t 0.73 \t\t\t126.13\n\
            8\t6,14 \t\t 2.33 \t\t\t143.19\n";
        let src = Source::from_text("m.txt", text);
        assert!(matches!(respell(&src), Cow::Borrowed(_)));
    }
}
