//! What a Google Benchmark row's name says it is, for the readers whose
//! rows carry only the name (CSV and console).
//!
//! The library names a summary of a benchmark's repetitions
//! `<run name>_<statistic>`: the built-in `mean`, `median`, `stddev` and
//! `cv`, then any statistic the benchmark registered itself
//! (`ComputeStatistics("max", …)` gives `BM_x/8_max`), printed one after
//! the other right after the repetitions of that run. With
//! `--benchmark_report_aggregates_only` or `…display_aggregates_only` the
//! repetitions are not printed at all, so a summary cannot be told by an
//! earlier row of its run: a name is a summary when its run was seen, when
//! its suffix is a built-in statistic, or when it follows a summary of the
//! same run (a registered statistic, whatever its name).

use std::collections::HashSet;

/// The statistics the library always computes over repetitions.
const BUILT_IN: &[&str] = &["mean", "median", "stddev", "cv"];

/// One row's name, read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind<'a> {
    /// A repetition (or the only run) of `name`.
    Run,
    /// The statistic `stat` over the repetitions of `base`.
    Aggregate { base: &'a str, stat: &'a str },
    /// The complexity fit of a family (`BM_x_BigO`).
    BigO(&'a str),
    /// The fit's normalised root mean square error (`BM_x_RMS`).
    Rms(&'a str),
}

/// Reads the names of one table in order (see the module documentation).
#[derive(Debug, Default)]
pub(crate) struct Names {
    runs: HashSet<String>,
    /// The run whose summaries the previous row began or continued.
    summarising: Option<String>,
}

impl Names {
    pub(crate) fn classify<'a>(&mut self, name: &'a str) -> Kind<'a> {
        if let Some((base, suffix)) = name.rsplit_once('_') {
            match suffix {
                "BigO" => return Kind::BigO(base),
                "RMS" => return Kind::Rms(base),
                _ => {}
            }
            let plain = !base.is_empty()
                && !suffix.is_empty()
                && suffix
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '.');
            let summary = plain
                && (self.runs.contains(base)
                    || BUILT_IN.contains(&suffix)
                    || self.summarising.as_deref() == Some(base));
            if summary {
                self.summarising = Some(base.to_string());
                return Kind::Aggregate { base, stat: suffix };
            }
        }
        self.summarising = None;
        self.runs.insert(name.to_string());
        Kind::Run
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_without_their_repetitions_are_told_by_their_suffix() {
        let mut n = Names::default();
        let agg = |base, stat| Kind::Aggregate { base, stat };
        assert_eq!(n.classify("BM_Concat/16_mean"), agg("BM_Concat/16", "mean"));
        assert_eq!(n.classify("BM_Concat/16_cv"), agg("BM_Concat/16", "cv"));
        // A registered statistic right after the built-in ones.
        assert_eq!(n.classify("BM_Concat/16_max"), agg("BM_Concat/16", "max"));
        // A name of its own with an underscore is a run.
        assert_eq!(n.classify("BM_Sort_fast"), Kind::Run);
        assert_eq!(n.classify("BM_Sort_fast"), Kind::Run);
        assert_eq!(n.classify("BM_Sort_fast_p90"), agg("BM_Sort_fast", "p90"));
        assert_eq!(n.classify("BM_Sort_BigO"), Kind::BigO("BM_Sort"));
        assert_eq!(n.classify("BM_x/threads:2"), Kind::Run);
    }
}
