//! The tidy table of observations and its exports.

use super::Observation;

/// Column names of the tidy table, in order. `ingest --out` writes exactly these.
pub const COLUMNS: [&str; 10] = [
    "source",
    "line",
    "benchmark",
    "params",
    "variant",
    "metric",
    "unit",
    "stat",
    "value",
    "run",
];

/// A set of observations from any number of inputs.
///
/// The rows are kept as plain structs because analysis walks them group by group
/// in Rust (the groups are small and independent); the polars frame is built
/// once, from columnar buffers, when the table is exported or handed to a
/// polars consumer.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Dataset {
    rows: Vec<Observation>,
}

impl Dataset {
    /// Wraps a vector of observations.
    pub fn new(rows: Vec<Observation>) -> Self {
        Dataset { rows }
    }

    /// The rows, in input order.
    pub fn rows(&self) -> &[Observation] {
        &self.rows
    }

    /// Mutable access, for renaming variants or filtering in place.
    pub fn rows_mut(&mut self) -> &mut Vec<Observation> {
        &mut self.rows
    }

    /// Consumes the dataset, returning its rows.
    pub fn into_rows(self) -> Vec<Observation> {
        self.rows
    }

    /// Appends all rows of `other`.
    pub fn extend(&mut self, other: impl IntoIterator<Item = Observation>) {
        self.rows.extend(other);
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// True when there are no rows.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Distinct variant names in order of first appearance.
    pub fn variants(&self) -> Vec<String> {
        let mut seen: Vec<String> = Vec::new();
        // Rows come in runs of one variant: the previous row's is checked
        // first.
        let mut last = usize::MAX;
        for r in &self.rows {
            if seen
                .get(last)
                .is_some_and(|v| super::text_eq(v, &r.variant))
            {
                continue;
            }
            last = match seen.iter().position(|v| super::text_eq(v, &r.variant)) {
                Some(i) => i,
                None => {
                    seen.push(r.variant.to_string());
                    seen.len() - 1
                }
            };
        }
        seen
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Stat;

    fn sample() -> Dataset {
        Dataset::new(vec![
            Observation::sample("hackbench", "time", "s", 2.5)
                .with_variant("baseline")
                .at_line(3)
                .with_run(0),
            Observation::new("hackbench", "time", "s", Stat::Mean, 2.4).with_variant("patched"),
        ])
    }

    #[test]
    fn csv_has_the_tidy_header_and_rows() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.csv");
        sample().write_path(&path).unwrap();
        let text = std::fs::read_to_string(path).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next().unwrap(), COLUMNS.join(","));
        assert_eq!(
            lines.next().unwrap(),
            "\"\",3,hackbench,\"\",baseline,time,s,sample,2.5,0"
        );
        assert_eq!(
            lines.next().unwrap(),
            "\"\",0,hackbench,\"\",patched,time,s,mean,2.4,"
        );
    }

    #[test]
    fn writes_each_format_by_extension() {
        let dir = tempfile::tempdir().unwrap();
        for ext in ["csv", "json", "parquet"] {
            let p = dir.path().join(format!("t.{ext}"));
            sample().write_path(&p).unwrap();
            assert!(std::fs::metadata(&p).unwrap().len() > 10, "{ext}");
        }
        let bytes = std::fs::read(dir.path().join("t.parquet")).unwrap();
        assert_eq!(&bytes[..4], b"PAR1");
        let json = std::fs::read_to_string(dir.path().join("t.json")).unwrap();
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v[0]["benchmark"], "hackbench");
        assert!(sample().write_path(&dir.path().join("t.xlsx")).is_err());
    }

    #[test]
    fn variants_are_listed_once_in_order_of_first_appearance() {
        let rows = ["patched", "patched", "base", "patched", "", "base", "other"]
            .iter()
            .map(|v| Observation::sample("b", "m", "s", 1.0).with_variant(*v))
            .collect();
        let names = Dataset::new(rows).variants();
        assert_eq!(names, ["patched", "base", "", "other"]);
        assert!(Dataset::new(Vec::new()).variants().is_empty());
    }
}
