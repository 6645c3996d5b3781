//! A label alone on its line over a bare number on the next
//! (`numa01` then `313.17`): scripts that `echo $name; echo $result`
//! print each value so. The pair is one `label: value`.

use super::MAX_LABEL;
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::Source;

/// One label over its value: the label's line, the value's line, the
/// label and the value.
pub(super) struct Stacked<'a> {
    pub(super) label_line: u32,
    pub(super) value_line: u32,
    pub(super) label: &'a str,
    pub(super) value: f64,
}

/// A line that can only be a name: a letter first, no separator, no blank
/// inside (a sentence over a number is prose, not its label).
fn is_bare_label(t: &str) -> bool {
    t.len() <= MAX_LABEL
        && t.starts_with(|c: char| c.is_alphabetic())
        && !t.contains(char::is_whitespace)
        && !t.contains([':', '=', ','])
        && parse_number(t).is_none()
}

/// The labels over bare numbers in `src`, when there are at least two
/// (one such pair could be any line above any number).
pub(super) fn stacked(src: &Source) -> Vec<Stacked<'_>> {
    let mut out = Vec::new();
    for w in src.lines.windows(2) {
        let (label, value) = (w[0].text.trim(), w[1].text.trim());
        if !is_bare_label(label) || value.contains(char::is_whitespace) {
            continue;
        }
        if let Some(v) = parse_number(value) {
            out.push(Stacked {
                label_line: w[0].number,
                value_line: w[1].number,
                label,
                value: v,
            });
        }
    }
    if out.len() < 2 {
        out.clear();
    }
    out
}
