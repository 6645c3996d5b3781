//! ioping: each request's line (`4 KiB <<< /tmp (ext4 /dev/vda 252.0 GiB):
//! request=2 time=847.8 ms`, `>>>` for writes), the statistics block
//! (`4 requests completed in 1.52 s, 16 KiB read, 2 iops, 10.5 KiB/s`,
//! `min/avg/max/mdev = 28.8 ms / 380.8 ms / 847.8 ms / 297.1 ms`), and
//! `-B`'s raw lines of ten integers (count, time in ns, iops, bytes/s,
//! min, avg, max and mdev in ns, all requests, all time).
//!
//! Benchmark `ioping read` or `ioping write`; parameter `size` (the request
//! size, when a request line names it); metrics: each request's `request
//! time` (µs) as a sample of its run, and of the statistics `iops`,
//! `throughput` (MiB/s), `latency min|avg|max|mdev` (µs), each a `sample`.
//! Warm-up requests, and the `generated …` line that counts them, are left
//! out with the reason.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::rescale;

lazy_re!(
    REQUEST,
    r"^(\d+(?:\.\d+)? \w+) (<<<|>>>) .*: request=(\d+) time=([\d.]+) (ns|us|ms|s|min)(?: \((\w+)\))?"
);
lazy_re!(
    COMPLETED,
    r"^[\d.]+(?: k)? requests completed in [\d.]+ \w+, [\d.]+ \w+ (read|written), ([\d.]+)(?: k)? iops, ([\d.]+) (B|KiB|MiB|GiB)/s$"
);
lazy_re!(
    LATENCY,
    r"^min/avg/max/mdev = ([\d.]+) (\w+) / ([\d.]+) (\w+) / ([\d.]+) (\w+) / ([\d.]+) (\w+)$"
);
lazy_re!(RAW, r"^\d+(?: \d+){9}$");

/// The ioping importer.
pub struct Ioping;

/// A duration as ioping prints it, in µs.
fn micros(v: f64, unit: &str) -> Option<f64> {
    let scale = match unit {
        "ns" => 1e-3,
        "us" => 1.0,
        "ms" => 1e3,
        "s" => 1e6,
        "min" => 6e7,
        _ => return None,
    };
    Some(rescale(v, scale))
}

impl Format for Ioping {
    fn name(&self) -> &'static str {
        "ioping"
    }

    fn description(&self) -> &'static str {
        "ioping: `request=N time=…` lines, the `ioping statistics` block (iops, throughput, min/avg/max/mdev), and -B raw lines"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let text = src.lines.iter().any(|l| {
            let t = l.text.trim();
            REQUEST.is_match(t) || t.ends_with("ioping statistics ---")
        });
        let filled: Vec<&str> = src
            .lines
            .iter()
            .map(|l| l.text.trim())
            .filter(|t| !t.is_empty())
            .collect();
        let raw = !filled.is_empty() && filled.iter().all(|t| RAW.is_match(t));
        if text {
            95
        } else if raw {
            60
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let (mut bench, mut params) = ("ioping read".to_string(), Params::default());
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            let row = |bench: &str, params: &Params, metric: &str, unit: &str, v: f64| {
                Row::at(src, n)
                    .benchmark(bench)
                    .params(&params.render())
                    .metric(metric)
                    .unit(unit)
                    .sample(v)
            };
            if let Some(c) = REQUEST.captures(t) {
                bench = if &c[2] == ">>>" {
                    "ioping write"
                } else {
                    "ioping read"
                }
                .to_string();
                params.set("size", &c[1]);
                if c.get(6).is_some_and(|m| m.as_str() == "warmup") {
                    skipped.push((
                        n,
                        "the warm-up request, which the statistics leave out".into(),
                    ));
                    continue;
                }
                let v = num(src, n, &c[4], "time")?;
                let us = micros(v, &c[5]).unwrap_or(f64::NAN);
                let run = c[3].parse().unwrap_or(0);
                out.push(row(&bench, &params, "request time", "us", us).with_run(run));
            } else if let Some(c) = COMPLETED.captures(t) {
                if &c[1] == "written" {
                    bench = "ioping write".to_string();
                }
                let mult = if t.contains(" k iops") { 1e3 } else { 1.0 };
                out.push(row(
                    &bench,
                    &params,
                    "iops",
                    "ops/s",
                    rescale(num(src, n, &c[2], "iops")?, mult),
                ));
                let scale = match &c[4] {
                    "B" => 1.0 / 1048576.0,
                    "KiB" => 1.0 / 1024.0,
                    "MiB" => 1.0,
                    _ => 1024.0,
                };
                let rate = rescale(num(src, n, &c[3], "throughput")?, scale);
                out.push(row(&bench, &params, "throughput", "MiB/s", rate));
            } else if let Some(c) = LATENCY.captures(t) {
                for (k, stat) in ["min", "avg", "max", "mdev"].into_iter().enumerate() {
                    let v = num(src, n, &c[2 * k + 1], stat)?;
                    let us = micros(v, &c[2 * k + 2]).unwrap_or(f64::NAN);
                    out.push(row(&bench, &params, &format!("latency {stat}"), "us", us));
                }
            } else if RAW.is_match(t) {
                let f: Vec<f64> = t
                    .split(' ')
                    .map(|w| w.parse().unwrap_or(f64::NAN))
                    .collect();
                out.push(row(&bench, &params, "iops", "ops/s", f[2]));
                out.push(row(
                    &bench,
                    &params,
                    "throughput",
                    "MiB/s",
                    f[3] / 1048576.0,
                ));
                for (k, stat) in ["min", "avg", "max", "mdev"].into_iter().enumerate() {
                    out.push(row(
                        &bench,
                        &params,
                        &format!("latency {stat}"),
                        "us",
                        f[4 + k] / 1e3,
                    ));
                }
            } else if t.starts_with("generated ") {
                skipped.push((
                    n,
                    "counts the warm-up request too; the line above is the statistics".into(),
                ));
            } else if t.ends_with("ioping statistics ---") {
                consumed.push(n);
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no ioping request line or statistics",
        )
    }
}
