//! The kernel's KUnit benchmarks (`lib/crc_kunit.c`, `lib/tests/…`): a
//! test case logs its results as KUnit diagnostic lines, `# <case>:
//! <setting>=<v>: <value> <unit>` (`# crc32_le_benchmark: len=64: 1209
//! MB/s`), among the TAP lines of the run (`ok 2 crc16_benchmark`).
//!
//! Benchmark the case, parameters its settings (`len=64`), metric the
//! quantity of the unit (`throughput` for MB/s, `time` for ns), each line a
//! `sample`. Lines without a unit of measure (`# crc: pass:14 fail:0`) are
//! KUnit's counts, not results.
//!
//! Mails compare two runs as a unified diff of their logs (`--- base.txt`,
//! `+++ patched.txt`, then hunks whose lines carry `-`, `+` or a space in
//! front, often behind a `|` the writer added): a `-` line is the first
//! log's, a `+` line the second's, and a context line both logs hold, so it
//! is read once for each, the logs' file names as variants.

use crate::error::Result;
use crate::ingest::shared::logscan::{has, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Dimension, Unit};

lazy_re!(
    RESULT,
    r"^#\s+([A-Za-z_][\w]*):\s+((?:[A-Za-z_][\w.-]*=[^\s:]+:\s+)*)(-?\d+(?:\.\d+)?)\s*([A-Za-zµ/%]+)$"
);
lazy_re!(SETTING, r"([A-Za-z_][\w.-]*)=([^\s:]+):");
lazy_re!(TAP, r"^(?:not )?ok \d+ \S+");

/// The KUnit benchmark importer.
pub struct Kunit;

/// What a line holds once its writer's `|` bar is gone: its diff marker
/// (`-`, `+`, a space) when inside a hunk, and the log line. Leading
/// blanks stay: a context line's marker is one.
fn body(text: &str) -> &str {
    match text.trim_start().strip_prefix('|') {
        Some(rest) => rest.strip_prefix(' ').unwrap_or(rest),
        None => text,
    }
}

/// A result line's case, settings, value and unit, when its unit is one of
/// measure (a count is no result).
fn result(line: &str) -> Option<(&str, Params, &str, Unit)> {
    let c = RESULT.captures(line.trim())?;
    let unit = Unit::parse(c.get(4)?.as_str());
    if matches!(unit.dimension, Dimension::Other(_) | Dimension::Count) {
        return None;
    }
    let mut params = Params::default();
    for s in SETTING.captures_iter(c.get(2)?.as_str()) {
        params.set(&s[1], &s[2]);
    }
    Some((c.get(1)?.as_str(), params, c.get(3)?.as_str(), unit))
}

/// The metric a KUnit result of `unit` measures.
fn metric(unit: &Unit) -> &'static str {
    match unit.dimension {
        Dimension::Bandwidth => "throughput",
        Dimension::Rate => "rate",
        Dimension::Time => "time",
        Dimension::Bytes => "size",
        Dimension::Percent => "share",
        Dimension::Cycles => "cycles",
        _ => "value",
    }
}

/// The file a `--- name`/`+++ name` diff header names.
fn diff_file(rest: &str) -> String {
    rest.split_whitespace().next().unwrap_or("").to_string()
}

