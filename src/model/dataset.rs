//! The tidy table of observations and its exports.

use super::{Head, Observation, Row};
use column::{Kept, View};

mod column;

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
/// once, as one [`Head`]. Line numbers and run indices are kept per series
/// as a rule while its rows follow one (the same line, runs counting up:
/// see `dataset/column.rs`), so that a sample of a harness is its 8-byte value
/// alone, instead of an [`Observation`]'s 176: two inputs of ten million
/// samples each fit in a few hundred megabytes. Analysis walks the table
/// series by series ([`Dataset::series`]); anything else sees [`Row`]s. The
/// polars frame is built once, from columnar buffers, when the table is
/// exported.
#[derive(Debug, Clone, Default)]
pub struct Dataset {
    /// One head per series, in order.
    heads: Vec<Head>,
    /// Where each series ends in the row columns (exclusive).
    ends: Vec<usize>,
    /// How each series keeps its lines and its runs.
    kept: Vec<(Kept, Kept)>,
    values: Vec<f64>,
    /// The lines of the series that keep them per row.
    lines: Vec<u32>,
    /// The runs of the series that keep them per row; `NO_RUN` for a row
    /// without a run index.
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
    lines: View<'a>,
    runs: View<'a>,
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

    /// Line number of the `i`th row (0 when unknown).
    pub fn line(&self, i: usize) -> u32 {
        self.lines.get(i)
    }

