//! rt-tests' inter-process latency tools, pmqtest, ptsematest, sigwaittest
//! and svsematest: per thread pair a header `#0: ID…, P0, CPU0, I1000; #1:
//! ID…, Cycles 100` and a result `#1 -> #0, Min 1, Cur 4, Avg 3, Max 90`
//! (µs); and signaltest's `T: 0 (PID) P: 0 C: 100 Min: 34 Act: 41 Avg: 165
//! Max: 3042` lines, cyclictest's without the interval.
//!
//! The tools print the same lines, so the tool is named from the file name
//! where it says (`pmqtest-…`), else `rt-tests ipc`. Parameter `pair` (the
//! receiving thread, `#0`, `#2` …) or `thread`; metrics `latency min`,
//! `latency avg`, `latency max` (us), each a `sample` of the run (`Cur`/`Act`,
//! the last wake-up only, is not a result). Live output
//! (without `-q`) redraws the lines: the last drawing is what the tool ends on.

use crate::error::Result;
use crate::ingest::shared::logscan::{has, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(
    PAIR,
    r"^#(\d+) -> #(\d+), Min\s+(-?\d+), Cur\s+(-?\d+), Avg\s+(-?\d+), Max\s+(-?\d+)\s*$"
);
lazy_re!(
    SIGNAL,
    r"^T:\s*(\d+) \(\s*\d+\) P:\s*\d+ C:\s*(\d+) Min:\s*(-?\d+) Act:\s*(-?\d+) Avg:\s*(-?\d+) Max:\s*(-?\d+)\s*$"
);
lazy_re!(HEADER, r"^#\d+: ID\d+, P\d+, CPU-?\d+, I\d+; #\d+: ID\d+, ");

/// The importer for the rt-tests IPC latency tools and signaltest.
pub struct RtIpc;

/// The tool named by the file, if it says.
fn tool_from_file(name: &str, signal: bool) -> &'static str {
    let n = name.to_ascii_lowercase();
    let tools = [
        "pmqtest",
        "ptsematest",
        "sigwaittest",
        "svsematest",
        "signaltest",
    ];
    match tools.into_iter().find(|t| n.contains(t)) {
        Some(t) => t,
        None if signal => "signaltest",
        None => "rt-tests ipc",
    }
}

impl Format for RtIpc {
    fn name(&self) -> &'static str {
        "rt-ipc"
    }

    fn description(&self) -> &'static str {
        "rt-tests pmqtest/ptsematest/sigwaittest/svsematest (`#1 -> #0, Min 1, Cur 4, Avg 3, Max 90`) and signaltest (`T: 0 (PID) P: 0 C: …`)"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if crate::ingest::shared::logscan::any_with(src, " -> #", &PAIR) {
            return 92;
        }
        // signaltest's line lacks cyclictest's `I:` field.
        let signal = crate::ingest::shared::logscan::lines_containing(src, " C:")
            .any(|l| l.starts_with("T:") && !l.contains(" I:") && SIGNAL.is_match(l));
        if signal {
            90
        } else if has(src, ", Cycles ")
            && crate::ingest::shared::logscan::any_with(src, ", Cycles ", &HEADER)
        {
            40
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut consumed = Vec::new();
        let mut skipped = Vec::new();
        let signal = !crate::ingest::shared::logscan::any_with(src, " -> #", &PAIR);
        let bench = tool_from_file(src.file_name(), signal);
        for l in &src.lines {
            let n = l.number;
            let t = l.text.trim_end();
            let (key, c) = if let Some(c) = PAIR.captures(t) {
                ("pair", c)
            } else if let Some(c) = SIGNAL.captures(t) {
                if &c[2] == "0" {
                    skipped.push((n, "thread had not woken up yet (C: 0)".into()));
                    continue;
                }
                ("thread", c)
            } else {
                if HEADER.is_match(t) {
                    consumed.push(n);
                }
                continue;
            };
            // The receiving thread of a pair, signaltest's thread number.
            let id = if key == "pair" { &c[2] } else { &c[1] };
            let mut p = Params::default();
            p.set(key, id);
            let params = p.render();
            for (i, metric) in
                [3, 5, 6]
                    .into_iter()
                    .zip(["latency min", "latency avg", "latency max"])
            {
                let v = num(src, n, &c[i], metric)?;
                out.push(
                    Row::at(src, n)
                        .benchmark(bench)
                        .params(&params)
                        .metric(metric)
                        .unit("us")
                        .sample(v),
                );
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no latency result line found (not yet ready?)",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(path: &str) -> Parsed {
        crate::ingest::parse_file(&RtIpc, path)
    }

    #[test]
    fn two_pairs_are_two_series() {
        let p = read("tests/data/harness/rt-tests/pmqtest-t2-q.txt");
        assert_eq!(p.observations.len(), 6);
        let o = &p.observations[5];
        assert_eq!(
            (
                o.benchmark.as_str(),
                o.params.as_str(),
                o.metric.as_str(),
                o.value
            ),
            ("pmqtest", "pair=2", "latency max", 50.0)
        );
        assert_eq!(p.consumed, vec![1, 2]);
    }

    #[test]
    fn each_tool_is_named_from_its_file() {
        for tool in ["ptsematest", "sigwaittest", "svsematest"] {
            let p = read(&format!("tests/data/harness/rt-tests/{tool}-q.txt"));
            assert_eq!(p.observations[0].benchmark, tool);
            assert_eq!(p.observations.len(), 3);
        }
        let p = read("tests/data/harness/rt-tests/svsematest-q.txt");
        assert_eq!(p.observations[2].value, 78.0);
    }

    #[test]
    fn signaltest_threads_are_read() {
        let p = read("tests/data/harness/rt-tests/signaltest-t3-q.txt");
        assert_eq!(p.observations.len(), 9);
        let max: Vec<f64> = p
            .observations
            .iter()
            .filter(|o| o.metric == "latency max")
            .map(|o| o.value)
            .collect();
        assert_eq!(max, vec![2405.0, 12462.0, 12481.0]);
        assert_eq!(p.observations[8].params, "thread=2");
    }
}
