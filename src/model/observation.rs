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
        Stat::parse_name(s).ok_or_else(|| format!("unknown stat `{s}`"))
    }
}

impl Stat {
    /// The statistic `s` names, as [`FromStr`] reads it, without building
    /// an error: the document reader asks this of most words it meets.
    pub fn parse_name(s: &str) -> Option<Stat> {
        let t = s.trim();
        // The longest spelling has 17 letters: a longer word is no name and
        // need not be lowered whole (it may still be a percentile).
        let mut buf = [0u8; 18];
        let mut n = 0;
        for b in t.bytes() {
            if !matches!(b, b' ' | b'.' | b'_' | b'-') {
                if n == buf.len() {
                    return Stat::percentile_name(t);
                }
                buf[n] = b.to_ascii_lowercase();
                n += 1;
            }
        }
        let norm = std::str::from_utf8(&buf[..n]).ok()?;
        let stat = match norm {
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
            _ => return Stat::percentile_name(t),
        };
        Some(stat)
    }

    /// The percentile `t` (trimmed) names: `p99.9`, `99th`.
    fn percentile_name(t: &str) -> Option<Stat> {
        // Only a word starting so can parse as one; others are ruled out
        // without lowering them.
        let first = t.as_bytes().first()?;
        if !(matches!(first, b'p' | b'P' | b'+' | b'-' | b'.') || first.is_ascii_digit()) {
            return None;
        }
        let t = t.to_ascii_lowercase();
        let p = t
            .strip_prefix('p')
            .or_else(|| t.strip_suffix("th"))
            .and_then(|p| p.parse::<f64>().ok())
            .filter(|p| (0.0..=100.0).contains(p))?;
        Some(Stat::percentile(p))
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
    fn stat_names_are_read_without_regard_to_case_separators_or_length() {
        let p = Stat::parse_name;
        assert_eq!(p(" Standard-Deviation "), Some(Stat::Stddev));
        assert_eq!(p("s t d"), Some(Stat::Stddev));
        assert_eq!(p("STD_DEV"), Some(Stat::Stddev));
        assert_eq!(p("P99.9"), Some(Stat::percentile(99.9)));
        assert_eq!(p("99th"), Some(Stat::percentile(99.0)));
        assert_eq!(p("+5th"), Some(Stat::percentile(5.0)));
        assert_eq!(p(".5th"), Some(Stat::percentile(0.5)));
        assert_eq!(p("-0th"), Some(Stat::percentile(0.0)));
        assert_eq!(p("p101"), None);
        assert_eq!(p("Time"), None);
        assert_eq!(p("médiane"), None);
        // Longer than any spelling, letters or separators alike.
        assert_eq!(p("standarddeviationx"), None);
        assert_eq!(p(&"s-t-d ".repeat(10)), None);
        let long = format!("p9.{}", "9".repeat(40));
        assert_eq!(p(&long), Some(Stat::percentile(long[1..].parse().unwrap())));
        assert_eq!("bogus".parse::<Stat>(), Err("unknown stat `bogus`".into()));
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
