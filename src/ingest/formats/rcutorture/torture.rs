//! locktorture and rcutorture (`kernel/locking/locktorture.c`,
//! `kernel/rcu/rcutorture.c`): a run opens with `<type>-torture:--- Start
//! of test: …` and closes with `--- End of test: SUCCESS|FAILURE|…: …`.
//! locktorture prints its statistics every `stat_interval` and at the end,
//! `<lock>-torture: Writes:  Total: N  Max/Min: MAX/MIN  Fail: F` (and a
//! `Reads :` line for reader-writer locks): cumulative counts of lock
//! acquisitions, so the last of a run holds its totals. Kernels since 5.x
//! print that line without the module's tag (`pr_alert("%s", buf)`), so a
//! statistics line is the module's with or without it. The end line
//! repeats the start line's parameters, which name a run whose start the
//! log (or a mail quoting its end) does not hold. rcutorture checks
//! RCU and reports a pass or fail outcome; its counters (`Reader Pipe:`,
//! `Free-Block Circulation:`) count its checks, not a measurement.
//!
//! Benchmark `locktorture`, parameters the lock type and the writer and
//! reader threads; metrics `writes` and `reads` (acquisitions), `writes per
//! thread max|min` (one thread's most and fewest), and `write failures`/
//! `read failures`, each a sample of its run.

use super::console::{harness_line, read_lines, start_params, tagged, unstamped, ConsoleReader};
use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Observation;

lazy_re!(
    STATS,
    r"^(Writes|Reads) ?:\s+Total: (\d+)\s+Max/Min: (\d+)/(\d+)\s+(?:\?\?\?\s+)?Fail: (\d+)"
);
lazy_re!(END, r"^--- End of test: ([A-Z_]+)");

/// The parameters of a start line that say what is measured.
const PARAMS: &[&str] = &[
    "nwriters_stress",
    "nreaders_stress",
    "nreaders",
    "nfakewriters",
];

/// The locktorture/rcutorture importer.
pub struct Torture;

impl Format for Torture {
    fn name(&self) -> &'static str {
        "torture"
    }

    fn description(&self) -> &'static str {
        "locktorture/rcutorture (kernel modules, console log): locktorture's last `Writes:|Reads : Total: Max/Min: Fail:` of each run; rcutorture's pass or fail outcome is accounted, not a value"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let own = |t: &str| {
            let t = unstamped(t);
            STATS.is_match(t.trim())
                || tagged(t).is_some_and(|g| {
                    g.kind == "torture"
                        && (g.message.starts_with("--- Start of test:")
                            || g.message.starts_with("--- End of test:")
                            || STATS.is_match(g.message))
                })
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
        r.end_run(src);
        let why = match r.outcomes.as_slice() {
            [] if r.started => "a torture test's log without its outcome and without lock statistics (`Writes:  Total: N  Max/Min: MAX/MIN  Fail: F`): nothing measured".to_string(),
            [] => "no locktorture statistics (`Writes:  Total: N  Max/Min: MAX/MIN  Fail: F`)".to_string(),
            outcomes => format!(
                "a torture test's outcome (`{}`) and no lock statistics: it checks, it does not measure",
                outcomes.join("`, `")
            ),
        };
        Parsed::found(src, r.out, r.consumed, r.skipped, why)
    }
}

/// One statistics line: its line, `write` or `read`, and its total, the
/// most and fewest acquisitions of one thread, and the failures.
type Stats = (u32, String, [f64; 4]);

#[derive(Default)]
struct Reader {
    params: String,
    /// The run's statistics lines so far; the last of each kind is kept.
    stats: Vec<Stats>,
    outcomes: Vec<String>,
    /// Whether a run's start was seen.
    started: bool,
    /// Whether the run being read has its start line (its parameters).
    in_run: bool,
    out: Vec<Observation>,
    consumed: Vec<u32>,
    skipped: Vec<(u32, String)>,
}

impl ConsoleReader for Reader {
    fn line(&mut self, src: &Source, n: u32, text: &str) -> Result<()> {
        Reader::line(self, src, n, text)
    }

    fn taken(&self) -> [usize; 3] {
        [self.consumed.len(), self.skipped.len(), self.stats.len()]
    }

    fn skipped(&mut self) -> &mut Vec<(u32, String)> {
        &mut self.skipped
    }
}

impl Reader {
    fn line(&mut self, src: &Source, n: u32, t: &str) -> Result<()> {
        let Some(tag) = tagged(t) else {
            if STATS.is_match(t.trim()) {
                return self.stats_line(src, n, t.trim());
            }
            if let Some(why) = harness_line(t) {
                self.skipped.push((n, why.to_string()));
            }
            return Ok(());
        };
        if tag.kind != "torture" {
            return Ok(());
        }
        let m = tag.message;
        if m.starts_with("--- Start of test:") {
            self.end_run(src);
            self.started = true;
            self.in_run = true;
            self.params = start_params(tag.test_type, m, PARAMS).render();
            self.consumed.push(n);
        } else if STATS.is_match(m) {
            return self.stats_line(src, n, m);
        } else if let Some(c) = END.captures(m) {
            self.outcomes.push(c[1].to_string());
            self.consumed.push(n);
            if !self.in_run {
                self.params = start_params(tag.test_type, m, PARAMS).render();
            }
            self.end_run(src);
            self.in_run = false;
        } else {
            // Progress and self-check messages (`Creating … task`,
            // `Free-Block Circulation:`, `rtc: … ver: …`).
            self.skipped.push((
                n,
                "a torture module's progress or self-check message, not a measurement".to_string(),
            ));
        }
        Ok(())
    }

