//! Rows as ingest hands them on: those a reader stored by column, then
//! those it made one by one.

use super::{Dataset, Observation};

/// One or more inputs' rows in input order: `columns` first, then `rows`.
///
/// Readers of huge sample arrays store them by column; the others make an
/// [`Observation`] per value, and a row-wise batch is written out as it is,
/// without the cost of storing it by column first. Only a table that is
/// kept (for analysis) is made a [`Dataset`] whole.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Batch {
    /// The rows readers stored by column.
    pub columns: Dataset,
    /// The rows readers made one by one, after those of `columns`.
    pub rows: Vec<Observation>,
}

impl Batch {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.columns.len() + self.rows.len()
    }

    /// True when there are no rows.
    pub fn is_empty(&self) -> bool {
        self.columns.is_empty() && self.rows.is_empty()
    }

    /// Appends `other`'s rows after these, keeping their order.
    pub fn append(&mut self, other: Batch) {
        if other.columns.is_empty() {
            self.rows.extend(other.rows);
            return;
        }
        let rows = std::mem::take(&mut self.rows);
        self.columns.extend_from_vec(rows);
        self.columns.append(other.columns);
        self.rows = other.rows;
    }

    /// The rows as one table stored by column.
    pub fn into_dataset(self) -> Dataset {
        let mut all = self.columns;
        all.extend_from_vec(self.rows);
        all
    }

    /// The rows as observations.
    pub fn into_observations(self) -> Vec<Observation> {
        if self.columns.is_empty() {
            return self.rows;
        }
        let mut all = self.columns.to_observations();
        all.extend(self.rows);
        all
    }
}

impl From<Vec<Observation>> for Batch {
    fn from(rows: Vec<Observation>) -> Self {
        Batch {
            columns: Dataset::default(),
            rows,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appending_keeps_input_order_whichever_part_rows_are_in() {
        let obs = |v: f64| Observation::sample("b", "m", "s", v);
        let mut a = Batch::from(vec![obs(1.0)]);
        a.append(Batch {
            columns: Dataset::new(vec![obs(2.0), obs(3.0)]),
            rows: vec![obs(4.0)],
        });
        a.append(Batch::from(vec![obs(5.0)]));
        assert_eq!(a.len(), 5);
        let values: Vec<f64> = a
            .clone()
            .into_observations()
            .iter()
            .map(|o| o.value)
            .collect();
        assert_eq!(values, [1.0, 2.0, 3.0, 4.0, 5.0]);
        let values: Vec<f64> = a.into_dataset().rows().map(|r| r.value).collect();
        assert_eq!(values, [1.0, 2.0, 3.0, 4.0, 5.0]);
    }
}
