//! Numbers written with dots between thousands: `1.487.148 operations/sec
//! (+- 0,53%)`, as a writer of continental habit types them.
//!
//! The number readers take `1.487.148` for no number and `0,53` for two,
//! so such a table's values were lost. A number with two or more dots,
//! each followed by three digits, can only be grouped thousands (a decimal
//! has one point; an IPv4 address has four parts of at most 255, and is
//! left alone): it is respelled without its dots wherever it stands. Where
//! a paragraph writes its numbers that way and holds no number with a
//! decimal point (`15.67`, which shows the dot is a point there), its other
//! numbers follow the same habit: `141.394` is a thousands group too and
//! `0,53` has a decimal comma. A paragraph that mixes grouped thousands
//! with decimal points (`1.341.700 fps (15.67 Gbps)`) keeps its points.
//! A respelled number keeps its width, padded on the left, so that the
//! columns of a table stay aligned; line numbers and quote depths are kept.

use super::rewrite;
use crate::ingest::Source;
use std::borrow::Cow;

/// What one number token of a line is.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(super) enum Token {
    /// `1.487.148`, `1.234,5`: dots grouping thousands, certainly.
    Grouped,
    /// `141.394`: one dot before three digits, a point or a group.
    OneGroup,
    /// `0,53`: a comma before one, two or four or more digits.
    DecimalComma,
    /// `15.67`: a decimal point, certainly.
    Point,
    Other,
}

/// `src`, or a copy whose numbers with grouped thousands (and, in their
/// paragraphs, decimal commas) are written as the readers read them.
pub fn respell(src: &Source) -> Cow<'_, Source> {
    if !src
        .lines
        .iter()
        .any(|l| may_group(&l.text) && tokens(&l.text).any(|(_, _, k)| k == Token::Grouped))
    {
        return Cow::Borrowed(src);
    }
    // Whether each line's paragraph writes its decimals with commas
    // (`None` for a blank line, which no paragraph holds).
    let mut continental: Vec<Option<bool>> = vec![None; src.lines.len()];
    // Blank lines alone part the paragraphs here, not quote depths.
    let blocks = rewrite::runs(&src.lines, |_, l| (!l.text.trim().is_empty()).then_some(()));
    for (r, ()) in blocks {
        let kinds: Vec<Token> = src.lines[r.clone()]
            .iter()
            .flat_map(|l| tokens(&l.text).map(|(_, _, k)| k).collect::<Vec<_>>())
            .collect();
        let c = kinds.contains(&Token::Grouped) && !kinds.contains(&Token::Point);
        continental[r].fill(Some(c));
    }
    rewrite::each_line(src, |i, l| continental[i].map(|c| respelled(&l.text, c)))
}

/// Whether `text` may hold a [`Token::Grouped`] number, which has a dot,
/// three digits and a second dot or a comma before a digit (`1.487.148`,
/// `1.234,5`): most lines are ruled out without being tokenised.
fn may_group(text: &str) -> bool {
    let b = text.as_bytes();
    memchr::memchr_iter(b'.', b).any(|i| {
        b.len() > i + 5
            && b[i + 1..i + 4].iter().all(u8::is_ascii_digit)
            && matches!(b[i + 4], b'.' | b',')
            && b[i + 5].is_ascii_digit()
    })
}

/// `text` with its grouped numbers respelled, and with its one-group and
/// decimal-comma numbers too where `continental`.
fn respelled(text: &str, continental: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (s, e, kind) in tokens(text) {
        let tok = &text[s..e];
        let new = match kind {
            Token::Grouped => Some(plain(tok)),
            Token::OneGroup | Token::DecimalComma if continental => Some(plain(tok)),
            _ => None,
        };
        if let Some(new) = new {
            out.push_str(&text[at..s]);
            out.extend(std::iter::repeat_n(' ', tok.len() - new.len()));
            out.push_str(&new);
            at = e;
        }
    }
    out.push_str(&text[at..]);
    out
}

/// `1.487.148` as `1487148`, `1.234,5` as `1234.5`, `0,53` as `0.53`.
fn plain(tok: &str) -> String {
    tok.chars()
        .filter(|&c| c != '.')
        .map(|c| if c == ',' { '.' } else { c })
        .collect()
}

