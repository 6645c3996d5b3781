//! rt-tests pi_stress: the priority-inversion stress test's report
//! (`Number of thread groups: 1`, `Duration of test run: 5 seconds`, …,
//! `Total inversion performed: 438022`, `Test Duration: 0 days, 0 hours,
//! 0 minutes, 6 seconds`), and its `--json` file (`"inversion": 396458`).
//!
//! Benchmark `pi_stress`, parameters `groups`, `duration` and
//! `inversions` (per group) as the header states them (in JSON, as the
//! command line sets them); metric `inversions`, and `test duration` (s)
//! when the inversions per group are limited (the time a fixed amount of
//! work took), each a `sample` of the run. A log of several runs gives one
//! run each. The running `Current Inversions:` counter is left out with
//! the reason.

use crate::error::Result;
use crate::ingest::shared::logscan::{has, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::shared::structured::parse_json;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(TOTAL, r"^Total inversion performed:\s*(\d+)\s*$");
lazy_re!(
    DURATION,
    r"^Test Duration:\s*(\d+) days?, (\d+) hours?, (\d+) minutes?, (\d+) seconds?\s*$"
);
lazy_re!(
    SETTING,
    r"^(Number of thread groups|Duration of test run|Number of inversions per group):\s*(\S+)"
);
lazy_re!(FLAG, r"--(groups|duration|inversions)[= ](\d+)");

/// The pi_stress importer.
pub struct PiStress;

impl Format for PiStress {
    fn name(&self) -> &'static str {
        "pi-stress"
    }

    fn description(&self) -> &'static str {
        "rt-tests pi_stress: `Total inversion performed: N` and the header above it, or its --json file"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if src.looks_like_json() {
            return if has(src, "\"inversion\"") && has(src, "\"rt_test_version") {
                95
            } else {
                0
            };
        }
        if has(src, "Total inversion performed:") {
            95
        } else if has(src, "Starting PI Stress Test") {
            60
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        if src.looks_like_json() {
            return json(src);
        }
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let mut params = Params::default();
        let mut limited = false;
        let mut pending: Option<(u32, f64)> = None;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            if t == "Starting PI Stress Test" {
                params = Params::default();
                limited = false;
                consumed.push(n);
            } else if let Some(c) = SETTING.captures(t) {
                let value = c[2].trim_end_matches(',');
                match &c[1] {
                    "Number of thread groups" => params.set("groups", value),
                    "Duration of test run" => params.set("duration", value),
                    _ => {
                        limited = value != "unlimited";
                        params.set("inversions", value);
                    }
                }
                consumed.push(n);
            } else if let Some(c) = TOTAL.captures(t) {
                let v = num(src, n, &c[1], "total inversions")?;
                out.push(
                    Row::at(src, n)
                        .benchmark("pi_stress")
                        .params(&params.render())
                        .metric("inversions")
                        .sample(v),
                );
                pending = Some((n, v));
            } else if let Some(c) = DURATION.captures(t) {
                let part = |i: usize| num(src, n, &c[i], "test duration");
                let secs = ((part(1)? * 24.0 + part(2)?) * 60.0 + part(3)?) * 60.0 + part(4)?;
                if limited && pending.take().is_some() {
                    out.push(
                        Row::at(src, n)
                            .benchmark("pi_stress")
                            .params(&params.render())
                            .metric("test duration")
                            .unit("s")
                            .sample(secs),
                    );
                }
                consumed.push(n);
            } else if t.starts_with("Current Inversions:") {
                skipped.push((n, "the running counter, not the result".into()));
            } else if t.contains(" thread SCHED_") || t.contains("groups of 3 threads") {
                consumed.push(n);
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no `Total inversion performed:` line (an interrupted run prints none)",
        )
    }
}

/// The `--json` file: the total, with the settings its command line gave.
fn json(src: &Source) -> Result<Parsed> {
    let doc: serde_json::Value = parse_json(src, "pi_stress JSON")?;
    let Some(total) = doc.get("inversion").and_then(|v| v.as_f64()) else {
        return Err(src.error(None, "no `inversion` total in the pi_stress JSON"));
    };
    let mut params = Params::default();
    let cmdline = doc
        .as_object()
        .and_then(|o| o.iter().find(|(k, _)| k.starts_with("cmdline")))
        .and_then(|(_, v)| v.as_str())
        .unwrap_or("");
    for c in FLAG.captures_iter(cmdline) {
        params.set(&c[1], &c[2]);
    }
    Ok(vec![Row::at(src, 0)
        .benchmark("pi_stress")
        .params(&params.render())
        .metric("inversions")
        .sample(total)]
    .into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    const DIR: &str = "tests/data/harness/rt-tests";

    #[test]
    fn the_total_with_the_settings_of_the_header() {
        let p = parse_file(&PiStress, &format!("{DIR}/pi_stress-groups2-duration5.txt"));
        assert_eq!(p.observations.len(), 1);
        let o = &p.observations[0];
        assert_eq!((o.metric.as_str(), o.value), ("inversions", 702009.0));
        assert_eq!(o.params, "duration=5,groups=2,inversions=unlimited");
        assert!(p.skipped_reason(o.line - 2).contains("running counter"));
    }

    #[test]
    fn a_limited_run_gives_its_duration_and_json_its_total() {
        let p = parse_file(&PiStress, &format!("{DIR}/pi_stress-inversions1000.txt"));
        let got: Vec<(&str, f64)> = p
            .observations
            .iter()
            .map(|o| (o.metric.as_str(), o.value))
            .collect();
        assert_eq!(got, [("inversions", 1001.0), ("test duration", 1.0)]);
        let p = parse_file(&PiStress, &format!("{DIR}/pi_stress-duration5.json"));
        assert_eq!(p.observations[0].value, 396458.0);
        assert_eq!(p.observations[0].params, "duration=5");
    }

    #[test]
    fn an_interrupted_run_is_an_error() {
        let src =
            Source::read(std::path::Path::new(&format!("{DIR}/pi_stress-sigint.txt"))).unwrap();
        let e = PiStress.parse_accounted(&src).unwrap_err().to_string();
        assert!(e.contains("interrupted"), "{e}");
    }
}
