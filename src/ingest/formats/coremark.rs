//! CoreMark (EEMBC): each run prints a report of `key : value` lines under
//! `2K performance run parameters for coremark.` (or `validation`,
//! `profile generation`): `CoreMark Size`, `Total ticks`, `Total time
//! (secs)`, `Iterations/Sec`, `Iterations`, the compiler, `Parallel
//! Fork|PThreads|…`, then the CRCs it validates with, its verdict
//! (`Correct operation validated.`, `Errors detected`, or that these seeds
//! cannot be validated) and, for a valid run, `CoreMark 1.0 : SCORE / …`.
//!
//! Benchmark `coremark`, parameters the data size, iterations and parallel
//! contexts; metrics `score` (iterations/s, the CoreMark figure) and `time`
//! (s), one sample per report. A run whose CRCs did not match (`Errors
//! detected`) computed something else: it is refused, naming the line.

use crate::error::Result;
use crate::ingest::shared::lkp_wrapper;
use crate::ingest::shared::logscan::{any_near_start, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Observation;

lazy_re!(
    BANNER,
    r"^2K (performance|validation|[Pp]rofile generation) run parameters for coremark\.\s*$"
);
lazy_re!(FIELD, r"^([A-Za-z/ ()]+?|\[\d+\]crc\w+)\s*:\s*(.*)$");
lazy_re!(SCORE_LINE, r"^CoreMark 1\.0 : [0-9.]+ / ");

/// The CoreMark importer.
pub struct Coremark;

impl Format for Coremark {
    fn name(&self) -> &'static str {
        "coremark"
    }

    fn description(&self) -> &'static str {
        "CoreMark: each `2K performance run parameters for coremark.` report's Iterations/Sec (score) and total time, with size, iterations and parallel contexts"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if any_near_start(src, &BANNER) {
            96
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut r = Reader::default();
        for l in &src.lines {
            r.line(src, l.number, l.text.trim())?;
        }
        r.end_report(src);
        Parsed::found(
            src,
            r.out,
            r.consumed,
            r.skipped,
            "no CoreMark report (`2K performance run parameters for coremark.` and `Iterations/Sec :`)",
        )
    }
}

/// One report being read: its parameters and the lines of its figures.
#[derive(Default)]
struct Report {
    params: Params,
    score: Option<(u32, f64)>,
    time: Option<(u32, f64)>,
}

#[derive(Default)]
struct Reader {
    report: Option<Report>,
    out: Vec<Observation>,
    consumed: Vec<u32>,
    skipped: Vec<(u32, String)>,
}

impl Reader {
    fn line(&mut self, src: &Source, n: u32, t: &str) -> Result<()> {
        if BANNER.is_match(t) {
            self.end_report(src);
            self.report = Some(Report::default());
            self.consumed.push(n);
            return Ok(());
        }
        if t == "Errors detected" {
            return Err(src.error(
                Some(n),
                "CoreMark: `Errors detected`: the run's CRCs do not match its seeds, so its score measures something else",
            ));
        }
        let Some(report) = self.report.as_mut() else {
            if let Some(why) = lkp_wrapper::reason(t, "coremark.exe") {
                self.skipped.push((n, why.to_string()));
            }
            return Ok(());
        };
        if SCORE_LINE.is_match(t) {
            self.skipped.push((
                n,
                "the score line repeats Iterations/Sec with the build it was made by".to_string(),
            ));
            return Ok(());
        }
        let Some(c) = FIELD.captures(t) else {
            return Ok(());
        };
        let (key, value) = (c[1].trim(), c[2].trim());
        match key {
            "Iterations/Sec" => report.score = Some((n, num(src, n, value, key)?)),
            "Total time (secs)" => report.time = Some((n, num(src, n, value, key)?)),
            "CoreMark Size" => report.params.set("size", value),
            "Iterations" => report.params.set("iterations", value),
            k if k.starts_with("Parallel ") => report.params.set("parallel", value),
            "Total ticks" => {
                self.skipped.push((
                    n,
                    "the run's time in timer ticks; `Total time (secs)` is read".to_string(),
                ));
                return Ok(());
            }
            k if k == "seedcrc" || k.contains("]crc") => {
                self.skipped.push((
                    n,
                    "a checksum CoreMark validates the run with, not a measurement".to_string(),
                ));
                return Ok(());
            }
            _ => {}
        }
        self.consumed.push(n);
        Ok(())
    }

    fn end_report(&mut self, src: &Source) {
        let Some(report) = self.report.take() else {
            return;
        };
        let params = report.params.render();
        let row = |n: u32, metric: &str, unit: &str| {
            Row::at(src, n)
                .benchmark("coremark")
                .params(&params)
                .metric(metric)
                .unit(unit)
        };
        if let Some((n, v)) = report.score {
            self.out.push(row(n, "score", "iterations/s").sample(v));
        }
        if let Some((n, v)) = report.time {
            self.out.push(row(n, "time", "s").sample(v));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_with_errors_is_refused_at_its_verdict() {
        let text = "2K performance run parameters for coremark.\nCoreMark Size    : 666\nIterations/Sec   : 100.0\nErrors detected\n";
        let e = Coremark
            .parse_accounted(&Source::from_text("c.txt", text))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("c.txt:4") && e.contains("Errors detected"),
            "{e}"
        );
    }
}
