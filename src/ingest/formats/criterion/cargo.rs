//! cargo-criterion `--message-format=json`: one JSON object per line; the
//! `benchmark-complete` messages carry per-sample totals (`measured_values`
//! with `iteration_count`, so a sample is their ratio), the estimates, and
//! the change as a fraction despite its `"unit":"%"` label. Other messages
//! (`group-complete`, cargo's own) are skipped.
//!
//! A message may also be written over several lines with comments, as the
//! Criterion.rs book shows the format (`/* The id is the identifier of
//! this benchmark */`, `/* ... */` in place of elided samples): from a
//! line that opens an object to the line that closes it, the comments
//! blanked out, it is read as one message numbered by its first line.

use crate::error::Result;
use crate::ingest::shared::structured::{finite, json_error, raw_lines};
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};
use serde::Deserialize;

/// The cargo-criterion JSON message importer.
pub struct CargoCriterion;

#[derive(Deserialize)]
struct Message {
    reason: String,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    iteration_count: Vec<f64>,
    #[serde(default)]
    measured_values: Vec<f64>,
    #[serde(default)]
    unit: Option<String>,
    #[serde(default)]
    mean: Option<Estimate>,
    #[serde(default)]
    median: Option<Estimate>,
    #[serde(default)]
    change: Option<Change>,
}

#[derive(Deserialize)]
struct Estimate {
    estimate: f64,
    #[serde(default)]
    lower_bound: Option<f64>,
    #[serde(default)]
    upper_bound: Option<f64>,
    #[serde(default)]
    unit: Option<String>,
}

#[derive(Deserialize)]
struct Change {
    #[serde(default)]
    mean: Option<Estimate>,
}

impl Format for CargoCriterion {
    fn name(&self) -> &'static str {
        "cargo-criterion-json"
    }

    fn description(&self) -> &'static str {
        "cargo-criterion --message-format=json: JSON lines with \"reason\":\"benchmark-complete\""
    }

    fn detect(&self, src: &Source) -> Confidence {
        // One substring search rules out nearly every file before the
        // line by line check.
        if !src.raw.contains("\"benchmark-complete\"") {
            return 0;
        }
        let hit = raw_lines(src).any(|(_, l)| {
            let t = l.trim_start();
            let one_line = t.starts_with('{') && t.contains("\"reason\"");
            // A message over several lines has its reason on a line of its own.
            (one_line || t.starts_with("\"reason\"")) && t.contains("\"benchmark-complete\"")
        });
        if hit {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let lines: Vec<(u32, &str)> = raw_lines(src).collect();
        let mut next = 0;
        while next < lines.len() {
            let (n, l) = lines[next];
            next += 1;
            let t = l.trim();
            if !t.starts_with('{') {
                continue; // cargo's human-readable stderr, merged in
            }
            let text = if t.ends_with('}') {
                t.to_string()
            } else {
                // A message over several lines, up to the line that closes it.
                let end = closing_line(&lines[next - 1..]).map_or(lines.len(), |i| next - 1 + i);
                let joined: Vec<&str> = lines[next - 1..end].iter().map(|(_, l)| *l).collect();
                next = end;
                without_comments(&joined.join("\n"))
            };
            let msg: Message = serde_json::from_str(&text)
                .map_err(|e| json_error(src, &e, n - 1, "cargo-criterion message"))?;
            if msg.reason != "benchmark-complete" {
                continue;
            }
            let Some(id) = msg.id.as_deref() else {
                return Err(src.error(Some(n), "benchmark-complete message without an `id`"));
            };
            let (benchmark, params) = crate::ingest::formats::criterion::console::split_id(id);
            let unit = msg.unit.clone().unwrap_or_else(|| "ns".into());
            let mk = |stat: Stat, v: f64, unit: &str| {
                Observation::new(benchmark.as_str(), "time", unit, stat, v)
                    .with_params_str(params.clone())
                    .at_line(n)
            };
            if msg.iteration_count.len() != msg.measured_values.len() {
                return Err(src.error(
                    Some(n),
                    format!(
                        "{} iteration counts but {} measured values",
                        msg.iteration_count.len(),
                        msg.measured_values.len()
                    ),
                ));
            }
            let sample = mk(Stat::Sample, 0.0, &unit);
            for (i, (it, v)) in msg
                .iteration_count
                .iter()
                .zip(&msg.measured_values)
                .enumerate()
            {
                if *it <= 0.0 {
                    return Err(src.error(
                        Some(n),
                        format!("sample {i}: iteration count {it} is not positive"),
                    ));
                }
                let per_iter = v / it;
                if !per_iter.is_finite() {
                    // The message is only built when it is needed.
                    finite(src, Some(n), per_iter, &format!("sample {i}"))?;
                }
                let mut o = sample.clone();
                o.value = per_iter;
                o.run = Some(i as u32);
                out.push(o);
            }
            for (stat, est) in [(Stat::Mean, &msg.mean), (Stat::Median, &msg.median)] {
                let Some(e) = est else { continue };
                let u = e.unit.clone().unwrap_or_else(|| unit.clone());
                out.push(mk(stat, finite(src, Some(n), e.estimate, "estimate")?, &u));
                if stat == Stat::Mean {
                    if let (Some(lo), Some(hi)) = (e.lower_bound, e.upper_bound) {
                        out.push(mk(
                            Stat::CiLow,
                            finite(src, Some(n), lo, "lower bound")?,
                            &u,
                        ));
                        out.push(mk(
                            Stat::CiHigh,
                            finite(src, Some(n), hi, "upper bound")?,
                            &u,
                        ));
                    }
                }
            }
            if let Some(e) = msg.change.as_ref().and_then(|c| c.mean.as_ref()) {
                let pct = finite(src, Some(n), e.estimate * 100.0, "mean change")?;
                out.push(mk(Stat::ChangePct, pct, &unit));
            }
        }
        Ok(out.into())
    }
}

