//! BenchmarkDotNet's plain exporter (`*-report.txt` from `PlainExporter`)
//! and the same blocks in its console log: per benchmark a header
//! `*** Class.Method: Job(…) ***` (in a log, `// Benchmark: Class.Method:
//! Job`), its measurements `WorkloadResult   1: 1 op, 1.00 ns, 1.0000
//! ns/op`, then `* Statistics for WorkloadResult` and lines of `Name =
//! value unit` pairs (`Mean = 1.000 ns, StdErr = 0.000 ns (0.00%), N = 6,
//! StdDev = 0.000 ns`, `Min`, `Q1`, `Median`, `Q3`, `Max`, the
//! `ConfidenceInterval = [lo; hi]`).
//!
//! Benchmark the header's `Class.Method`, parameter `job` the job; metric
//! `time` in the unit per operation: each workload result a sample, the
//! statistics as stated (`Q1`/`Q3` as p25/p75, the interval's bounds,
//! `N` as n). The pilot, warm-up and overhead iterations, the fences, the
//! shape figures (`Skewness`, `Kurtosis`, `MValue`) and the histogram are
//! not the benchmark's time: not read (the histogram's buckets are left
//! out with the reason).

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, lines_containing, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Stat;

lazy_re!(
    HEADER,
    r"^(?:\*\*\* (.+?): (.+) \*\*\*|// Benchmark: (.+?): (.+))\s*$"
);
lazy_re!(
    RESULT,
    r"^WorkloadResult\s+\d+: [\d,]+ op, [\d.,]+ \S+, ([\d.,]+) (\S+)/op\s*$"
);
lazy_re!(PAIR, r"(\w+) = ([\d.,]+) (\w+)");
lazy_re!(
    INTERVAL,
    r"^ConfidenceInterval = \[([\d.,]+) (\w+); ([\d.,]+) (\w+)\]"
);
lazy_re!(COUNT, r"\bN = (\d+)");

/// The BenchmarkDotNet plain-text importer.
pub struct BenchmarkDotNetPlain;

/// The statistic a `Name = value unit` pair states.
fn stat_of(name: &str) -> Option<Stat> {
    Some(match name {
        "Mean" => Stat::Mean,
        "StdErr" => Stat::Stderr,
        "StdDev" => Stat::Stddev,
        "Min" => Stat::Min,
        "Q1" => Stat::Percentile(25_000),
        "Median" => Stat::Median,
        "Q3" => Stat::Percentile(75_000),
        "Max" => Stat::Max,
        _ => return None,
    })
}

impl Format for BenchmarkDotNetPlain {
    fn name(&self) -> &'static str {
        "benchmarkdotnet-plain"
    }

    fn description(&self) -> &'static str {
        "BenchmarkDotNet plain export / console log: `*** Class.Method: Job ***`, `WorkloadResult N: … X ns/op` samples and the `Mean = …` statistics"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let results = lines_containing(src, "WorkloadResult").any(|l| RESULT.is_match(l.trim()));
        if results
            && lines_containing(src, "* Statistics for WorkloadResult")
                .next()
                .is_some()
        {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let (mut bench, mut params) = (String::new(), String::new());
        let mut in_stats = false;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            let row = |metric: &str, unit: &str| {
                Row::at(src, n)
                    .benchmark(&bench)
                    .params(&params)
                    .metric(metric)
                    .unit(unit)
            };
            if let Some(c) = HEADER.captures(t) {
                let (name, job) = match (c.get(1), c.get(3)) {
                    (Some(name), _) => (name.as_str(), &c[2]),
                    (_, Some(name)) => (name.as_str(), &c[4]),
                    _ => continue,
                };
                bench = name.to_string();
                let mut p = Params::default();
                p.set("job", job);
                params = p.render();
                in_stats = false;
                consumed.push(n);
            } else if let Some(c) = RESULT.captures(t) {
                let v = num(src, n, &c[1].replace(',', ""), "time per operation")?;
                out.push(row("time", &c[2]).sample(v));
            } else if t.starts_with("* Statistics for WorkloadResult") {
                in_stats = true;
                consumed.push(n);
            } else if in_stats && t.starts_with("ConfidenceInterval") {
                if let Some(c) = INTERVAL.captures(t) {
                    let lo = num(src, n, &c[1].replace(',', ""), "interval")?;
                    let hi = num(src, n, &c[3].replace(',', ""), "interval")?;
                    out.push(row("time", &c[2]).stat(Stat::CiLow, lo));
                    out.push(row("time", &c[4]).stat(Stat::CiHigh, hi));
                }
            } else if in_stats && t.contains(" = ") {
                let before = out.len();
                for c in PAIR.captures_iter(t) {
                    if let Some(stat) = stat_of(&c[1]) {
                        let v = num(src, n, &c[2].replace(',', ""), &c[1])?;
                        out.push(row("time", &c[3]).stat(stat, v));
                    }
                }
                if let Some(c) = COUNT.captures(t) {
                    let v = num(src, n, &c[1], "N")?;
                    out.push(row("time", "").stat(Stat::N, v));
                }
                if out.len() == before {
                    consumed.push(n);
                }
            } else if t.starts_with('[') && t.contains(") |") {
                skipped.push((n, "a bucket of the histogram (the samples are read)".into()));
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no `WorkloadResult N: … /op` line",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    #[test]
    fn samples_and_statistics_per_benchmark() {
        let p = parse_file(
            &BenchmarkDotNetPlain,
            "tests/data/harness/benchmarkdotnet/verify-plain-export.txt",
        );
        let of = |bench: &str, stat: Stat| -> Vec<(f64, String)> {
            p.observations
                .iter()
                .filter(|o| o.benchmark == bench && o.stat == stat)
                .map(|o| (o.value, o.unit.to_string()))
                .collect()
        };
        let foo = "MockBenchmarkClass.Foo";
        assert_eq!(of(foo, Stat::Sample).len(), 6);
        assert_eq!(of(foo, Stat::Sample)[0], (1.0, "ns".into()));
        assert_eq!(of(foo, Stat::Mean), [(1.0, "ns".into())]);
        assert_eq!(of(foo, Stat::N), [(6.0, String::new())]);
        assert_eq!(of(foo, Stat::Percentile(75_000)), [(1.0, "ns".into())]);
        assert_eq!(of(foo, Stat::CiHigh), [(1.0, "ns".into())]);
        let bar = &p.observations[p.observations.len() - 1];
        assert_eq!(
            (bar.benchmark.as_str(), bar.params.as_str()),
            (
                "MockBenchmarkClass.Bar",
                "job=LongRun(IterationCount;100; LaunchCount;3; WarmupCount;15)"
            )
        );
        assert_eq!(p.skipped.len(), 2);
    }
}
