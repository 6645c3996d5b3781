//! The generic reader of JSON no importer recognises: a document, or JSON
//! lines (one document per line), read by its structure.
//!
//! Every number of the tree is a value. Its metric is the path of object
//! keys down to it (`latency.p99`); what tells values of one metric apart
//! becomes a parameter: a numeric key (`"thread": {"0": …}` → `thread=0`),
//! the index of an array of objects (`runs[2]` → `runs=2`) and the
//! name-like string fields of the objects around it (`"op": "read"` →
//! `op=read`). A `name`/`benchmark`/`test`/`command` string names the
//! benchmark of its object; otherwise the benchmark is the file's stem.
//! An array of numbers is a list of samples of its key. A unit is taken
//! from a key's suffix (`duration_ms`, `lat_ns`, `time_sec`), else from
//! a `unit` string beside the number in its object. Strings,
//! booleans and nulls hold no value. Each value is a `sample`.

use crate::error::Result;
use crate::ingest::shared::logscan::Params;
use crate::ingest::shared::row::Row;
use crate::ingest::{Parsed, Source};
use crate::model::Observation;
use serde_json::{Map, Value};

/// String fields that name the benchmark of the object they sit in.
const BENCHMARK_KEYS: [&str; 6] = ["benchmark", "bench", "name", "test", "command", "title"];

/// String fields that tell the objects of a list apart.
const PARAM_KEYS: [&str; 14] = [
    "id",
    "label",
    "case",
    "variant",
    "mode",
    "type",
    "op",
    "operation",
    "job",
    "jobname",
    "group",
    "suite",
    "scenario",
    "workload",
];

/// What the values below a point of the tree share.
#[derive(Clone)]
struct Ctx {
    benchmark: String,
    params: Params,
    path: Vec<String>,
    /// The unit an object's `unit` string states for its own numbers.
    unit: Option<String>,
}

/// Reads `src` as JSON, or as JSON lines; `None` when it is neither.
pub(super) fn read(src: &Source, stem: &str) -> Option<Result<Parsed>> {
    let root = Ctx {
        benchmark: stem.to_string(),
        params: Params::default(),
        path: Vec::new(),
        unit: None,
    };
    let mut out = Vec::new();
    let whole = match serde_json::from_str::<Value>(src.raw_trimmed()) {
        Ok(doc) => {
            walk(src, 0, &doc, &root, &mut out);
            return Some(Ok(out.into()));
        }
        Err(e) => e,
    };
    if whole.is_eof() {
        if let Some(read) = read_cut(src, &root) {
            return Some(Ok(read));
        }
    }
    if whole.is_syntax() {
        if let Some((text, lines)) = super::literals::python_literals(src.raw_trimmed()) {
            if let Ok(doc) = serde_json::from_str::<Value>(&text) {
                walk(src, 0, &doc, &root, &mut out);
                // The literal's line in the file: the trimmed text starts at its first non-blank line.
                let first = src
                    .lines
                    .iter()
                    .find(|l| !l.text.trim().is_empty())
                    .map_or(1, |l| l.number);
                let skipped = lines
                    .into_iter()
                    .map(|n| {
                        (
                            n + first - 1,
                            "NaN or Infinity: Python's JSON for a value not measured".to_string(),
                        )
                    })
                    .collect();
                return Some(Ok(Parsed {
                    observations: out,
                    skipped,
                    ..Parsed::default()
                }));
            }
        }
    }
    // JSON lines: every non-blank line a document of its own.
    let mut documents = 0;
    for (i, line) in src.raw.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        let Ok(doc) = serde_json::from_str::<Value>(t) else {
            return malformed(src, &whole);
        };
        documents += 1;
        walk(src, i as u32 + 1, &doc, &root, &mut out);
    }
    (documents > 0).then(|| Ok(out.into()))
}

