//! stress-ng's YAML results file (`-Y FILE` / `--yaml FILE`): a
//! `system-info:` block, then `metrics:` with one `- stressor: NAME` item
//! per stressor and its `key: number` lines (`bogo-ops`,
//! `bogo-ops-per-second-real-time`, `wall-clock-time`, `max-rss`, and
//! stressor-specific ones such as `nanosecs-per-context-switch-pipe-method`).
//!
//! Benchmark `stress-ng <stressor>`; each value a `sample` of the run.
//! The table's keys get the names the terminal's metrics table gives the
//! same columns (`wall-clock-time` is `real time`), and a stressor's own
//! keys the name and unit the terminal gives the phrase they were made
//! from (`mbsec-read-rate` is `read rate` in MB/s), so that the YAML and
//! the terminal text of one run join. The file does not say how many
//! instances ran; stress-ng's `cpu-usage-per-instance` is the CPU time
//! over the wall-clock time divided among them, which gives the count
//! back (the `instances` parameter of the terminal's rows). The file's
//! layout is fixed by stress-ng, so lines are read as they are written
//! instead of through a YAML parser.

use super::names;
use crate::error::Result;
use crate::ingest::shared::logscan::{has, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Observation;

/// The stress-ng YAML importer.
pub struct StressNgYaml;

/// The terminal's name and unit of a metrics-table key.
fn table_metric(key: &str) -> Option<(&'static str, &'static str)> {
    Some(match key {
        "bogo-ops" => ("bogo ops", ""),
        "bogo-ops-per-second-real-time" => ("bogo ops/s", "ops/s"),
        "bogo-ops-per-second-usr-sys-time" => ("bogo ops/s usr+sys", "ops/s"),
        "wall-clock-time" => ("real time", "s"),
        "user-time" => ("usr time", "s"),
        "system-time" => ("sys time", "s"),
        "cpu-usage-per-instance" => ("cpu used per instance", "%"),
        "max-rss" => ("rss max", "KB"),
        _ => return None,
    })
}

/// The number of instances behind one stressor's rows: usr+sys time over
/// wall-clock time, in percent, over the usage per instance; none when
/// that is not close to a whole number (no CPU time to divide).
fn instances(rows: &[Observation]) -> Option<u32> {
    let get = |m: &str| rows.iter().find(|o| o.metric == m).map(|o| o.value);
    let cpu = get("usr time")? + get("sys time")?;
    let (wall, per) = (get("real time")?, get("cpu used per instance")?);
    if cpu <= 0.0 || wall <= 0.0 || per <= 0.0 {
        return None;
    }
    let k = 100.0 * cpu / wall / per;
    ((k - k.round()).abs() < 0.05 && k.round() >= 1.0).then_some(k.round() as u32)
}

/// Gives one stressor's rows their `instances` parameter.
fn close(rows: &mut Vec<Observation>, out: &mut Vec<Observation>) {
    if let Some(k) = instances(rows) {
        let mut params = Params::default();
        params.set("instances", k.to_string());
        let params = params.render();
        for o in rows.iter_mut() {
            o.params = params.as_str().into();
        }
    }
    out.append(rows);
}

impl Format for StressNgYaml {
    fn name(&self) -> &'static str {
        "stress-ng-yaml"
    }

    fn description(&self) -> &'static str {
        "stress-ng -Y results file: `metrics:` with `- stressor: NAME` items of `key: number` lines"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if has(src, "- stressor: ") && src.lines.iter().any(|l| l.text.trim_end() == "metrics:") {
            if has(src, "stress-ng-version:") {
                98
            } else {
                80
            }
        } else {
            0
        }
    }

    /// `system-info` lines are `consumed` (context, read by `check`'s
    /// environment side); metric lines become values.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut consumed = Vec::new();
        let mut in_metrics = false;
        let mut stressor: Option<String> = None;
        let mut rows = Vec::new();
        for l in &src.lines {
            let n = l.number;
            let t = l.text.trim_end();
            if !t.starts_with(' ') && !t.starts_with('-') && t.ends_with(':') {
                in_metrics = t == "metrics:";
                stressor = None;
                close(&mut rows, &mut out);
                consumed.push(n);
                continue;
            }
            if !in_metrics {
                if !t.trim().is_empty() {
                    consumed.push(n);
                }
                continue;
            }
            let item = t.trim_start();
            if let Some(name) = item.strip_prefix("- stressor:") {
                stressor = Some(name.trim().to_string());
                close(&mut rows, &mut out);
                consumed.push(n);
                continue;
            }
            let Some((key, value)) = item.split_once(':') else {
                continue;
            };
            let Some(name) = &stressor else {
                return Err(src.error(Some(n), "metrics value before any `- stressor:` item"));
            };
            let key = key.trim();
            let v = num(src, n, value.trim(), key)?;
            let (metric, unit) = match table_metric(key) {
                Some((m, u)) => (m.to_string(), u.to_string()),
                None => names::yaml_metric(key),
            };
            rows.push(
                Row::at(src, n)
                    .benchmark(&format!("stress-ng {name}"))
                    .metric(&metric)
                    .unit(&unit)
                    .sample(v),
            );
        }
        close(&mut rows, &mut out);
        Parsed::found(
            src,
            out,
            consumed,
            Vec::new(),
            "stress-ng YAML file without metrics",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_stressors_and_their_own_metrics_are_read() {
        let p = crate::ingest::parse_file(
            &StressNgYaml,
            "tests/data/harness/stress-ng/yaml-cpu-switch.yaml",
        );
        assert_eq!(p.observations.len(), 8 + 9);
        let get = |b: &str, m: &str| {
            p.observations
                .iter()
                .find(|o| o.benchmark == b && o.metric == m)
                .map(|o| (o.value, o.unit.to_string()))
        };
        // The terminal's names of the same columns and metrics.
        assert_eq!(
            get("stress-ng cpu", "bogo ops/s"),
            Some((935.410904, "ops/s".into()))
        );
        assert_eq!(
            get("stress-ng switch", "context switch pipe method"),
            Some((2556.932382, "ns".into()))
        );
        assert_eq!(
            get("stress-ng switch", "rss max"),
            Some((2516.0, "KB".into()))
        );
        assert!(p.observations.iter().all(|o| o.params == "instances=1"));
    }

    #[test]
    fn units_and_instances_as_the_terminal_of_the_same_run_has_them() {
        let p = crate::ingest::parse_file(
            &StressNgYaml,
            "tests/data/harness/stress-ng/yaml-hdd-cache.yaml",
        );
        let get = |b: &str, m: &str| {
            p.observations
                .iter()
                .find(|o| o.benchmark == b && o.metric == m)
                .map(|o| (o.value, o.unit.to_string(), o.params.to_string()))
        };
        let row = |v: f64, u: &str| Some((v, u.to_string(), "instances=1".to_string()));
        assert_eq!(get("stress-ng hdd", "read rate"), row(4930.987096, "MB/s"));
        assert_eq!(get("stress-ng hdd", "write rate"), row(546.338775, "MB/s"));
        assert_eq!(get("stress-ng hdd", "real time"), row(2.00473, "s"));
        assert_eq!(
            get("stress-ng cache", "cache ops"),
            row(252456755.689218, "ops/s")
        );
        assert_eq!(get("stress-ng cache", "rss max"), row(493952.0, "KB"));
        assert_eq!(p.observations.len(), 11 + 11);
        // Two instances: the usage per instance is half the CPU time over
        // the wall-clock time (stress-ng's own numbers of a `--cpu 2` run).
        let two = |usr: f64, wall: f64, per: f64| {
            let o = |m: &str, v: f64| Observation::new(m, m, "", crate::model::Stat::Sample, v);
            instances(&[
                o("usr time", usr),
                o("sys time", 0.0),
                o("real time", wall),
                o("cpu used per instance", per),
            ])
        };
        assert_eq!(two(1.37, 2.0, 34.25), Some(2));
        assert_eq!(two(0.0, 2.0, 0.0), None);
    }
}
