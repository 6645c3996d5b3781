//! rt-tests rt-migrate-test: after its table of each iteration's wake-up
//! latencies (`Iter:` header, `   0:    20046      42      29` rows with
//! their `len:` and `loops:` lines), a summary per real-time task:
//!
//! ```text
//!  Task 1 (prio 3) (pid 1666):
//!    Max: 47 us
//!    Min: 38 us
//!    Tot: 127 us
//!    Avg: 42 us
//! ```
//!
//! Benchmark `rt-migrate-test`, parameters `task` and `prio` (the pid
//! changes every run and would part a baseline from its patched run); Min,
//! Avg and Max are statistics of one invocation's latencies, so, as for
//! cyclictest, each is a `sample` of its own metric (`latency min`,
//! `latency avg`, `latency max`, in the unit printed). `Tot` (the sum of
//! the latencies, Avg × iterations) and the per-iteration table the summary
//! is made from are left out with the reason.

use crate::error::Result;
use crate::ingest::shared::logscan::{any_with, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(ITER_HEADER, r"^Iter:(?:\s+\d+)+\s*$");
lazy_re!(ITER_ROW, r"^\s*(?:\d+|len|loops):(?:\s+\d+)+\s*$");
lazy_re!(TASK, r"^\s*Task (\d+) \(prio (\d+)\) \(pid \d+\):\s*$");
lazy_re!(STAT, r"^\s+(Max|Min|Tot|Avg):\s+(-?\d+)\s+(us|ns|ms)\s*$");
lazy_re!(PARENT, r"^Parent pid: \d+\s*$");

/// The rt-migrate-test importer.
pub struct RtMigrate;

impl Format for RtMigrate {
    fn name(&self) -> &'static str {
        "rt-migrate-test"
    }

    fn description(&self) -> &'static str {
        "rt-tests rt-migrate-test: ` Task N (prio P) (pid …):` summaries of `Max:`/`Min:`/`Avg:` latency after the `Iter:` table"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if any_with(src, "Task ", &TASK) && any_with(src, "Avg:", &STAT) {
            if any_with(src, "Iter:", &ITER_HEADER) {
                95
            } else {
                70
            }
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let mut task: Option<String> = None;
        let mut in_table = false;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.as_str());
            if ITER_HEADER.is_match(t) {
                in_table = true;
                task = None;
                consumed.push(n);
            } else if in_table && ITER_ROW.is_match(t) {
                skipped.push((
                    n,
                    "an iteration's latencies (or its length and loop count): each task's summary below is read".into(),
                ));
            } else if PARENT.is_match(t) {
                in_table = false;
                consumed.push(n);
            } else if let Some(c) = TASK.captures(t) {
                in_table = false;
                let mut p = Params::default();
                p.set("task", &c[1]);
                p.set("prio", &c[2]);
                task = Some(p.render());
                consumed.push(n);
            } else if let (Some(c), Some(params)) = (STAT.captures(t), task.as_deref()) {
                let metric = match &c[1] {
                    "Max" => "latency max",
                    "Min" => "latency min",
                    "Avg" => "latency avg",
                    _ => {
                        skipped.push((
                            n,
                            "sum of the task's latencies (Avg × iterations), not a latency".into(),
                        ));
                        continue;
                    }
                };
                let v = num(src, n, &c[2], metric)?;
                out.push(
                    Row::at(src, n)
                        .benchmark("rt-migrate-test")
                        .params(params)
                        .metric(metric)
                        .unit(&c[3])
                        .sample(v),
                );
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no ` Task N (prio P) (pid …):` summary with `Max:`/`Min:`/`Avg:` found (interrupted run?)",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    #[test]
    fn each_task_s_summary_without_its_pid() {
        let p = parse_file(
            &RtMigrate,
            "tests/data/harness/rt-tests/rt-migrate-test-q-l3.txt",
        );
        let got: Vec<(&str, &str, f64)> = p
            .observations
            .iter()
            .map(|o| (o.params.as_str(), o.metric.as_str(), o.value))
            .collect();
        assert_eq!(got.len(), 9, "{got:?}");
        assert_eq!(got[0], ("prio=2,task=0", "latency max", 20053.0));
        assert_eq!(got[4], ("prio=3,task=1", "latency min", 37.0));
        assert_eq!(got[8], ("prio=4,task=2", "latency avg", 48.0));
        assert!(p.observations.iter().all(|o| o.unit == "us"));
        // The table rows and the `Tot:` lines are accounted for.
        assert!(p.skipped_reason(3).contains("iteration"));
        assert!(p.skipped_reason(19).contains("sum of the task's latencies"));
    }
}
