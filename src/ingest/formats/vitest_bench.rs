//! `vitest bench --outputJson FILE`: `files[]` (each a `filepath`), their
//! `groups[]` (`fullName`: the file and the `describe` blocks) and each
//! group's `benchmarks[]`, tinybench's statistics of one task in ms:
//! `mean`, `median`, `min`, `max`, `sd`, `sem`, `p75`, `p99`, `p995`,
//! `p999`, `sampleCount`, `hz` (per second), and `samples` when kept.
//!
//! Benchmark the task's `name`, parameter `group` its group's full name;
//! metric `time` (ms) with each statistic as stated (the standard error
//! as `stderr`, the sample count as n) and the samples when the file
//! keeps them; metric `throughput` its `hz` as a mean in ops/s. The rank,
//! the margin of error (`moe`, `rme`) and the t-distribution figures
//! (`df`, `critical`) follow from these.

use crate::error::Result;
use crate::ingest::shared::logscan::Params;
use crate::ingest::shared::row::Row;
use crate::ingest::shared::structured::parse_json;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};
use serde_json::{Map, Value};

/// The vitest bench JSON importer.
pub struct VitestBench;

/// tinybench's statistics of `time`, as the file names them.
const TIME_STATS: [(&str, Stat); 10] = [
    ("mean", Stat::Mean),
    ("median", Stat::Median),
    ("min", Stat::Min),
    ("max", Stat::Max),
    ("sd", Stat::Stddev),
    ("sem", Stat::Stderr),
    ("p75", Stat::Percentile(75_000)),
    ("p99", Stat::Percentile(99_000)),
    ("p995", Stat::Percentile(99_500)),
    ("p999", Stat::Percentile(99_900)),
];

impl Format for VitestBench {
    fn name(&self) -> &'static str {
        "vitest-bench"
    }

    fn description(&self) -> &'static str {
        "vitest bench --outputJson: files[].groups[].benchmarks[] of tinybench statistics (mean, median, sd, p75…p999, sampleCount, hz) in ms"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let raw = src.raw_trimmed();
        let has = |k: &str| raw.contains(k);
        if src.looks_like_json()
            && has("\"files\"")
            && has("\"groups\"")
            && has("\"benchmarks\"")
            && has("\"sampleCount\"")
            && has("\"hz\"")
        {
            95
        } else {
            0
        }
    }

    fn reads_raw(&self) -> bool {
        true
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let doc: Value = parse_json(src, "vitest bench JSON")?;
        let mut out = Vec::new();
        let list = |v: &Value, k: &str| v.get(k).and_then(Value::as_array).cloned();
        for file in list(&doc, "files").unwrap_or_default() {
            for group in list(&file, "groups").unwrap_or_default() {
                let name = group.get("fullName").and_then(Value::as_str).unwrap_or("");
                let mut params = Params::default();
                if !name.is_empty() {
                    params.set("group", name);
                }
                for b in list(&group, "benchmarks").unwrap_or_default() {
                    if let Some(b) = b.as_object() {
                        task(src, &params.render(), b, &mut out);
                    }
                }
            }
        }
        if out.is_empty() {
            return Err(src.error(
                Some(1),
                "vitest bench JSON without a benchmark's statistics (`files[].groups[].benchmarks[]`)",
            ));
        }
        Ok(Parsed::from(out))
    }
}

/// The rows of one task's statistics.
fn task(src: &Source, params: &str, b: &Map<String, Value>, out: &mut Vec<Observation>) {
    let name = b.get("name").and_then(Value::as_str).unwrap_or("");
    let row = Row::at(src, 0).benchmark(name).params(params);
    let get = |k: &str| b.get(k).and_then(Value::as_f64).filter(|v| v.is_finite());
    let time = row.clone().metric("time").unit("ms");
    for (key, stat) in TIME_STATS {
        if let Some(v) = get(key) {
            out.push(time.clone().stat(stat, v));
        }
    }
    if let Some(n) = get("sampleCount") {
        out.push(time.clone().stat(Stat::N, n));
    }
    let samples = b.get("samples").and_then(Value::as_array);
    for v in samples.into_iter().flatten().filter_map(Value::as_f64) {
        out.push(time.clone().sample(v));
    }
    if let Some(hz) = get("hz") {
        out.push(row.metric("throughput").unit("ops/s").stat(Stat::Mean, hz));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    #[test]
    fn each_task_s_statistics_in_ms() {
        let p = parse_file(&VitestBench, "tests/data/harness/vitest/bencher-two.json");
        let of = |bench: &str, metric: &str, stat: Stat| {
            p.observations
                .iter()
                .find(|o| o.benchmark == bench && o.metric == metric && o.stat == stat)
                .map(|o| (o.value, o.unit.to_string(), o.params.to_string()))
        };
        let group = "group=math.bench.ts > math".to_string();
        assert_eq!(
            of("add", "time", Stat::Mean),
            Some((1.0, "ms".into(), group))
        );
        assert_eq!(of("add", "time", Stat::Median).unwrap().0, 0.75);
        assert_eq!(of("subtract", "time", Stat::Stddev).unwrap().0, 0.5);
        assert_eq!(
            of("subtract", "time", Stat::Percentile(99_500)).unwrap().0,
            2.9
        );
        assert_eq!(of("subtract", "time", Stat::N).unwrap().0, 95.0);
        assert_eq!(of("add", "throughput", Stat::Mean).unwrap().0, 1000.0);
        assert!(p.observations.iter().all(|o| o.stat != Stat::Sample));
    }
}
