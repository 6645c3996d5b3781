//! nuttcp: the test's summary line (`5630.8093 MB /   2.00 sec = 23623.9169
//! Mbps 47 %TX 42 %RX 0 retrans 0.10 msRTT`, UDP adding `6 / 3052 drop/pkt
//! 0.20 %loss`), its `-fparse` form (`megabytes=… real_seconds=…
//! rate_Mbps=…`), and `-v`'s transmitter and receiver lines (`nuttcp-t:
//! 4156.9968 MB in 2.00 real seconds = … = 17434.3570 Mbps`).
//!
//! Benchmark `nuttcp`; metrics, each a `sample` of the run: `rate` (Mbit/s;
//! with `-v` the transmitter's, the receiver's as `rate received`),
//! `transfer` (MB), `tx cpu` and `rx cpu` (%), `retrans`, `rtt` (ms), UDP's
//! `drops` and `loss` (%). `-i` interval lines (no `%TX`, `~` estimates,
//! `real_sec=`) are left out with the reason.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(
    SUMMARY,
    r"^([\d.]+) MB /\s+([\d.]+) sec =\s+([\d.]+) Mbps(.*)$"
);
lazy_re!(TX_RX, r"(\d+) %TX\s+(\d+) %RX");
lazy_re!(RETRANS, r"(\d+) retrans");
lazy_re!(RTT, r"([\d.]+) msRTT");
lazy_re!(DROPS, r"(\d+) /\s*(\d+) drop/pkt\s+([\d.]+) %loss");
lazy_re!(
    VERBOSE,
    r"^nuttcp-(t|r): ([\d.]+) MB in ([\d.]+) real seconds = [\d.]+ KB/sec = ([\d.]+) Mbps"
);
lazy_re!(PARSE_PAIR, r"(\w+)=(-?[\d.]+)");
lazy_re!(ERROR, r"^nuttcp-[tr]: v[\d.]+: Error: (.*)$");

/// The nuttcp importer.
pub struct Nuttcp;

impl Format for Nuttcp {
    fn name(&self) -> &'static str {
        "nuttcp"
    }

    fn description(&self) -> &'static str {
        "nuttcp: the `MB / sec = Mbps %TX %RX retrans msRTT` summary (UDP drop/pkt and %loss), -fparse `key=value` lines, -v transmitter and receiver lines"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let ours = src.lines.iter().any(|l| {
            let t = l.text.trim();
            SUMMARY.is_match(t)
                || VERBOSE.is_match(t)
                || t.starts_with("megabytes=") && t.contains("rate_Mbps=")
                || t.starts_with("nuttcp-t:")
        });
        if ours {
            96
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            let mut push = |metric: &str, unit: &str, text: &str| -> Result<()> {
                let v = num(src, n, text, metric)?;
                out.push(
                    Row::at(src, n)
                        .benchmark("nuttcp")
                        .metric(metric)
                        .unit(unit)
                        .sample(v),
                );
                Ok(())
            };
            if let Some(c) = SUMMARY.captures(t) {
                let rest = &c[4];
                // The whole test's line states the CPU use; an interval's
                // does not, and marks its UDP figures as estimates.
                let Some(cpu) = TX_RX.captures(rest) else {
                    skipped.push((
                        n,
                        "an interval report (-i); the whole-test line follows".into(),
                    ));
                    continue;
                };
                push("rate", "Mbit/s", &c[3])?;
                push("transfer", "MB", &c[1])?;
                push("tx cpu", "%", &cpu[1])?;
                push("rx cpu", "%", &cpu[2])?;
                if let Some(r) = RETRANS.captures(rest) {
                    push("retrans", "", &r[1])?;
                }
                if let Some(r) = RTT.captures(rest) {
                    push("rtt", "ms", &r[1])?;
                }
                if let Some(d) = DROPS.captures(rest) {
                    push("drops", "", &d[1])?;
                    push("loss", "%", &d[3])?;
                }
            } else if let Some(c) = VERBOSE.captures(t) {
                let metric = if &c[1] == "t" {
                    "rate"
                } else {
                    "rate received"
                };
                push(metric, "Mbit/s", &c[4])?;
                if &c[1] == "t" {
                    push("transfer", "MB", &c[2])?;
                }
            } else if t.starts_with("megabytes=") {
                if t.contains("real_sec=") {
                    skipped.push((
                        n,
                        "an interval report (-i); the whole-test line follows".into(),
                    ));
                    continue;
                }
                for c in PARSE_PAIR.captures_iter(t) {
                    let (metric, unit) = match &c[1] {
                        "megabytes" => ("transfer", "MB"),
                        "rate_Mbps" => ("rate", "Mbit/s"),
                        "tx_cpu" => ("tx cpu", "%"),
                        "rx_cpu" => ("rx cpu", "%"),
                        "retrans" => ("retrans", ""),
                        "rtt_ms" => ("rtt", "ms"),
                        "drop" => ("drops", ""),
                        "data_loss" => ("loss", "%"),
                        _ => continue,
                    };
                    push(metric, unit, &c[2])?;
                }
            } else if t.starts_with("nuttcp-") {
                consumed.push(n);
            }
        }
        let why = src
            .lines
            .iter()
            .find_map(|l| {
                ERROR
                    .captures(l.text.trim())
                    .map(|c| format!(": nuttcp said `{}`", &c[1]))
            })
            .unwrap_or_default();
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            format!("no nuttcp summary line{why}"),
        )
    }
}
