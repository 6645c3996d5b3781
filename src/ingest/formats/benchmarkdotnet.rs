//! BenchmarkDotNet's JSON exports (`*-report-full.json`,
//! `*-report-brief.json`, `*-report.json`): `HostEnvironmentInfo` and
//! `Benchmarks[]`, each with `Namespace`, `Type`, `Method`, `Parameters`
//! (`N=10, Size=100`), the job in `DisplayInfo` after `: ` (its id before the
//! settings in brackets), and
//! `Statistics` of the time per operation in nanoseconds.
//!
//! Benchmark `FullName`, or the namespace, type and method joined by dots
//! when the file has no `FullName`; params the `Parameters` and the job
//! (two jobs of one method, another runtime say, are two series). Metric
//! `time` (ns): `OriginalValues` (the time per operation of each workload
//! iteration) as samples, and the stated mean, standard deviation and
//! error, median, min, max, n, `Q1`/`Q3` as p25/p75, the confidence
//! interval's bounds and the percentiles between the quartiles and the
//! maximum. `Memory.BytesAllocatedPerOperation` is metric `allocated` in
//! bytes. The raw `Measurements` (every stage, overhead included) are
//! what the statistics summarise; the fences, outliers, variance, skewness
//! and kurtosis are derived, and GC counts are over a total the run
//! chose: none is read. A benchmark without statistics (it failed) is
//! left out with the reason.

use crate::error::Result;
use crate::ingest::shared::logscan::Params;
use crate::ingest::shared::row::Row;
use crate::ingest::shared::structured::{finite, parse_json};
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};
use serde_json::Value;

/// The BenchmarkDotNet JSON importer.
pub struct BenchmarkDotNet;

