//! airspeed velocity's (asv) stored results: the JSON file `asv run`
//! writes per commit and environment (`results/MACHINE/HASH-ENV.json`),
//! and the two files beside them that hold no result.
//!
//! A results file names its commit (`commit_hash`), environment
//! (`env_name`) and machine (`params`: `machine`, `os`, `ram` …), and
//! under `results` one entry per benchmark. Version 2 stores each entry as
//! an array laid out by `result_columns` (`result`, `params`, `version`,
//! `started_at`, `duration`, `stats_ci_99_a`, `stats_ci_99_b`,
//! `stats_q_25`, `stats_q_75`, `stats_number`, `stats_repeat`, `samples`,
//! `profile`); version 1 stores a number, `null`, or an object with
//! `result` and `params`. `result` holds one value per combination of the
//! benchmark's parameters (the product of the `params` lists, the last
//! varying fastest), `null` where that combination failed or was skipped.
//!
//! Benchmark the dotted name; parameters `param1=…`, `param2=…` (the
//! names are in `benchmarks.json`, not here; asv's own default names), the
//! values without their quotes. A `time_` benchmark is metric `time` in
//! seconds, its result the `median` asv reports, its `samples` each a
//! `sample` and its quartiles percentiles 25 and 75; any other kind
//! (`track_`, `mem_`, `peakmem_`) is metric `value` (bytes for the memory
//! kinds), its result a `sample`. The commit, machine, date, start times,
//! durations and benchmark versions are context, not measurements. A
//! combination without a result is accounted with the reason.
//!
//! `benchmarks.json` (every benchmark's definition: code, parameters,
//! unit, timeout) and `machine.json` (the machine's description) are
//! recognised and accounted as holding no measurement.

use crate::error::Result;
use crate::ingest::shared::logscan::Params;
use crate::ingest::shared::row::Row;
use crate::ingest::shared::structured::{parse_json, parse_json_str, raw_lines};
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Stat;
use serde_json::{Map, Value};

/// The asv results importer.
pub struct AsvResults;

/// What kind of asv JSON file an input is.
#[derive(Debug, PartialEq)]
enum Kind {
    Results,
    Definitions,
    Machine,
}

fn kind(src: &Source) -> Option<Kind> {
    if !src.looks_like_json() {
        return None;
    }
    let raw = src.raw_trimmed();
    let has = |k: &str| raw.contains(k);
    if has("\"commit_hash\"") && has("\"results\"") && (has("\"env_name\"") || has("\"python\"")) {
        return Some(Kind::Results);
    }
    if has("\"param_names\"") && has("\"code\"") && has("\"timeout\"") && has("\"type\"") {
        return Some(Kind::Definitions);
    }
    let machine = [
        "\"machine\"",
        "\"arch\"",
        "\"num_cpu\"",
        "\"ram\"",
        "\"os\"",
    ];
    if machine.iter().all(|k| has(k)) && !has("\"results\"") && raw.len() < 4096 {
        return Some(Kind::Machine);
    }
    None
}

impl Format for AsvResults {
    fn name(&self) -> &'static str {
        "asv-results"
    }

    fn description(&self) -> &'static str {
        "asv's stored results JSON (`commit_hash`, `env_name`, `results` by `result_columns`); \
         its benchmarks.json and machine.json are recognised as holding no result"
    }

    fn detect(&self, src: &Source) -> Confidence {
        match kind(src) {
            Some(Kind::Results) => 95,
            Some(_) => 90,
            None => 0,
        }
    }

    fn reads_raw(&self) -> bool {
        true
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        // Python's json module writes a skipped benchmark's result as a
        // bare `NaN`, which JSON has no token for.
        let doc: Value = match parse_json(src, "asv JSON") {
            Ok(doc) => doc,
            Err(e) => match bare_nan_as_null(&src.raw) {
                Some(text) => parse_json_str(src, &text, 0, "asv JSON").map_err(|_| e)?,
                None => return Err(e),
            },
        };
        let Some(obj) = doc.as_object() else {
            return Err(src.error(Some(1), "asv JSON that is not an object"));
        };
        let why = match kind(src) {
            Some(Kind::Definitions) => {
                "asv's benchmarks.json: the benchmarks' definitions (code, parameters, units), \
                 no result; the results are the JSON files beside it"
            }
            Some(Kind::Machine) => "asv's machine.json: the machine's description, no result",
            _ => return results(src, obj),
        };
        // Every line of the file is what the reason says: none is left
        // to the account of lines nobody read.
        Ok(Parsed {
            skipped: vec![(1, why.to_string())],
            consumed: raw_lines(src).map(|(n, _)| n).filter(|&n| n > 1).collect(),
            ..Parsed::default()
        })
    }
}

