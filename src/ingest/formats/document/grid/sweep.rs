//! Tables of a parameter sweep: a first row that names a parameter and
//! lists its settings (`number of groups 50 100 150 200`, `threads 1 2 4
//! 8`) heads the columns, and a line of one setting between the rows
//! (`2 CPUs`) heads the rows below it.

use super::super::labels::key_word;
use super::table::Row;
use super::tokens::{Tok, TokKind};

/// The settings a key row gives the columns.
pub(super) struct Sweep {
    /// The parameter's name (`groups`).
    pub name: String,
    /// One setting per value column, as written.
    pub values: Vec<String>,
}

/// Whether `t` is a plain whole number (no unit, no spread).
fn whole(t: &(&Tok, Vec<&Tok>)) -> bool {
    t.0.kind == TokKind::Num && t.0.unit.is_empty() && t.0.value.fract() == 0.0 && t.1.is_empty()
}

/// The key row of `rows`, when its first row is one: a label, then
/// two or more whole numbers rising from left to right, as many as the
/// values of the rows below, some of which are not whole numbers (so that
/// a table of counts is not taken for one).
pub(super) fn key_row(rows: &[Row]) -> Option<Sweep> {
    let (first, rest) = rows.split_first()?;
    let k = first.cells.len();
    let rising = first.cells.windows(2).all(|w| w[0].0.value < w[1].0.value);
    // Settings are written as plain integers (`1.` numbers a list item,
    // `22.0` is a measurement).
    let setting = |c: &(&Tok, Vec<&Tok>)| whole(c) && c.0.text.bytes().all(|b| b.is_ascii_digit());
    if k < 2 || !rising || !first.cells.iter().all(setting) {
        return None;
    }
    let full: Vec<&Row> = rest.iter().filter(|r| r.cells.len() == k).collect();
    let others_measured = full.len() * 2 >= rest.len()
        && !full.is_empty()
        && full.iter().any(|r| !r.cells.iter().all(whole));
    if !others_measured || rest.iter().any(|r| r.cells.len() > k) || one_of_them(first, rest) {
        return None;
    }
    Some(Sweep {
        name: key_word(&first.label)?,
        values: first.cells.iter().map(|c| c.0.text.to_string()).collect(),
    })
}

/// Whether `first` is labelled as every row below it is: the same
/// number of words, the first of them the same (`HH5A 5.4.128 Disabled`
/// over `HH5A 5.10.46 Disabled`). A key row names a parameter the rows
/// below do not (`threads` over `vanilla`, `patched`); a row labelled
/// like the others is one of them, whatever its values.
fn one_of_them(first: &Row, rest: &[Row]) -> bool {
    let shape = |l: &str| {
        // Bars and other marks around a label are no words of it.
        let w: Vec<&str> = l
            .split_whitespace()
            .filter(|w| w.chars().any(char::is_alphanumeric))
            .collect();
        (w.len(), w.first().map(|f| f.to_string()))
    };
    let (n, word) = shape(&first.label);
    n >= 2 && !rest.is_empty() && rest.iter().all(|r| shape(&r.label) == (n, word.clone()))
}

/// Takes the lines of one whole number and a word (`1 CPU`, `2 CPUs`)
/// out of a table whose rows have two or more values, and returns for
/// each remaining row the setting of the nearest such line above it
/// (`cpus=2`), named as the first of them is. Rows above the first get
/// none.
pub(super) fn row_headings(rows: &mut Vec<Row>) -> Vec<String> {
    let is_heading =
        |r: &Row| r.cells.len() == 1 && whole(&r.cells[0]) && key_word(&r.label).is_some();
    let headings = rows.iter().filter(|r| is_heading(r)).count();
    let full = rows.iter().filter(|r| r.cells.len() >= 2).count();
    if headings == 0 || full < 2 * headings {
        return vec![String::new(); rows.len()];
    }
    let mut name: Option<String> = None;
    let mut current = String::new();
    let mut out = Vec::with_capacity(rows.len());
    rows.retain(|r| {
        if is_heading(r) {
            let n = name.get_or_insert_with(|| key_word(&r.label).unwrap_or_default());
            current = format!("{n}={}", r.cells[0].0.text);
            return false;
        }
        out.push(current.clone());
        true
    });
    out
}

/// A unit a sentence states (`times are in seconds`, `(usec, lower is
/// better)`): a unit word right after `in` or an opening parenthesis.
pub(super) fn prose_unit(text: &str) -> Option<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    words.iter().enumerate().find_map(|(i, w)| {
        let after_in = i > 0 && words[i - 1].eq_ignore_ascii_case("in");
        let opened = w.starts_with('(');
        let word = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '%' && c != '/');
        let unit = (after_in || opened) && super::super::lines::known_unit(word);
        unit.then(|| crate::model::Unit::normalize_spelling(word).to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameter_names_and_stated_units() {
        assert_eq!(key_word("number of groups").as_deref(), Some("groups"));
        assert_eq!(key_word("Clients:").as_deref(), Some("clients"));
        assert_eq!(key_word("2.4.18"), None);
        assert_eq!(key_word("22 usec"), None);
        assert_eq!(
            prose_unit("(times are in seconds, lower number is better)").as_deref(),
            Some("s")
        );
        assert_eq!(
            prose_unit("Results (usec, lower is better):").as_deref(),
            Some("us")
        );
        assert_eq!(prose_unit("numbers in a table"), None);
    }
}
