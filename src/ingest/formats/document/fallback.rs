//! The low-confidence fallback: a block of two or more lines holding
//! numbers that no rule of the reader read is read number by number, each
//! named by its row's text and the header cell above its column, and
//! marked `read=fallback` in its parameters.
//!
//! Without it such a block is only listed among the numeric-looking lines
//! not read; with it the values reach the table, plainly marked as read by
//! no layout rule, so that they never pair with a table's rows and a
//! reader sees what they are.

use super::grid::{number, Tok, TokKind};
use crate::ingest::{Line, Source};
use crate::model::Observation;

/// The parameters that mark a row read by the fallback.
pub const MARK: (&str, &str) = crate::model::FALLBACK_MARK;

/// Whether a row was read by the fallback.
pub fn is_fallback(o: &Observation) -> bool {
    crate::model::read_by_fallback(&o.params)
}

/// How far above a block its header is looked for (blank lines count).
const HEADER_REACH: usize = 3;

/// Rows of the numeric blocks of `src` whose lines are none of `used`
/// (lines that gave rows, or were read or left out on purpose).
pub fn read(src: &Source, used: &hashbrown::HashSet<u32>) -> Vec<Observation> {
    let lines = &src.lines;
    // A shell prompt's numbers are the command's options, not results.
    let candidate = |l: &Line| {
        !used.contains(&l.number)
            && holds_digit(&l.text)
            && !is_prose(&l.text)
            && !is_attribute(&l.text)
            && !l.text.trim_end().ends_with(':')
            && crate::ingest::shared::prompt::shell_prompt(&l.text).is_none()
            && tokens(&l.text).iter().any(is_value)
    };
    let mut out = Vec::new();
    let blocks = super::rewrite::runs(lines, |_, l| candidate(l).then_some(l.quote_depth));
    for (block, _) in blocks.into_iter().filter(|(r, _)| r.len() >= 2) {
        let header = header_above(lines, block.start);
        for l in &lines[block] {
            read_line(l, header, |_| true, &mut out);
        }
    }
    out
}

/// The tokens of a line as the grid reader splits it, where a word that
/// holds a number the grid reader cannot take is read for it: set in
/// punctuation (`1221],`, `16μs.`), after a key (`RunTime=119.549`,
/// `cost:75`), beside a spread or a second count (`48.78±0.61%`,
/// `639+0`), or a percentage with its field's name glued on (`0.3%us,`).
pub(super) fn tokens(text: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    for t in super::grid::tokens(text) {
        if t.kind != TokKind::Word || !t.text.contains(|c: char| c.is_ascii_digit()) {
            out.push(t);
            continue;
        }
        let found = glued_values(&t.text);
        if found.is_empty() {
            out.push(t);
            continue;
        }
        for (value, unit) in found {
            out.push(Tok {
                kind: TokKind::Num,
                value,
                unit: unit.into(),
                ..t.clone()
            });
        }
    }
    out
}

/// The numbers of a word the grid reader leaves a word (see [`tokens`]).
pub(super) fn glued_values(word: &str) -> Vec<(f64, String)> {
    let w = word.trim_matches(|c: char| "([<{\"',;)]>}".contains(c));
    // A point before digits is the number's own (`.0306`), not punctuation.
    let owned;
    let w = match w.trim_end_matches('.').strip_prefix('.') {
        Some(rest) if rest.starts_with(|c: char| c.is_ascii_digit()) => {
            owned = format!("0.{rest}");
            owned.as_str()
        }
        _ => w.trim_matches('.'),
    };
    // After a key (`cost:75`), not inside a time of day or a duration
    // (`14:16`, `0:01:47`), whose parts are no values alone.
    let w = match w.rfind(['=', ':']) {
        Some(at) if at > 0 && !w.as_bytes()[at - 1].is_ascii_digit() => &w[at + 1..],
        Some(_) => return Vec::new(),
        None => w,
    };
    let b = w.as_bytes();
    let between_digits = |i: usize| {
        i > 0 && b[i - 1].is_ascii_digit() && b.get(i + 1).is_some_and(u8::is_ascii_digit)
    };
    let mut parts = Vec::new();
    let mut start = 0;
    for (i, c) in w.char_indices() {
        if c == '±' || (c == '+' && between_digits(i)) {
            parts.push(&w[start..i]);
            start = i + c.len_utf8();
        }
    }
    parts.push(&w[start..]);
    parts
        .into_iter()
        .map(|p| match p.find('%') {
            Some(at) if p[at + 1..].chars().all(|c| c.is_ascii_alphabetic()) => &p[..=at],
            _ => p,
        })
        .filter_map(|p| number(p).map(|(v, u, _)| (v, u)))
        .collect()
}

