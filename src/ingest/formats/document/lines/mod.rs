//! What one line of a document is: a boxed-table border or row, a bash
//! `time` line, `key: value` pairs, a row of aligned numeric columns, a caret
//! line marking units under the line above, or prose.
//!
//! Every scanner works on `char`s so that no input can split a UTF-8 sequence.

use crate::ingest::shared::numbers::Cell;
use crate::model::{Dimension, Unit};

mod boxes;
mod cells;
mod change;
mod classify;
mod pairs;
#[cfg(test)]
mod tests;
mod time;
mod values;

pub use boxes::{is_box_row, BoxCells};
pub use cells::{header_words, merge_header, split_cells};
pub use change::heading_sides;
#[cfg(test)]
pub use classify::classify;
pub use classify::{classify_for_detection, classify_without_rows, Classifier};
pub use pairs::is_measurement;
pub use time::duration_seconds;
pub use values::{in_two_units, is_value, read_value};

/// One `key: value` pair of a line.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    /// The key as written, trimmed (`pert/s`, `maximum latency`, `std. dev.`).
    pub key: String,
    /// The number after the separator.
    pub value: f64,
    /// The unit written right after the value (`us`, `%`, `µs`), or empty.
    pub unit: String,
    /// Character columns of the value and its unit, for caret annotations.
    pub span: (usize, usize),
}

/// A before-and-after line (see [`Kind::Change`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// What was measured, as written before the first value (`Packet
    /// rate`), or empty.
    pub label: String,
    /// The names of the two sides when the line gives them (`old`, `new`).
    pub names: Option<(String, String)>,
    /// The value before the change.
    pub before: f64,
    /// The value after it.
    pub after: f64,
    /// The unit written with either value, or empty.
    pub unit: String,
}

/// A cell of a row split on column gaps, with its starting column.
#[derive(Debug, Clone, PartialEq)]
pub struct RawCell {
    /// Character column where the cell starts.
    pub col: usize,
    /// The cell's text, inner single spaces kept.
    pub text: String,
}

/// A row of aligned columns: an optional text label, then numeric cells.
#[derive(Debug, Clone, PartialEq)]
pub struct DataRow {
    /// The text before the first numeric cell (empty for a bare row).
    pub label: String,
    /// Each numeric cell as written and as parsed.
    pub cells: Vec<(String, Cell)>,
}

/// The kind of a cleaned line; boxed-row cells borrow the line's text.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind<'a> {
    /// Nothing but whitespace.
    Blank,
    /// `+----+----+` or `|----|----|`.
    Border,
    /// `| a | b |`: the cell texts.
    BoxRow(BoxCells<'a>),
    /// `real 0m34.067s`: metric and seconds.
    Time(String, f64),
    /// One or more `key: value` pairs covering the whole line.
    Pairs(Vec<Pair>),
    /// Aligned numeric columns after an optional label.
    Row(DataRow),
    /// `   ^^^^^usecs   ^^^^^usecs`: (first column, last column + 1, unit).
    Carets(Vec<(usize, usize, String)>),
    /// `Packet rate: 17.55 Mpps -> 19.23 Mpps`: one value before a change
    /// and one after.
    Change(Change),
    /// Anything else.
    Text,
}

/// True for a unit a value can carry after a space (`42963.2 µs`).
pub fn known_unit(u: &str) -> bool {
    if u.is_empty() {
        return false;
    }
    if u == "%" {
        return true;
    }
    let unit = Unit::parse(u);
    !matches!(unit.dimension, Dimension::Other(_) | Dimension::Count) || per_long_time(u)
}

/// A rate over a span longer than a second (`/minute`, `ops/min`,
/// `runs/hour`), which the unit model does not convert but a value may
/// carry all the same.
fn per_long_time(u: &str) -> bool {
    u.rsplit_once('/').is_some_and(|(what, per)| {
        what.chars().all(char::is_alphabetic)
            && matches!(per, "min" | "mins" | "minute" | "hour" | "hr" | "h" | "day")
    })
}
