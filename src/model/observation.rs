//! One row of the tidy table.

use serde::{Deserialize, Serialize};
use smol_str::SmolStr;
use std::fmt;
use std::str::FromStr;

/// What a value is: a raw sample or a summary statistic stated by the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stat {
    /// One measured value (one run, one repetition, one iteration).
    Sample,
    /// Arithmetic mean.
    Mean,
    /// Median.
    Median,
    /// Standard deviation.
    Stddev,
    /// Standard error of the mean (e.g. perf's `( +- x% )`).
    Stderr,
    /// Smallest value.
    Min,
    /// Largest value.
    Max,
    /// Number of samples behind a summary.
    N,
    /// A percentile, in thousandths (p99.9 = 99_900) so it stays `Eq + Hash`.
    Percentile(u32),
    /// Lower bound of a confidence interval the input states.
    CiLow,
    /// Upper bound of a confidence interval the input states.
    CiHigh,
    /// A change the input itself states, in percent.
    ChangePct,
    /// Coefficient of variation, in percent.
    Cv,
    /// A total or sum (e.g. `sum/s`, total operations).
    Total,
}

impl Stat {
    /// A percentile stat from a value such as `99.9`.
    pub fn percentile(p: f64) -> Stat {
        Stat::Percentile((p * 1000.0).round() as u32)
    }

    /// True for the raw-sample stat.
    pub fn is_sample(self) -> bool {
        self == Stat::Sample
    }

    /// The canonical name; `"percentile"` for every percentile (whose
    /// [`Display`](fmt::Display) form, `p99.9`, says which).
    pub fn name(self) -> &'static str {
        match self {
            Stat::Sample => "sample",
            Stat::Mean => "mean",
            Stat::Median => "median",
            Stat::Stddev => "stddev",
            Stat::Stderr => "stderr",
            Stat::Min => "min",
            Stat::Max => "max",
            Stat::N => "n",
            Stat::CiLow => "ci_low",
            Stat::CiHigh => "ci_high",
            Stat::ChangePct => "change_pct",
            Stat::Cv => "cv",
            Stat::Total => "total",
            Stat::Percentile(_) => "percentile",
        }
    }
}

impl fmt::Display for Stat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stat::Percentile(t) => {
                let whole = t / 1000;
                let frac = t % 1000;
                if frac == 0 {
                    write!(f, "p{whole}")
                } else {
                    let frac = format!("{frac:03}");
                    write!(f, "p{whole}.{}", frac.trim_end_matches('0'))
                }
            }
            other => f.write_str(other.name()),
        }
    }
}

impl FromStr for Stat {
    type Err = String;

    /// Accepts the canonical names and the common spellings found in harness
    /// output (`avg`, `average`, `std`, `stdev`, `std. dev.`, `count`, `p99.9`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let norm: String = s
            .trim()
            .to_ascii_lowercase()
            .chars()
            .filter(|c| !matches!(c, ' ' | '.' | '_' | '-'))
            .collect();
        let stat = match norm.as_str() {
            "sample" | "value" | "samples" => Stat::Sample,
            "mean" | "avg" | "average" | "amean" => Stat::Mean,
            "median" | "med" => Stat::Median,
            "stddev" | "std" | "stdev" | "sd" | "stddeviation" | "standarddeviation" => {
                Stat::Stddev
            }
            "stderr" | "sem" | "se" => Stat::Stderr,
            "min" | "minimum" => Stat::Min,
            "max" | "maximum" => Stat::Max,
            "n" | "count" | "iterations" | "runs" => Stat::N,
            "cilow" | "lower" => Stat::CiLow,
            "cihigh" | "upper" => Stat::CiHigh,
            "changepct" | "change" | "%change" | "delta" => Stat::ChangePct,
            "cv" | "coeffvar" => Stat::Cv,
            "total" | "sum" => Stat::Total,
            _ => {
                let t = s.trim().to_ascii_lowercase();
                let p = t
                    .strip_prefix('p')
                    .or_else(|| t.strip_suffix("th"))
                    .and_then(|p| p.parse::<f64>().ok())
                    .filter(|p| (0.0..=100.0).contains(p));
                match p {
                    Some(p) => Stat::percentile(p),
                    None => return Err(format!("unknown stat `{s}`")),
                }
            }
        };
        Ok(stat)
    }
}

