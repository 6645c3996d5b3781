//! Phoronix Test Suite results as text (`phoronix-test-suite
//! result-file-to-text NAME`, also what `show-result` prints): each test a
//! block of its title and version, its description, a `<unit> > Higher Is
//! Better` line and a bar per system, `runA . 4155.76  |=====`.
//!
//! Each bar gives the system's result (the mean the suite computed): the
//! names agree with the XML, JSON and CSV readers' (title without its
//! version the benchmark, description the parameters, system the variant).

use crate::error::Result;
use crate::ingest::formats::phoronix::description_params;
use crate::ingest::shared::logscan::{lazy_re, num};
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Direction, Observation, Stat};

/// A test's title, parameters, unit and direction, from its block.
type Test = (String, Vec<(String, String)>, String, Direction);

/// The Phoronix Test Suite text-result importer.
pub struct PhoronixText;

// `MiB/sec > Higher Is Better`, `Seconds < Lower Is Better`.
lazy_re!(SCALE, r"^\s*(.*?)\s*[<>]\s*(Higher|Lower) Is Better$");
// `runA . 4155.76  |=====`: the dots pad the identifier to the longest.
lazy_re!(BAR, r"^\s*(\S.*?)\s+\.+\s+(-?[\d.]+(?:[eE][-+]?\d+)?)\s*\|");

/// The test's title over its scale line, without the version the text
/// adds (`Sysbench Local 1.0.20`), and its description when it has one.
fn title_and_description<'a>(block: &[&'a str]) -> (&'a str, &'a str) {
    let title = block.first().copied().unwrap_or("phoronix").trim();
    let title = match title.rsplit_once(' ') {
        Some((head, v))
            if v.trim_start_matches('v')
                .starts_with(|c: char| c.is_ascii_digit())
                && v.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_')) =>
        {
            head.trim_end()
        }
        _ => title,
    };
    (title, block.get(1).map_or("", |d| d.trim()))
}

impl Format for PhoronixText {
    fn name(&self) -> &'static str {
        "phoronix-text"
    }

    fn description(&self) -> &'static str {
        "Phoronix Test Suite result-file-to-text: each system's result per test"
    }

    fn detect(&self, src: &Source) -> Confidence {
        // The scale line right above a bar line: only this output has both.
        let found = src.lines.windows(2).take(20_000).any(|w| {
            w[0].text.contains(" Is Better")
                && SCALE.is_match(&w[0].text)
                && BAR.is_match(&w[1].text)
        });
        if found {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut consumed = Vec::new();
        // The lines of the block so far (title, description), and the test
        // they name once its scale line is read.
        let mut block: Vec<&str> = Vec::new();
        // Their line numbers: consumed once a scale line shows they title a
        // result, left unaccounted otherwise (a mail quoting one chart has
        // prose and other tables the document reader then reads).
        let mut block_lines: Vec<u32> = Vec::new();
        let mut test: Option<Test> = None;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.as_str());
            if t.trim().is_empty() {
                block.clear();
                block_lines.clear();
                test = None;
                continue;
            }
            if let Some(c) = SCALE.captures(t) {
                let (title, desc) = title_and_description(&block);
                let direction = if &c[2] == "Higher" {
                    Direction::Higher
                } else {
                    Direction::Lower
                };
                test = Some((
                    title.to_string(),
                    description_params(desc),
                    c[1].to_string(),
                    direction,
                ));
                consumed.append(&mut block_lines);
                consumed.push(n);
                continue;
            }
            if let (Some(c), Some((title, params, unit, direction))) = (BAR.captures(t), &test) {
                let value = num(src, n, &c[2], "result")?;
                let mut o = Observation::new(title, "result", unit, Stat::Mean, value)
                    .with_params(params)
                    .with_variant(&c[1])
                    .at_line(n);
                o.direction = Some(*direction);
                out.push(o);
                continue;
            }
            // Title, description, the systems' components: what the results
            // are of.
            block.push(t);
            block_lines.push(n);
        }
        Parsed::found(
            src,
            out,
            consumed,
            Vec::new(),
            "a Phoronix text result without a result bar",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_lines_that_title_a_result_are_taken_as_its_context() {
        // A mail quoting one chart: its prose and the table after it are
        // left for the document reader, not swallowed as context.
        let src = Source::from_text(
            "mail.txt",
            "The quoted run:\n\nSQLite 3.30.1\nSeconds < Lower Is Better\n\
             5.3.0 ..... 225 |=====\n\nOur own numbers:\n\
             Hmean  Trans  2399.39  2602.73\n",
        );
        let p = PhoronixText.parse_accounted(&src).unwrap();
        assert_eq!(p.observations.len(), 1);
        assert_eq!(p.consumed, vec![3, 4]);
    }

    #[test]
    fn each_bar_is_its_system_s_result() {
        let src = Source::from_text(
            "r.txt",
            "Sysbench Local 1.0.20\nTest: CPU\nEvents Per Second > Higher Is Better\n\
             runA . 6537.71 |=====\nrunB . 7234.71 |======\n",
        );
        assert_eq!(PhoronixText.detect(&src), 95);
        let rows = PhoronixText.parse(&src).unwrap();
        let got: Vec<(&str, &str, &str, &str, f64)> = rows
            .iter()
            .map(|o| {
                (
                    o.benchmark.as_str(),
                    o.params.as_str(),
                    o.variant.as_str(),
                    o.unit.as_str(),
                    o.value,
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (
                    "Sysbench Local",
                    "test=CPU",
                    "runA",
                    "Events Per Second",
                    6537.71
                ),
                (
                    "Sysbench Local",
                    "test=CPU",
                    "runB",
                    "Events Per Second",
                    7234.71
                ),
            ]
        );
        assert_eq!(rows[0].direction, Some(Direction::Higher));
    }
}
