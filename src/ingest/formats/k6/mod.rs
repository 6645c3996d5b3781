//! k6 (Grafana's load tester): the end-of-test summary it prints
//! (`text`), the summary as JSON (`summary`: `handleSummary`'s data,
//! `--summary-export`, or its `metrics` object alone) and the stream of
//! points `--out json` writes (`points`).
//!
//! Every reader gives benchmark `k6` and, as metric, k6's own metric name
//! (`http_req_duration`, `iterations`, a custom metric); a submetric
//! (`http_req_duration{expected_response:true}`) is its metric with the
//! tags as parameters (`expected_response=true`). What k6 states per kind
//! of metric:
//! - a trend: its statistics (`avg`, `min`, `med`, `max`, `p(N)`,
//!   `count`), in ms when it holds times;
//! - a counter: its total (`Stat::Total`; bytes for data) and, as metric
//!   `NAME rate`, its rate per second over the run;
//! - a rate: the share of non-zero values in % (a sample of the run) and,
//!   as `NAME passes` / `NAME fails`, the two counts;
//! - a gauge: its last value (a sample) and its minimum and maximum.

pub(in crate::ingest) mod csv;
pub(in crate::ingest) mod points;
pub(in crate::ingest) mod summary;
pub(in crate::ingest) mod text;

use crate::ingest::shared::logscan::Params;
use crate::model::Stat;

/// The benchmark every k6 row is filed under.
const BENCHMARK: &str = "k6";

/// The statistic a trend's column names (`avg`, `med`, `p(99.9)`, `count`).
fn trend_stat(name: &str) -> Option<Stat> {
    Some(match name {
        "avg" => Stat::Mean,
        "min" => Stat::Min,
        "med" => Stat::Median,
        "max" => Stat::Max,
        "count" => Stat::N,
        _ => {
            let q: f64 = name.strip_prefix("p(")?.strip_suffix(')')?.parse().ok()?;
            if !(0.0..=100.0).contains(&q) {
                return None;
            }
            Stat::percentile(q)
        }
    })
}

/// A metric's name and the parameters of its tags: `name{a:1,b:2}` (JSON)
/// or a submetric line's `{ a:1, b:2 }` after its parent's name. A tag's
/// value may hold `:` (a URL): the first one ends the key.
fn split_submetric(key: &str) -> (&str, String) {
    let Some((name, rest)) = key.split_once('{') else {
        return (key.trim(), String::new());
    };
    (name.trim(), tags(rest.trim_end().trim_end_matches('}')))
}

/// The canonical parameters of `a:1, b:2`.
fn tags(list: &str) -> String {
    let mut params = Params::default();
    for tag in list.split(',') {
        if let Some((k, v)) = tag.split_once(':') {
            params.set(k.trim(), v.trim());
        }
    }
    params.render()
}

/// The tags that name a series of points (`--out json` and `--out csv`):
/// the request's scenario, group, name, method and check.
const SERIES_TAGS: [&str; 5] = ["scenario", "group", "name", "method", "check"];

/// The unit of a metric k6 says `contains` (`time`: ms, `data`: bytes).
fn unit_of_contains(contains: &str) -> &'static str {
    match contains {
        "time" => "ms",
        "data" => "B",
        _ => "",
    }
}

/// Whether a trend named `name` holds times when nothing says so (the
/// `--summary-export` file has no `contains`): k6's built-in timing
/// metrics (`http_req_*` but the rate `http_req_failed`,
/// `iteration_duration`, `group_duration`, `ws_connecting`, `ws_ping`,
/// `*_duration`). A custom trend is left without a unit.
fn builtin_time_trend(name: &str) -> bool {
    (name.starts_with("http_req_") && name != "http_req_failed")
        || name.ends_with("_duration")
        || matches!(name, "ws_connecting" | "ws_ping")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trend_columns_and_submetric_tags() {
        assert_eq!(trend_stat("p(99.9)"), Some(Stat::percentile(99.9)));
        assert_eq!(trend_stat("med"), Some(Stat::Median));
        assert_eq!(trend_stat("p(101)"), None);
        assert_eq!(
            split_submetric("http_req_duration{expected_response:true}"),
            ("http_req_duration", "expected_response=true".to_string())
        );
        assert_eq!(
            split_submetric("{ name:http://a/b, method:GET }").1,
            "method=GET,name=http://a/b"
        );
    }
}
