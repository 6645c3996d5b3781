//! hyperfine `--export-json`: every `times` entry is a sample (seconds), the
//! stated mean/stddev/median/min/max are kept as summaries beside them,
//! `parameters` become params and non-zero `exit_codes` are counted.

use super::structured::{finite, parse_json};
use super::{Confidence, Format, Source};
use crate::error::Result;
use crate::model::{canonical_params, Observation, SmolStr, Stat};
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

    fn parse(&self, src: &Source) -> Result<Vec<Observation>> {
        let export: Export = parse_json(src, "hyperfine JSON")?;
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
        // One allocation for the whole table: the samples dominate (a
        // million per file is common) and regrowing a vector of rows
        // copies all of them each time.
        let rows: usize = export
            .results
            .iter()
            .map(|r| {
                r.times.as_ref().map_or(0, Vec::len)
                    + r.memory_usage_byte.as_ref().map_or(0, Vec::len)
                    + 10
            })
            .sum();
        let mut out = Vec::with_capacity(rows);
        for ((r, name), p) in export.results.iter().zip(&names).zip(&params) {
            // Every row of a result shares its names: made once here, and
            // cloned per row (no allocation, no formatting per value).
            let name = SmolStr::from(name.as_str());
            let ps = SmolStr::from(canonical_params(p));
            let template = |metric: &str, unit: &str| {
                Observation::new(name.clone(), metric, unit, Stat::Sample, 0.0)
                    .with_params_str(ps.clone())
            };
            let time = template(METRIC, "s");
            let push = |out: &mut Vec<Observation>,
                        tpl: &Observation,
                        stat: Stat,
                        v: f64,
                        run: Option<u32>|
             -> Result<()> {
                if !v.is_finite() {
                    // The message is only built when it is needed.
                    let what = format!("`{}` {} {stat}", r.command, tpl.metric);
                    return finite(src, None, v, &what).map(|_| ());
                }
                let mut o = tpl.clone();
                o.stat = stat;
                o.value = v;
                o.run = run;
                out.push(o);
                Ok(())
            };
            for (i, t) in r.times.iter().flatten().enumerate() {
                push(&mut out, &time, Stat::Sample, *t, Some(i as u32))?;
            }
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
            if let Some(n) = r.times.as_ref().map(|t| t.len()) {
                push(&mut out, &time, Stat::N, n as f64, None)?;
            }
            // hyperfine states only the mean of user and system time.
            if let Some(u) = r.user {
                push(&mut out, &template("user", "s"), Stat::Mean, u, None)?;
            }
            if let Some(s) = r.system {
                push(&mut out, &template("system", "s"), Stat::Mean, s, None)?;
            }
            if let Some(mem) = &r.memory_usage_byte {
                let memory = template("memory", "B");
                for m in mem {
                    push(&mut out, &memory, Stat::Sample, *m, None)?;
                }
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
