//! memtier_benchmark's `--json-out-file` document: `configuration` (the
//! command line's settings), `run information` (`Threads`, `Connections
//! per thread`, `Seconds` or `Requests per client`) and one object per
//! result table the console prints — `ALL STATS`, `RUN #N RESULTS`, `BEST
//! RUN RESULTS`, `WORST RUN RESULTS`, `AGGREGATED AVERAGE RESULTS (N
//! runs)` — holding per command type (`Sets`, `Gets`, `Waits`, `Totals`)
//! `Ops/sec`, `Hits/sec`, `Misses/sec`, `Average Latency`, `Min Latency`,
//! `Max Latency`, `KB/sec` and `Percentile Latencies` (`p50.00` …), in ms.
//!
//! The rows are the console reader's (`memtier`): benchmark `memtier`,
//! parameters the command type (`op=gets`), threads and connections per
//! thread and the run's length; metrics `ops` (ops/s), `hits`, `misses`
//! (/s), `latency avg|min|max|pNN` (ms), `throughput` (KB/s). `ALL STATS`
//! and `RUN #N` are samples, the aggregated average its mean with n; the
//! best and worst runs, the per-second `Time-Serie` and the per-command
//! latency distributions (`SET`, `GET`: CDF points) are not read.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::shared::structured::parse_json;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};
use serde_json::{Map, Value};

lazy_re!(
    TITLE,
    r"^(ALL STATS|RUN #(\d+) RESULTS|AGGREGATED AVERAGE RESULTS \((\d+) runs\))$"
);

/// The memtier_benchmark JSON importer.
pub struct MemtierJson;

/// How a result table's figures are stated.
#[derive(Clone, Copy)]
enum Kind {
    /// One run (`ALL STATS`, or `RUN #N` with its number).
    Run(Option<u32>),
    /// The mean of this many runs.
    Average(f64),
}

impl Format for MemtierJson {
    fn name(&self) -> &'static str {
        "memtier-json"
    }

    fn description(&self) -> &'static str {
        "memtier_benchmark --json-out-file: `ALL STATS` / `RUN #N RESULTS` / aggregated average objects of `Ops/sec`, latencies and `KB/sec` per command type"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let raw = src.raw_trimmed();
        let has = |k: &str| raw.contains(k);
        if src.looks_like_json()
            && has("\"Ops/sec\"")
            && (has("\"ALL STATS\"") || has("\"RUN #1 RESULTS\""))
        {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let doc: Value = parse_json(src, "memtier JSON")?;
        let mut settings = Params::default();
        if let Some(info) = doc["run information"].as_object() {
            for (name, key) in [
                ("Threads", "threads"),
                ("Connections per thread", "connections"),
                ("Requests per client", "requests"),
                ("Seconds", "seconds"),
            ] {
                if let Some(v) = info.get(name).and_then(Value::as_i64) {
                    settings.set(key, v.to_string());
                }
            }
        }
        let mut out = Vec::new();
        if let Some(top) = doc.as_object() {
            for (title, table) in top {
                let Some(c) = TITLE.captures(title) else {
                    continue;
                };
                let kind = match (c.get(2), c.get(3)) {
                    (Some(run), _) => Kind::Run(run.as_str().parse().ok()),
                    (_, Some(n)) => Kind::Average(n.as_str().parse().unwrap_or(0.0)),
                    _ => Kind::Run(None),
                };
                let Some(table) = table.as_object() else {
                    continue;
                };
                for (op, figures) in table {
                    if let Some(f) = figures.as_object().filter(|f| f.contains_key("Ops/sec")) {
                        command(src, &settings, op, f, kind, &mut out);
                    }
                }
            }
        }
        if out.is_empty() {
            return Err(src.error(
                Some(1),
                "memtier JSON without a result table (`ALL STATS`, `RUN #N RESULTS` or the aggregated average) holding a command type's `Ops/sec`",
            ));
        }
        Ok(Parsed::from(out))
    }
}

