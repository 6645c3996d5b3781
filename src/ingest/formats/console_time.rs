//! JavaScript's `console.time(label)` / `console.timeEnd(label)` as
//! Deno and Bun print the end, and as bencher's `js_time` adapter reads
//! it: `label: 7617ms - timer ended` (a label may hold `:` and ` - `;
//! the last `: TIME - timer ended` closes it). Node prints the same
//! lines without the suffix (`label: 7.617s`), which nothing tells from
//! any `label: value` line: the generic reader's.
//!
//! Benchmark the label, metric `time` in the unit printed (`ms`, `s`,
//! `µs`, `ns`), a sample per line: a label timed again is another sample.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, lines_containing, num};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(
    ENDED,
    r"^(.+): ([\d.]+) ?(ms|s|µs|μs|us|ns) - timer ended\s*$"
);

/// The console.time importer.
pub struct ConsoleTime;

impl Format for ConsoleTime {
    fn name(&self) -> &'static str {
        "console-time"
    }

    fn description(&self) -> &'static str {
        "JavaScript console.timeEnd as Deno and Bun print it: `label: 7617ms - timer ended`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if lines_containing(src, " - timer ended").any(|l| ENDED.is_match(l.trim())) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        for l in &src.lines {
            let Some(c) = ENDED.captures(l.text.trim()) else {
                continue;
            };
            let v = num(src, l.number, &c[2], "timer")?;
            out.push(
                Row::at(src, l.number)
                    .benchmark(c[1].trim())
                    .metric("time")
                    .unit(&c[3])
                    .sample(v),
            );
        }
        Parsed::found(
            src,
            out,
            Vec::new(),
            Vec::new(),
            "no `label: TIME - timer ended` line",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    #[test]
    fn each_ended_timer_is_a_sample_under_its_label() {
        let p = parse_file(
            &ConsoleTime,
            "tests/data/harness/console-time/bencher-four.txt",
        );
        let got: Vec<(&str, f64, &str)> = p
            .observations
            .iter()
            .map(|o| (o.benchmark.as_str(), o.value, o.unit.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("default", 7617.0, "ms"),
                ("benchmark_1", 12714.0, "ms"),
                ("benchmark 2", 9034.0, "ms"),
                ("benchmark 3: The Third - timer/timerEnd", 8827.0, "ms"),
            ]
        );
    }
}
