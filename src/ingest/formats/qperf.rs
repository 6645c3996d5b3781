//! qperf: per test a block of its name (`tcp_bw:`) over indented `key =
//! value unit` lines (`    bw  =  1.74 GB/sec`). Plain runs print the
//! result (`bw`, `latency`); `-v` and `-vv` add the message rate, the CPU
//! cost per GB, the CPU use of both ends, the settings used (`msg_size  =
//! 1 KiB (1,024)`, `time  =  1 sec`) and the byte and message counts.
//!
//! qperf scales each value to its own prefix (`939 ms/GB` beside `1.46
//! sec/GB` in one sweep, `GB/sec` or `MB/sec` by the value), so every
//! quantity is brought to one unit: bandwidths to B/s, rates to msg/s,
//! latencies to us, costs to ms/GB, times to s, byte counts to B, CPU
//! use to %; `-uu`'s unscaled `bytes/sec` are B/s as written.
//!
//! Benchmark `qperf <test>` (`qperf tcp_bw`); metrics the keys (`bw`,
//! `send_bw`, `latency`, `msg_rate`, `send_cost`, `recv_cpus_used` …),
//! each a `sample` of the run. A size setting (`msg_size`, printed with
//! its exact byte count in brackets) is a parameter in bytes, so that the
//! steps of an `-oo msg_size:1K:16K:*4` sweep are series of their own;
//! the other settings (`time`, `timeout`, text values) are context. The
//! `conf` block (the hosts' node, CPU, OS and qperf version) is context.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::rescale;

lazy_re!(TEST, r"^([a-z][a-z0-9_]*):\s*$");
lazy_re!(KEY, r"^\s+([a-z][a-z0-9_]*)\s+=\s+(.*?)\s*$");
// A number (with qperf's thousands commas) and its unit.
lazy_re!(VALUE, r"^([\d,]*\.?\d+)\s*(.*)$");
// A size setting: `1 KiB (1,024)`.
lazy_re!(SIZE, r"^[\d.]+ \w*B \(([\d,]+)\)$");
// The keys of a result, one of which a block of a test has.
lazy_re!(
    RESULT_KEY,
    r"^\s+(?:bw|send_bw|recv_bw|latency|msg_rate)\s+=\s+[\d.]"
);

/// The settings qperf prints under `-v` that are no result.
const SETTINGS: [&str; 2] = ["time", "timeout"];

/// The qperf importer.
pub struct Qperf;

/// The factor of a decimal prefix (`K`, `M`, `G`, `T`).
fn prefix(p: &str) -> Option<f64> {
    Some(match p {
        "" => 1.0,
        "K" | "k" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        _ => return None,
    })
}

/// Seconds in one `ns`, `us`, `ms`, `sec`.
fn seconds(u: &str) -> Option<f64> {
    Some(match u {
        "ns" => 1e-9,
        "us" => 1e-6,
        "ms" => 1e-3,
        "sec" | "s" => 1.0,
        _ => return None,
    })
}

/// The factor to this reader's unit of the quantity `unit` measures, and
/// that unit; `None` for a unit it does not know.
fn canonical(unit: &str) -> Option<(f64, &'static str)> {
    if unit.is_empty() {
        return Some((1.0, ""));
    }
    if unit == "% cpus" || unit == "%" {
        return Some((1.0, "%"));
    }
    if unit == "bytes/sec" {
        return Some((1.0, "B/s"));
    }
    if unit == "bytes" {
        return Some((1.0, "B"));
    }
    if let Some(p) = unit.strip_suffix("B/sec") {
        return prefix(p).map(|f| (f, "B/s"));
    }
    if let Some(p) = unit.strip_suffix("/sec") {
        return prefix(p).map(|f| (f, "msg/s"));
    }
    if let Some(t) = unit.strip_suffix("/GB") {
        return seconds(t).map(|f| (f * 1e3, "ms/GB"));
    }
    if let Some(p) = unit.strip_suffix('B') {
        return prefix(p).map(|f| (f, "B"));
    }
    if let Some(f) = seconds(unit) {
        // Latencies in us, other times in s.
        return Some((f, "s"));
    }
    None
}

