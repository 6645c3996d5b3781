//! nonius, the C++ micro-benchmark framework, and its standard reporter:
//!
//! ```text
//! new round for parameters
//! X = 1
//!
//! benchmarking sleep 10ms
//! collecting 100 samples, 1 iterations each, in estimated 1013.66 ms
//! mean: 10.1258 ms, lb 10.1189 ms, ub 10.1313 ms, ci 0.95
//! std dev: 31.1777 μs, lb 26.5814 μs, ub 35.4952 μs, ci 0.95
//! found 13 outliers among 100 samples (13%)
//! variance is unaffected by outliers
//! ```
//!
//! Benchmark the name after `benchmarking`; the `NAME = VALUE` lines under
//! `new round for parameters` are its parameters until the next round.
//! Metric `time`: `mean` with its bootstrap interval (`lb`, `ub`) as
//! `ci_low`/`ci_high`, `std dev` as stddev, the samples collected as n.
//! The bounds of the standard deviation's interval have no place in a
//! row and are not read. The clock's resolution is a measurement of the
//! clock, not of a benchmark: left out with the reason.

use crate::error::Result;
use crate::ingest::shared::logscan::{has, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Stat;

lazy_re!(BENCH, r"^benchmarking (.+?)\s*$");
lazy_re!(
    COLLECTING,
    r"^collecting (\d+) samples, \d+ iterations each"
);
lazy_re!(
    ESTIMATE,
    r"^(mean|std dev): (\S+) (\S+), lb (\S+) (\S+), ub (\S+) (\S+), ci [\d.]+\s*$"
);
lazy_re!(PARAM, r"^(\w+) = (\S.*?)\s*$");
lazy_re!(
    REMARK,
    r"^(?:found \d+ outliers among \d+ samples|variance is \w+|new round for parameters\s*$)"
);

/// The nonius importer.
pub struct Nonius;

/// nonius prints µs with the Greek letter mu.
fn unit(u: &str) -> &str {
    match u {
        "μs" | "µs" => "us",
        other => other,
    }
}

impl Format for Nonius {
    fn name(&self) -> &'static str {
        "nonius"
    }

    fn description(&self) -> &'static str {
        "nonius standard reporter: `benchmarking NAME`, `mean: 10.1258 ms, lb …, ub …, ci 0.95`, `std dev: …`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let estimates = src.lines.iter().any(|l| ESTIMATE.is_match(&l.text));
        if estimates && (has(src, "benchmarking ") || has(src, "clock resolution: mean is")) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let mut params = Params::default();
        let mut in_round = false;
        let mut bench: Option<String> = None;
        let mut samples: Option<(u32, f64)> = None;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            if t.is_empty() {
                in_round = false;
                continue;
            }
            if t.starts_with("clock resolution:") || t.starts_with("clock cost:") {
                skipped.push((n, "the clock's own resolution, not a benchmark".into()));
                continue;
            }
            if t == "new round for parameters" {
                params = Params::default();
                in_round = true;
                consumed.push(n);
                continue;
            }
            if in_round {
                if let Some(c) = PARAM.captures(t) {
                    params.set(&c[1], &c[2]);
                    consumed.push(n);
                    continue;
                }
            }
            if let Some(c) = BENCH.captures(t) {
                bench = Some(c[1].to_string());
                samples = None;
                consumed.push(n);
                continue;
            }
            if let Some(c) = COLLECTING.captures(t) {
                samples = Some((n, num(src, n, &c[1], "samples")?));
                continue;
            }
            if REMARK.is_match(t) {
                consumed.push(n);
                continue;
            }
            let (Some(c), Some(b)) = (ESTIMATE.captures(t), &bench) else {
                continue;
            };
            let rendered = params.render();
            let row = |line: u32, u: &str| {
                let r = Row::at(src, line).benchmark(b).params(&rendered);
                r.metric("time").unit(unit(u))
            };
            if &c[1] == "mean" {
                out.push(row(n, &c[3]).stat(Stat::Mean, num(src, n, &c[2], "mean")?));
                out.push(row(n, &c[5]).stat(Stat::CiLow, num(src, n, &c[4], "lb")?));
                out.push(row(n, &c[7]).stat(Stat::CiHigh, num(src, n, &c[6], "ub")?));
                if let Some((at, k)) = samples.take() {
                    out.push(row(at, "").stat(Stat::N, k));
                }
            } else {
                out.push(row(n, &c[3]).stat(Stat::Stddev, num(src, n, &c[2], "std dev")?));
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no nonius `mean: …, lb …, ub …` line",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    #[test]
    fn each_benchmark_gives_its_mean_interval_spread_and_samples() {
        let p = parse_file(&Nonius, "tests/data/harness/nonius/three-benchmarks.txt");
        let get = |b: &str, s: Stat| {
            let o = &p.observations;
            let r = o.iter().find(|r| r.benchmark == b && r.stat == s).unwrap();
            (r.value, r.unit.to_string(), r.params.to_string())
        };
        let x1 = "X=1".to_string();
        assert_eq!(
            get("sleep 10ms", Stat::Mean),
            (10.1258, "ms".into(), x1.clone())
        );
        assert_eq!(get("sleep 10ms", Stat::CiLow).0, 10.1189);
        assert_eq!(get("sleep 10ms", Stat::CiHigh).0, 10.1313);
        assert_eq!(get("sleep 10ms", Stat::Stddev), (31.1777, "us".into(), x1));
        assert_eq!(get("sleep 10ms", Stat::N).0, 100.0);
        assert_eq!(get("x += x", Stat::Stddev).0, 9.50619e-05);
        assert_eq!(get("random fluctuations", Stat::Mean).0, 1016.26);
        // Three benchmarks, five rows each; nothing else read.
        assert_eq!(p.observations.len(), 15);
        assert_eq!(p.skipped.len(), 1);
    }
}
