//! `pyperf dump`: every value of every run, as text.
//!
//! ```text
//! sum_range_100
//! -------------
//!
//! Run 1: 1 warmup, 3 values, 1000 loops
//! - warmup 1: 744 ns (-22%)
//! - value 1: 706 ns (-26%)
//! ```
//!
//! Values are samples, one run per `Run N:` block (its number is the row's
//! run). Warm-ups, and the loop calibration of a run that is first of its
//! benchmark (`- calibrate 1: 22.2 us (loops: 1, raw: 22.2 us)`), are left
//! out with a reason. `--raw` values are the time of
//! a whole batch of loops; they are divided by the run's loop count, which
//! gives the per-loop value the other modes print. The benchmark is named
//! by its underlined heading (a suite), else `pyperf`.

use crate::error::Result;
use crate::ingest::shared::logscan::num;
use crate::ingest::shared::text::is_rule;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};
use regex::Regex;
use std::sync::LazyLock;

/// The `pyperf dump` importer.
pub struct PyperfDump;

static VALUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^- (raw )?(value|warmup) \d+: ([\d.]+(?:e[-+]?\d+)?) (\S+)(?: \([-+]?\d+%\))?$")
        .expect("static regex")
});
static CALIBRATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^- calibrate \d+: [\d.]+(?:e[-+]?\d+)? \S+ \(loops: \d+, raw: [\d.]+(?:e[-+]?\d+)? \S+\)$")
        .expect("static regex")
});
static RUN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^Run (\d+):(?: (?:\d+ warmups?, )?\d+ values?, (\d+) loops?| calibrate.*)?$")
        .expect("static regex")
});

impl Format for PyperfDump {
    fn name(&self) -> &'static str {
        "pyperf-dump"
    }

    fn description(&self) -> &'static str {
        "pyperf dump (also --raw, -q, -v): every value of every run"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let values = src
            .lines
            .iter()
            .filter(|l| l.text.starts_with("- ") && VALUE.is_match(&l.text))
            .take(2)
            .count();
        let run = src
            .lines
            .iter()
            .any(|l| l.text.starts_with("Run ") && RUN.is_match(&l.text));
        if values == 2 && run {
            90
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut parsed = Parsed::default();
        let mut bench = "pyperf".to_string();
        let mut run: u32 = 0;
        let mut loops: Option<f64> = None;
        let mut in_metadata = false;
        let lines = &src.lines;
        for (i, l) in lines.iter().enumerate() {
            let t = l.text.trim_end();
            let n = l.number;
            if let Some(c) = RUN.captures(t) {
                run = c[1].parse().unwrap_or(run);
                loops = c.get(2).and_then(|m| m.as_str().parse().ok());
                parsed.consumed.push(n);
                continue;
            }
            if let Some(c) = VALUE.captures(t) {
                if &c[2] == "warmup" {
                    parsed
                        .skipped
                        .push((n, "warm-up value, not a result".to_string()));
                    continue;
                }
                let mut value = num(src, n, &c[3], "pyperf value")?;
                if c.get(1).is_some() {
                    let Some(loops) = loops.filter(|&k| k > 0.0) else {
                        parsed.skipped.push((
                            n,
                            "raw value of a loop batch whose loop count is not given".to_string(),
                        ));
                        continue;
                    };
                    value /= loops;
                }
                let o = Observation::new(bench.as_str(), "time", &c[4], Stat::Sample, value)
                    .at_line(n)
                    .with_run(run.saturating_sub(1));
                parsed.observations.push(o);
                continue;
            }
            if CALIBRATE.is_match(t) {
                parsed.skipped.push((
                    n,
                    "loop calibration (timing growing loop counts), not a result".to_string(),
                ));
                continue;
            }
            if t == "Metadata:" || t == "- Metadata:" {
                in_metadata = true;
                parsed.consumed.push(n);
                continue;
            }
            if in_metadata && l.text.starts_with("  ") && !t.is_empty() {
                parsed
                    .skipped
                    .push((n, "run metadata (machine, versions, settings)".to_string()));
                continue;
            }
            in_metadata = false;
            if t.starts_with("* ") || t.starts_with("WARNING: ") {
                parsed.skipped.push((
                    n,
                    "pyperf's stability warning about the values read".to_string(),
                ));
                continue;
            }
            // A benchmark's heading: its name over a rule.
            let underlined = lines.get(i + 1).is_some_and(|u| is_rule(&u.text));
            if underlined && !t.is_empty() && !t.contains(' ') {
                bench = t.to_string();
                parsed.consumed.push(n);
                continue;
            }
            if is_rule(t) {
                parsed.consumed.push(n);
            }
        }
        Ok(parsed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Parsed {
        let src = Source::from_text("dump.txt", text);
        assert_eq!(PyperfDump.detect(&src), 90);
        PyperfDump.parse_accounted(&src).unwrap()
    }

    #[test]
    fn values_are_samples_of_their_run_and_warmups_are_accounted() {
        let p = read(
            "bench_a\n-------\n\nRun 1: 1 warmup, 2 values, 100 loops\n- warmup 1: 284 us (+1675%)\n\
             - value 1: 1.97 us (-88%)\n- value 2: 1.60 us\nWARNING: the benchmark result may be unstable\n\
             * the standard deviation (1 us) is 50% of the mean (2 us)\nRun 2: 1 warmup, 2 values, 100 loops\n\
             - warmup 1: 1.69 us\n- value 1: 1.65 us (-90%)\n",
        );
        let got: Vec<(&str, u32, f64, &str)> = p
            .observations
            .iter()
            .map(|o| {
                (
                    o.benchmark.as_str(),
                    o.run.unwrap_or(99),
                    o.value,
                    o.unit.as_str(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("bench_a", 0, 1.97, "us"),
                ("bench_a", 0, 1.60, "us"),
                ("bench_a", 1, 1.65, "us")
            ]
        );
        let warm: Vec<u32> = p.skipped.iter().map(|(l, _)| *l).collect();
        assert_eq!(warm, [5, 8, 9, 11]);
    }

    #[test]
    fn raw_values_are_divided_by_the_loop_count() {
        let p = read(
            "Run 1: 1 warmup, 2 values, 1000 loops\n- raw warmup 1: 823 us\n\
             - raw value 1: 841 us\n- raw value 2: 805 us (-7%)\n",
        );
        let v: Vec<f64> = p.observations.iter().map(|o| o.value).collect();
        assert_eq!(v, [0.841, 0.805]);
        assert_eq!(p.observations[0].benchmark, "pyperf");
    }

    #[test]
    fn a_line_of_values_without_runs_is_not_a_dump() {
        let src = Source::from_text("m", "- value 1: 5 us\n- value 2: 6 us\n");
        assert_eq!(PyperfDump.detect(&src), 0);
    }
}