/// Version 2's columns when a file does not list them.
const COLUMNS: [&str; 5] = ["result", "params", "version", "started_at", "duration"];

/// The rows of a results file.
fn results(src: &Source, doc: &Map<String, Value>) -> Result<Parsed> {
    let columns: Vec<&str> = match doc.get("result_columns").and_then(Value::as_array) {
        Some(c) => c.iter().map(|v| v.as_str().unwrap_or("")).collect(),
        None => COLUMNS.to_vec(),
    };
    let Some(entries) = doc.get("results").and_then(Value::as_object) else {
        return Err(src.error(Some(1), "asv results JSON without a `results` object"));
    };
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    for (name, entry) in entries {
        // Version 2: an array by column; version 1: the result itself or
        // an object holding it.
        let field = |col: &str| -> Option<&Value> {
            match entry {
                Value::Array(cells) => columns
                    .iter()
                    .position(|c| *c == col)
                    .and_then(|i| cells.get(i)),
                Value::Object(o) => o.get(col),
                other if col == "result" => Some(other),
                _ => None,
            }
        };
        let line = line_of(src, name);
        let result: Vec<Option<f64>> = match field("result") {
            Some(Value::Array(v)) => v.iter().map(number).collect(),
            // A benchmark that failed as a whole (its setup, an import)
            // has one `null` for all its combinations.
            None | Some(Value::Null) => {
                skipped.push((
                    line,
                    format!("asv result of {name} is null: failed or skipped"),
                ));
                continue;
            }
            Some(v) => vec![number(v)],
        };
        let combos = combinations(field("params"));
        if combos.len() != result.len() {
            return Err(src.error(
                Some(line),
                format!(
                    "asv result of {name}: {} values for {} parameter combinations",
                    result.len(),
                    combos.len()
                ),
            ));
        }
        let (metric, unit, stat) = kind_of(name);
        let per_combo = |col: &str, i: usize| -> Option<&Value> {
            field(col).and_then(Value::as_array).and_then(|a| a.get(i))
        };
        for (i, (params, value)) in combos.iter().zip(&result).enumerate() {
            let Some(value) = value else {
                let shown = if params.is_empty() {
                    String::new()
                } else {
                    format!(" ({params})")
                };
                skipped.push((
                    line,
                    format!("asv result of {name}{shown} is null: failed or skipped"),
                ));
                continue;
            };
            let row = Row::at(src, 0)
                .benchmark(name)
                .params(params)
                .metric(metric)
                .unit(unit);
            out.push(row.clone().stat(stat, *value));
            if metric != "time" {
                continue;
            }
            if let Some(Value::Array(samples)) = per_combo("samples", i) {
                for (run, s) in samples.iter().filter_map(number).enumerate() {
                    let mut o = row.clone().sample(s);
                    o.run = Some(run as u32);
                    out.push(o);
                }
            }
            for (col, p) in [("q_25", 25.0), ("q_75", 75.0)] {
                // Version 2's `stats_q_25` column, version 1's `stats`
                // objects.
                let v2 = per_combo(&format!("stats_{col}"), i);
                let v1 = || per_combo("stats", i).and_then(|s| s.get(col));
                if let Some(q) = v2.or_else(v1).and_then(number) {
                    out.push(row.clone().stat(Stat::percentile(p), q));
                }
            }
        }
    }
    if out.is_empty() && skipped.is_empty() {
        return Err(src.error(Some(1), "asv results JSON without a result"));
    }
    Ok(Parsed {
        observations: out,
        skipped,
        ..Parsed::default()
    })
}

/// A finite number, or none (`null`, `NaN`, text).
fn number(v: &Value) -> Option<f64> {
    v.as_f64().filter(|x| x.is_finite())
}

