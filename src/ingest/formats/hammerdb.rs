//! HammerDB (hammerdbcli) logs of its TPC-C and TPC-H derived workloads:
//! the TPC-C result, `Vuser 1:TEST RESULT : System achieved 8153 NOPM from
//! 24772 MySQL TPM`; TPC-H query times, `Vuser 1:query 14 completed in
//! 0.795 seconds`, and `Vuser 1:Completed 1 query set(s) in 91 seconds`;
//! the time profile report of 4.x (`>>>>> SUMMARY OF 8 ACTIVE VIRTUAL
//! USERS`, then per `>>>>> PROC: NEWORD` a `CALLS: N MIN: x ms AVG: …`
//! line and a `P99: … P95: … P50: … SD: … RATIO: …%` line, run together
//! without spaces); and the transaction counter log, `324540 PostgreSQL
//! tpm @ <date>`, a line per second.
//!
//! Benchmark `hammerdb tpcc` or `hammerdb tpch` (from `Benchmark set to
//! TPC-C for MySQL`, or the lines read), parameter `db` (the database the
//! log names) and, for TPC-H, `query`, for the profile `proc`; metrics
//! `nopm` and `tpm` (/min), `query time` and `query set time` (s), the
//! profile's `calls`, `latency min|avg|max|p50|p95|p99` (ms) and `ratio`
//! (%), and the counter log's `tpm` per second as samples. The per-user
//! profile blocks and the 10-second percentile lines of older releases
//! (`Vuser 2:|neword|MIN-5028|P50%-15089|…`) are left out with the reason:
//! the summary and the result state the run. The profile's `>>>>>` marks
//! reach a reader as a mail's quote marks would, taken off its lines.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, lines_containing, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Observation;

lazy_re!(
    RESULT,
    r"TEST RESULT : System achieved (\d+) NOPM from (\d+) (\S+) TPM"
);
lazy_re!(
    QUERY,
    r"^(?:Vuser \d+:)?query (\d+) completed in ([\d.]+) seconds"
);
lazy_re!(
    QUERY_SET,
    r"^(?:Vuser \d+:)?Completed (\d+) query set\(s\) in ([\d.]+) seconds"
);
lazy_re!(
    BENCHMARK,
    r"^Benchmark set to (TPC-C|TPC-H|TPROC-C|TPROC-H) for (\S+)"
);
lazy_re!(DATABASE, r"^Database set to (\S+)");
lazy_re!(SUMMARY, r"^(?:>+ *)?SUMMARY OF \d+ ACTIVE VIRTUAL USERS");
lazy_re!(USER_BLOCK, r"^(?:>+ *)?VIRTUAL USER \d+");
lazy_re!(PROC, r"^(?:>+ *)?PROC: (\S+)");
// `CALLS: 322104MIN: 2.269msAVG: 9.236msMAX: 36.366msTOTAL: 2975206.250ms`,
// `P99: 14.197msP95: 12.399msP50: 9.087msSD: 1808.882RATIO: 41.115%`.
lazy_re!(FIGURE, r"([A-Z][A-Z0-9]*): ([\d.]+)(ms|%)?");
lazy_re!(COUNTER, r"^(\d+) (\S+) tpm @ ");
lazy_re!(INTERVAL, r"^(?:Vuser \d+:)?\|(?:PERCENTILES|[a-z]+\|MIN-)");

/// The HammerDB importer.
pub struct Hammerdb;