/// Whether a token holds a value the fallback reads.
pub(super) fn is_value(t: &Tok) -> bool {
    matches!(t.kind, TokKind::Num | TokKind::Change)
}

/// Whether `text` holds an ASCII digit, which every [`is_value`] token
/// does (`nan` and `inf` are missing cells): a line without one is passed
/// over before it is tokenised.
pub(super) fn holds_digit(text: &str) -> bool {
    text.bytes().any(|b| b.is_ascii_digit())
}

/// Whether a line is one `key: value` or `key=value` setting (`CPU family:
/// 6`, `CONFIG_HZ=250`): an attribute, which the reader leaves out on
/// purpose where it is not a measurement, and the generic reader takes
/// where it is.
fn is_attribute(text: &str) -> bool {
    let t = text.trim();
    t.find([':', '=']).is_some_and(|at| {
        at > 0
            && !tokens(&t[..at]).iter().any(is_value)
            && !t[at + 1..].trim().contains(char::is_whitespace)
    })
}

/// Whether a line is running prose: eight or more words, three quarters of
/// them plain words (a sentence that happens to hold numbers).
fn is_prose(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    let plain = words
        .iter()
        .filter(|w| {
            w.chars().any(char::is_alphabetic)
                && w.chars().all(|c| {
                    c.is_alphabetic() || matches!(c, ',' | '.' | '\'' | '-' | ';' | ':' | '(' | ')')
                })
        })
        .count();
    words.len() >= 8 && plain * 4 >= words.len() * 3
}

/// The nearest line above `at` holding words and no value, or ending
/// with a colon (`Iteration 0 (under-clocked 1052.476 MHz):`), within
/// [`HEADER_REACH`] lines and at the block's quote depth (a rule drawn
/// under a header is passed over). A line ending with a colon introduces
/// what follows it and is never read by the fallback itself.
pub(super) fn header_above(lines: &[Line], at: usize) -> Option<&Line> {
    let depth = lines[at].quote_depth;
    lines[at.saturating_sub(HEADER_REACH)..at]
        .iter()
        .rev()
        .filter(|l| l.quote_depth == depth && l.text.chars().any(char::is_alphabetic))
        .find(|l| {
            l.text.trim_end().ends_with(':')
                || !holds_digit(&l.text)
                || !tokens(&l.text).iter().any(is_value)
        })
}

/// Whether a header line is a title over the block (`pgfault latency
/// histogram (ns):`, a sentence) rather than a line of column names.
fn is_title(text: &str) -> bool {
    text.trim_end().ends_with(':') || super::titles::is_sentence(text)
}

