//! JMH's JSON result file (`-rf json`): an array with an entry per
//! benchmark and parameter set, each `benchmark`, `mode`, `threads`,
//! `params` and a `primaryMetric` (`score`, `scoreConfidence`,
//! `scorePercentiles`, `scoreUnit`, `rawData` per fork and iteration), with
//! `secondaryMetrics` of the same shape (profilers' `·gc.alloc.rate` …).
//!
//! Benchmark the method's full name; params the `params` object, the
//! mode and the thread count, which change what the score means. Metric
//! `throughput` for mode `thrpt`, `time` for the others (`avgt`, `sample`,
//! `ss`), a secondary metric by its key without the leading `·`; unit
//! `scoreUnit` as written (`ops/s`, `ns/op`). `rawData` are samples, run
//! numbered across forks; `score` is the mean, `scoreConfidence` the
//! interval (`ci_low`/`ci_high`), the percentiles as stated (0 and 100 as
//! min and max). `scoreError` is the interval's half-width and the
//! settings (iterations, times, JVM) are no measurement: not read.

use crate::error::Result;
use crate::ingest::shared::logscan::Params;
use crate::ingest::shared::row::Row;
use crate::ingest::shared::structured::{finite, parse_json};
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};
use serde_json::Value;

/// The JMH JSON importer.
pub struct JmhJson;

impl Format for JmhJson {
    fn name(&self) -> &'static str {
        "jmh-json"
    }

    fn description(&self) -> &'static str {
        "JMH -rf json: [{\"benchmark\",\"mode\",\"params\",\"primaryMetric\":{\"score\",\"scoreUnit\",\"rawData\"…}}]"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let raw = src.raw_trimmed();
        let keys = [
            "\"benchmark\"",
            "\"mode\"",
            "\"primaryMetric\"",
            "\"scoreUnit\"",
        ];
        if raw.starts_with('[') && src.looks_like_json() && keys.iter().all(|k| raw.contains(k)) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let entries: Vec<Value> = parse_json(src, "JMH JSON")?;
        let mut out = Vec::new();
        for e in &entries {
            let Some(bench) = e.get("benchmark").and_then(Value::as_str) else {
                return Err(src.error(None, "a JMH entry without \"benchmark\""));
            };
            let mode = e.get("mode").and_then(Value::as_str).unwrap_or("");
            let mut params = Params::default();
            if let Some(Value::Object(p)) = e.get("params") {
                for (k, v) in p {
                    params.set(k, v.as_str().map_or_else(|| v.to_string(), str::to_string));
                }
            }
            params.set("mode", mode);
            if let Some(t) = e.get("threads").and_then(Value::as_u64) {
                params.set("threads", t.to_string());
            }
            let params = params.render();
            let primary = if mode == "thrpt" {
                "throughput"
            } else {
                "time"
            };
            let Some(pm) = e.get("primaryMetric") else {
                return Err(src.error(None, format!("`{bench}` has no \"primaryMetric\"")));
            };
            metric(src, bench, &params, primary, pm, &mut out)?;
            if let Some(Value::Object(sec)) = e.get("secondaryMetrics") {
                for (name, m) in sec {
                    let name = name.trim_start_matches('·');
                    metric(src, bench, &params, name, m, &mut out)?;
                }
            }
        }
        Parsed::found(
            src,
            out,
            Vec::new(),
            Vec::new(),
            "no entry in the JMH array",
        )
    }
}

