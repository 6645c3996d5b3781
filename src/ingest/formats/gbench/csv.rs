//! Google Benchmark CSV (`--benchmark_out_format=csv`). Context lines may
//! precede the `name,iterations,real_time,…` header inside the file; they
//! are skipped. Rows named `<run>_mean`, `_median`, `_stddev` are
//! summaries of the repetitions (their iterations column is the repetition
//! count), told by the name even when the repetitions themselves are not
//! in the file (`--benchmark_report_aggregates_only`; see [`names`]).
//! A statistic the benchmark registered itself is left out with the
//! reason: the CSV gives it in the time columns whether it is a time or a
//! fraction. `_cv` rows are skipped: the 1.7 reporter writes the
//! fraction scaled as if it were a time, so nothing in them can be trusted;
//! the CV follows from the samples or the mean and stddev rows.
//!
//! Before its 1.0 release (March 2016) the reporter wrote no `time_unit`
//! column (`name,iterations,real_time,cpu_time,bytes_per_second,…`, as
//! the user guide's example still shows): its times were always in ns.

use crate::error::Result;
use crate::ingest::formats::gbench::json::{aggregate_stat, counter_unit, split_name};
use crate::ingest::formats::gbench::names::{Kind, Names};
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::structured::{numbered_lines, raw_lines, split_csv};
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};
use std::collections::HashSet;

/// The Google Benchmark CSV importer.
pub struct GbenchCsv;

/// The header's start, with or without the `time_unit` column after it.
const HEADER: &str = "name,iterations,real_time,cpu_time,";
/// The unit of times in a file without a `time_unit` column.
const UNIT_BEFORE_1_0: &str = "ns";

