//! k6's end-of-test summary as `k6 run` prints it: one line per metric,
//! its name padded with dots, then what its kind states —
//! `http_req_duration....: avg=17.47ms min=10.93ms med=17.31ms …` (a
//! trend, whatever `--summary-trend-stats` chose), `http_reqs....: 45765
//! 4568.791991/s` and `data_received....: 157 MB 16 MB/s` (counters),
//! `http_req_failed....: 0.00% ✓ 0 ✗ 45765` or, from k6 1.0 on, `0.00% 0
//! out of 45765` (rates), `vus....: 80 min=80 max=80` (gauges). A line
//! `{ expected_response:true }...:` under a metric is its submetric; a
//! threshold's `✓`/`✗` before a name is left aside. Durations
//! (`558.72µs`, `1.91s`, `1m30s`) are read in ms; a trend of plain
//! numbers keeps no unit, a counter its data unit as printed (`kB`).
//!
//! The banner, the scenario lines and the progress lines are read as the
//! frame. A log of several runs (a shell loop) gives one run per summary:
//! a metric seen again starts the next. A rate k6 prints as `NaN%` (no
//! value was recorded) is left out with the reason.

use super::{split_submetric, tags, trend_stat, BENCHMARK};
use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, lines_containing};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{rescale, Observation, Stat};
use std::collections::HashSet;

lazy_re!(
    METRIC,
    r"^\s*(?:[✓✗]\s+)?(\{[^}]*\}|[A-Za-z_][\w{}:,=. -]*?)\.{2,}:\s+(\S.*?)\s*$"
);
lazy_re!(
    FRAME,
    r"^\s*(?:(?:execution|script|output|scenarios):|\* \w+: |running \(|\w+\s+[✓✗]?\s*\[|[✓✗] )"
);

/// The k6 end-of-test summary importer.
pub struct K6Text;

impl Format for K6Text {
    fn name(&self) -> &'static str {
        "k6-text"
    }

    fn description(&self) -> &'static str {
        "k6 run's end-of-test summary: `metric....: avg=… min=… p(95)=…` trends, counters with their rate, rates (`✓ N ✗ M` / `N out of M`) and gauges"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let dotted = |name: &'static str| {
            lines_containing(src, name)
                .any(|l| METRIC.captures(l).is_some_and(|c| c[1].trim() == name))
        };
        if dotted("iteration_duration") || dotted("http_req_duration") || dotted("vus_max") {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let mut parent = String::new();
        let mut seen: HashSet<(String, String)> = HashSet::new();
        let mut run = 1u32;
        for l in &src.lines {
            let n = l.number;
            let Some(c) = METRIC.captures(&l.text) else {
                if FRAME.is_match(&l.text) {
                    consumed.push(n);
                }
                continue;
            };
            let name = c[1].trim();
            let (metric, params) = if name.starts_with('{') {
                let list = name.trim_start_matches('{').trim_end_matches('}');
                (parent.clone(), tags(list))
            } else {
                let (m, p) = split_submetric(name);
                parent = m.to_string();
                (parent.clone(), p)
            };
            if !seen.insert((metric.clone(), params.clone())) {
                run += 1;
                seen.clear();
                seen.insert((metric.clone(), params.clone()));
            }
            let row = Row::at(src, n).benchmark(BENCHMARK).params(&params);
            let before = out.len();
            if let Err(why) = values(row, &metric, &c[2], &mut out) {
                skipped.push((n, why));
                continue;
            }
            for o in &mut out[before..] {
                o.run = Some(run);
            }
        }
        if run == 1 {
            for o in &mut out {
                o.run = None;
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no k6 summary line (`metric....: values`)",
        )
    }
}