/// Metric, unit and the stat of the result of the benchmark `name`, from
/// its kind (the prefix of its last dotted part).
fn kind_of(name: &str) -> (&'static str, &'static str, Stat) {
    let last = name.rsplit('.').next().unwrap_or(name);
    if last.starts_with("time_") {
        ("time", "s", Stat::Median)
    } else if last.starts_with("mem_") || last.starts_with("peakmem_") {
        ("value", "B", Stat::Sample)
    } else {
        ("value", "", Stat::Sample)
    }
}

/// Each combination of a benchmark's parameter lists, rendered, in the
/// order asv stores results (the last list varying fastest); one empty
/// combination for a benchmark without parameters.
fn combinations(params: Option<&Value>) -> Vec<String> {
    let lists: Vec<Vec<String>> = params
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|l| {
            l.as_array()
                .into_iter()
                .flatten()
                .map(|v| match v {
                    Value::String(s) => unquote(s).to_string(),
                    other => other.to_string(),
                })
                .collect()
        })
        .collect();
    let mut combos: Vec<Vec<(String, String)>> = vec![Vec::new()];
    for (k, list) in lists.iter().enumerate() {
        let key = format!("param{}", k + 1);
        let mut next = Vec::with_capacity(combos.len() * list.len());
        for c in &combos {
            for v in list {
                let mut c = c.clone();
                c.push((key.clone(), v.clone()));
                next.push(c);
            }
        }
        combos = next;
    }
    combos
        .into_iter()
        .map(|c| {
            let mut p = Params::default();
            for (k, v) in &c {
                p.set(k, v);
            }
            p.render()
        })
        .collect()
}

/// A parameter's `repr` without its quotes (`'tp'` → `tp`).
fn unquote(s: &str) -> &str {
    for q in ['\'', '"'] {
        if let Some(inner) = s.strip_prefix(q).and_then(|r| r.strip_suffix(q)) {
            return inner;
        }
    }
    s
}

/// The line of the key `name` under `results` in the raw text (1 when
/// not found): other per-benchmark maps (version 1's `started_at` …)
/// repeat the name.
fn line_of(src: &Source, name: &str) -> u32 {
    let key = format!("\"{name}\"");
    let from = src.raw.find("\"results\"").unwrap_or(0);
    match src.raw[from..].find(&key) {
        Some(at) => src.raw[..from + at].matches('\n').count() as u32 + 1,
        None => 1,
    }
}