/// A document cut short: the values it completed, and each line after
/// the cut accounted as cut off.
fn read_cut(src: &Source, root: &Ctx) -> Option<Parsed> {
    let (text, cut) = super::cut::mend(src.raw_trimmed())?;
    let doc = serde_json::from_str::<Value>(&text).ok()?;
    let mut out = Vec::new();
    walk(src, 0, &doc, root, &mut out);
    if out.is_empty() {
        return None;
    }
    let skipped = src
        .lines
        .iter()
        .filter(|l| l.number > cut && !l.text.trim().is_empty())
        .map(|l| {
            let why = format!("the JSON document is cut short after line {cut}: this part of a value was never completed");
            (l.number, why)
        })
        .collect();
    Some(Parsed {
        observations: out,
        skipped,
        ..Parsed::default()
    })
}

/// Neither one document nor JSON lines. A document cut short, or an
/// object that opens with a key, is JSON gone wrong, not text to read
/// some other way: any reading of it would be of fragments. Other text
/// that starts with a bracket (`[  5] local …`) is left to other readers,
/// and so is a complete document followed by text (a tool's JSON settings
/// above the command and its console table, as PHPBench's documentation
/// shows a run): the text is the matter.
fn malformed(src: &Source, whole: &serde_json::Error) -> Option<Result<Parsed>> {
    let object = src
        .raw_trimmed()
        .strip_prefix('{')
        .is_some_and(|rest| rest.trim_start().starts_with(['"', '}']));
    let raw = src.raw_trimmed();
    let mut docs = serde_json::Deserializer::from_str(raw).into_iter::<serde::de::IgnoredAny>();
    let first_complete = docs.next().is_some_and(|first| first.is_ok());
    // Not more JSON (a bad line of JSON lines is JSON gone wrong).
    let rest = raw[docs.byte_offset()..].trim_start();
    let complete_then_text = first_complete && !rest.is_empty() && !rest.starts_with(['{', '[']);
    let gone_wrong = whole.is_eof() || (object && whole.is_syntax() && !complete_then_text);
    gone_wrong.then(|| {
        Err(src.error(
            Some(whole.line() as u32),
            format!("malformed JSON: {whole}"),
        ))
    })
}

fn walk(src: &Source, line: u32, v: &Value, ctx: &Ctx, out: &mut Vec<Observation>) {
    match v {
        Value::Number(n) => {
            if let Some(x) = n.as_f64().filter(|x| x.is_finite()) {
                push(src, line, ctx, x, out);
            }
        }
        Value::Array(items) => {
            let objects = items.iter().any(Value::is_object);
            for (i, item) in items.iter().enumerate() {
                let mut c = ctx.clone();
                // Samples of one key are its runs; objects are told apart by
                // their index unless a name of their own does it.
                if objects && !names_itself(item) {
                    let key = ctx.path.last().cloned().unwrap_or_else(|| "item".into());
                    c.params.set(&key, i.to_string());
                }
                walk(src, line, item, &c, out);
            }
        }
        Value::Object(map) => {
            let c = with_names(ctx, map);
            // `{"name": …, "unit": "ns", "value": 90.9}`: the unit of the
            // object's own numbers, not of the objects below it.
            let unit = ["unit", "units"]
                .iter()
                .find_map(|k| map.get(*k).and_then(Value::as_str))
                .filter(|u| !u.trim().is_empty());
            for (k, child) in map {
                let mut cc = c.clone();
                cc.unit = match child {
                    Value::Number(_) | Value::Array(_) => unit.map(|u| u.trim().to_string()),
                    _ => None,
                };
                if is_index(k) {
                    let key = c.path.last().cloned().unwrap_or_else(|| "key".into());
                    cc.params.set(&key, k);
                } else {
                    cc.path.push(k.clone());
                }
                walk(src, line, child, &cc, out);
            }
        }
        _ => {}
    }
}

/// Whether an object carries a name-like string field of its own.
fn names_itself(v: &Value) -> bool {
    v.as_object().is_some_and(|m| {
        BENCHMARK_KEYS
            .iter()
            .chain(PARAM_KEYS.iter())
            .any(|k| m.get(*k).is_some_and(Value::is_string))
    })
}

