//! hyperfine's console output (`Benchmark 1: cmd`, `Time (mean ± σ):`,
//! `Range (min … max):`): summaries only, units as printed. The closing
//! `N times faster than` lines compare commands with each other, not
//! variants, and are not read.

use crate::error::Result;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};
use regex::Regex;
use std::sync::LazyLock;

/// The hyperfine console importer.
pub struct HyperfineConsole;

static BENCH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^Benchmark #?\d+: (.+)$").expect("static regex"));
static TIME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*Time \(mean ± σ\):\s+([\d.]+) (\S+) ±\s+([\d.]+) (\S+)(?:\s+\[User: ([\d.]+) (\S+), System: ([\d.]+) (\S+)\])?")
        .expect("static regex")
});
static ABS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*Time \(abs ≡\):\s+([\d.]+) (\S+)(?:\s+\[User: ([\d.]+) (\S+), System: ([\d.]+) (\S+)\])?")
        .expect("static regex")
});
static RANGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*Range \(min … max\):\s+([\d.]+) (\S+) …\s+([\d.]+) (\S+)\s+(\d+) runs")
        .expect("static regex")
});

// The closing summary: `'cmd' ran` then `1.02 ± 0.10 times faster than 'cmd'`.
static SUMMARY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:'.*' ran\s*$|[\d.]+(?: ± [\d.]+)? times (?:faster|slower) than )")
        .expect("static regex")
});

impl Format for HyperfineConsole {
    fn name(&self) -> &'static str {
        "hyperfine-console"
    }

    fn description(&self) -> &'static str {
        "hyperfine console output: `Benchmark N: cmd` followed by `Time (mean ± σ):` / `Range (min … max):`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        // The literals gate the regexes so that they are compiled only for
        // input that has them.
        let bench = crate::ingest::shared::logscan::any_with(src, "Benchmark ", &BENCH);
        if !bench {
            return 0;
        }
        // Some line is one or the other: some line is the one, or some the other.
        let time = crate::ingest::shared::logscan::any_with(src, "Time (mean", &TIME)
            || crate::ingest::shared::logscan::any_with(src, "Time (abs", &ABS);
        if bench && time {
            90
        } else {
            0
        }
    }

    /// `Benchmark N: cmd` lines are `consumed`; the closing summary is
    /// `skipped` (it compares commands with each other).
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut consumed = Vec::new();
        let mut skipped = Vec::new();
        let mut command: Option<String> = None;
        let metric = crate::ingest::formats::hyperfine::json::METRIC;
        for l in &src.lines {
            let t = l.text.as_str();
            if let Some(c) = BENCH.captures(t) {
                command = Some(c[1].trim().to_string());
                consumed.push(l.number);
                continue;
            }
            if t.trim_start().starts_with("Warning: ") {
                // Its figures (`slower than the rest (20.6 ms)`) are a
                // caution about the runs, not a measurement of their own.
                let why =
                    "hyperfine's warning about the runs (outliers, a slow first run), not a result";
                skipped.push((l.number, why.to_string()));
                continue;
            }
            if SUMMARY.is_match(t) {
                let why = "summary ratio between commands, not between variants";
                skipped.push((l.number, why.to_string()));
                continue;
            }
            let Some(cmd) = command.as_deref() else {
                continue;
            };
            let mut push = |metric: &str, stat: Stat, v: &str, unit: &str| -> Result<()> {
                let v: f64 = v
                    .parse()
                    .map_err(|_| src.error(Some(l.number), format!("`{v}` is not a number")))?;
                out.push(Observation::new(cmd, metric, unit, stat, v).at_line(l.number));
                Ok(())
            };
            if let Some(c) = TIME.captures(t) {
                push(metric, Stat::Mean, &c[1], &c[2])?;
                push(metric, Stat::Stddev, &c[3], &c[4])?;
                if let (Some(u), Some(uu), Some(s), Some(su)) =
                    (c.get(5), c.get(6), c.get(7), c.get(8))
                {
                    push("user", Stat::Mean, u.as_str(), uu.as_str())?;
                    push("system", Stat::Mean, s.as_str(), su.as_str())?;
                }
            } else if let Some(c) = ABS.captures(t) {
                // A single run: its time is the only sample there is.
                push(metric, Stat::Mean, &c[1], &c[2])?;
                push(metric, Stat::N, "1", &c[2])?;
                if let (Some(u), Some(uu), Some(s), Some(su)) =
                    (c.get(3), c.get(4), c.get(5), c.get(6))
                {
                    push("user", Stat::Mean, u.as_str(), uu.as_str())?;
                    push("system", Stat::Mean, s.as_str(), su.as_str())?;
                }
            } else if let Some(c) = RANGE.captures(t) {
                push(metric, Stat::Min, &c[1], &c[2])?;
                push(metric, Stat::Max, &c[3], &c[4])?;
                push(metric, Stat::N, &c[5], &c[2])?;
            }
        }
        Ok(Parsed {
            observations: out,
            consumed,
            skipped,
            ..Parsed::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_warning_s_figures_are_left_out_with_the_reason() {
        // `Warning: The first benchmarking run … was significantly slower
        // than the rest (20.6 ms).` between the first and second command.
        let path = "tests/data/harness/hyperfine/console-three-ms-warning.txt";
        let p = crate::ingest::parse_file(&HyperfineConsole, path);
        assert!(p.skipped_reason(5).contains("warning about the runs"));
        assert!(p.observations.iter().all(|o| o.line != 5));
        assert_eq!(p.observations.len(), 21);
    }

    #[test]
    fn command_ratios_are_skipped_and_headers_consumed() {
        let path = "tests/data/corpus/hyperfine_scan-baseline-1.txt";
        let p = crate::ingest::parse_file(&HyperfineConsole, path);
        assert_eq!(p.consumed, vec![1, 5, 9, 13]);
        let skipped: Vec<u32> = p.skipped.iter().map(|(l, _)| *l).collect();
        assert_eq!(skipped, vec![18, 19, 20, 21]);
        assert!(p
            .skipped
            .iter()
            .all(|(_, w)| w.contains("between commands")));
    }

    /// Detection as it was before the joined-text search: every line.
    fn detect_by_line(src: &Source) -> Confidence {
        use crate::ingest::any_line_matches;
        let bench = any_line_matches(src, "Benchmark ", &BENCH);
        let time = src.lines.iter().any(|l| {
            (l.text.contains("Time (mean") && TIME.is_match(&l.text))
                || (l.text.contains("Time (abs") && ABS.is_match(&l.text))
        });
        if bench && time {
            90
        } else {
            0
        }
    }

    #[test]
    fn detection_gives_the_score_the_line_search_gives() {
        assert!(crate::ingest::assert_detection_agrees(&HyperfineConsole, detect_by_line) > 0);
    }
}
