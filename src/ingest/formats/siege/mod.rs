//! siege, the HTTP load tester: its closing report (`Transactions:
//! 1660 hits`, `Availability: 100.00 %`, …, printed on stderr) and its
//! log file (`siege.log`: a CSV line per run under a `Date & Time,
//! Trans, …` header, `**** mark ****` lines from `-m`).
//!
//! Benchmark `siege`; each figure is a metric, a `sample` per run, named
//! as the report names it (lower case) in both modes, the log's columns
//! mapped to the report's names (`Trans Rate` is `transaction rate`), so
//! that a run logged and a run printed compare. Units as siege states
//! them (`secs` is s, `trans/sec` trans/s, `MB/sec` MB/s).

pub(in crate::ingest) mod log;
pub(in crate::ingest) mod text;

use crate::ingest::shared::logscan::Params;
use crate::ingest::shared::row::Row;
use crate::ingest::Source;
use crate::model::Observation;

/// One figure of a run, alike in both modes so that they compare.
fn figure(
    src: &Source,
    line: u32,
    params: &Params,
    metric: &str,
    unit: &str,
    v: f64,
) -> Observation {
    Row::at(src, line)
        .benchmark("siege")
        .params(&params.render())
        .metric(metric)
        .unit(unit)
        .sample(v)
}

/// A figure of the report (its label, and the log's column for it) → the
/// metric and its unit.
const FIGURES: &[(&str, &str, &str, &str)] = &[
    ("Transactions", "Trans", "transactions", "hits"),
    ("Availability", "", "availability", "%"),
    ("Elapsed time", "Elap Time", "elapsed time", "s"),
    ("Data transferred", "Data Trans", "data transferred", "MB"),
    ("Response time", "Resp Time", "response time", "s"),
    (
        "Transaction rate",
        "Trans Rate",
        "transaction rate",
        "trans/s",
    ),
    ("Throughput", "Throughput", "throughput", "MB/s"),
    ("Concurrency", "Concurrent", "concurrency", ""),
    (
        "Successful transactions",
        "OKAY",
        "successful transactions",
        "",
    ),
    ("Failed transactions", "Failed", "failed transactions", ""),
    ("Longest transaction", "", "longest transaction", "s"),
    ("Shortest transaction", "", "shortest transaction", "s"),
];
