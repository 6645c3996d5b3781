//! refscale (`kernel/rcu/refscale.c`, once `refperf`): each run of the
//! module starts with `<type>-ref-scale: --- Start of test: … loops=N
//! nreaders=N nruns=N readdelay=N`, optionally prints every experiment's
//! per-reader loop times (`Experiment #N (Format: <THREAD-NUM>:<Total loop
//! time in ns>)`), and ends with a `Runs<TAB>Time(ns)` table: one row per
//! experiment, the nanoseconds one read-side critical section took on
//! average. `kvm-recheck-refscale.sh` condenses that table into `Points:`
//! (the experiments sorted) and the `Average|Minimum|Median|Maximum reader
//! duration:` lines.
//!
//! Benchmark `refscale`, parameters the type (`rcu`, `srcu`, `refcnt` …),
//! readers, loops, read delay; metric `reader duration` (ns): each table
//! row a sample, the summaries as their stats.

use super::console::{harness_line, read_lines, start_params, tagged, unstamped, ConsoleReader};
use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};

lazy_re!(RUNS_HEADER, r"^\s*Runs\tTime\(ns\)\s*$");
lazy_re!(RUNS_ROW, r"^\s*(\d+)\t(\d+(?:\.\d+)?)\s*$");
lazy_re!(EXPERIMENT, r"^Experiment #\d+ \(Format: <THREAD-NUM>:");
lazy_re!(LOOP_TIMES, r"^\s*\d+: \d+(?:\s+\d+: \d+)*\s*$");
lazy_re!(
    SUMMARY,
    r"^(Average|Minimum|Median|Maximum) reader duration: ([0-9.eE+-]+)(?: nanoseconds)?\s*$"
);
lazy_re!(POINTS, r"^Points:((?:\s+[0-9.]+)+)\s*$");
lazy_re!(RESULTS, r"^(\S+) results:\s*$");

/// The parameters of a start line that say what is measured.
const PARAMS: &[&str] = &["nreaders", "loops", "readdelay", "lookup_instances"];

/// The refscale importer.
pub struct Refscale;

impl Format for Refscale {
    fn name(&self) -> &'static str {
        "refscale"
    }

    fn description(&self) -> &'static str {
        "refscale (kernel module, console log): the `Runs\tTime(ns)` table of each run, and kvm-recheck-refscale.sh's `Points:` and `… reader duration:` summary"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let own = |t: &str| {
            let t = unstamped(t);
            tagged(t).is_some_and(|g| matches!(g.kind, "ref-scale" | "ref-perf"))
                || SUMMARY.is_match(t)
        };
        if src.lines.iter().take(5000).any(|l| own(&l.text)) {
            96
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut r = Reader::default();
        read_lines(src, &mut r)?;
        Parsed::found(
            src,
            r.out,
            r.consumed,
            r.skipped,
            "no refscale result (a `Runs\tTime(ns)` table after `END OF TEST`, or `Average reader duration:`)",
        )
    }
}

#[derive(Default)]
struct Reader {
    /// The canonical parameters of the run being read.
    params: String,
    /// Inside the `Runs` table.
    table: bool,
    /// Inside an experiment's per-reader loop times.
    loop_times: bool,
    out: Vec<Observation>,
    consumed: Vec<u32>,
    skipped: Vec<(u32, String)>,
}

impl ConsoleReader for Reader {
    fn line(&mut self, src: &Source, n: u32, text: &str) -> Result<()> {
        Reader::line(self, src, n, text)
    }

    fn taken(&self) -> [usize; 3] {
        [self.out.len(), self.consumed.len(), self.skipped.len()]
    }

    fn skipped(&mut self) -> &mut Vec<(u32, String)> {
        &mut self.skipped
    }
}

