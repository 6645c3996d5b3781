//! wrk and wrk2, the HTTP load generators: `Running 30s test @ URL`, `N
//! threads and M connections`, the `Thread Stats` table (latency and
//! per-thread requests/s: average, spread and maximum), with `--latency`
//! the distribution (`50%  3.39ms`, or wrk2's HdrHistogram `50.000%`
//! lines, its detailed spectrum left out as a histogram), then `N requests
//! in 3.05s, 1.51MB read`, error counts, `Requests/sec:` and
//! `Transfer/sec:`.
//!
//! Benchmark `wrk` and the URL's path (the host is the machine, not the
//! workload); parameters `threads`, `connections` and `duration`; each figure a `sample` of the run, as sysbench's are: `latency
//! avg|stdev|max|pNN` in ms, `thread requests/s avg|stdev|max`,
//! `requests/s`, `transfer/s` in MiB/s, `requests`, `read` in MiB,
//! `socket errors connect|read|write|timeout`, `non-2xx or 3xx responses`.
//! wrk writes each cell in its own unit (`218.37us` beside `11.60ms`), so
//! the reader brings every cell of a metric to one. A log of several runs
//! gives a run each.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, lines_containing, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::rescale;
use crate::model::Observation;

lazy_re!(RUNNING, r"^Running (\S+) test @ (\S+)");
lazy_re!(THREADS, r"^(\d+) threads and (\d+) connections");
lazy_re!(
    STATS,
    r"^(Latency|Req/Sec)\s+(\S+)\s+(\S+)\s+(\S+)\s+[\d.]+%$"
);
lazy_re!(PERCENTILE, r"^([\d.]+)%\s+([\d.]+[a-z]*)$");
lazy_re!(
    REQUESTS,
    r"^(\d+) requests in ([\d.]+[a-z]+), ([\d.]+[KMGT]?B) read$"
);
lazy_re!(
    SOCKET,
    r"^Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)$"
);
lazy_re!(NON2XX, r"^Non-2xx or 3xx responses: (\d+)$");
lazy_re!(PER_SEC, r"^(Requests|Transfer)/sec:\s+([\d.]+[KMGTk]?B?)$");
lazy_re!(SPECTRUM_ROW, r"^[\d.]+\s+[\d.]+\s+\d+\s+(?:[\d.]+|inf)$");

/// The wrk importer.
pub struct Wrk;

/// A duration as wrk prints it (`218.37us`, `11.60ms`, `1.00m`), in ms.
fn millis(text: &str) -> Option<f64> {
    let at = text.find(|c: char| c.is_ascii_alphabetic())?;
    let v: f64 = text[..at].parse().ok()?;
    let scale = match &text[at..] {
        "us" => 1e-3,
        "ms" => 1.0,
        "s" => 1e3,
        "m" => 6e4,
        "h" => 3.6e6,
        _ => return None,
    };
    Some(rescale(v, scale))
}

/// A count as wrk prints it (`4.83k`, `470.08`), scaled by 1000s.
fn count(text: &str) -> Option<f64> {
    let digits = text.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let scale = match &text[digits.len()..] {
        "" => 1.0,
        suffix => crate::ingest::shared::numbers::scale_suffix(suffix)?,
    };
    digits.parse::<f64>().ok().map(|v| rescale(v, scale))
}

/// An amount of data as wrk prints it (`1.51MB`, `506.04KB`: powers of
/// 1024), in MiB.
fn mebibytes(text: &str) -> Option<f64> {
    let digits = text.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let v: f64 = digits.parse().ok()?;
    let scale = match &text[digits.len()..] {
        "B" | "" => 1.0 / 1048576.0,
        "KB" => 1.0 / 1024.0,
        "MB" => 1.0,
        "GB" => 1024.0,
        "TB" => 1048576.0,
        _ => return None,
    };
    Some(rescale(v, scale))
}

/// The path of `url` (`http://host:8080/a/b?q` -> `/a/b?q`), `/` when
/// it has none.
fn url_path(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    rest.find('/').map_or("/", |at| &rest[at..])
}

/// One test: its name, settings and figures so far.
struct Run {
    bench: String,
    params: Params,
    values: Vec<(u32, String, &'static str, f64)>,
}

impl Run {
    fn flush(self, src: &Source, out: &mut Vec<Observation>) {
        let params = self.params.render();
        for (line, metric, unit, v) in self.values {
            out.push(
                Row::at(src, line)
                    .benchmark(&self.bench)
                    .params(&params)
                    .metric(&metric)
                    .unit(unit)
                    .sample(v),
            );
        }
    }
}

/// How a cell of one kind is read (`218.37us` as ms, `4.83k` as a count).
type Reader = fn(&str) -> Option<f64>;

/// `text` read with `read`, or an error naming the line and the figure.
fn cell(
    src: &Source,
    n: u32,
    text: &str,
    what: &str,
    read: fn(&str) -> Option<f64>,
) -> Result<f64> {
    match read(text) {
        Some(v) if v.is_finite() => Ok(v),
        _ => num(src, n, text, what),
    }
}

impl Format for Wrk {
    fn name(&self) -> &'static str {
        "wrk"
    }