impl Format for GbenchCsv {
    fn name(&self) -> &'static str {
        "gbench-csv"
    }

    fn description(&self) -> &'static str {
        "Google Benchmark CSV: header `name,iterations,real_time,cpu_time[,time_unit],…`, context lines before it skipped"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if raw_lines(src).take(40).any(|(_, l)| l.starts_with(HEADER)) {
            95
        } else {
            0
        }
    }

    /// The context block above the header, failed runs and `_cv` rows
    /// (stddev / mean, both read) are `skipped` with the reason.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        // Numbered in the file: a run cut from a loop's log starts past 1.
        let mut lines =
            numbered_lines(&src.raw, src.first_line()).skip_while(|(_, l)| !l.starts_with(HEADER));
        let Some((header_line, header)) = lines.next() else {
            return Err(src.error(
                None,
                format!("no Google Benchmark CSV header `{HEADER},…` found"),
            ));
        };
        let header = split_csv(header, ',');
        let col = |name: &str| header.iter().position(|h| h == name);
        let (Some(c_iter), Some(c_real), Some(c_cpu)) =
            (col("iterations"), col("real_time"), col("cpu_time"))
        else {
            return Err(src.error(None, "Google Benchmark CSV header lacks a time column"));
        };
        let c_unit = col("time_unit");
        let time_unit = |cells: &[String]| {
            c_unit.map_or(UNIT_BEFORE_1_0.to_string(), |c| cells[c].trim().to_string())
        };
        let c_err = col("error_occurred");
        let fixed: HashSet<&str> = [
            "name",
            "iterations",
            "real_time",
            "cpu_time",
            "time_unit",
            "label",
            "error_occurred",
            "error_message",
        ]
        .into_iter()
        .collect();
        let mut names = Names::default();
        let mut out = Vec::new();
        let mut skipped = crate::ingest::formats::gbench::console::context_skips(src, header_line);
        for (n, l) in lines {
            let cells = split_csv(l, ',');
            if cells.len() != header.len() {
                return Err(src.error(
                    Some(n),
                    format!(
                        "expected {} fields like the header, found {} (truncated file?)",
                        header.len(),
                        cells.len()
                    ),
                ));
            }
            let name = cells[0].as_str();
            if c_err.is_some_and(|c| cells[c].trim() == "true") {
                // Failed runs carry no measurement.
                skipped.push((n, "the run failed (error_occurred)".to_string()));
                continue;
            }
            let num = |i: usize| -> Result<Option<f64>> {
                let t = cells[i].trim();
                if t.is_empty() {
                    return Ok(None);
                }
                parse_number(t)
                    .or_else(|| t.parse::<f64>().ok().filter(|v| v.is_finite()))
                    .map(Some)
                    .ok_or_else(|| {
                        src.error(
                            Some(n),
                            format!("column `{}`: `{t}` is not a number", header[i]),
                        )
                    })
            };
            // Summary rows: `<run>_<stat>` (see [`names`](super::names)).
            let (run_name, stat) = match names.classify(name) {
                Kind::Aggregate { stat: "cv", .. } => {
                    let why = "coefficient of variation: stddev / mean, both read";
                    skipped.push((n, why.to_string()));
                    continue;
                }
                Kind::BigO(base) => {
                    let (b, p) = split_name(base);
                    let unit = time_unit(&cells);
                    let unit = unit.as_str();
                    for (metric, c) in [
                        ("bigo_real_coefficient", c_real),
                        ("bigo_cpu_coefficient", c_cpu),
                    ] {
                        if let Some(v) = num(c)? {
                            out.push(
                                Observation::new(b.as_str(), metric, unit, Stat::Mean, v)
                                    .with_params_str(p.clone())
                                    .at_line(n),
                            );
                        }
                    }
                    continue;
                }
                Kind::Rms(base) => {
                    let (b, p) = split_name(base);
                    if let Some(v) = num(c_real)? {
                        out.push(
                            Observation::new(b, "bigo_rms", "%", Stat::Mean, v * 100.0)
                                .with_params_str(p)
                                .at_line(n),
                        );
                    }
                    continue;
                }
                Kind::Aggregate { base, stat } => match aggregate_stat(stat) {
                    Some(s) => (base.to_string(), s),
                    None => {
                        let why = format!(
                            "the statistic `{stat}` the benchmark registered: the CSV does \
                             not say whether it is a time or a fraction (the JSON output does)"
                        );
                        skipped.push((n, why));
                        continue;
                    }
                },
                Kind::Run => (name.to_string(), Stat::Sample),
            };
            let (b, p) = split_name(&run_name);
            let unit = time_unit(&cells);
            let mut push = |metric: &str, unit: &str, v: f64| {
                out.push(
                    Observation::new(b.as_str(), metric, unit, stat, v)
                        .with_params_str(p.clone())
                        .at_line(n),
                );
            };
            let iterations = num(c_iter)?;
            let mut metrics: Vec<(String, String, f64)> = Vec::new();
            if let Some(v) = num(c_real)? {
                metrics.push(("real_time".into(), unit.clone(), v));
            }
            if let Some(v) = num(c_cpu)? {
                metrics.push(("cpu_time".into(), unit.clone(), v));
            }
            for (i, h) in header.iter().enumerate() {
                if fixed.contains(h.as_str()) {
                    continue;
                }
                if let Some(v) = num(i)? {
                    metrics.push((h.clone(), counter_unit(h).to_string(), v));
                }
            }
            for (metric, u, v) in &metrics {
                push(metric, u, *v);
            }
            if stat == Stat::Mean {
                if let Some(reps) = iterations {
                    for (metric, u, _) in &metrics {
                        out.push(
                            Observation::new(b.as_str(), metric.as_str(), u, Stat::N, reps)
                                .with_params_str(p.clone())
                                .at_line(n),
                        );
                    }
                }
            }
        }
        Ok(Parsed {
            observations: out,
            consumed: Vec::new(),
            skipped,
            ..Parsed::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_block_and_cv_rows_are_skipped_with_reasons() {
        let path = "tests/data/corpus/gbench_csv-baseline-1.csv";
        let p = crate::ingest::parse_file(&GbenchCsv, path);
        // Date, `Run on (2 X 2793.44 MHz CPU s)`, caches, load average.
        for l in [1, 3, 5, 9] {
            assert!(
                p.skipped_reason(l).starts_with("machine context"),
                "line {l}"
            );
        }
        // `BM_StringCopy/64_cv`: derived from the mean and stddev rows.
        assert!(p.skipped_reason(18).starts_with("coefficient of variation"));
        assert!(p
            .observations
            .iter()
            .any(|o| o.line == 17 && o.stat == Stat::Stddev));
    }

    #[test]
    fn aggregates_without_their_repetitions_are_summaries_of_the_run() {
        let path = "tests/data/harness/gbench/csv-display-aggregates.csv";
        let p = crate::ingest::parse_file(&GbenchCsv, path);
        let real: Vec<(&str, &str, Stat, f64)> = p
            .observations
            .iter()
            .filter(|o| o.metric == "real_time")
            .map(|o| (o.benchmark.as_str(), o.params.as_str(), o.stat, o.value))
            .collect();
        assert_eq!(
            real,
            [
                ("BM_Concat", "arg0=16", Stat::Mean, 0.0349389),
                ("BM_Concat", "arg0=16", Stat::N, 2.0),
                ("BM_Concat", "arg0=16", Stat::Median, 0.0349389),
                ("BM_Concat", "arg0=16", Stat::Stddev, 0.00347079),
                ("BM_Concat", "arg0=256", Stat::Mean, 0.034101),
                ("BM_Concat", "arg0=256", Stat::N, 2.0),
                ("BM_Concat", "arg0=256", Stat::Median, 0.034101),
                ("BM_Concat", "arg0=256", Stat::Stddev, 0.0010784),
            ]
        );
        assert!(p.observations.iter().all(|o| !o.stat.is_sample()));
        assert!(p
            .observations
            .iter()
            .all(|o| o.unit == "us" || o.metric != "real_time"));
        // The `_cv` rows (line 5: real_time 49669.4) are left out.
        assert!(p.skipped_reason(5).starts_with("coefficient of variation"));
        assert!(p.skipped_reason(9).starts_with("coefficient of variation"));
        assert!(!p.observations.iter().any(|o| o.line == 5 || o.line == 9));
    }

    #[test]
    fn a_file_without_time_unit_has_times_in_ns() {
        // The user guide's example, as the reporter wrote it before 1.0.
        let path = "tests/data/harness/gbench/doc-csv-no-time-unit.csv";
        let p = crate::ingest::parse_file(&GbenchCsv, path);
        let got: Vec<(&str, &str, &str, f64, &str)> = p
            .observations
            .iter()
            .map(|o| {
                let (b, m) = (o.benchmark.as_str(), o.metric.as_str());
                (b, o.params.as_str(), m, o.value, o.unit.as_str())
            })
            .collect();
        let first = [
            (
                "BM_SetInsert",
                "arg0=1024,arg1=1",
                "real_time",
                17890.7,
                "ns",
            ),
            (
                "BM_SetInsert",
                "arg0=1024,arg1=1",
                "cpu_time",
                8407.45,
                "ns",
            ),
        ];
        assert_eq!(got[..2], first);
        assert_eq!(got.len(), 12);
        let items = got.iter().rfind(|r| r.2 == "items_per_second");
        assert_eq!(
            items.map(|r| (r.1, r.3)),
            Some(("arg0=1024,arg1=10", 1.18743e6))
        );
        assert!(p.observations.iter().all(|o| o.stat == Stat::Sample));
    }

    #[test]
    fn a_registered_statistic_is_left_out_with_its_reason() {
        let path = "tests/data/harness/gbench/reps-counters.csv";
        let p = crate::ingest::parse_file(&GbenchCsv, path);
        // `"BM_Sort_spread",3,410.251,3.43675,ns`: time or fraction unknown.
        assert!(p.skipped_reason(23).starts_with("the statistic `spread`"));
    }
}
