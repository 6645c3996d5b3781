//! The tidy table of observations and its exports.

use super::{Head, Observation, Row};

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

/// A set of observations from any number of inputs, in input order.
///
/// Rows are stored by column, and the names of a run of neighbouring rows
/// that share them all (a harness's samples of one command) are stored
/// once, as one [`Head`]: 16 bytes a sample instead of an [`Observation`]'s
/// 176, so that two inputs of ten million samples each fit in a few
/// hundred megabytes. Analysis walks the table series by series
/// ([`Dataset::series`]); anything else sees [`Row`]s. The polars frame is
/// built once, from columnar buffers, when the table is exported.
#[derive(Debug, Clone, Default)]
pub struct Dataset {
    /// One head per series, in order.
    heads: Vec<Head>,
    /// Where each series ends in the row columns (exclusive).
    ends: Vec<usize>,
    values: Vec<f64>,
    lines: Vec<u32>,
    /// `NO_RUN` for a row without a run index.
    runs: Vec<u32>,
}

/// The stored form of a missing run index (no input has four billion
/// samples of one key: the run counter is a `u32` too).
const NO_RUN: u32 = u32::MAX;

/// Neighbouring rows of one [`Dataset`] with the same [`Head`].
#[derive(Debug, Clone, Copy)]
pub struct Series<'a> {
    pub head: &'a Head,
    /// Index of the first row in the dataset.
    pub first: usize,
    pub values: &'a [f64],
    pub lines: &'a [u32],
    runs: &'a [u32],
}

impl<'a> Series<'a> {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Never true for a series of a dataset; here for the `len` lint.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Run index of the `i`th row.
    pub fn run(&self, i: usize) -> Option<u32> {
        Some(self.runs[i]).filter(|&r| r != NO_RUN)
    }

    /// The `i`th row.
    pub fn row(&self, i: usize) -> Row<'a> {
        Row {
            head: self.head,
            line: self.lines[i],
            value: self.values[i],
            run: self.run(i),
        }
    }

    /// The rows in order.
    pub fn rows(self) -> impl ExactSizeIterator<Item = Row<'a>> + Clone {
        (0..self.len()).map(move |i| self.row(i))
    }
}

impl Dataset {
    /// The table of `rows`, in their order.
    pub fn new(rows: Vec<Observation>) -> Self {
        let mut d = Dataset::default();
        d.extend_from_vec(rows);
        d
    }

    /// Appends `rows`, with room made for their series first: a table
    /// whose names change from row to row (a Go line's three metrics) has
    /// as many heads as rows, and growing that vector by doubling held
    /// twice its size at each step.
    pub fn extend_from_vec(&mut self, rows: Vec<Observation>) {
        let mut series = 0;
        let mut prev: Option<&Observation> = None;
        for o in &rows {
            let continues = match prev {
                Some(p) => Head::same_names(p, o),
                None => self.heads.last().is_some_and(|h| h.fits(o)),
            };
            series += usize::from(!continues);
            prev = Some(o);
        }
        if self.is_empty() {
            self.heads.reserve_exact(series);
            self.ends.reserve_exact(series);
            self.reserve_exact(rows.len());
        } else {
            // Appending batch after batch: exact room each time would copy
            // the whole table at every batch.
            self.heads.reserve(series);
            self.ends.reserve(series);
            self.reserve(rows.len());
        }
        for o in rows {
            self.push(o);
        }
    }

    /// Appends one row.
    pub fn push(&mut self, o: Observation) {
        let (line, value, run) = (o.line, o.value, o.run);
        if !self.heads.last().is_some_and(|h| h.fits(&o)) {
            // The names move into the head: no reference count touched.
            self.start_series(Head::from(o));
        }
        self.push_fields(line, value, run);
    }