/// The rows of one line of a block: each value under the header cell over
/// its column, or `value N` (its place on the line) where none is; only
/// the values whose place among the line's values `take` accepts (a line a
/// rule read gives the fallback the values the rule left).
pub(super) fn read_line(
    l: &Line,
    header: Option<&Line>,
    take: impl Fn(usize) -> bool,
    out: &mut Vec<Observation>,
) {
    let toks = tokens(&l.text);
    // The words before the first value name the row; after an index
    // column (`1 | msg_zerocopy (non-zc) | 18281`) the line's words do.
    // A setting glued in a name (`(@flush=false, nr_reqs=1)`) stays in it.
    let plain = super::grid::tokens(&l.text);
    let first = plain.iter().position(is_value).unwrap_or(plain.len());
    let words = |toks: &[Tok]| -> Vec<String> {
        toks.iter()
            .filter(|t| t.kind == TokKind::Word)
            .map(|t| t.text.to_string())
            .collect()
    };
    let mut row = words(&plain[..first]);
    if row.is_empty() {
        row = words(&plain);
    }
    let title = header.filter(|h| is_title(&h.text)).map(|h| h.text.trim());
    let head_toks = match (header, title) {
        (Some(h), None) => tokens(&h.text),
        _ => Vec::new(),
    };
    let benchmark = match (row.is_empty(), header) {
        (false, _) => row.join(" "),
        (true, Some(h)) => h.text.trim().to_string(),
        (true, None) => format!("block at line {}", l.number),
    };
    let values = toks.iter().enumerate().filter(|(_, t)| is_value(t));
    for (n, (i, t)) in values.enumerate() {
        if !take(n) {
            continue;
        }
        let metric = column_header(&head_toks, t)
            .or_else(|| own_name(&toks, i))
            .unwrap_or_else(|| format!("value {}", n + 1));
        let o = Observation::sample(benchmark.as_str(), metric, &t.unit, t.value)
            .with_params(&[MARK])
            .at_line(l.number);
        out.push(match title {
            Some(t) if !row.is_empty() => o.with_variant(t),
            _ => o,
        });
    }
}

/// The header words whose columns overlap the value's.
fn column_header(head: &[Tok], value: &Tok) -> Option<String> {
    let words: Vec<&str> = head
        .iter()
        .filter(|h| h.col < value.end && value.col < h.end)
        .map(|h| h.text.as_str())
        .collect();
    (!words.is_empty()).then(|| words.join(" "))
}

/// The name the line gives the value at `toks[at]` itself: the key glued
/// to it (`cost:602`), or the words after a break (a comma, a semicolon,
/// an opening bracket) since the value before it (`602 ns, walk 10`,
/// `2.2 M/s (drops 0.0 M/s)`). Words with no break before them may as well
/// close the value before as open this one (`717 max, 704 min`: `max`
/// names 717), and the words before a line's first value name its row:
/// neither names the value.
fn own_name(toks: &[Tok], at: usize) -> Option<String> {
    // A key is a plain name (`bw=617MiB/s`, `cost:602`), not a place in a
    // source file (`root:helpers.py:2306`) nor a device (`10141400.rng:`).
    let t = &toks[at];
    if t.kind == TokKind::Num {
        if let Some(key) = t.text.rfind([':', '=']).map(|k| trim_name(&t.text[..k])) {
            if super::labels::plain_name(key, false) {
                return Some(key.to_string());
            }
        }
    }
    let before = toks[..at]
        .iter()
        .rposition(|p| p.kind != TokKind::Word && p.kind != TokKind::Marker)?;
    let between = &toks[before + 1..at];
    // Where the last break puts the start of this value's words: after a
    // closing comma or a lone bracket, at a word a bracket opens.
    let start = between
        .iter()
        .enumerate()
        .filter_map(|(k, p)| {
            if p.text.ends_with([',', ';']) || matches!(p.text.as_str(), "(" | "[") {
                Some(k + 1)
            } else if p.text.starts_with(['(', '[']) {
                Some(k)
            } else {
                None
            }
        })
        .max()?;
    let words: Vec<&str> = between[start..]
        .iter()
        .filter(|p| p.kind == TokKind::Word)
        .map(|p| trim_name(&p.text))
        .filter(|w| w.chars().any(char::is_alphabetic))
        .collect();
    (!words.is_empty()).then(|| words.join(" "))
}

/// A name without the punctuation around it.
fn trim_name(text: &str) -> &str {
    text.trim_matches(|c: char| "([{,;:=)]}\"'".contains(c))
}