/// `ctx` with the names an object's string fields give.
fn with_names(ctx: &Ctx, map: &Map<String, Value>) -> Ctx {
    let mut c = ctx.clone();
    if let Some(name) = BENCHMARK_KEYS
        .iter()
        .find_map(|k| map.get(*k).and_then(Value::as_str))
        .filter(|s| !s.trim().is_empty())
    {
        c.benchmark = name.trim().to_string();
        // The path above a named object only said where it sat.
        c.path.clear();
    }
    for k in PARAM_KEYS {
        if let Some(s) = map.get(k).and_then(Value::as_str) {
            c.params.set(k, s);
        }
    }
    c
}

/// A key that numbers its entry (`"0"`, `"12"`, `"99.9"`) rather than
/// naming a quantity.
fn is_index(k: &str) -> bool {
    !k.is_empty() && k.parse::<f64>().is_ok()
}

/// The unit a key's suffix states, and the key without it.
fn unit_of(key: &str) -> (&str, &'static str) {
    const SUFFIXES: [(&str, &str); 10] = [
        ("_ns", "ns"),
        ("_nsec", "ns"),
        ("_us", "us"),
        ("_usec", "us"),
        ("_ms", "ms"),
        ("_msec", "ms"),
        ("_sec", "s"),
        ("_seconds", "s"),
        ("_secs", "s"),
        ("_bytes", "B"),
    ];
    for (suffix, unit) in SUFFIXES {
        if let Some(stem) = key.strip_suffix(suffix).filter(|s| !s.is_empty()) {
            return (stem, unit);
        }
    }
    (key, "")
}