    /// Appends one row per value, each `template` with that value and,
    /// from `first_run` on, consecutive run indices (none without it): a
    /// harness's samples of one command, with no observation made per
    /// value.
    pub fn push_values(&mut self, template: &Observation, values: &[f64], first_run: Option<u32>) {
        if values.is_empty() {
            return;
        }
        if !self.heads.last().is_some_and(|h| h.fits(template)) {
            self.start_series(Head::of(template));
        }
        self.reserve(values.len());
        for (i, &v) in values.iter().enumerate() {
            self.push_fields(template.line, v, first_run.map(|r| r + i as u32));
        }
    }

    /// Appends a row of this or another dataset.
    pub fn push_row(&mut self, r: &Row) {
        if !self.heads.last().is_some_and(|h| h == r.head) {
            self.start_series(r.head.clone());
        }
        self.push_fields(r.line, r.value, r.run);
    }

    fn start_series(&mut self, head: Head) {
        self.heads.push(head);
        self.ends.push(self.values.len());
    }

    fn push_fields(&mut self, line: u32, value: f64, run: Option<u32>) {
        self.values.push(value);
        self.lines.push(line);
        self.runs.push(run.unwrap_or(NO_RUN));
        if let Some(end) = self.ends.last_mut() {
            *end = self.values.len();
        }
    }

    fn reserve_exact(&mut self, more: usize) {
        self.values.reserve_exact(more);
        self.lines.reserve_exact(more);
        self.runs.reserve_exact(more);
    }

    fn reserve(&mut self, more: usize) {
        self.values.reserve(more);
        self.lines.reserve(more);
        self.runs.reserve(more);
    }

    /// Room for `rows` rows in all, reserved exactly when more is needed.
    pub fn reserve_total(&mut self, rows: usize) {
        if rows > self.values.capacity() {
            let more = rows - self.values.len();
            self.values.reserve_exact(more);
            self.lines.reserve_exact(more);
            self.runs.reserve_exact(more);
        }
    }

    /// Appends all rows of `other`.
    pub fn extend(&mut self, other: impl IntoIterator<Item = Observation>) {
        let other = other.into_iter();
        self.reserve(other.size_hint().0);
        for o in other {
            self.push(o);
        }
    }

    /// Appends all rows of another dataset. Into an empty one they are
    /// taken over, not copied.
    pub fn append(&mut self, other: Dataset) {
        if self.is_empty() {
            *self = other;
            return;
        }
        let base = self.values.len();
        self.values.extend_from_slice(&other.values);
        self.lines.extend_from_slice(&other.lines);
        self.runs.extend_from_slice(&other.runs);
        self.heads.extend(other.heads);
        self.ends.extend(other.ends.iter().map(|e| e + base));
    }

    /// The number of series ([`Dataset::series`]).
    pub fn series_count(&self) -> usize {
        self.heads.len()
    }

    /// The `i`th series.
    pub fn series_at(&self, i: usize) -> Series<'_> {
        let first = if i == 0 { 0 } else { self.ends[i - 1] };
        let end = self.ends[i];
        Series {
            head: &self.heads[i],
            first,
            values: &self.values[first..end],
            lines: &self.lines[first..end],
            runs: &self.runs[first..end],
        }
    }

    /// The runs of neighbouring rows with the same names, in order.
    pub fn series(&self) -> impl ExactSizeIterator<Item = Series<'_>> + Clone {
        (0..self.heads.len()).map(move |i| self.series_at(i))
    }

    /// The rows, in input order.
    pub fn rows(&self) -> impl Iterator<Item = Row<'_>> + Clone {
        self.series().flat_map(Series::rows)
    }

    /// Numbers the rows of the `i`th series `first`, `first + 1`, ….
    pub fn number_series(&mut self, i: usize, first: u32) {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        for (k, run) in self.runs[start..self.ends[i]].iter_mut().enumerate() {
            *run = first + k as u32;
        }
    }

    /// Adds `offset` to the run index of every row of the `i`th series
    /// that has one.
    pub fn offset_runs(&mut self, i: usize, offset: u32) {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        for run in &mut self.runs[start..self.ends[i]] {
            if *run != NO_RUN {
                *run += offset;
            }
        }
    }

    /// Every head, for changes that apply to whole series (a unit filled
    /// in, a variant renamed).
    pub fn heads_mut(&mut self) -> impl Iterator<Item = &mut Head> {
        self.heads.iter_mut()
    }

    /// The rows as owned observations.
    pub fn to_observations(&self) -> Vec<Observation> {
        self.rows().map(|r| r.to_observation()).collect()
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True when there are no rows.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Distinct variant names in order of first appearance.
    pub fn variants(&self) -> Vec<String> {
        let mut seen: Vec<String> = Vec::new();
        // Rows come in runs of one variant: the previous row's is checked
        // first.
        let mut last = usize::MAX;
        for h in &self.heads {
            if seen
                .get(last)
                .is_some_and(|v| super::text_eq(v, &h.variant))
            {
                continue;
            }
            last = match seen.iter().position(|v| super::text_eq(v, &h.variant)) {
                Some(i) => i,
                None => {
                    seen.push(h.variant.to_string());
                    seen.len() - 1
                }
            };
        }
        seen
    }
}

