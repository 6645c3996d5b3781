//! The tidy table of observations and its exports.

use super::{Head, Observation, Row};
use column::View;
use part::Part;

mod column;
mod part;

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
    /// The columns, one block per large input appended (`dataset/part.rs`):
    /// appending one never copies the rows before it.
    parts: Vec<Part>,
    /// Series and rows before each part.
    bases: Vec<(usize, usize)>,
}

/// Rows of an appended dataset below which they are copied into the last
/// part rather than kept as a part of their own: a copy that small costs
/// less than one more part to look series up in.
const OWN_PART_ROWS: usize = 1 << 16;

/// The stored form of a missing run index (no input has four billion
/// samples of one key: the run counter is a `u32` too).
const NO_RUN: u32 = u32::MAX;

/// Neighbouring rows of one [`Dataset`] with the same [`Head`].
#[derive(Debug, Clone, Copy)]
pub struct Series<'a> {
    /// The names every row of the series shares.
    pub head: &'a Head,
    /// Index of the first row in the dataset.
    pub first: usize,
    /// The rows' values, in order.
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

    /// The part rows are added to: the last one, made if there is none.
    fn last_part(&mut self) -> &mut Part {
        if self.parts.is_empty() {
            self.parts.push(Part::default());
            self.bases.push((0, 0));
        }
        self.parts.last_mut().expect("a part was just made")
    }

    /// Appends `rows`, with room made for their series first: a table
    /// whose names change from row to row (a Go line's three metrics) has
    /// as many heads as rows, and growing that vector by doubling held
    /// twice its size at each step.
    pub fn extend_from_vec(&mut self, rows: Vec<Observation>) {
        self.last_part().extend_from_vec(rows);
    }

    /// Appends one row.
    pub fn push(&mut self, o: Observation) {
        self.last_part().push(o);
    }

    /// Appends one row per value, each `template` with that value and,
    /// from `first_run` on, consecutive run indices (none without it): a
    /// harness's samples of one command, with no observation made per
    /// value.
    pub fn push_values(&mut self, template: &Observation, values: &[f64], first_run: Option<u32>) {
        self.last_part().push_values(template, values, first_run);
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
        self.last_part()
            .push_values_vec(template, values, first_run);
    }

    /// Appends a row of this or another dataset.
    pub fn push_row(&mut self, r: &Row) {
        self.last_part().push_row(r);
    }

    /// Room for `rows` rows in all, reserved exactly when more is needed;
    /// in the line and run columns only once some series keeps them per
    /// row (most follow a rule and need none).
    pub fn reserve_total(&mut self, rows: usize) {
        let before = self.bases.last().map_or(0, |b| b.1);
        self.last_part().reserve_total(rows.saturating_sub(before));
    }

    /// Appends all rows of `other`.
    pub fn extend(&mut self, other: impl IntoIterator<Item = Observation>) {
        let other = other.into_iter();
        let part = self.last_part();
        part.values.reserve(other.size_hint().0);
        for o in other {
            part.push(o);
        }
    }

    /// Appends all rows of another dataset. Into an empty one they are
    /// taken over, not copied; a large one's parts are kept as they are,
    /// so that its rows and these are never held twice while a vector
    /// grows for both (the second side of a comparison of ten million
    /// samples a side held 345 MB while it was appended).
    pub fn append(&mut self, other: Dataset) {
        if self.is_empty() {
            *self = other;
            return;
        }
        for part in other.parts {
            if part.values.len() < OWN_PART_ROWS {
                self.last_part().append(part);
            } else {
                self.bases.push((self.series_count(), self.len()));
                self.parts.push(part);
            }
        }
    }

    /// The part holding the `i`th series, and the series' index in it.
    fn locate(&self, i: usize) -> (usize, usize) {
        let p = if self.parts.len() == 1 {
            0
        } else {
            self.bases.partition_point(|b| b.0 <= i) - 1
        };
        (p, i - self.bases[p].0)
    }

    /// The number of series ([`Dataset::series`]).
    pub fn series_count(&self) -> usize {
        match (self.parts.last(), self.bases.last()) {
            (Some(p), Some(b)) => b.0 + p.heads.len(),
            _ => 0,
        }
    }

    /// The `i`th series.
    pub fn series_at(&self, i: usize) -> Series<'_> {
        let (p, local) = self.locate(i);
        self.parts[p].series_at(local, self.bases[p].1)
    }

    /// The values of each of `series` (indices of distinct series), the
    /// dataset given up for them. The series with the most rows of a part,
    /// if at least half of them, takes the part's value column over, its
    /// values moved to the front, instead of a copy: ten million samples
    /// of a side are then never held in the rows and in a copy at once.
    /// The other series are copied out before it.
    pub fn into_series_values(self, series: &[usize]) -> Vec<Vec<f64>> {
        let at: Vec<(usize, std::ops::Range<usize>)> = series
            .iter()
            .map(|&si| {
                let (p, local) = self.locate(si);
                (p, self.parts[p].series_rows(local))
            })
            .collect();
        // Per part, the series that takes its column, if any.
        let mut owner: Vec<Option<usize>> = vec![None; self.parts.len()];
        for (k, (p, rows)) in at.iter().enumerate() {
            let rows_of_part = self.parts[*p].values.len();
            let larger = owner[*p].is_none_or(|o| at[o].1.len() < rows.len());
            if 2 * rows.len() >= rows_of_part && larger {
                owner[*p] = Some(k);
            }
        }
        let columns: Vec<Vec<f64>> = self.parts.into_iter().map(Part::into_values).collect();
        let mut out: Vec<Vec<f64>> = at
            .iter()
            .enumerate()
            .map(|(k, (p, rows))| {
                if owner[*p] == Some(k) {
                    Vec::new()
                } else {
                    columns[*p][rows.clone()].to_vec()
                }
            })
            .collect();
        for (p, column) in columns.into_iter().enumerate() {
            let Some(k) = owner[p] else { continue };
            let rows = at[k].1.clone();
            let mut values = column;
            values.copy_within(rows.clone(), 0);
            values.truncate(rows.len());
            // Room of a column grown batch by batch, much beyond the
            // series, is given back.
            if values.capacity() > values.len() + values.len() / 4 {
                values.shrink_to_fit();
            }
            out[k] = values;
        }
        out
    }

    /// The runs of neighbouring rows with the same names, in order.
    pub fn series(&self) -> impl ExactSizeIterator<Item = Series<'_>> + Clone {
        (0..self.series_count()).map(move |i| self.series_at(i))
    }

    /// The rows, in input order.
    pub fn rows(&self) -> impl Iterator<Item = Row<'_>> + Clone {
        self.series().flat_map(Series::rows)
    }

    /// Numbers the rows of the `i`th series `first`, `first + 1`, ….
    pub fn number_series(&mut self, i: usize, first: u32) {
        let (p, local) = self.locate(i);
        self.parts[p].number_series(local, first);
    }

    /// Adds `offset` to the run index of every row of the `i`th series
    /// that has one.
    pub fn offset_runs(&mut self, i: usize, offset: u32) {
        let (p, local) = self.locate(i);
        self.parts[p].offset_runs(local, offset);
    }

    /// Every head, for changes that apply to whole series (a unit filled
    /// in, a variant renamed).
    pub fn heads_mut(&mut self) -> impl Iterator<Item = &mut Head> {
        self.parts.iter_mut().flat_map(|p| p.heads.iter_mut())
    }

    /// The rows as owned observations.
    pub fn to_observations(&self) -> Vec<Observation> {
        self.rows().map(|r| r.to_observation()).collect()
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        match (self.parts.last(), self.bases.last()) {
            (Some(p), Some(b)) => b.1 + p.values.len(),
            _ => 0,
        }
    }

    /// True when there are no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Distinct variant names in order of first appearance.
    pub fn variants(&self) -> Vec<String> {
        let mut seen: Vec<String> = Vec::new();
        // Rows come in runs of one variant: the previous row's is checked
        // first.
        let mut last = usize::MAX;
        for h in self.parts.iter().flat_map(|p| &p.heads) {
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

    /// A large dataset appended is kept as a part of its own, its values
    /// not copied; a small one is copied into the last part. Either way
    /// the rows, series, run changes and variants are those of one table.
    #[test]
    fn large_appends_keep_their_columns_and_read_as_one_table() {
        let side = |variant: &str, x: f64| {
            let tpl = Observation::sample("hf", "time", "s", 0.0).with_variant(variant);
            let mut d = Dataset::default();
            d.push_values_vec(&tpl, vec![x; OWN_PART_ROWS], Some(0));
            d.push(Observation::new("hf", "time", "s", Stat::Mean, x).with_variant(variant));
            d
        };
        let (a, b) = (side("base", 1.0), side("new", 2.0));
        let small = Dataset::new(vec![Observation::sample("other", "time", "s", 3.0)
            .with_variant("new")
            .at_line(4)
            .with_run(0)]);
        let mut rows = a.to_observations();
        rows.extend(b.to_observations());
        rows.extend(small.to_observations());
        let b_values = b.parts[0].values.as_ptr();
        let mut d = a;
        d.append(b);
        d.append(small);
        assert_eq!(
            d.parts.len(),
            2,
            "the second side is a part, the small one merged"
        );
        assert_eq!(d.parts[1].values.as_ptr(), b_values, "not copied");
        assert_eq!(d.len(), rows.len());
        assert_eq!(d.to_observations(), rows);
        assert_eq!(d, Dataset::new(rows.clone()));
        assert_eq!(d.series_count(), 5);
        let s = d.series_at(2);
        assert_eq!(
            (s.first, s.len(), s.values[0]),
            (OWN_PART_ROWS + 1, OWN_PART_ROWS, 2.0)
        );
        assert_eq!(d.series_at(4).first, 2 * OWN_PART_ROWS + 2);
        assert_eq!(d.variants(), ["base", "new"]);
        d.offset_runs(2, 10);
        d.number_series(4, 7);
        assert_eq!(d.series_at(2).run(1), Some(11));
        assert_eq!(d.series_at(4).run(0), Some(7));
        assert_eq!(d.series_at(0).run(1), Some(1), "the first part unchanged");
        assert_eq!(d.heads_mut().count(), 5);
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
        let (_, lines, runs) = ruled.parts[0].capacities();
        assert_eq!((lines, runs), (0, 0));
        let mut each = Dataset::new(rows(|i| i + 1));
        let (_, lines, runs) = each.parts[0].capacities();
        assert!(lines >= 100 && runs == 0);
        each.reserve_total(1000);
        let (values, lines, runs) = each.parts[0].capacities();
        assert!(values >= 1000 && lines >= 1000);
        assert_eq!(runs, 0);
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
