//! airspeed velocity's (asv) console output of `asv run`: under
//! `·· Benchmarking ENV` one line per benchmark,
//!
//! ```text
//! [ 35.00%] ··· benchmarks.TimeSuite.time_iterkeys                     11.1±0.01μs
//! [ 30.00%] ··· benchmarks.MemSuite.mem_list                                 2.42k
//! [ 85.00%] ··· benchmarks.TimeSuite.time_iterkeys3                         failed
//! ```
//!
//! Benchmark the dotted name, parameter `env` (the environment being
//! benchmarked). A time (`time_` benchmarks, a number with its time unit)
//! is metric `time`, the median asv reports; its `±` is half the
//! interquartile range, no spread a row can hold, and is not read. A
//! figure without a unit (`mem_`, `track_` benchmarks, `2.42k` with asv's
//! SI prefix) is metric `value`. A benchmark that `failed` is left out
//! with the reason; the progress lines (`Running …`, `Building …`) are
//! context.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num, Params};
use crate::ingest::shared::numbers::scale_suffix;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Stat;

lazy_re!(PROGRESS, r"^\[\s*[\d.]+%\]\s+·+\s+(.*?)\s*$");
lazy_re!(ENV, r"^Benchmarking (\S+)$");
lazy_re!(
    RESULT,
    r"^(\w+(?:\.\w+)+)\s+(?:([\d.]+)(?:±[\d.]+)?(ns|μs|µs|us|ms|s)|([\d.]+)([kMG]?)|(failed|n/a|skipped))$"
);

/// The asv console importer.
pub struct AsvConsole;

impl Format for AsvConsole {
    fn name(&self) -> &'static str {
        "asv-console"
    }

    fn description(&self) -> &'static str {
        "asv run console output: `[ 35.00%] ··· benchmarks.Suite.time_x   11.1±0.01μs`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let results = src.lines.iter().take(2000).any(|l| {
            let p = PROGRESS.captures(&l.text);
            p.is_some_and(|c| RESULT.is_match(&c[1]))
        });
        if results {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let mut params = Params::default();
        for l in &src.lines {
            let n = l.number;
            let t = l.text.trim();
            if t.starts_with('·') {
                // `· Running 10 total benchmarks (…)`: the plan, not a result.
                consumed.push(n);
                continue;
            }
            let Some(p) = PROGRESS.captures(t) else {
                continue;
            };
            let body = &p[1];
            if let Some(c) = ENV.captures(body) {
                params = Params::default();
                params.set("env", &c[1]);
                consumed.push(n);
                continue;
            }
            let Some(c) = RESULT.captures(body) else {
                consumed.push(n);
                continue;
            };
            let row = Row::at(src, n).benchmark(&c[1]).params(&params.render());
            if let Some(v) = c.get(2) {
                let unit = if c[3].starts_with(['μ', 'µ']) {
                    "us"
                } else {
                    &c[3]
                };
                let v = num(src, n, v.as_str(), "asv time")?;
                out.push(row.metric("time").unit(unit).stat(Stat::Median, v));
            } else if let Some(v) = c.get(4) {
                let scale = scale_suffix(&c[5]).unwrap_or(1.0);
                let v = num(src, n, v.as_str(), "asv value")? * scale;
                out.push(row.metric("value").unit("").sample(v));
            } else {
                skipped.push((
                    n,
                    format!("benchmark `{}` {}: asv gave it no value", &c[1], &c[6]),
                ));
            }
        }
        Parsed::found(src, out, consumed, skipped, "no asv benchmark result line")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    #[test]
    fn results_are_named_by_benchmark_and_environment() {
        // bencher's tool_output/python/asv/six.txt: two environments.
        let p = parse_file(&AsvConsole, "tests/data/harness/asv/bencher-two-envs.txt");
        let got: Vec<(u32, &str, &str, &str, f64)> = p
            .observations
            .iter()
            .map(|o| {
                (
                    o.line,
                    o.benchmark.as_str(),
                    o.params.as_str(),
                    o.unit.as_str(),
                    o.value,
                )
            })
            .collect();
        assert_eq!(got.len(), 8);
        assert_eq!(
            got[0],
            (
                6,
                "benchmarks.MemSuite.mem_list",
                "env=virtualenv-py2.7",
                "",
                2420.0
            )
        );
        assert_eq!(
            got[1],
            (
                7,
                "benchmarks.TimeSuite.time_iterkeys",
                "env=virtualenv-py2.7",
                "us",
                11.1
            )
        );
        assert_eq!(
            got[6],
            (
                16,
                "benchmarks.TimeSuite.time_keys3",
                "env=virtualenv-py3.6",
                "us",
                9.07
            )
        );
        assert_eq!(p.observations[1].stat, Stat::Median);
        let failed: Vec<u32> = p.skipped.iter().map(|(n, _)| *n).collect();
        assert_eq!(failed, vec![15, 18]);
        assert!(p.skipped[0].1.contains("time_iterkeys3"));
    }
}