/// The rows of one command type's figures in one table; none when no
/// such command was sent (every figure zero, as the console's `---`).
fn command(
    src: &Source,
    settings: &Params,
    op: &str,
    f: &Map<String, Value>,
    kind: Kind,
    out: &mut Vec<Observation>,
) {
    let get = |k: &str| f.get(k).and_then(Value::as_f64);
    if get("Ops/sec") == Some(0.0) && get("Count").is_none_or(|c| c == 0.0) {
        return;
    }
    let mut params = settings.clone();
    params.set("op", op.to_ascii_lowercase());
    let params = params.render();
    let avg = get("Average Latency").or(get("Latency"));
    let mut figures: Vec<(String, &str, Option<f64>)> = vec![
        ("ops".into(), "ops/s", get("Ops/sec")),
        ("hits".into(), "/s", get("Hits/sec")),
        ("misses".into(), "/s", get("Misses/sec")),
        ("latency avg".into(), "ms", avg),
        ("latency min".into(), "ms", get("Min Latency")),
        ("latency max".into(), "ms", get("Max Latency")),
    ];
    if let Some(p) = f.get("Percentile Latencies").and_then(Value::as_object) {
        for (name, v) in p {
            // `p99.90` as the console names it: `p99.9`.
            let Some(q) = name.strip_prefix('p').and_then(|q| q.parse::<f64>().ok()) else {
                continue;
            };
            figures.push((format!("latency p{q}"), "ms", v.as_f64()));
        }
    }
    figures.push(("throughput".into(), "KB/s", get("KB/sec")));
    for (metric, unit, v) in figures {
        let Some(v) = v.filter(|v| v.is_finite()) else {
            continue;
        };
        let row = Row::at(src, 0)
            .benchmark("memtier")
            .params(&params)
            .metric(&metric)
            .unit(unit);
        match kind {
            Kind::Average(n) => {
                out.push(row.clone().stat(Stat::Mean, v));
                out.push(row.stat(Stat::N, n));
            }
            Kind::Run(run) => {
                let mut o = row.sample(v);
                o.run = run;
                out.push(o);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    #[test]
    fn each_command_type_gives_the_console_s_figures() {
        let p = parse_file(
            &MemtierJson,
            "tests/data/harness/memtier/pkb-redis-ratio-1-9.json",
        );
        let of = |op: &str, metric: &str| {
            p.observations
                .iter()
                .find(|o| o.params.contains(&format!("op={op}")) && o.metric == metric)
                .map(|o| (o.unit.to_string(), o.value))
        };
        assert_eq!(
            p.observations[0].params,
            "connections=8,op=gets,seconds=800,threads=4"
        );
        assert_eq!(of("gets", "ops"), Some(("ops/s".into(), 81016.28)));
        assert_eq!(of("gets", "misses"), Some(("/s".into(), 64715.58)));
        assert_eq!(of("gets", "latency avg"), Some(("ms".into(), 0.354)));
        assert_eq!(of("gets", "latency p99.9"), Some(("ms".into(), 2.575)));
        assert_eq!(of("totals", "throughput"), Some(("KB/s".into(), 28951.87)));
        // Waits: no WAIT command was sent.
        assert_eq!(of("waits", "ops"), None);
        assert!(p.observations.iter().all(|o| o.stat == Stat::Sample));
    }

    #[test]
    fn runs_and_their_average_keep_their_kind() {
        let text = r#"{"run information": {"Threads": 2, "Connections per thread": 5, "Requests per client": 100},
            "RUN #2 RESULTS": {"Gets": {"Count": 10, "Ops/sec": 12.5, "Average Latency": 0.2, "KB/sec": 1.0}},
            "BEST RUN RESULTS": {"Gets": {"Count": 10, "Ops/sec": 99.0}},
            "AGGREGATED AVERAGE RESULTS (3 runs)": {"Gets": {"Count": 30, "Ops/sec": 11.0}}}"#;
        let src = Source::from_text("m.json", text);
        assert_eq!(MemtierJson.detect(&src), 0, "no ALL STATS, no RUN #1");
        let p = MemtierJson.parse_accounted(&src).unwrap();
        let run: Vec<_> = p
            .observations
            .iter()
            .filter(|o| o.run == Some(2))
            .map(|o| (o.metric.as_str(), o.value))
            .collect();
        assert_eq!(
            run,
            [("ops", 12.5), ("latency avg", 0.2), ("throughput", 1.0)]
        );
        assert!(
            p.observations.iter().all(|o| o.value != 99.0),
            "best run not read"
        );
        let mean: Vec<_> = p
            .observations
            .iter()
            .filter(|o| o.stat != Stat::Sample)
            .map(|o| (o.stat, o.value))
            .collect();
        assert_eq!(mean, [(Stat::Mean, 11.0), (Stat::N, 3.0)]);
        assert!(p.observations[0].params.contains("requests=100"));
    }
}
