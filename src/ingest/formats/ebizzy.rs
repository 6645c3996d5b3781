//! ebizzy: `257405 records/s` (followed, with `-v`, by each thread's count
//! and by `real 10.00 s`, `user 157.88 s`, `sys 0.03 s`), under its
//! settings banner (`threads 24`, `chunks 10`, `chunk_size 5242880`) or a
//! command line (`./ebizzy -t 32 -S 10`).
//!
//! Benchmark `ebizzy`, parameters `threads`, `chunks`, `chunk_size` and
//! `seconds` where the output states them; metrics `records` (records/s)
//! and `real time`, `user time`, `sys time` (s), each a `sample` of the
//! run; a log of several runs gives one run each. The per-thread counts
//! are detail of the run, not read.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, lines_containing, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(RECORDS, r"^(\d+) records/s\b");
lazy_re!(TIME, r"^(real|user|sys)\s+([\d.]+) s\s*$");
lazy_re!(SETTING, r"^(threads|chunks|chunk_size|seconds) (\d+)\s*$");
lazy_re!(FLAG, r"\s-([tnsS])\s*(\d+)");

/// The ebizzy importer.
pub struct Ebizzy;

impl Format for Ebizzy {
    fn name(&self) -> &'static str {
        "ebizzy"
    }

    fn description(&self) -> &'static str {
        "ebizzy: `257405 records/s` lines, with -v the real/user/sys times and the settings banner"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if lines_containing(src, "records/s").any(|l| RECORDS.is_match(l.trim())) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed) = (Vec::new(), Vec::new());
        let mut params = Params::default();
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            if let Some(c) = RECORDS.captures(t) {
                let v = num(src, n, &c[1], "records/s")?;
                out.push(
                    Row::at(src, n)
                        .benchmark("ebizzy")
                        .params(&params.render())
                        .metric("records")
                        .unit("records/s")
                        .sample(v),
                );
            } else if let Some(c) = TIME.captures(t) {
                let v = num(src, n, &c[2], &c[1])?;
                let metric = format!("{} time", &c[1]);
                out.push(
                    Row::at(src, n)
                        .benchmark("ebizzy")
                        .params(&params.render())
                        .metric(&metric)
                        .unit("s")
                        .sample(v),
                );
            } else if let Some(c) = SETTING.captures(t) {
                params.set(&c[1], &c[2]);
                consumed.push(n);
            } else if t.contains("ebizzy") {
                // The banner, or the command line and its flags.
                for c in FLAG.captures_iter(t) {
                    let key = match &c[1] {
                        "t" => "threads",
                        "n" => "chunks",
                        "s" => "chunk_size",
                        _ => "seconds",
                    };
                    params.set(key, &c[2]);
                }
                consumed.push(n);
            } else if t.starts_with("Iteration:") {
                consumed.push(n);
            }
        }
        Parsed::found(src, out, consumed, Vec::new(), "no `N records/s` line")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    #[test]
    fn runs_with_their_times_and_settings() {
        let p = parse_file(&Ebizzy, "tests/data/harness/ebizzy/ten-runs-v.txt");
        let records: Vec<f64> = p
            .observations
            .iter()
            .filter(|o| o.metric == "records")
            .map(|o| o.value)
            .collect();
        assert_eq!(records.len(), 10);
        assert_eq!(records[0], 306090.0);
        let user = p
            .observations
            .iter()
            .find(|o| o.metric == "user time")
            .unwrap();
        assert_eq!((user.value, user.unit.as_str()), (1227.55, "s"));
        let p = parse_file(&Ebizzy, "tests/data/harness/ebizzy/lkp-t32-S10.txt");
        let o = &p.observations[0];
        assert_eq!(
            (o.value, o.params.as_str()),
            (257405.0, "seconds=10,threads=32")
        );
    }
}
