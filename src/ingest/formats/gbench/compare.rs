//! The comparison table of Google Benchmark's `tools/compare.py`, printed
//! under `Comparing A to B` after (or without) the two console tables:
//!
//! ```text
//! Benchmark                 Time             CPU      Time Old      Time New       CPU Old       CPU New
//! BM_memcpy/8            +0.0020         +0.0020            36            36            36            36
//! BM_x_pvalue             0.0000          0.0000      U Test, Repetitions: 27 vs 27
//! OVERALL_GEOMEAN        -0.1442         -0.1442             0             0             0             0
//! ```
//!
//! The two deltas are relative changes (`new / old - 1`): they are read as
//! the input's own change in percent of `real_time` and `cpu_time`. The
//! four times, printed rounded to whole units, are the variants `old` and
//! `new` of each. A name may hold spaces (`[BM_a vs. BM_b]/8` in the
//! filters modes); a name seen twice is a second repetition, numbered as
//! the console table's rows are.
//!
//! The times carry no unit: the one the console table above printed for
//! the same name, or none when the table stands alone. The old and new
//! cells of a standard deviation or coefficient of variation, and of the
//! geomean row, are rounded to nothing (`0`): they are left out with the
//! reason. The `_pvalue` row's U-test p-values are compare.py's own test,
//! left out; its repetition counts give the `n` of each side.

use crate::error::Result;
use crate::ingest::formats::gbench::json::{aggregate_stat, split_name};
use crate::ingest::formats::gbench::names::{Kind, Names};
use crate::ingest::shared::logscan::{lazy_re, num};
use crate::ingest::Source;
use crate::model::{rescale, Observation, Stat};
use std::collections::HashMap;

lazy_re!(
    HEADER,
    r"^Benchmark\s+Time\s+CPU\s+Time Old\s+Time New\s+CPU Old\s+CPU New\s*$"
);
lazy_re!(
    ROW,
    r"^(\S.*?)\s+([-+]\d+\.\d+)\s+([-+]\d+\.\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*$"
);
lazy_re!(
    PVALUE,
    r"^(\S.*?)_pvalue\s+(\d+\.\d+)\s+(\d+\.\d+)\s+U Test, Repetitions: (\d+) vs (\d+)"
);

/// Whether a line is the comparison table's header.
pub(super) fn is_header(text: &str) -> bool {
    text.starts_with("Benchmark") && HEADER.is_match(text.trim_end())
}

/// What one table reads: the rows, and how often each name was seen.
#[derive(Default)]
pub(super) struct Table {
    names: Names,
}

impl Table {
    /// Reads one line of the table into `out`; lines it leaves out go to
    /// `skipped` with the reason. `units` gives the time unit of a run
    /// name from the console tables above. False when the line is no row.
    pub(super) fn read(
        &mut self,
        src: &Source,
        n: u32,
        text: &str,
        units: &HashMap<String, String>,
        out: &mut Vec<Observation>,
        skipped: &mut Vec<(u32, String)>,
    ) -> Result<bool> {
        let t = text.trim_end();
        if let Some(c) = PVALUE.captures(t) {
            let (b, p) = split_name(&c[1]);
            for (variant, i) in [("old", 4), ("new", 5)] {
                let reps = num(src, n, &c[i], "repetitions")?;
                for metric in ["real_time", "cpu_time"] {
                    let unit = units.get(&c[1]).map_or("", String::as_str);
                    out.push(
                        Observation::new(b.as_str(), metric, unit, Stat::N, reps)
                            .with_params_str(p.clone())
                            .with_variant(variant)
                            .at_line(n),
                    );
                }
            }
            skipped.push((
                n,
                "compare.py's U-test p-values: patchperf tests the samples itself".into(),
            ));
            return Ok(true);
        }
        let Some(c) = ROW.captures(t) else {
            return Ok(false);
        };
        let name = &c[1];
        let geomean = name == "OVERALL_GEOMEAN";
        let (run_name, stat) = match self.names.classify(name) {
            Kind::Aggregate { base, stat } => match aggregate_stat(stat) {
                Some(s) => (base.to_string(), s),
                None => (name.to_string(), Stat::Sample),
            },
            _ => (name.to_string(), Stat::Sample),
        };
        let (b, p) = split_name(&run_name);
        let unit = units
            .get(&run_name)
            .or_else(|| units.get(name))
            .map_or("", String::as_str);
        let mk = |metric: &str, unit: &str, stat: Stat, v: f64| {
            Observation::new(b.as_str(), metric, unit, stat, v)
                .with_params_str(p.clone())
                .at_line(n)
        };
        // The change is the input's own for the mean, the median or a run
        // alike; of a spread it is no change of the benchmark: its own metric.
        let spread = matches!(stat, Stat::Stddev | Stat::Cv);
        for (metric, i) in [("real_time", 2), ("cpu_time", 3)] {
            let v = rescale(num(src, n, &c[i], "relative change")?, 100.0);
            let named = if spread {
                format!("{metric} {}", stat_name(stat))
            } else {
                metric.to_string()
            };
            out.push(mk(&named, unit, Stat::ChangePct, v));
        }
        if geomean || spread {
            let why = if geomean {
                "compare.py prints no geometric mean of the times (0)"
            } else {
                "a spread printed rounded to whole units by compare.py"
            };
            skipped.push((n, format!("the old and new cells: {why}")));
            return Ok(true);
        }
        for (metric, variant, i) in [
            ("real_time", "old", 4),
            ("real_time", "new", 5),
            ("cpu_time", "old", 6),
            ("cpu_time", "new", 7),
        ] {
            let v = num(src, n, &c[i], "time")?;
            out.push(mk(metric, unit, stat, v).with_variant(variant));
        }
        Ok(true)
    }
}

