//! Ruby's standard `Benchmark` module (`Benchmark.bm`, `Benchmark.bmbm`):
//! under a header `user     system      total        real`, one line per
//! report, `sort!   1.460000   0.000000   1.460000 (  1.460465)`, the
//! label then the CPU times and, in parentheses, the elapsed time (s).
//!
//! Benchmark the label (without the colon `bm` labels often end in);
//! metrics `real`, `user` and `system` (s), a sample each; `total` is
//! user + system, two values read already, and is not read. `bmbm` runs
//! everything once as a `Rehearsal` first: those lines are warm-up, left
//! out with the reason. Lines whose label starts with `>` are the sums
//! and averages a script asked `bm` for (`>total:`, `>avg:`), made of the
//! reports above: left out with the reason.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(HEADER, r"^\s+user\s+system\s+total\s+real\s*$");
lazy_re!(REHEARSAL, r"^Rehearsal -+\s*$");
lazy_re!(
    ROW,
    r"^(.*?)\s+(\d+\.\d+)\s+(\d+\.\d+)\s+(\d+\.\d+)\s+\(\s*(\d+\.\d+)\)\s*$"
);
lazy_re!(REHEARSAL_TOTAL, r"^-+ total: [\d.]+sec\s*$");

/// The Ruby Benchmark importer.
pub struct RubyBenchmark;

impl Format for RubyBenchmark {
    fn name(&self) -> &'static str {
        "ruby-benchmark"
    }

    fn description(&self) -> &'static str {
        "Ruby Benchmark.bm/bmbm: `user system total real` header, `label  1.46  0.00  1.46 (  1.460465)`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let header = src.lines.iter().any(|l| HEADER.is_match(&l.text));
        let rows = src.lines.iter().any(|l| ROW.is_match(&l.text));
        if header && rows {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let mut rehearsal = false;
        // The quote depth of the header: a row one `>` deeper is one of
        // bm's `>total:` lines (the source strips `>` as a mail quote).
        let mut depth = 0;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.as_str());
            if REHEARSAL.is_match(t) {
                rehearsal = true;
                consumed.push(n);
                continue;
            }
            if REHEARSAL_TOTAL.is_match(t) {
                skipped.push((n, "the rehearsal's total time (bmbm warm-up)".into()));
                rehearsal = false;
                continue;
            }
            if HEADER.is_match(t) {
                rehearsal = false;
                depth = l.quote_depth;
                consumed.push(n);
                continue;
            }
            let Some(c) = ROW.captures(t) else { continue };
            let label = c[1].trim().trim_end_matches(':');
            if rehearsal {
                skipped.push((n, format!("`{label}` in bmbm's rehearsal, a warm-up run")));
                continue;
            }
            if label.starts_with('>') || l.quote_depth > depth {
                skipped.push((n, format!("`{label}`: made of the reports above")));
                continue;
            }
            for (metric, at) in [("real", 5), ("user", 2), ("system", 3)] {
                let v = num(src, n, &c[at], metric)?;
                let row = Row::at(src, n).benchmark(label).metric(metric);
                out.push(row.unit("s").sample(v));
            }
        }
        Parsed::found(src, out, consumed, skipped, "no Ruby Benchmark report line")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    fn real(p: &Parsed) -> Vec<(u32, &str, f64)> {
        let o = p.observations.iter().filter(|o| o.metric == "real");
        o.map(|o| (o.line, o.benchmark.as_str(), o.value)).collect()
    }

    #[test]
    fn bmbm_s_rehearsal_is_warm_up_and_the_second_pass_is_read() {
        // bencher's tool_output/ruby/benchmark/two.txt.
        let p = parse_file(
            &RubyBenchmark,
            "tests/data/harness/ruby-benchmark/bencher-bmbm-two.txt",
        );
        assert_eq!(real(&p), [(6, "sort!", 1.460465), (7, "sort", 1.448327)]);
        let user = p
            .observations
            .iter()
            .find(|o| o.metric == "user" && o.line == 7);
        assert_eq!(user.map(|o| o.value), Some(1.45));
        let skipped: Vec<u32> = p.skipped.iter().map(|(n, _)| *n).collect();
        assert_eq!(skipped, [2, 3, 4]);
    }

    #[test]
    fn bm_s_labels_lose_their_colon_and_its_sums_are_left_out() {
        // bencher's tool_output/ruby/benchmark/five.txt.
        let p = parse_file(
            &RubyBenchmark,
            "tests/data/harness/ruby-benchmark/bencher-bm-totals.txt",
        );
        let got = real(&p);
        assert_eq!(
            got,
            [
                (2, "for", 0.952039),
                (3, "times", 0.984938),
                (4, "upto", 0.946787)
            ]
        );
        assert_eq!(p.skipped.len(), 2);
        assert_eq!(p.observations.len(), 9);
    }
}
