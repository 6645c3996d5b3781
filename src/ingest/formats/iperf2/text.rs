//! iperf 2's text report: `Client connecting to HOST, TCP port N` (or
//! `Server listening on …`), then per stream `[  1] 0.0000-2.0311 sec
//! 5.12 GBytes  21.6 Gbits/sec` lines, `[SUM]` totalling parallel streams.
//!
//! Benchmark `iperf2 tcp` or `iperf2 udp`; metrics of each stream's
//! whole-test line (the one from 0 that ends last): `bandwidth` (Mbit/s)
//! and `transfer` (MiB), with `-e` `retries` and `rtt` (µs), and for UDP
//! the server report's `bandwidth received`, `jitter` (ms), `lost
//! datagrams` and `loss` (%). With several streams the `[SUM]` line is the
//! test's figure and each stream's line is left out with the reason; where
//! no `[SUM]` line totals them (`-d`'s two directions, the server reports
//! of parallel UDP streams) each stream's is read with a `stream`
//! parameter. Each `-i` interval line is a sample of the test's time
//! series, `interval bandwidth` (`interval bandwidth received` on a server
//! report) and `interval transfer`, named apart from the whole-test
//! figures. A log of several tests gives a run each.

use super::{mbits, mebibytes};
use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, lines_containing};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(
    REPORT,
    r"^\[\s*(\*?\d+|SUM(?:-\d+)?|FD\d+)\]\s+(\d+(?:\.\d+)?)-\s*(\d+(?:\.\d+)?) sec\s+([\d.]+) (\w*(?:Bytes|bits))\s+([\d.]+) (\w*(?:bits|Bytes)/sec)(.*)$"
);
lazy_re!(
    OPENS,
    r"^(?:Client connecting to .*, (TCP|UDP) port|Server listening on (TCP|UDP) port)"
);
lazy_re!(
    UDP_TAIL,
    r"^\s*([\d.]+) ms\s+(\d+)/\s*(\d+)\s+\(([\d.e+-]+)%\)"
);
lazy_re!(
    TCP_TAIL,
    r"^\s*\d+/\d+\s+(\d+)(?:\s+(?:[\d.]+[KMG]?(?:\(\d+\))?/)+(\d+)(?:\(\d+\))?\s*us)?"
);

// Settings and bookkeeping around the reports: read past as context.
lazy_re!(
    CONTEXT,
    r"^(?:(?:TCP window|UDP buffer|Write buffer|Read buffer) size:|Sending \d+ byte datagrams|TOS set|\[\s*\*?(?:\d+|SUM(?:-\d+)?|CT)\] (?:local |Sent |final connect|\d.* datagrams received out-of-order))"
);

/// The iperf 2 text importer.
pub struct Iperf2Text;

/// One report line: line, stream, start, end, transfer MiB, bandwidth
/// Mbit/s, the rest of the line, and whether it is the server's report.
struct Report {
    line: u32,
    stream: String,
    start: f64,
    end: f64,
    mib: f64,
    mbits: f64,
    tail: String,
    server: bool,
}

impl Format for Iperf2Text {
    fn name(&self) -> &'static str {
        "iperf2"
    }

    fn description(&self) -> &'static str {
        "iperf 2 text: `Client connecting to …` / `Server listening on …`, `[ ID] Interval Transfer Bandwidth` reports (-e, -i, -P with [SUM], UDP server report)"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let opens = lines_containing(src, " port ").any(|l| OPENS.is_match(l.trim()));
        let reports = lines_containing(src, " sec ").any(|l| REPORT.is_match(l.trim()));
        match (opens, reports) {
            (true, true) => 97,
            (false, true) if lines_containing(src, "Bandwidth").next().is_some() => 80,
            _ => 0,
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let mut proto = "tcp";
        let mut test: Vec<Report> = Vec::new();
        let mut server = false;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            if let Some(c) = OPENS.captures(t) {
                finish(src, proto, &mut test, &mut out, &mut consumed, &mut skipped);
                proto = if c.get(1).or(c.get(2)).is_some_and(|m| m.as_str() == "UDP") {
                    "udp"
                } else {
                    "tcp"
                };
                server = false;
                consumed.push(n);
            } else if t.ends_with("Server Report:") {
                server = true;
                consumed.push(n);
            } else if CONTEXT.is_match(t) {
                consumed.push(n);
            } else if let Some(c) = REPORT.captures(t) {
                let num = |i: usize| c[i].parse::<f64>().unwrap_or(f64::NAN);
                let (Some(mib), Some(mbit)) = (mebibytes(num(4), &c[5]), mbits(num(6), &c[7]))
                else {
                    skipped.push((
                        n,
                        format!(
                            "a report in units patchperf does not know ({}, {})",
                            &c[5], &c[7]
                        ),
                    ));
                    continue;
                };
                test.push(Report {
                    line: n,
                    stream: c[1].to_string(),
                    start: num(2),
                    end: num(3),
                    mib,
                    mbits: mbit,
                    tail: c[8].to_string(),
                    server,
                });
            }
        }
        finish(src, proto, &mut test, &mut out, &mut consumed, &mut skipped);
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no iperf 2 report line (`[  1] 0.0-10.0 sec  1.1 GBytes  941 Mbits/sec`)",
        )
    }
}

