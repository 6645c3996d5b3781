//! JMeter's summariser lines, printed by a CLI run (and written to
//! `jmeter.log` behind its `… INFO o.a.j.r.Summariser: ` prefix) every
//! interval: `summary +    138 in 00:00:09 =   16.2/s Avg:     0 Min:
//! 0 Max:     1 Err:     0 (0.00%) Active: 9 …` for the interval, and
//! `summary =` for the run so far.
//!
//! Benchmark: the summariser's name (`summary`, or the element's own,
//! `Generate Summary Results`). Metrics: `samples`, `throughput`
//! (samples/s), `average`, `min`, `max` (ms), `errors` and `error rate`
//! (%), a `sample` per interval (`+` line). A `=` line sums the `+` lines
//! before it, so it is read only for a name that has no `+` line (a run
//! shorter than one interval prints `=` lines alone); otherwise it is
//! accounted as the running total. Thread counts are context.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, lines_containing, num};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use std::collections::HashSet;

lazy_re!(
    LINE,
    r"^(?:.*Summariser: )?(\S.*?) ([+=]) +(\d+) in +([\d:]+) = +([\d.]+)/s Avg: +(-?\d+) Min: +(-?\d+) Max: +(-?\d+) Err: +(\d+) \(([\d.]+)%\)(?: Active: \d+ Started: \d+ Finished: \d+)?\s*$"
);

/// The JMeter summariser importer.
pub struct JmeterSummariser;

/// The metrics of a line, by capture group: name, unit.
const METRICS: &[(usize, &str, &str)] = &[
    (3, "samples", ""),
    (5, "throughput", "samples/s"),
    (6, "average", "ms"),
    (7, "min", "ms"),
    (8, "max", "ms"),
    (9, "errors", ""),
    (10, "error rate", "%"),
];

impl Format for JmeterSummariser {
    fn name(&self) -> &'static str {
        "jmeter-summariser"
    }

    fn description(&self) -> &'static str {
        "Apache JMeter summariser lines (`summary +    138 in 00:00:09 =   16.2/s Avg: …`), on a \
         CLI run's output or in jmeter.log"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if lines_containing(src, "/s Avg:").any(|l| LINE.is_match(l.trim_end())) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed) = (Vec::new(), Vec::new());
        let lines: Vec<_> = src
            .lines
            .iter()
            .filter_map(|l| LINE.captures(l.text.trim_end()).map(|c| (l.number, c)))
            .collect();
        let intervals: HashSet<&str> = lines
            .iter()
            .filter(|(_, c)| &c[2] == "+")
            .map(|(_, c)| c.get(1).map_or("", |m| m.as_str()))
            .collect();
        for (n, c) in &lines {
            let name = &c[1];
            if &c[2] == "=" && intervals.contains(name) {
                consumed.push(*n);
                continue;
            }
            for &(group, metric, unit) in METRICS {
                let v = num(src, *n, &c[group], metric)?;
                out.push(
                    Row::at(src, *n)
                        .benchmark(name)
                        .metric(metric)
                        .unit(unit)
                        .sample(v),
                );
            }
        }
        Parsed::found(src, out, consumed, Vec::new(), "no JMeter summariser line")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;
    use crate::ingest::row_lines as rows;

    #[test]
    fn interval_lines_are_samples_and_totals_context() {
        let p = parse_file(
            &JmeterSummariser,
            "tests/data/harness/jmeter/summariser-changes-history.txt",
        );
        let r = rows(&p);
        // Six `+` lines of seven figures; the five `=` lines and the
        // elision mark are not read as values.
        assert_eq!(r.len(), 6 * 7);
        assert_eq!(r[0], "1 Generate Summary Results||samples|=1");
        assert_eq!(
            r[8],
            "2 Generate Summary Results||throughput|samples/s=16.2"
        );
        assert_eq!(r[7 * 4 + 4], "9 Generate Summary Results||max|ms=1");
        assert_eq!(p.consumed, vec![3, 5, 8, 10, 12]);
        let p = parse_file(
            &JmeterSummariser,
            "tests/data/harness/jmeter/summariser-component-reference.txt",
        );
        let r = rows(&p);
        assert_eq!(r[2], "1 label||average|ms=1608");
    }

    #[test]
    fn total_lines_alone_are_read_and_log_prefixes_passed() {
        let text = "2025-03-14 21:01:26,245 INFO o.a.j.r.Summariser: summary =     30 in 00:01:50 =    0.3/s Avg: 42822 Min:   612 Max: 109744 Err:     6 (20.00%)\n";
        let p = JmeterSummariser
            .parse_accounted(&Source::from_text("jmeter.log", text))
            .unwrap();
        let r = rows(&p);
        assert_eq!(r[0], "1 summary||samples|=30");
        assert_eq!(r[6], "1 summary||error rate|%=20");
    }
}
