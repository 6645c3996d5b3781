//! Google Benchmark CSV (`--benchmark_out_format=csv`). Context lines may
//! precede the `name,iterations,real_time,…` header inside the file; they
//! are skipped. Rows whose name is an earlier row's name plus `_mean`,
//! `_median` or `_stddev` are aggregates (their iterations column is the
//! repetition count). `_cv` rows are skipped: the 1.7 reporter writes the
//! fraction scaled as if it were a time, so nothing in them can be trusted;
//! the CV follows from the samples or the mean and stddev rows.

use crate::error::Result;
use crate::ingest::formats::gbench::json::{aggregate_stat, counter_unit, split_name};
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::structured::{raw_lines, split_csv};
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};
use std::collections::HashSet;

/// The Google Benchmark CSV importer.
pub struct GbenchCsv;

const HEADER: &str = "name,iterations,real_time,cpu_time,time_unit";

impl Format for GbenchCsv {
    fn name(&self) -> &'static str {
        "gbench-csv"
    }

    fn description(&self) -> &'static str {
        "Google Benchmark CSV: header `name,iterations,real_time,cpu_time,time_unit,…`, context lines before it skipped"
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
        let mut lines = raw_lines(src).skip_while(|(_, l)| !l.starts_with(HEADER));
        let Some((header_line, header)) = lines.next() else {
            return Err(src.error(
                None,
                format!("no Google Benchmark CSV header `{HEADER},…` found"),
            ));
        };
        let header = split_csv(header, ',');
        let col = |name: &str| header.iter().position(|h| h == name);
        let (Some(c_iter), Some(c_real), Some(c_cpu), Some(c_unit)) = (
            col("iterations"),
            col("real_time"),
            col("cpu_time"),
            col("time_unit"),
        ) else {
            return Err(src.error(None, "Google Benchmark CSV header lacks a time column"));
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
        let mut seen_runs: HashSet<String> = HashSet::new();
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
            // Aggregate rows: `<run>_<stat>` after the runs they summarise.
            let (run_name, stat) = match name.rsplit_once('_') {
                Some((base, suffix)) if suffix == "cv" && seen_runs.contains(base) => {
                    let why = "coefficient of variation: stddev / mean, both read";
                    skipped.push((n, why.to_string()));
                    continue;
                }
                Some((base, "BigO")) => {
                    let (b, p) = split_name(base);
                    let unit = cells[c_unit].trim();
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
                Some((base, "RMS")) => {
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
                Some((base, suffix)) if seen_runs.contains(base) => match aggregate_stat(suffix) {
                    Some(s) => (base.to_string(), s),
                    None => continue,
                },
                _ => {
                    seen_runs.insert(name.to_string());
                    (name.to_string(), Stat::Sample)
                }
            };
            let (b, p) = split_name(&run_name);
            let unit = cells[c_unit].trim().to_string();
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
}