impl Format for Hammerdb {
    fn name(&self) -> &'static str {
        "hammerdb"
    }

    fn description(&self) -> &'static str {
        "HammerDB: `TEST RESULT : System achieved N NOPM from M <db> TPM`, TPC-H `query N completed in X seconds`, the time profile SUMMARY and the `N <db> tpm @` counter log"
    }

    fn detect(&self, src: &Source) -> Confidence {
        // The result line, a report's or log's title, or the CLI's
        // `Benchmark set to TPC-H for MySQL`.
        let found = lines_containing(src, "TEST RESULT : System achieved")
            .next()
            .is_some()
            || lines_containing(src, "Hammerdb ")
                .any(|l| l.contains(" Report @") || l.contains(" Log @"))
            || lines_containing(src, "Benchmark set to ").any(|l| BENCHMARK.is_match(l.trim()));
        if found {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out: Vec<Observation> = Vec::new();
        let mut skipped: Vec<(u32, String)> = Vec::new();
        let mut db = String::new();
        let mut bench = String::new();
        // Within the summary of all users (read) or a user's own block
        // (left out), and the procedure its lines are of.
        let mut summary: Option<bool> = None;
        let mut proc_name = String::new();
        let mut counter_run = 0;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            if let Some(c) = BENCHMARK.captures(t) {
                bench = if c[1].ends_with('H') {
                    "hammerdb tpch"
                } else {
                    "hammerdb tpcc"
                }
                .into();
                db = c[2].to_string();
            } else if let Some(c) = DATABASE.captures(t) {
                db = c[1].to_string();
            }
            let row = |b: &str, params: &Params, metric: &str, unit: &str, v: f64| {
                Row::at(src, n)
                    .benchmark(b)
                    .params(&params.render())
                    .metric(metric)
                    .unit(unit)
                    .sample(v)
            };
            let mut params = Params::default();
            if !db.is_empty() {
                params.set("db", &db);
            }
            if let Some(c) = RESULT.captures(t) {
                params.set("db", &c[3]);
                out.push(row(
                    "hammerdb tpcc",
                    &params,
                    "nopm",
                    "/min",
                    num(src, n, &c[1], "NOPM")?,
                ));
                out.push(row(
                    "hammerdb tpcc",
                    &params,
                    "tpm",
                    "/min",
                    num(src, n, &c[2], "TPM")?,
                ));
            } else if let Some(c) = QUERY.captures(t) {
                params.set("query", &c[1]);
                out.push(row(
                    "hammerdb tpch",
                    &params,
                    "query time",
                    "s",
                    num(src, n, &c[2], "query")?,
                ));
            } else if let Some(c) = QUERY_SET.captures(t) {
                params.set("query_sets", &c[1]);
                out.push(row(
                    "hammerdb tpch",
                    &params,
                    "query set time",
                    "s",
                    num(src, n, &c[2], "query set")?,
                ));
            } else if SUMMARY.is_match(t) {
                summary = Some(true);
            } else if USER_BLOCK.is_match(t) {
                summary = Some(false);
                skipped.push((
                    n,
                    "one virtual user's profile; the summary of all users is read".into(),
                ));
            } else if let Some(c) = PROC.captures(t) {
                proc_name = c[1].to_ascii_lowercase();
                if summary == Some(false) {
                    skipped.push((
                        n,
                        "one virtual user's profile; the summary of all users is read".into(),
                    ));
                }
            } else if FIGURE.is_match(t) && summary.is_some() && !proc_name.is_empty() {
                if summary == Some(false) {
                    skipped.push((
                        n,
                        "one virtual user's profile; the summary of all users is read".into(),
                    ));
                    continue;
                }
                params.set("proc", &proc_name);
                let b = if bench.is_empty() {
                    "hammerdb tpcc"
                } else {
                    &bench
                };
                for c in FIGURE.captures_iter(t) {
                    let (metric, unit) = match (&c[1], c.get(3).map_or("", |u| u.as_str())) {
                        ("CALLS", _) => ("calls".to_string(), ""),
                        // The total time of all calls and the spread in µs
                        // follow from the others.
                        ("TOTAL", _) | ("SD", _) => continue,
                        ("RATIO", _) => ("ratio".to_string(), "%"),
                        (k, "ms") => (format!("latency {}", k.to_ascii_lowercase()), "ms"),
                        _ => continue,
                    };
                    out.push(row(b, &params, &metric, unit, num(src, n, &c[2], &c[1])?));
                }
            } else if let Some(c) = COUNTER.captures(t) {
                params.set("db", &c[2]);
                let mut o = row(
                    "hammerdb tpcc",
                    &params,
                    "tpm",
                    "/min",
                    num(src, n, &c[1], "tpm")?,
                );
                o.run = Some(counter_run);
                counter_run += 1;
                out.push(o);
            } else if INTERVAL.is_match(t) {
                skipped.push((
                    n,
                    "a 10-second interval's percentiles; the run's result is read".into(),
                ));
            } else if t.starts_with("+-+-") {
                summary = None;
            }
        }
        let consumed = Parsed::frame_lines(src, &out, &skipped);
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no HammerDB result (`TEST RESULT : System achieved N NOPM`, `query N completed in`, a time profile SUMMARY or `N <db> tpm @` lines)",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    const DIR: &str = "tests/data/harness/hammerdb";

    fn rows(file: &str) -> Vec<crate::ingest::testing::RowView> {
        crate::ingest::testing::rows_of_file(&Hammerdb, &format!("{DIR}/{file}"))
    }

    use crate::ingest::testing::row;

    #[test]
    fn the_tpcc_result_and_the_tpch_query_times() {
        assert_eq!(
            rows("pkb-tpcc-mysql.txt"),
            [
                row("hammerdb tpcc", "db=MySQL", "nopm", "/min", 8153.0),
                row("hammerdb tpcc", "db=MySQL", "tpm", "/min", 24772.0),
            ]
        );
        let r = rows("pkb-tpch-mysql.txt");
        assert_eq!(
            r[0],
            row(
                "hammerdb tpch",
                "db=MySQL,query=14",
                "query time",
                "s",
                0.795
            )
        );
        assert_eq!(
            r.last().unwrap(),
            &row(
                "hammerdb tpch",
                "db=MySQL,query_sets=1",
                "query set time",
                "s",
                91.0
            )
        );
        assert_eq!(r.len(), 23);
    }

    #[test]
    fn the_time_profile_summary_is_read_and_each_user_s_block_left_out() {
        let p = parse_file(&Hammerdb, &format!("{DIR}/pkb-tpcc-timeprofile-4.3.txt"));
        let r: Vec<_> = p
            .observations
            .iter()
            .filter(|o| o.params.contains("proc=neword"))
            .map(|o| (o.metric.to_string(), o.value))
            .collect();
        assert_eq!(
            r,
            [
                ("calls".to_string(), 322104.0),
                ("latency min".to_string(), 2.269),
                ("latency avg".to_string(), 9.236),
                ("latency max".to_string(), 36.366),
                ("latency p99".to_string(), 14.197),
                ("latency p95".to_string(), 12.399),
                ("latency p50".to_string(), 9.087),
                ("ratio".to_string(), 41.115),
            ]
        );
        assert!(p.skipped_reason(3).contains("one virtual user"));
        let r = rows("pkb-tpm-per-second-4.3.txt");
        assert_eq!(
            r[1],
            row("hammerdb tpcc", "db=PostgreSQL", "tpm", "/min", 324540.0)
        );
    }
}
