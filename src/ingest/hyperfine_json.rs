//! hyperfine `--export-json`: every `times` entry is a sample (seconds), the
//! stated mean/stddev/median/min/max are kept as summaries beside them,
//! `parameters` become params and non-zero `exit_codes` are counted.

use super::structured::{finite, parse_json};
use super::{Confidence, Format, Source};
use crate::error::Result;
use crate::model::{canonical_params, Observation, Stat};
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
    exit_codes: Option<Vec<Option<i64>>>,
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
        let mut out = Vec::new();
        for ((r, name), p) in export.results.iter().zip(&names).zip(&params) {
            let ps = canonical_params(p);
            let push = |out: &mut Vec<Observation>,
                        metric: &str,
                        unit: &str,
                        stat: Stat,
                        v: f64|
             -> Result<()> {
                let v = finite(src, None, v, &format!("`{}` {metric} {stat}", r.command))?;
                out.push(
                    Observation::new(name.as_str(), metric, unit, stat, v)
                        .with_params_str(ps.clone()),
                );
                Ok(())
            };
            for (i, t) in r.times.iter().flatten().enumerate() {
                push(&mut out, METRIC, "s", Stat::Sample, *t)?;
                if let Some(o) = out.last_mut() {
                    o.run = Some(i as u32);
                }
            }
            push(&mut out, METRIC, "s", Stat::Mean, r.mean)?;
            for (stat, v) in [
                (Stat::Stddev, r.stddev),
                (Stat::Median, r.median),
                (Stat::Min, r.min),
                (Stat::Max, r.max),
            ] {
                if let Some(v) = v {
                    push(&mut out, METRIC, "s", stat, v)?;
                }
            }
            if let Some(n) = r.times.as_ref().map(|t| t.len()) {
                push(&mut out, METRIC, "s", Stat::N, n as f64)?;
            }
            // hyperfine states only the mean of user and system time.
            if let Some(u) = r.user {
                push(&mut out, "user", "s", Stat::Mean, u)?;
            }
            if let Some(s) = r.system {
                push(&mut out, "system", "s", Stat::Mean, s)?;
            }
            for m in r.memory_usage_byte.iter().flatten() {
                push(&mut out, "memory", "B", Stat::Sample, *m)?;
            }
            if let Some(codes) = &r.exit_codes {
                // `-i` hides failures on the console; a failing command's
                // timings measure something else, so count them visibly.
                let failed = codes.iter().filter(|c| **c != Some(0)).count();
                if failed > 0 {
                    push(&mut out, "failed_runs", "", Stat::Total, failed as f64)?;
                }
            }
        }
        Ok(out)
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