    /// A statistics line `m` (`Writes:  Total: N  Max/Min: MAX/MIN  Fail: F`),
    /// line `n`, kept until its run ends.
    fn stats_line(&mut self, src: &Source, n: u32, m: &str) -> Result<()> {
        let Some(c) = STATS.captures(m) else {
            return Ok(());
        };
        let kind = if &c[1] == "Writes" { "write" } else { "read" };
        let mut v = [0.0; 4];
        for (i, slot) in v.iter_mut().enumerate() {
            *slot = num(src, n, &c[i + 2], "locktorture statistics")?;
        }
        self.stats.push((n, kind.to_string(), v));
        Ok(())
    }

    /// The run's last statistics of each kind are its totals; the earlier
    /// ones were printed on the way.
    fn end_run(&mut self, src: &Source) {
        let stats = std::mem::take(&mut self.stats);
        for (i, (n, kind, v)) in stats.iter().enumerate() {
            if stats[i + 1..].iter().any(|s| &s.1 == kind) {
                self.skipped.push((
                    *n,
                    "statistics at an interval; the last of the run holds its totals".to_string(),
                ));
                continue;
            }
            let plural = format!("{kind}s");
            let rows = [
                (plural.clone(), v[0]),
                (format!("{plural} per thread max"), v[1]),
                (format!("{plural} per thread min"), v[2]),
                (format!("{kind} failures"), v[3]),
            ];
            for (metric, value) in rows {
                let row = Row::at(src, *n)
                    .benchmark("locktorture")
                    .params(&self.params)
                    .metric(&metric)
                    .unit("");
                self.out.push(row.sample(value));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_statistics_of_a_run_are_its_totals() {
        // The statistics line as the kernel's locktorture document shows it,
        // printed twice: at an interval, then at the end.
        let text = "[ 9.5] spin_lock-torture:--- Start of test: nwriters_stress=4 nreaders_stress=0 stat_interval=60 verbose=1\n\
                    [69.5] spin_lock-torture: Writes:  Total: 9374606  Max/Min: 0/0   Fail: 0\n\
                    [309.6] spin_lock-torture: Writes:  Total: 93746064  Max/Min: 0/0   Fail: 0\n\
                    [309.7] spin_lock-torture:--- End of test: SUCCESS: nwriters_stress=4\n";
        let p = Torture
            .parse_accounted(&Source::from_text("l.txt", text))
            .unwrap();
        let got: Vec<_> = p
            .observations
            .iter()
            .map(|o| (o.metric.as_str(), o.value, o.line))
            .collect();
        assert_eq!(got[0], ("writes", 93746064.0, 3));
        assert_eq!(got[3], ("write failures", 0.0, 3));
        assert_eq!(
            p.observations[0].params.as_str(),
            "nreaders_stress=0,nwriters_stress=4,type=spin_lock"
        );
        assert_eq!(p.skipped.len(), 1);
    }

    #[test]
    fn statistics_without_the_module_tag_are_read_with_the_end_lines_parameters() {
        // A newer kernel's log, as a mail quotes it: the statistics line
        // carries no tag, and no start line precedes it.
        let text = "[12051.968992] Writes:  Total: 47843400  Max/Min: 1335320/5942 ???  Fail: 0 \n\
                    [12051.969236] spin_lock-torture: lock_torture_stats is stopping\n\
                    [12051.969507] Writes:  Total: 47843400  Max/Min: 1335320/5942 ???  Fail: 0 \n\
                    [12051.969813] spin_lock-torture:--- End of test: SUCCESS: acq_writer_lim=0 bind_readers=0-63 nreaders_stress=0 nwriters_stress=128 onoff_holdoff=0\n";
        let src = Source::from_text("l.txt", text);
        assert_eq!(Torture.detect(&src), 96);
        let p = Torture.parse_accounted(&src).unwrap();
        let got: Vec<_> = p
            .observations
            .iter()
            .map(|o| (o.metric.as_str(), o.value, o.line))
            .collect();
        assert_eq!(
            got,
            [
                ("writes", 47843400.0, 3),
                ("writes per thread max", 1335320.0, 3),
                ("writes per thread min", 5942.0, 3),
                ("write failures", 0.0, 3)
            ]
        );
        assert_eq!(
            p.observations[0].params.as_str(),
            "nreaders_stress=0,nwriters_stress=128,type=spin_lock"
        );
        // The tag alone does not make a line statistics.
        let other = Source::from_text("o.txt", "[1.0] Reads:  Total: 5\n");
        assert_eq!(Torture.detect(&other), 0);
    }

    #[test]
    fn an_outcome_alone_is_refused_with_it() {
        let text = "[ 23.8] tasks-torture:--- Start of test: nreaders=1 nfakewriters=4\n\
                    [324.9] tasks-torture:--- End of test: SUCCESS: nreaders=1 nfakewriters=4\n";
        let e = Torture
            .parse_accounted(&Source::from_text("t.txt", text))
            .unwrap_err()
            .to_string();
        assert!(e.contains("t.txt:2") && e.contains("`SUCCESS`"), "{e}");
    }
}
