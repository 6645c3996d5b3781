//! Tables: what each column header means (a variant, a metric, a stat, a
//! parameter, a stated change) and how a row of cells becomes observations.

use crate::model::{SmolStr, Stat};
use std::rc::Rc;

mod build;
mod emit;
mod index_column;
mod nested_keys;
mod roles;
#[cfg(test)]
mod tests;

pub use build::{aligned, boxed};
pub use emit::{emit, metric_from_unit, Memo};
pub use roles::{names_parameter, roles};

/// What a column of a table holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Role {
    /// Row labels; the header may name the metric and unit of the whole table
    /// (`Latency (us)`).
    Label {
        metric: Option<String>,
        unit: Option<String>,
    },
    /// A parameter whose cell text is its value.
    Param(String),
    /// Values of one variant and metric (or of one stat, `avg`).
    Value(ValueCol),
    /// The spread of the value column before it (`stddev`).
    Spread(Stat),
    /// A change in percent stated for the value column before it.
    Change,
}

/// A column of values and what its header says about them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ValueCol {
    /// The build the header names (`baseline` in `baseline time (ms)`).
    pub variant: Option<String>,
    /// The quantity the header names (`time`).
    pub metric: Option<String>,
    /// The unit in parentheses (`ms`).
    pub unit: Option<String>,
    /// The stat the header names (`avg`, `min`); `None` for plain values.
    pub stat: Option<Stat>,
    /// `[stddev]` in the header: cells are `value [spread]`.
    pub bracket: Option<Stat>,
}

/// A table with the meaning of its columns and its rows' cells aligned to
/// them; the cells borrow the classified lines.
#[derive(Debug, Clone)]
pub struct Table<'a> {
    /// What each column holds.
    /// Shared with the document's other tables under the same header.
    pub roles: Rc<Vec<Role>>,
    /// The original line of each row.
    pub lines: Vec<u32>,
    /// The rows' cells one after the other, `roles.len()` to a row, aligned
    /// to `roles`; `None` where a row has no cell. One buffer for the table,
    /// not one per row.
    pub cells: Vec<Option<&'a str>>,
}

impl<'a> Table<'a> {
    /// (original line, cells) of each row.
    pub fn rows(&self) -> impl Iterator<Item = (u32, &[Option<&'a str>])> {
        // Every table has a column; the guard only keeps `chunks_exact` whole.
        let width = self.roles.len().max(1);
        self.lines
            .iter()
            .copied()
            .zip(self.cells.chunks_exact(width))
    }
}

/// Names a block gives to everything the table itself does not name; built
/// once per block and shared by its rows.
#[derive(Debug, Clone, Default)]
pub struct BlockNames {
    /// Benchmark of rows that do not name their own.
    pub benchmark: SmolStr,
    /// Variant of values whose column or row names none.
    pub variant: SmolStr,
}