/// `raw` with every `NaN`, `Infinity` and `-Infinity` outside a string
/// written as `null`, or none when it holds none.
fn bare_nan_as_null(raw: &str) -> Option<String> {
    let mut out = String::with_capacity(raw.len());
    let (mut in_string, mut escaped, mut changed) = (false, false, false);
    let mut rest = raw;
    while let Some(c) = rest.chars().next() {
        if in_string {
            in_string = escaped || c != '"';
            escaped = !escaped && c == '\\';
        } else if c == '"' {
            in_string = true;
        } else if let Some(token) = ["NaN", "-Infinity", "Infinity"]
            .into_iter()
            .find(|t| rest.starts_with(t))
        {
            out.push_str("null");
            rest = &rest[token.len()..];
            changed = true;
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    fn read(file: &str) -> Parsed {
        parse_file(&AsvResults, &format!("tests/data/harness/asv/{file}"))
    }

    /// (params, metric, unit, stat, value) of `benchmark`'s rows, in order.
    fn rows(p: &Parsed, benchmark: &str) -> Vec<(String, String, String, Stat, f64)> {
        p.observations
            .iter()
            .filter(|o| o.benchmark == benchmark)
            .map(|o| {
                let params = o.params.to_string();
                (
                    params,
                    o.metric.to_string(),
                    o.unit.to_string(),
                    o.stat,
                    o.value,
                )
            })
            .collect()
    }

    #[test]
    fn version_2_one_value_per_combination_of_parameters() {
        let p = read("results-v2-b83371ea.json");
        let qps = rows(&p, "benchmarks.TensorflowMLPerfSuite.track_QPS_mobilenet");
        assert_eq!(
            qps,
            [("".into(), "value".into(), "".into(), Stat::Sample, 16.78)]
        );
        let img = rows(
            &p,
            "imagebench.TensorflowImageClassification.track_image_classification",
        );
        assert_eq!(img.len(), 12);
        let combo = |m: &str, lib: &str, batch: &str| {
            format!("param1={m},param2={lib},param3=16,param4=16,param5={batch}")
        };
        assert_eq!(img[0].0, combo("inception_v3", "tp", "1"));
        assert_eq!(img[0].4, 133.57);
        assert_eq!(
            (img[2].0.clone(), img[2].4),
            (combo("inception_v3", "tp", "32"), 2728.31)
        );
        assert_eq!(
            (img[3].0.clone(), img[3].4),
            (combo("inception_v3", "eigen", "1"), 125.15)
        );
        assert_eq!(
            (img[6].0.clone(), img[6].4),
            (combo("nasnet_mobile", "tp", "1"), 63.28)
        );
        assert_eq!(
            (img[11].0.clone(), img[11].4),
            (combo("nasnet_mobile", "eigen", "32"), 737.37)
        );
        // The date, start times, durations and the machine's RAM are no
        // values: 1 + 1 + 12 rows.
        assert_eq!(p.observations.len(), 14);
        assert!(p.skipped.is_empty());
    }

    #[test]
    fn null_results_are_accounted_whole_or_per_combination() {
        let p = read("results-v2-d05bench-4c377d72.json");
        assert_eq!(p.observations.len(), 356);
        assert_eq!(p.skipped.len(), 10);
        let b5 = "imagebench.TensorflowAccuracyImageClassification.track_accuracy_efficientnet_b5";
        let read = rows(&p, b5);
        assert_eq!(read.len(), 1);
        assert_eq!(
            read[0].0,
            "param1=efficientnet_b5,param2=eigen,param3=16,param4=16,param5=1"
        );
        assert_eq!(read[0].4, 0.0013558894861489534);
        assert!(p.skipped.iter().any(|(_, why)| why
            == &format!(
                "asv result of {b5} (param1=efficientnet_b5,param2=tp,param3=16,param4=16,\
                 param5=1) is null: failed or skipped"
            )));
        assert!(p
            .skipped
            .iter()
            .any(|(_, why)| why.contains("track_efficientnetv2_l is null")));
    }

    #[test]
    fn version_1_numbers_objects_and_a_bare_nan() {
        let p = read("results-v1-cheetah-nan.json");
        let t = |b: &str| rows(&p, b);
        assert_eq!(
            t("time_coordinates.time_latitude"),
            [(
                "".into(),
                "time".into(),
                "s".into(),
                Stat::Median,
                0.0004540278911590576
            )]
        );
        assert_eq!(
            t("time_units.mem_unit"),
            [("".into(), "value".into(), "B".into(), Stat::Sample, 344.0)]
        );
        assert_eq!(t("time_secondary.track_value")[0].4, 42.0);
        let params: Vec<(String, f64)> = t("time_other.time_parameterized")
            .into_iter()
            .map(|r| (r.0, r.4))
            .collect();
        assert_eq!(
            params,
            [
                ("param1=1".into(), 1.0),
                ("param1=2".into(), 2.0),
                ("param1=3".into(), 3.0)
            ]
        );
        let big: Vec<(Stat, f64)> = t("time_ci_big").into_iter().map(|r| (r.3, r.4)).collect();
        assert_eq!(
            big,
            [
                (Stat::Median, 1.0),
                (Stat::percentile(25.0), 0.5),
                (Stat::percentile(75.0), 2.5)
            ]
        );
        // `null` and `NaN`: failed and skipped, on their lines.
        let lines: Vec<u32> = p.skipped.iter().map(|(n, _)| *n).collect();
        assert_eq!(lines, [18, 19]);
        assert!(p.observations.iter().all(|o| o.benchmark != "date"));
    }

    #[test]
    fn definitions_and_machine_files_hold_no_result() {
        for (file, why) in [
            ("benchmarks.json", "asv's benchmarks.json"),
            ("machine.json", "asv's machine.json"),
        ] {
            let p = read(file);
            assert!(p.observations.is_empty(), "{file}");
            assert!(p.skipped[0].1.starts_with(why), "{file}");
        }
    }
}
