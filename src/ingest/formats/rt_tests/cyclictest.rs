//! rt-tests `cyclictest` per-thread summary lines, `-q` (printed once at the
//! end) or live (redrawn in place with `ESC[nA`; [`Source`] replays the
//! redraws so only the last frame is left):
//! `T: 0 (15599) P:80 I:200 C:  24939 Min:      7 Act:   13 Avg:   21 Max:    2532`.
//!
//! Each thread is its own series (`thread=N`): threads run on different CPUs
//! and are not replicates of each other; replicates are invocations. Min, Avg
//! and Max are statistics of one invocation's wake-up latencies, so each is a
//! sample of its own metric (`latency min`, `latency avg`, `latency max`, µs).
//! `Act` (the last value) is not read. cyclicdeadline prints the same lines
//! without `P:` (benchmark `cyclicdeadline`), after lines about the deadline
//! tasks it sets up, which are skipped. A frame still showing the initial
//! `C: 0 … Min:1000000` (no cycle measured yet) carries no data and is
//! skipped. Values are µs, the default, unless the run was `-N`/`--nsecs`
//! (ns): the file holds the command line that ran it (a terminal capture),
//! or the line's own layout says so: cyclictest pads `Act:` and `Avg:` to
//! 5 characters for µs (`Act:   69 Avg:  141`) and to 8 for ns
//! (`Act:  121570 Avg:  110958`), so a padded 8-wide field is only printed
//! in ns (a µs value that wide has 8 digits and no padding).

use crate::error::Result;
use crate::ingest::shared::logscan::{any_with, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(
    THREAD,
    r"^T:\s*(\d+) \(\s*(\d+)\) (?:P:\s*(\d+) )?I:\s*(\d+) C:\s*(\d+) Min:\s*(-?\d+) Act:\s*(-?\d+) Avg:\s*(-?\d+) Max:\s*(-?\d+)"
);
lazy_re!(THREAD_PREFIX, r"^T:\s*\d+ \(");
lazy_re!(
    NSECS_COMMAND,
    r#"\bcyclictest\b.*\s(?:-N|--nsecs)(?:\s|$|")"#
);
// Lines cyclictest prints about its setup and the machine, not results.
lazy_re!(DMA_LATENCY, r"^# /dev/cpu_dma_latency set to");
lazy_re!(LOADAVG, r"^policy: \w+: loadavg: ");
// cyclicdeadline's account of the deadline tasks it sets up.
lazy_re!(
    DEADLINE_SETUP,
    r"^(?:interval: \d+:\d+$|\s*Tested at \d+us of \d+us$|deadline thread \d+$|main thread \d+$|thread\[\d+\] runtime=)"
);

/// Whether a thread line's `Act:` or `Avg:` field has `-N`'s width of 8,
/// padding included (see the module documentation).
fn padded_ns_field(t: &str) -> bool {
    THREAD.is_match(t)
        && ["Act:", "Avg:"].iter().any(|key| {
            t.split_once(key).is_some_and(|(_, rest)| {
                let field: String = rest
                    .chars()
                    .take_while(|c| *c == ' ' || *c == '-' || c.is_ascii_digit())
                    .collect();
                let field = field.trim_end_matches(' ');
                // `rest` runs into the separator space before the next key;
                // the field proper is 8 wide and starts with padding.
                field.len() == 8 && field.starts_with(' ')
            })
        })
}

/// The cyclictest text importer.
pub struct Cyclictest;

impl Format for Cyclictest {
    fn name(&self) -> &'static str {
        "cyclictest"
    }

    fn description(&self) -> &'static str {
        "rt-tests cyclictest and cyclicdeadline text (-q or live with ANSI redraws): `T: 0 (pid) P:80 I:200 C: n Min: Act: Avg: Max:` per thread"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if any_with(src, "Max:", &THREAD) {
            90
        } else {
            0
        }
    }

    /// The PM QoS line, the live status line and frames without cycles are
    /// `skipped` with their reason.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut skipped = Vec::new();
        let unit = if src
            .lines
            .iter()
            .any(|l| NSECS_COMMAND.is_match(&l.text) || padded_ns_field(&l.text))
        {
            "ns"
        } else {
            "us"
        };
        for l in &src.lines {
            let t = l.text.as_str();
            if DMA_LATENCY.is_match(t) {
                skipped.push((
                    l.number,
                    "PM QoS latency request: setup, not a result".into(),
                ));
                continue;
            }
            if LOADAVG.is_match(t) {
                skipped.push((
                    l.number,
                    "live status line (load average), not a result".into(),
                ));
                continue;
            }
            if DEADLINE_SETUP.is_match(t) {
                skipped.push((l.number, "cyclicdeadline task setup, not a result".into()));
                continue;
            }
            let Some(c) = THREAD.captures(t) else {
                if THREAD_PREFIX.is_match(t) {
                    return Err(src.error(
                        Some(l.number),
                        format!("malformed cyclictest thread line: `{t}`"),
                    ));
                }
                continue;
            };
            let n = l.number;
            let cycles = num(src, n, &c[5], "C")?;
            if cycles == 0.0 {
                skipped.push((l.number, "no cycle measured yet (C: 0)".into()));
                continue;
            }
            let mut p = Params::default();
            p.set("thread", &c[1]);
            let params = p.render();
            // cyclicdeadline prints the same line without a priority: its
            // threads run under SCHED_DEADLINE, which has none.
            let bench = if c.get(3).is_some() {
                "cyclictest"
            } else {
                "cyclicdeadline"
            };
            for (idx, metric) in [(6, "latency min"), (8, "latency avg"), (9, "latency max")] {
                let v = num(src, n, &c[idx], metric)?;
                out.push(
                    Row::at(src, n)
                        .benchmark(bench)
                        .params(&params)
                        .metric(metric)
                        .unit(unit)
                        .sample(v),
                );
            }
        }
        Parsed::found(
            src,
            out,
            Vec::new(),
            skipped,
            "no cyclictest thread line with measured cycles (C > 0) found (truncated run?)",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_width_of_act_and_avg_tells_nanoseconds() {
        // `cyclictest -m -t1 -i 500 -D 1 --nsecs -q` and `-S -m -i 1000 -l 200 -q`
        let ns =
            "T: 0 ( 1548) P: 0 I:500 C:   1894 Min:  67846 Act:  121570 Avg:  110958 Max: 4669660";
        let us = "T: 0 ( 1536) P: 0 I:1000 C:    200 Min:     43 Act:   69 Avg:  141 Max:    3961";
        assert!(padded_ns_field(ns));
        assert!(!padded_ns_field(us));
        // A µs value too wide for its 5 places is printed whole, unpadded.
        let wide =
            "T: 0 ( 1536) P: 0 I:1000 C:    200 Min:     43 Act:1234567 Avg:12345678 Max:12345678";
        assert!(!padded_ns_field(wide));
    }
}