/// The number tokens of `text`: runs of digits, dots and commas that start
/// with a digit after no letter, digit, dot or comma, and end with a digit
/// before no letter or digit (a sentence's full stop or comma after a
/// number is not part of it); with their byte range and kind.
pub(super) fn tokens(text: &str) -> impl Iterator<Item = (usize, usize, Token)> + '_ {
    let b = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() {
            let starts = b[i].is_ascii_digit()
                && (i == 0
                    || !(b[i - 1].is_ascii_alphanumeric() || matches!(b[i - 1], b'.' | b',')));
            if !starts {
                i += 1;
                continue;
            }
            let s = i;
            while i < b.len() && (b[i].is_ascii_digit() || matches!(b[i], b'.' | b',')) {
                i += 1;
            }
            let mut e = i;
            while !b[e - 1].is_ascii_digit() {
                e -= 1;
            }
            if i < b.len() && b[i].is_ascii_alphabetic() && b[i] != b'K' && b[i] != b'M' {
                // `2.6.18-rc1`'s parts, `1.5x`: a name or a factor, no count.
                continue;
            }
            return Some((s, e, kind(&text[s..e])));
        }
        None
    })
}

/// The kind of one number token.
fn kind(tok: &str) -> Token {
    let (int, frac) = match tok.split_once(',') {
        Some((a, b)) if !b.contains([',', '.']) => (a, Some(b)),
        Some(_) => return Token::Other,
        None => (tok, None),
    };
    let groups: Vec<&str> = int.split('.').collect();
    let grouped = groups.len() >= 2
        && (1..=3).contains(&groups[0].len())
        && groups[1..].iter().all(|g| g.len() == 3);
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    if !groups.iter().all(|g| digits(g)) || frac.is_some_and(|f| !digits(f)) {
        return Token::Other;
    }
    match (groups.len(), frac) {
        // An IPv4 address: four parts of at most 255.
        (4, None)
            if groups
                .iter()
                .all(|g| g.parse::<u32>().is_ok_and(|v| v <= 255)) =>
        {
            Token::Other
        }
        (n, _) if n >= 3 && grouped => Token::Grouped,
        (2, Some(_)) if grouped => Token::Grouped,
        (2, None) if grouped => Token::OneGroup,
        (2, None) => Token::Point,
        (1, Some(f)) if f.len() != 3 => Token::DecimalComma,
        _ => Token::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::Format;

    #[test]
    fn grouped_thousands_and_decimal_commas_are_respelled_in_their_paragraph() {
        // Lines of a corpus post (futex private hash, perf bench futex hash).
        let text = "  - With the series\n\
            \x20   shared  Averaged 1.326.342 operations/sec (+- 0,41%), total secs = 10\n\
            \x20   -b128   Averaged   141.394 operations/sec (+- 1,15%), total secs = 10\n";
        let src = Source::from_text("m.txt", text);
        let out = respell(&src);
        assert_eq!(
            out.lines[1].text,
            "    shared  Averaged   1326342 operations/sec (+- 0.41%), total secs = 10"
        );
        assert_eq!(
            out.lines[2].text,
            "    -b128   Averaged    141394 operations/sec (+- 1.15%), total secs = 10"
        );
        let rows = crate::ingest::formats::document::Document
            .parse(&src)
            .unwrap();
        let values: Vec<f64> = rows.iter().map(|o| o.value).collect();
        assert!(
            values.contains(&1326342.0) && values.contains(&141394.0),
            "{values:?}"
        );
    }

    #[test]
    fn decimal_points_and_addresses_stay() {
        // A corpus post's collapsed line mixes grouped thousands with points.
        let text =
            "Single stream UDP frame size 1460 Bytes: 1.341.700 fps (15.67 Gbps), 141.394 pps\n\
            ping 192.168.100.200 and 10.0.0.1, kernel 2.6.18-rc1, list 1,2,3\n";
        let src = Source::from_text("m.txt", text);
        let out = respell(&src);
        assert_eq!(
            out.lines[0].text,
            "Single stream UDP frame size 1460 Bytes:   1341700 fps (15.67 Gbps), 141.394 pps"
        );
        assert_eq!(out.lines[1].text, src.lines[1].text);
    }
}
