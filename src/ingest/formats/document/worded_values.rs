//! A key's values each named by the word after it:
//! `find_next_bit:   842792 ns, 163788 iterations`. The pair reader knows
//! one value per key and the grid reader took the trailing word for part
//! of the row's label, so the values were read as `column 1`, `column 2`
//! of a row labelled `find_next_bit: iterations`. Such a line is read as
//! the pairs it stands for (`find_next_bit: ns: 842792 ns, iterations:
//! 163788`): each value keyed by its word, the unit kept where the word is
//! one. A line is rewritten only where another line of the document names
//! its values with the same words in the same order: a measurement printed
//! again and again, not a sentence (`2 Socket, 44 cores, 176 CPUs`).

use super::lines::known_unit;
use super::rewrite;
use crate::ingest::Source;
use std::borrow::Cow;

/// `src`, or a copy whose worded-value lines are written as pairs.
pub fn expand(src: &Source) -> Cow<'_, Source> {
    let parsed: Vec<Option<Worded>> = src.lines.iter().map(|l| worded(&l.text)).collect();
    let mut counts: hashbrown::HashMap<Vec<&str>, usize> = hashbrown::HashMap::new();
    for w in parsed.iter().flatten() {
        *counts.entry(w.words()).or_default() += 1;
    }
    let repeated = |w: &Worded| counts.get(&w.words()).is_some_and(|&n| n >= 2);
    if !parsed.iter().flatten().any(repeated) {
        return Cow::Borrowed(src);
    }
    rewrite::each_line(src, |i, _| match &parsed[i] {
        Some(w) if repeated(w) => Some(w.as_pairs()),
        _ => None,
    })
}

/// A line read as a key and its (value, word) items.
struct Worded<'a> {
    key: &'a str,
    items: Vec<(&'a str, &'a str)>,
}

impl Worded<'_> {
    fn words(&self) -> Vec<&str> {
        self.items.iter().map(|(_, w)| *w).collect()
    }

    fn as_pairs(&self) -> String {
        let items: Vec<String> = self
            .items
            .iter()
            .map(|(v, w)| {
                if known_unit(w) {
                    format!("{w}: {v} {w}")
                } else {
                    format!("{w}: {v}")
                }
            })
            .collect();
        format!("{}: {}", self.key, items.join(", "))
    }
}

/// `key: N word, N word[, …]` with two items or more, each a plain number
/// and one word, the words all different.
fn worded(text: &str) -> Option<Worded<'_>> {
    let (key, rest) = text.split_once(": ")?;
    let key = key.trim_end();
    if key.trim().is_empty() || key.contains(':') {
        return None;
    }
    let mut items = Vec::new();
    for item in rest.split(',') {
        let mut parts = item.split_whitespace();
        let (v, w) = (parts.next()?, parts.next()?);
        if parts.next().is_some() || !is_plain_number(v) || !is_word(w) {
            return None;
        }
        items.push((v, w));
    }
    let mut words: Vec<&str> = items.iter().map(|(_, w)| *w).collect();
    words.sort_unstable();
    words.dedup();
    (items.len() >= 2 && words.len() == items.len()).then_some(Worded { key, items })
}

/// Digits with at most one decimal point.
fn is_plain_number(v: &str) -> bool {
    let mut parts = v.splitn(2, '.');
    let int = parts.next().unwrap_or("");
    let frac = parts.next().unwrap_or("0");
    !int.is_empty()
        && int.bytes().all(|c| c.is_ascii_digit())
        && !frac.is_empty()
        && frac.bytes().all(|c| c.is_ascii_digit())
}

/// A word of letters, `/` and `_` (`ns`, `iterations`, `Mb/s`).
fn is_word(w: &str) -> bool {
    w.starts_with(|c: char| c.is_ascii_alphabetic())
        && w.chars().all(|c| c.is_alphabetic() || c == '/' || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::ingest::source_of_lines as src;

    // Real lines of the find_bit test module.
    #[test]
    fn each_value_is_keyed_by_its_word() {
        let s = src(&[
            "Start testing find_bit() with random-filled bitmap",
            "find_next_bit:                  842792 ns, 163788 iterations",
            "find_first_bit:                1708041 ns,  16250 iterations",
        ]);
        let out = expand(&s);
        assert_eq!(out.lines[0].text, s.lines[0].text);
        assert_eq!(
            out.lines[1].text,
            "find_next_bit: ns: 842792 ns, iterations: 163788"
        );
        assert_eq!(
            out.lines[2].text,
            "find_first_bit: ns: 1708041 ns, iterations: 16250"
        );
        assert_eq!(out.lines[2].number, 3);
    }

    #[test]
    fn a_line_no_other_repeats_is_kept() {
        let s = src(&[
            "System configuration: 2 Socket, 44 cores, 176 CPUs",
            "Test: 500 Files, 1KB Size",
            "Test: 500 Files, 2KB Size",
        ]);
        assert!(matches!(expand(&s), Cow::Borrowed(_)));
    }
}
