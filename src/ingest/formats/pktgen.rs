//! The kernel's packet generator (pktgen): the result a device's
//! `/proc/net/pktgen/<dev>` file shows after a run, as logs and mails
//! paste it.
//!
//! ```text
//! Result: OK: 34205373(c34202809+d2564) usec, 100000000 (60byte,0frags)
//!   2923517pps 1403Mb/sec (1403288160bps) errors: 0
//! ```
//!
//! Each result gives the run's time (µs), packets sent, packet rate and
//! bit rate, samples of benchmark `pktgen` with the packet size as a
//! parameter. A line of text above a result (`* With this patch:`) names
//! its variant.

use crate::error::Result;
use crate::ingest::shared::logscan::num;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};
use regex::Regex;
use std::sync::LazyLock;

/// The pktgen importer.
pub struct Pktgen;

/// The most words of a line that names the result below it.
const NAME_WORDS: usize = 10;

static RESULT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"Result: OK: (\d+)\(c\d+\+d\d+\) usec, (\d+) \((\d+)byte,(\d+)frags\)")
        .expect("static regex")
});
static RATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(\d+)pps (\d+)Mb/sec \((\d+)bps\) errors: (\d+)").expect("static regex")
});

impl Format for Pktgen {
    fn name(&self) -> &'static str {
        "pktgen"
    }

    fn description(&self) -> &'static str {
        "the kernel's pktgen: `Result: OK: … usec, N (60byte,0frags)` and its `pps Mb/sec` line"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let hit = crate::ingest::shared::logscan::lines_containing(src, "Result: OK: ")
            .any(|t| RESULT.is_match(t));
        if hit && src.lines.iter().any(|l| RATE.is_match(&l.text)) {
            90
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut parsed = Parsed::default();
        let mut variant = String::new();
        let mut pending: Option<(u32, f64, f64, String)> = None;
        for l in &src.lines {
            let t = l.text.trim();
            let n = l.number;
            let value = |s: &str| num(src, n, s, "pktgen result");
            if let Some(c) = RESULT.captures(t) {
                pending = Some((n, value(&c[1])?, value(&c[2])?, c[3].to_string()));
                continue;
            }
            if let (Some(c), Some((at, usec, packets, size))) = (RATE.captures(t), pending.take()) {
                let mk = |line: u32, metric: &str, unit: &str, v: f64| {
                    Observation::new("pktgen", metric, unit, Stat::Sample, v)
                        .with_params(&[("pkt_size", size.as_str())])
                        .with_variant(variant.as_str())
                        .at_line(line)
                };
                parsed.observations.push(mk(at, "time", "us", usec));
                parsed.observations.push(mk(at, "packets", "", packets));
                parsed
                    .observations
                    .push(mk(n, "packet rate", "pps", value(&c[1])?));
                parsed
                    .observations
                    .push(mk(n, "bit rate", "bit/s", value(&c[3])?));
                parsed.observations.push(mk(n, "errors", "", value(&c[4])?));
                continue;
            }
            // The text above a result names it: `* With this patch:`; a
            // writer's sentence (`… Results are in packets per second.`)
            // names none.
            let sentence = t.ends_with('.') || t.split_whitespace().count() > NAME_WORDS;
            if !sentence
                && (!t.is_empty() && !t.bytes().any(|b| b.is_ascii_digit())
                    || t.starts_with(['*', '-']))
            {
                let name = t
                    .trim_start_matches(['*', '-', ' '])
                    .trim_end_matches(':')
                    .trim();
                if !name.is_empty() && name.len() <= 80 {
                    variant = name.to_string();
                    parsed.consumed.push(n);
                }
            }
        }
        Ok(parsed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_result_is_one_run_of_its_variant() {
        let src = Source::from_text(
            "m.txt",
            "* Without this patch:\n  Result: OK: 34205373(c34202809+d2564) usec, 100000000 (60byte,0frags)\n\
             \x20 2923517pps 1403Mb/sec (1403288160bps) errors: 0\n\n* With this patch:\n\
             \x20 Result: OK: 34106013(c34103172+d2841) usec, 100000000 (60byte,0frags)\n\
             \x20 2932034pps 1407Mb/sec (1407376320bps) errors: 0\n",
        );
        assert_eq!(Pktgen.detect(&src), 90);
        let rows = Pktgen.parse(&src).unwrap();
        let rates: Vec<(&str, &str, f64)> = rows
            .iter()
            .filter(|o| o.metric == "packet rate")
            .map(|o| (o.variant.as_str(), o.params.as_str(), o.value))
            .collect();
        assert_eq!(
            rates,
            [
                ("Without this patch", "pkt_size=60", 2923517.0),
                ("With this patch", "pkt_size=60", 2932034.0)
            ]
        );
        assert_eq!(rows.len(), 10);
        assert_eq!(rows[3].value, 1403288160.0);
    }

    #[test]
    fn a_sentence_above_a_result_names_no_run() {
        // Lines of a corpus post (a driver's transmit path): the last line
        // of the mail's opening paragraph comes before the first result.
        let src = Source::from_text(
            "m.txt",
            "interrupt count. Results are in packets per second.\n\n\
             Iteration 0 (under-clocked 1052.476 MHz):\n\
             Result: OK: 28910148(c28791584+d118564) usec, 4000000 (60byte,0frags)\n\
             \x20 138359pps 66Mb/sec (66412320bps) errors: 0\n",
        );
        let rows = Pktgen.parse(&src).unwrap();
        assert_eq!(rows.len(), 5);
        assert!(rows.iter().all(|o| o.variant.is_empty()), "{rows:#?}");
    }

    #[test]
    fn a_result_line_alone_is_not_pktgen() {
        let src = Source::from_text("m", "Result: OK: 5(c4+d1) usec, 10 (60byte,0frags)\n");
        assert_eq!(Pktgen.detect(&src), 0);
    }
}
