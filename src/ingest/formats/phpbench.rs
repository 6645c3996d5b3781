//! PHPBench (the `phpbench.php` micro-benchmark script): one
//! `test_arithmetic<TAB>0.0552 seconds.` line per test, then a summary of
//! `Key : value` lines (`Iterations : 2000000`, `Total time : 19 seconds`,
//! `Score : 1027746 (higher is better)`).
//!
//! Benchmark `phpbench`, parameter `iterations` (from the summary, or the
//! `Starting the benchmark with N iterations.` banner); metric the test's
//! name (s), `total time` (s) and `score`, each a `sample` of the run; a
//! log of several runs gives one run each. The PHP version, system, date
//! and test count are context; PHP's own warnings about the test scripts
//! are left out with the reason.

use crate::error::Result;
use crate::ingest::shared::lkp_wrapper;
use crate::ingest::shared::logscan::{any_with, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(TEST, r"^\s*(\S+)\s+(\d+(?:\.\d+)?) seconds\.\s*$");
lazy_re!(
    SUMMARY,
    r"^(System|PHP version|PHPBench|Date|Tests|Iterations|Total time|Score)\s*:\s*(.*?)\s*$"
);
lazy_re!(BANNER, r"^Starting the benchmark with (\d+) iterations\.");
lazy_re!(ENABLED, r"^Test \[\S+\] enabled\.\s*$");
lazy_re!(
    PHP_NOTICE,
    r"^PHP (?:Deprecated|Warning|Notice|Fatal error|Parse error):"
);
lazy_re!(LEADING_NUMBER, r"^(\d+(?:\.\d+)?)\b");

/// The PHPBench importer.
pub struct Phpbench;

impl Format for Phpbench {
    fn name(&self) -> &'static str {
        "phpbench"
    }

    fn description(&self) -> &'static str {
        "PHPBench (phpbench.php): `test_name  0.0552 seconds.` lines and the `Score :` summary"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let tests = any_with(src, "seconds.", &TEST);
        if tests && any_with(src, "PHPBench", &SUMMARY) {
            95
        } else if tests && any_with(src, "iterations.", &BANNER) {
            90
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        // The iterations of each run: the banner opens it, the summary
        // closes it; the tests in between take whichever says so.
        let mut run_start = 0;
        let mut params = Params::default();
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim_end());
            if let Some(c) = BANNER.captures(t) {
                params.set("iterations", &c[1]);
                run_start = out.len();
                consumed.push(n);
            } else if let Some(c) = TEST.captures(t) {
                let v = num(src, n, &c[2], &c[1])?;
                out.push(
                    Row::at(src, n)
                        .benchmark("phpbench")
                        .params(&params.render())
                        .metric(&c[1])
                        .unit("s")
                        .sample(v),
                );
            } else if let Some(c) = SUMMARY.captures(t) {
                let value = LEADING_NUMBER.captures(&c[2]).map(|m| m[1].to_string());
                match (&c[1], value) {
                    ("Iterations", Some(v)) => {
                        // The summary names the iterations of the tests
                        // above it, if the banner was cut.
                        params.set("iterations", &v);
                        let p = params.render();
                        for o in &mut out[run_start..] {
                            o.params = p.as_str().into();
                        }
                        consumed.push(n);
                    }
                    ("Total time", Some(v)) | ("Score", Some(v)) => {
                        let (metric, unit) = if &c[1] == "Score" {
                            ("score", "")
                        } else {
                            ("total time", "s")
                        };
                        let v = num(src, n, &v, metric)?;
                        out.push(
                            Row::at(src, n)
                                .benchmark("phpbench")
                                .params(&params.render())
                                .metric(metric)
                                .unit(unit)
                                .sample(v),
                        );
                        if metric == "score" {
                            run_start = out.len();
                        }
                    }
                    _ => consumed.push(n),
                }
            } else if ENABLED.is_match(t) {
                consumed.push(n);
            } else if PHP_NOTICE.is_match(t) {
                skipped.push((n, "PHP's warning about a test script, not a result".into()));
            } else if let Some(why) = lkp_wrapper::reason(t, "php") {
                skipped.push((n, why.into()));
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no PHPBench `test_name  N seconds.` line",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    #[test]
    fn each_test_s_time_and_the_score_with_the_iterations() {
        let p = parse_file(&Phpbench, "tests/data/harness/phpbench/lkp-01.txt");
        let rows: Vec<(&str, &str, &str, f64)> = p
            .observations
            .iter()
            .map(|o| {
                (
                    o.metric.as_str(),
                    o.unit.as_str(),
                    o.params.as_str(),
                    o.value,
                )
            })
            .collect();
        assert_eq!(rows.len(), 56 + 2);
        assert_eq!(
            rows[0],
            ("test_arithmetic", "s", "iterations=2000000", 0.0552)
        );
        assert_eq!(
            rows[44],
            (
                "test_ordered_functions_references",
                "s",
                "iterations=2000000",
                1.4052
            )
        );
        assert_eq!(rows[56], ("total time", "s", "iterations=2000000", 19.0));
        assert_eq!(rows[57], ("score", "", "iterations=2000000", 1027746.0));
        assert!(p.observations.iter().all(|o| o.benchmark == "phpbench"));
        // The two PHP warnings and the logged command line, with reasons.
        assert_eq!(p.skipped.len(), 4, "{:?}", p.skipped);
    }

    #[test]
    fn the_summary_names_the_iterations_when_the_banner_is_cut() {
        let text = "            test_md5\t   0.2750 seconds.\n\nPHPBench   : 0.8.1\nIterations : 500\nScore      : 12 (higher is better)\n";
        let src = Source::from_text("out.txt", text);
        assert_eq!(Phpbench.detect(&src), 95);
        let p = Phpbench.parse_accounted(&src).unwrap();
        assert!(p.observations.iter().all(|o| o.params == "iterations=500"));
    }
}
