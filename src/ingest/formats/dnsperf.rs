//! dnsperf (and resperf's sibling output): the `Statistics:` block after
//! a run, `Label: value` lines whose value may carry figures in
//! parentheses (`Queries completed: 600 (100.00%)`, `Average Latency (s):
//! 0.000157 (min 0.000054, max 0.001233)`) or be a list of named counts
//! (`Response codes: NOERROR 300 (50.00%), REFUSED 300 (50.00%)`,
//! `Average packet size: request 32, response 40`); and, with `-S N`, a
//! `time: rate` line per interval.
//!
//! Benchmark `dnsperf`; parameters from the run's `[Status] Command line:`
//! (`-c` clients, `-T` threads, `-q` outstanding, `-Q` max_qps). Metrics:
//! the label in lower case, its unit from its brackets (`(s)`); a share in
//! parentheses is `LABEL percent` (%), a named figure `LABEL NAME`
//! (`average latency min`), a list item `LABEL NAME` (`response codes
//! NOERROR`, with its share `… percent`); the interval lines are
//! `interval queries per second` samples. Each block is a run.

use crate::error::Result;
use crate::ingest::shared::asides;
use crate::ingest::shared::logscan::{lazy_re, lines_containing, Params};
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(
    LABEL,
    r"^\s+([A-Z][A-Za-z ]+?)(?: \(([a-z]+)\))?:\s+(\S.*?)\s*$"
);
lazy_re!(INTERVAL, r"^\d+\.\d+: ([\d.]+)\s*$");
lazy_re!(FLAG, r"\s-([cTqQ])\s*(\d+)");
lazy_re!(FIGURE, r"^([A-Za-z_]+ )?(-?[\d.]+)$");

/// The dnsperf importer.
pub struct Dnsperf;

impl Format for Dnsperf {
    fn name(&self) -> &'static str {
        "dnsperf"
    }

    fn description(&self) -> &'static str {
        "dnsperf: the `Statistics:` block (`Queries completed: 600 (100.00%)`, `Queries per \
         second: 195.4`, `Average Latency (s): … (min …, max …)`) and -S interval lines"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let sent = lines_containing(src, "Queries sent:").next().is_some();
        if sent
            && lines_containing(src, "Queries per second:")
                .next()
                .is_some()
        {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let mut params = Params::default();
        let mut in_stats = false;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.as_str());
            if let Some(cmd) = t.strip_prefix("[Status] Command line:") {
                params = Params::default();
                let keys = [
                    ("c", "clients"),
                    ("T", "threads"),
                    ("q", "outstanding"),
                    ("Q", "max_qps"),
                ];
                for c in FLAG.captures_iter(cmd) {
                    if let Some((_, key)) = keys.iter().find(|(f, _)| *f == &c[1]) {
                        params.set(key, &c[2]);
                    }
                }
                consumed.push(n);
                in_stats = false;
                continue;
            }
            if t.trim() == "Statistics:" {
                in_stats = true;
                consumed.push(n);
                continue;
            }
            let p = params.render();
            let mut push = |metric: &str, unit: &str, v: f64| {
                out.push(
                    Row::at(src, n)
                        .benchmark("dnsperf")
                        .params(&p)
                        .metric(metric)
                        .unit(unit)
                        .sample(v),
                );
            };
            if let Some(c) = INTERVAL.captures(t) {
                if let Some(v) = parse_number(&c[1]) {
                    push("interval queries per second", "", v);
                }
                continue;
            }
            if !in_stats {
                continue;
            }
            let Some(c) = LABEL.captures(t) else {
                continue;
            };
            let label = c[1].to_lowercase();
            let unit = c.get(2).map_or("", |m| m.as_str());
            let mut read = false;
            for item in split_items(&c[3]) {
                let (core, figures) = asides::split(item).unwrap_or((item, Vec::new()));
                let Some(f) = FIGURE.captures(core) else {
                    continue;
                };
                let Some(v) = parse_number(&f[2]) else {
                    continue;
                };
                let name = match f.get(1) {
                    Some(w) => format!("{label} {}", w.as_str().trim()),
                    None => label.clone(),
                };
                push(&name, unit, v);
                read = true;
                // A share is in %; `min 0.000054, max 0.001233` are
                // figures of the value's own unit.
                for a in figures {
                    match a.percent {
                        true => push(&format!("{name} percent"), "%", a.value),
                        false => push(&format!("{name} {}", a.name), unit, a.value),
                    }
                }
            }
            if !read {
                skipped.push((n, format!("`{}` holds no figure", &c[3])));
            }
        }
        Parsed::found(src, out, consumed, skipped, "no dnsperf statistics line")
    }
}

/// The items of a value: split at `, ` outside parentheses.
fn split_items(value: &str) -> Vec<&str> {
    let (mut items, mut depth, mut start) = (Vec::new(), 0i32, 0);
    let b = value.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'(' => depth += 1,
            b')' => depth -= 1,
            b',' if depth == 0 => {
                items.push(value[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(value[start..].trim());
    items
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;
    use crate::ingest::row_lines as rows;

    #[test]
    fn each_statistics_block_is_a_run_with_its_figures_named_apart() {
        let p = parse_file(
            &Dnsperf,
            "tests/data/harness/dnsperf/two-rates-Q200-Q400.txt",
        );
        let r = rows(&p);
        let q = "dnsperf|clients=2,max_qps=200";
        for want in [
            format!("13 {q}|queries sent|=600"),
            format!("14 {q}|queries completed|=600"),
            format!("14 {q}|queries completed percent|%=100"),
            format!("17 {q}|response codes NOERROR|=300"),
            format!("17 {q}|response codes REFUSED percent|%=50"),
            format!("18 {q}|average packet size response|=40"),
            format!("19 {q}|run time|s=3.070183"),
            format!("20 {q}|queries per second|=195.42809"),
            format!("22 {q}|average latency|s=0.000157"),
            format!("22 {q}|average latency min|s=0.000054"),
            format!("22 {q}|average latency max|s=0.001233"),
            format!("23 {q}|latency stddev|s=0.000185"),
        ] {
            assert!(r.contains(&want), "{want} not in {r:#?}");
        }
        assert!(r
            .iter()
            .any(|x| x.contains("max_qps=400|queries per second|=399.963603")));
        let p = parse_file(&Dnsperf, "tests/data/harness/dnsperf/S1-intervals.txt");
        let r = rows(&p);
        assert!(r.contains(
            &"8 dnsperf|max_qps=300|interval queries per second|=281.916922".to_string()
        ));
    }
}
