//! Tables ruled with Unicode box-drawing characters (`┌──┬──┐`, `│`,
//! `├──┼──┤`) read as the ASCII boxes they draw (`+--+--+`, `|`).
//!
//! Terminal tools and editors draw boxes with the characters of the
//! U+2500 block; the box readers know the ASCII spelling only. Each such
//! character becomes one ASCII character, so a line keeps its length in
//! characters and the columns of a box stay where they were. A rule line
//! that an archive cut in the middle of a multi-byte character ends in a
//! replacement character (`+────�`): that end is dropped, as the rule says
//! nothing after it.

use super::rewrite;
use crate::ingest::Source;
use std::borrow::Cow;

/// `src`, or a copy whose box-drawing characters are ASCII when it has
/// any. Line numbers and quote depths are kept.
pub fn ascii_rules(src: &Source) -> Cow<'_, Source> {
    rewrite::each_line(src, |_, l| {
        has_box_drawing(&l.text).then(|| ascii_line(&l.text))
    })
}

/// Whether `text` holds a character of the box-drawing block.
fn has_box_drawing(text: &str) -> bool {
    // Every character of U+2500..U+257F is encoded E2 94 xx or E2 95 xx:
    // a byte scan, not a decoding, rules most lines out.
    text.as_bytes()
        .windows(2)
        .any(|w| w[0] == 0xE2 && (w[1] == 0x94 || w[1] == 0x95))
}

/// `text` with each box-drawing character spelled in ASCII, and a rule
/// cut short by a replacement character ended before it.
fn ascii_line(text: &str) -> String {
    let mut out: String = text.chars().map(ascii).collect();
    if out.ends_with('\u{fffd}') {
        let body = out.trim_end_matches('\u{fffd}');
        if is_rule(body) {
            out.truncate(body.len());
        }
    }
    out
}

/// A line drawn only with rule characters (after [`ascii`]).
fn is_rule(text: &str) -> bool {
    let t = text.trim();
    !t.is_empty() && t.chars().all(|c| matches!(c, '+' | '-' | '=' | '|'))
}

/// The ASCII character a box-drawing character draws: a horizontal line
/// `-` (a double one `=`), a vertical line `|`, any corner or crossing
/// `+`. Other characters are kept.
fn ascii(c: char) -> char {
    match c {
        '\u{2550}' => '=',
        '\u{2500}' | '\u{2501}' | '\u{2504}' | '\u{2505}' | '\u{2508}' | '\u{2509}'
        | '\u{254c}' | '\u{254d}' | '\u{2574}' | '\u{2576}' | '\u{2578}' | '\u{257a}'
        | '\u{257c}' | '\u{257e}' => '-',
        '\u{2502}' | '\u{2503}' | '\u{2506}' | '\u{2507}' | '\u{250a}' | '\u{250b}'
        | '\u{254e}' | '\u{254f}' | '\u{2551}' | '\u{2575}' | '\u{2577}' | '\u{2579}'
        | '\u{257b}' | '\u{257d}' | '\u{257f}' => '|',
        '\u{2500}'..='\u{257f}' => '+',
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_drawing_becomes_the_ascii_box_it_draws() {
        let src = Source::from_text(
            "t.txt",
            "┌──────┬──────┐\n│ a    │ 1.5  │\n╞══════╪══════╡\nplain line\n",
        );
        let out = ascii_rules(&src);
        let texts: Vec<&str> = out.lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "+------+------+",
                "| a    | 1.5  |",
                "+======+======+",
                "plain line"
            ]
        );
        assert_eq!(out.lines[3].number, 4);
    }

    #[test]
    fn a_rule_cut_in_a_character_ends_before_the_cut() {
        let src = Source::from_text("t.txt", "+────+───\u{fffd}\n| x \u{fffd}\n");
        let out = ascii_rules(&src);
        assert_eq!(out.lines[0].text, "+----+---");
        // Not a rule (text in it): kept as it is.
        assert_eq!(out.lines[1].text, "| x \u{fffd}");
    }

    #[test]
    fn a_source_without_box_drawing_is_not_copied() {
        let src = Source::from_text("t.txt", "+---+\n| ─x |\n");
        assert!(matches!(ascii_rules(&src), Cow::Owned(_)));
        let plain = Source::from_text("t.txt", "+---+\n| 1 |\n");
        assert!(matches!(ascii_rules(&plain), Cow::Borrowed(_)));
    }

    #[test]
    fn a_unicode_boxed_table_reads_like_an_ascii_one() {
        let text = "Results:\n\n\
                    ┌────────┬──────────┬─────────┐\n\
                    │        │ before   │ after   │\n\
                    ├────────┼──────────┼─────────┤\n\
                    │ Test 1 │ 11.8     │ 23.3    │\n\
                    │ Test 2 │ 1617     │ 1740    │\n\
                    └────────┴──────────┴─────────┘\n";
        let ascii = text.chars().map(ascii).collect::<String>();
        let read = |t: &str| {
            let mut rows: Vec<(String, String, f64)> =
                super::super::reader::read(&ascii_rules(&Source::from_text("t.txt", t)))
                    .unwrap()
                    .into_iter()
                    .map(|o| (o.variant.to_string(), o.benchmark.to_string(), o.value))
                    .collect();
            rows.sort_by(|a, b| a.partial_cmp(b).unwrap());
            rows
        };
        let unicode = read(text);
        assert_eq!(unicode, read(&ascii));
        assert!(unicode
            .iter()
            .any(|(v, b, x)| v == "after" && b.contains("Test 2") && *x == 1740.0));
    }
}
