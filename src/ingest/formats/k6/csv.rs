//! k6's `--out csv=FILE`: a header `metric_name,timestamp,metric_value,`
//! then the tags k6 was told to write (`check,error,error_code,
//! expected_response,group,method,name,proto,scenario,service,status,
//! subproto,tls_version,url` by default, fewer or others when
//! `--system-tags` says so), `extra_tags` (the others as `k=v&k=v`) and,
//! since v0.43, `metadata`; then one row per measured point.
//!
//! Read as `--out json`'s points are (`points`): each row a sample of its
//! metric, filed under the tags that name a series (`scenario`, `group`,
//! `name`, `method`, `check`), whichever the header has. The file declares
//! no metric kinds: k6's built-in timings are in ms and its data counters
//! (`data_sent`, `data_received`) in bytes, a custom metric has no unit.
//! The timestamp and the tags that vary between requests of one series
//! (`status`, `url`, `proto`, …) are not parameters.

use super::{builtin_time_trend, BENCHMARK, SERIES_TAGS};
use crate::error::Result;
use crate::ingest::shared::logscan::Params;
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::shared::structured::{raw_lines, split_csv};
use crate::ingest::{Confidence, Format, Parsed, Source};

/// The columns every k6 CSV starts with.
const HEAD: &str = "metric_name,timestamp,metric_value";

/// The k6 `--out csv` importer.
pub struct K6Csv;

impl Format for K6Csv {
    fn name(&self) -> &'static str {
        "k6-csv"
    }

    fn description(&self) -> &'static str {
        "k6 run --out csv: header `metric_name,timestamp,metric_value,<tags>`; each row a sample of its metric under its request's tags"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let first = src.raw_trimmed().lines().next().unwrap_or("");
        let first = first.trim_start_matches('\u{feff}').trim_end();
        if first == HEAD || first.starts_with(&format!("{HEAD},")) {
            95
        } else {
            0
        }
    }

    fn reads_raw(&self) -> bool {
        true
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut lines = raw_lines(src).filter(|(_, l)| !l.trim().is_empty());
        let Some((head_line, head)) = lines.next() else {
            return Err(src.error(None, "empty k6 CSV"));
        };
        let columns = split_csv(head.trim_start_matches('\u{feff}'), ',');
        let tag_at: Vec<(&str, usize)> = SERIES_TAGS
            .iter()
            .filter_map(|t| columns.iter().position(|c| c == t).map(|i| (*t, i)))
            .collect();
        let (mut out, mut skipped) = (Vec::new(), Vec::new());
        for (n, line) in lines {
            let cells = split_csv(line, ',');
            if cells.len() < 3 {
                return Err(src.error(
                    Some(n),
                    format!(
                        "k6 CSV row has {} cells, expected {} like the header",
                        cells.len(),
                        columns.len()
                    ),
                ));
            }
            let metric = cells[0].trim();
            let Some(value) = parse_number(cells[2].trim()).filter(|v| v.is_finite()) else {
                if cells[2].trim().is_empty() {
                    skipped.push((n, format!("a point of `{metric}` without a value")));
                    continue;
                }
                return Err(src.error(
                    Some(n),
                    format!("k6 CSV metric_value `{}` is not a number", cells[2]),
                ));
            };
            let mut params = Params::default();
            for (tag, i) in &tag_at {
                if let Some(v) = cells.get(*i).map(|v| v.trim()).filter(|v| !v.is_empty()) {
                    params.set(tag, v);
                }
            }
            out.push(
                Row::at(src, n)
                    .benchmark(BENCHMARK)
                    .params(&params.render())
                    .metric(metric)
                    .unit(unit_of(metric))
                    .sample(value),
            );
        }
        Parsed::found(
            src,
            out,
            vec![head_line],
            skipped,
            "k6 CSV without a point (rows under `metric_name,timestamp,metric_value`)",
        )
    }
}

/// The unit of one of k6's built-in metrics, none for a custom one.
fn unit_of(metric: &str) -> &'static str {
    if builtin_time_trend(metric) {
        "ms"
    } else if matches!(metric, "data_sent" | "data_received") {
        "B"
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    #[test]
    fn rows_are_samples_of_their_metric_under_their_tags() {
        let p = parse_file(&K6Csv, "tests/data/harness/k6/out-csv-first-19-lines.csv");
        let got: Vec<(&str, &str, f64, u32)> = p
            .observations
            .iter()
            .map(|o| (o.metric.as_str(), o.unit.as_str(), o.value, o.line))
            .collect();
        assert_eq!(got.len(), 18);
        assert_eq!(got[0], ("http_reqs", "", 1.0, 2));
        assert_eq!(got[1], ("http_req_duration", "ms", 27.465, 3));
        assert_eq!(got[7], ("http_req_receiving", "ms", 0.107, 9));
        assert_eq!(got[8], ("http_req_failed", "", 0.0, 10));
        assert_eq!(got[10], ("http_req_duration", "ms", 40.798, 12));
        assert_eq!(got[15], ("http_req_waiting", "ms", 40.117, 17));
        // The status, URL and protocol are not parameters.
        assert!(p.observations.iter().all(
            |o| o.params == "method=GET,name=http://127.0.0.1:8098/api/items,scenario=default"
        ));
        assert_eq!(p.consumed, [1]);
    }

    #[test]
    fn the_header_says_which_tags_there_are() {
        let lines = [
            "metric_name,timestamp,metric_value,check,error,extra_tags",
            "my_metric,1562324643,1.000000,val1,val3,url=val2",
            "data_sent,1562324644,79.000000,,,",
        ];
        let src = crate::ingest::testing::source_of_lines(&lines);
        assert_eq!(K6Csv.detect(&src), 95);
        let p = K6Csv.parse_accounted(&src).unwrap();
        assert_eq!(p.observations[0].params, "check=val1");
        assert_eq!(p.observations[1].unit, "B");
        assert_eq!(p.observations[1].value, 79.0);
        let bad = ["metric_name,timestamp,metric_value", "x,1,abc"];
        let e = K6Csv
            .parse_accounted(&crate::ingest::testing::source_of_lines(&bad))
            .unwrap_err();
        assert!(e.to_string().contains("`abc` is not a number"), "{e}");
    }
}