fn push(src: &Source, line: u32, ctx: &Ctx, x: f64, out: &mut Vec<Observation>) {
    let (last, suffix) = ctx.path.last().map(|k| unit_of(k)).unwrap_or(("value", ""));
    let unit = match (suffix, &ctx.unit) {
        ("", Some(stated)) => stated.as_str(),
        _ => suffix,
    };
    let mut metric: Vec<&str> = ctx.path[..ctx.path.len().saturating_sub(1)]
        .iter()
        .map(String::as_str)
        .collect();
    metric.push(last);
    out.push(
        Row::at(src, line)
            .benchmark(&ctx.benchmark)
            .params(&ctx.params.render())
            .metric(&metric.join("."))
            .unit(unit)
            .sample(x),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str) -> Vec<crate::ingest::testing::RowView> {
        let src = Source::from_text("bench-out.json", text);
        crate::ingest::testing::views(&read(&src, "bench-out").unwrap().unwrap().observations)
    }

    #[test]
    fn a_unit_string_beside_a_number_is_its_unit() {
        // Two entries of github-action-benchmark's
        // test/data/extract/customSmallerIsBetter_output2.json, and an object
        // below one whose numbers the outer unit does not reach.
        let got = rows(
            r#"[
  {"name": "No instrumentation", "unit": "ns", "value": 90.9439, "range": 0.519165},
  {"name": "Binary file", "unit": "ns", "value": 3886.75, "extra": {"count": 4}}
]"#,
        );
        let units: Vec<(&str, &str, f64)> = got
            .iter()
            .map(|r| (r.2.as_str(), r.3.as_str(), r.4))
            .collect();
        assert_eq!(
            units,
            [
                ("range", "ns", 0.519165),
                ("value", "ns", 90.9439),
                ("extra.count", "", 4.0),
                ("value", "ns", 3886.75),
            ]
        );
    }

    #[test]
    fn numbers_are_named_by_their_path_and_told_apart_by_indices() {
        let got =
            rows(r#"{"version": "1.2", "thread": {"0": {"min": 1, "max_us": 90}}, "ok": true}"#);
        assert_eq!(
            got,
            [
                (
                    "bench-out".into(),
                    "thread=0".into(),
                    "thread.max".into(),
                    "us".into(),
                    90.0
                ),
                (
                    "bench-out".into(),
                    "thread=0".into(),
                    "thread.min".into(),
                    "".into(),
                    1.0
                ),
            ]
        );
    }

    #[test]
    fn python_s_bare_nan_is_a_value_not_measured_not_malformed_json() {
        // Lines of asv's example results (its test data): Python's json
        // module writes a skipped benchmark's result as a bare NaN.
        let text = "{\n    \"results\": {\n\t\"time_AAA_failure\": null,\n\t\"time_AAA_skip\": NaN,\n        \"time_coordinates.time_latitude\": 0.0004540278911590576\n    }\n}";
        let src = Source::from_text("r.json", text);
        let p = read(&src, "r").unwrap().unwrap();
        assert_eq!(p.observations.len(), 1);
        assert_eq!(p.observations[0].value, 0.0004540278911590576);
        assert_eq!(p.skipped.len(), 1);
        assert_eq!(p.skipped[0].0, 4);
    }

    #[test]
    fn named_objects_name_their_benchmark_and_lists_are_samples() {
        let got = rows(
            r#"{"results": [{"name": "fork", "op": "spawn", "times": [1.5, 1.25]},
                            {"name": "exec", "times": [2]}]}"#,
        );
        assert_eq!(
            got,
            [
                (
                    "fork".into(),
                    "op=spawn".into(),
                    "times".into(),
                    "".into(),
                    1.5
                ),
                (
                    "fork".into(),
                    "op=spawn".into(),
                    "times".into(),
                    "".into(),
                    1.25
                ),
                ("exec".into(), "".into(), "times".into(), "".into(), 2.0),
            ]
        );
        // Objects without a name are told apart by their index.
        let got = rows(r#"{"runs": [{"tps": 10}, {"tps": 12}]}"#);
        assert_eq!(got[1].1, "runs=1");
        assert_eq!(got[1].2, "runs.tps");
    }

    #[test]
    fn json_cut_short_is_an_error_at_its_line_not_text() {
        let cut = Source::from_text(
            "r.json",
            "{\"benchmarks\": [\n  {\"name\": \"telco\",\n   \"values\": [0.01,",
        );
        let err = read(&cut, "r").unwrap().unwrap_err().to_string();
        assert!(
            err.contains("r.json:3") && err.contains("malformed JSON"),
            "{err}"
        );
        // An object with a stray byte is JSON gone wrong too.
        let bad = Source::from_text("r.json", "{\"a\": 1,, \"b\": 2}");
        assert!(read(&bad, "r").unwrap().is_err());
        // Text that merely opens with a bracket is left to other readers.
        let log = Source::from_text(
            "r.txt",
            "[  5] local 127.0.0.1 port 5201\n[  5] 0.00-1.00 sec\n",
        );
        assert!(read(&log, "r").is_none());
        // So is text after a complete document (PHPBench's documentation:
        // the run's JSON settings, the command, then its console table),
        // but not more JSON gone wrong after it.
        let doc = Source::from_text(
            "run-reports-aggregate",
            "{\n    \"runner.path\": \"NothingBench.php\"\n}\n---\nphpbench run --report=aggregate\n",
        );
        assert!(read(&doc, "r").is_none());
        let bad = Source::from_text("r.json", "{\"a\": 1}\n{\"b\": 2,,}\n");
        assert!(read(&bad, "r").unwrap().is_err());
    }

    #[test]
    fn json_cut_after_complete_values_gives_them_and_accounts_the_rest() {
        let cut = Source::from_text(
            "m.json",
            "{\"stats\": [\n {\"usr\": 6.33, \"idle\": 86.08},\n {\"usr\": 12.0, \"idle\"",
        );
        let p = read(&cut, "m").unwrap().unwrap();
        let mut got: Vec<f64> = p.observations.iter().map(|o| o.value).collect();
        got.sort_by(f64::total_cmp);
        assert_eq!(got, [6.33, 86.08]);
        assert_eq!(p.skipped.len(), 1);
        assert_eq!(p.skipped[0].0, 3);
    }

    #[test]
    fn json_lines_keep_their_line_numbers() {
        let src = Source::from_text(
            "log.jsonl",
            "{\"t\": 1, \"lat\": 5}\n\n{\"t\": 2, \"lat\": 7}\n",
        );
        let obs = read(&src, "log").unwrap().unwrap().observations;
        let lines: Vec<u32> = obs.iter().map(|o| o.line).collect();
        assert_eq!(lines, [1, 1, 3, 3]);
        assert!(read(&Source::from_text("x", "{ not json"), "x").is_none());
    }
}
