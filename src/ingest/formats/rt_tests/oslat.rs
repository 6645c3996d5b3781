//! rt-tests `oslat` text output (the default and `-q`): a settings block,
//! then one column per measured CPU under `Core:` (a tab after each colon):
//!
//! ```text
//!         Core:  0 1
//! Counter Freq:  2597 2597 (Mhz)
//!     001 (us):  78735688 77664458
//!     …
//!     032 (us):  742 761 (including overflows)
//!      Minimum:  1 1 (us)
//!      Average:  1.001 1.001 (us)
//!      Maximum:  3994 7679 (us)
//!      Max-Min:  3993 7678 (us)
//!     Duration:  2.000 2.000 (sec)
//! ```
//!
//! Per CPU (`cpu=N`): `latency min`, `latency avg`, `latency max` (µs) and
//! the percentiles of the bucket histogram (`latency p50` … `p99.9`, the
//! bucket's upper bound; the last bucket also holds the overflows, so a
//! percentile in it is left out). `Max-Min` is the difference of two values
//! read already, the settings block and `Duration` describe the run: they
//! are consumed.

use crate::error::Result;
use crate::ingest::formats::rt_tests::cyclictest_hist::{percentile_bucket, PERCENTILES};
use crate::ingest::shared::logscan::{num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Observation;

/// The oslat text importer.
pub struct Oslat;

/// The label and the value fields of a `label: v v … (unit)` line.
fn fields(t: &str) -> Option<(&str, Vec<&str>)> {
    let (label, rest) = t.split_once(':')?;
    let rest = rest.split('(').next().unwrap_or("");
    Some((label.trim(), rest.split_whitespace().collect()))
}

/// The CPU columns, then everything read from the lines below them.
struct Block {
    cpus: Vec<String>,
    buckets: Vec<Vec<(f64, u64)>>,
    last_bucket_line: u32,
}

impl Format for Oslat {
    fn name(&self) -> &'static str {
        "oslat"
    }

    fn description(&self) -> &'static str {
        "rt-tests oslat text: `Core:` CPU columns, `NNN (us):` histogram lines, `Minimum:`/`Average:`/`Maximum:`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let mut core = false;
        let mut freq = false;
        for l in src.lines.iter().take(400) {
            let t = l.text.trim_start();
            core |= t.starts_with("Core:");
            freq |= t.starts_with("Counter Freq:");
            if core && freq {
                return 95;
            }
        }
        0
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out: Vec<Observation> = Vec::new();
        let mut consumed = Vec::new();
        let mut block: Option<Block> = None;
        for l in &src.lines {
            let t = l.text.trim();
            // The banner and the progress lines before the results.
            if t.starts_with("oslat V") || t.starts_with("Pre-heat for ") {
                consumed.push(l.number);
                continue;
            }
            let Some((label, values)) = fields(t) else {
                continue;
            };
            if label == "Core" {
                finish(src, block.take(), &mut out);
                block = Some(Block {
                    buckets: vec![Vec::new(); values.len()],
                    cpus: values.iter().map(|v| v.to_string()).collect(),
                    last_bucket_line: 0,
                });
                consumed.push(l.number);
                continue;
            }
            let Some(b) = block.as_mut() else {
                // The settings block above the first `Core:` line.
                if !values.is_empty() {
                    consumed.push(l.number);
                }
                continue;
            };
            if values.len() != b.cpus.len() {
                return Err(src.error(
                    Some(l.number),
                    format!(
                        "oslat line with {} values for {} CPUs: `{t}`",
                        values.len(),
                        b.cpus.len()
                    ),
                ));
            }
            let metric = match label {
                "Minimum" => "latency min",
                "Average" => "latency avg",
                "Maximum" => "latency max",
                "Counter Freq" | "Max-Min" | "Duration" => {
                    consumed.push(l.number);
                    continue;
                }
                _ => {
                    // `001 (us)`: a histogram bucket.
                    let Ok(bucket) = label.trim_end_matches("(us)").trim().parse::<f64>() else {
                        continue;
                    };
                    for (k, v) in values.iter().enumerate() {
                        let c = num(src, l.number, v, "bucket count")?;
                        b.buckets[k].push((bucket, c as u64));
                    }
                    b.last_bucket_line = l.number;
                    consumed.push(l.number);
                    continue;
                }
            };
            for (k, v) in values.iter().enumerate() {
                let value = num(src, l.number, v, metric)?;
                let mut p = Params::default();
                p.set("cpu", &b.cpus[k]);
                out.push(
                    Row::at(src, l.number)
                        .benchmark("oslat")
                        .params(&p.render())
                        .metric(metric)
                        .unit("us")
                        .sample(value),
                );
            }
        }
        finish(src, block, &mut out);
        Parsed::found(
            src,
            out,
            consumed,
            Vec::new(),
            "oslat output without Minimum/Average/Maximum lines (truncated run?)",
        )
    }
}