    fn description(&self) -> &'static str {
        "wrk and wrk2: `Running 30s test @ URL`, the Thread Stats table, --latency percentiles (and wrk2's HdrHistogram), Requests/sec, Transfer/sec and error counts"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let running = lines_containing(src, " test @ ").any(|l| RUNNING.is_match(l.trim()));
        let threads = lines_containing(src, "connections").any(|l| THREADS.is_match(l.trim()));
        if running && threads {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let mut run: Option<Run> = None;
        // The metric the percentile lines below a distribution title name.
        let mut distribution = "latency";
        let mut in_spectrum = false;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            if t.is_empty() {
                continue;
            }
            if let Some(c) = RUNNING.captures(t) {
                if let Some(r) = run.take() {
                    r.flush(src, &mut out);
                }
                let mut params = Params::default();
                params.set("duration", &c[1]);
                let path = url_path(&c[2]);
                let bench = if path == "/" {
                    "wrk".to_string()
                } else {
                    format!("wrk {path}")
                };
                run = Some(Run {
                    bench,
                    params,
                    values: Vec::new(),
                });
                (distribution, in_spectrum) = ("latency", false);
                consumed.push(n);
                continue;
            }
            let Some(r) = run.as_mut() else { continue };
            if in_spectrum {
                if SPECTRUM_ROW.is_match(t) || t.starts_with("Value") {
                    skipped.push((
                        n,
                        "wrk2's detailed percentile spectrum (a histogram)".into(),
                    ));
                    continue;
                }
                if t.starts_with("#[") || t.starts_with("---") {
                    // The spectrum's own summary restates the table's.
                    consumed.push(n);
                    continue;
                }
                in_spectrum = false;
            }
            if let Some(c) = THREADS.captures(t) {
                r.params.set("threads", &c[1]);
                r.params.set("connections", &c[2]);
                consumed.push(n);
            } else if let Some(c) = STATS.captures(t) {
                let (metric, unit, read): (&str, &'static str, Reader) = match &c[1] {
                    "Latency" => ("latency", "ms", millis),
                    _ => ("thread requests/s", "req/s", count),
                };
                for (k, stat) in ["avg", "stdev", "max"].into_iter().enumerate() {
                    let v = cell(src, n, &c[k + 2], metric, read)?;
                    r.values.push((n, format!("{metric} {stat}"), unit, v));
                }
                consumed.push(n);
            } else if let Some(c) = PERCENTILE.captures(t) {
                let p: f64 = c[1].parse().unwrap_or(f64::NAN);
                let v = cell(src, n, &c[2], distribution, millis)?;
                r.values.push((n, format!("{distribution} p{p}"), "ms", v));
                consumed.push(n);
            } else if t.starts_with("Latency Distribution") {
                distribution = if t.contains("Uncorrected") {
                    "uncorrected latency"
                } else {
                    "latency"
                };
                consumed.push(n);
            } else if t.starts_with("Uncorrected Latency") {
                distribution = "uncorrected latency";
                consumed.push(n);
            } else if t.starts_with("Detailed Percentile spectrum") {
                in_spectrum = true;
                consumed.push(n);
            } else if let Some(c) = REQUESTS.captures(t) {
                let requests = cell(src, n, &c[1], "requests", count)?;
                let read = cell(src, n, &c[3], "read", mebibytes)?;
                r.values.push((n, "requests".into(), "", requests));
                r.values.push((n, "read".into(), "MiB", read));
            } else if let Some(c) = SOCKET.captures(t) {
                for (k, kind) in ["connect", "read", "write", "timeout"]
                    .into_iter()
                    .enumerate()
                {
                    let v = cell(src, n, &c[k + 1], "socket errors", count)?;
                    r.values.push((n, format!("socket errors {kind}"), "", v));
                }
            } else if let Some(c) = NON2XX.captures(t) {
                let v = cell(src, n, &c[1], "non-2xx responses", count)?;
                r.values.push((n, "non-2xx or 3xx responses".into(), "", v));
            } else if let Some(c) = PER_SEC.captures(t) {
                if &c[1] == "Requests" {
                    let v = cell(src, n, &c[2], "Requests/sec", count)?;
                    r.values.push((n, "requests/s".into(), "req/s", v));
                } else {
                    let v = cell(src, n, &c[2], "Transfer/sec", mebibytes)?;
                    r.values.push((n, "transfer/s".into(), "MiB/s", v));
                }
            } else if t.starts_with("Thread Stats") || t.starts_with("Thread calibration") {
                consumed.push(n);
            }
        }
        if let Some(r) = run.take() {
            r.flush(src, &mut out);
        }
        let why = src
            .lines
            .iter()
            .map(|l| l.text.trim())
            .find(|t| t.starts_with("unable to connect"))
            .map_or(String::new(), |t| format!(": wrk said `{t}`"));
        Parsed::found(src, out, consumed, skipped, format!("no wrk results{why}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_cell_is_brought_to_the_metric_s_unit() {
        assert_eq!(millis("218.37us"), Some(218.37e-3));
        assert_eq!(millis("11.60ms"), Some(11.6));
        assert_eq!(millis("36.00s"), Some(36000.0));
        assert_eq!(millis("0.90m"), Some(54000.0));
        assert_eq!(millis("3.39"), None);
        assert_eq!(count("4.83k"), Some(4830.0));
        assert_eq!(count("470.08"), Some(470.08));
        assert_eq!(mebibytes("506.04KB"), Some(506.04 / 1024.0));
        assert_eq!(mebibytes("143.12MB"), Some(143.12));
        assert_eq!(url_path("http://10.0.0.1:8080/a/b?q=1"), "/a/b?q=1");
        assert_eq!(url_path("https://example.com"), "/");
    }

    #[test]
    fn a_refused_connection_says_why_there_are_no_results() {
        let src = Source::from_text(
            "wrk.txt",
            "Running 2s test @ http://127.0.0.1:1/\n  2 threads and 50 connections\nunable to connect to 127.0.0.1:1 Connection refused\n",
        );
        let e = Wrk.parse_accounted(&src).unwrap_err().to_string();
        assert!(e.contains("Connection refused"), "{e}");
    }
}