impl Format for Kunit {
    fn name(&self) -> &'static str {
        "kunit"
    }

    fn description(&self) -> &'static str {
        "KUnit benchmark results: `# <case>: len=64: 1209 MB/s` diagnostic lines among a run's TAP lines, also as a unified diff of two logs"
    }

    fn detect(&self, src: &Source) -> Confidence {
        // Every input is offered to every detector: KUnit's TAP lines hold
        // `ok `, and an input without one is ruled out by one search.
        if !has(src, "ok ") {
            return 0;
        }
        let (mut results, mut tap) = (0, 0);
        for l in src.lines.iter().take(5000) {
            let b = body(&l.text);
            let log = b
                .strip_prefix(['-', '+', ' '])
                .filter(|_| !b.starts_with("---") && !b.starts_with("+++"))
                .unwrap_or(b);
            if result(log).is_some() || result(b).is_some() {
                results += 1;
            } else if TAP.is_match(log.trim()) {
                tap += 1;
            }
        }
        if results >= 2 && tap >= 1 {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed) = (Vec::new(), Vec::new());
        // The two logs of a diff, and whether a hunk is being read.
        let (mut old, mut new) = (String::new(), String::new());
        let mut in_hunk = false;
        for l in &src.lines {
            let n = l.number;
            let b = body(&l.text);
            if let Some(rest) = b.strip_prefix("--- ") {
                old = diff_file(rest);
                in_hunk = false;
                consumed.push(n);
                continue;
            }
            if let Some(rest) = b.strip_prefix("+++ ") {
                new = diff_file(rest);
                consumed.push(n);
                continue;
            }
            if b.starts_with("@@ ") {
                in_hunk = !old.is_empty() && !new.is_empty();
                consumed.push(n);
                continue;
            }
            let (variants, log): (Vec<&str>, &str) = match b.chars().next() {
                Some('-') if in_hunk => (vec![&old], &b[1..]),
                Some('+') if in_hunk => (vec![&new], &b[1..]),
                Some(' ') if in_hunk => (vec![&old, &new], &b[1..]),
                _ => {
                    in_hunk = in_hunk && b.is_empty();
                    (vec![""], b)
                }
            };
            let Some((case, params, value, unit)) = result(log) else {
                continue;
            };
            let v = num(src, n, value, "KUnit result")?;
            for variant in variants {
                let mut o = Row::at(src, n)
                    .benchmark(case)
                    .params(&params.render())
                    .metric(metric(&unit))
                    .unit(&unit.spelling)
                    .sample(v);
                o.variant = variant.into();
                out.push(o);
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            Vec::new(),
            "no KUnit result line (`# <case>: len=N: <value> <unit>`)",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str) -> Vec<(String, String, String, f64, String)> {
        let src = Source::from_text("k.txt", text);
        assert_eq!(Kunit.detect(&src), 95);
        Kunit
            .parse(&src)
            .unwrap()
            .iter()
            .map(|o| {
                (
                    o.benchmark.to_string(),
                    o.params.to_string(),
                    o.variant.to_string(),
                    o.value,
                    o.unit.to_string(),
                )
            })
            .collect()
    }

    fn row(b: &str, p: &str, v: &str, x: f64) -> (String, String, String, f64, String) {
        (b.into(), p.into(), v.into(), x, "MB/s".into())
    }

    #[test]
    fn a_diff_of_two_logs_gives_each_line_to_its_log() {
        // A tester's diff of two runs of the CRC benchmark, quoted in a
        // mail with a bar in front of each line.
        let text = ">>    | --- base1.txt\t2025-03-02 18:31:16.169438876 +0000\n\
                    >>    | +++ series.txt\t2025-03-02 18:35:58.683017223 +0000\n\
                    >>    | @@ -11,7 +11,7 @@\n\
                    >>    |      # crc16_benchmark: len=200: 153 MB/s\n\
                    >>    | -    # crc16_benchmark: len=256: 153 MB/s\n\
                    >>    | +    # crc16_benchmark: len=256: 154 MB/s\n\
                    >>    |      ok 2 crc16_benchmark\n\
                    >>    |  # crc: pass:14 fail:0 skip:0 total:14\n";
        assert_eq!(
            rows(text),
            [
                row("crc16_benchmark", "len=200", "base1.txt", 153.0),
                row("crc16_benchmark", "len=200", "series.txt", 153.0),
                row("crc16_benchmark", "len=256", "base1.txt", 153.0),
                row("crc16_benchmark", "len=256", "series.txt", 154.0),
            ]
        );
    }

    #[test]
    fn the_posted_diff_gives_both_logs_every_length() {
        let p = crate::ingest::parse_file(
            &Kunit,
            "tests/data/harness/kunit/crc-benchmark-diff-two-logs.txt",
        );
        // 163 result lines, 9 of them context lines held by both logs.
        assert_eq!(p.observations.len(), 163 + 9);
        let at = |line: u32| -> Vec<(&str, &str, &str, f64)> {
            p.observations
                .iter()
                .filter(|o| o.line == line)
                .map(|o| {
                    (
                        o.benchmark.as_str(),
                        o.params.as_str(),
                        o.variant.as_str(),
                        o.value,
                    )
                })
                .collect()
        };
        let nvme = "crc64_nvme_benchmark";
        assert_eq!(at(166), [(nvme, "len=16384", "base1.txt", 158.0)]);
        assert_eq!(at(179), [(nvme, "len=16384", "series.txt", 2782.0)]);
        let c = "crc32c_benchmark";
        assert_eq!(
            at(99),
            [
                (c, "len=1", "base1.txt", 31.0),
                (c, "len=1", "series.txt", 31.0)
            ]
        );
        assert!(p
            .observations
            .iter()
            .all(|o| o.metric == "throughput" && o.unit == "MB/s"));
    }

    #[test]
    fn a_plain_log_gives_its_results_and_no_counts() {
        let text = "    ok 1 crc16_test\n\
                    \x20   # crc16_benchmark: len=1: 48 MB/s\n\
                    \x20   # crc16_benchmark: len=16: 125 MB/s\n\
                    \x20   ok 2 crc16_benchmark\n\
                    # crc: pass:2 fail:0 skip:0 total:2\n";
        assert_eq!(
            rows(text),
            [
                row("crc16_benchmark", "len=1", "", 48.0),
                row("crc16_benchmark", "len=16", "", 125.0),
            ]
        );
        let count = Source::from_text("c.txt", "ok 1 a\n# a: pass:1 fail:0\n# b: n=2: 5\n");
        assert_eq!(Kunit.detect(&count), 0);
    }
}
