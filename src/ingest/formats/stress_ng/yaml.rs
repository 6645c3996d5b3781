//! stress-ng's YAML results file (`-Y FILE` / `--yaml FILE`): a
//! `system-info:` block, then `metrics:` with one `- stressor: NAME` item
//! per stressor and its `key: number` lines (`bogo-ops`,
//! `bogo-ops-per-second-real-time`, `wall-clock-time`, `max-rss`, and
//! stressor-specific ones such as `nanosecs-per-context-switch-pipe-method`).
//!
//! Benchmark `stress-ng <stressor>`; the metric is the key with `-` read as
//! a space; each value a `sample` of the run. The file's layout is fixed by
//! stress-ng, so lines are read as they are written instead of through a
//! YAML parser.

use crate::error::Result;
use crate::ingest::shared::logscan::{has, num};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

/// The stress-ng YAML importer.
pub struct StressNgYaml;

/// The unit of a metrics key.
fn unit_of(key: &str) -> &'static str {
    if key.contains("per-second") {
        "ops/s"
    } else if key.ends_with("-time") {
        "s"
    } else if key == "max-rss" {
        "KB"
    } else if key.starts_with("cpu-usage") {
        "%"
    } else if key.starts_with("nanosecs") {
        "ns"
    } else {
        ""
    }
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
        for l in &src.lines {
            let n = l.number;
            let t = l.text.trim_end();
            if !t.starts_with(' ') && !t.starts_with('-') && t.ends_with(':') {
                in_metrics = t == "metrics:";
                stressor = None;
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
            out.push(
                Row::at(src, n)
                    .benchmark(&format!("stress-ng {name}"))
                    .metric(&key.replace('-', " "))
                    .unit(unit_of(key))
                    .sample(v),
            );
        }
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
        assert_eq!(
            get("stress-ng cpu", "bogo ops per second real time"),
            Some((935.410904, "ops/s".into()))
        );
        assert_eq!(
            get(
                "stress-ng switch",
                "nanosecs per context switch pipe method"
            ),
            Some((2556.932382, "ns".into()))
        );
        assert_eq!(
            get("stress-ng switch", "max rss"),
            Some((2516.0, "KB".into()))
        );
    }
}
