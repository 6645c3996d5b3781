//! mbw, the memory bandwidth benchmark: one line per run of each method,
//! `0 Method: MEMCPY Elapsed: 0.00277 MiB: 16.00000 Copy: 5784.526 MiB/s`
//! (tab-separated), then `AVG Method: MEMCPY …` over that method's runs;
//! without `-q` a banner (`Long uses 8 bytes. …`, `Using 262144 bytes as blocks for memcpy block
//! copy test.`, `Getting down to business... Doing 10 runs per test.`).
//!
//! Benchmark `mbw`, parameters `method` (MEMCPY, DUMB, MCBLOCK …), `size`
//! (the array's MiB) and, for MCBLOCK, `block_size` (bytes, from the
//! banner); metrics `copy` (MiB/s) and `elapsed` (s), a `sample` per
//! numbered run. An `AVG` line is made of the runs above it: left out
//! with the reason where they are there, and read as the `mean` where a
//! paste kept only the `AVG` lines. Tabs turned into spaces read alike.

use crate::error::Result;
use crate::ingest::shared::logscan::{has, lazy_re, lines_containing, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Stat;

lazy_re!(
    RUN,
    r"^\s*(\d+|AVG)\s+Method:\s+(\w+)\s+Elapsed:\s+([\d.]+)\s+MiB:\s+([\d.]+)\s+Copy:\s+([\d.]+) MiB/s\s*$"
);
lazy_re!(
    BLOCK,
    r"^\s*Using (\d+) bytes as blocks for memcpy block copy test"
);
lazy_re!(
    BANNER,
    r"^\s*(?:Long uses \d+ bytes|Getting down to business)"
);

/// The mbw importer.
pub struct Mbw;

impl Format for Mbw {
    fn name(&self) -> &'static str {
        "mbw"
    }

    fn description(&self) -> &'static str {
        "mbw: `0\tMethod: MEMCPY\tElapsed: 0.00277\tMiB: 16.00000\tCopy: 5784.526 MiB/s` per run, `AVG` per method"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if has(src, "Method: ") && lines_containing(src, "Copy:").any(|l| RUN.is_match(l)) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let mut block = None;
        // The methods that have numbered runs: their `AVG` is made of them.
        let mut with_runs: Vec<String> = Vec::new();
        for l in &src.lines {
            if let Some(c) = RUN.captures(&l.text) {
                if &c[1] != "AVG" && !with_runs.iter().any(|m| m == &c[2]) {
                    with_runs.push(c[2].to_string());
                }
            }
        }
        for l in &src.lines {
            let n = l.number;
            if let Some(c) = BLOCK.captures(&l.text) {
                block = Some(c[1].to_string());
                consumed.push(n);
                continue;
            }
            if BANNER.is_match(&l.text) {
                consumed.push(n);
                continue;
            }
            let Some(c) = RUN.captures(&l.text) else {
                continue;
            };
            let method = &c[2];
            let avg = &c[1] == "AVG";
            if avg && with_runs.iter().any(|m| m == method) {
                skipped.push((n, format!("the average of the {method} runs above")));
                continue;
            }
            let mut p = Params::default();
            p.set("method", method);
            p.set("size", format!("{}MiB", num(src, n, &c[4], "MiB")?));
            if method == "MCBLOCK" {
                if let Some(b) = &block {
                    p.set("block_size", b);
                }
            }
            let params = p.render();
            for (metric, unit, at) in [("copy", "MiB/s", 5), ("elapsed", "s", 3)] {
                let v = num(src, n, &c[at], metric)?;
                let row = Row::at(src, n)
                    .benchmark("mbw")
                    .params(&params)
                    .metric(metric)
                    .unit(unit);
                out.push(if avg {
                    row.stat(Stat::Mean, v)
                } else {
                    row.sample(v)
                });
            }
        }
        Parsed::found(src, out, consumed, skipped, "no mbw `Method:` line")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    #[test]
    fn each_run_is_a_sample_and_the_average_of_them_is_left_out() {
        let p = parse_file(&Mbw, "tests/data/harness/mbw/n3-b4096-16.txt");
        let copy: Vec<(&str, f64)> = p
            .observations
            .iter()
            .filter(|o| o.metric == "copy")
            .map(|o| (o.params.as_str(), o.value))
            .collect();
        assert_eq!(copy.len(), 9);
        assert_eq!(copy[0], ("method=MEMCPY,size=16MiB", 2381.307));
        assert_eq!(
            copy[8],
            ("block_size=4096,method=MCBLOCK,size=16MiB", 3425.391)
        );
        assert_eq!(p.skipped.len(), 3);
        assert!(p.skipped[0].1.contains("MEMCPY"));
        assert!(p.observations.iter().all(|o| o.stat == Stat::Sample));
        assert_eq!(p.consumed, vec![1, 2, 3]);
    }

    #[test]
    fn a_paste_of_the_average_lines_alone_gives_means() {
        let text = "AVG     Method: DUMB    Elapsed: 0.23962        MiB: 2048.00000 Copy: 8546.830 MiB/s\n\
                    AVG     Method: MCBLOCK Elapsed: 0.19531        MiB: 2048.00000 Copy: 10485.808 MiB/s\n";
        let src = Source::from_text("mail.txt", text);
        assert_eq!(Mbw.detect(&src), 95);
        let p = Mbw.parse_accounted(&src).unwrap();
        assert_eq!(p.observations.len(), 4);
        assert_eq!(p.observations[2].stat, Stat::Mean);
        assert_eq!(p.observations[2].value, 10485.808);
        assert_eq!(p.observations[2].params, "method=MCBLOCK,size=2048MiB");
    }
}