    /// The line numbers of the rows, in order.
    pub fn lines(self) -> impl ExactSizeIterator<Item = u32> + Clone + 'a {
        (0..self.len()).map(move |i| self.lines.get(i))
    }

    /// Run index of the `i`th row.
    pub fn run(&self, i: usize) -> Option<u32> {
        Some(self.runs.get(i)).filter(|&r| r != NO_RUN)
    }

    /// The `i`th row.
    pub fn row(&self, i: usize) -> Row<'a> {
        Row {
            head: self.head,
            line: self.line(i),
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
        // Whether some row breaks its series' rule for lines or runs: the
        // rows then keep them per row, and room is made for all at once.
        let (mut lines_per_row, mut runs_per_row) = (false, false);
        let mut prev: Option<&Observation> = None;
        for o in &rows {
            let continues = match prev {
                Some(p) => Head::same_names(p, o),
                None => self.heads.last().is_some_and(|h| h.fits(o)),
            };
            if let Some(p) = prev.filter(|_| continues) {
                lines_per_row |= p.line != o.line;
                runs_per_row |= p.run.map(|r| r.wrapping_add(1)) != o.run;
            }
            series += usize::from(!continues);
            prev = Some(o);
        }
        let n = rows.len();
        if self.is_empty() {
            self.heads.reserve_exact(series);
            self.ends.reserve_exact(series);
            self.kept.reserve_exact(series);
            self.values.reserve_exact(n);
            if lines_per_row {
                self.lines.reserve_exact(n);
            }
            if runs_per_row {
                self.runs.reserve_exact(n);
            }
        } else {
            // Appending batch after batch: exact room each time would copy
            // the whole table at every batch.
            self.heads.reserve(series);
            self.ends.reserve(series);
            self.kept.reserve(series);
            self.values.reserve(n);
            if lines_per_row {
                self.lines.reserve(n);
            }
            if runs_per_row {
                self.runs.reserve(n);
            }
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
            self.start_series(Head::from(o), line, run);
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
        self.open_series(template, first_run);
        self.values.reserve(values.len());
        for (i, &v) in values.iter().enumerate() {
            self.push_fields(template.line, v, first_run.map(|r| r + i as u32));
        }
    }

    /// [`Dataset::push_values`] of values the dataset takes over: into an
    /// empty dataset they become its value column as they are, without a
    /// copy (a reader's ten million samples, parsed into a vector with
    /// room for the few rows it adds after them).
    pub fn push_values_vec(
        &mut self,
        template: &Observation,
        values: Vec<f64>,
        first_run: Option<u32>,
    ) {
        if !self.values.is_empty() || values.is_empty() {
            return self.push_values(template, &values, first_run);
        }
        self.open_series(template, first_run);
        let n = values.len();
        self.values = values;
        let (lines, runs) = self.kept.last_mut().expect("a series was just opened");
        for i in 0..n {
            lines.push(&mut self.lines, i, template.line);
            runs.push(
                &mut self.runs,
                i,
                first_run.map_or(NO_RUN, |r| r + i as u32),
            );
        }
        self.ends[0] = n;
    }

    /// Starts a series for rows of `template`'s names unless the last
    /// series has them.
    fn open_series(&mut self, template: &Observation, first_run: Option<u32>) {
        if !self.heads.last().is_some_and(|h| h.fits(template)) {
            self.start_series(Head::of(template), template.line, first_run);
        }
    }

    /// Appends a row of this or another dataset.
    pub fn push_row(&mut self, r: &Row) {
        if !self.heads.last().is_some_and(|h| h == r.head) {
            self.start_series(r.head.clone(), r.line, r.run);
        }
        self.push_fields(r.line, r.value, r.run);
    }

    /// Opens a series whose first row has `line` and `run`: both kept as a
    /// rule (one line; runs counting up from `run`) until a row breaks it.
    fn start_series(&mut self, head: Head, line: u32, run: Option<u32>) {
        self.heads.push(head);
        self.ends.push(self.values.len());
        let runs = run.map_or(Kept::Same(NO_RUN), Kept::Counting);
        self.kept.push((Kept::Same(line), runs));
    }

    fn push_fields(&mut self, line: u32, value: f64, run: Option<u32>) {
        let start = self.series_start(self.heads.len() - 1);
        let i = self.values.len() - start;
        let (lines, runs) = self.kept.last_mut().expect("rows belong to a series");
        lines.push(&mut self.lines, i, line);
        runs.push(&mut self.runs, i, run.unwrap_or(NO_RUN));
        self.values.push(value);
        if let Some(end) = self.ends.last_mut() {
            *end = self.values.len();
        }
    }

    /// Index of the first row of the `i`th series.
    fn series_start(&self, i: usize) -> usize {
        if i == 0 {
            0
        } else {
            self.ends[i - 1]
        }
    }

    /// Room for `rows` rows in all, reserved exactly when more is needed;
    /// in the line and run columns only once some series keeps them per
    /// row (most follow a rule and need none).
    pub fn reserve_total(&mut self, rows: usize) {
        if rows > self.values.capacity() {
            let more = rows - self.values.len();
            self.values.reserve_exact(more);
            if !self.lines.is_empty() {
                self.lines.reserve_exact(more);
            }
            if !self.runs.is_empty() {
                self.runs.reserve_exact(more);
            }
        }
    }

    /// Appends all rows of `other`.
    pub fn extend(&mut self, other: impl IntoIterator<Item = Observation>) {
        let other = other.into_iter();
        self.values.reserve(other.size_hint().0);
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
        let (line_base, run_base) = (self.lines.len(), self.runs.len());
        self.values.extend_from_slice(&other.values);
        self.lines.extend_from_slice(&other.lines);
        self.runs.extend_from_slice(&other.runs);
        self.heads.extend(other.heads);
        self.ends.extend(other.ends.iter().map(|e| e + base));
        self.kept.extend(
            other
                .kept
                .iter()
                .map(|&(l, r)| (l.shifted(line_base), r.shifted(run_base))),
        );
    }

    /// The number of series ([`Dataset::series`]).
    pub fn series_count(&self) -> usize {
        self.heads.len()
    }

    /// The `i`th series.
    pub fn series_at(&self, i: usize) -> Series<'_> {
        let first = self.series_start(i);
        let end = self.ends[i];
        let (lines, runs) = self.kept[i];
        Series {
            head: &self.heads[i],
            first,
            values: &self.values[first..end],
            lines: lines.view(&self.lines, end - first),
            runs: runs.view(&self.runs, end - first),
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
        // Entries it kept per row, if any, are left unused.
        self.kept[i].1 = Kept::Counting(first);
    }

    /// Adds `offset` to the run index of every row of the `i`th series
    /// that has one.
    pub fn offset_runs(&mut self, i: usize, offset: u32) {
        let len = self.ends[i] - self.series_start(i);
        match &mut self.kept[i].1 {
            Kept::Counting(first) => *first += offset,
            Kept::Same(run) if *run != NO_RUN => *run += offset,
            Kept::Same(_) => {}
            Kept::At(at) => {
                for run in &mut self.runs[*at..*at + len] {
                    if *run != NO_RUN {
                        *run += offset;
                    }
                }
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

    /// Samples whose lines and runs follow a rule (one line, runs
    /// counting up), taken over as a vector or pushed one by one, read
    /// back through rows, series and observations and write the same CSV
    /// and Parquet as rows whose lines and runs are kept per row.
    #[test]
    fn series_kept_as_a_rule_read_and_write_as_rows() {
        let tpl = Observation::sample("hf", "time", "s", 0.0).with_variant("base");
        let values: Vec<f64> = (0..1000).map(|i| f64::from(i) / 8.0).collect();
        let mut taken = Dataset::default();
        taken.push_values_vec(&tpl, values.clone(), Some(0));
        taken.push(Observation::new("hf", "time", "s", Stat::Mean, 2.0));
        taken.push_values_vec(&tpl.clone().at_line(7), vec![1.5, 2.5], None);
        let mut rows: Vec<Observation> = values
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                let mut o = tpl.clone().with_run(i as u32);
                o.value = v;
                o
            })
            .collect();
        rows.push(Observation::new("hf", "time", "s", Stat::Mean, 2.0));
        for v in [1.5, 2.5] {
            let mut o = tpl.clone().at_line(7);
            o.value = v;
            rows.push(o);
        }
        assert_eq!(taken.to_observations(), rows);
        assert_eq!(taken, Dataset::new(rows.clone()));
        let s = taken.series_at(0);
        assert_eq!((s.len(), s.line(999), s.run(999)), (1000, 0, Some(999)));
        assert!(s.lines().all(|l| l == 0));
        let s = taken.series_at(2);
        assert_eq!((s.first, s.line(1), s.run(1)), (1001, 7, None));
        // The same rows with every line and run kept per row: a row
        // that breaks each rule first.
        let mut each = Dataset::default();
        let mut breaker = tpl.clone().at_line(1);
        breaker.run = None;
        each.push(breaker.clone());
        each.extend(rows.iter().cloned());
        let mut rule = Dataset::default();
        rule.push(breaker);
        rule.append(taken.clone());
        assert_eq!(each, rule);
        let dir = tempfile::tempdir().unwrap();
        for ext in ["csv", "parquet"] {
            let (a, b) = (
                dir.path().join(format!("a.{ext}")),
                dir.path().join(format!("b.{ext}")),
            );
            each.write_path(&a).unwrap();
            rule.write_path(&b).unwrap();
            assert_eq!(
                std::fs::read(&a).unwrap(),
                std::fs::read(&b).unwrap(),
                "{ext}"
            );
        }
        let csv = std::fs::read_to_string(dir.path().join("b.csv")).unwrap();
        assert_eq!(
            csv.lines().nth(2).unwrap(),
            "\"\",0,hf,\"\",base,time,s,sample,0.0,0"
        );
        assert_eq!(
            csv.lines().nth(1001).unwrap(),
            "\"\",0,hf,\"\",base,time,s,sample,124.875,999"
        );
    }

    /// Rows that keep their lines or runs per row get room for all of
    /// them at once; rows that follow the rules get none.
    #[test]
    fn room_is_made_only_for_columns_kept_per_row() {
        let rows = |line: fn(u32) -> u32| -> Vec<Observation> {
            (0..100)
                .map(|i| {
                    Observation::sample("b", "m", "s", 1.0)
                        .at_line(line(i))
                        .with_run(i)
                })
                .collect()
        };
        let ruled = Dataset::new(rows(|_| 0));
        assert_eq!((ruled.lines.capacity(), ruled.runs.capacity()), (0, 0));
        let mut each = Dataset::new(rows(|i| i + 1));
        assert!(each.lines.capacity() >= 100 && each.runs.capacity() == 0);
        each.reserve_total(1000);
        assert!(each.values.capacity() >= 1000 && each.lines.capacity() >= 1000);
        assert_eq!(each.runs.capacity(), 0);
    }

    /// Run numbering and offsets apply to series kept as a rule and per
    /// row alike, rows without a run keep none.
    #[test]
    fn runs_are_renumbered_and_offset_whatever_their_keeping() {
        let tpl = Observation::sample("b", "m", "s", 0.0);
        let mut d = Dataset::default();
        d.push_values(&tpl, &[1.0, 2.0], Some(4));
        d.push(Observation::new("b", "m", "s", Stat::Mean, 1.5));
        d.push(tpl.clone().with_run(0));
        d.push(tpl.clone());
        d.push(tpl.clone().with_run(9));
        d.offset_runs(0, 10);
        d.offset_runs(1, 10);
        d.offset_runs(2, 1);
        let runs: Vec<Option<u32>> = d.rows().map(|r| r.run).collect();
        assert_eq!(runs, [Some(14), Some(15), None, Some(1), None, Some(10)]);
        d.number_series(2, 3);
        d.number_series(0, 0);
        let runs: Vec<Option<u32>> = d.rows().map(|r| r.run).collect();
        assert_eq!(runs, [Some(0), Some(1), None, Some(3), Some(4), Some(5)]);
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
