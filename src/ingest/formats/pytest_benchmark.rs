//! pytest-benchmark's JSON (`--benchmark-json FILE`, and the files
//! `--benchmark-autosave` keeps under `.benchmarks/`): `machine_info`,
//! `commit_info` and `benchmarks[]`, each a test with its `stats` in
//! seconds per iteration.
//!
//! The benchmark is the test's node id without its parametrisation
//! (`test_sorts.py::test_sum_range`); the parametrisation is the params,
//! from `params` (`n=10`) or, in files written before `params` existed,
//! from the `[…]` of the name (`param=0`). Metric `time` (s): `stats.data`,
//! the time per iteration of each round where the file keeps it (5.x
//! always, older versions with `--benchmark-save-data`), as samples; the
//! stated mean, stddev, median, min, max, quartiles (`q1`, `q3` as p25,
//! p75) and `rounds` (n). `ops` (1 / mean), the outlier counts and the
//! IQR are derived from these and not read; `options` are the settings.

use crate::error::Result;
use crate::ingest::shared::logscan::Params;
use crate::ingest::shared::row::Row;
use crate::ingest::shared::structured::{finite, parse_json};
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The pytest-benchmark JSON importer.
pub struct PytestBenchmark;

#[derive(Deserialize)]
struct File {
    benchmarks: Vec<Bench>,
}

#[derive(Deserialize)]
struct Bench {
    name: String,
    #[serde(default)]
    fullname: Option<String>,
    #[serde(default)]
    params: Option<BTreeMap<String, serde_json::Value>>,
    stats: Option<Stats>,
}

#[derive(Deserialize)]
struct Stats {
    mean: f64,
    stddev: Option<f64>,
    median: Option<f64>,
    min: Option<f64>,
    max: Option<f64>,
    q1: Option<f64>,
    q3: Option<f64>,
    rounds: Option<f64>,
    #[serde(default)]
    data: Vec<f64>,
}

impl Format for PytestBenchmark {
    fn name(&self) -> &'static str {
        "pytest-benchmark"
    }

    fn description(&self) -> &'static str {
        "pytest-benchmark --benchmark-json: \"machine_info\" + \"benchmarks\":[{\"fullname\",\"stats\":{…}}]; stats.data are samples"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let raw = src.raw_trimmed();
        let keys = [
            "\"machine_info\"",
            "\"benchmarks\"",
            "\"stats\"",
            "\"rounds\"",
        ];
        if src.looks_like_json() && keys.iter().all(|k| raw.contains(k)) {
            90
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let file: File = parse_json(src, "pytest-benchmark JSON")?;
        let mut out = Vec::new();
        for b in &file.benchmarks {
            let id = b.fullname.as_deref().unwrap_or(&b.name);
            let Some(stats) = &b.stats else {
                let msg = format!("benchmark `{id}` has no \"stats\"");
                return Err(src.error(None, msg));
            };
            let (benchmark, params) = split(id, b.params.as_ref());
            let row = |stat: Stat, v: f64| -> Result<Observation> {
                finite(src, None, v, &format!("{id} {stat}"))?;
                let named = Row::at(src, 0).benchmark(benchmark).params(&params);
                Ok(named.metric("time").unit("s").stat(stat, v))
            };
            for (i, &v) in stats.data.iter().enumerate() {
                let mut o = row(Stat::Sample, v)?;
                o.run = Some(i as u32);
                out.push(o);
            }
            let stated = [
                (Stat::Mean, Some(stats.mean)),
                (Stat::Stddev, stats.stddev),
                (Stat::Median, stats.median),
                (Stat::Min, stats.min),
                (Stat::Max, stats.max),
                (Stat::percentile(25.0), stats.q1),
                (Stat::percentile(75.0), stats.q3),
                (Stat::N, stats.rounds),
            ];
            for (stat, v) in stated {
                if let Some(v) = v {
                    out.push(row(stat, v)?);
                }
            }
        }
        Parsed::found(
            src,
            out,
            Vec::new(),
            Vec::new(),
            "no benchmark in \"benchmarks\"",
        )
    }
}

/// The test's id without its `[…]` and the params it stands for.
fn split<'a>(
    id: &'a str,
    params: Option<&BTreeMap<String, serde_json::Value>>,
) -> (&'a str, String) {
    let (base, bracket) = match id.strip_suffix(']').and_then(|s| s.split_once('[')) {
        Some((base, inside)) => (base, Some(inside)),
        None => (id, None),
    };
    let text = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let mut out = Params::default();
    match (params, bracket) {
        (Some(p), _) if !p.is_empty() => p.iter().for_each(|(k, v)| out.set(k, text(v))),
        (_, Some(inside)) => out.set("param", inside),
        _ => return (id, String::new()),
    }
    (base, out.render())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_come_from_the_params_object_or_the_name() {
        let mut p = BTreeMap::new();
        p.insert("n".to_string(), serde_json::json!(10));
        p.insert("kind".to_string(), serde_json::json!("a,b"));
        assert_eq!(
            split("t.py::test_sum[10-a,b]", Some(&p)),
            ("t.py::test_sum", "kind=a;b,n=10".to_string())
        );
        assert_eq!(
            split("t.py::test_x[0]", None),
            ("t.py::test_x", "param=0".to_string())
        );
        assert_eq!(split("t.py::test_y", None), ("t.py::test_y", String::new()));
    }

    #[test]
    fn bad_files_name_the_fault() {
        let src = Source::from_text(
            "b.json",
            r#"{"machine_info":{},"benchmarks":[{"name":"t","stats":null}]}"#,
        );
        let e = PytestBenchmark.parse(&src).unwrap_err().to_string();
        assert!(
            e.contains("b.json") && e.contains("`t` has no \"stats\""),
            "{e}"
        );
        let src = Source::from_text("b.json", r#"{"machine_info":{},"benchmarks":[{"name":"t","#);
        let e = PytestBenchmark.parse(&src).unwrap_err().to_string();
        assert!(e.contains("b.json:1"), "{e}");
    }
}
