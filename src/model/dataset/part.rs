//! One block of a [`super::Dataset`]'s columns: the rows of one input as
//! it was read, or of several small ones copied together. A dataset of
//! large inputs keeps each as its own part, so that appending one never
//! copies the rows before it (two sides of ten million samples held the
//! first side's values twice while its vector grew for the second's).

use super::column::Kept;
use super::{Series, NO_RUN};
use crate::model::{Head, Observation, Row};

/// Rows stored by column, their names once per series; see
/// [`super::Dataset`].
#[derive(Debug, Clone, Default)]
pub(super) struct Part {
    /// One head per series, in order.
    pub(super) heads: Vec<Head>,
    /// Where each series ends in the row columns (exclusive).
    ends: Vec<usize>,
    /// How each series keeps its lines and its runs.
    kept: Vec<(Kept, Kept)>,
    pub(super) values: Vec<f64>,
    /// The lines of the series that keep them per row.
    lines: Vec<u32>,
    /// The runs of the series that keep them per row; `NO_RUN` for a row
    /// without a run index.
    runs: Vec<u32>,
}

impl Part {
    /// Appends `rows`, with room made for their series first: a table
    /// whose names change from row to row (a Go line's three metrics) has
    /// as many heads as rows, and growing that vector by doubling held
    /// twice its size at each step.
    pub(super) fn extend_from_vec(&mut self, rows: Vec<Observation>) {
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
        if self.values.is_empty() {
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
    pub(super) fn push(&mut self, o: Observation) {
        let (line, value, run) = (o.line, o.value, o.run);
        if !self.heads.last().is_some_and(|h| h.fits(&o)) {
            // The names move into the head: no reference count touched.
            self.start_series(Head::from(o), line, run);
        }
        self.push_fields(line, value, run);
    }

    /// See [`super::Dataset::push_values`].
    pub(super) fn push_values(
        &mut self,
        template: &Observation,
        values: &[f64],
        first_run: Option<u32>,
    ) {
        if values.is_empty() {
            return;
        }
        self.open_series(template, first_run);
        self.values.reserve(values.len());
        for (i, &v) in values.iter().enumerate() {
            self.push_fields(template.line, v, first_run.map(|r| r + i as u32));
        }
    }

    /// See [`super::Dataset::push_values_vec`].
    pub(super) fn push_values_vec(
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
    pub(super) fn push_row(&mut self, r: &Row) {
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

    /// The rows of the `i`th series in this part's columns.
    pub(super) fn series_rows(&self, i: usize) -> std::ops::Range<usize> {
        self.series_start(i)..self.ends[i]
    }

    /// The value column, the rest of the part given up.
    pub(super) fn into_values(self) -> Vec<f64> {
        self.values
    }

    /// Index of the first row of the `i`th series.
    fn series_start(&self, i: usize) -> usize {
        if i == 0 {
            0
        } else {
            self.ends[i - 1]
        }
    }

    /// See [`super::Dataset::reserve_total`], for this part's rows.
    pub(super) fn reserve_total(&mut self, rows: usize) {
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

    /// Copies all rows of `other` after this part's.
    pub(super) fn append(&mut self, other: Part) {
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

    /// The `i`th series, whose first row is row `row_base` of the dataset.
    pub(super) fn series_at(&self, i: usize, row_base: usize) -> Series<'_> {
        let first = self.series_start(i);
        let end = self.ends[i];
        let (lines, runs) = self.kept[i];
        Series {
            head: &self.heads[i],
            first: row_base + first,
            values: &self.values[first..end],
            lines: lines.view(&self.lines, end - first),
            runs: runs.view(&self.runs, end - first),
        }
    }

    /// See [`super::Dataset::number_series`].
    pub(super) fn number_series(&mut self, i: usize, first: u32) {
        // Entries it kept per row, if any, are left unused.
        self.kept[i].1 = Kept::Counting(first);
    }

    /// See [`super::Dataset::offset_runs`].
    pub(super) fn offset_runs(&mut self, i: usize, offset: u32) {
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

    /// Room for the line and run columns, for the tests of their keeping.
    #[cfg(test)]
    pub(super) fn capacities(&self) -> (usize, usize, usize) {
        (
            self.values.capacity(),
            self.lines.capacity(),
            self.runs.capacity(),
        )
    }
}
