//! sockperf: the client's report of a ping-pong or under-load test
//! (`====> avg-latency=6.067 (std-dev=6.195)`, the `---> percentile 99.000
//! = 8.818` lines between `<MAX>` and `<MIN>` observations, the dropped,
//! duplicated and out-of-order counts), of a throughput test (`Summary:
//! Message Rate is 329942 [msg/sec]`, `BandWidth is 440.520 MBps`), the
//! server's `Total N messages received and handled`, and `--full-log`'s
//! per-packet CSV.
//!
//! Benchmark `sockperf udp` or `sockperf tcp`; parameters the settings of
//! the `test was performed using the following parameters:` line (`mps`,
//! `msg-size`, `burst`, `reply-every` …); each figure a `sample` of the
//! run, as sysbench's are: `latency avg|stdev|min|max|pNN` (µs; `rtt …`
//! with `--full-rtt`, whose `avg-rtt` report is of round trips, about
//! twice a one-way latency, and must not pool with those), `dropped
//! messages`, `duplicated messages`, `out-of-order messages`, `message
//! rate` (msg/s), `bandwidth` (MiB/s: sockperf's MBps is message rate × size / 2^20), `messages handled`; a full log gives
//! each packet's `latency` as a sample.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, lines_containing, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(AVG, r"avg-(latency|rtt)=([\d.]+) \(std-dev=([\d.]+)\)");
lazy_re!(PERCENTILE, r"---> percentile ([\d.]+) =\s*([\d.]+)");
lazy_re!(EXTREME, r"---> <(MAX|MIN)> observation =\s*([\d.]+)");
lazy_re!(
    COUNTS,
    r"# dropped messages = (\d+); # duplicated messages = (\d+); # out-of-order messages = (\d+)"
);
lazy_re!(RATE, r"Summary: Message Rate is (\d+) \[msg/sec\]");
lazy_re!(BANDWIDTH, r"Summary: BandWidth is ([\d.]+) MBps");
lazy_re!(HANDLED, r"Total (\d+) messages received and handled");
lazy_re!(PROTOCOL, r"^\[\s*\d+\] IP = \S+\s+PORT =\s*\d+ # (UDP|TCP)");
lazy_re!(
    SETTINGS,
    r"test was performed using the following parameters: (.*)$"
);
lazy_re!(SETTING, r"--([a-z][\w-]*)=(\S+)");
lazy_re!(FULL_LOG_ROW, r"^(\d+), [\d.]+, [\d.]+, ([\d.]+)$");
lazy_re!(
    ERROR,
    r"sockperf: (ERROR: .*|No messages were received .*)$"
);

/// The sockperf importer.
pub struct Sockperf;

impl Format for Sockperf {
    fn name(&self) -> &'static str {
        "sockperf"
    }

    fn description(&self) -> &'static str {
        "sockperf: ping-pong and under-load latency reports (avg-latency, percentiles, drops), throughput summaries, the server's message count, and --full-log CSV"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let ours = lines_containing(src, "sockperf:").next().is_some()
            || lines_containing(src, "packet, txTime(sec), rxTime(sec), latency(usec)")
                .next()
                .is_some();
        if ours {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed) = (Vec::new(), Vec::new());
        let mut bench = "sockperf".to_string();
        let mut params = Params::default();
        // Figures before the settings line that follows them: held back so
        // that the run's parameters name them all.
        let mut held: Vec<(u32, String, &'static str, f64)> = Vec::new();
        // What the report's figures time: `latency` (half a round trip) or
        // `rtt`, as its average line says.
        let mut quantity = "latency";
        let flush = |bench: &str,
                     params: &Params,
                     held: &mut Vec<(u32, String, &'static str, f64)>,
                     out: &mut Vec<crate::model::Observation>| {
            let p = params.render();
            for (n, metric, unit, v) in held.drain(..) {
                out.push(
                    Row::at(src, n)
                        .benchmark(bench)
                        .params(&p)
                        .metric(&metric)
                        .unit(unit)
                        .sample(v),
                );
            }
        };
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            let mut hold = |metric: &str, unit: &'static str, text: &str| -> Result<()> {
                held.push((n, metric.to_string(), unit, num(src, n, text, metric)?));
                Ok(())
            };
            if let Some(c) = PROTOCOL.captures(t) {
                flush(&bench, &params, &mut held, &mut out);
                bench = format!("sockperf {}", c[1].to_ascii_lowercase());
                params = Params::default();
                quantity = "latency";
                consumed.push(n);
            } else if let Some(c) = AVG.captures(t) {
                quantity = if &c[1] == "rtt" { "rtt" } else { "latency" };
                hold(&format!("{quantity} avg"), "us", &c[2])?;
                hold(&format!("{quantity} stdev"), "us", &c[3])?;
            } else if let Some(c) = PERCENTILE.captures(t) {
                let p: f64 = c[1].parse().unwrap_or(f64::NAN);
                hold(&format!("{quantity} p{p}"), "us", &c[2])?;
            } else if let Some(c) = EXTREME.captures(t) {
                let which = if &c[1] == "MAX" { "max" } else { "min" };
                hold(&format!("{quantity} {which}"), "us", &c[2])?;
            } else if let Some(c) = COUNTS.captures(t) {
                hold("dropped messages", "", &c[1])?;
                hold("duplicated messages", "", &c[2])?;
                hold("out-of-order messages", "", &c[3])?;
            } else if let Some(c) = RATE.captures(t) {
                hold("message rate", "msg/s", &c[1])?;
            } else if let Some(c) = BANDWIDTH.captures(t) {
                hold("bandwidth", "MiB/s", &c[1])?;
            } else if let Some(c) = HANDLED.captures(t) {
                hold("messages handled", "", &c[1])?;
            } else if let Some(c) = FULL_LOG_ROW.captures(t) {
                let v = num(src, n, &c[2], "latency")?;
                let run = c[1].parse().unwrap_or(0);
                out.push(
                    Row::at(src, n)
                        .benchmark(&bench)
                        .metric("latency")
                        .unit("us")
                        .sample(v)
                        .with_run(run),
                );
            } else if let Some(c) = SETTINGS.captures(t) {
                for s in SETTING.captures_iter(&c[1]) {
                    params.set(&s[1], &s[2]);
                }
                consumed.push(n);
                flush(&bench, &params, &mut held, &mut out);
            } else if t.starts_with("sockperf:")
                || t.starts_with("packet, txTime")
                || t.starts_with("---")
            {
                consumed.push(n);
            }
        }
        flush(&bench, &params, &mut held, &mut out);
        let why = src
            .lines
            .iter()
            .find_map(|l| {
                ERROR
                    .captures(&l.text)
                    .map(|c| format!(": sockperf said `{}`", &c[1]))
            })
            .unwrap_or_default();
        Parsed::found(
            src,
            out,
            consumed,
            Vec::new(),
            format!("no sockperf results{why}"),
        )
    }
}
