//! hyperfine `--export-asciidoc`: a `[cols="<,>,>,>,>"]` table between
//! `|===` lines, one `| cell` per line, the header cells first and then
//! one block per command, blocks separated by blank lines. The cells mean
//! what the Markdown export's do (see [`crate::ingest::formats::hyperfine::markdown`]).

use crate::error::Result;
use crate::ingest::formats::hyperfine::markdown::row_values;
use crate::ingest::{Confidence, Format, Parsed, Source};

/// The hyperfine AsciiDoc export importer.
pub struct HyperfineAsciidoc;

/// The cell text of a `| cell` line.
fn cell(line: &str) -> Option<String> {
    let t = line.trim();
    let c = t.strip_prefix('|')?;
    (c.trim() != "===" && !t.starts_with("|===")).then(|| c.trim().to_string())
}

impl Format for HyperfineAsciidoc {
    fn name(&self) -> &'static str {
        "hyperfine-asciidoc"
    }

    fn description(&self) -> &'static str {
        "hyperfine --export-asciidoc: `|===` table of `| Command`, `| Mean [unit]` … cell lines"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let head: Vec<&str> = src.lines.iter().take(5).map(|l| l.text.trim()).collect();
        let opens = head.contains(&"|===");
        let command = head.iter().any(|t| t.starts_with("| Command"));
        if opens && command {
            92
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut header: Option<Vec<String>> = None;
        let mut block: Vec<String> = Vec::new();
        let mut block_line = 0;
        let mut consumed = Vec::new();
        let mut flush = |block: &mut Vec<String>, line: u32| -> Result<()> {
            if block.is_empty() {
                return Ok(());
            }
            let row = std::mem::take(block);
            let Some(h) = header.as_ref() else {
                header = Some(row);
                return Ok(());
            };
            if h.len() != row.len() {
                return Err(src.error(
                    Some(line),
                    format!(
                        "expected {} cells like the header, found {}",
                        h.len(),
                        row.len()
                    ),
                ));
            }
            out.extend(row_values(src, line, h, &row)?);
            Ok(())
        };
        for l in &src.lines {
            let t = l.text.trim();
            match cell(t) {
                Some(c) => {
                    if block.is_empty() {
                        block_line = l.number;
                    }
                    block.push(c);
                }
                None => {
                    flush(&mut block, block_line)?;
                    if !t.is_empty() {
                        consumed.push(l.number);
                    }
                }
            }
        }
        flush(&mut block, block_line)?;
        Ok(Parsed {
            observations: out,
            consumed,
            skipped: Vec::new(),
            ..Parsed::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Stat;

    #[test]
    fn commands_and_their_summaries() {
        let p = crate::ingest::parse_file(
            &HyperfineAsciidoc,
            "tests/data/harness/hyperfine/adoc-two.adoc",
        );
        let got: Vec<(&str, Stat, f64)> = p
            .observations
            .iter()
            .map(|o| (o.benchmark.as_str(), o.stat, o.value))
            .collect();
        assert_eq!(
            got,
            vec![
                ("sleep 0.01", Stat::Mean, 14.3),
                ("sleep 0.01", Stat::Stddev, 2.1),
                ("sleep 0.01", Stat::Min, 11.3),
                ("sleep 0.01", Stat::Max, 16.0),
                ("sleep 0.02", Stat::Mean, 23.2),
                ("sleep 0.02", Stat::Stddev, 1.3),
                ("sleep 0.02", Stat::Min, 21.3),
                ("sleep 0.02", Stat::Max, 24.6),
            ]
        );
        assert_eq!(p.observations[0].unit, "ms");
        assert_eq!(p.observations[4].line, 15);
    }

    #[test]
    fn a_scan_gives_one_row_per_command() {
        let p = crate::ingest::parse_file(
            &HyperfineAsciidoc,
            "tests/data/harness/hyperfine/adoc-scan.adoc",
        );
        assert_eq!(p.observations.len(), 12);
        assert_eq!(p.observations[0].benchmark, "sleep 0.001");
    }
}
