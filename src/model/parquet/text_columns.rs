//! The text and stat columns of a row group built as Parquet dictionaries
//! as the rows are pushed: a cell equal to the one above costs one
//! comparison, a new one a short scan or a hash lookup.

use crate::model::{text_eq, Stat};
use hashbrown::HashMap;
use polars::prelude::PolarsError;
use polars_arrow::array::{
    Array, DictionaryArray, MutableBinaryViewArray, PrimitiveArray, Utf8ViewArray,
};
use polars_arrow::datatypes::{ArrowDataType, IntegerType};

/// A text column being built as a dictionary: distinct values in order of
/// first appearance and one key per row (the order polars' own cast gives,
/// so the file is the same bytes polars would write).
#[derive(Default)]
pub(super) struct Dictionary<'a> {
    keys: Keys,
    values: MutableBinaryViewArray<str>,
    /// The distinct values so far, borrowed from the rows. Most columns
    /// hold a handful per batch: those are found by a short scan; a hash
    /// index is built only past it.
    seen: Vec<&'a str>,
    index: HashMap<&'a str, u32>,
    /// The previous cell and its key: most cells repeat the one above.
    last: Option<(&'a str, u32)>,
}

/// Distinct values found by scanning `seen` before a hash index is built.
const SCAN: usize = 8;

impl<'a> Dictionary<'a> {
    // Always inlined: six calls per row, most of them settled by one
    // comparison, cost more in the call than in the work.
    #[inline(always)]
    pub(super) fn push(&mut self, text: &'a str) {
        match self.last {
            Some((above, _)) if text_eq(text, above) => self.keys.repeat(),
            _ => self.push_other(text),
        }
    }

    /// A cell unlike the one above it.
    #[inline(never)]
    fn push_other(&mut self, text: &'a str) {
        let found = if self.seen.len() <= SCAN {
            self.seen
                .iter()
                .position(|s| text_eq(s, text))
                .map(|k| k as u32)
        } else {
            self.index.get(text).copied()
        };
        let key = found.unwrap_or_else(|| self.insert(text));
        self.last = Some((text, key));
        self.keys.push(key);
    }

    fn insert(&mut self, text: &'a str) -> u32 {
        let key = self.seen.len() as u32;
        self.seen.push(text);
        self.values.push_value(text);
        if self.seen.len() > SCAN {
            if self.index.is_empty() {
                let all = self.seen.iter().enumerate();
                self.index.extend(all.map(|(k, s)| (*s, k as u32)));
            } else {
                self.index.insert(text, key);
            }
        }
        key
    }

    pub(super) fn finish(self) -> std::result::Result<Box<dyn Array>, PolarsError> {
        dictionary_array(self.keys.expand(), self.values.into())
    }
}

/// The keys of a dictionary column as runs of one key: a column's cells
/// repeat the one above in long runs (a benchmark's million samples share
/// its names), and a key per row is made only when the column is encoded.
#[derive(Default)]
struct Keys {
    runs: Vec<(u32, u32)>,
    rows: usize,
}

impl Keys {
    pub(super) fn push(&mut self, key: u32) {
        self.rows += 1;
        match self.runs.last_mut() {
            Some((k, count)) if *k == key && *count < u32::MAX => *count += 1,
            _ => self.runs.push((key, 1)),
        }
    }

    /// The key of the row above, once more.
    #[inline(always)]
    fn repeat(&mut self) {
        match self.runs.last_mut() {
            Some((_, count)) if *count < u32::MAX => {
                self.rows += 1;
                *count += 1;
            }
            _ => self.push(self.runs.last().map_or(0, |r| r.0)),
        }
    }

    /// One key per row.
    fn expand(self) -> Vec<u32> {
        let mut keys = Vec::with_capacity(self.rows);
        for (key, count) in self.runs {
            keys.extend(std::iter::repeat_n(key, count as usize));
        }
        keys
    }
}

/// A dictionary column from its keys and distinct values.
fn dictionary_array(
    keys: Vec<u32>,
    values: Utf8ViewArray,
) -> std::result::Result<Box<dyn Array>, PolarsError> {
    let dtype = ArrowDataType::Dictionary(
        IntegerType::UInt32,
        Box::new(ArrowDataType::Utf8View),
        false,
    );
    let keys = PrimitiveArray::from_vec(keys);
    let array = DictionaryArray::<u32>::try_new(dtype, keys, values.boxed())?;
    Ok(Box::new(array))
}

/// A text column as a dictionary.
#[cfg(test)]
pub(super) fn dictionary<'a, T: 'a>(
    rows: &'a [T],
    cell: impl Fn(&'a T) -> &'a str,
) -> std::result::Result<Box<dyn Array>, PolarsError> {
    let mut d = Dictionary::default();
    for row in rows {
        d.push(cell(row));
    }
    d.finish()
}

/// The stat column, built as a dictionary of [`Stat`] values whose names
/// are written once each at the end (a stat's name is unique to it, so the
/// dictionary is the one its names would give).
#[derive(Default)]
pub(super) struct StatColumn {
    keys: Keys,
    seen: Vec<Stat>,
    last: Option<(Stat, u32)>,
}

impl StatColumn {
    #[inline]
    pub(super) fn push(&mut self, stat: Stat) {
        let key = match self.last {
            Some((above, k)) if above == stat => k,
            _ => {
                let k = match self.seen.iter().position(|s| *s == stat) {
                    Some(k) => k as u32,
                    None => {
                        self.seen.push(stat);
                        self.seen.len() as u32 - 1
                    }
                };
                self.last = Some((stat, k));
                k
            }
        };
        self.keys.push(key);
    }

    pub(super) fn finish(self) -> std::result::Result<Box<dyn Array>, PolarsError> {
        let mut values = MutableBinaryViewArray::<str>::new();
        for stat in &self.seen {
            values.push_value(stat.to_string());
        }
        let values: Utf8ViewArray = values.into();
        dictionary_array(self.keys.expand(), values)
    }
}