/// The rows of one metric line's values, or why it gives none.
fn values(
    row: Row,
    metric: &str,
    text: &str,
    out: &mut Vec<Observation>,
) -> std::result::Result<(), String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let bad = || format!("`{text}` is not a k6 summary value");
    let first = *words.first().ok_or_else(bad)?;
    if let Some(pct) = first.strip_suffix('%') {
        // A rate: its share of non-zero values, then the counts.
        let share: f64 = pct.parse().map_err(|_| bad())?;
        if !share.is_finite() {
            return Err(format!("k6 recorded no value of `{metric}` (`{first}`)"));
        }
        let counts: Vec<f64> = words[1..]
            .iter()
            .filter_map(|w| w.parse::<f64>().ok())
            .collect();
        let (passes, fails) = match (counts.as_slice(), words.contains(&"out")) {
            ([yes, all], true) => (*yes, all - yes),
            ([yes, no], false) => (*yes, *no),
            _ => return Err(bad()),
        };
        out.push(row.clone().metric(metric).unit("%").sample(share));
        let passes_name = format!("{metric} passes");
        out.push(row.clone().metric(&passes_name).stat(Stat::Total, passes));
        let fails_name = format!("{metric} fails");
        out.push(row.metric(&fails_name).stat(Stat::Total, fails));
        return Ok(());
    }
    if let Some((head, rest)) = words.split_first().filter(|_| !first.contains('=')) {
        let v: f64 = head.parse().map_err(|_| bad())?;
        match rest {
            // A counter: its total (in the data unit it is printed in) and rate.
            [rate, per] if per.ends_with("/s") => {
                return counter(row, metric, v, "", rate, per, out).ok_or_else(bad)
            }
            [unit, rate, per] if per.ends_with("/s") => {
                return counter(row, metric, v, unit, rate, per, out).ok_or_else(bad)
            }
            [rate] if rate.ends_with("/s") => {
                let r = rate.trim_end_matches("/s");
                return counter(row, metric, v, "", r, "/s", out).ok_or_else(bad);
            }
            _ => {
                // A gauge: its value, then `min=` and `max=`.
                out.push(row.clone().metric(metric).sample(v));
                return trend(row, metric, rest, out).ok_or_else(bad);
            }
        }
    }
    trend(row, metric, &words, out).ok_or_else(bad)
}

/// A counter's rows: `total` in `unit`, and its rate (`rate` then `per`,
/// `kB/s`, or `per` alone when the rate is glued to it: `/s`).
fn counter(
    row: Row,
    metric: &str,
    total: f64,
    unit: &str,
    rate: &str,
    per: &str,
    out: &mut Vec<Observation>,
) -> Option<()> {
    let (rate, per) = match rate.strip_suffix("/s") {
        Some(r) => (r, "/s"),
        None => (rate, per),
    };
    let r: f64 = rate.parse().ok()?;
    out.push(
        row.clone()
            .metric(metric)
            .unit(unit)
            .stat(Stat::Total, total),
    );
    let rate_name = format!("{metric} rate");
    out.push(row.metric(&rate_name).unit(per).sample(r));
    Some(())
}

/// A trend's `stat=value` words (a gauge's `min=` and `max=` too); every
/// word must be one.
fn trend(row: Row, metric: &str, words: &[&str], out: &mut Vec<Observation>) -> Option<()> {
    let mut figures = Vec::new();
    for w in words {
        let (k, v) = w.split_once('=')?;
        let stat = trend_stat(k)?;
        figures.push((stat, v));
    }
    let timed = figures
        .iter()
        .any(|(s, v)| *s != Stat::N && v.parse::<f64>().is_err());
    for (stat, v) in figures {
        let (value, unit) = if timed && stat != Stat::N {
            (duration_ms(v)?, "ms")
        } else {
            (v.parse().ok()?, "")
        };
        out.push(row.clone().metric(metric).unit(unit).stat(stat, value));
    }
    Some(())
}

