//! The console output of Gungraun (formerly iai-callgrind), which runs Rust
//! benchmarks under Valgrind's tools and prints, per benchmark, its path
//! and id on lines of their own, then an indented line per metric with
//! this run's value, the previous run's and the change between them:
//!
//! ```text
//! rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci short:10
//!   ======= CALLGRIND =======================================================
//!   Instructions:                1734|1650            (+5.09090%) [+1.04844x]
//!   L2 Hits:                        0|0               (No change)
//!   ======= DHAT ============================================================
//!   Total bytes:                29499|N/A             (*********)
//! ```
//!
//! Benchmark the path (the first word); params the id and arguments after
//! it (a long one goes on over the next unindented lines) and the tool of
//! the section (`callgrind` where no section line names one, the tool
//! such versions ran); metric the label as printed, `%` for a rate. This
//! run's value is a sample; the value after `|` is the previous run's
//! that the tool keeps as its baseline, and the change is derived from
//! the two: neither is read, nor is a metric this run did not measure
//! (`N/A` before the `|`), which is left out with the reason, as are
//! libtest's test counts, the regression messages and the result line.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, lines_containing, Params};
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Observation;

lazy_re!(
    METRIC,
    r"^\s{2,}([A-Za-z][^:|]*?):\s+(\S+)\|(\S+)(?:\s+\([^)]*\)(?:\s+\[[^\]]*\])?)?\s*$"
);
lazy_re!(SECTION, r"^\s+=+ ([A-Z][A-Z0-9 ]*?) =+\s*$");
lazy_re!(
    LIBTEST,
    r"^(?:running \d+ tests?|test result: \w+\. \d+ passed; .*)\s*$"
);
lazy_re!(RESULT, r"^(?:Gungraun|Iai-Callgrind) result: ");

/// The Gungraun (iai-callgrind) console importer.
pub struct Gungraun;

impl Format for Gungraun {
    fn name(&self) -> &'static str {
        "gungraun"
    }

    fn description(&self) -> &'static str {
        "Gungraun / iai-callgrind console: a benchmark's path and id, then `  Instructions:  1734|1650  (+5.09%)` lines"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if lines_containing(src, "|").any(|l| METRIC.is_match(l)) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out: Vec<Observation> = Vec::new();
        let mut consumed = Vec::new();
        let mut skipped: Vec<(u32, String)> = Vec::new();
        // The benchmark's name lines, and whether its metrics have begun.
        let mut name: Vec<&str> = Vec::new();
        let mut open = false;
        let mut tool = String::from("callgrind");
        let mut in_regressions = false;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.as_str());
            if t.trim().is_empty() {
                continue;
            }
            let indented = t.starts_with(' ') || t.starts_with('\t');
            if LIBTEST.is_match(t) || RESULT.is_match(t) {
                skipped.push((
                    n,
                    "libtest's test count or the run's result line, no measurement".into(),
                ));
                in_regressions = false;
            } else if t.trim_end() == "Regressions:" {
                in_regressions = true;
                consumed.push(n);
            } else if in_regressions && indented {
                skipped.push((
                    n,
                    "a regression check's message; the values are read from the benchmark's lines"
                        .into(),
                ));
            } else if !indented {
                if open {
                    (name, open) = (Vec::new(), false);
                    tool = String::from("callgrind");
                }
                name.push(t.trim());
                consumed.push(n);
            } else if let Some(c) = SECTION.captures(t) {
                tool = c[1].to_ascii_lowercase();
                open = true;
                consumed.push(n);
            } else if let Some(c) = METRIC.captures(t) {
                open = true;
                let Some(v) = parse_number(&c[2]) else {
                    skipped.push((n, format!("`{}` not measured in this run", &c[1])));
                    continue;
                };
                let label = c[1].trim();
                let joined = name.join(" ");
                let (bench, id) = joined.split_once(' ').unwrap_or((joined.as_str(), ""));
                let mut p = Params::default();
                if !id.is_empty() {
                    p.set("id", id);
                }
                p.set("tool", &tool);
                let unit = if label.ends_with(" Rate") { "%" } else { "" };
                let row = Row::at(src, n).benchmark(bench).params(&p.render());
                out.push(row.metric(label).unit(unit).sample(v));
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no `  Label:  value|previous  (change)` line under a benchmark",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::testing::{row, views};

    // Lines of bencher's lib/bencher_adapter/tool_output/rust/gungraun/
    // with-dhat.txt, with-summary-and-regressions.txt, delta_with_inf.txt
    // and name_on_multiple_lines.txt.
    const RUN: &str = "
running 0 tests

test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci short:10
  ======= CALLGRIND =======================================================
  Instructions:                1734|N/A             (*********)
  L2 Hits:                        0|N/A             (*********)
  ======= DHAT ============================================================
  Total bytes:                29499|N/A             (*********)
rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci long:30
  Instructions:            26214734|24943490        (+5.09649%) [+1.04849x]
  L2 Hits:                        0|0               (No change)
  Estimated Cycles:            2464|0               (+++inf+++) [+++inf+++]
rust_iai_callgrind::bench::multiple_lines id:string with two
lines
  Instructions:                   1|N/A             (*********)
  I1 Miss Rate:                     10.0000|N/A                  (*********)

Regressions:

  rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci long:
    Callgrind: Instructions (24943490 -> 26214734): +5.09649% exceeds limit of +5.0%

Iai-Callgrind result: Regressed. 0 without regressions; 2 regressed; 2 benchmarks finished in 1.002s
";

    #[test]
    fn each_metric_line_is_this_runs_value_under_its_benchmark_and_tool() {
        let src = Source::from_text("g.txt", RUN);
        assert_eq!(Gungraun.detect(&src), 95);
        let parsed = Gungraun.parse_accounted(&src).unwrap();
        let rows = views(&parsed.observations);
        let fib = "rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci";
        let multi = "rust_iai_callgrind::bench::multiple_lines";
        assert_eq!(
            rows,
            [
                row(
                    fib,
                    "id=short:10,tool=callgrind",
                    "Instructions",
                    "",
                    1734.0
                ),
                row(fib, "id=short:10,tool=callgrind", "L2 Hits", "", 0.0),
                row(fib, "id=short:10,tool=dhat", "Total bytes", "", 29499.0),
                row(
                    fib,
                    "id=long:30,tool=callgrind",
                    "Instructions",
                    "",
                    26214734.0
                ),
                row(fib, "id=long:30,tool=callgrind", "L2 Hits", "", 0.0),
                row(
                    fib,
                    "id=long:30,tool=callgrind",
                    "Estimated Cycles",
                    "",
                    2464.0
                ),
                row(
                    multi,
                    "id=id:string with two lines,tool=callgrind",
                    "Instructions",
                    "",
                    1.0
                ),
                row(
                    multi,
                    "id=id:string with two lines,tool=callgrind",
                    "I1 Miss Rate",
                    "%",
                    10.0
                ),
            ]
        );
        // libtest's two lines, the regression message's two and the result line.
        let why: Vec<u32> = parsed.skipped.iter().map(|s| s.0).collect();
        assert_eq!(why, [2, 4, 23, 24, 26]);
    }

    #[test]
    fn a_label_and_number_without_the_previous_run_is_no_gungraun_line() {
        // The original iai's lines (bencher's rust/iai/two.txt).
        let src = Source::from_text("i.txt", "bench_fibonacci_short\n  Instructions:                1735\n  L1 Accesses:                 2364\n");
        assert_eq!(Gungraun.detect(&src), 0);
    }
}
