//! cyclictest `-v`: after `Thread N Interval: I` headers, one `thread:
//! cycle: latency` line per wake-up (`       0:       5:     109`, µs).
//!
//! Benchmark `cyclictest`, parameter `thread`; metrics `latency min`,
//! `latency avg`, `latency max` (us) of each thread's wake-ups, each a
//! `sample` of the run, as the text summary line (`T: 0 … Min: Avg: Max:`)
//! gives them, so the two modes compare.

use crate::error::Result;
use crate::ingest::shared::logscan::{last_line, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::shared::runs::each_run;
use crate::ingest::{Confidence, Format, Parsed, Source};

/// Why a thread's closing summary line is not read.
const SUMMARY_LEFT_OUT: &str =
    "the thread's summary of the wake-ups listed above, which are read instead";

/// The cyclictest verbose-mode importer.
pub struct CyclictestVerbose;

/// `thread`, `cycle` and `latency` of a `n: c: v` line.
fn record(line: &str) -> Option<(&str, &str, &str)> {
    let mut it = line.split(':').map(str::trim);
    let (t, c, v) = (it.next()?, it.next()?, it.next()?);
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (it.next().is_none() && digits(t) && digits(c) && digits(v)).then_some((t, c, v))
}

impl Format for CyclictestVerbose {
    fn name(&self) -> &'static str {
        "cyclictest-verbose"
    }

    fn description(&self) -> &'static str {
        "cyclictest -v: `Thread N Interval: I` then `thread: cycle: latency` lines"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let header = crate::ingest::shared::logscan::lines_containing(src, " Interval: ")
            .any(|l| l.starts_with("Thread "));
        let records = src
            .lines
            .iter()
            .filter(|l| record(&l.text).is_some())
            .count();
        if header && records > 0 {
            92
        } else {
            0
        }
    }

    /// A thread's `Thread N Interval:` header that comes again opens the
    /// next run of a file of several: its wake-ups are that run's.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut seen: Vec<String> = Vec::new();
        let opens = |t: &str| {
            let Some(head) = t.strip_prefix("Thread ") else {
                return false;
            };
            let Some((n, _)) = head.split_once(" Interval: ") else {
                return false;
            };
            // The first header opens the first run.
            let opens = seen.is_empty() || seen.iter().any(|s| s == n);
            if opens {
                seen.clear();
            }
            seen.push(n.to_string());
            opens
        };
        each_run(src, opens, read_run)
    }
}

/// One run: each thread's wake-ups.
fn read_run(src: &Source) -> Result<Parsed> {
    // Per thread: its line of first value, min, sum, max, count.
    let mut threads: Vec<(String, u32, f64, f64, f64, f64)> = Vec::new();
    let mut consumed = Vec::new();
    let mut skipped = Vec::new();
    for l in &src.lines {
        let n = l.number;
        if l.text.starts_with("Thread ") && l.text.contains(" Interval: ") {
            consumed.push(n);
            continue;
        }
        // The closing `T: 0 … Min: … Avg: … Max:` lines state what the
        // wake-ups above give; read as well, each thread would count
        // twice (and another reader would take them up as a run).
        if l.text.trim_start().starts_with("T:") && l.text.contains(" Max:") {
            skipped.push((n, SUMMARY_LEFT_OUT.to_string()));
            continue;
        }
        let Some((t, _, v)) = record(&l.text) else {
            continue;
        };
        let v = num(src, n, v, "latency")?;
        match threads.iter_mut().find(|x| x.0 == t) {
            Some(x) => {
                x.2 = x.2.min(v);
                x.3 += v;
                x.4 = x.4.max(v);
                x.5 += 1.0;
                consumed.push(n);
            }
            None => threads.push((t.to_string(), n, v, v, v, 1.0)),
        }
    }
    if threads.is_empty() {
        return Err(src.error(last_line(src), "no `thread: cycle: latency` line found"));
    }
    let mut out = Vec::new();
    for (t, line, min, sum, max, count) in threads {
        let mut p = Params::default();
        p.set("thread", &t);
        let params = p.render();
        for (metric, v) in [
            ("latency min", min),
            ("latency avg", sum / count),
            ("latency max", max),
        ] {
            out.push(
                Row::at(src, line)
                    .benchmark("cyclictest")
                    .params(&params)
                    .metric(metric)
                    .unit("us")
                    .sample(v),
            );
        }
    }
    Ok(Parsed {
        observations: out,
        consumed,
        skipped,
        ..Parsed::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wake_ups_are_summarised_per_thread() {
        let p = crate::ingest::parse_file(
            &CyclictestVerbose,
            "tests/data/harness/cyclictest/verbose-t1.txt",
        );
        let got: Vec<(&str, f64)> = p
            .observations
            .iter()
            .map(|o| (o.metric.as_str(), o.value))
            .collect();
        assert_eq!(got[0], ("latency min", 75.0));
        assert_eq!(got[2], ("latency max", 109.0));
        assert_eq!(p.observations[0].params, "thread=0");
        assert_eq!(p.observations.len(), 3);
    }

    #[test]
    fn a_thread_header_that_comes_again_opens_the_next_run() {
        // `cyclictest -v` twice in one log: before, the second run's
        // wake-ups joined the first's (one run of min/avg/max).
        let text = "Thread 0 Interval: 1500\n       0:       0:     109\n       0:       1:      76\n\
                    Thread 0 Interval: 1500\n       0:       0:      90\n       0:       1:      80\n";
        let rows = crate::ingest::testing::rows_of(&CyclictestVerbose, "v", text);
        let got: Vec<(&str, f64)> = rows.iter().map(|r| (r.2.as_str(), r.4)).collect();
        assert_eq!(
            got,
            [
                ("latency min", 76.0),
                ("latency avg", 92.5),
                ("latency max", 109.0),
                ("latency min", 80.0),
                ("latency avg", 85.0),
                ("latency max", 90.0)
            ]
        );
    }
}
