//! ApacheBench (`ab`): `This is ApacheBench, Version 2.3`, the server and
//! document block, then `Requests per second:    2244.07 [#/sec] (mean)`
//! and its neighbours, the `Connection Times (ms)` table and the
//! `Percentage of the requests served within a certain time (ms)` list.
//!
//! Benchmark `ab` and the document path; parameter `concurrency`; each
//! figure a `sample` of the run: `requests/s`, `time per request` and
//! `time per request across concurrency` (ms), `transfer rate` (KiB/s: ab's
//! Kbytes are 1024 bytes), `time taken` (s), `complete requests`, `failed
//! requests` with its `failed connect|receive|length|exceptions` causes,
//! `non-2xx responses`, `keep-alive requests`, `total transferred` and
//! `html transferred` (B); from the table `connect min|mean|sd|median|max`
//! and likewise `processing`, `waiting`, `total` (ms; `-S`'s `min avg
//! max` too); from the list `served within pNN` (ms). The `Completed N
//! requests` progress lines are left out with the reason. `-w`'s HTML
//! table is read the same way, its tags set aside. A log of several runs
//! gives a run each.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, lines_containing, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::rescale;

pub(in crate::ingest) mod gnuplot;
pub(in crate::ingest) mod percentiles;

lazy_re!(BANNER, r"^This is ApacheBench, Version");
lazy_re!(
    FIGURE,
    r"^(Time taken for tests|Complete requests|Failed requests|Non-2xx responses|Keep-Alive requests|Total transferred|Total body sent|HTML transferred|Requests per second|Time per request|Transfer rate):\s+([\d.]+)(?:\s+(\S+))?\s*(.*)$"
);
lazy_re!(
    FAILED_BY,
    r"^\(Connect: (\d+), Receive: (\d+), Length: (\d+), Exceptions: (\d+)\)$"
);
lazy_re!(SETTING, r"^(Concurrency Level|Document Path):\s+(\S+)");
lazy_re!(
    TIMES_ROW,
    r"^(Connect|Processing|Waiting|Total):((?:\s+[\d.]+)+)\s*$"
);
lazy_re!(PERCENT, r"^(\d+)%\s+(\d+)(?: \(longest request\))?$");
lazy_re!(PROGRESS, r"^(Completed|Finished) \d+ requests$");
lazy_re!(
    CONTEXT,
    r"^(?:Copyright|Licensed to|Benchmarking|Server (?:Software|Hostname|Port)|SSL/TLS|TLS Server Name|Document Length|Connection Times|Percentage of the requests|\s*min\s)"
);

/// The ApacheBench importer.
pub struct Ab;

/// A figure's metric and unit, and the factor to that unit.
fn figure(name: &str, unit: &str, rest: &str) -> (&'static str, &'static str, f64) {
    match name {
        "Time taken for tests" => ("time taken", "s", 1.0),
        "Complete requests" => ("complete requests", "", 1.0),
        "Failed requests" => ("failed requests", "", 1.0),
        "Non-2xx responses" => ("non-2xx responses", "", 1.0),
        "Keep-Alive requests" => ("keep-alive requests", "", 1.0),
        "Total transferred" => ("total transferred", "B", 1.0),
        "Total body sent" => ("total body sent", "B", 1.0),
        "HTML transferred" => ("html transferred", "B", 1.0),
        "Requests per second" => ("requests/s", "req/s", 1.0),
        "Time per request" if rest.contains("across") => {
            ("time per request across concurrency", "ms", 1.0)
        }
        "Time per request" => ("time per request", "ms", 1.0),
        // `[Kbytes/sec]`, and `kb/s` in `-w`'s HTML: the same figure.
        _ if unit.contains("Kbytes") || unit == "kb/s" => ("transfer rate", "KiB/s", 1.0),
        _ => ("transfer rate", "KiB/s", 1.0 / 1024.0),
    }
}

/// A line of `-w`'s HTML table as the text report would print it: tags
/// and `&nbsp;` become blanks.
fn untagged(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.contains('<') {
        return line.into();
    }
    let mut out = String::with_capacity(line.len());
    let mut in_tag = false;
    for c in line.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(' ');
            }
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&nbsp;", " ").into()
}

