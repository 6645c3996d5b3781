//! PostgreSQL `pgbench` run output (PG ≤ 13 and ≥ 14 spellings).
//!
//! Metrics (one run = one replicate, so each is a `sample`):
//! - `tps`: `tps = X (without initial connection time)` (PG ≥ 14) or
//!   `(excluding connections establishing)` (PG ≤ 13), the comparable figure;
//! - `tps incl. connections`: PG ≤ 13's `(including connections
//!   establishing)`, kept apart because connection set-up is in it;
//! - `latency avg` and `latency stddev` (ms): the run's own latency
//!   statistics (the stddev line is printed only in some modes);
//! - `connection time` (ms): `initial connection time = X ms`; with `-C`,
//!   whose `tps = X (including reconnection times)` is its `tps` (parameter
//!   `reconnect=1`), `connection time avg`: `average connection time`;
//! - `failures` (failed transactions): a run with failures is not comparable, so the
//!   count is kept where PG ≥ 15 prints it;
//! - `-P` progress lines become `progress tps`, `progress latency avg` and
//!   `progress latency stddev` samples: a time series inside one run, kept
//!   apart from the per-run figures.
//!
//! Parameters: `clients`, `threads`, `scale`, `mode` (query mode), `script`
//! (builtin name or script file), and `transactions` per client when given.

