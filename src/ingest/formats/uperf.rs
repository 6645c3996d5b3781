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
//!
//! With `-R` uperf writes running totals instead of those lines
//! (`timestamp_ms:… name:Txn2 nr_bytes:… nr_ops:…`, each second and for
//! the groups and strands): accounted, not read, since they are counts
//! so far, not results. The run's figures are then those of the
//! `Run Statistics` table, read per host (`host=`): `throughput` and
//! `operations`, the `Difference(%)` between the hosts left out. With
//! `-a` the `Txn` and `Flowop` tables give each transaction's (`txn=N`)
//! and flow operation's (`flowop=NAME`) `latency`: `Count` as n, `avg`,
//! `max`, `min` (the per-operation `cpu` time is 0 unless uperf measured
//! it, and is not read).

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Stat;

lazy_re!(
    START,
    r"^Starting (\d+) threads running profile:(\S+?)\s*\.\.\.\s+[0-9.]+ seconds\s*$"
);
lazy_re!(
    TXN,
    r"^(Txn(\d+)|Total)\s+[0-9.]+[KMGT]?\s+/\s+[0-9.]+\(s\)\s+=\s+(?:([0-9.]+)([KMGT]?)b/s|0)\s+([0-9.]+)op/s\s*$"
);
lazy_re!(RULE, r"^-{20,}\s*$");
lazy_re!(
    RAW,
    r"^timestamp_ms:[0-9.]+ name:\S+ nr_bytes:\d+ nr_ops:\d+\s*$"
);
lazy_re!(
    OPS_HEADER,
    r"^(Txn|Flowop)\s+Count\s+avg\s+cpu\s+max\s+min\s*$"
);
lazy_re!(
    OPS_ROW,
    r"^(\S+)\s+(\d+)\s+([0-9.]+)(ns|us|ms|s)\s+\S+\s+([0-9.]+)(ns|us|ms|s)\s+([0-9.]+)(ns|us|ms|s)\s*$"
);
lazy_re!(
    HOST_ROW,
    r"^(\S+)\s+[0-9.]+s\s+[0-9.]+[KMGT]?B\s+([0-9.]+)([KMGT]?)b/s\s+(\d+)\s+[0-9.]+\s*$"
);
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
        let hosts = || src.lines.iter().any(|l| l.text.trim() == "Run Statistics");
        match (start, total) {
            (true, true) => 96,
            (true, false) if hosts() => 96,
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
        // The run's `Total` line was read: the per-host table repeats it.
        let mut total = false;
        // Inside a `Txn` or `Flowop` table (`-a`): which one.
        let mut ops_table: Option<&'static str> = None;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            if let Some(c) = OPS_HEADER.captures(t) {
                ops_table = Some(if &c[1] == "Txn" { "txn" } else { "flowop" });
                consumed.push(n);
                continue;
            }
            if let (Some(key), Some(c)) = (ops_table, OPS_ROW.captures(t)) {
                let mut p = params.clone();
                p.set(
                    key,
                    c[1].strip_prefix("Txn")
                        .filter(|_| key == "txn")
                        .unwrap_or(&c[1]),
                );
                let p = p.render();
                let row = |unit: &str| {
                    let r = Row::at(src, n).benchmark("uperf").params(&p);
                    r.metric("latency").unit(unit)
                };
                out.push(row("").stat(Stat::N, num(src, n, &c[2], "uperf count")?));
                for (stat, at) in [(Stat::Mean, 3), (Stat::Max, 5), (Stat::Min, 7)] {
                    let v = num(src, n, &c[at], "uperf latency")?;
                    out.push(row(&c[at + 1]).stat(stat, v));
                }
                continue;
            }
            if t.is_empty() {
                ops_table = None;
            }
            if RAW.is_match(t) {
                let why = "a running total of bytes and operations so far (uperf -R), not a result";
                skipped.push((n, why.to_string()));
                continue;
            }
            if t == "Group Details" || t == "Strand Details" {
                consumed.push(n);
                continue;
            }
            if let Some(c) = HOST_ROW.captures(t).filter(|_| repeats && !total) {
                let mut p = params.clone();
                p.set("host", &c[1]);
                let p = p.render();
                let row = |metric: &str, unit: &str| {
                    let r = Row::at(src, n).benchmark("uperf").params(&p);
                    r.metric(metric).unit(unit)
                };
                let rate = num(src, n, &c[2], "uperf throughput")?;
                out.push(row("throughput", &format!("{}bit/s", bit_prefix(&c[3]))).sample(rate));
                let ops = num(src, n, &c[4], "uperf operations")?;
                out.push(row("operations", "").sample(ops));
                continue;
            }
            if let Some(c) = START.captures(t) {
                params = Params::default();
                params.set("threads", &c[1]);
                params.set("profile", &c[2]);
                repeats = false;
                total = false;
                consumed.push(n);
            } else if let Some(c) = TXN.captures(t) {
                total |= c.get(2).is_none();
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
            } else if repeats && !total && t.starts_with("Hostname") {
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
            "no uperf `Total  BYTES / S(s) = RATE b/s  N op/s` line nor `Run Statistics` row",
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
        crate::ingest::testing::row("uperf", params, metric, unit, value)
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

    #[test]
    fn running_totals_are_left_out_and_the_tables_read() {
        // pbench's sample: uperf -a -R (running totals, then the Txn and
        // Flowop tables and the per-host statistics, no `Total` line).
        let p = crate::ingest::parse_file(
            &Uperf,
            "tests/data/harness/uperf/pbench-tcp-rr-raw-totals.txt",
        );
        let o = &p.observations;
        let get = |params: &str, metric: &str, stat: Stat| {
            let r = o
                .iter()
                .find(|r| r.params == params && r.metric == metric && r.stat == stat);
            r.map(|r| (r.value, r.unit.to_string(), r.line))
        };
        let base = "profile=tcp-rr-64b-1i,threads=1";
        let txn1 = format!("{base},txn=1");
        assert_eq!(
            get(&txn1, "latency", Stat::N),
            Some((647863.0, "".into(), 85))
        );
        assert_eq!(
            get(&txn1, "latency", Stat::Mean),
            Some((92.64, "us".into(), 85))
        );
        assert_eq!(
            get(&txn1, "latency", Stat::Max),
            Some((8.14, "ms".into(), 85))
        );
        assert_eq!(
            get(&txn1, "latency", Stat::Min),
            Some((85.82, "us".into(), 85))
        );
        let read = format!("flowop=read,{base}");
        assert_eq!(
            get(&read, "latency", Stat::Mean),
            Some((90.81, "us".into(), 93))
        );
        let host = format!("host=perf104,{base}");
        assert_eq!(
            get(&host, "throughput", Stat::Sample),
            Some((10.64, "Mbit/s".into(), 107))
        );
        assert_eq!(get(&host, "operations", Stat::Sample).unwrap().0, 1295728.0);
        assert!(get(&format!("host=master,{base}"), "operations", Stat::Sample).is_some());
        // 3 transactions and 4 flow operations of 4 rows, 2 hosts of 2.
        assert_eq!(o.len(), 32);
        assert!(p
            .skipped
            .iter()
            .any(|(_, why)| why.contains("running total")));
        assert!(p.skipped.iter().any(|(n, _)| *n == 110));
    }
}
