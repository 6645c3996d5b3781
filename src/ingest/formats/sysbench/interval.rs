//! sysbench's `--report-interval` lines, one interval's figures each:
//!
//! - 1.0: `[ 1s ] thds: 1 tps: 776.22 qps: 12433.47 (r/w/o:
//!   10880.03/0.00/1553.44) lat (ms,95%): 2.39 err/s: 0.00 reconn/s: 0.00`
//!   (oltp), `thds: 2 eps: 3370.19 lat (ms,99%): 4.33` (cpu, threads …),
//!   `reads: 356.07 MiB/s writes: 0.00 MiB/s fsyncs: 0.00/s latency
//!   (ms,95%): 0.139` (fileio), `1929.53 MiB/sec` (memory), and with
//!   `--rate` a second line `queue length: 1, concurrency: 2`;
//! - 0.5: `[   2s] threads: 2, tps: 144.13, reads: 2030.88, writes: 577.53,
//!   response time: 17.52ms (99%), errors: 0.00, reconnects:  0.00`.
//!
//! A line is a list of `label: value` items, the label one word before the
//! colon (with a `(unit,percentile)` qualifier, or words left over after the
//! previous value: `response time`), the value a number or a `/`-joined
//! list of them under a `/`-joined label (`r/w/o`). A unit is written right
//! after the number (`17.52ms`, `0.00/s`) or is a rate (`MiB/s`); any other
//! word after a value starts the next label. The figures are named as the
//! run's summary names the same quantity (`tps`, `read MiB/s`, `latency
//! p95`), so that each interval series sits beside its run's total.

use crate::ingest::shared::logscan::lazy_re;
use crate::ingest::shared::numbers::parse_number;

lazy_re!(STAMP, r"^\[\s*(\d+(?:\.\d+)?)s\s*\]\s*");
lazy_re!(LABEL, r"([A-Za-z][\w/]*)(?:\s*\(([^)]*)\))?:");
lazy_re!(
    VALUE,
    r"^\s*(\d+(?:\.\d+)?(?:/\d+(?:\.\d+)?)*)([A-Za-z%]+(?:/[A-Za-z]+)?|/[A-Za-z]+)?(?:\s+([A-Za-z]*/[A-Za-z]+))?(?:\s*\((\d+(?:\.\d+)?)%\))?"
);

/// One figure of an interval: metric (without the `interval ` prefix the
/// reader adds), unit and value.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Figure {
    pub metric: String,
    pub unit: String,
    pub value: f64,
}

/// Whether `text` is an interval report: it starts with `[ Ns ]`.
pub(super) fn is_interval(text: &str) -> bool {
    STAMP.is_match(text)
}

/// The figures of one interval line, or what is wrong with it. The running
/// thread count (`thds`) is no measurement and is left out; so is a
/// latency percentile of 0, which is what `--percentile=0` (percentiles
/// off) prints.
pub(super) fn figures(text: &str) -> Result<Vec<Figure>, String> {
    let stamp = STAMP
        .find(text)
        .ok_or_else(|| "not a `[ Ns ]` interval line".to_string())?;
    let body = &text[stamp.end()..];
    let labels: Vec<regex::Captures> = LABEL.captures_iter(body).collect();
    let mut out = Vec::new();
    let Some(first) = labels.first() else {
        // memory's `1929.53 MiB/sec`: a value with no label.
        let rest = item(&mut out, "", None, body)?;
        return match rest.is_empty() {
            true => Ok(out),
            false => Err(format!("unexpected text `{rest}`")),
        };
    };
    // Words before a label's own word (`queue length`, `response time`).
    let mut lead = body[..start(first)].trim();
    for (k, c) in labels.iter().enumerate() {
        let word = &c[1];
        let label = if lead.is_empty() {
            word.to_string()
        } else {
            format!("{lead} {word}")
        };
        let from = c.get(0).map_or(0, |m| m.end());
        let to = labels.get(k + 1).map_or(body.len(), start);
        let rest = item(
            &mut out,
            &label,
            c.get(2).map(|m| m.as_str()),
            &body[from..to],
        )?;
        if k + 1 == labels.len() && !rest.is_empty() {
            return Err(format!("unexpected text `{rest}` after `{label}`"));
        }
        lead = rest;
    }
    Ok(out)
}

