//! uperf (a network benchmark driven by XML profiles): after `Starting N
//! threads running profile:NAME ...`, one line per transaction of the
//! profile and a `Total` line, `Txn2  197.80M /  30.23(s) =  54.89Mb/s
//! 107204op/s` (bytes moved, over seconds, as bits per second and
//! operations per second), then `Netstat statistics` per interface and
//! `Run Statistics` per host (the same run seen from each side, with their
//! `Difference(%)`).
//!
//! Benchmark `uperf`, parameters the profile and threads, and `txn=N` for a
//! transaction's line (none for `Total`); metrics `throughput` (bits/s in
//! the stated prefix) and `ops` (op/s), samples of the run. A transaction
//! that moved no data (`Txn1 0 / 1.00(s) = 0 1op/s`, a connect) gives only
//! its rate of operations. The per-interface and per-host tables repeat
//! the run's figures and are accounted, not read.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(
    START,
    r"^Starting (\d+) threads running profile:(\S+?)\s*\.\.\.\s+[0-9.]+ seconds\s*$"
);
lazy_re!(
    TXN,
    r"^(Txn(\d+)|Total)\s+[0-9.]+[KMGT]?\s+/\s+[0-9.]+\(s\)\s+=\s+(?:([0-9.]+)([KMGT]?)b/s|0)\s+([0-9.]+)op/s\s*$"
);
lazy_re!(RULE, r"^-{20,}\s*$");
lazy_re!(WARNING, r"^(?:\*\* )?(?:\[\S+\] )?Warning: ");

/// The uperf importer.
pub struct Uperf;

impl Format for Uperf {
    fn name(&self) -> &'static str {
        "uperf"
    }

    fn description(&self) -> &'static str {
        "uperf: the `TxnN` and `Total  BYTES / S(s) = RATE b/s  N op/s` lines after `Starting N threads running profile:NAME`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let start = src
            .lines
            .iter()
            .take(200)
            .any(|l| START.is_match(l.text.trim()));
        let total = src
            .lines
            .iter()
            .take(20_000)
            .any(|l| l.text.starts_with("Total") && TXN.is_match(l.text.trim()));
        match (start, total) {
            (true, true) => 96,
            (false, true) => 70,
            _ => 0,
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut consumed = Vec::new();
        let mut skipped = Vec::new();
        let mut params = Params::default();
        // Inside the per-interface or per-host table after the totals.
        let mut repeats = false;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            if let Some(c) = START.captures(t) {
                params = Params::default();
                params.set("threads", &c[1]);
                params.set("profile", &c[2]);
                repeats = false;
                consumed.push(n);
            } else if let Some(c) = TXN.captures(t) {
                let mut p = params.clone();
                if let Some(txn) = c.get(2) {
                    p.set("txn", txn.as_str());
                }
                let p = p.render();
                let row = |metric: &str, unit: &str| {
                    Row::at(src, n)
                        .benchmark("uperf")
                        .params(&p)
                        .metric(metric)
                        .unit(unit)
                };
                if let Some(rate) = c.get(3) {
                    let v = num(src, n, rate.as_str(), "uperf throughput")?;
                    let unit = format!("{}bit/s", bit_prefix(&c[4]));
                    out.push(row("throughput", &unit).sample(v));
                }
                let ops = num(src, n, &c[5], "uperf operations per second")?;
                out.push(row("ops", "op/s").sample(ops));
            } else if t == "Netstat statistics for this run" || t == "Run Statistics" {
                repeats = true;
                consumed.push(n);
            } else if repeats && !t.is_empty() && !RULE.is_match(t) {
                skipped.push((
                    n,
                    "a per-interface or per-host view of the run, which its Total line gives"
                        .to_string(),
                ));
            } else if WARNING.is_match(t) {
                skipped.push((
                    n,
                    "a warning (socket buffers granted other than requested), not a result"
                        .to_string(),
                ));
            } else if RULE.is_match(t) {
                consumed.push(n);
            } else if t.is_empty() {
                repeats = false;
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no uperf `Total  BYTES / S(s) = RATE b/s  N op/s` line",
        )
    }
}

/// The SI prefix of uperf's bit rates (`Kb/s` is kilobits).
fn bit_prefix(p: &str) -> &'static str {
    match p {
        "K" => "k",
        "M" => "M",
        "G" => "G",
        "T" => "T",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::testing::{rows_of, RowView};

    /// A row of benchmark uperf.
    fn row(params: &str, metric: &str, unit: &str, value: f64) -> RowView {
        (
            "uperf".into(),
            params.into(),
            metric.into(),
            unit.into(),
            value,
        )
    }

    #[test]
    fn a_connect_without_data_gives_its_operation_rate_only() {
        let text = "Starting 1 threads running profile:netperf ...   0.00 seconds\n\
                    Txn1            0 /   1.00(s) =            0           1op/s\n\
                    Total     197.80M /  32.33(s) =    51.32Mb/s      100228op/s\n";
        let got = rows_of(&Uperf, "u.txt", text);
        assert_eq!(
            got,
            [
                row("profile=netperf,threads=1,txn=1", "ops", "op/s", 1.0),
                row("profile=netperf,threads=1", "throughput", "Mbit/s", 51.32),
                row("profile=netperf,threads=1", "ops", "op/s", 100228.0),
            ]
        );
    }
}
