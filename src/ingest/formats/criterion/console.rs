//! Criterion.rs console output, as pasted into pull requests and mails:
//!
//! ```text
//! sum_100k                time:   [18.389 µs 19.387 µs 20.423 µs]
//!                         change: [+8.0991% +13.412% +19.083%] (p = 0.00 < 0.05)
//! ```
//!
//! The `time` triplet is the confidence interval of the typical time (the
//! slope estimate when linear sampling gave one, else the mean): stored as
//! `mean` with `ci_low`/`ci_high`. `change:` states the mean change in
//! percent; `thrpt:` is throughput. `Found N outliers among M measurements`
//! gives the sample count M.

use crate::error::Result;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{canonical_params, Observation, Stat};
use regex::Regex;
use std::sync::LazyLock;

/// The Criterion console importer.
pub struct CriterionConsole;

const TRIPLE: &str =
    r"\[\s*([-+]?[\d.]+)\s*(\S*?)\s+([-+]?[\d.]+)\s*(\S*?)\s+([-+]?[\d.]+)\s*(\S*?)\s*\]";

static MEASURE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"^\s*(?:(\S.*?)\s+)?(time|thrpt):\s+{TRIPLE}")).expect("static regex")
});
static CHANGE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"^\s*change:\s+{TRIPLE}")).expect("static regex"));
static CHANGE_OPEN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*change:\s*$").expect("static regex"));
static OUTLIERS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^Found \d+ outliers among (\d+) measurements").expect("static regex")
});

// `  2 (2.00%) high mild`: the classification under `Found N outliers`.
static OUTLIER_CLASS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s+\d+ \([\d.]+%\) (?:low|high) (?:mild|severe)\s*$").expect("static regex")
});
static SAMPLING_ADVICE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^Warning: Unable to complete \d+ samples").expect("static regex")
});
// What `cargo bench` prints around Criterion: build progress and compiler
// diagnostics (`--> src/lib.rs:2:5`, `2 | use …`).
static CARGO: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:\s*(?:Finished|Running|Compiling|Downloaded|Downloading) |\s*--> \S+:\d+:\d+\s*$|\s*\d+ \|)|^warning: .* generated \d+ warnings?",
    )
    .expect("static regex")
});

/// Splits a Criterion id `group/function/parameter` into the benchmark (the
/// group) and params. With two parts the second is a parameter when it is
/// numeric and a function otherwise, as Criterion prints both the same way.
pub(crate) fn split_id(id: &str) -> (String, String) {
    let parts: Vec<&str> = id.split('/').collect();
    let group = parts[0].to_string();
    let mut p: Vec<(&str, &str)> = Vec::new();
    match parts.len() {
        1 => {}
        2 => {
            let key = if crate::ingest::shared::numbers::parse_number(parts[1]).is_some() {
                "parameter"
            } else {
                "function"
            };
            p.push((key, parts[1]));
        }
        _ => {
            let rest = parts[2..].join("/");
            return (
                group,
                canonical_params(&[("function", parts[1]), ("parameter", rest.as_str())]),
            );
        }
    }
    (group, canonical_params(&p))
}

