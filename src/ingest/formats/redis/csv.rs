//! `redis-benchmark --csv`: redis ≥ 6 writes a header
//! `"test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms",…` and one
//! quoted row per test; older versions write `"TEST","rps"` rows with no
//! header. Benchmark `redis-benchmark`, parameter `test=<name>`; metrics
//! `rps` (requests/s) and the run's latency statistics `latency avg/min/p50/
//! p95/p99/max` (ms), each a `sample` of the run.

use crate::error::Result;
use crate::ingest::shared::logscan::{last_line, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

/// The redis-benchmark CSV importer.
pub struct RedisCsv;

/// Splits one line of redis-benchmark's CSV (every field double-quoted, no
/// embedded quotes).
fn fields(line: &str) -> Option<Vec<String>> {
    let t = line.trim();
    if !t.starts_with('"') || !t.ends_with('"') || t.len() < 2 {
        return None;
    }
    let inner = &t[1..t.len() - 1];
    Some(inner.split("\",\"").map(str::to_string).collect())
}

/// Metric and unit of a header column.
fn column(name: &str) -> Option<(String, &'static str)> {
    match name {
        "rps" => Some(("rps".into(), "req/s")),
        _ => {
            let stat = name.strip_suffix("_latency_ms")?;
            let stat = match stat {
                "avg" | "min" | "max" => stat.to_string(),
                p => p.to_string(),
            };
            Some((format!("latency {stat}"), "ms"))
        }
    }
}

impl Format for RedisCsv {
    fn name(&self) -> &'static str {
        "redis-csv"
    }

    fn description(&self) -> &'static str {
        "redis-benchmark --csv: header `\"test\",\"rps\",\"avg_latency_ms\",…` (or headerless `\"TEST\",\"rps\"` rows)"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let mut lines = src
            .lines
            .iter()
            .map(|l| l.text.trim())
            .filter(|t| !t.is_empty());
        match lines.next() {
            Some(first) if first.starts_with("\"test\",\"rps\"") => 95,
            Some(first) => {
                let two = |t: &str| {
                    fields(t).is_some_and(|f| {
                        f.len() == 2
                            && f[0].chars().next().is_some_and(|c| c.is_ascii_uppercase())
                            && crate::ingest::shared::numbers::parse_number(&f[1]).is_some()
                    })
                };
                if two(first) && lines.all(two) {
                    60
                } else {
                    0
                }
            }
            None => 0,
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut skipped = Vec::new();
        let mut header: Vec<String> = vec!["test".into(), "rps".into()];
        for l in &src.lines {
            let t = l.text.trim();
            if t.is_empty() {
                continue;
            }
            let Some(f) = fields(t) else {
                return Err(src.error(
                    Some(l.number),
                    format!("not a redis-benchmark CSV row: `{t}`"),
                ));
            };
            if f.first().map(String::as_str) == Some("test") {
                header = f;
                continue;
            }
            if f.len() != header.len() {
                return Err(src.error(
                    Some(l.number),
                    format!(
                        "row has {} fields, the header has {}",
                        f.len(),
                        header.len()
                    ),
                ));
            }
            let mut p = Params::default();
            p.set("test", &f[0]);
            let params = p.render();
            for (name, value) in header.iter().zip(&f).skip(1) {
                let Some((metric, unit)) = column(name) else {
                    skipped.push((
                        l.number,
                        format!("column `{name}` is not one redis-benchmark writes: not read"),
                    ));
                    continue;
                };
                let v = num(src, l.number, value, &metric)?;
                out.push(
                    Row::at(src, l.number)
                        .benchmark("redis-benchmark")
                        .params(&params)
                        .metric(&metric)
                        .unit(unit)
                        .sample(v),
                );
            }
        }
        if out.is_empty() {
            return Err(src.error(last_line(src), "no redis-benchmark CSV row found"));
        }
        let mut parsed: Parsed = out.into();
        parsed.skipped = skipped;
        Ok(parsed)
    }
}