impl PartialEq for Dataset {
    /// The same rows in the same order, however they are stored.
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.rows().eq(other.rows())
    }
}

impl FromIterator<Observation> for Dataset {
    fn from_iter<I: IntoIterator<Item = Observation>>(iter: I) -> Self {
        let mut d = Dataset::default();
        d.extend(iter);
        d
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

    #[test]
    fn neighbours_with_one_head_share_it_and_every_row_comes_back() {
        let mut d = Dataset::default();
        let tpl = Observation::sample("hf", "time", "s", 0.0).with_variant("base");
        d.push_values(&tpl, &[1.0, 2.0, 3.0], Some(0));
        d.push(tpl.clone().with_run(3));
        d.push(Observation::new("hf", "time", "s", Stat::Mean, 2.0).with_variant("base"));
        d.push_values(&tpl, &[9.0], None);
        assert_eq!(d.len(), 6);
        assert_eq!(
            d.series_count(),
            3,
            "samples, the mean, the sample after it"
        );
        let runs: Vec<Option<u32>> = d.rows().map(|r| r.run).collect();
        assert_eq!(runs, [Some(0), Some(1), Some(2), Some(3), None, None]);
        d.number_series(0, 10);
        d.offset_runs(2, 5);
        let runs: Vec<Option<u32>> = d.rows().map(|r| r.run).collect();
        assert_eq!(runs, [Some(10), Some(11), Some(12), Some(13), None, None]);
        let mut e = Dataset::new(d.to_observations());
        assert_eq!(e, d);
        e.append(d.clone());
        assert_eq!(e.len(), 12);
        assert_eq!(e.to_observations()[6..], d.to_observations()[..]);
        assert_eq!(e.series_at(3).first, 6);
    }

    proptest::proptest! {
        /// Whatever rows go in come out, in order, and no two
        /// neighbouring series have one head.
        #[test]
        fn rows_round_trip_through_the_columns(
            picks in proptest::collection::vec((0u8..3, 0u8..3, proptest::option::of(0u32..5)), 0..60)
        ) {
            let rows: Vec<Observation> = picks
                .iter()
                .enumerate()
                .map(|(i, &(b, m, run))| {
                    let mut o = Observation::sample(format!("b{b}"), format!("m{m}"), "s", i as f64)
                        .at_line(i as u32);
                    o.run = run;
                    o
                })
                .collect();
            let d = Dataset::new(rows.clone());
            proptest::prop_assert_eq!(d.to_observations(), rows.clone());
            let heads: Vec<&Head> = d.series().map(|s| s.head).collect();
            proptest::prop_assert!(heads.windows(2).all(|w| w[0] != w[1]));
            let mut halves = Dataset::new(rows[..rows.len() / 2].to_vec());
            halves.append(Dataset::new(rows[rows.len() / 2..].to_vec()));
            proptest::prop_assert_eq!(halves, d);
        }
    }
}
