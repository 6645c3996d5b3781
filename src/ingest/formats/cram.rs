//! Cram (and prysk) test files, as projects keep them in their test
//! suites (sysbench's `tests/t/*.t`): comment lines at the margin, commands
//! indented two spaces after `$ `, and the output the test expects under
//! each, where a line ending in ` (glob)` or ` (re)` is a pattern
//! (`events per second: *.* (glob)`). The figures in such a file are what
//! a test matches against, not what a run measured: the file is
//! recognised and every line with a figure is left out with that reason,
//! so that it is refused by name instead of being read as a table.

use crate::error::Result;
use crate::ingest::{Confidence, Format, Parsed, Source};

/// The cram test file recogniser.
pub struct Cram;

/// Whether a line is a command of the test (`  $ sysbench cpu run`).
fn is_command(text: &str) -> bool {
    text.starts_with("  $ ")
}

/// Whether a line is an expected output line that is a pattern.
fn is_pattern(text: &str) -> bool {
    text.starts_with("  ") && (text.ends_with(" (glob)") || text.ends_with(" (re)"))
}

impl Format for Cram {
    fn name(&self) -> &'static str {
        "cram"
    }

    fn description(&self) -> &'static str {
        "cram/prysk test files (`  $ command` lines, expected output with `(glob)`/`(re)` patterns): recognised and refused, their figures are expectations, not measurements"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let commands = src.lines.iter().filter(|l| is_command(&l.text)).count();
        let patterns = src.lines.iter().filter(|l| is_pattern(&l.text)).count();
        // Every other line is indented output or a comment at the margin;
        // a command and a pattern both say it is a test, not a transcript.
        if commands >= 1 && patterns >= 1 {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let skipped = src
            .lines
            .iter()
            .filter(|l| l.text.bytes().any(|b| b.is_ascii_digit()))
            .map(|l| {
                let why = if is_command(&l.text) || l.text.starts_with("  > ") {
                    "a command of a cram test, not a result"
                } else if l.text.starts_with("  ") {
                    "output a cram test expects (its figures are what the test matches, not a measurement)"
                } else {
                    "a comment of a cram test"
                };
                (l.number, why.to_string())
            })
            .collect();
        Ok(Parsed {
            skipped,
            ..Parsed::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cram_test_is_recognised_and_every_figure_left_out() {
        let path = "tests/data/harness/cram/sysbench-test_cpu.t";
        let src = Source::read(std::path::Path::new(path)).unwrap();
        assert_eq!(Cram.detect(&src), 95);
        let p = Cram.parse_accounted(&src).unwrap();
        assert!(p.observations.is_empty());
        // `  $ args="cpu --cpu-max-prime=1000 --events=100 --threads=2"`
        assert_eq!(p.skipped[0].0, 4);
        assert!(p.skipped[0].1.starts_with("a command"));
        let events = p.skipped.iter().find(|(n, _)| *n == 36).unwrap();
        assert!(events.1.starts_with("output a cram test expects"));
    }

    #[test]
    fn a_shell_transcript_without_patterns_is_not_a_cram_test() {
        let text = "  $ sysbench cpu run\n  events per second:  1003.56\n";
        assert_eq!(Cram.detect(&Source::from_text("x.txt", text)), 0);
    }
}