/// A duration as k6 prints it (`202ns`, `558.72µs`, `16.00ms`, `1.91s`,
/// `1m30s`, `1h0m0s`) in ms, each part shifted by its decimal scale so
/// that `558.72µs` is the double `0.55872` parses to.
fn duration_ms(text: &str) -> Option<f64> {
    let (mut total, mut rest, mut parts) = (0.0, text, 0);
    while !rest.is_empty() {
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .filter(|&e| e > 0)?;
        let v: f64 = rest[..end].parse().ok()?;
        let after = &rest[end..];
        let unit_end = after
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(after.len());
        let factor = match &after[..unit_end] {
            "h" => 3_600_000.0,
            "m" => 60_000.0,
            "s" => 1e3,
            "ms" => 1.0,
            "µs" | "μs" | "us" => 1e-3,
            "ns" => 1e-6,
            _ => return None,
        };
        total += rescale(v, factor);
        parts += 1;
        rest = &after[unit_end..];
    }
    (parts > 0).then_some(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    fn find<'a>(p: &'a Parsed, metric: &str, params: &str, stat: Stat) -> &'a Observation {
        p.observations
            .iter()
            .find(|o| o.metric == metric && o.params == params && o.stat == stat)
            .unwrap_or_else(|| panic!("no {metric} {params} {stat:?}"))
    }

    #[test]
    fn durations_in_ms() {
        assert_eq!(duration_ms("558.72µs"), Some(0.55872));
        assert_eq!(duration_ms("1.91s"), Some(1910.0));
        assert_eq!(duration_ms("1m30s"), Some(90_000.0));
        assert_eq!(duration_ms("202ns"), Some(0.000202));
        assert_eq!(duration_ms("0s"), Some(0.0));
        assert_eq!(duration_ms("12"), None);
    }

    #[test]
    fn trends_counters_rates_and_gauges_of_a_real_summary() {
        let p = parse_file(
            &K6Text,
            "tests/data/harness/k6/text-scenarios-thresholds.txt",
        );
        let d = find(&p, "http_req_duration", "", Stat::Mean);
        assert_eq!((d.value, d.unit.as_str()), (0.42048, "ms"));
        let sub = find(
            &p,
            "http_req_duration",
            "expected_response=true",
            Stat::Percentile(99_990),
        );
        assert_eq!(sub.value, 1.15);
        assert_eq!(find(&p, "http_req_duration", "", Stat::N).value, 23.0);
        assert_eq!(
            find(&p, "iteration_duration", "", Stat::Median).value,
            2000.0
        );
        let data = find(&p, "data_received", "", Stat::Total);
        assert_eq!((data.value, data.unit.as_str()), (72.0, "kB"));
        let rate = find(&p, "data_sent rate", "", Stat::Sample);
        assert_eq!((rate.value, rate.unit.as_str()), (220.0, "B/s"));
        assert_eq!(find(&p, "http_reqs rate", "", Stat::Sample).value, 0.726174);
        let checks = find(&p, "checks", "", Stat::Sample);
        assert_eq!((checks.value, checks.unit.as_str()), (100.0, "%"));
        assert_eq!(
            find(&p, "http_req_failed fails", "", Stat::Total).value,
            23.0
        );
        assert_eq!(find(&p, "vus", "", Stat::Sample).value, 3.0);
        assert_eq!(find(&p, "vus_max", "", Stat::Max).value, 10.0);
        assert!(p
            .observations
            .iter()
            .all(|o| o.benchmark == "k6" && o.run.is_none()));
    }

    #[test]
    fn five_k6_1_summaries_give_five_runs() {
        let p = parse_file(&K6Text, "tests/data/harness/k6/text-v1-five-runs-crlf.md");
        let means: Vec<(f64, Option<u32>)> = p
            .observations
            .iter()
            .filter(|o| o.metric == "http_req_duration" && o.params.is_empty())
            .filter(|o| o.stat == Stat::Mean)
            .map(|o| (o.value, o.run))
            .collect();
        let want = [38.81, 43.71, 42.1, 345.29, 18.98];
        let runs: Vec<(f64, Option<u32>)> =
            (1..=5).map(|r| (want[r - 1], Some(r as u32))).collect();
        assert_eq!(means, runs);
        let health = find(
            &p,
            "http_req_duration",
            "endpoint=health",
            Stat::Percentile(95_000),
        );
        assert_eq!((health.value, health.run), (2.47, Some(1)));
        let failed = find(&p, "http_req_failed fails", "", Stat::Total);
        assert_eq!(failed.value, 1196.0);
        // `vus_max: 20 min=20 max=20` is no quoted-printable escape.
        assert_eq!(find(&p, "vus_max", "", Stat::Min).value, 20.0);
        let rows = |r: u32| p.observations.iter().filter(|o| o.run == Some(r)).count();
        assert_eq!((rows(1), rows(5)), (58, 58));
    }

    #[test]
    fn custom_trend_stats_in_ms() {
        let p = parse_file(&K6Text, "tests/data/harness/k6/text-trend-stats-ms.txt");
        let q = find(&p, "http_req_waiting", "", Stat::Percentile(99_900));
        assert_eq!((q.value, q.unit.as_str()), (16.0, "ms"));
        assert_eq!(find(&p, "iteration_duration", "", Stat::Min).value, 24.69);
        assert_eq!(find(&p, "iterations", "", Stat::Total).value, 1.0);
        // `✓ 0 ✗ 1`: no request failed, one did not.
        assert_eq!(
            find(&p, "http_req_failed passes", "", Stat::Total).value,
            0.0
        );
        assert_eq!(
            find(&p, "http_req_failed fails", "", Stat::Total).value,
            1.0
        );
    }
}