impl Format for BenchmarkDotNet {
    fn name(&self) -> &'static str {
        "benchmarkdotnet-json"
    }

    fn description(&self) -> &'static str {
        "BenchmarkDotNet JSON export: \"HostEnvironmentInfo\" + \"Benchmarks\":[{\"Method\",\"Statistics\":{…}}], times in ns"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let raw = src.raw_trimmed();
        let keys = [
            "\"HostEnvironmentInfo\"",
            "\"Benchmarks\"",
            "\"Statistics\"",
        ];
        if src.looks_like_json() && keys.iter().all(|k| raw.contains(k)) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let file: Value = parse_json(src, "BenchmarkDotNet JSON")?;
        let benches = file.get("Benchmarks").and_then(Value::as_array);
        let mut out = Vec::new();
        let mut skipped = Vec::new();
        for b in benches.into_iter().flatten() {
            let text = |k: &str| b.get(k).and_then(Value::as_str).filter(|s| !s.is_empty());
            let name = match text("FullName") {
                Some(f) => f.to_string(),
                None => ["Namespace", "Type", "Method"]
                    .iter()
                    .filter_map(|k| text(k))
                    .collect::<Vec<_>>()
                    .join("."),
            };
            let mut params = Params::default();
            for pair in text("Parameters").unwrap_or("").split(", ") {
                if let Some((k, v)) = pair.split_once('=') {
                    params.set(k, v);
                }
            }
            // The job's id, without the settings in brackets it is made of
            // (`ShortRun(IterationCount=3, …)`): ids are unique in a run.
            if let Some((_, job)) = text("DisplayInfo").and_then(|d| d.split_once(": ")) {
                params.set("job", job.split('(').next().unwrap_or(job));
            }
            let params = params.render();
            let Some(stats) = b.get("Statistics").filter(|s| s.is_object()) else {
                skipped.push((
                    0,
                    format!("`{name}` has no statistics (it failed or did not run)"),
                ));
                continue;
            };
            let row = |metric: &str, unit: &str, stat: Stat, v: f64| -> Result<Observation> {
                finite(src, None, v, &format!("{name} {metric} {stat}"))?;
                let r = Row::at(src, 0).benchmark(&name).params(&params);
                Ok(r.metric(metric).unit(unit).stat(stat, v))
            };
            let samples = stats.get("OriginalValues").and_then(Value::as_array);
            for (i, v) in samples
                .into_iter()
                .flatten()
                .filter_map(Value::as_f64)
                .enumerate()
            {
                let mut o = row("time", "ns", Stat::Sample, v)?;
                o.run = Some(i as u32);
                out.push(o);
            }
            let num = |v: &Value, k: &str| v.get(k).and_then(Value::as_f64);
            let ci = stats.get("ConfidenceInterval").unwrap_or(&Value::Null);
            let pct = stats.get("Percentiles").unwrap_or(&Value::Null);
            let stated = [
                (Stat::Mean, num(stats, "Mean")),
                (Stat::Stddev, num(stats, "StandardDeviation")),
                (Stat::Stderr, num(stats, "StandardError")),
                (Stat::Median, num(stats, "Median")),
                (Stat::Min, num(stats, "Min")),
                (Stat::Max, num(stats, "Max")),
                (Stat::N, num(stats, "N")),
                (Stat::percentile(25.0), num(stats, "Q1")),
                (Stat::percentile(75.0), num(stats, "Q3")),
                (Stat::CiLow, num(ci, "Lower")),
                (Stat::CiHigh, num(ci, "Upper")),
                (Stat::percentile(67.0), num(pct, "P67")),
                (Stat::percentile(80.0), num(pct, "P80")),
                (Stat::percentile(85.0), num(pct, "P85")),
                (Stat::percentile(90.0), num(pct, "P90")),
                (Stat::percentile(95.0), num(pct, "P95")),
            ];
            for (stat, v) in stated {
                if let Some(v) = v {
                    out.push(row("time", "ns", stat, v)?);
                }
            }
            let memory = b.get("Memory").unwrap_or(&Value::Null);
            if let Some(bytes) = num(memory, "BytesAllocatedPerOperation") {
                out.push(row("allocated", "B", Stat::Mean, bytes)?);
            }
        }
        Parsed::found(
            src,
            out,
            Vec::new(),
            skipped,
            "no benchmark with statistics in \"Benchmarks\"",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // A benchmark of bencher's lib/bencher_adapter/tool_output/c_sharp/dot_net/memory.json
    // (BenchmarkDotNet 0.15.8), its Measurements, quartiles, percentiles
    // and derived statistics cut.
    const MEMORY: &str = r#"{
    "Title":"BenchmarkDotNet.Samples.Memory-20260315-231008",
    "HostEnvironmentInfo":{ "BenchmarkDotNetVersion":"0.15.8" },
    "Benchmarks":[
        {
            "DisplayInfo":"Memory.AllocEmptyList: ShortRun(IterationCount=3, LaunchCount=1, WarmupCount=3)",
            "Namespace":"BenchmarkDotNet.Samples",
            "Type":"Memory",
            "Method":"AllocEmptyList",
            "MethodTitle":"AllocEmptyList",
            "Parameters":"",
            "FullName":"BenchmarkDotNet.Samples.Memory.AllocEmptyList",
            "Statistics":{
                "OriginalValues":[
                    76.35858058929443,
                    77.41812467575073,
                    78.70677709579468
                ],
                "N":3,
                "Min":76.35858058929443,
                "Median":77.41812467575073,
                "Mean":77.49449412027995,
                "Max":78.70677709579468,
                "StandardError":0.6789405784819621,
                "StandardDeviation":1.175959577250963,
                "ConfidenceInterval":{
                    "N":3,
                    "Mean":77.49449412027995,
                    "StandardError":0.6789405784819621,
                    "Level":12,
                    "Margin":21.453880306796293,
                    "Lower":56.04061381348366,
                    "Upper":98.94837442707625
                }
            },
            "Memory":{
                "Gen0Collections":184,
                "Gen1Collections":0,
                "Gen2Collections":0,
                "TotalOperations":8388608,
                "BytesAllocatedPerOperation":368
            }
        }
    ]
}"#;

    #[test]
    fn statistics_and_allocation_of_a_benchmark() {
        let src = Source::from_text("m.json", MEMORY);
        assert_eq!(BenchmarkDotNet.detect(&src), 95);
        let rows = BenchmarkDotNet.parse(&src).unwrap();
        assert!(rows.iter().all(|o| o.benchmark
            == "BenchmarkDotNet.Samples.Memory.AllocEmptyList"
            && o.params == "job=ShortRun"));
        let of = |m: &str, s: Stat| {
            rows.iter()
                .filter(|o| o.metric == m && o.stat == s)
                .map(|o| (o.value, o.unit.to_string()))
                .collect::<Vec<_>>()
        };
        let samples = of("time", Stat::Sample);
        assert_eq!(samples.len(), 3);
        assert_eq!(samples[0], (76.35858058929443, "ns".into()));
        assert_eq!(of("time", Stat::Mean), [(77.49449412027995, "ns".into())]);
        assert_eq!(
            of("time", Stat::Stderr),
            [(0.6789405784819621, "ns".into())]
        );
        assert_eq!(of("time", Stat::CiHigh), [(98.94837442707625, "ns".into())]);
        assert_eq!(of("time", Stat::N), [(3.0, "ns".into())]);
        assert_eq!(of("allocated", Stat::Mean), [(368.0, "B".into())]);
        assert_eq!(rows.len(), 3 + 9 + 1);
    }

    #[test]
    fn a_file_without_full_names_joins_namespace_type_and_method() {
        // bencher's c_sharp/dot_net/null_namespace.json, with a second
        // entry made here, without statistics, for the rule that leaves it out.
        let text = r#"{
    "HostEnvironmentInfo": {
    },
    "Benchmarks": [
        {
            "Namespace": null,
            "Method": "NullNamespaceMethod",
            "Statistics": {
                "Median": 0,
                "Mean": 0,
                "InterquartileRange": 0,
                "StandardDeviation": 0
            }
        },
        {
            "Namespace": "A",
            "Type": "B",
            "Method": "Failed",
            "Statistics": null
        }
    ]
}"#;
        let src = Source::from_text("n.json", text);
        let parsed = BenchmarkDotNet.parse_accounted(&src).unwrap();
        let rows = parsed.observations;
        assert_eq!(rows.len(), 3);
        assert!(rows
            .iter()
            .all(|o| o.benchmark == "NullNamespaceMethod" && o.params.is_empty()));
        assert_eq!(parsed.skipped.len(), 1);
        assert!(parsed.skipped[0]
            .1
            .contains("`A.B.Failed` has no statistics"));
    }
}
