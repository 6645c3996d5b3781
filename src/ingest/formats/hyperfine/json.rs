//! hyperfine `--export-json`: every `times` entry is a sample (seconds), the
//! stated mean/stddev/median/min/max are kept as summaries beside them,
//! `parameters` become params and non-zero `exit_codes` are counted.

use crate::error::Result;
use crate::ingest::shared::structured::{
    finite, parse_json, Bail, Cursor, Fast, JsonCursor, StreamCursor,
};
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{canonical_params, Dataset, Observation, SmolStr, Stat};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The hyperfine JSON export importer.
pub struct HyperfineJson;

#[derive(Deserialize)]
struct Export {
    results: Vec<HfResult>,
}

#[derive(Deserialize)]
struct HfResult {
    command: String,
    mean: f64,
    #[serde(default)]
    stddev: Option<f64>,
    #[serde(default)]
    median: Option<f64>,
    #[serde(default)]
    user: Option<f64>,
    #[serde(default)]
    system: Option<f64>,
    #[serde(default)]
    min: Option<f64>,
    #[serde(default)]
    max: Option<f64>,
    #[serde(default)]
    times: Option<Vec<f64>>,
    #[serde(default)]
    memory_usage_byte: Option<Vec<f64>>,
    /// `null` entries are runs killed by a signal.
    #[serde(default)]
    exit_codes: Option<FailedRuns>,
    #[serde(default)]
    parameters: BTreeMap<String, serde_json::Value>,
}

/// Metric name hyperfine results are filed under (wall-clock time).
pub(crate) const METRIC: &str = "time";

impl Format for HyperfineJson {
    fn name(&self) -> &'static str {
        "hyperfine-json"
    }

    fn description(&self) -> &'static str {
        "hyperfine --export-json: {\"results\":[{\"command\":…,\"times\":[…]}]}; times are samples in s"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let raw = src.raw_trimmed();
        if src.looks_like_json()
            && raw.contains("\"results\"")
            && raw.contains("\"command\"")
            && raw.contains("\"mean\"")
        {
            90
        } else {
            0
        }
    }

    fn reads_raw(&self) -> bool {
        true
    }

    fn streams(&self) -> bool {
        true
    }

    fn parse_streamed(
        &self,
        head: &Source,
        reader: &mut dyn std::io::Read,
        size: u64,
    ) -> Result<Option<Parsed>> {
        // The fast reader on the file a window at a time: what it gives
        // for the text read whole. Anything it gives up on is read whole.
        let mut c = StreamCursor::new(reader, Some(size));
        let export = match read_export(&mut c) {
            Ok(e) if c.intact() => e,
            _ => return Ok(None),
        };
        Ok(Some(Parsed {
            bulk: rows(head, export)?,
            ..Parsed::default()
        }))
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        // The fast reader gives the same `Export` or gives up, and serde
        // then reads (or refuses) the document exactly as before.
        let text = src.raw.trim_start_matches('\u{feff}');
        let export = match read_fast(text) {
            Ok(e) => e,
            Err(Bail) => parse_json(src, "hyperfine JSON")?,
        };
        Ok(Parsed {
            bulk: rows(src, export)?,
            ..Parsed::default()
        })
    }
}