/// The rows of one metric object (`primaryMetric` or a secondary one).
fn metric(
    src: &Source,
    bench: &str,
    params: &str,
    name: &str,
    m: &Value,
    out: &mut Vec<Observation>,
) -> Result<()> {
    let unit = m.get("scoreUnit").and_then(Value::as_str).unwrap_or("");
    let row = |stat: Stat, v: f64| -> Result<Observation> {
        finite(src, None, v, &format!("{bench} {name} {stat}"))?;
        let r = Row::at(src, 0)
            .benchmark(bench)
            .params(params)
            .metric(name)
            .unit(unit);
        Ok(r.stat(stat, v))
    };
    let forks = m.get("rawData").and_then(Value::as_array);
    let samples = forks
        .into_iter()
        .flatten()
        .filter_map(Value::as_array)
        .flatten();
    for (i, v) in samples.filter_map(Value::as_f64).enumerate() {
        let mut o = row(Stat::Sample, v)?;
        o.run = Some(i as u32);
        out.push(o);
    }
    if let Some(score) = m.get("score").and_then(Value::as_f64) {
        out.push(row(Stat::Mean, score)?);
    }
    if let Some([lo, hi]) = m
        .get("scoreConfidence")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
    {
        if let (Some(lo), Some(hi)) = (lo.as_f64(), hi.as_f64()) {
            out.push(row(Stat::CiLow, lo)?);
            out.push(row(Stat::CiHigh, hi)?);
        }
    }
    if let Some(Value::Object(pct)) = m.get("scorePercentiles") {
        for (p, v) in pct {
            let (Ok(p), Some(v)) = (p.parse::<f64>(), v.as_f64()) else {
                continue;
            };
            let stat = match p {
                0.0 => Stat::Min,
                100.0 => Stat::Max,
                50.0 => Stat::Median,
                _ => Stat::percentile(p),
            };
            out.push(row(stat, v)?);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    // An entry of bencher's lib/bencher_adapter/tool_output/java/jmh/six.json,
    // its settings and six of its
    // percentiles cut.
    const SIX: &str = r#"[
    {
        "jmhVersion": "1.36",
        "benchmark": "com.github.caffeine.caffeine.cache.ComputeBenchmark.compute_sameKey",
        "mode": "thrpt",
        "threads": 32,
        "forks": 1,
        "measurementIterations": 3,
        "params": {
            "computeType": "Caffeine"
        },
        "primaryMetric": {
            "score": 1.5252013234402195E8,
            "scoreError": 3520320.778563123,
            "scoreConfidence": [
                1.4899981156545883E8,
                1.5604045312258506E8
            ],
            "scorePercentiles": {
                "0.0": 1.5234054788663682E8,
                "50.0": 1.524957059947031E8,
                "99.0": 1.5272414315072593E8,
                "100.0": 1.5272414315072593E8
            },
            "scoreUnit": "ops/s",
            "rawData": [
                [
                    1.524957059947031E8,
                    1.5272414315072593E8,
                    1.5234054788663682E8
                ]
            ]
        },
        "secondaryMetrics": {}
    }
]"#;

    #[test]
    fn an_entry_gives_its_samples_score_interval_and_percentiles() {
        let src = Source::from_text("j.json", SIX);
        assert_eq!(JmhJson.detect(&src), 95);
        let rows = JmhJson.parse(&src).unwrap();
        let b = "com.github.caffeine.caffeine.cache.ComputeBenchmark.compute_sameKey";
        assert!(rows.iter().all(|o| o.benchmark == b
            && o.params == "computeType=Caffeine,mode=thrpt,threads=32"
            && o.metric == "throughput"
            && o.unit == "ops/s"));
        let of = |s: Stat| {
            rows.iter()
                .filter(|o| o.stat == s)
                .map(|o| o.value)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            of(Stat::Sample),
            [
                1.524957059947031E8,
                1.5272414315072593E8,
                1.5234054788663682E8
            ]
        );
        assert_eq!(of(Stat::Mean), [1.5252013234402195E8]);
        assert_eq!(of(Stat::CiLow), [1.4899981156545883E8]);
        assert_eq!(of(Stat::CiHigh), [1.5604045312258506E8]);
        assert_eq!(of(Stat::Min), [1.5234054788663682E8]);
        assert_eq!(of(Stat::Median), [1.524957059947031E8]);
        assert_eq!(of(Stat::percentile(99.0)), [1.5272414315072593E8]);
        assert_eq!(rows.len(), 3 + 3 + 4);
    }

    #[test]
    fn an_average_time_is_a_time_and_a_nan_interval_is_no_row() {
        // An entry of a JMH 1.37 file in a public project's tests (one fork
        // of two iterations: JMH writes the interval as "NaN" strings),
        // its settings and five of its percentiles cut.
        let text = r#"[
    {
        "jmhVersion" : "1.37",
        "benchmark" : "com.github.lombrozo.xnav.XnavBenchmark.xpath",
        "mode" : "avgt",
        "threads" : 1,
        "forks" : 1,
        "primaryMetric" : {
            "score" : 8.875712588759713,
            "scoreError" : "NaN",
            "scoreConfidence" : [
                "NaN",
                "NaN"
            ],
            "scorePercentiles" : {
                "0.0" : 8.868145528261346,
                "50.0" : 8.875712588759713,
                "90.0" : 8.88327964925808,
                "95.0" : 8.88327964925808,
                "100.0" : 8.88327964925808
            },
            "scoreUnit" : "us/op",
            "rawData" : [
                [
                    8.868145528261346,
                    8.88327964925808
                ]
            ]
        },
        "secondaryMetrics" : {
        }
    }
]"#;
        let src = Source::from_text("j.json", text);
        let rows = JmhJson.parse(&src).unwrap();
        let m: Vec<(&str, &str, Stat, Option<u32>)> = rows
            .iter()
            .map(|o| (o.metric.as_str(), o.unit.as_str(), o.stat, o.run))
            .collect();
        assert_eq!(m[0], ("time", "us/op", Stat::Sample, Some(0)));
        assert_eq!(m[1], ("time", "us/op", Stat::Sample, Some(1)));
        assert_eq!(m[2], ("time", "us/op", Stat::Mean, None));
        assert!(rows
            .iter()
            .all(|o| o.stat != Stat::CiLow && o.stat != Stat::CiHigh));
        assert_eq!(rows.len(), 2 + 1 + 5);
        assert!(rows.iter().all(|o| o.params == "mode=avgt,threads=1"));
    }

    #[test]
    fn a_secondary_metric_is_named_by_its_key() {
        // The figures of a real `-prof gc` run's table line
        // (`forComplexExpr  thrpt 50 15457.886 ± 405.010 ops/ms` and its
        // `:·gc.alloc.rate.norm … 356.800 ± 13.292 B/op`) in the JSON's shape.
        let text = r#"[{"benchmark":"TestUpdateExpr.forComplexExpr","mode":"thrpt","threads":1,
          "primaryMetric":{"score":15457.886,"scoreError":405.010,"scoreUnit":"ops/ms"},
          "secondaryMetrics":{"·gc.alloc.rate.norm":{"score":356.800,"scoreError":13.292,"scoreUnit":"B/op"}}}]"#;
        let src = Source::from_text("j.json", text);
        let rows = JmhJson.parse(&src).unwrap();
        let m: Vec<(&str, &str, f64)> = rows
            .iter()
            .map(|o| (o.metric.as_str(), o.unit.as_str(), o.value))
            .collect();
        assert_eq!(
            m,
            [
                ("throughput", "ops/ms", 15457.886),
                ("gc.alloc.rate.norm", "B/op", 356.8)
            ]
        );
    }

    #[test]
    fn other_json_arrays_are_not_jmh() {
        let src = Source::from_text("j.json", r#"[{"benchmark":"x","value":1}]"#);
        assert_eq!(JmhJson.detect(&src), 0);
    }
}
