//! Telling what a line is: a border, a boxed row, a `time` line, pairs,
//! an aligned row, carets or prose.

use super::boxes::box_inner;
use super::boxes::{is_border, BoxCells};
use super::change::change;
use super::pairs::{pairs, records};
use super::time::carets;
use super::time::time_line;
use super::values::data_row;
use super::Kind;
use crate::ingest::shared::text::trim;

/// Classifies one cleaned line, as [`Classifier`] does without its memory.
#[cfg(test)]
pub fn classify(text: &str) -> Kind<'_> {
    classify_with(text, Look::All)
}

/// [`classify`] for format detection: a load generator's `key=value`
/// record lines are not looked for, because they do not tell a document
/// (a harness log holds them as well, and the generic reader reads a file
/// of them alone).
pub fn classify_for_detection(text: &str) -> Kind<'_> {
    classify_with(text, Look::NoRecords)
}

/// [`classify_for_detection`] for a caller that no longer needs to know
/// about column rows (detection once it has seen a table): what would be
/// a [`Kind::Row`] is [`Kind::Text`], and the costliest test is skipped.
pub fn classify_without_rows(text: &str) -> Kind<'_> {
    classify_with(text, Look::NoRows)
}

/// Which kinds a classification looks for.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Look {
    All,
    NoRecords,
    NoRows,
}

pub(super) fn classify_with(text: &str, look: Look) -> Kind<'_> {
    let t = trim(text);
    classify_boxed(t).unwrap_or_else(|| classify_rest(text, t, look))
}

/// [`classify`] of a document's lines in order, remembering the prose:
/// documents repeat lines (the heading above every table), and a line
/// known to be [`Kind::Text`] is not read again. Blank lines and boxed
/// tables, quick to tell, are not remembered.
#[derive(Default)]
pub struct Classifier<'a> {
    prose: hashbrown::HashSet<&'a str>,
}

impl<'a> Classifier<'a> {
    /// Distinct prose lines remembered; later ones are read each time.
    const MAX: usize = 4096;

    /// [`classify`] of `text`.
    pub fn classify(&mut self, text: &'a str) -> Kind<'a> {
        let t = trim(text);
        if let Some(k) = classify_boxed(t) {
            return k;
        }
        if self.prose.contains(text) {
            return Kind::Text;
        }
        let k = classify_rest(text, t, Look::All);
        if matches!(k, Kind::Text) && self.prose.len() < Self::MAX {
            self.prose.insert(text);
        }
        k
    }
}

/// The kinds told by the trimmed line `t` alone, quickly: blank, border,
/// boxed row.
#[inline]
pub(super) fn classify_boxed(t: &str) -> Option<Kind<'_>> {
    // A code fence (```` ``` ````, ```` ```text ````) only marks
    // where a pasted block starts or ends: a break between paragraphs, not
    // a heading that names the block (nor a line of it).
    if t.is_empty() || is_fence(t) {
        return Some(Kind::Blank);
    }
    if is_border(t) {
        return Some(Kind::Border);
    }
    box_inner(t).map(|inner| Kind::BoxRow(BoxCells(inner)))
}

/// A Markdown code fence: three or more backticks, then at most one word
/// naming the language. (A run of tildes, Markdown's other fence, is in
/// mails the underline of a title above it.)
fn is_fence(t: &str) -> bool {
    let rest = t.trim_start_matches('`');
    t.len() - rest.len() >= 3 && !rest.contains('`') && rest.split_whitespace().count() <= 1
}

/// [`classify_with`] of a line that is not blank, a border or a boxed row;
/// `t` is `text` trimmed.
pub(super) fn classify_rest<'t>(text: &'t str, t: &'t str, look: Look) -> Kind<'t> {
    if let Some((m, v)) = time_line(t) {
        return Kind::Time(m, v);
    }
    if let Some(c) = carets(text) {
        return Kind::Carets(c);
    }
    if let Some(c) = change(t) {
        return Kind::Change(c);
    }
    if let Some(p) = pairs(text) {
        return Kind::Pairs(p);
    }
    if look == Look::All {
        if let Some(p) = records(t) {
            return Kind::Pairs(p);
        }
    }
    if look != Look::NoRows {
        if let Some(r) = data_row(text) {
            return Kind::Row(r);
        }
    }
    Kind::Text
}
