//! Splits a dataset into benchmark groups (benchmark, params, metric) with
//! one entry per variant, every value converted to the group's unit.

use crate::error::{Error, Result};
use crate::model::{Dataset, Direction, Head, Stat, Unit};
use rayon::prelude::*;
use std::collections::HashMap;

mod buckets;
pub(crate) use buckets::{buckets, RowKey};

/// The values of one variant within one group, before any statistics.
#[derive(Debug, Clone, Default)]
pub(crate) struct RawVariant {
    pub name: String,
    /// Samples in run order, converted to the group unit.
    pub samples: Vec<f64>,
    /// The series of the dataset whose values are the samples, while they
    /// are left in the rows for [`settle`] to move here (empty `samples`
    /// meanwhile); `None` once they are here.
    pub in_rows: Option<usize>,
    /// Stated summaries (last one wins when a value is stated twice).
    pub mean: Option<f64>,
    pub median: Option<f64>,
    pub stddev: Option<f64>,
    pub stderr: Option<f64>,
    pub n: Option<f64>,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub cv_pct: Option<f64>,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    pub change_pct: Option<f64>,
    /// Where the variant's values came from, for messages.
    pub source: String,
    pub line: u32,
    /// The same variant one input file at a time, when several files fed
    /// it and one of them states summaries: each file's stated figures
    /// describe its own runs (two hyperfine invocations per side), so they
    /// are checked against those runs, not the pooled ones. A file that
    /// states a summary again (a shell loop's log of two invocations) is
    /// a part per statement: its samples are those read after the part
    /// before stated its figures, as tools print a run's samples above its
    /// summary. Empty otherwise; parts have no parts of their own.
    pub parts: Vec<RawVariant>,
}

/// Writes [`RawVariant::state`], [`RawVariant::stated`] and
/// [`RawVariant::keeps`] from one list
/// of which stat lands in which field, so the three can never disagree. The
/// stats kept nowhere are listed too, so that a new [`Stat`] does not
/// compile until it is placed.
macro_rules! stated_fields {
    (ignored: $ignored:pat, $($stat:pat => $field:ident,)*) => {
        /// Records a stated summary (the last of a stat wins); samples and
        /// stats analysis does not use are ignored.
        fn state(&mut self, stat: Stat, value: f64) {
            match stat {
                $($stat => self.$field = Some(value),)*
                $ignored => {}
            }
        }

        /// The stated value of `stat`, if any (a stat
        /// [`RawVariant::state`] keeps nothing of: none).
        fn stated(&self, stat: Stat) -> Option<f64> {
            match stat {
                $($stat => self.$field,)*
                $ignored => None,
            }
        }

        /// Whether [`RawVariant::state`] keeps a figure of `stat`.
        fn keeps(stat: Stat) -> bool {
            matches!(stat, $($stat)|*)
        }
    };
}

impl RawVariant {
    stated_fields! {
        ignored: Stat::Sample | Stat::Percentile(_) | Stat::Total,
        Stat::Mean => mean,
        Stat::Median | Stat::Percentile(50_000) => median,
        Stat::Stddev => stddev,
        Stat::Stderr => stderr,
        Stat::N => n,
        Stat::Min => min,
        Stat::Max => max,
        Stat::Cv => cv_pct,
        Stat::CiLow => ci_low,
        Stat::CiHigh => ci_high,
        Stat::ChangePct => change_pct,
    }

    /// A part of the same variant and file as this one, from `line` on.
    fn next_part(&self, line: u32) -> RawVariant {
        RawVariant {
            name: self.name.clone(),
            source: self.source.clone(),
            line,
            ..Default::default()
        }
    }

    /// True when any figure [`RawVariant::state`] keeps was stated.
    fn has_any_stated(&self) -> bool {
        self.has_stated()
            || [
                self.n,
                self.min,
                self.max,
                self.cv_pct,
                self.ci_low,
                self.ci_high,
                self.change_pct,
            ]
            .iter()
            .any(Option::is_some)
    }