impl Reader {
    fn line(&mut self, src: &Source, n: u32, t: &str) -> Result<()> {
        let mut body = t.trim();
        if let Some(tag) = tagged(t) {
            if !matches!(tag.kind, "ref-scale" | "ref-perf") {
                return Ok(());
            }
            body = tag.message;
            self.loop_times = false;
            self.table = false;
            if body.starts_with("--- Start of test:") {
                self.params = start_params(tag.test_type, body, PARAMS).render();
                self.consumed.push(n);
                return Ok(());
            }
            if body.is_empty() || !RUNS_HEADER.is_match(body) && !RUNS_ROW.is_match(body) {
                if EXPERIMENT.is_match(body) {
                    self.loop_times = true;
                    self.skipped.push((n, LOOP_TIMES_WHY.to_string()));
                } else {
                    // The module's progress messages (`END OF TEST …`,
                    // `main_func task started`).
                    self.consumed.push(n);
                }
                return Ok(());
            }
        }
        if RUNS_HEADER.is_match(body) {
            self.table = true;
            self.loop_times = false;
            self.consumed.push(n);
        } else if let Some(c) = RUNS_ROW.captures(body).filter(|_| self.table) {
            let v = num(src, n, &c[2], "refscale run time")?;
            let run = num(src, n, &c[1], "refscale run number")?;
            let mut o = self.row(src, n).sample(v);
            o.run = Some(run as u32 - 1);
            self.out.push(o);
        } else if self.loop_times && LOOP_TIMES.is_match(body) {
            self.skipped.push((n, LOOP_TIMES_WHY.to_string()));
        } else if let Some(c) = SUMMARY.captures(body) {
            let stat = match &c[1] {
                "Average" => Stat::Mean,
                "Minimum" => Stat::Min,
                "Median" => Stat::Median,
                _ => Stat::Max,
            };
            let v = num(src, n, &c[2], "refscale reader duration")?;
            self.out.push(self.row(src, n).stat(stat, v));
        } else if let Some(c) = POINTS.captures(body) {
            // The script sorts the runs: each point is one run's figure,
            // their order lost.
            for w in c[1].split_whitespace() {
                let v = num(src, n, w, "refscale point")?;
                self.out.push(self.row(src, n).sample(v));
            }
        } else if let Some(c) = RESULTS.captures(body) {
            self.params = format!("config={}", &c[1]);
            self.consumed.push(n);
        } else if let Some(why) = harness_line(body) {
            self.skipped.push((n, why.to_string()));
        } else if !body.is_empty() {
            self.table = false;
            self.loop_times = false;
        }
        Ok(())
    }

    fn row(&self, src: &Source, n: u32) -> Row {
        Row::at(src, n)
            .benchmark("refscale")
            .params(&self.params)
            .metric("reader duration")
            .unit("ns")
    }
}

const LOOP_TIMES_WHY: &str =
    "one experiment's loop times per reader (ns for all loops), averaged per loop in the `Runs` table";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_split_by_a_stamp_is_one_table() {
        let text = "[ 1.0] rcu-ref-scale: --- Start of test:  verbose=0 loops=10 nreaders=2 nruns=3 readdelay=0\n\
                    [ 2.0] rcu-ref-scale: END OF TEST. Calculating average duration per loop (nanoseconds)...\n\
                    [ 2.1] rcu-ref-scale: \n\
                    \x20              Runs\tTime(ns)\n\
                    \x20              1\t3.299\n\
                    [ 2.2] 2\t6.460\n\
                    \x20              3\t6.254\n";
        let p = Refscale
            .parse_accounted(&Source::from_text("r.txt", text))
            .unwrap();
        let got: Vec<_> = p.observations.iter().map(|o| (o.value, o.run)).collect();
        assert_eq!(got, [(3.299, Some(0)), (6.46, Some(1)), (6.254, Some(2))]);
        assert_eq!(
            p.observations[0].params.as_str(),
            "loops=10,nreaders=2,readdelay=0,type=rcu"
        );
    }

    #[test]
    fn recheck_summary_gives_points_and_stats() {
        let text = "NOWAIT results:\nPoints: 1.5 2.5\nAverage reader duration: 2 nanoseconds\nMinimum reader duration: 1.5\nMedian reader duration: 2\nMaximum reader duration: 2.5\nComputed from refscale printk output.\n";
        let p = Refscale
            .parse_accounted(&Source::from_text("r.txt", text))
            .unwrap();
        let got: Vec<_> = p
            .observations
            .iter()
            .map(|o| (o.stat, o.value, o.params.as_str()))
            .collect();
        assert_eq!(got[0], (Stat::Sample, 1.5, "config=NOWAIT"));
        assert_eq!(got[2], (Stat::Mean, 2.0, "config=NOWAIT"));
        assert_eq!(got[5], (Stat::Max, 2.5, "config=NOWAIT"));
    }
}