impl Serialize for Stat {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Stat {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// One value read from one input: a row of the tidy table (README, "The
/// tidy table", lists its columns).
///
/// The text fields are [`SmolStr`]: names of up to 23 bytes (nearly every
/// benchmark, metric, unit and variant) live inline and longer ones (paths)
/// are shared, so a row costs no heap allocation and cloning one costs no
/// copy. Ingest makes millions of rows; this is what keeps it fast and small.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    /// Input file path as given.
    pub source: SmolStr,
    /// 1-based line of the value in the original file; 0 when not line-based.
    pub line: u32,
    /// What was run (`hackbench 50`, `futex-wake`).
    pub benchmark: SmolStr,
    /// Canonical `k=v` pairs joined by `,`, sorted by key (see [`canonical_params`]).
    pub params: SmolStr,
    /// Which build or system (`baseline`, `patched`, `with plist`).
    pub variant: SmolStr,
    /// What was measured (`time`, `latency`, `tps`).
    pub metric: SmolStr,
    /// Unit as written, spelling normalised (`µs` → `us`); empty when unitless.
    pub unit: SmolStr,
    /// Raw sample or which summary statistic.
    pub stat: Stat,
    /// The value, in `unit`.
    pub value: f64,
    /// Sample index within (benchmark, params, variant, metric) for samples.
    pub run: Option<u32>,
    /// Which way is better, when the input itself says so (Go's
    /// `Unit … better=higher`). Not a column of the tidy table: analysis
    /// uses it ahead of inference from the metric name and unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<super::Direction>,
}

impl Observation {
    /// A raw sample; `source`, `line`, `variant` and `run` are usually filled
    /// in afterwards by the importer or the ingest driver.
    pub fn sample(
        benchmark: impl Into<SmolStr>,
        metric: impl Into<SmolStr>,
        unit: &str,
        value: f64,
    ) -> Self {
        Observation::new(benchmark, metric, unit, Stat::Sample, value)
    }

    /// A value of the given stat, with empty source, variant and params.
    pub fn new(
        benchmark: impl Into<SmolStr>,
        metric: impl Into<SmolStr>,
        unit: &str,
        stat: Stat,
        value: f64,
    ) -> Self {
        Observation {
            source: SmolStr::default(),
            line: 0,
            benchmark: benchmark.into(),
            params: SmolStr::default(),
            variant: SmolStr::default(),
            metric: metric.into(),
            unit: super::Unit::normalize_spelling(unit),
            stat,
            value,
            run: None,
            direction: None,
        }
    }

    /// Builder: set the 1-based line.
    pub fn at_line(mut self, line: u32) -> Self {
        self.line = line;
        self
    }

    /// Builder: set the variant.
    pub fn with_variant(mut self, variant: impl Into<SmolStr>) -> Self {
        self.variant = variant.into();
        self
    }

    /// Builder: set the params from `k=v` pairs (canonicalised).
    pub fn with_params<K: AsRef<str>, V: AsRef<str>>(mut self, pairs: &[(K, V)]) -> Self {
        self.params = canonical_params(pairs).into();
        self
    }

    /// Builder: set the params from an already canonical string.
    pub fn with_params_str(mut self, params: impl Into<SmolStr>) -> Self {
        self.params = params.into();
        self
    }

    /// Builder: set the run index.
    pub fn with_run(mut self, run: u32) -> Self {
        self.run = Some(run);
        self
    }
}

/// Joins `k=v` pairs sorted by key, the canonical form of the `params` column.
pub fn canonical_params<K: AsRef<str>, V: AsRef<str>>(pairs: &[(K, V)]) -> String {
    // Borrowed and on the stack: a long table whose rows change parameters
    // from one to the next builds this string for nearly every row.
    let mut v: smallvec::SmallVec<[(&str, &str); 8]> = pairs
        .iter()
        .map(|(k, v)| (k.as_ref().trim(), v.as_ref().trim()))
        .collect();
    // Equal pairs are equal text, so an unstable sort gives the same string.
    v.sort_unstable();
    let mut out = String::with_capacity(v.iter().map(|(k, v)| k.len() + v.len() + 2).sum());
    for (i, (k, v)) in v.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(k);
        out.push('=');
        out.push_str(v);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_round_trips_through_its_name() {
        for s in [
            Stat::Sample,
            Stat::Mean,
            Stat::Stddev,
            Stat::N,
            Stat::ChangePct,
            Stat::percentile(99.0),
            Stat::percentile(99.9),
            Stat::percentile(50.0),
        ] {
            assert_eq!(s.to_string().parse::<Stat>().unwrap(), s);
        }
        assert_eq!(Stat::percentile(99.9).to_string(), "p99.9");
        assert_eq!("std. dev.".parse::<Stat>().unwrap(), Stat::Stddev);
        assert_eq!("avg".parse::<Stat>().unwrap(), Stat::Mean);
        assert!("bogus".parse::<Stat>().is_err());
    }

    #[test]
    fn params_are_sorted_by_key() {
        assert_eq!(
            canonical_params(&[("threads", "8"), ("size", "4MB")]),
            "size=4MB,threads=8"
        );
        assert_eq!(canonical_params::<&str, &str>(&[]), "");
    }

    proptest::proptest! {
        /// The builder gives the string its definition does: trimmed pairs
        /// sorted (by key, then value), each `k=v`, joined by commas; more
        /// pairs than fit on the stack included.
        #[test]
        fn params_are_their_definition(
            pairs in proptest::collection::vec((" ?[a-c]{0,2} ?", "[0-9 ]{0,3}"), 0..12)
        ) {
            let mut sorted: Vec<(String, String)> = pairs
                .iter()
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .collect();
            sorted.sort();
            let joined = sorted
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(",");
            proptest::prop_assert_eq!(canonical_params(&pairs), joined);
        }
    }
}