impl Format for Qperf {
    fn name(&self) -> &'static str {
        "qperf"
    }

    fn description(&self) -> &'static str {
        "qperf: `tcp_bw:` blocks of `key = value unit` lines (`bw  =  1.74 GB/sec`)"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let mut lines = src.lines.iter().map(|l| l.text.as_str());
        let first = lines.find(|t| !t.trim().is_empty());
        let result = src.lines.iter().any(|l| RESULT_KEY.is_match(&l.text));
        match first {
            Some(t) if TEST.is_match(t) && result => 95,
            _ => 0,
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let mut test = String::new();
        // The block's rows wait for its settings, which qperf prints among
        // them (`msg_size` after `msg_rate`).
        let mut block: Vec<(u32, String, &'static str, f64)> = Vec::new();
        let mut params = Params::default();
        let flush = |test: &str,
                     params: &Params,
                     block: &mut Vec<(u32, String, &'static str, f64)>,
                     out: &mut Vec<_>| {
            let p = params.render();
            for (n, metric, unit, v) in block.drain(..) {
                out.push(
                    Row::at(src, n)
                        .benchmark(&format!("qperf {test}"))
                        .params(&p)
                        .metric(&metric)
                        .unit(unit)
                        .sample(v),
                );
            }
        };
        for l in &src.lines {
            let (n, t) = (l.number, l.text.as_str());
            if let Some(c) = TEST.captures(t) {
                flush(&test, &params, &mut block, &mut out);
                test = c[1].to_string();
                params = Params::default();
                consumed.push(n);
                continue;
            }
            let Some(c) = KEY.captures(t) else {
                continue;
            };
            if test.is_empty() || test == "conf" {
                consumed.push(n);
                continue;
            }
            let (key, value) = (&c[1], &c[2]);
            if let Some(size) = SIZE.captures(value) {
                params.set(key, size[1].replace(',', ""));
                consumed.push(n);
                continue;
            }
            if SETTINGS.contains(&key) {
                consumed.push(n);
                continue;
            }
            let Some(v) = VALUE.captures(value) else {
                // A text setting (`use_cm = yes`).
                consumed.push(n);
                continue;
            };
            let Some((factor, mut unit)) = canonical(v[2].trim()) else {
                skipped.push((n, format!("a unit qperf reader does not know: `{}`", &v[2])));
                continue;
            };
            let mut x = num(src, n, &v[1].replace(',', ""), key)?;
            if unit == "s" && (key == "latency" || key.ends_with("_latency")) {
                x = rescale(x, factor * 1e6);
                unit = "us";
            } else {
                x = rescale(x, factor);
            }
            block.push((n, key.to_string(), unit, x));
        }
        flush(&test, &params, &mut block, &mut out);
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no qperf result (`tcp_bw:` over `bw  =  1.74 GB/sec`)",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(path: &str) -> Vec<crate::ingest::testing::RowView> {
        crate::ingest::testing::rows_of_file(&Qperf, path)
    }

    #[test]
    fn costs_in_one_unit_and_sizes_as_params() {
        let r = read("tests/data/harness/qperf/v-oo-msgsize-tcp_bw.txt");
        let cost: Vec<(&str, &str, f64)> = r
            .iter()
            .filter(|o| o.2 == "send_cost")
            .map(|o| (o.1.as_str(), o.3.as_str(), o.4))
            .collect();
        // `1.46 sec/GB` and `939 ms/GB`: one unit.
        assert_eq!(
            cost,
            vec![
                ("msg_size=1024", "ms/GB", 1460.0),
                ("msg_size=4096", "ms/GB", 1830.0),
                ("msg_size=16384", "ms/GB", 939.0)
            ]
        );
        let first: Vec<(&str, &str, f64)> = r
            .iter()
            .filter(|o| o.1 == "msg_size=1024")
            .map(|o| (o.2.as_str(), o.3.as_str(), o.4))
            .collect();
        assert_eq!(
            first,
            vec![
                ("bw", "B/s", 1.36e9),
                ("msg_rate", "msg/s", 1.33e6),
                ("send_cost", "ms/GB", 1460.0),
                ("recv_cost", "ms/GB", 1470.0),
                ("send_cpus_used", "%", 200.0),
                ("recv_cpus_used", "%", 200.0)
            ]
        );
        assert!(r.iter().all(|o| o.0 == "qperf tcp_bw"));
    }

    #[test]
    fn very_verbose_counts_and_two_tests() {
        let r = read("tests/data/harness/qperf/vv-tcp_bw.txt");
        let get = |m: &str| r.iter().find(|o| o.2 == m).map(|o| (o.3.as_str(), o.4));
        assert_eq!(get("bw"), Some(("B/s", 2.36e9)));
        assert_eq!(get("send_cost"), Some(("ms/GB", 845.0)));
        assert_eq!(get("send_cpus_kernel"), Some(("%", 78.0)));
        assert_eq!(get("send_real_time"), Some(("s", 1.0)));
        assert_eq!(get("send_bytes"), Some(("B", 2.37e9)));
        assert_eq!(get("send_msgs"), Some(("", 36101.0)));
        assert_eq!(get("time"), None);
        assert_eq!(get("msg_size"), None);
        assert!(r.iter().all(|o| o.1 == "msg_size=65536"));
        assert_eq!(r.len(), 20);
        let two = read("tests/data/harness/qperf/v-udp_bw-udp_lat.txt");
        let lat: Vec<_> = two.iter().filter(|o| o.0 == "qperf udp_lat").collect();
        assert_eq!(
            (lat[0].2.as_str(), lat[0].3.as_str(), lat[0].4),
            ("latency", "us", 2.05)
        );
        assert_eq!(lat.len(), 4);
        let plain = read("tests/data/harness/qperf/uu-m64K-tcp_bw.txt");
        assert_eq!(plain[0].3, "B/s");
        assert_eq!(plain[0].4, 2708996096.0);
    }
}