fn start(c: &regex::Captures) -> usize {
    c.get(0).map_or(0, |m| m.start())
}

/// Reads the value of one `label` from `text` into `out`; returns the
/// words after it, which begin the next label.
fn item<'t>(
    out: &mut Vec<Figure>,
    label: &str,
    qualifier: Option<&str>,
    text: &'t str,
) -> Result<&'t str, String> {
    let c = VALUE.captures(text).ok_or_else(|| match label {
        "" => format!("no number in `{}`", text.trim()),
        l => format!("no number after `{l}:`"),
    })?;
    let unit = c.get(2).or(c.get(3)).map_or("", |m| m.as_str());
    let percent = c.get(4).map(|m| m.as_str());
    let rest = text[c.get(0).map_or(0, |m| m.end())..]
        .trim_matches(|ch: char| ch.is_whitespace() || ch == ',' || ch == '(' || ch == ')');
    let names: Vec<&str> = label.split('/').collect();
    let values: Vec<&str> = c[1].split('/').collect();
    if values.len() > 1 {
        // `r/w/o: 10880.03/0.00/1553.44`: the read, write and other rates.
        if names.len() != values.len() {
            return Err(format!(
                "`{label}:` names {} values but has {}",
                names.len(),
                values.len()
            ));
        }
        for (name, v) in names.iter().zip(values) {
            let kind = match *name {
                "r" => "read",
                "w" => "write",
                "o" => "other",
                other => other,
            };
            out.push(figure(&format!("{kind} qps"), "qps", v)?);
        }
        return Ok(rest);
    }
    let value = values[0];
    let (unit, percentile) = match qualifier {
        // `lat (ms,95%)`: the unit and which percentile.
        Some(q) => {
            let (u, p) = q.split_once(',').unwrap_or((q, ""));
            (u.trim(), Some(p.trim().trim_end_matches('%')))
        }
        None => (unit, percent),
    };
    // A latency is in the unit it is written in, ms where none is.
    let time_unit = if unit.is_empty() { "ms" } else { unit };
    let named = match label.to_ascii_lowercase().as_str() {
        "thds" | "threads" => None,
        "tps" => Some(("tps".to_string(), "tps")),
        "qps" => Some(("qps".to_string(), "qps")),
        "eps" => Some(("events/s".to_string(), "events/s")),
        "err/s" | "errors" => Some(("ignored errors/s".to_string(), "/s")),
        "reconn/s" | "reconnects" => Some(("reconnects/s".to_string(), "/s")),
        "fsyncs" => Some(("fsyncs/s".to_string(), "ops/s")),
        "reads" | "reads/s" if unit.is_empty() => Some(("read qps".to_string(), "qps")),
        "writes" | "writes/s" if unit.is_empty() => Some(("write qps".to_string(), "qps")),
        "reads" => Some(("read MiB/s".to_string(), "MiB/s")),
        "writes" => Some(("written MiB/s".to_string(), "MiB/s")),
        "lat" | "latency" | "response time" => match percentile {
            Some("0") => None,
            Some("") | None => Some(("latency".to_string(), time_unit)),
            Some("max") => Some(("latency max".to_string(), time_unit)),
            Some(p) => Some((format!("latency p{p}"), time_unit)),
        },
        "" if unit.starts_with("MiB/") => Some(("bandwidth".to_string(), "MiB/s")),
        _ => Some((label.to_string(), "")),
    };
    if let Some((metric, default_unit)) = named {
        // The name fixes the unit (`fsyncs: 0.00/s` is ops/s); a figure
        // this reader does not name keeps the unit it was written with.
        let unit = if default_unit.is_empty() {
            unit
        } else {
            default_unit
        };
        out.push(figure(&metric, unit, value)?);
    }
    Ok(rest)
}

