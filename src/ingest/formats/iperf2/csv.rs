//! iperf 2's `-y C` report: one CSV line per report, `timestamp, source
//! address, source port, destination address, destination port, stream,
//! interval (`0.0-2.0`), bytes, bits/s`, UDP adding jitter (ms), lost,
//! total datagrams, loss (%) and out-of-order.
//!
//! Benchmark `iperf2`; the whole-test line of each stream (from 0, ending
//! last) gives `bandwidth` (Mbit/s) and `transfer` (MiB), UDP's `jitter`,
//! `lost datagrams` and `loss`. With several streams the test's figure is
//! the `-1` stream's line, or else the sum of the streams' (what the text
//! report's `[SUM]` line says), and each stream's line is left out with the
//! reason; interval lines too.

use crate::error::Result;
use crate::ingest::shared::logscan::lazy_re;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(
    LINE,
    r"^\d{14}(?:\.\d+)?,[^,]*,\d+,[^,]*,\d+,(-?\d+),([\d.]+)-([\d.]+),(\d+),(\d+)(?:,([\d.]+),(-?\d+),(-?\d+),(-?[\d.]+),(-?\d+))?"
);

/// The iperf 2 CSV importer.
pub struct Iperf2Csv;

impl Format for Iperf2Csv {
    fn name(&self) -> &'static str {
        "iperf2-csv"
    }

    fn description(&self) -> &'static str {
        "iperf 2 `-y C` CSV report lines (`20261204022442,127.0.0.1,39224,…,0.0-2.0,7772700732,30933875378`)"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let mut lines = src.lines.iter().filter(|l| !l.text.trim().is_empty());
        let first = lines.next();
        if first.is_some_and(|l| LINE.is_match(l.text.trim())) {
            96
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        struct Rec {
            line: u32,
            stream: i64,
            start: f64,
            end: f64,
            bytes: f64,
            bits: f64,
            udp: Option<(f64, f64, f64)>,
        }
        let mut recs = Vec::new();
        for l in &src.lines {
            let Some(c) = LINE.captures(l.text.trim()) else {
                continue;
            };
            let f = |i: usize| c.get(i).and_then(|m| m.as_str().parse::<f64>().ok());
            recs.push(Rec {
                line: l.number,
                stream: c[1].parse().unwrap_or(0),
                start: f(2).unwrap_or(f64::NAN),
                end: f(3).unwrap_or(f64::NAN),
                bytes: f(4).unwrap_or(f64::NAN),
                bits: f(5).unwrap_or(f64::NAN),
                udp: f(6)
                    .zip(f(7))
                    .zip(f(9))
                    .map(|((j, lost), loss)| (j, lost, loss)),
            });
        }
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let whole: Vec<usize> = (0..recs.len())
            .filter(|&i| {
                let r = &recs[i];
                r.start == 0.0
                    && !recs[i + 1..]
                        .iter()
                        .any(|o| o.stream == r.stream && o.end > r.end)
            })
            .collect();
        for (i, r) in recs.iter().enumerate() {
            if !whole.contains(&i) {
                skipped.push((
                    r.line,
                    "an interval report (-i); the whole-test line follows".into(),
                ));
            }
        }
        let summed = whole.iter().find(|&&i| recs[i].stream == -1).copied();
        let streams: Vec<usize> = whole
            .iter()
            .copied()
            .filter(|&i| recs[i].stream != -1)
            .collect();
        let bench = if recs.iter().any(|r| r.udp.is_some()) {
            "iperf2 udp"
        } else {
            "iperf2 tcp"
        };
        let row = |line: u32, metric: &str, unit: &str, v: f64| {
            Row::at(src, line)
                .benchmark(bench)
                .metric(metric)
                .unit(unit)
                .sample(v)
        };
        let mut emit = |line: u32, bytes: f64, bits: f64, udp: Option<(f64, f64, f64)>| {
            out.push(row(line, "bandwidth", "Mbit/s", bits / 1e6));
            out.push(row(line, "transfer", "MiB", bytes / 1048576.0));
            if let Some((jitter, lost, loss)) = udp {
                out.push(row(line, "jitter", "ms", jitter));
                out.push(row(line, "lost datagrams", "", lost));
                out.push(row(line, "loss", "%", loss));
            }
        };
        match (summed, streams.as_slice()) {
            (_, [one]) if summed.is_none() => {
                let r = &recs[*one];
                emit(r.line, r.bytes, r.bits, r.udp);
                consumed.push(r.line);
            }
            (Some(s), _) => {
                let r = &recs[s];
                emit(r.line, r.bytes, r.bits, r.udp);
                consumed.push(r.line);
                for &i in &streams {
                    skipped.push((
                        recs[i].line,
                        "one stream of several; the -1 line totals them".into(),
                    ));
                }
            }
            (None, many) if !many.is_empty() => {
                // No total line: the streams' sum, at the last stream's line.
                let last = recs[*many.last().unwrap_or(&0)].line;
                let bytes = many.iter().map(|&i| recs[i].bytes).sum();
                let bits = many.iter().map(|&i| recs[i].bits).sum();
                emit(last, bytes, bits, None);
                consumed.extend(many.iter().map(|&i| recs[i].line));
            }
            _ => {}
        }
        Parsed::found(src, out, consumed, skipped, "no iperf 2 `-y C` report line")
    }
}