use crate::error::Result;
use crate::ingest::shared::logscan::{any_with, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::SmolStr;

lazy_re!(VERSION, r"^pgbench \(\d+(?:\.\d+)*[^)]*\)*\s*$");
/// Header lines read past on purpose, with the reason `ingest` shows.
const CONTEXT_SKIPS: [(&str, &str); 3] = [
    (
        "number of transactions actually processed:",
        "transaction count: the tps read is this count per second",
    ),
    ("duration:", "run length setting (-T)"),
    (
        "maximum number of tries:",
        "retry limit setting (--max-tries)",
    ),
];
lazy_re!(TX_TYPE, r"^transaction type: (?:<builtin: (.*)>|(.*))\s*$");
lazy_re!(
    HEADER_KV,
    r"^(scaling factor|query mode|number of clients|number of threads|number of transactions per client): (\S+)"
);
lazy_re!(
    TPS,
    r"^tps = ([\d.]+) \((without|excluding|with|including reconnection|including)\b"
);
lazy_re!(LATENCY, r"^latency (average|stddev) = ([\d.]+) ms");
lazy_re!(CONNECT, r"^(initial|average) connection time = ([\d.]+) ms");
lazy_re!(FAILED, r"^number of failed transactions: (\d+)");
lazy_re!(
    PROGRESS,
    r"^progress: [\d.]+ s, ([\d.]+) tps, lat ([\d.]+) ms stddev ([\d.]+|NaN|nan)"
);

/// The pgbench importer.
pub struct Pgbench;

fn script_name(builtin: &str) -> String {
    match builtin.trim() {
        "TPC-B (sort of)" => "tpcb-like".into(),
        "simple update" => "simple-update".into(),
        "select only" => "select-only".into(),
        other => other.to_string(),
    }
}

impl Format for Pgbench {
    fn name(&self) -> &'static str {
        "pgbench"
    }

    fn description(&self) -> &'static str {
        "PostgreSQL pgbench: `transaction type: <builtin: …>` header, `tps = X (without initial connection time)`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        match (
            any_with(src, "transaction type: ", &TX_TYPE),
            any_with(src, "tps = ", &TPS),
        ) {
            (_, true) => 95,
            (true, false) => 60,
            // `-P` progress lines alone: what pgbench wrote to stderr.
            _ if any_with(src, "progress: ", &PROGRESS) => 60,
            _ => 0,
        }
    }

    /// The version and header lines giving parameters are `consumed`; the
    /// transaction count and run settings that are not parameters are
    /// `skipped` with the reason.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut consumed = Vec::new();
        let mut skipped = Vec::new();
        let mut params = Params::default();
        // Line of a `transaction type:` header whose `tps` line has not come.
        let mut pending: Option<u32> = None;
        // First observation of the current run: `-P` progress lines come
        // before the report header that names the run's parameters, so the
        // run's rows get their parameters once the run is complete.
        let mut run_start = 0usize;
        for l in &src.lines {
            let t = l.text.trim_end();
            let n = l.number;
            macro_rules! push {
                ($metric:expr, $unit:expr, $v:expr, $params:expr) => {
                    out.push(
                        Row::at(src, n)
                            .benchmark("pgbench")
                            .params(&$params.render())
                            .metric($metric)
                            .unit($unit)
                            .sample($v),
                    )
                };
            }
            if let Some(c) = TX_TYPE.captures(t) {
                if let Some(start) = pending {
                    return Err(src.error(
                        Some(start),
                        "pgbench run has no `tps =` line (truncated output?)",
                    ));
                }
                // Run-level keys before this line (clients …) belong to this run
                // in PG ≥ 14 too, as they follow it; start afresh.
                params = Params::default();
                let script = c
                    .get(1)
                    .map(|m| script_name(m.as_str()))
                    .unwrap_or_else(|| c[2].trim().to_string());
                params.set("script", script);
                pending = Some(n);
                consumed.push(n);
            } else if let Some(c) = HEADER_KV.captures(t) {
                let key = match &c[1] {
                    "scaling factor" => "scale",
                    "query mode" => "mode",
                    "number of clients" => "clients",
                    "number of threads" => "threads",
                    _ => "transactions",
                };
                params.set(key, &c[2]);
                consumed.push(n);
            } else if VERSION.is_match(t) {
                consumed.push(n);
            } else if let Some((_, why)) = CONTEXT_SKIPS.iter().find(|(k, _)| t.starts_with(k)) {
                skipped.push((n, why.to_string()));
            } else if let Some(c) = TPS.captures(t) {
                let v = num(src, n, &c[1], "tps")?;
                let metric = match &c[2] {
                    // `-C` connects for every transaction: its one tps
                    // holds the connections, and `reconnect` keeps it
                    // apart from runs that connect once.
                    "without" | "excluding" | "including reconnection" => "tps",
                    _ => "tps incl. connections",
                };
                if &c[2] == "including reconnection" {
                    params.set("reconnect", "1");
                }
                push!(metric, "tps", v, &params);
                if metric == "tps" {
                    pending = None;
                    let rendered: SmolStr = params.render().into();
                    for o in &mut out[run_start..] {
                        o.params.clone_from(&rendered);
                    }
                    run_start = out.len();
                }
            } else if let Some(c) = LATENCY.captures(t) {
                let v = num(src, n, &c[2], "latency")?;
                let metric = if &c[1] == "average" {
                    "latency avg"
                } else {
                    "latency stddev"
                };
                push!(metric, "ms", v, &params);
            } else if let Some(c) = CONNECT.captures(t) {
                let v = num(src, n, &c[2], "connection time")?;
                let metric = if &c[1] == "initial" {
                    "connection time"
                } else {
                    "connection time avg"
                };
                push!(metric, "ms", v, &params);
            } else if let Some(c) = FAILED.captures(t) {
                let v = num(src, n, &c[1], "failed transactions")?;
                push!("failures", "", v, &params);
            } else if let Some(c) = PROGRESS.captures(t) {
                push!(
                    "progress tps",
                    "tps",
                    num(src, n, &c[1], "progress tps")?,
                    &params
                );
                push!(
                    "progress latency avg",
                    "ms",
                    num(src, n, &c[2], "progress latency")?,
                    &params
                );
                // One transaction in an interval gives a NaN stddev: no value.
                if let Some(sd) = crate::ingest::shared::numbers::parse_number(&c[3]) {
                    push!("progress latency stddev", "ms", sd, &params);
                }
            } else if t.starts_with("tps = ") || t.starts_with("latency average") {
                return Err(src.error(Some(n), format!("malformed pgbench result line: `{t}`")));
            }
        }
        if let Some(start) = pending {
            return Err(src.error(
                Some(start),
                "pgbench run has no `tps =` line (truncated output?)",
            ));
        }
        Parsed::found(src, out, consumed, skipped, "no pgbench result line found")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_that_are_not_params_are_skipped_with_reasons() {
        let path = "tests/data/corpus/pgbench-baseline-1.txt";
        let p = crate::ingest::parse_file(&Pgbench, path);
        let skipped: Vec<u32> = p.skipped.iter().map(|(l, _)| *l).collect();
        assert_eq!(skipped, vec![8, 9, 10]);
        assert!(p.skipped[1].1.contains("-T"));
        assert!(p.skipped[2].1.contains("transaction count"));
        // Version, transaction type, scale, mode, clients, threads.
        assert_eq!(p.consumed, vec![1, 3, 4, 5, 6, 7]);
    }
}
