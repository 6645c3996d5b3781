//! Building one row of a reader's output by naming its parts, so that a
//! call says which text is the metric and which the unit.

use crate::ingest::Source;
use crate::model::{Observation, Stat};
use smol_str::SmolStr;

/// A row being built at one line of one input; finished by
/// [`Row::sample`] or [`Row::stat`]. Parts not named stay
/// empty (the variant is the ingest caller's to give).
#[derive(Debug, Clone)]
#[must_use = "a row is made by .sample() or .stat()"]
pub(crate) struct Row {
    source: SmolStr,
    line: u32,
    benchmark: SmolStr,
    params: SmolStr,
    metric: SmolStr,
    unit: SmolStr,
}

impl Row {
    /// A row at `line` of `src` (0 when the input has no lines).
    pub(crate) fn at(src: &Source, line: u32) -> Row {
        Row {
            source: src.path.clone(),
            line,
            benchmark: SmolStr::default(),
            params: SmolStr::default(),
            metric: SmolStr::default(),
            unit: SmolStr::default(),
        }
    }

    /// What was run.
    pub(crate) fn benchmark(mut self, benchmark: &str) -> Self {
        self.benchmark = benchmark.into();
        self
    }

    /// Already canonical `k=v,…` parameters.
    pub(crate) fn params(mut self, params: &str) -> Self {
        self.params = params.into();
        self
    }

    /// What was measured.
    pub(crate) fn metric(mut self, metric: &str) -> Self {
        self.metric = metric.into();
        self
    }

    /// The unit as written (its spelling is normalised with the row).
    pub(crate) fn unit(mut self, unit: &str) -> Self {
        self.unit = unit.into();
        self
    }

    /// The row of one measured value.
    pub(crate) fn sample(self, value: f64) -> Observation {
        self.stat(Stat::Sample, value)
    }

    /// The row of a value of `stat`.
    pub(crate) fn stat(self, stat: Stat, value: f64) -> Observation {
        let mut o = Observation::new(self.benchmark, self.metric, &self.unit, stat, value)
            .at_line(self.line);
        o.source = self.source;
        o.params = self.params;
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_parts_land_in_their_columns() {
        let src = Source::from_text("x/fio.txt", "");
        let o = Row::at(&src, 7)
            .benchmark("fio")
            .params("bs=4k")
            .metric("lat")
            .unit("µs")
            .stat(Stat::Mean, 2.5);
        assert_eq!(
            (
                &*o.source,
                o.line,
                &*o.benchmark,
                &*o.params,
                &*o.metric,
                &*o.unit
            ),
            ("x/fio.txt", 7, "fio", "bs=4k", "lat", "us")
        );
        assert_eq!(
            (o.stat, o.value, &*o.variant, o.run),
            (Stat::Mean, 2.5, "", None)
        );
        let s = Row::at(&src, 0).metric("time").sample(1.0);
        assert_eq!((s.stat, &*s.benchmark, &*s.unit), (Stat::Sample, "", ""));
    }
}