    /// True when anything at all was stated besides samples.
    pub fn has_stated(&self) -> bool {
        self.mean.is_some()
            || self.median.is_some()
            || self.stddev.is_some()
            || self.stderr.is_some()
    }
}

/// One (benchmark, params, metric) group.
#[derive(Debug, Clone)]
pub(crate) struct RawGroup {
    pub benchmark: String,
    pub params: String,
    pub metric: String,
    pub unit: String,
    pub direction: Direction,
    /// Variants in order of first appearance in the dataset.
    pub variants: Vec<RawVariant>,
    /// Values written without a unit that were taken to be in `unit`
    /// (e-mails often state the unit once, in a summary table): count and
    /// the first place.
    pub unit_assumed: Option<(usize, String, u32)>,
}

impl RawGroup {
    /// The unit as evidence writes it after a number: ` ms`, or nothing.
    pub fn unit_suffix(&self) -> String {
        if self.unit.is_empty() {
            String::new()
        } else {
            format!(" {}", self.unit)
        }
    }
}

type Key = (String, String, String);

/// Rows (or series) from which groups are built in parallel.
const PARALLEL_ROWS: usize = 50_000;

/// The groups of `buckets` (a window of [`buckets`]). The group's unit is
/// the baseline's (or, without a baseline row, the first row's); every
/// other value is converted to it, and a value whose unit cannot be
/// converted is an input error naming its file and line (the first in
/// group order).
///
/// With `take` (a caller that gives the dataset up after these groups),
/// a variant's samples that are one series of at least [`TAKE_ROWS`]
/// rows, in run order and in the group's unit, are left in the rows
/// ([`RawVariant::in_rows`]) for [`settle`] to move out without a copy.
pub(crate) fn build_groups(
    data: &Dataset,
    buckets: &[(RowKey<'_>, Vec<u32>)],
    baseline: &str,
    directions: &std::collections::BTreeMap<String, Direction>,
    take: bool,
) -> Result<Vec<RawGroup>> {
    let build_one = |(key, series): &(RowKey, Vec<u32>)| {
        let owned = (key.0.to_string(), key.1.to_string(), key.2.to_string());
        build(owned, data, series, baseline, directions, take)
    };
    // A small dataset is built on this thread: waking the pool costs more
    // than the work.
    if data.len() < PARALLEL_ROWS {
        return buckets.iter().map(build_one).collect();
    }
    let built: Vec<Result<RawGroup>> = buckets.par_iter().map(build_one).collect();
    built.into_iter().collect()
}

/// Groups `data` in order of first appearance: [`build_groups`] of all
/// its [`buckets`] at once (a history's points, which its analysis holds
/// together anyway).
pub(crate) fn group(
    data: &Dataset,
    baseline: &str,
    directions: &std::collections::BTreeMap<String, Direction>,
) -> Result<Vec<RawGroup>> {
    build_groups(data, &buckets(data), baseline, directions, false)
}

/// Samples of one series below this many are copied out of the rows
/// while the groups are built, not left there for [`settle`]: a copy that
/// small costs little, and one left behind keeps its whole part.
pub(crate) const TAKE_ROWS: usize = 1 << 16;

/// Moves the samples [`build_groups`] left in the rows into `groups`,
/// `data` given up for them: a side of ten million samples becomes its
/// group's samples in the memory that held it as rows, instead of being
/// copied while the rows are still alive.
pub(crate) fn settle(groups: &mut [RawGroup], data: Dataset) {
    let mut series = Vec::new();
    let mut at = Vec::new();
    for (gi, g) in groups.iter().enumerate() {
        for (vi, v) in g.variants.iter().enumerate() {
            if let Some(si) = v.in_rows {
                series.push(si);
                at.push((gi, vi));
            }
        }
    }
    for ((gi, vi), values) in at.into_iter().zip(data.into_series_values(&series)) {
        let v = &mut groups[gi].variants[vi];
        v.samples = values;
        v.in_rows = None;
    }
}

/// Stats whose value carries no unit (counts and percentages of something).
fn unitless(stat: Stat) -> bool {
    matches!(stat, Stat::N | Stat::Cv | Stat::ChangePct)
}

/// A series' rows converted to the group's unit.
enum Conversion {
    /// Already in it, or a count or percentage.
    Same,
    /// Written without a unit: taken to be in it.
    Assumed,
    /// In another unit of the same kind.
    From(Unit),
}

fn build(
    key: Key,
    data: &Dataset,
    series: &[u32],
    baseline: &str,
    directions: &std::collections::BTreeMap<String, Direction>,
    take: bool,
) -> Result<RawGroup> {
    let (benchmark, params, metric) = key;
    let all = || series.iter().map(|&i| data.series_at(i as usize));
    let stated = |h: &&Head| !unitless(h.stat) && !h.unit.is_empty();
    let unit_head = all()
        .map(|s| s.head)
        .filter(stated)
        .find(|h| h.variant == baseline)
        .or_else(|| all().map(|s| s.head).find(stated));
    let unit_str = unit_head.map(|h| h.unit.to_string()).unwrap_or_default();
    let unit = Unit::parse(&unit_str);
    let mut variants: Vec<RawVariant> = Vec::new();
    let mut unit_assumed: Option<(usize, String, u32)> = None;
    // Samples in row order with the input part (file) each came from;
    // sorted by run at the end.
    let mut runs: Vec<Samples> = Vec::new();
    // Per variant: one summary-only RawVariant per input file, in order.
    let mut parts: Vec<Vec<RawVariant>> = Vec::new();
    // A history has hundreds of variants (points): beyond a few, their
    // index is looked up by name instead of by a scan.
    let mut variant_index: hashbrown::HashMap<&str, usize> = hashbrown::HashMap::new();
    let restated = restated(all());
    // Per variant, its series of samples: one alone can stay in the rows.
    let mut sample_series: hashbrown::HashMap<&str, usize> = hashbrown::HashMap::new();
    if take {
        for s in all().filter(|s| s.head.stat == Stat::Sample) {
            *sample_series.entry(s.head.variant.as_str()).or_default() += 1;
        }
    }
    for (&si, s) in series.iter().zip(all()) {
        let h = s.head;
        let found = if variants.len() <= 8 {
            variants.iter().position(|v| v.name == h.variant)
        } else {
            variant_index.get(h.variant.as_str()).copied()
        };
        let vi = match found {
            Some(vi) => vi,
            None => {
                variant_index.insert(h.variant.as_str(), variants.len());
                variants.push(RawVariant {
                    name: h.variant.to_string(),
                    source: h.source.to_string(),
                    line: s.line(0),
                    ..Default::default()
                });
                runs.push(Samples::default());
                parts.push(Vec::new());
                variants.len() - 1
            }
        };
        // Rows of one file come together: the last part is nearly always it.
        let vparts = &mut parts[vi];
        let mut pi = match vparts.iter().rposition(|p| p.source == h.source) {
            Some(pi) => pi,
            None => {
                vparts.push(RawVariant {
                    name: h.variant.to_string(),
                    source: h.source.to_string(),
                    line: s.line(0),
                    ..Default::default()
                });
                vparts.len() - 1
            }
        };
        // In a file that states a summary again, samples after a stated
        // summary are the next run's.
        if h.stat == Stat::Sample
            && vparts[pi].has_any_stated()
            && restated.contains(&(h.variant.as_str(), h.source.as_str()))
        {
            let next = vparts[pi].next_part(s.line(0));
            vparts.push(next);
            pi = vparts.len() - 1;
        }
        let conversion = if unitless(h.stat) || h.unit == unit_str {
            Conversion::Same
        } else if h.unit.is_empty() {
            let e = unit_assumed.get_or_insert((0, h.source.to_string(), s.line(0)));
            e.0 += s.len();
            Conversion::Assumed
        } else {
            Conversion::From(Unit::parse(&h.unit))
        };
        if h.stat == Stat::Sample
            && take
            && s.len() >= TAKE_ROWS
            && matches!(conversion, Conversion::Same | Conversion::Assumed)
            && sample_series.get(h.variant.as_str()) == Some(&1)
        {
            runs[vi].leave(si as usize, s, pi as u32);
            continue;
        }
        if h.stat == Stat::Sample {
            runs[vi].values.reserve(s.len());
        }
        for i in 0..s.len() {
            let o = s.row(i);
            let value =
                match &conversion {
                    Conversion::Same | Conversion::Assumed => o.value,
                    Conversion::From(from) => from.convert(o.value, &unit).ok_or_else(|| {
                        Error::input(
                            &h.source,
                            (o.line > 0).then_some(o.line),
                            format!(
                        "{} {} ({}): unit `{}` of variant `{}` cannot be converted to `{}`, \
                         the unit of the other values; values of different kinds are never mixed",
                        benchmark,
                        metric,
                        if params.is_empty() { "no params" } else { params.as_str() },
                        h.unit,
                        h.variant,
                        unit_str
                    ),
                        )
                    })?,
                };
            if let Some(why) = implausible_summary(h.stat, value) {
                return Err(Error::input(
                    &h.source,
                    (o.line > 0).then_some(o.line),
                    format!("{benchmark} {metric} of variant `{}`: {why}", h.variant),
                ));
            }
            if h.stat == Stat::Sample {
                runs[vi].push(o.run.unwrap_or(u32::MAX), pi as u32, value);
            } else {
                variants[vi].state(h.stat, value);
                // A figure its part states already opens the next part.
                if parts[vi][pi].stated(h.stat).is_some()
                    && restated.contains(&(h.variant.as_str(), h.source.as_str()))
                {
                    let next = parts[vi][pi].next_part(o.line);
                    parts[vi].push(next);
                    pi = parts[vi].len() - 1;
                }
                parts[vi][pi].state(h.stat, value);
            }
        }
    }
    for ((v, mut r), mut vparts) in variants.iter_mut().zip(runs).zip(parts) {
        let split = vparts.len() > 1 && vparts.iter().any(|p| p.has_stated() || p.n.is_some());
        if let Some(si) = r.in_rows.filter(|_| r.out_of_order || split) {
            // Samples to reorder or to share out among parts: copied.
            r.values = data.series_at(si).values.to_vec();
            r.in_rows = None;
        }
        if r.out_of_order {
            // The run of each sample, read again from the rows in the
            // order the samples were taken.
            let runs: Vec<u32> = all()
                .filter(|s| s.head.stat == Stat::Sample && s.head.variant == v.name)
                .flat_map(|s| (0..s.len()).map(move |i| s.row(i).run.unwrap_or(u32::MAX)))
                .collect();
            r.sort_by_runs(&runs);
        }
        if split {
            for (pi, x) in r.parts().zip(&r.values) {
                vparts[pi as usize].samples.push(*x);
            }
            v.parts = vparts;
        }
        v.samples = r.values;
        v.in_rows = r.in_rows;
    }
    // What the user says beats what the input says beats a guess from names.
    let stated = all().find_map(|s| s.head.direction);
    let direction = directions
        .get(&metric)
        .copied()
        .or(stated)
        .unwrap_or_else(|| Direction::infer(&metric, &unit_str));
    Ok(RawGroup {
        benchmark,
        params,
        metric,
        unit: unit_str,
        direction,
        variants,
        unit_assumed,
    })
}

/// The samples of one variant of a group as they are taken, row by row:
/// their values, 8 bytes each (a run index and part beside each value made
/// a million-sample side 16 bytes a sample, and its values kept that
/// allocation), the input part each came from as runs of one part, and
/// whether their runs ever count down (hardly ever: a harness numbers
/// its runs in order).
#[derive(Default)]
struct Samples {
    values: Vec<f64>,
    parts: Vec<(u32, u32)>,
    last_run: u32,
    out_of_order: bool,
    /// The series the values were left in ([`Samples::leave`]).
    in_rows: Option<usize>,
}

impl Samples {
    /// Takes note of the samples of series `si`, the variant's only one,
    /// from input part `part`, leaving their values in the rows: their
    /// parts and whether their runs count down, as [`Samples::push`]
    /// would have found.
    fn leave(&mut self, si: usize, s: crate::model::Series<'_>, part: u32) {
        let run = |i: usize| s.run(i).unwrap_or(u32::MAX);
        self.out_of_order |= (1..s.len()).any(|i| run(i) < run(i - 1));
        self.last_run = run(s.len() - 1);
        self.parts.push((part, s.len() as u32));
        self.in_rows = Some(si);
    }

    fn push(&mut self, run: u32, part: u32, value: f64) {
        if run < self.last_run && !self.values.is_empty() {
            self.out_of_order = true;
        }
        self.last_run = run;
        self.values.push(value);
        match self.parts.last_mut() {
            Some((p, count)) if *p == part => *count += 1,
            _ => self.parts.push((part, 1)),
        }
    }

    /// The part of each sample, in order.
    fn parts(&self) -> impl Iterator<Item = u32> + '_ {
        self.parts
            .iter()
            .flat_map(|&(p, count)| std::iter::repeat_n(p, count as usize))
    }

    /// The samples in the order of `runs` (one per sample); stable, so
    /// that samples of one run index keep their row order.
    fn sort_by_runs(&mut self, runs: &[u32]) {
        let mut order: Vec<u32> = (0..self.values.len() as u32).collect();
        order.sort_by_key(|&i| runs[i as usize]);
        let parts: Vec<u32> = self.parts().collect();
        self.values = order.iter().map(|&i| self.values[i as usize]).collect();
        self.parts.clear();
        for &i in &order {
            let part = parts[i as usize];
            match self.parts.last_mut() {
                Some((p, count)) if *p == part => *count += 1,
                _ => self.parts.push((part, 1)),
            }
        }
        self.out_of_order = false;
    }
}

/// Largest count kept exactly in a double: a stated n beyond it is no
/// count of runs.
const MAX_N: f64 = 9_007_199_254_740_992.0;

/// The (variant, file) pairs among `series` that state a figure of one
/// stat more than once: a loop's log of several runs, each with its
/// summary.
fn restated<'a>(
    series: impl Iterator<Item = crate::model::Series<'a>>,
) -> std::collections::HashSet<(&'a str, &'a str)> {
    let mut counts: HashMap<(&str, &str, Stat), usize> = HashMap::new();
    for s in series {
        let h = s.head;
        if RawVariant::keeps(h.stat) {
            *counts
                .entry((h.variant.as_str(), h.source.as_str(), h.stat))
                .or_default() += s.len();
        }
    }
    counts
        .into_iter()
        .filter(|&(_, n)| n > 1)
        .map(|((v, f, _), _)| (v, f))
        .collect()
}

/// Why a stated summary cannot be what it says, if it cannot: n is a whole
/// number of runs, at least 1; a spread is never negative. Such a value
/// used to become "no variance" or a rounded n without a word.
fn implausible_summary(stat: Stat, value: f64) -> Option<String> {
    match stat {
        Stat::N if !(value >= 1.0 && value.fract() == 0.0) => Some(format!(
            "stated n = {value} is not a number of runs (a whole number, at least 1)"
        )),
        Stat::N if value > MAX_N => Some(format!(
            "stated n = {value:e} is beyond any number of runs (at most 2^53)"
        )),
        Stat::Stddev | Stat::Stderr if value < 0.0 => Some(format!(
            "stated {} = {value} is negative; a spread is never below 0",
            stat.name()
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
