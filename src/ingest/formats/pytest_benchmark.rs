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
    /// Kept as JSON values: a file cut by hand may put a note among the
    /// numbers, which is left out with its line rather than refusing the
    /// file.
    #[serde(default)]
    data: Vec<serde_json::Value>,
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
        let mut skipped = Vec::new();
        let mut cursor = 0;
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
            for (i, v) in stats.data.iter().enumerate() {
                let Some(v) = v.as_f64() else {
                    let why = format!("an element of `{id}`'s \"data\" that is no number: {v}");
                    skipped.push((line_holding(src, &v.to_string(), &mut cursor), why));
                    continue;
                };
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
            skipped,
            "no benchmark in \"benchmarks\"",
        )
    }
}

/// The first line from `from` on whose text holds `needle` (a JSON value
/// as written), so that what is left out is named by its line; `from`
/// moves past it, as the benchmarks come in the order of the file. 0 (the
/// whole input) when the writer put it otherwise.
fn line_holding(src: &Source, needle: &str, from: &mut usize) -> u32 {
    match src.lines[*from..]
        .iter()
        .position(|l| l.text.contains(needle))
    {
        Some(k) => {
            *from += k + 1;
            src.lines[*from - 1].number
        }
        None => 0,
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
    fn a_note_among_the_samples_is_left_out_with_its_line() {
        // Lines of github-action-benchmark's test/data/extract/pytest_output.json,
        // whose writers cut `data` short with a note.
        let text = r#"{"machine_info": {}, "benchmarks": [{"name": "test_fib_10",
 "stats": {"min": 2.1775999999862045e-05, "max": 0.0001007429999999079,
  "mean": 2.4088733589499285e-05, "rounds": 38523,
  "data": [
   3.215300000025678e-05,
   2.8706999999794647e-05,
   "... omitted to keep this file small"
  ]}},
 {"name": "test_fib_20", "stats": {"mean": 0.002, "data": [
   0.0021,
   "... omitted to keep this file small"
  ]}}]}"#;
        let src = Source::from_text("p.json", text);
        let parsed = PytestBenchmark.parse_accounted(&src).unwrap();
        let samples: Vec<f64> = parsed
            .observations
            .iter()
            .filter(|o| o.stat == Stat::Sample)
            .map(|o| o.value)
            .collect();
        assert_eq!(
            samples,
            [3.215300000025678e-05, 2.8706999999794647e-05, 0.0021]
        );
        assert_eq!(parsed.observations.len(), 2 + 4 + 2);
        let lines: Vec<u32> = parsed.skipped.iter().map(|s| s.0).collect();
        assert_eq!(lines, [7, 11]);
        assert!(parsed.skipped[0].1.contains("test_fib_10"));
        assert!(parsed.skipped[1].1.contains("test_fib_20"));
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