fn figure(metric: &str, unit: &str, value: &str) -> Result<Figure, String> {
    let value = parse_number(value).ok_or_else(|| format!("`{value}` is not a number"))?;
    Ok(Figure {
        metric: metric.to_string(),
        unit: unit.to_string(),
        value,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<(String, String, f64)> {
        figures(text)
            .unwrap()
            .into_iter()
            .map(|f| (f.metric, f.unit, f.value))
            .collect()
    }

    fn f(m: &str, u: &str, v: f64) -> (String, String, f64) {
        (m.to_string(), u.to_string(), v)
    }

    #[test]
    fn oltp_line_of_1_0() {
        let got = read("[ 1s ] thds: 1 tps: 776.22 qps: 12433.47 (r/w/o: 10880.03/0.00/1553.44) lat (ms,95%): 2.39 err/s: 0.00 reconn/s: 0.00");
        assert_eq!(
            got,
            [
                f("tps", "tps", 776.22),
                f("qps", "qps", 12433.47),
                f("read qps", "qps", 10880.03),
                f("write qps", "qps", 0.0),
                f("other qps", "qps", 1553.44),
                f("latency p95", "ms", 2.39),
                f("ignored errors/s", "/s", 0.0),
                f("reconnects/s", "/s", 0.0),
            ]
        );
    }

    #[test]
    fn fileio_memory_cpu_and_rate_lines() {
        assert_eq!(
            read("[ 2s ] reads: 324.78 MiB/s writes: 0.00 MiB/s fsyncs: 0.00/s latency (ms,95%): 0.189"),
            [
                f("read MiB/s", "MiB/s", 324.78),
                f("written MiB/s", "MiB/s", 0.0),
                f("fsyncs/s", "ops/s", 0.0),
                f("latency p95", "ms", 0.189),
            ]
        );
        assert_eq!(
            read("[ 1s ] 1929.53 MiB/sec"),
            [f("bandwidth", "MiB/s", 1929.53)]
        );
        assert_eq!(
            read("[ 1s ] thds: 2 eps: 3370.19 lat (ms,99%): 4.33"),
            [
                f("events/s", "events/s", 3370.19),
                f("latency p99", "ms", 4.33)
            ]
        );
        // `--percentile=0` prints a 0th percentile that is no value.
        assert_eq!(
            read("[ 1s ] thds: 1 eps: 2625.33 lat (ms,0%): 0.00"),
            [f("events/s", "events/s", 2625.33)]
        );
        assert_eq!(
            read("[ 1s ] queue length: 1, concurrency: 2"),
            [f("queue length", "", 1.0), f("concurrency", "", 2.0)]
        );
    }

    #[test]
    fn lines_of_0_5() {
        assert_eq!(
            read("[   2s] threads: 2, tps: 144.13, reads: 2030.88, writes: 577.53, response time: 17.52ms (99%), errors: 0.00, reconnects:  0.00"),
            [
                f("tps", "tps", 144.13),
                f("read qps", "qps", 2030.88),
                f("write qps", "qps", 577.53),
                f("latency p99", "ms", 17.52),
                f("ignored errors/s", "/s", 0.0),
                f("reconnects/s", "/s", 0.0),
            ]
        );
        assert_eq!(
            read("[  10s] threads: 128, tps: 5081.05, reads/s: 71277.04, writes/s: 20342.28 response time: 100.12ms (99%)"),
            [
                f("tps", "tps", 5081.05),
                f("read qps", "qps", 71277.04),
                f("write qps", "qps", 20342.28),
                f("latency p99", "ms", 100.12),
            ]
        );
    }

    #[test]
    fn malformed_lines_say_what_is_wrong() {
        assert!(figures("[ 1s ] tps: x")
            .unwrap_err()
            .contains("no number after `tps:`"));
        assert!(figures("[ 1s ] r/w: 1/2/3")
            .unwrap_err()
            .contains("names 2 values"));
        assert!(figures("[ 1s ] tps: 3 and more")
            .unwrap_err()
            .contains("unexpected text `and more`"));
        assert!(figures("[ 1s ] nothing").unwrap_err().contains("no number"));
    }
}
