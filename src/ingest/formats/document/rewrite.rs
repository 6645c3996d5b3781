//! What the document's respellings share: finding runs of consecutive
//! lines of one shape, and rewriting lines in place. A respelling (pipes
//! closed, padding made spaces, values written as pairs) decides which
//! lines change and into what; the lines keep their numbers and quote
//! depths, so that every row read from a rewritten line still names the
//! line of the file it came from, and a source none of whose lines
//! changed is handed on as it is, uncopied.

use crate::ingest::{Line, Source};
use std::borrow::Cow;
use std::ops::Range;

/// The longest runs of consecutive lines (or of anything said of them)
/// to which `key` gives one same value, with that value, in order. A line
/// given `None` belongs to no run; each line's key is asked once.
pub(super) fn runs<'a, T, K: PartialEq>(
    lines: &'a [T],
    mut key: impl FnMut(usize, &'a T) -> Option<K>,
) -> Vec<(Range<usize>, K)> {
    let mut out: Vec<(Range<usize>, K)> = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let Some(k) = key(i, l) else { continue };
        match out.last_mut() {
            Some((r, last)) if r.end == i && *last == k => r.end = i + 1,
            _ => out.push((i..i + 1, k)),
        }
    }
    out
}

/// The paragraphs of `lines`: runs of non-blank lines at one quote depth.
pub(super) fn paragraphs(lines: &[Line]) -> Vec<Range<usize>> {
    runs(lines, |_, l| {
        (!l.text.trim().is_empty()).then_some(l.quote_depth)
    })
    .into_iter()
    .map(|(r, _)| r)
    .collect()
}

/// `src`, or a copy in which each line that `rewrite` gives a text (from
/// the line's index and the line) has that text instead, keeping its
/// number and quote depth. `src` itself when `rewrite` gives none.
pub(super) fn each_line<'a>(
    src: &'a Source,
    mut rewrite: impl FnMut(usize, &Line) -> Option<String>,
) -> Cow<'a, Source> {
    let mut out: Option<Vec<Line>> = None;
    for (i, l) in src.lines.iter().enumerate() {
        match (rewrite(i, l), &mut out) {
            (Some(text), out) => {
                let out = out.get_or_insert_with(|| {
                    let mut v = Vec::with_capacity(src.lines.len());
                    v.extend_from_slice(&src.lines[..i]);
                    v
                });
                out.push(Line {
                    text,
                    number: l.number,
                    quote_depth: l.quote_depth,
                });
            }
            (None, Some(out)) => out.push(l.clone()),
            (None, None) => {}
        }
    }
    match out {
        Some(lines) => Cow::Owned(Source::from_lines(&src.path, lines)),
        None => Cow::Borrowed(src),
    }
}

/// `src`, or a copy in which each line of `runs` (ranges of line indices,
/// in order and apart, as [`runs`] gives them) has the text `rewrite`
/// gives it, keeping its number and quote depth. `src` itself when
/// `runs` is empty.
pub(super) fn lines_of<'a>(
    src: &'a Source,
    runs: &[Range<usize>],
    mut rewrite: impl FnMut(&Line) -> String,
) -> Cow<'a, Source> {
    let mut next = runs.iter().peekable();
    each_line(src, |i, l| {
        while next.next_if(|r| r.end <= i).is_some() {}
        next.peek()
            .is_some_and(|r| r.contains(&i))
            .then(|| rewrite(l))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::source_of_lines as src;

    #[test]
    fn runs_are_the_longest_of_one_key() {
        let s = src(&["a|b", "c|d", "e", "f|g|h", "i|j|k", "l|m"]);
        let pipes = |_: usize, l: &Line| {
            let k = l.text.matches('|').count();
            (k > 0).then_some(k)
        };
        let got = runs(&s.lines, pipes);
        assert_eq!(got, vec![(0..2, 1), (3..5, 2), (5..6, 1)]);
    }

    #[test]
    fn paragraphs_end_at_blank_lines_and_quote_depth_changes() {
        let mut s = src(&["a", "b", "", "c", "d", "  ", "e"]);
        s.lines[4].quote_depth = 1;
        assert_eq!(paragraphs(&s.lines), vec![0..2, 3..4, 4..5, 6..7]);
    }

    #[test]
    fn rewritten_lines_keep_their_numbers_and_depths() {
        let mut s = src(&["one", "two", "three"]);
        s.lines[1].quote_depth = 2;
        let got = each_line(&s, |i, l| (i >= 1).then(|| l.text.to_uppercase()));
        let texts: Vec<&str> = got.lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["one", "TWO", "THREE"]);
        assert_eq!(got.lines[1].number, 2);
        assert_eq!(got.lines[1].quote_depth, 2);
        assert_eq!(got.raw, "one\nTWO\nTHREE\n");
        assert!(matches!(each_line(&s, |_, _| None), Cow::Borrowed(_)));
    }

    #[test]
    fn only_the_lines_of_the_runs_are_rewritten() {
        let s = src(&["a", "b", "c", "d", "e", "f"]);
        let got = lines_of(&s, &[1..3, 4..5], |l| l.text.to_uppercase());
        let texts: Vec<&str> = got.lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["a", "B", "C", "d", "E", "f"]);
        assert!(matches!(
            lines_of(&s, &[], |_| String::new()),
            Cow::Borrowed(_)
        ));
    }
}
