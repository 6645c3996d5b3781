//! The `bencher` line format: `test <id> ... bench: 1,234 ns/iter (+/- 56)`,
//! written by libtest's `cargo bench` and by Criterion's
//! `--output-format bencher`. The value is the median. The `+/-` means the
//! standard deviation from Criterion but max − min from libtest, so it is
//! kept only when the file is not libtest's (libtest prints `running N tests`
//! and `test result:` around its lines). libtest's ids are paths, but
//! Criterion prints a benchmark's name as given, spaces and all (`test
//! Symbols (Execution) ... bench:`): the id is everything up to ` ... bench:`.
//!
//! A `cargo bench` that found no benchmark prints only libtest's frame
//! (`running 0 tests`, `test result: ok. 0 passed; …`): recognised as
//! libtest's, each line accounted, and no value, instead of an unknown file.

use crate::error::Result;
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};
use regex::Regex;
use std::sync::LazyLock;

/// The bencher/libtest bench line importer.
pub struct Bencher;

/// Whether every line of `src` is blank or libtest's frame, with `running
/// 0 tests` among them: the output of a run without benchmarks.
fn only_libtest_frame(src: &Source) -> bool {
    let mut text = src
        .lines
        .iter()
        .map(|l| l.text.trim())
        .filter(|t| !t.is_empty());
    let zero = src.lines.iter().any(|l| l.text.trim() == "running 0 tests");
    zero && text.all(|t| LIBTEST.is_match(t))
}

static LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^test (\S(?:.*?\S)?)\s+\.\.\. bench:\s+([\d,.]+) (\w+)/iter \(\+/- ([\d,.]+)\)(?:\s*=\s*([\d,.]+) (\S+))?")
        .expect("static regex")
});
static LIBTEST: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(running \d+ tests?$|test result: )").expect("static regex"));
// A benchmark libtest ran without a value: it failed, or was ignored.
static NO_VALUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^test (\S(?:.*?\S)?) \.\.\. (FAILED|ignored)$").expect("static regex")
});

impl Format for Bencher {
    fn name(&self) -> &'static str {
        "bencher"
    }

    fn description(&self) -> &'static str {
        "libtest / Criterion --output-format bencher lines: `test <id> ... bench: N ns/iter (+/- M)`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        // Every result line has this literal; the regex is compiled only then.
        if crate::ingest::shared::logscan::any_with(src, "... bench:", &LINE) {
            90
        } else if only_libtest_frame(src) {
            60
        } else {
            0
        }
    }

    /// libtest's `running N tests` and `test result:` lines are `skipped`:
    /// test counts and the whole run's duration, not benchmark values. So
    /// is a benchmark libtest marks `FAILED` or `ignored`, by name, so that
    /// a comparison missing it says why.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let libtest = src.lines.iter().any(|l| LIBTEST.is_match(&l.text));
        let mut out = Vec::new();
        let mut skipped = Vec::new();
        for l in &src.lines {
            let Some(c) = LINE.captures(&l.text) else {
                if LIBTEST.is_match(&l.text) {
                    let why = "libtest's test count or summary, not a benchmark value";
                    skipped.push((l.number, why.to_string()));
                } else if let Some(c) = NO_VALUE.captures(&l.text) {
                    let why = match &c[2] {
                        "FAILED" => {
                            format!("benchmark `{}` failed: libtest gave it no value", &c[1])
                        }
                        _ => format!(
                            "benchmark `{}` was ignored: libtest gave it no value",
                            &c[1]
                        ),
                    };
                    skipped.push((l.number, why));
                }
                continue;
            };
            let num = |i: usize| {
                parse_number(&c[i]).ok_or_else(|| {
                    src.error(Some(l.number), format!("`{}` is not a number", &c[i]))
                })
            };
            let (benchmark, params) = crate::ingest::formats::criterion::console::split_id(&c[1]);
            let unit = &c[3];
            let mk = |metric: &str, unit: &str, stat: Stat, v: f64| {
                Observation::new(benchmark.as_str(), metric, unit, stat, v)
                    .with_params_str(params.clone())
                    .at_line(l.number)
            };
            out.push(mk("time", unit, Stat::Median, num(2)?));
            if !libtest {
                out.push(mk("time", unit, Stat::Stddev, num(4)?));
            }
            if let (Some(_), Some(u)) = (c.get(5), c.get(6)) {
                out.push(mk("thrpt", u.as_str(), Stat::Median, num(5)?));
            }
        }
        Ok(Parsed {
            observations: out,
            consumed: Vec::new(),
            skipped,
            ..Parsed::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Detection as it was before the joined-text search: every line.
    fn detect_by_line(src: &Source) -> Confidence {
        if crate::ingest::any_line_matches(src, "... bench:", &LINE) {
            90
        } else if only_libtest_frame(src) {
            60
        } else {
            0
        }
    }

    #[test]
    fn a_run_without_benchmarks_is_libtest_s_and_holds_no_value() {
        // bencher's tool_output/rust/bench/zero.txt.
        let text = include_str!("../../../../tests/data/harness/libtest/bencher-zero.txt");
        let src = Source::from_text("zero.txt", text);
        assert_eq!(Bencher.detect(&src), 60);
        let p = Bencher.parse_accounted(&src).unwrap();
        assert!(p.observations.is_empty());
        let lines: Vec<u32> = p.skipped.iter().map(|(n, _)| *n).collect();
        assert_eq!(lines, vec![2, 4]);
        // A cargo test run with tests is no run without benchmarks.
        let tests = "running 1 test\ntest a::b ... ok\n\ntest result: ok. 1 passed\n";
        assert_eq!(Bencher.detect(&Source::from_text("t.txt", tests)), 0);
    }

    #[test]
    fn a_criterion_name_may_hold_spaces() {
        // Lines of github-action-benchmark's test/data/extract/criterion_output.txt.
        let text = "Gnuplot not found, using plotters backend
test Create Realm ... bench:         329 ns/iter (+/- 4)

test Symbols (Execution) ... bench:        3268 ns/iter (+/- 47)
";
        let src = Source::from_text("c.txt", text);
        assert_eq!(Bencher.detect(&src), 90);
        let rows = Bencher.parse(&src).unwrap();
        let got: Vec<(&str, Stat, f64)> = rows
            .iter()
            .map(|o| (o.benchmark.as_str(), o.stat, o.value))
            .collect();
        assert_eq!(
            got,
            [
                ("Create Realm", Stat::Median, 329.0),
                ("Create Realm", Stat::Stddev, 4.0),
                ("Symbols (Execution)", Stat::Median, 3268.0),
                ("Symbols (Execution)", Stat::Stddev, 47.0),
            ]
        );
    }

    #[test]
    fn failed_and_ignored_benchmarks_are_left_out_with_their_reason() {
        // Lines of bencher's rust_bench_failed fixture.
        let text = "running 4 tests
test tests::ignored ... ignored
test tests::benchmark_a ... bench:       3,296 ns/iter (+/- 521)
test tests::benchmark_b ... FAILED
test tests::benchmark_c ... bench:       3,215 ns/iter (+/- 356)
";
        let p = Bencher
            .parse_accounted(&Source::from_text("b.txt", text))
            .unwrap();
        assert_eq!(p.observations.len(), 2);
        assert!(p.skipped_reason(4).contains("`tests::benchmark_b` failed"));
        assert!(p.skipped_reason(2).contains("ignored"));
    }

    #[test]
    fn detection_gives_the_score_the_line_search_gives() {
        assert!(crate::ingest::assert_detection_agrees(&Bencher, detect_by_line) > 0);
    }
}
