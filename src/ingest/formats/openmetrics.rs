//! The Prometheus text exposition format and OpenMetrics, as exporters and
//! benchmark tools write them (BenchmarkDotNet's `OpenMetricsExporter`, a
//! scrape of a `/metrics` endpoint saved after a run):
//!
//! ```text
//! # HELP benchmark_execution_time_nanoseconds Mean execution time in nanoseconds.
//! # TYPE benchmark_execution_time_nanoseconds gauge
//! # UNIT benchmark_execution_time_nanoseconds nanoseconds
//! benchmark_execution_time_nanoseconds{method="Foo", type="Bench"} 10
//! rpc_duration_seconds{quantile="0.99"} 76656
//! ```
//!
//! Each sample line is a row: metric the sample's name, params its labels,
//! unit the family's `# UNIT`, else the unit its name ends in (`_seconds`,
//! `_nanoseconds`, `_bytes`, …). A summary's `quantile` label is the row's
//! percentile (p99 for `0.99`); its `_sum` and `_count`, a histogram's
//! `_bucket` counts (their `le` a param), a counter's `_total` are rows of
//! their own names. A sample's time stamp is not read. `NaN` and `±Inf`
//! samples are left out with the reason. The benchmark is the file's name,
//! as for any document whose rows are named by their keys.

use crate::error::Result;
use crate::ingest::shared::logscan::Params;
use crate::ingest::shared::numbers::parse_f64;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Stat;
use std::collections::HashMap;

/// The Prometheus / OpenMetrics text importer.
pub struct OpenMetrics;

/// A metric name: `[a-zA-Z_:][a-zA-Z0-9_:]*`, not ending in `:` (a
/// label's colon).
fn is_name(s: &str) -> bool {
    if s.ends_with(':') {
        return false;
    }
    let mut b = s.bytes();
    b.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_' || c == b':')
        && b.all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b':')
}

/// A `# TYPE name kind` line's name.
fn type_line(text: &str) -> Option<&str> {
    let mut w = text.strip_prefix("# TYPE ")?.split_whitespace();
    let name = w.next()?;
    let kind = w.next()?;
    let kinds = [
        "gauge",
        "counter",
        "summary",
        "histogram",
        "untyped",
        "unknown",
        "info",
        "stateset",
        "gaugehistogram",
    ];
    (is_name(name) && kinds.contains(&kind)).then_some(name)
}

/// A sample's labels, in the order written.
type Labels = Vec<(String, String)>;

/// A sample line's name, labels and value text; `None` for any other line.
fn sample(text: &str) -> Option<(&str, Labels, &str)> {
    let t = text.trim();
    let name_end = t.find(['{', ' ', '\t'])?;
    let name = &t[..name_end];
    if !is_name(name) {
        return None;
    }
    let mut rest = &t[name_end..];
    let mut labels = Vec::new();
    if let Some(inner) = rest.strip_prefix('{') {
        let mut chars = inner.char_indices();
        let mut key = String::new();
        let mut close = None;
        while let Some((i, c)) = chars.next() {
            match c {
                '}' => {
                    close = Some(i);
                    break;
                }
                '"' => {
                    let mut v = String::new();
                    loop {
                        match chars.next()? {
                            (_, '\\') => match chars.next()?.1 {
                                'n' => v.push('\n'),
                                other => v.push(other),
                            },
                            (_, '"') => break,
                            (_, other) => v.push(other),
                        }
                    }
                    labels.push((key.trim().trim_end_matches('=').trim().to_string(), v));
                    key.clear();
                }
                ',' => key.clear(),
                _ => key.push(c),
            }
        }
        rest = &inner[close? + 1..];
    }
    // The value, then at most a time stamp and an exemplar (`# {…} v`):
    // a label line's words after its number (`Latency: 3 ms`) are no sample.
    let mut w = rest.split_whitespace();
    let value = w.next()?;
    parse_f64(value)?;
    match w.next() {
        None | Some("#") => {}
        Some(ts) if parse_f64(ts).is_some() && w.next().is_none_or(|x| x == "#") => {}
        Some(_) => return None,
    }
    Some((name, labels, value))
}

/// The unit a metric's name ends in, by the conventions of its exporters.
fn unit_of_name(name: &str) -> &'static str {
    let base = ["_total", "_sum", "_count", "_bucket", "_created"]
        .iter()
        .find_map(|s| name.strip_suffix(s))
        .unwrap_or(name);
    let units = [
        ("_nanoseconds", "ns"),
        ("_microseconds", "us"),
        ("_milliseconds", "ms"),
        ("_seconds", "s"),
        ("_bytes", "B"),
        ("_ratio", ""),
        ("_percent", "%"),
    ];
    if name.ends_with("_count") || name.ends_with("_bucket") {
        return "";
    }
    units
        .iter()
        .find(|(s, _)| base.ends_with(s))
        .map_or("", |(_, u)| u)
}

/// A `# UNIT` word as the unit of a row.
fn unit_word(word: &str) -> String {
    match word {
        "seconds" => "s".into(),
        "milliseconds" => "ms".into(),
        "microseconds" => "us".into(),
        "nanoseconds" => "ns".into(),
        "bytes" => "B".into(),
        "ratio" => String::new(),
        w => w.into(),
    }
}

