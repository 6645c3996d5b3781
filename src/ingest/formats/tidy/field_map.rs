//! The `--map column=field` mapping from an input table's columns to the
//! tidy fields, which the tidy CSV, JSON and Parquet readers share.

use crate::error::{Error, Result};
use crate::model::COLUMNS;

/// Where an input column goes: a tidy column, one param, or a value column
/// with its own metric (for wide tables such as `benchmark,real,user,sys`).
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// One of [`COLUMNS`].
    Column(&'static str),
    /// `params.<key>`: the cell becomes `key=cell` in params.
    Param(String),
    /// `value.<metric>[:<unit>]`: the cell is a value of that metric.
    Value(String, Option<String>),
}

/// The `--map column=field` mapping from input columns to tidy fields.
/// Columns named like a tidy column map to it without being listed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FieldMap {
    entries: Vec<(String, Target)>,
}

impl FieldMap {
    /// Parses `column=field` specs; field is a tidy column name,
    /// `params.KEY` or `value.METRIC` (`value.METRIC:UNIT` with its unit).
    pub fn parse(specs: &[String]) -> Result<FieldMap> {
        let mut entries = Vec::new();
        for spec in specs.iter().flat_map(|s| s.split(',')) {
            let spec = spec.trim();
            if spec.is_empty() {
                continue;
            }
            let Some((col, field)) = spec.split_once('=') else {
                return Err(Error::Usage(format!(
                    "--map `{spec}`: expected COLUMN=FIELD"
                )));
            };
            let field = field.trim();
            let target = if let Some(k) = field
                .strip_prefix("params.")
                .or_else(|| field.strip_prefix("param."))
            {
                Target::Param(k.to_string())
            } else if let Some(m) = field.strip_prefix("value.") {
                match m.split_once(':') {
                    Some((m, u)) => Target::Value(m.to_string(), Some(u.to_string())),
                    None => Target::Value(m.to_string(), None),
                }
            } else if let Some(c) = COLUMNS.iter().find(|c| **c == field) {
                Target::Column(c)
            } else {
                return Err(Error::Usage(format!(
                    "--map `{spec}`: unknown field `{field}` (use one of {}, params.KEY or value.METRIC[:UNIT])",
                    COLUMNS.join(", ")
                )));
            };
            entries.push((col.trim().to_string(), target));
        }
        Ok(FieldMap { entries })
    }

    /// True when no mapping was given.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The target of an input column: its mapping, or the tidy column of
    /// the same name.
    pub(crate) fn target(&self, column: &str) -> Option<Target> {
        let c = column.trim();
        if let Some((_, t)) = self.entries.iter().find(|(k, _)| k == c) {
            return Some(t.clone());
        }
        COLUMNS.iter().find(|k| **k == c).map(|k| Target::Column(k))
    }

    /// True when every mapped input column is among `columns`.
    pub(crate) fn all_present(&self, columns: &[String]) -> bool {
        self.entries
            .iter()
            .all(|(k, _)| columns.iter().any(|c| c.trim() == k))
    }

    /// True when `columns` (after mapping) give at least a benchmark and a value.
    pub(crate) fn usable(&self, columns: &[String]) -> bool {
        let targets: Vec<Target> = columns.iter().filter_map(|c| self.target(c)).collect();
        let has_value = targets
            .iter()
            .any(|t| matches!(t, Target::Column("value") | Target::Value(..)));
        has_value && targets.contains(&Target::Column("benchmark"))
    }
}