/// The tidy rows of an export, stored by column: an export of ten
/// million samples is 8 bytes a sample (lines unknown, runs counting up),
/// not an observation each. The samples of the first result are taken
/// over as they were parsed, not copied.
fn rows(src: &Source, mut export: Export) -> Result<Dataset> {
    let params: Vec<Vec<(String, String)>> = export
        .results
        .iter()
        .map(|r| {
            r.parameters
                .iter()
                .map(|(k, v)| (k.clone(), json_scalar(v)))
                .collect()
        })
        .collect();
    let commands: Vec<&str> = export.results.iter().map(|r| r.command.as_str()).collect();
    let names = command_templates(&commands, &params);
    let mut out = Dataset::default();
    for ((r, name), p) in export.results.iter_mut().zip(&names).zip(&params) {
        // Every row of a result shares its names: made once here, and
        // cloned per row (no allocation, no formatting per value).
        let name = SmolStr::from(name.as_str());
        let ps = SmolStr::from(canonical_params(p));
        let template = |metric: &str, unit: &str| {
            Observation::new(name.clone(), metric, unit, Stat::Sample, 0.0)
                .with_params_str(ps.clone())
        };
        let time = template(METRIC, "s");
        // The error for a value that is not finite; the message is only
        // built when it is needed.
        let refuse = |tpl: &Observation, stat: Stat, v: f64| -> Result<()> {
            let what = format!("`{}` {} {stat}", r.command, tpl.metric);
            finite(src, None, v, &what).map(|_| ())
        };
        let push = |out: &mut Dataset,
                    tpl: &Observation,
                    stat: Stat,
                    v: f64,
                    run: Option<u32>|
         -> Result<()> {
            if !v.is_finite() {
                return refuse(tpl, stat, v);
            }
            let mut o = tpl.clone();
            o.stat = stat;
            o.value = v;
            o.run = run;
            out.push(o);
            Ok(())
        };
        // Samples (a million per file) are checked first, so that they
        // are stored by one loop without a test each.
        let samples = |out: &mut Dataset,
                       tpl: &Observation,
                       values: Vec<f64>,
                       numbered: bool|
         -> Result<()> {
            if let Some(&bad) = values.iter().find(|v| !v.is_finite()) {
                refuse(tpl, Stat::Sample, bad)?;
            }
            out.push_values_vec(tpl, values, numbered.then_some(0));
            Ok(())
        };
        let n_times = r.times.as_ref().map(|t| t.len());
        samples(&mut out, &time, r.times.take().unwrap_or_default(), true)?;
        push(&mut out, &time, Stat::Mean, r.mean, None)?;
        for (stat, v) in [
            (Stat::Stddev, r.stddev),
            (Stat::Median, r.median),
            (Stat::Min, r.min),
            (Stat::Max, r.max),
        ] {
            if let Some(v) = v {
                push(&mut out, &time, stat, v, None)?;
            }
        }
        if let Some(n) = n_times {
            push(&mut out, &time, Stat::N, n as f64, None)?;
        }
        // hyperfine states only the mean of user and system time.
        if let Some(u) = r.user {
            push(&mut out, &template("user", "s"), Stat::Mean, u, None)?;
        }
        if let Some(s) = r.system {
            push(&mut out, &template("system", "s"), Stat::Mean, s, None)?;
        }
        if let Some(mem) = r.memory_usage_byte.take() {
            samples(&mut out, &template("memory", "B"), mem, false)?;
        }
        // `-i` hides failures on the console; a failing command's
        // timings measure something else, so count them visibly.
        if let Some(FailedRuns(failed)) = r.exit_codes {
            if failed > 0 {
                let tpl = template("failed_runs", "");
                push(&mut out, &tpl, Stat::Total, failed as f64, None)?;
            }
        }
    }
    Ok(out)
}

/// Reads an export with [`Cursor`]: what serde would give for the same
/// text, or [`Bail`] for anything it does not handle (a duplicate field,
/// a missing one, results as arrays, invalid JSON).
fn read_fast(text: &str) -> Fast<Export> {
    read_export(&mut Cursor::new(text))
}

/// [`read_fast`] with any cursor: the text in memory, or a file read a
/// window at a time.
fn read_export(c: &mut impl JsonCursor) -> Fast<Export> {
    let mut results = None;
    c.object(|c, key| {
        if key != "results" {
            return c.value_text().map(|_| ());
        }
        if results.is_some() {
            return Err(Bail);
        }
        let mut list = Vec::new();
        c.array(|c| {
            list.push(read_result(c)?);
            Ok(())
        })?;
        results = Some(list);
        Ok(())
    })?;
    c.end()?;
    Ok(Export {
        results: results.ok_or(Bail)?,
    })
}