impl Format for Ab {
    fn name(&self) -> &'static str {
        "ab"
    }

    fn description(&self) -> &'static str {
        "ApacheBench: `Requests per second:`, `Time per request:`, `Transfer rate:`, failures, the Connection Times table and the served-within percentiles"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let banner = lines_containing(src, "ApacheBench").any(|l| BANNER.is_match(l.trim()));
        let figures = lines_containing(src, "Requests per second:")
            .next()
            .is_some();
        match (banner, figures) {
            (true, _) => 95,
            (false, true) if lines_containing(src, "Time per request:").next().is_some() => 85,
            _ => 0,
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let (mut bench, mut params) = ("ab".to_string(), Params::default());
        // The columns of the Connection Times table above its rows.
        let mut columns: Vec<&'static str> = Vec::new();
        for l in &src.lines {
            let plain = untagged(&l.text);
            let (n, t) = (l.number, plain.trim());
            let mut push = |metric: &str, unit: &str, v: f64| {
                out.push(
                    Row::at(src, n)
                        .benchmark(&bench)
                        .params(&params.render())
                        .metric(metric)
                        .unit(unit)
                        .sample(v),
                );
            };
            if BANNER.is_match(t) {
                (bench, params) = ("ab".to_string(), Params::default());
                consumed.push(n);
            } else if PROGRESS.is_match(t) {
                if t.starts_with("Completed") {
                    skipped.push((n, "a progress report while the run went on".into()));
                } else {
                    consumed.push(n);
                }
            } else if let Some(c) = SETTING.captures(t) {
                if &c[1] == "Document Path" {
                    bench = format!("ab {}", &c[2]);
                } else {
                    params.set("concurrency", &c[2]);
                }
                consumed.push(n);
            } else if let Some(c) = FIGURE.captures(t) {
                let unit = c.get(3).map_or("", |m| m.as_str());
                let (metric, unit, scale) = figure(&c[1], unit, &c[4]);
                push(metric, unit, rescale(num(src, n, &c[2], metric)?, scale));
            } else if let Some(c) = FAILED_BY.captures(t) {
                for (k, why) in ["connect", "receive", "length", "exceptions"]
                    .iter()
                    .enumerate()
                {
                    push(&format!("failed {why}"), "", num(src, n, &c[k + 1], why)?);
                }
            } else if t.starts_with("min ") && t.contains("max") {
                columns = t
                    .split_whitespace()
                    .flat_map(|w| match w {
                        "mean[+/-sd]" => vec!["mean", "sd"],
                        "min" => vec!["min"],
                        "avg" => vec!["mean"],
                        "median" => vec!["median"],
                        "max" => vec!["max"],
                        _ => vec!["?"],
                    })
                    .collect();
                consumed.push(n);
            } else if let Some(c) = TIMES_ROW.captures(t) {
                let cells: Vec<&str> = c[2].split_whitespace().collect();
                if cells.len() != columns.len() {
                    return Err(src.error(
                        Some(n),
                        format!(
                            "Connection Times row has {} values under {} columns",
                            cells.len(),
                            columns.len()
                        ),
                    ));
                }
                let phase = c[1].to_ascii_lowercase();
                for (cell, col) in cells.iter().zip(&columns) {
                    push(&format!("{phase} {col}"), "ms", num(src, n, cell, &phase)?);
                }
            } else if let Some(c) = PERCENT.captures(t) {
                let metric = format!("served within p{}", &c[1]);
                push(&metric, "ms", num(src, n, &c[2], "percentile")?);
            } else if CONTEXT.is_match(t) {
                consumed.push(n);
            }
        }
        // ab's errors name the call that failed (`apr_socket_recv: …`).
        let why = src
            .lines
            .iter()
            .filter_map(|l| {
                l.text
                    .find("apr_")
                    .map(|at| l.text[at..].trim().to_string())
            })
            .next_back()
            .map_or(String::new(), |e| format!(": ab said `{e}`"));
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            format!("no ab results (`Requests per second:` …){why}"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_connection_says_why() {
        let src = Source::from_text(
            "ab.txt",
            "This is ApacheBench, Version 2.3 <$Revision$>\n\nBenchmarking 127.0.0.1 (be patient)...apr_socket_recv: Connection refused (111)\n",
        );
        let e = Ab.parse_accounted(&src).unwrap_err().to_string();
        assert!(e.contains("Connection refused"), "{e}");
    }
}
