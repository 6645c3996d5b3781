//! redis-benchmark's default (not `-q`, not `--csv`) report: a
//! `====== SET ======` block per test, ending (redis ≥ 6) in
//! `throughput summary: X requests per second` and a `latency summary (msec):`
//! table (`avg min p50 p95 p99 max` header, values on the next line), or
//! (older redis) in a bare `X requests per second` line. Benchmark
//! `redis-benchmark`, parameter `test=<name>`; metrics `rps` (requests/s) and
//! `latency avg/min/p50/p95/p99/max` (ms), each a `sample` of the run — the
//! same names as the CSV and quiet importers.
//!
//! Each block's `N requests completed in S seconds` gives `duration` (s; N
//! is the `-n` asked for, not a result). Before redis 6.2 the only latency
//! a block gives is its cumulative distribution, `99.75% <= 1 milliseconds`
//! per millisecond: each line is read as `requests within 1 ms` (%), what
//! it states (old redis prints the share when a millisecond begins, so it
//! is no percentile); a millisecond printed twice (the last request closes
//! the list) gives its later, larger share, the earlier line left out with
//! the reason. From 6.2 on the `latency summary` follows the distribution
//! and its percentiles are read instead. A quiet result line (`PING_INLINE:
//! 1000.00 requests per second`) among the blocks, as wrappers such as
//! LKP's mix them, is read as the quiet importer reads it.

use crate::error::Result;
use crate::ingest::shared::logscan::{any_with, last_line, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(TEST, r"^====== (.+?) ======\s*$");
lazy_re!(
    RPS,
    r"^\s*(?:throughput summary: )?([\d.]+) requests per second\s*$"
);
lazy_re!(
    COMPLETED,
    r"^\s*(?:\d+ )?requests completed in ([\d.]+) seconds\s*$"
);
lazy_re!(
    DISTRIBUTION,
    r"^\s*([\d.]+)% <= ([\d.]+) milliseconds(?: \(cumulative count \d+\))?\s*$"
);
lazy_re!(LAT_HEADER, r"^\s*latency summary \(msec\):\s*$");

/// The redis-benchmark default-report importer.
pub struct RedisText;

impl Format for RedisText {
    fn name(&self) -> &'static str {
        "redis-text"
    }

    fn description(&self) -> &'static str {
        "redis-benchmark default report: `====== SET ======` blocks with `… requests per second`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        match (
            any_with(src, "====== ", &TEST),
            any_with(src, " requests per second", &RPS),
        ) {
            (true, true) => 90,
            _ => 0,
        }
    }

    /// Test headers and the latency summary's name row are `consumed`;
    /// where a latency summary follows, the cumulative distribution is
    /// `skipped`, else it is read when its block ends.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut consumed = Vec::new();
        let mut skipped = Vec::new();
        // Distribution lines of the current block, skipped once a summary
        // of the same block is found.
        let mut distribution: Vec<Share> = Vec::new();
        // The test whose block the distribution lines belong to.
        let mut distribution_of = String::new();
        let mut out = Vec::new();
        let mut test: Option<String> = None;
        let lines = &src.lines;
        let mut i = 0;
        while i < lines.len() {
            let t = lines[i].text.as_str();
            let n = lines[i].number;
            i += 1;
            if let Some(c) = TEST.captures(t) {
                test = Some(c[1].trim().to_string());
                consumed.push(n);
                let rows = cumulative(src, &distribution_of, &distribution, &mut skipped)?;
                out.extend(rows);
                distribution.clear();
                continue;
            }
            // A quiet result line names its own test.
            if !RPS.is_match(t) {
                if let Some(rows) = super::quiet::result_rows(src, n, t) {
                    out.extend(rows?);
                    continue;
                }
            }
            let Some(name) = test.as_deref() else {
                continue;
            };
            let mut p = Params::default();
            p.set("test", name);
            let params = p.render();
            if let Some(c) = DISTRIBUTION.captures(t) {
                distribution.push((n, c[1].to_string(), c[2].to_string()));
                distribution_of.clone_from(&params);
                continue;
            }
            if let Some(c) = COMPLETED.captures(t) {
                out.push(
                    Row::at(src, n)
                        .benchmark("redis-benchmark")
                        .params(&params)
                        .metric("duration")
                        .unit("s")
                        .sample(num(src, n, &c[1], "duration")?),
                );
                continue;
            }
            if let Some(c) = RPS.captures(t) {
                let v = num(src, n, &c[1], "requests per second")?;
                out.push(
                    Row::at(src, n)
                        .benchmark("redis-benchmark")
                        .params(&params)
                        .metric("rps")
                        .unit("req/s")
                        .sample(v),
                );
            } else if LAT_HEADER.is_match(t) {
                // Column names, then the values, on the next two lines.
                let (Some(head), Some(vals)) = (lines.get(i), lines.get(i + 1)) else {
                    return Err(
                        src.error(Some(n), "latency summary without its table (truncated?)")
                    );
                };
                consumed.extend([n, head.number]);
                for (d, ..) in distribution.drain(..) {
                    let why = "cumulative latency distribution; its summary percentiles are read";
                    skipped.push((d, why.to_string()));
                }
                let names: Vec<&str> = head.text.split_whitespace().collect();
                let values: Vec<&str> = vals.text.split_whitespace().collect();
                if names.is_empty() || names.len() != values.len() {
                    return Err(src.error(
                        Some(vals.number),
                        format!(
                            "latency summary has {} names and {} values",
                            names.len(),
                            values.len()
                        ),
                    ));
                }
                for (name, v) in names.iter().zip(&values) {
                    let metric = format!("latency {name}");
                    let v = num(src, vals.number, v, &metric)?;
                    out.push(
                        Row::at(src, vals.number)
                            .benchmark("redis-benchmark")
                            .params(&params)
                            .metric(&metric)
                            .unit("ms")
                            .sample(v),
                    );
                }
                i += 2;
            }
        }
        out.extend(cumulative(
            src,
            &distribution_of,
            &distribution,
            &mut skipped,
        )?);
        if out.is_empty() {
            return Err(src.error(
                last_line(src),
                "no `requests per second` result in any `====== test ======` block",
            ));
        }
        skipped.sort_by_key(|s| s.0);
        out.sort_by_key(|o| o.line);
        Ok(Parsed {
            observations: out,
            consumed,
            skipped,
            ..Parsed::default()
        })
    }
}
/// A line of a cumulative latency distribution: its number, the share (%)
/// and the milliseconds, as written.
type Share = (u32, String, String);