/// The library's suffix of a spread statistic.
fn stat_name(stat: Stat) -> &'static str {
    if stat == Stat::Cv {
        "cv"
    } else {
        "stddev"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, units: &[(&str, &str)]) -> (Vec<Observation>, Vec<(u32, String)>) {
        let src = Source::from_text("cmp.txt", text);
        let units: HashMap<String, String> = units
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        let mut table = Table::default();
        let (mut out, mut skipped) = (Vec::new(), Vec::new());
        for l in &src.lines {
            table
                .read(&src, l.number, &l.text, &units, &mut out, &mut skipped)
                .unwrap();
        }
        (out, skipped)
    }

    #[test]
    fn a_row_gives_both_changes_and_the_four_times() {
        let (out, skipped) = read(
            "BM_memcpy/64           -0.0468         -0.0470            76            73            76            73\n",
            &[("BM_memcpy/64", "ns")],
        );
        assert!(skipped.is_empty());
        let got: Vec<(&str, &str, Stat, f64)> = out
            .iter()
            .map(|o| (o.metric.as_str(), o.variant.as_str(), o.stat, o.value))
            .collect();
        assert_eq!(
            got,
            vec![
                ("real_time", "", Stat::ChangePct, -4.68),
                ("cpu_time", "", Stat::ChangePct, -4.7),
                ("real_time", "old", Stat::Sample, 76.0),
                ("real_time", "new", Stat::Sample, 73.0),
                ("cpu_time", "old", Stat::Sample, 76.0),
                ("cpu_time", "new", Stat::Sample, 73.0),
            ]
        );
        assert!(out
            .iter()
            .all(|o| o.unit == "ns" && o.benchmark == "BM_memcpy"));
        assert_eq!(out[0].params, "arg0=64");
    }

    #[test]
    fn names_with_spaces_and_repeated_names() {
        let (out, _) = read(
            "[BM_memcpy vs. BM_copy]/8            +5.2829         +5.2812            36           227            36           227\n\
             BM_Two  +0.1111  -0.0111  9  10  90  89\n\
             BM_Two  -0.1250  -0.1628  8  7  86  72\n",
            &[],
        );
        assert_eq!(out[0].benchmark, "[BM_memcpy vs. BM_copy]");
        assert_eq!(out[0].value, 528.29);
        let new: Vec<f64> = out
            .iter()
            .filter(|o| o.benchmark == "BM_Two" && o.variant == "new")
            .map(|o| o.value)
            .collect();
        assert_eq!(new, vec![10.0, 89.0, 7.0, 72.0]);
    }
}
