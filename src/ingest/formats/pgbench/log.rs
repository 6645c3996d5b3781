//! pgbench's log files (`-l`, file `pgbench_log.PID[.THREAD]`):
//! - per transaction: `client_id transaction_no time script_no time_epoch
//!   time_us [schedule_lag] [retries]`, `time` the latency in µs (or
//!   `skipped` / `failed`);
//! - with `--aggregate-interval=N`, one line per interval: `interval_start
//!   num_transactions sum_latency sum_latency_2 min_latency max_latency …`
//!   (lag, skipped, retry and failure counts follow in newer versions).
//!
//! Benchmark `pgbench`. Per transaction: metric `latency` (us), one sample
//! per transaction, client as parameter `client`. Aggregated: per interval
//! `transactions`, `latency avg` (sum/count), `latency stddev` (from the sum
//! of squares), `latency min`, `latency max` (us), each a sample of that
//! interval. The file has no header: detection wants every line of one of
//! the two shapes, with an epoch-seconds time where each shape has one.

use crate::error::Result;
use crate::ingest::shared::logscan::{num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

/// The pgbench log importer.
pub struct PgbenchLog;

/// The two shapes of log line.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Shape {
    Transaction,
    Aggregate,
}

/// Epoch seconds of a pgbench run: since 2001, before 2100.
fn is_epoch(w: &str) -> bool {
    w.len() == 10 && w.bytes().all(|b| b.is_ascii_digit()) && w.as_bytes()[0] <= b'3'
}

fn is_uint(w: &str) -> bool {
    !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit())
}

/// The shape of one line, if it has one.
fn shape(line: &str) -> Option<Shape> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let latency_ok = |t: &str| is_uint(t) || t == "skipped" || t == "failed";
    if (6..=8).contains(&w.len())
        && is_uint(w[0])
        && is_uint(w[1])
        && latency_ok(w[2])
        && is_uint(w[3])
        && is_epoch(w[4])
        && is_uint(w[5])
    {
        return Some(Shape::Transaction);
    }
    if w.len() >= 6 && is_epoch(w[0]) && w[1..].iter().all(|t| is_uint(t)) {
        return Some(Shape::Aggregate);
    }
    None
}

impl Format for PgbenchLog {
    fn name(&self) -> &'static str {
        "pgbench-log"
    }

    fn description(&self) -> &'static str {
        "pgbench -l logs: per-transaction `client tx latency script epoch us` lines, or \
         --aggregate-interval `start count sum sum2 min max …` lines"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let mut first = None;
        let mut count = 0usize;
        for l in &src.lines {
            let t = l.text.trim();
            if t.is_empty() {
                continue;
            }
            let Some(s) = shape(t) else { return 0 };
            if *first.get_or_insert(s) != s {
                return 0;
            }
            count += 1;
        }
        match count {
            0 => 0,
            1 => 40,
            _ => 75,
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut skipped = Vec::new();
        for l in &src.lines {
            let n = l.number;
            let t = l.text.trim();
            let w: Vec<&str> = t.split_whitespace().collect();
            match shape(t) {
                Some(Shape::Transaction) => {
                    if !is_uint(w[2]) {
                        skipped.push((n, format!("transaction {} (no latency)", w[2])));
                        continue;
                    }
                    let mut p = Params::default();
                    p.set("client", w[0]);
                    let v = num(src, n, w[2], "latency")?;
                    out.push(
                        Row::at(src, n)
                            .benchmark("pgbench")
                            .params(&p.render())
                            .metric("latency")
                            .unit("us")
                            .sample(v),
                    );
                }
                Some(Shape::Aggregate) => {
                    let count = num(src, n, w[1], "num_transactions")?;
                    let sum = num(src, n, w[2], "sum_latency")?;
                    let sum2 = num(src, n, w[3], "sum_latency_2")?;
                    let mut push = |metric: &str, unit: &str, v: f64| {
                        out.push(
                            Row::at(src, n)
                                .benchmark("pgbench")
                                .metric(metric)
                                .unit(unit)
                                .sample(v),
                        );
                    };
                    push("transactions", "", count);
                    if count > 0.0 {
                        let avg = sum / count;
                        push("latency avg", "us", avg);
                        let var = (sum2 / count - avg * avg).max(0.0);
                        push("latency stddev", "us", var.sqrt());
                        push("latency min", "us", num(src, n, w[4], "min_latency")?);
                        push("latency max", "us", num(src, n, w[5], "max_latency")?);
                    }
                }
                None if t.is_empty() => {}
                None => {
                    return Err(src.error(Some(n), format!("not a pgbench log line: `{t}`")));
                }
            }
        }
        Parsed::found(
            src,
            out,
            Vec::new(),
            skipped,
            "pgbench log without transactions",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_transaction_latencies_are_samples() {
        let p = crate::ingest::parse_file(&PgbenchLog, "tests/data/harness/pgbench/txlog.23975");
        assert_eq!(p.observations.len(), 20);
        let o = &p.observations[0];
        assert_eq!(
            (o.metric.as_str(), o.unit.as_str(), o.value),
            ("latency", "us", 4019.0)
        );
        assert_eq!(o.params, "client=0");
    }

    #[test]
    fn aggregate_intervals_give_count_mean_and_extremes() {
        let p = crate::ingest::parse_file(&PgbenchLog, "tests/data/harness/pgbench/agg.23979");
        assert_eq!(p.observations.len(), 3 * 5);
        let first: Vec<(&str, f64)> = p
            .observations
            .iter()
            .take(5)
            .map(|o| (o.metric.as_str(), o.value))
            .collect();
        assert_eq!(first[0], ("transactions", 111.0));
        assert_eq!(first[1], ("latency avg", 497576.0 / 111.0));
        assert_eq!(first[3], ("latency min", 547.0));
        assert_eq!(first[4], ("latency max", 15980.0));
    }
}