/// The rows of a block's cumulative latency distribution that no latency
/// summary replaced (`lines`, under `params`): `requests within X ms` (%)
/// per millisecond, the last line of one printed twice.
fn cumulative(
    src: &Source,
    params: &str,
    lines: &[Share],
    skipped: &mut Vec<(u32, String)>,
) -> Result<Vec<crate::model::Observation>> {
    let mut out: Vec<crate::model::Observation> = Vec::new();
    let mut last: Option<(u32, String)> = None;
    for (n, share, ms) in lines {
        let n = *n;
        let metric = format!("requests within {ms} ms");
        if let Some((before, m)) = &last {
            if *m == metric {
                out.pop();
                let why =
                    "the share when this millisecond began; the later line gives its whole share";
                skipped.push((*before, why.to_string()));
            }
        }
        out.push(
            Row::at(src, n)
                .benchmark("redis-benchmark")
                .params(params)
                .metric(&metric)
                .unit("%")
                .sample(num(src, n, share, &metric)?),
        );
        last = Some((n, metric));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_style_blocks_give_duration_and_shares_and_a_quiet_line_its_rate() {
        let p = crate::ingest::parse_file(
            &RedisText,
            "tests/data/harness/redis/lkp-01-mixed-old-new.txt",
        );
        let r: Vec<(u32, &str, &str, &str, f64)> = p
            .observations
            .iter()
            .map(|o| {
                (
                    o.line,
                    o.params.as_str(),
                    o.metric.as_str(),
                    o.unit.as_str(),
                    o.value,
                )
            })
            .collect();
        let (set, get) = ("test=SET", "test=GET");
        assert_eq!(
            r,
            vec![
                (1, "test=PING_INLINE", "rps", "req/s", 1000.0),
                (3, set, "rps", "req/s", 50000.0),
                (4, set, "duration", "s", 2.0),
                (5, set, "requests within 1 ms", "%", 50.0),
                (6, set, "requests within 2 ms", "%", 90.0),
                (7, set, "requests within 3 ms", "%", 99.0),
                (9, set, "rps", "req/s", 52000.0),
                (10, set, "duration", "s", 1.9),
                (11, set, "requests within 1 ms", "%", 50.0),
                (12, set, "requests within 2 ms", "%", 95.0),
                (14, get, "rps", "req/s", 60000.0),
                (15, get, "duration", "s", 1.5),
                (16, get, "requests within 1 ms", "%", 50.0),
                (17, get, "requests within 2 ms", "%", 99.9),
                (19, get, "rps", "req/s", 62000.0),
                (20, get, "duration", "s", 1.4),
                (21, get, "requests within 0 ms", "%", 50.0),
                (22, get, "requests within 1 ms", "%", 99.0)
            ]
        );
        assert!(p.skipped.is_empty());
    }

    #[test]
    fn a_millisecond_printed_twice_gives_its_later_share() {
        let text = "====== GET ======\n  100000 requests completed in 1.23 seconds\n\
                    99.75% <= 1 milliseconds\n100.00% <= 1 milliseconds\n\
                    81234.56 requests per second\n";
        let p = RedisText
            .parse_accounted(&Source::from_text("get.txt", text))
            .unwrap();
        let shares: Vec<(&str, f64)> = p
            .observations
            .iter()
            .filter(|o| o.unit == "%")
            .map(|o| (o.metric.as_str(), o.value))
            .collect();
        assert_eq!(shares, vec![("requests within 1 ms", 100.0)]);
        assert_eq!(p.skipped.len(), 1);
        assert_eq!(p.skipped[0].0, 3);
    }
}