/// One `results` entry (see [`read_fast`]).
fn read_result(c: &mut impl JsonCursor) -> Fast<HfResult> {
    fn once<T>(slot: &mut Option<T>, v: T) -> Fast<()> {
        match slot.replace(v) {
            Some(_) => Err(Bail),
            None => Ok(()),
        }
    }
    let (mut command, mut mean) = (None, None);
    let mut stated: [Option<Option<f64>>; 6] = [None; 6];
    let (mut times, mut memory, mut exit_codes, mut parameters) = (None, None, None, None);
    c.object(|c, key| {
        let stat = ["stddev", "median", "user", "system", "min", "max"]
            .iter()
            .position(|k| *k == key);
        if let Some(i) = stat {
            let v = if c.null() { None } else { Some(c.number()?) };
            return once(&mut stated[i], v);
        }
        match key {
            "command" => once(&mut command, c.string()?.into_owned()),
            "mean" => once(&mut mean, c.number()?),
            "times" | "memory_usage_byte" => {
                let v = if c.null() {
                    None
                } else {
                    let mut v = Vec::new();
                    c.numbers(&mut v)?;
                    Some(v)
                };
                once(
                    if key == "times" {
                        &mut times
                    } else {
                        &mut memory
                    },
                    v,
                )
            }
            "exit_codes" => {
                let v = if c.null() {
                    None
                } else {
                    let mut failed = 0;
                    c.array(|c| {
                        // Compact exports: runs that succeeded, four at a
                        // time (none of them counts).
                        c.skip_copies(b"0,0,0,0,");
                        if c.null() || c.integer()? != 0 {
                            failed += 1;
                        }
                        Ok(())
                    })?;
                    Some(FailedRuns(failed))
                };
                once(&mut exit_codes, v)
            }
            "parameters" => {
                let mut map = BTreeMap::new();
                c.object(|c, k| {
                    let v = serde_json::from_str(c.value_text()?).map_err(|_| Bail)?;
                    map.insert(k.to_string(), v);
                    Ok(())
                })?;
                once(&mut parameters, map)
            }
            _ => c.value_text().map(|_| ()),
        }
    })?;
    let [stddev, median, user, system, min, max] = stated.map(Option::flatten);
    Ok(HfResult {
        command: command.ok_or(Bail)?,
        mean: mean.ok_or(Bail)?,
        stddev,
        median,
        user,
        system,
        min,
        max,
        times: times.flatten(),
        memory_usage_byte: memory.flatten(),
        exit_codes: exit_codes.flatten(),
        parameters: parameters.unwrap_or_default(),
    })
}

/// The number of runs whose exit code is not 0 (a `null` code is a run
/// killed by a signal). Counted while parsing: the codes themselves (one
/// per run) are not needed.
struct FailedRuns(usize);

impl<'de> Deserialize<'de> for FailedRuns {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct Count;
        impl<'de> serde::de::Visitor<'de> for Count {
            type Value = FailedRuns;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a sequence")
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<FailedRuns, A::Error> {
                let mut failed = 0;
                while let Some(code) = seq.next_element::<Option<i64>>()? {
                    if code != Some(0) {
                        failed += 1;
                    }
                }
                Ok(FailedRuns(failed))
            }
        }
        d.deserialize_seq(Count)
    }
}