/// Whether a report's stream is a total: `[SUM]` over parallel streams,
/// `[FD1]` over a full-duplex test's two directions (`[  1]` and `[ *1]`).
fn is_total(stream: &str) -> bool {
    stream.starts_with("SUM") || stream.starts_with("FD")
}

/// Writes one test's whole-test lines and accounts the others.
fn finish(
    src: &Source,
    proto: &str,
    test: &mut Vec<Report>,
    out: &mut Vec<crate::model::Observation>,
    consumed: &mut Vec<u32>,
    skipped: &mut Vec<(u32, String)>,
) {
    if test.is_empty() {
        return;
    }
    let bench = format!("iperf2 {proto}");
    // Per side (client, server report): whether a total line is there, and
    // how many streams report.
    let sides = [false, true].map(|server| {
        let mut ids: Vec<&str> = test
            .iter()
            .filter(|o| o.server == server)
            .map(|o| o.stream.as_str())
            .collect();
        ids.sort_unstable();
        ids.dedup();
        (ids.iter().any(|s| is_total(s)), ids.len())
    });
    for (i, r) in test.iter().enumerate() {
        let (summed, streams) = sides[usize::from(r.server)];
        // The whole-test line of a stream starts at 0 and no later line of
        // that stream (and side) ends after it.
        let whole = r.start == 0.0
            && !test[i + 1..]
                .iter()
                .any(|o| o.stream == r.stream && o.server == r.server && o.end > r.end);
        if summed && !is_total(&r.stream) {
            skipped.push((
                r.line,
                "one stream of several; the [SUM] line totals them".into(),
            ));
            continue;
        }
        // Streams no [SUM] line totals (a `-d` test's two directions, UDP
        // server reports of parallel streams) are told apart.
        let params = if !summed && streams > 1 {
            format!("stream={}", r.stream)
        } else {
            String::new()
        };
        let row = |metric: &str, unit: &str, v: f64| {
            Row::at(src, r.line)
                .benchmark(&bench)
                .params(&params)
                .metric(metric)
                .unit(unit)
                .sample(v)
        };
        // An interval (`-i`) is a sample of the test's time series, named
        // apart from the whole-test figures; a UDP interval's tail is left.
        let name = |metric: &str| {
            if whole {
                metric.to_string()
            } else {
                format!("interval {metric}")
            }
        };
        if r.server {
            out.push(row(&name("bandwidth received"), "Mbit/s", r.mbits));
        } else {
            out.push(row(&name("bandwidth"), "Mbit/s", r.mbits));
            out.push(row(&name("transfer"), "MiB", r.mib));
        }
        if let Some(c) = UDP_TAIL.captures(&r.tail).filter(|_| whole) {
            let v = |i: usize| c[i].parse::<f64>().unwrap_or(f64::NAN);
            out.push(row("jitter", "ms", v(1)));
            out.push(row("lost datagrams", "", v(2)));
            out.push(row("loss", "%", v(4)));
        } else if let Some(c) = TCP_TAIL.captures(&r.tail).filter(|_| proto == "tcp") {
            out.push(row(&name("retries"), "", c[1].parse().unwrap_or(f64::NAN)));
            if let Some(rtt) = c.get(2) {
                let rtt = rtt.as_str().parse().unwrap_or(f64::NAN);
                out.push(row(&name("rtt"), "us", rtt));
            }
        }
        consumed.push(r.line);
    }
    test.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `-e -i 10` of a 2.2 client: intervals with writes, retries and the
    /// `InF(pkts)/Cwnd(pkts)/RTT(var)` column, no whole-test line.
    #[test]
    fn enhanced_intervals_give_their_retries_and_round_trip_time() {
        let text = "\
[ ID] Interval            Transfer    Bandwidth       Write/Err  Rtry     InF(pkts)/Cwnd(pkts)/RTT(var)        NetPwr
[  1] 0.0000-10.0000 sec  2.38 MBytes  2.00 Mbits/sec  20/0        73       22K(16)/24K(17)/56167(15843) us  4.448847
[  1] 10.0000-20.0000 sec  5.88 MBytes  4.93 Mbits/sec  47/0        38      178K(126)/178K(126)/462265(40709) us  1.332652
";
        let p = Iperf2Text
            .parse_accounted(&Source::from_text("e.txt", text))
            .unwrap();
        let got: Vec<(&str, f64)> = p
            .observations
            .iter()
            .map(|o| (o.metric.as_str(), o.value))
            .collect();
        assert_eq!(
            got,
            [
                ("interval bandwidth", 2.0),
                ("interval transfer", 2.38),
                ("interval retries", 73.0),
                ("interval rtt", 56167.0),
                ("interval bandwidth", 4.93),
                ("interval transfer", 5.88),
                ("interval retries", 38.0),
                ("interval rtt", 462265.0),
            ]
        );
    }
}