impl Format for CriterionConsole {
    fn name(&self) -> &'static str {
        "criterion-console"
    }

    fn description(&self) -> &'static str {
        "Criterion.rs console output: `<id>  time: [low est high]` with `change:` / `thrpt:` lines"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let time = crate::ingest::shared::logscan::lines_containing(src, "time:")
            .any(|l| MEASURE.captures(l).is_some_and(|c| &c[2] == "time"));
        if time {
            90
        } else {
            0
        }
    }

    /// `Benchmarking <id>` / `Analyzing` lines and id lines are `consumed`;
    /// warm-up and sampling-plan progress lines, the outlier classification,
    /// sampling advice and cargo's own output are `skipped` with the reason.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut consumed = Vec::new();
        let mut skipped = Vec::new();
        // The id sits before `time:` or, when too long, alone on the line above.
        let mut last_plain: Option<String> = None;
        let mut last_plain_line = 0u32;
        let mut current: Option<(String, String)> = None;
        let mut time_unit = String::new();
        let mut in_change_block = false;
        for l in &src.lines {
            let t = l.text.as_str();
            let number = l.number;
            if let Some(c) = MEASURE.captures(t) {
                let kind = &c[2];
                let values = triple(&c, 3);
                let pct = c[4].ends_with('%');
                if in_change_block && pct {
                    // `change:` on its own line, then `time:`/`thrpt:` in %.
                    if let Some((b, p)) = &current {
                        let unit = if kind == "time" {
                            time_unit.clone()
                        } else {
                            c[4].to_string()
                        };
                        let metric = if kind == "time" { "time" } else { "thrpt" };
                        out.push(obs(b, p, metric, &unit, Stat::ChangePct, values.1, number));
                    }
                    continue;
                }
                in_change_block = false;
                if kind == "time" {
                    let id = match c.get(1) {
                        Some(id) => Some(id.as_str().trim().to_string()),
                        None => {
                            consumed.push(last_plain_line);
                            last_plain.clone()
                        }
                    };
                    let Some(id) = id else {
                        return Err(src.error(
                            Some(number),
                            "`time:` line without a benchmark id before it",
                        ));
                    };
                    current = Some(split_id(&id));
                    time_unit = c[4].to_string();
                }
                let Some((b, p)) = &current else { continue };
                let unit = c[4].to_string();
                let metric = if kind == "time" { "time" } else { "thrpt" };
                out.push(obs(b, p, metric, &unit, Stat::Mean, values.1, number));
                out.push(obs(b, p, metric, &unit, Stat::CiLow, values.0, number));
                out.push(obs(b, p, metric, &unit, Stat::CiHigh, values.2, number));
                continue;
            }
            if let Some(c) = CHANGE.captures(t) {
                if let Some((b, p)) = &current {
                    out.push(obs(
                        b,
                        p,
                        "time",
                        &time_unit,
                        Stat::ChangePct,
                        triple(&c, 1).1,
                        number,
                    ));
                }
                continue;
            }
            if CHANGE_OPEN.is_match(t) {
                in_change_block = true;
                consumed.push(number);
                continue;
            }
            if OUTLIER_CLASS.is_match(t) {
                let why = "outlier classification; the sample count is read from `Found …`";
                skipped.push((number, why.to_string()));
                continue;
            }
            if SAMPLING_ADVICE.is_match(t) {
                skipped.push((number, "Criterion's advice on sampling time".to_string()));
                continue;
            }
            if CARGO.is_match(t) {
                skipped.push((number, "cargo's build output, not Criterion's".to_string()));
                continue;
            }
            if let Some(c) = OUTLIERS.captures(t) {
                if let (Some((b, p)), Ok(n)) = (&current, c[1].parse::<f64>()) {
                    out.push(obs(b, p, "time", &time_unit, Stat::N, n, number));
                }
                continue;
            }
            let trimmed = t.trim_end();
            if trimmed.starts_with("Benchmarking ") {
                // `Benchmarking <id>` and `: Analyzing` announce the result
                // that follows; the warm-up time and sampling plan are not
                // results (the sample count is read from `Found … among N`).
                if trimmed.contains(": Warming up for ") || trimmed.contains(": Collecting ") {
                    let why = "progress line: warm-up time or sampling plan";
                    skipped.push((number, why.to_string()));
                } else {
                    consumed.push(number);
                }
            } else if !trimmed.is_empty() && !trimmed.starts_with(char::is_whitespace) {
                // A possible id of the `time:` line below; consumed if it is.
                last_plain = Some(trimmed.to_string());
                last_plain_line = number;
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

/// The three numbers of a `[lo est hi]` triple whose first group is `first`.
fn triple(c: &regex::Captures, first: usize) -> (f64, f64, f64) {
    // The regex admits only digits, dots and a sign; parse cannot fail on a
    // well-formed number, and a malformed one (`1.2.3`) reads as NaN, which
    // the ingest driver refuses with the line number.
    let num = |i: usize| c[i].parse::<f64>().unwrap_or(f64::NAN);
    (num(first), num(first + 2), num(first + 4))
}

fn obs(b: &str, p: &str, metric: &str, unit: &str, stat: Stat, v: f64, line: u32) -> Observation {
    Observation::new(b, metric, unit, stat, v)
        .with_params_str(p.to_string())
        .at_line(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_and_cargo_lines_are_accounted_for() {
        let path = "tests/data/corpus/criterion-baseline-1.txt";
        let p = crate::ingest::parse_file(&CriterionConsole, path);
        assert!(p.skipped_reason(1).starts_with("cargo's build output"));
        assert!(p.skipped_reason(6).starts_with("progress line"));
        assert!(p.skipped_reason(10).starts_with("outlier classification"));
        // `Benchmarking sort/1000` and `: Analyzing` announce the result.
        assert!(p.consumed.contains(&4) && p.consumed.contains(&7));
        // `Found 2 outliers among 100 measurements` gives n.
        assert!(p
            .observations
            .iter()
            .any(|o| o.line == 9 && o.stat == Stat::N && o.value == 100.0));
    }

    /// Detection as it was before the joined-text search: every line.
    fn detect_by_line(src: &Source) -> Confidence {
        let time = src.lines.iter().any(|l| {
            l.text.contains("time:") && MEASURE.captures(&l.text).is_some_and(|c| &c[2] == "time")
        });
        if time {
            90
        } else {
            0
        }
    }

    #[test]
    fn detection_gives_the_score_the_line_search_gives() {
        assert!(crate::ingest::assert_detection_agrees(&CriterionConsole, detect_by_line) > 0);
    }
}