impl Format for OpenMetrics {
    fn name(&self) -> &'static str {
        "openmetrics"
    }

    fn description(&self) -> &'static str {
        "Prometheus text exposition / OpenMetrics: `# TYPE name gauge` and `name{label=\"v\"} value` lines"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let typed = src
            .lines
            .iter()
            .take(200)
            .filter_map(|l| type_line(l.text.trim()))
            .any(|name| {
                src.lines
                    .iter()
                    .any(|l| sample(&l.text).is_some_and(|(n, _, _)| n.starts_with(name)))
            });
        if typed {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let mut units: HashMap<String, String> = HashMap::new();
        let name = src.file_name();
        let stem = name
            .split('.')
            .next()
            .filter(|s| !s.is_empty())
            .unwrap_or(name);
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            if let Some(rest) = t.strip_prefix("# UNIT ") {
                let mut w = rest.split_whitespace();
                if let (Some(name), Some(unit)) = (w.next(), w.next()) {
                    units.insert(name.to_string(), unit_word(unit));
                }
                consumed.push(n);
                continue;
            }
            if t.starts_with('#') {
                consumed.push(n);
                continue;
            }
            let Some((metric, labels, value)) = sample(t) else {
                continue;
            };
            let Some(v) = parse_f64(value).filter(|v| v.is_finite()) else {
                skipped.push((n, format!("`{metric}` is `{value}`: no measured value")));
                continue;
            };
            let mut params = Params::default();
            let mut stat = Stat::Sample;
            for (k, val) in &labels {
                match (k.as_str(), parse_f64(val)) {
                    ("quantile", Some(q)) if (0.0..=1.0).contains(&q) => {
                        stat = Stat::percentile(q * 100.0);
                    }
                    _ => params.set(k, val),
                }
            }
            let family = ["_total", "_sum", "_created", "_count", "_bucket"]
                .iter()
                .find_map(|s| metric.strip_suffix(s))
                .filter(|f| units.contains_key(*f) && !units.contains_key(metric))
                .unwrap_or(metric);
            // A count of observations has no unit, whatever its family's.
            let counted = metric.ends_with("_count") || metric.ends_with("_bucket");
            let unit = match units.get(family) {
                Some(_) if counted => String::new(),
                Some(u) => u.clone(),
                None => unit_of_name(metric).to_string(),
            };
            let row = Row::at(src, n)
                .benchmark(stem)
                .params(&params.render())
                .metric(metric)
                .unit(&unit);
            out.push(row.stat(stat, v));
        }
        Parsed::found(src, out, consumed, skipped, "no OpenMetrics sample line")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    #[test]
    fn samples_are_named_by_their_metric_and_labels_in_the_family_s_unit() {
        let p = parse_file(
            &OpenMetrics,
            "tests/data/harness/benchmarkdotnet/verify-openmetrics-memory.txt",
        );
        let o = &p.observations;
        let get = |metric: &str| o.iter().find(|r| r.metric == metric).unwrap();
        let alloc = get("benchmark_allocated_bytes");
        assert_eq!(
            (alloc.value, alloc.unit.as_str(), alloc.line),
            (16384.0, "B", 4)
        );
        assert_eq!(alloc.params, "method=Foo,type=MockBenchmarkClass");
        let mean = get("benchmark_execution_time_nanoseconds");
        assert_eq!((mean.value, mean.unit.as_str()), (10.0, "ns"));
        assert_eq!(get("benchmark_gc_gen1_collections_total").value, 2.0);
        // Every sample line is a row; every comment line is read.
        let samples = std::fs::read_to_string(
            "tests/data/harness/benchmarkdotnet/verify-openmetrics-memory.txt",
        )
        .unwrap()
        .lines()
        .filter(|l| !l.trim_start_matches('\u{feff}').starts_with('#') && !l.is_empty())
        .count();
        assert_eq!(o.len(), samples);
    }

    #[test]
    fn quantiles_are_percentiles_and_special_values_are_accounted() {
        let text = "\
# TYPE rpc_duration_seconds summary
rpc_duration_seconds{service=\"a\",quantile=\"0.99\"} 76656
rpc_duration_seconds{service=\"a\",quantile=\"0.5\"} 4773 1395066363000
rpc_duration_seconds_sum{service=\"a\"} 1.7560473e+07
rpc_duration_seconds_count{service=\"a\"} NaN
# EOF
";
        let src = Source::from_text("m.prom", text);
        assert_eq!(OpenMetrics.detect(&src), 95);
        let p = OpenMetrics.parse_accounted(&src).unwrap();
        let o = &p.observations;
        assert_eq!(o.len(), 3);
        assert_eq!(
            (o[0].stat, o[0].value, o[0].unit.as_str()),
            (Stat::percentile(99.0), 76656.0, "s")
        );
        assert_eq!(o[0].params, "service=a");
        assert_eq!(o[1].stat, Stat::percentile(50.0));
        assert_eq!(
            (o[2].metric.as_str(), o[2].value),
            ("rpc_duration_seconds_sum", 1.7560473e7)
        );
        assert_eq!(p.skipped.len(), 1);
        assert_eq!(p.consumed, vec![1, 6]);
    }

    #[test]
    fn label_values_may_hold_commas_braces_and_escaped_quotes() {
        let (name, labels, value) = sample(r#"x_total{path="/a,b}",msg="say \"hi\""} 3"#).unwrap();
        assert_eq!((name, value), ("x_total", "3"));
        assert_eq!(labels[0], ("path".into(), "/a,b}".into()));
        assert_eq!(labels[1], ("msg".into(), "say \"hi\"".into()));
        assert!(sample("Latency: 3 ms").is_none());
        assert!(sample("Latency 3 ms").is_none());
        assert!(sample("up 1 1395066363000").is_some());
        assert!(type_line("# TYPE a gauge").is_some());
        assert!(type_line("# TYPE of test").is_none());
    }
}
