//! Google Benchmark console output:
//!
//! ```text
//! Benchmark                           Time             CPU   Iterations UserCounters...
//! BM_StringCopy/64                 28.5 ns         27.8 ns      5109169 bytes_per_second=2.14574G/s
//! BM_StringCopy/64_cv              3.72 %          2.29 %             3 bytes_per_second=2.26%
//! ```
//!
//! Values are rounded for display and counters carry SI prefixes
//! (`bytes_per_second` in powers of 1024, as the library prints it, every
//! other counter in powers of 1000); they are scaled back to base units.
//! Prefer the JSON output, which has full precision.

use crate::error::Result;
use crate::ingest::formats::gbench::json::{aggregate_stat, counter_unit, split_name};
use crate::ingest::shared::logscan::num;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::rescale;
use crate::model::{Observation, Stat};
use regex::Regex;
use std::collections::HashMap;
use std::sync::LazyLock;

/// The Google Benchmark console importer.
pub struct GbenchConsole;

static HEADER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^Benchmark\s+Time\s+CPU\s+Iterations").expect("static regex"));
static ROW: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(\S+)\s+([\d.]+(?:e[-+]?\d+)?) (\S+)\s+([\d.]+(?:e[-+]?\d+)?) (\S+)(?:\s+(\d+))?(.*)$",
    )
    .expect("static regex")
});
static COUNTER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(\w+)=([\d.]+(?:e[-+]?\d+)?)([kMGTPEmunp]?)(/s|%)?").expect("static regex")
});

// The context block the library prints before its table (also above the
// CSV header): date, program, CPU, caches, load, build warning.
static CONTEXT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\S*\s*$|Running \S|Run on \(|CPU Caches:|\s+L\d \w+ \d+ \w+ \(x\d+\)|Load Average: |\*\*\*WARNING\*\*\*)",
    )
    .expect("static regex")
});

/// The library's context lines before `first_table_line`, each `skipped`:
/// they describe the machine, which `patchperf check --env` compares, and
/// hold no result.
pub(super) fn context_skips(src: &Source, first_table_line: u32) -> Vec<(u32, String)> {
    src.lines
        .iter()
        .take_while(|l| l.number < first_table_line)
        .filter(|l| CONTEXT.is_match(&l.text))
        .map(|l| {
            let why = "machine context printed by the library (date, CPU, caches, load)";
            (l.number, why.to_string())
        })
        .collect()
}

impl Format for GbenchConsole {
    fn name(&self) -> &'static str {
        "gbench-console"
    }

    fn description(&self) -> &'static str {
        "Google Benchmark console table: header `Benchmark  Time  CPU  Iterations [UserCounters...]`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if crate::ingest::shared::logscan::any_with(src, "Iterations", &HEADER) {
            90
        } else {
            0
        }
    }

    /// The context block above the table is `skipped` with its reason.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let header_line = src
            .lines
            .iter()
            .find(|l| HEADER.is_match(&l.text))
            .map_or(0, |l| l.number);
        let skipped = context_skips(src, header_line);
        let mut out = Vec::new();
        let mut in_table = false;
        // Run name → time unit of its rows, for the summary rows after them.
        let mut seen_runs: HashMap<String, String> = HashMap::new();
        for l in &src.lines {
            let t = l.text.trim_end();
            if HEADER.is_match(t) {
                in_table = true;
                continue;
            }
            if !in_table || t.starts_with('-') {
                continue;
            }
            let Some(c) = ROW.captures(t) else { continue };
            let name = &c[1];
            let (run_name, stat) = match name.rsplit_once('_') {
                Some((base, "BigO")) => {
                    let (b, p) = split_name(base);
                    for (metric, i) in [("bigo_real_coefficient", 2), ("bigo_cpu_coefficient", 4)] {
                        let v = num(src, l.number, &c[i], "value")?;
                        out.push(
                            Observation::new(b.as_str(), metric, &c[i + 1], Stat::Mean, v)
                                .with_params_str(p.clone())
                                .at_line(l.number),
                        );
                    }
                    continue;
                }
                Some((base, "RMS")) => {
                    let (b, p) = split_name(base);
                    let v = num(src, l.number, &c[2], "value")?;
                    out.push(
                        Observation::new(b, "bigo_rms", "%", Stat::Mean, v)
                            .with_params_str(p)
                            .at_line(l.number),
                    );
                    continue;
                }
                Some((base, suffix)) if seen_runs.contains_key(base) => {
                    match aggregate_stat(suffix) {
                        Some(s) => (base.to_string(), s),
                        None => continue,
                    }
                }
                _ => {
                    seen_runs.insert(name.to_string(), c[3].to_string());
                    (name.to_string(), Stat::Sample)
                }
            };
            let (b, p) = split_name(&run_name);
            let mk = |metric: &str, unit: &str, stat: Stat, v: f64| {
                Observation::new(b.as_str(), metric, unit, stat, v)
                    .with_params_str(p.clone())
                    .at_line(l.number)
            };
            // A `_cv` row prints `%` where the time unit goes; its rows keep
            // the unit of the times they describe so each group stays in one
            // unit, and the stat says the value is a percentage.
            let time_unit = if stat == Stat::Cv {
                seen_runs.get(&run_name).cloned().unwrap_or_default()
            } else {
                c[3].to_string()
            };
            let mut metrics: Vec<(String, String, f64)> = vec![
                (
                    "real_time".into(),
                    time_unit.clone(),
                    num(src, l.number, &c[2], "value")?,
                ),
                (
                    "cpu_time".into(),
                    time_unit.clone(),
                    num(src, l.number, &c[4], "value")?,
                ),
            ];
            for cc in COUNTER.captures_iter(c.get(7).map_or("", |m| m.as_str())) {
                let key = &cc[1];
                let v = num(src, l.number, &cc[2], "value")?;
                let v = if stat == Stat::Cv {
                    v
                } else {
                    rescale(v, si_factor(&cc[3], key == "bytes_per_second"))
                };
                metrics.push((key.to_string(), counter_unit(key).to_string(), v));
            }
            for (metric, u, v) in &metrics {
                out.push(mk(metric, u, stat, *v));
            }
            if stat == Stat::Mean {
                if let Some(reps) = c.get(6) {
                    let reps = num(src, l.number, reps.as_str(), "value")?;
                    for (metric, u, _) in &metrics {
                        out.push(mk(metric, u, Stat::N, reps));
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

fn si_factor(prefix: &str, binary: bool) -> f64 {
    let base: f64 = if binary { 1024.0 } else { 1000.0 };
    match prefix {
        "k" => base,
        "M" => base.powi(2),
        "G" => base.powi(3),
        "T" => base.powi(4),
        "P" => base.powi(5),
        "E" => base.powi(6),
        "m" => 1e-3,
        "u" => 1e-6,
        "n" => 1e-9,
        "p" => 1e-12,
        _ => 1.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Detection as it was before the joined-text search: every line.
    fn detect_by_line(src: &Source) -> Confidence {
        if crate::ingest::any_line_matches(src, "Iterations", &HEADER) {
            90
        } else {
            0
        }
    }

    #[test]
    fn detection_gives_the_score_the_line_search_gives() {
        assert!(crate::ingest::assert_detection_agrees(&GbenchConsole, detect_by_line) > 0);
    }
}