/// The percentiles of a finished block's histograms.
fn finish(src: &Source, block: Option<Block>, out: &mut Vec<Observation>) {
    let Some(b) = block else {
        return;
    };
    for (k, buckets) in b.buckets.iter().enumerate() {
        if buckets.is_empty() {
            continue;
        }
        // The last bucket holds every longer latency as well: a percentile
        // there has no upper bound.
        let (inner, last) = buckets.split_at(buckets.len() - 1);
        let mut p = Params::default();
        p.set("cpu", &b.cpus[k]);
        let params = p.render();
        for (pct, metric) in PERCENTILES {
            if let Some(i) = percentile_bucket(inner, last[0].1, pct) {
                out.push(
                    Row::at(src, b.last_bucket_line)
                        .benchmark("oslat")
                        .params(&params)
                        .metric(metric)
                        .unit("us")
                        .sample(inner[i].0),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_cpus_give_a_series_each() {
        let text = "oslat V 2.40\nTotal runtime: \t\t2 seconds\nCPU list: \t\t0-1\n\n\
                    \x20       Core:\t 0 1\nCounter Freq:\t 2597 2597 (Mhz)\n\
                    \x20   001 (us):\t 90 10\n    002 (us):\t 9 80\n    003 (us):\t 1 10 (including overflows)\n\
                    \x20    Minimum:\t 1 1 (us)\n     Average:\t 1.001 1.9 (us)\n     Maximum:\t 3994 7679 (us)\n\
                    \x20    Max-Min:\t 3993 7678 (us)\n    Duration:\t 2.000 2.000 (sec)\n";
        let src = Source::from_text("oslat.txt", text);
        assert_eq!(Oslat.detect(&src), 95);
        let obs = Oslat.parse(&src).unwrap();
        let get = |cpu: &str, m: &str| {
            obs.iter()
                .find(|o| o.params == format!("cpu={cpu}") && o.metric == m)
                .map(|o| o.value)
        };
        assert_eq!(get("0", "latency max"), Some(3994.0));
        assert_eq!(get("1", "latency avg"), Some(1.9));
        assert_eq!(get("0", "latency p50"), Some(1.0));
        assert_eq!(get("1", "latency p50"), Some(2.0));
        // cpu 1's p99 lies in the overflow bucket: not read.
        assert_eq!(get("1", "latency p99"), None);
        assert_eq!(obs.iter().filter(|o| o.metric == "latency min").count(), 2);
    }

    #[test]
    fn a_short_line_is_an_error_naming_it() {
        let text = "        Core:\t 0 1\nCounter Freq:\t 2597 2597 (Mhz)\n     Minimum:\t 1 (us)\n";
        let e = Oslat
            .parse(&Source::from_text("o.txt", text))
            .unwrap_err()
            .to_string();
        assert!(e.contains("o.txt:3"), "{e}");
    }
}