/// A JSON parameter value as text (hyperfine writes strings; be lenient).
fn json_scalar(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Benchmark names for hyperfine results. A parameter scan runs one command
/// template with `{name}` filled in; to group the scan as one benchmark with
/// a `params` sweep, the template is recovered by putting each parameter
/// value back as `{key}` where that yields the same text for every result.
/// Results without parameters keep their command.
pub(crate) fn command_templates(
    commands: &[&str],
    params: &[Vec<(String, String)>],
) -> Vec<String> {
    let candidates: Vec<Vec<String>> = commands
        .iter()
        .zip(params)
        .map(|(c, p)| templates_of(c, p))
        .collect();
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for cands in &candidates {
        let mut seen = std::collections::BTreeSet::new();
        for c in cands {
            if seen.insert(c.as_str()) {
                *count.entry(c.as_str()).or_default() += 1;
            }
        }
    }
    commands
        .iter()
        .zip(&candidates)
        .zip(params)
        .map(|((cmd, cands), p)| {
            if p.is_empty() {
                return cmd.to_string();
            }
            let best = cands
                .iter()
                .max_by_key(|c| count.get(c.as_str()).copied().unwrap_or(0));
            match best {
                Some(b) if count.get(b.as_str()).copied().unwrap_or(0) > 1 => b.clone(),
                _ => cmd.to_string(),
            }
        })
        .collect()
}

/// Every text obtained by replacing one occurrence of each parameter value
/// with `{key}` (bounded: commands are short).
fn templates_of(cmd: &str, params: &[(String, String)]) -> Vec<String> {
    let mut cur = vec![cmd.to_string()];
    for (k, v) in params {
        if v.is_empty() {
            continue;
        }
        let mut next = Vec::new();
        for c in &cur {
            for (i, _) in c.match_indices(v.as_str()) {
                next.push(format!("{}{{{k}}}{}", &c[..i], &c[i + v.len()..]));
                if next.len() >= 256 {
                    break;
                }
            }
        }
        if !next.is_empty() {
            cur = next;
        }
    }
    cur
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast reader gives exactly serde's rows where it reads a
    /// document, and gives up on what serde refuses or reads differently.
    #[test]
    fn fast_reader_gives_serde_rows_or_gives_up() {
        let corpus = |f: &str| {
            let p = format!("{}/tests/data/corpus/{f}", env!("CARGO_MANIFEST_DIR"));
            std::fs::read_to_string(p).unwrap()
        };
        let docs = [
            (corpus("hyperfine-baseline-1.json"), true),
            (corpus("hyperfine_scan-baseline-1.json"), true),
            (corpus("hyperfine_fail-baseline-1.json"), true),
            (
                r#"{"results":[{"command":"a\"b","mean":1,"times":[1,2e-3,-0.0],
                "exit_codes":[0,null,2],"memory_usage_byte":[5],"median":null,
                "parameters":{"n":3,"m":true,"n":"4"},"extra":{"x":[1,{"y":null}]}}],"x":1}"#
                    .to_string(),
                true,
            ),
            (
                r#"{"results":[{"command":"a","mean":1,"times":[1],"times":[2]}]}"#.to_string(),
                false,
            ),
            (
                r#"{"results":[{"command":"a","mean":1,"exit_codes":[-0]}]}"#.to_string(),
                false,
            ),
            (
                r#"{"results":[{"command":"a","mean":1,"exit_codes":[1.0]}]}"#.to_string(),
                false,
            ),
            (
                r#"{"results":[{"command":"a","times":[1]}]}"#.to_string(),
                false,
            ),
            (r#"{"results":[["a",1]]}"#.to_string(), false),
            (
                r#"{"results":[{"command":"a","mean":1}]} x"#.to_string(),
                false,
            ),
            (
                r#"{"results":[{"command":"a","mean":1,"parameters":null}]}"#.to_string(),
                false,
            ),
        ];
        for (doc, fast) in &docs {
            let src = Source::from_text("h.json", doc);
            let by_serde = parse_json::<Export>(&src, "hyperfine JSON").map(|e| rows(&src, e));
            match read_fast(doc) {
                Ok(e) => {
                    assert!(fast, "{doc}");
                    let by_serde = by_serde.unwrap().unwrap();
                    assert!(!by_serde.is_empty());
                    assert_eq!(rows(&src, e).unwrap(), by_serde, "{doc}");
                }
                Err(Bail) => assert!(!fast, "{doc}"),
            }
        }
    }

    /// Every hyperfine export of the corpus and of the harness tests, read
    /// from disk a few bytes at a time (every token cut somewhere by the
    /// end of a read) as a large file is: the rows the text read whole
    /// gives. A malformed one is given up on, for the whole reading to
    /// name its line.
    #[test]
    fn streamed_reading_gives_the_rows_of_the_whole_text() {
        use crate::ingest::Trickle;
        let root = env!("CARGO_MANIFEST_DIR");
        let mut files: Vec<_> = [
            "tests/data/corpus/hyperfine*.json",
            "tests/data/harness/hyperfine/*.json",
        ]
        .iter()
        .flat_map(|g| glob::glob(&format!("{root}/{g}")).unwrap().flatten())
        .collect();
        files.sort();
        assert!(files.len() >= 12, "{files:?}");
        for f in &files {
            let bytes = std::fs::read(f).unwrap();
            let src = Source::from_bytes("h.json", &bytes).unwrap();
            let whole = HyperfineJson.parse_accounted(&src).unwrap();
            assert!(!whole.bulk.is_empty());
            for step in [1, 3, 4096, usize::MAX] {
                let mut r = Trickle {
                    bytes: &bytes,
                    step,
                };
                let size = bytes.len() as u64;
                let streamed = HyperfineJson.parse_streamed(&src, &mut r, size).unwrap();
                assert_eq!(streamed.as_ref(), Some(&whole), "{f:?} step {step}");
            }
        }
        let cut = r#"{"results":[{"command":"a","mean":1,"times":[1,2,"#;
        let src = Source::from_text("h.json", cut);
        let mut r = Trickle {
            bytes: cut.as_bytes(),
            step: 2,
        };
        assert!(HyperfineJson
            .parse_streamed(&src, &mut r, 0)
            .unwrap()
            .is_none());
    }

    /// Exports of any length in the layouts hyperfine and generators
    /// write (compact or indented, exit codes with failures and killed
    /// runs anywhere in long runs of zeros, samples of every precision):
    /// the fast reader reads them, to serde's rows.
    #[test]
    fn fast_reader_gives_serde_rows_on_generated_exports() {
        use proptest::prelude::*;
        let code =
            prop_oneof![12 => Just("0"), 1 => Just("1"), 1 => Just("null"), 1 => Just("137")];
        let result = (
            proptest::collection::vec(code, 0..40),
            proptest::collection::vec((0u64..100_000_000_000, 0u32..13), 0..40),
        );
        proptest::proptest!(|(
            results in proptest::collection::vec(result, 1..4),
            pretty in any::<bool>(),
        )| {
            let sep = if pretty { ",\n        " } else { "," };
            let docs: Vec<String> = results
                .iter()
                .enumerate()
                .map(|(i, (codes, times))| {
                    let times: Vec<String> = times
                        .iter()
                        .map(|&(t, digits)| {
                            let scale = 10u64.pow(digits);
                            let frac = t % scale;
                            if digits == 0 {
                                format!("{}", t / scale)
                            } else {
                                format!("{}.{frac:0w$}", t / scale, w = digits as usize)
                            }
                        })
                        .collect();
                    format!(
                        r#"{{"command": "cmd {i}", "mean": 0.1, "stddev": 0.005, "times": [{}], "exit_codes": [{}]}}"#,
                        times.join(sep),
                        codes.join(sep)
                    )
                })
                .collect();
            let doc = format!(r#"{{"results": [{}]}}"#, docs.join(", "));
            let src = Source::from_text("h.json", &doc);
            let by_serde = parse_json::<Export>(&src, "hyperfine JSON").unwrap();
            let fast = read_fast(&doc);
            prop_assert!(fast.is_ok(), "{}", doc);
            prop_assert_eq!(rows(&src, fast.unwrap()).unwrap(), rows(&src, by_serde).unwrap());
        });
    }

    /// The rows of one result, in order, with every field that differs
    /// between them (memory samples carry no run number).
    #[test]
    fn rows_of_a_result_with_memory_samples() {
        let doc = r#"{"results":[{"command":"sleep 0.1","mean":0.2,"median":0.25,
            "user":0.01,"times":[0.1,0.3],"memory_usage_byte":[4096,8192],
            "exit_codes":[0,1],"parameters":{"d":"0.1"}}]}"#;
        let src = Source::from_text("h.json", doc);
        let rows = rows(&src, read_fast(doc).unwrap()).unwrap();
        let got: Vec<(&str, &str, Stat, f64, Option<u32>)> = rows
            .rows()
            .map(|o| {
                assert_eq!(o.benchmark, "sleep 0.1");
                assert_eq!(o.params, "d=0.1");
                assert!(o.source.is_empty() && o.variant.is_empty() && o.line == 0);
                (&*o.head.metric, &*o.head.unit, o.stat, o.value, o.run)
            })
            .collect();
        let want = [
            ("time", "s", Stat::Sample, 0.1, Some(0)),
            ("time", "s", Stat::Sample, 0.3, Some(1)),
            ("time", "s", Stat::Mean, 0.2, None),
            ("time", "s", Stat::Median, 0.25, None),
            ("time", "s", Stat::N, 2.0, None),
            ("user", "s", Stat::Mean, 0.01, None),
            ("memory", "B", Stat::Sample, 4096.0, None),
            ("memory", "B", Stat::Sample, 8192.0, None),
            ("failed_runs", "", Stat::Total, 1.0, None),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn scan_commands_collapse_to_their_template() {
        let cmds = ["xz -1 -T1 -c f", "xz -1 -T2 -c f"];
        let p = vec![
            vec![("threads".to_string(), "1".to_string())],
            vec![("threads".to_string(), "2".to_string())],
        ];
        assert_eq!(
            command_templates(&cmds, &p),
            vec!["xz -1 -T{threads} -c f"; 2]
        );
        let none: Vec<Vec<(String, String)>> = vec![vec![], vec![]];
        assert_eq!(command_templates(&["a", "b"], &none), vec!["a", "b"]);
    }
}