/// The text with its `/* … */` and `// …` comments outside strings
/// blanked out (their line breaks kept, so that lines still count).
fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let (mut in_string, mut escaped) = (false, false);
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match (c, chars.peek()) {
            ('"', _) => {
                in_string = true;
                out.push(c);
            }
            ('/', Some('*')) => {
                chars.next();
                out.push_str("  ");
                let mut last = ' ';
                for d in chars.by_ref() {
                    out.push(if d == '\n' { '\n' } else { ' ' });
                    if last == '*' && d == '/' {
                        break;
                    }
                    last = d;
                }
            }
            ('/', Some('/')) => {
                for d in chars.by_ref() {
                    if d == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// The index in `lines` (the first opening an object) of the line after
/// the one that closes that object: where the braces outside strings
/// and comments balance.
fn closing_line(lines: &[(u32, &str)]) -> Option<usize> {
    let mut depth = 0i64;
    let (mut in_string, mut escaped, mut block) = (false, false, false);
    for (i, (_, l)) in lines.iter().enumerate() {
        let mut line_comment = false;
        let mut prev = ' ';
        for c in l.chars() {
            if in_string {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '"' => in_string = false,
                    _ => {}
                }
            } else if block {
                block = !(prev == '*' && c == '/');
            } else if !line_comment {
                match c {
                    '"' => in_string = true,
                    '*' if prev == '/' => block = true,
                    '/' if prev == '/' => line_comment = true,
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            // A comment's closing star is not the next one's opening.
            prev = if block && c == '*' && prev == '/' {
                ' '
            } else {
                c
            };
        }
        if depth <= 0 {
            return Some(i + 1);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_book_s_message_over_several_lines_with_comments() {
        // The Criterion.rs book's example message, as printed there.
        let path = "tests/data/harness/criterion-lone/book-benchmark-complete.json";
        let p = crate::ingest::parse_file(&CargoCriterion, path);
        let got: Vec<(u32, Stat, f64, &str)> = p
            .observations
            .iter()
            .map(|o| (o.line, o.stat, o.value, o.unit.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (1, Stat::Sample, 124200.0 / 30.0, "ns"),
                (1, Stat::Sample, 9937100.0 / 3000.0, "ns"),
                (1, Stat::Mean, 3419.5340743105917, "ns"),
                (1, Stat::CiLow, 3374.4765622217083, "ns"),
                (1, Stat::CiHigh, 3474.096214164006, "ns"),
                (1, Stat::Median, 3362.8249818445897, "ns"),
                (1, Stat::ChangePct, 0.014278477848724602 * 100.0, "ns"),
            ]
        );
        assert!(p.observations.iter().all(|o| o.benchmark == "norm"));
        assert_eq!(
            without_comments("{\"a\": \"/* kept */\", /* gone\n */ \"b\": 1} // gone"),
            "{\"a\": \"/* kept */\",        \n    \"b\": 1} "
        );
    }
}
