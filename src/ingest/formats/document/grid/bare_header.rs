//! A header of numbers standing right above its rows, with no rule under
//! it: object sizes or thread counts head the columns (`8M  4M  1M  65k`
//! over `read+write  100%  100%  100%  100%`). Underlined, such a line is
//! taken for a header already (`numeric_headers`); without the rule it
//! was read as a row of the table, labelled by nothing, and the columns
//! went unnamed. A first line of the table whose cells are whole numbers
//! alone (no unit, no fraction, no label) over two or more labelled rows
//! of as many values, which carry a unit or a fraction somewhere, names
//! the columns: a table of counts (every cell a whole number) keeps it a
//! row.

use super::kinds::LineKind;
use super::table::group;
use super::tokens::TokKind;

/// Whether line `i` of `kinds` is such a header.
pub(super) fn is_bare_header(kinds: &[LineKind], i: usize) -> bool {
    let on_top = i == 0 || matches!(kinds[i - 1], LineKind::Text | LineKind::Rule);
    let LineKind::Data { label, values } = &kinds[i] else {
        return false;
    };
    let own = group(values);
    let bare = label.is_empty()
        && own.len() >= 2
        && own.iter().all(|c| {
            c.0.kind == TokKind::Num
                && c.0.unit.is_empty()
                && c.0.value.fract() == 0.0
                && c.1.is_empty()
        });
    if !on_top || !bare {
        return false;
    }
    let mut rows = 0;
    let mut measured = false;
    for k in &kinds[i + 1..] {
        let LineKind::Data { label, values } = k else {
            break;
        };
        let cells = group(values);
        let named = label
            .iter()
            .any(|t| t.text.chars().any(char::is_alphabetic));
        let count = cells.iter().filter(|c| c.0.kind != TokKind::Change).count();
        if !named || count != own.len() {
            return false;
        }
        measured |= cells.iter().any(|c| {
            c.0.kind == TokKind::Num && (!c.0.unit.is_empty() || c.0.value.fract() != 0.0)
        });
        rows += 1;
    }
    rows >= 2 && measured
}
