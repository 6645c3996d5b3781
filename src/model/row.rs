//! The names a run of rows shares ([`Head`]) and a row of the stored table
//! seen through them ([`Row`]).
//!
//! A harness's samples of one command differ only in value, line and run:
//! the table keeps their names once per run of such rows, and a row is a
//! view of those names with its own three fields.

use super::{text_eq, Direction, Observation, SmolStr, Stat};
use std::ops::Deref;

/// Everything of a row but its value, line and run: the columns that rows
/// of one series share.
#[derive(Debug, Clone, PartialEq)]
pub struct Head {
    /// Input file path as given.
    pub source: SmolStr,
    /// What was measured (the benchmark or test).
    pub benchmark: SmolStr,
    /// Its parameters, `key=value` pairs joined by commas.
    pub params: SmolStr,
    /// The build or setup the value belongs to (baseline, patched …).
    pub variant: SmolStr,
    /// Which quantity the value is.
    pub metric: SmolStr,
    /// The unit, as written (normalised spelling).
    pub unit: SmolStr,
    /// What the value is: a sample or a stated statistic.
    pub stat: Stat,
    /// Which way is better, when the input or the metric says.
    pub direction: Option<Direction>,
}

impl From<Observation> for Head {
    fn from(o: Observation) -> Head {
        Head {
            source: o.source,
            benchmark: o.benchmark,
            params: o.params,
            variant: o.variant,
            metric: o.metric,
            unit: o.unit,
            stat: o.stat,
            direction: o.direction,
        }
    }
}

impl Head {
    /// The head of `o` (its names are shared, not copied).
    pub fn of(o: &Observation) -> Head {
        Head {
            source: o.source.clone(),
            benchmark: o.benchmark.clone(),
            params: o.params.clone(),
            variant: o.variant.clone(),
            metric: o.metric.clone(),
            unit: o.unit.clone(),
            stat: o.stat,
            direction: o.direction,
        }
    }

    /// Whether two rows have one head.
    pub fn same_names(a: &Observation, o: &Observation) -> bool {
        a.head_of() == o.head_of()
    }

    /// Whether `o` has exactly these names, stat and direction.
    pub fn fits(&self, o: &Observation) -> bool {
        self.names() == o.head_of()
    }

    /// The names, borrowed.
    pub fn names(&self) -> HeadRef<'_> {
        HeadRef {
            source: &self.source,
            benchmark: &self.benchmark,
            params: &self.params,
            variant: &self.variant,
            metric: &self.metric,
            unit: &self.unit,
            stat: self.stat,
            direction: self.direction,
        }
    }
}

/// One row of a [`Dataset`](super::Dataset): its head's names (through
/// `Deref`, so `row.metric` reads as on an [`Observation`]) and its own
/// value, line and run.
#[derive(Debug, Clone, Copy)]
pub struct Row<'a> {
    /// The names it shares with the rows of its series.
    pub head: &'a Head,
    /// 1-based line of the value in its input; 0 when not line-based.
    pub line: u32,
    /// The value.
    pub value: f64,
    /// The run or repetition it belongs to, when the input numbers them.
    pub run: Option<u32>,
}

impl Deref for Row<'_> {
    type Target = Head;

    fn deref(&self) -> &Head {
        self.head
    }
}

impl PartialEq for Row<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.line == other.line
            && self.value == other.value
            && self.run == other.run
            && self.head == other.head
    }
}

impl PartialEq<Observation> for Row<'_> {
    fn eq(&self, o: &Observation) -> bool {
        self.line == o.line && self.value == o.value && self.run == o.run && self.head.fits(o)
    }
}

impl Row<'_> {
    /// The row as an owned [`Observation`].
    pub fn to_observation(&self) -> Observation {
        let h = self.head;
        Observation {
            source: h.source.clone(),
            line: self.line,
            benchmark: h.benchmark.clone(),
            params: h.params.clone(),
            variant: h.variant.clone(),
            metric: h.metric.clone(),
            unit: h.unit.clone(),
            stat: h.stat,
            value: self.value,
            run: self.run,
            direction: h.direction,
        }
    }
}

/// What the table writers read of a row, whichever way it is stored (an
/// [`Observation`], or a [`Row`] of a [`Dataset`](super::Dataset)): the
/// names borrow from where the row lives.
pub trait RowFields<'a>: Copy {
    /// The row's names (source, benchmark, params, variant, metric, unit, stat).
    fn head_of(self) -> HeadRef<'a>;
    /// The line of its file the value was read from (0 if not line-based).
    fn line(self) -> u32;
    /// The value.
    fn value(self) -> f64;
    /// The run or repetition it belongs to, when the input numbers them.
    fn run(self) -> Option<u32>;
}

/// A row's names and stat, borrowed.
#[derive(Debug, Clone, Copy)]
pub struct HeadRef<'a> {
    /// Input file path as given.
    pub source: &'a str,
    /// What was measured (the benchmark or test).
    pub benchmark: &'a str,
    /// Its parameters, `key=value` pairs joined by commas.
    pub params: &'a str,
    /// The build or setup the value belongs to (baseline, patched …).
    pub variant: &'a str,
    /// Which quantity the value is.
    pub metric: &'a str,
    /// The unit, as written (normalised spelling).
    pub unit: &'a str,
    /// What the value is: a sample or a stated statistic.
    pub stat: Stat,
    /// Which way is better, when the input or the metric says.
    pub direction: Option<Direction>,
}

impl PartialEq for HeadRef<'_> {
    /// The column most likely to differ between neighbours is compared
    /// first.
    fn eq(&self, o: &Self) -> bool {
        self.stat == o.stat
            && text_eq(self.metric, o.metric)
            && text_eq(self.benchmark, o.benchmark)
            && text_eq(self.params, o.params)
            && text_eq(self.variant, o.variant)
            && text_eq(self.unit, o.unit)
            && text_eq(self.source, o.source)
            && self.direction == o.direction
    }
}

impl<'a> RowFields<'a> for &'a Observation {
    fn head_of(self) -> HeadRef<'a> {
        HeadRef {
            source: &self.source,
            benchmark: &self.benchmark,
            params: &self.params,
            variant: &self.variant,
            metric: &self.metric,
            unit: &self.unit,
            stat: self.stat,
            direction: self.direction,
        }
    }
    fn line(self) -> u32 {
        self.line
    }
    fn value(self) -> f64 {
        self.value
    }
    fn run(self) -> Option<u32> {
        self.run
    }
}

impl<'a> RowFields<'a> for Row<'a> {
    fn head_of(self) -> HeadRef<'a> {
        self.head.names()
    }
    fn line(self) -> u32 {
        self.line
    }
    fn value(self) -> f64 {
        self.value
    }
    fn run(self) -> Option<u32> {
        self.run
    }
}
