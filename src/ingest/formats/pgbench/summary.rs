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
//!   count is kept where PG ≥ 15 prints it; with `--failures-detailed` and
//!   `--max-tries` also `serialization failures`, `deadlock failures`,
//!   `transactions retried` and `retries` (counts; the `%` beside them is
//!   that count over the transactions);
//! - `-R` (`--rate`) and `--latency-limit`: `skipped transactions` and
//!   `transactions above latency limit` (count and `%`, the limit as the
//!   `latency_limit` parameter, in ms), `schedule lag avg|max` (ms);
//! - `-P` progress lines become `progress tps`, `progress latency avg` and
//!   `progress latency stddev` samples: a time series inside one run, kept
//!   apart from the per-run figures; with `-R` their `lag X ms` and
//!   `N skipped` give `progress schedule lag` (ms) and `progress skipped
//!   transactions`, and PG 15's `N failed` / `N retried` give `progress
//!   failures` / `progress retries`;
//! - `-r` statement latencies: under `statement latencies in milliseconds`
//!   each line is `latency [failures [retries]] statement text` (PG ≥ 15
//!   adds the counts, 9.x has a tab between latency and text). The first
//!   number is the value and the text, whatever numbers it holds
//!   (`\set aid random(1, 100000 * :scale)`), names it: the statement is
//!   the benchmark, with the run's parameters, its metrics `latency` (ms)
//!   and, where printed, `failures`.
//!
//! With several `-f`/`-b` scripts the run's figures (`transaction type:
//! multiple scripts`) are followed by a section per script, `SQL script 1:
//! <builtin: select only>` or a file name, whose ` - ` lines give that
//! script's own `tps` (` - 2005 transactions (74.2% of total, tps = …)`),
//! latencies, failures and statement latencies, read as the run's are but
//! with the script as the `script` parameter and its `weight`: the scripts
//! of one run differ and stay apart.
//!
//! pgbench 9.x spells the run's latencies `latency average: X ms`.
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
lazy_re!(LATENCY, r"^latency (average|stddev)(?: =|:) ([\d.]+) ms");
lazy_re!(STATEMENTS, r"^statement latencies in milliseconds\b");
// `latency [failures [retries]] text`: the text starts at the first
// field that is not a bare number.
lazy_re!(
    STATEMENT,
    r"^\s+([\d.]+)(?:\s+(\d+))?(?:\s+\d+)?\s+(\S.*?)\s*$"
);
lazy_re!(SCRIPT, r"^SQL script \d+: (?:<builtin: (.*)>|(.*?))\s*$");
lazy_re!(WEIGHT, r"^weight: (\d+)");
lazy_re!(
    SCRIPT_TPS,
    r"^\d+ transactions \([\d.]+% of total, tps = ([\d.]+)\)"
);
lazy_re!(CONNECT, r"^(initial|average) connection time = ([\d.]+) ms");
lazy_re!(FAILED, r"^number of failed transactions: (\d+)");
// PG ≥ 15: failures by kind (`--failures-detailed`) and retries.
lazy_re!(
    RETRIES,
    r"^(?:number of (serialization failures|deadlock failures|transactions retried)|total number of (retries)): (\d+)"
);
// `-R` with `--latency-limit`: transactions never sent, late ones, and
// how far behind the schedule the sends were.
lazy_re!(
    SKIPPED,
    r"^number of transactions skipped: (\d+) \(([\d.]+)%\)"
);
lazy_re!(
    ABOVE_LIMIT,
    r"^number of transactions above the ([\d.]+) ms latency limit: (\d+)/\d+ \(([\d.]+)%\)"
);
lazy_re!(
    LAG,
    r"^rate limit schedule lag: avg ([\d.]+) \(max ([\d.]+)\) ms"
);
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
        // Inside a `SQL script N:` section: that script's parameters.
        let mut script: Option<Params> = None;
        // Inside a block of statement latencies.
        let mut statements = false;
        for l in &src.lines {
            let full = l.text.trim_end();
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
            // A script section's lines are ` - latency average = …`.
            let t = match (&script, full.strip_prefix(" - ")) {
                (Some(_), Some(rest)) => rest,
                _ => full,
            };
            if statements {
                if let Some(c) = STATEMENT.captures(full) {
                    let text = c[3].to_string();
                    let p = script.clone().unwrap_or_else(|| params.clone());
                    let v = num(src, n, &c[1], "statement latency")?;
                    // The statement is what is measured, its text the
                    // label: metric names stay those of every statement.
                    let statement = text.trim();
                    out.push(
                        Row::at(src, n)
                            .benchmark(statement)
                            .params(&p.render())
                            .metric("latency")
                            .unit("ms")
                            .sample(v),
                    );
                    if let Some(f) = c.get(2) {
                        let v = num(src, n, f.as_str(), "statement failures")?;
                        out.push(
                            Row::at(src, n)
                                .benchmark(statement)
                                .params(&p.render())
                                .metric("failures")
                                .sample(v),
                        );
                    }
                    // Complete: not renamed by the next run's header.
                    run_start = out.len();
                    continue;
                }
                statements = false;
            }
            if STATEMENTS.is_match(t) {
                statements = true;
                consumed.push(n);
                continue;
            }
            if let Some(c) = SCRIPT.captures(full) {
                let mut p = params.clone();
                let name = c
                    .get(1)
                    .map(|m| script_name(m.as_str()))
                    .unwrap_or_else(|| c[2].trim().to_string());
                p.set("script", name);
                script = Some(p);
                consumed.push(n);
                continue;
            }
            if let Some(p) = script.as_mut() {
                if full.starts_with(" - ") {
                    if let Some(c) = WEIGHT.captures(t) {
                        p.set("weight", &c[1]);
                        consumed.push(n);
                        continue;
                    }
                    if let Some(c) = SCRIPT_TPS.captures(t) {
                        let v = num(src, n, &c[1], "tps")?;
                        push!("tps", "tps", v, p);
                        run_start = out.len();
                        continue;
                    }
                } else {
                    script = None;
                }
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
                let name = c
                    .get(1)
                    .map(|m| script_name(m.as_str()))
                    .unwrap_or_else(|| script_name(&c[2]));
                params.set("script", name);
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
                match &script {
                    Some(p) => {
                        push!(metric, "ms", v, p);
                        run_start = out.len();
                    }
                    None => push!(metric, "ms", v, &params),
                }
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
                match &script {
                    Some(p) => {
                        push!("failures", "", v, p);
                        run_start = out.len();
                    }
                    None => push!("failures", "", v, &params),
                }
            } else if let Some(c) = RETRIES.captures(t) {
                let metric = c.get(1).or(c.get(2)).map_or("", |m| m.as_str());
                let v = num(src, n, &c[3], metric)?;
                let p = script.clone().unwrap_or_else(|| params.clone());
                push!(metric, "", v, p);
            } else if let Some(c) = SKIPPED.captures(t) {
                let p = script.clone().unwrap_or_else(|| params.clone());
                push!(
                    "skipped transactions",
                    "",
                    num(src, n, &c[1], "skipped")?,
                    p
                );
                let pct = num(src, n, &c[2], "skipped %")?;
                push!("skipped transactions %", "%", pct, p);
            } else if let Some(c) = ABOVE_LIMIT.captures(t) {
                // The limit is the run's: its rows get it with the tps line.
                params.set("latency_limit", &c[1]);
                let p = script.clone().unwrap_or_else(|| params.clone());
                let v = num(src, n, &c[2], "above latency limit")?;
                push!("transactions above latency limit", "", v, p);
                let pct = num(src, n, &c[3], "above latency limit %")?;
                push!("transactions above latency limit %", "%", pct, p);
            } else if let Some(c) = LAG.captures(t) {
                let p = script.clone().unwrap_or_else(|| params.clone());
                push!("schedule lag avg", "ms", num(src, n, &c[1], "lag avg")?, p);
                push!("schedule lag max", "ms", num(src, n, &c[2], "lag max")?, p);
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
                // The fields after the latency, each `, N word` or `, lag X ms`.
                for f in t[c.get(0).map_or(0, |m| m.end())..]
                    .split(',')
                    .map(str::trim)
                {
                    let words: Vec<&str> = f.split_whitespace().collect();
                    let (metric, unit, v) = match words.as_slice() {
                        ["lag", v, "ms"] => ("progress schedule lag", "ms", *v),
                        [v, "skipped"] => ("progress skipped transactions", "", *v),
                        [v, "failed"] => ("progress failures", "", *v),
                        [v, "retried"] => ("progress retries", "", *v),
                        _ => continue,
                    };
                    push!(metric, unit, num(src, n, v, metric)?, &params);
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

    #[test]
    fn rate_limited_progress_lines_give_their_lag_and_skipped_counts() {
        // pgbench -c 2 -T 3 -R 200 -L 5 -P 1 (PostgreSQL 15).
        let got = rows("tests/data/harness/pgbench/rate-limit-progress.txt");
        let at = |line: u32| -> Vec<(String, f64)> {
            let on = got.iter().filter(|r| r.0 == line);
            on.map(|r| (r.2.clone(), r.3)).collect()
        };
        let want = |lag: f64, skipped: f64, tps: f64, lat: f64, sd: f64| {
            vec![
                ("progress tps".to_string(), tps),
                ("progress latency avg".to_string(), lat),
                ("progress latency stddev".to_string(), sd),
                ("progress failures".to_string(), 0.0),
                ("progress schedule lag".to_string(), lag),
                ("progress skipped transactions".to_string(), skipped),
            ]
        };
        assert_eq!(at(3), want(0.455, 2.0, 195.0, 4.32, 2.519));
        assert_eq!(at(4), want(0.435, 13.0, 186.4, 4.271, 3.859));
    }

    fn rows(path: &str) -> Vec<(u32, String, String, f64)> {
        let p = crate::ingest::parse_file(&Pgbench, path);
        p.observations
            .iter()
            .map(|o| (o.line, o.params.to_string(), o.metric.to_string(), o.value))
            .collect()
    }

    /// A statement's rows: line, statement (the benchmark), metric, value.
    fn statement_rows(path: &str) -> Vec<(u32, String, String, f64)> {
        let p = crate::ingest::parse_file(&Pgbench, path);
        p.observations
            .iter()
            .filter(|o| o.benchmark != "pgbench")
            .map(|o| {
                (
                    o.line,
                    o.benchmark.to_string(),
                    o.metric.to_string(),
                    o.value,
                )
            })
            .collect()
    }

    #[test]
    fn failures_by_kind_and_retries_are_counted() {
        let dir = "tests/data/harness/pgbench";
        let counts = |file: &str| -> Vec<(u32, String)> {
            rows(&format!("{dir}/{file}"))
                .into_iter()
                .filter(|r| r.3 == 0.0)
                .map(|r| (r.0, r.2))
                .collect()
        };
        assert_eq!(
            counts("failures-detailed-max-tries3.txt"),
            vec![
                (11, "failures".to_string()),
                (12, "serialization failures".to_string()),
                (13, "deadlock failures".to_string()),
                (14, "transactions retried".to_string()),
                (15, "retries".to_string())
            ]
        );
        assert_eq!(
            counts("N-max-tries2-verbose-errors.txt"),
            vec![
                (11, "failures".to_string()),
                (12, "transactions retried".to_string()),
                (13, "retries".to_string())
            ]
        );
    }

    #[test]
    fn statement_latencies_are_named_by_their_text() {
        let path = "tests/data/harness/pgbench/per-statement-r.txt";
        let got = rows(path);
        let run = "clients=2,mode=simple,scale=1,script=tpcb-like,threads=1";
        // Each statement is a benchmark of its own, labelled by its text;
        // its latency is `latency`, as every statement's is.
        let stmt: Vec<(u32, String, f64)> = statement_rows(path)
            .into_iter()
            .filter(|r| r.2 == "latency")
            .map(|r| (r.0, r.1, r.3))
            .collect();
        assert_eq!(stmt.len(), 11);
        assert_eq!(
            stmt[0],
            (16, "\\set aid random(1, 100000 * :scale)".into(), 0.001)
        );
        assert_eq!(stmt[4], (20, "BEGIN;".into(), 0.040));
        assert_eq!(stmt[10], (26, "END;".into(), 0.419));
        assert!(got.iter().all(|r| r.1 == run), "{got:?}");
        assert!(got.iter().all(|r| !r.2.contains("statement")), "{got:?}");
        assert!(statement_rows(path).contains(&(
            21,
            "UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;".into(),
            "failures".into(),
            0.0
        )));
        assert!(got.contains(&(14, run.into(), "tps".into(), 1788.72727)));
    }

    #[test]
    fn each_script_of_a_multi_script_run_stays_apart() {
        // A statement's rows named `statement | metric`, the run's by metric.
        let got: Vec<(u32, String, String, f64)> = crate::ingest::parse_file(
            &Pgbench,
            "tests/data/harness/pgbench/two-scripts-weights-r.txt",
        )
        .observations
        .iter()
        .map(|o| {
            let name = match o.benchmark.as_str() {
                "pgbench" => o.metric.to_string(),
                statement => format!("{statement} | {}", o.metric),
            };
            (o.line, o.params.to_string(), name, o.value)
        })
        .collect();
        let run = "clients=2,mode=simple,scale=1,script=multiple scripts,threads=1";
        let a = "clients=2,mode=simple,scale=1,script=/tmp/a.sql,threads=1,weight=3";
        let b = "clients=2,mode=simple,scale=1,script=/tmp/b.sql,threads=1,weight=1";
        let want: Vec<(u32, &str, &str, f64)> = vec![
            (11, run, "failures", 0.0),
            (12, run, "latency avg", 1.472),
            (13, run, "connection time", 15.96),
            (14, run, "tps", 1358.783826),
            (17, a, "tps", 1008.64923),
            (18, a, "failures", 0.0),
            (19, a, "latency avg", 0.101),
            (20, a, "latency stddev", 0.292),
            (22, a, "\\set aid random(1, 100000) | latency", 0.0),
            (22, a, "\\set aid random(1, 100000) | failures", 0.0),
            (
                23,
                a,
                "SELECT abalance FROM pgbench_accounts WHERE aid = :aid; | latency",
                0.101,
            ),
            (
                23,
                a,
                "SELECT abalance FROM pgbench_accounts WHERE aid = :aid; | failures",
                0.0,
            ),
            (26, b, "tps", 350.134596),
            (27, b, "failures", 0.0),
            (28, b, "latency avg", 5.41),
            (29, b, "latency stddev", 3.413),
            (31, b, "\\set aid random(1, 100000) | latency", 0.0),
            (31, b, "\\set aid random(1, 100000) | failures", 0.0),
            (
                32,
                b,
                "UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :aid; | latency",
                5.41,
            ),
            (
                32,
                b,
                "UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :aid; | failures",
                0.0,
            ),
        ];
        let got: Vec<(u32, &str, &str, f64)> = got
            .iter()
            .map(|r| (r.0, r.1.as_str(), r.2.as_str(), r.3))
            .collect();
        assert_eq!(got, want);
        // Built-in scripts are named as `-b` names them.
        let got = rows("tests/data/harness/pgbench/builtin-weights.txt");
        assert!(got.contains(&(
            17,
            "clients=2,mode=simple,scale=1,script=select-only,threads=1,weight=5".into(),
            "tps".into(),
            2005.660543
        )));
        assert!(got.contains(&(
            25,
            "clients=2,mode=simple,scale=1,script=simple-update,threads=1,weight=1".into(),
            "latency avg".into(),
            4.42
        )));
    }

    #[test]
    fn pgbench_9_summary_and_tab_separated_statements() {
        let got = rows("tests/data/harness/pgbench/v9-pkb-stdout.txt");
        let run = "clients=16,mode=simple,scale=1,script=tpcb-like,threads=16";
        assert!(got.iter().all(|r| r.1 == run), "{got:?}");
        let m = |name: &str| got.iter().find(|r| r.2 == name).map(|r| r.3);
        assert_eq!(m("latency avg"), Some(1108.418));
        assert_eq!(m("latency stddev"), Some(760.944));
        assert_eq!(m("tps incl. connections"), Some(12.580114));
        assert_eq!(m("tps"), Some(13.062579));
        // A statement's latency under its text.
        let path = "tests/data/harness/pgbench/v9-pkb-stdout.txt";
        let statements = statement_rows(path);
        let m = |name: &str| {
            statements
                .iter()
                .find(|r| r.1 == name && r.2 == "latency")
                .map(|r| r.3)
        };
        assert_eq!(m("\\set nbranches 1 * :scale"), Some(0.008039));
        assert_eq!(m("\\setrandom delta -5000 5000"), Some(0.00126));
        assert_eq!(m("BEGIN;"), Some(36.290649));
        assert_eq!(
            m("UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;"),
            Some(558.017753)
        );
        assert_eq!(got.len(), 4 + 14);
    }
}
