//! Before-and-after lines: `Packet rate: 17.55 Mpps -> 19.23 Mpps`,
//! `old: 554 IOPS → new: 535 IOPS  (~-3.4%)`, `420 => 360`. A patch mail
//! states a change this way more often than in a table.

use super::values::value_cell;
use super::Change;
use crate::model::{Dimension, Unit};

/// The arrows that join the two values, longest first so that `-->` is not
/// read as `-` and `->`.
const ARROWS: [&str; 7] = ["-->", "->", "=>", "→", "⇒", "⟶", "➜"];

/// The before-and-after reading of `text`, when it is one.
/// The first arrow in `text` and where it starts; of arrows starting at
/// one place the longest (`-->`, not `-`).
fn first_arrow(text: &str) -> Option<(usize, &'static str)> {
    // Every arrow holds `>` or starts with the byte 0xE2: most lines hold
    // neither and are ruled out by one scan instead of a search per arrow.
    memchr::memchr2(b'>', 0xE2, text.as_bytes())?;
    ARROWS
        .iter()
        .filter_map(|a| text.find(a).map(|i| (i, *a)))
        .min_by_key(|(i, a)| (*i, std::cmp::Reverse(a.len())))
}

pub(super) fn change(text: &str) -> Option<Change> {
    let (at, arrow) = first_arrow(text)?;
    let (left, right) = (&text[..at], &text[at + arrow.len()..]);
    // One change per line: a second arrow makes it a chain or a diagram.
    if ARROWS.iter().any(|a| right.contains(a)) {
        return None;
    }
    let (mut label, mut before_name, before) = side(left, true)?;
    let (_, after_name, after) = side(right, false)?;
    // `old: 554 IOPS → new: 535 IOPS`: with a name on the right, the one
    // word on the left is the other name, not a label.
    if after_name.is_some() && before_name.is_none() {
        before_name = label.take();
    }
    // Both sides name their variant or neither does.
    let (before_name, after_name) = match (before_name, after_name) {
        (Some(b), Some(a)) => (Some(b), Some(a)),
        _ => (None, None),
    };
    let unit = if before.1.is_empty() {
        after.1.clone()
    } else {
        before.1.clone()
    };
    // Two units that differ are one metric's values only when one converts
    // into the other (`863Kpps -> 1.3Mpps`); `2 ms -> 3 s` is a time and a
    // ratio of times, not a change of one quantity.
    let mut after_value = after.0;
    if !before.1.is_empty() && !after.1.is_empty() && before.1 != after.1 {
        let (from, to) = (Unit::parse(&after.1), Unit::parse(&before.1));
        if from.dimension != Dimension::Rate {
            return None;
        }
        after_value = from.convert(after.0, &to)?;
    }
    Some(Change {
        label: label.unwrap_or_default(),
        names: before_name.zip(after_name),
        before: before.0,
        after: after_value,
        unit,
    })
}

/// The two sides a heading names with an arrow, and what it says before
/// them: `64B:  skb-mode -> native-mode` → (`64B`, `skb-mode`,
/// `native-mode`). Each side is one or two words without digits alone,
/// so that a heading of values (`5 -> 6`) or a sentence is not read so.
pub fn heading_sides(heading: &str) -> Option<(String, String, String)> {
    let (at, arrow) = first_arrow(heading)?;
    let (left, right) = (&heading[..at], heading[at + arrow.len()..].trim());
    let (context, before) = match left.rsplit_once(':') {
        Some((c, b)) => (c.trim(), b.trim()),
        None => ("", left.trim()),
    };
    let name = |s: &str| {
        let words = s.split_whitespace().count();
        (1..=2).contains(&words)
            && s.chars().any(char::is_alphabetic)
            && !ARROWS.iter().any(|a| s.contains(a))
            && !s.contains(':')
    };
    (name(before) && name(right))
        .then(|| (context.to_string(), before.to_string(), right.to_string()))
}

/// Where the remark after a right-hand value starts: a bracket, `;`,
/// `=` (`= +811,086 pps`, the gain), a column gap, or a comma that is no
/// thousands separator (`6,853,768` is one number).
fn remark_start(value: &str) -> usize {
    let b = value.as_bytes();
    let separator = |i: usize| {
        i > 0
            && b[i - 1].is_ascii_digit()
            && b.len() >= i + 4
            && b[i + 1..i + 4].iter().all(u8::is_ascii_digit)
            && b.get(i + 4).is_none_or(|c| !c.is_ascii_digit())
    };
    let mark = b
        .iter()
        .enumerate()
        .position(|(i, &c)| matches!(c, b'(' | b';' | b'=') || c == b',' && !separator(i));
    let gap = value.find("  ");
    match (mark, gap) {
        (Some(a), Some(g)) => a.min(g),
        (a, g) => a.or(g).unwrap_or(value.len()),
    }
}

/// Reads one side: `[label:] [name:] value [unit]`, the right side with an
/// optional remark after the value (`(~-3.4%)`, `(+9.6%)`, `, 5% better`).
/// On the right there is no label.
type Side = (Option<String>, Option<String>, (f64, String));

fn side(text: &str, left: bool) -> Option<Side> {
    let parts: Vec<&str> = text.split(':').collect();
    let (value, names) = parts.split_last()?;
    let value = value.trim();
    let value = if left {
        value
    } else {
        // The remark after the value: `535 IOPS  (~-3.4%)`, `19.23, +9%`.
        value[..remark_start(value)].trim()
    };
    if value.is_empty() || !value.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '.')
    {
        return None;
    }
    let (cell, unit) = value_cell(value).or_else(|| counted(value))?;
    // A spread or a percent is not a plain before/after value.
    if cell.spread.is_some() || cell.is_pct || !cell.value.is_finite() {
        return None;
    }
    // The words of a side are a label and a name at most: more colons is
    // prose (`note: the rate: 5 -> 6` is not a measurement line).
    let words: Vec<String> = names
        .iter()
        .map(|n| {
            n.trim()
                .trim_start_matches(['-', '*', '•'])
                .trim()
                .to_string()
        })
        .collect();
    if words
        .iter()
        .any(|w| w.is_empty() || w.split_whitespace().count() > 8)
    {
        return None;
    }
    let (label, name) = match (left, words.as_slice()) {
        (_, []) => (None, None),
        (true, [one]) => (Some(one.clone()), None),
        (true, [label, name]) => (Some(label.clone()), Some(name.clone())),
        (false, [name]) => (None, Some(name.clone())),
        _ => return None,
    };
    Some((
        label,
        name,
        (cell.value, unit.map(|u| u.to_string()).unwrap_or_default()),
    ))
}

/// A number and a word that counts what it measures (`17.55 Mpps`, `554
/// IOPS`, `3 faults`): a unit no table would know, but on a change line
/// the word after the value can only be what it counts.
fn counted(
    text: &str,
) -> Option<(
    crate::ingest::shared::numbers::Cell,
    Option<smol_str::SmolStr>,
)> {
    let (number, word) = text.split_once(' ')?;
    let word = word.trim();
    let unit_like = !word.is_empty()
        && word.len() <= 12
        && word
            .chars()
            .all(|c| c.is_alphabetic() || matches!(c, '/' | '%' | 'µ'));
    if !unit_like {
        return None;
    }
    let (cell, None) = value_cell(number)? else {
        return None;
    };
    Some((cell, Some(word.into())))
}
