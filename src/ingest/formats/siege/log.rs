//! siege's log file (`siege.log`, `-l`): a line per run, `Date & Time,
//! Trans, Elap Time, Data Trans, Resp Time, Trans Rate, Throughput,
//! Concurrent, OKAY, Failed`, under that header, written once when the
//! file is made; `**** text ****` lines are the marks `-m` adds, each
//! the parameter `mark` of the runs after it.

use super::FIGURES;
use crate::error::Result;
use crate::ingest::shared::logscan::{num, Params};
use crate::ingest::{Confidence, Format, Parsed, Source};

/// The siege log importer.
pub struct SiegeLog;

/// The header's column names, when `text` is siege's log header.
fn header(text: &str) -> Option<Vec<&str>> {
    let cols: Vec<&str> = text.split(',').map(str::trim).collect();
    (cols.first() == Some(&"Date & Time") && cols.contains(&"Trans Rate")).then_some(cols)
}

impl Format for SiegeLog {
    fn name(&self) -> &'static str {
        "siege-log"
    }

    fn description(&self) -> &'static str {
        "siege's log file (siege.log: `Date & Time, Trans, Elap Time, …` header, a line per run, \
         `**** mark ****` lines)"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let first = src.lines.iter().find(|l| !l.text.trim().is_empty());
        if first.is_some_and(|l| header(&l.text).is_some()) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let mut cols: Vec<&str> = Vec::new();
        let mut params = Params::default();
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            if t.is_empty() {
                continue;
            }
            if let Some(h) = header(t) {
                cols = h;
                consumed.push(n);
                continue;
            }
            if let Some(mark) = t.strip_prefix("****").and_then(|m| m.strip_suffix("****")) {
                params.set("mark", mark.trim());
                consumed.push(n);
                continue;
            }
            let cells: Vec<&str> = t.split(',').map(str::trim).collect();
            if cols.is_empty() || cells.len() != cols.len() {
                skipped.push((
                    n,
                    format!("{} fields where the header has {}", cells.len(), cols.len()),
                ));
                continue;
            }
            for (col, cell) in cols.iter().zip(&cells).skip(1) {
                let Some((_, _, metric, unit)) =
                    FIGURES.iter().find(|f| !f.1.is_empty() && f.1 == *col)
                else {
                    continue;
                };
                let v = num(src, n, cell, col)?;
                out.push(super::figure(src, n, &params, metric, unit, v));
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no siege log line under the header",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;
    use crate::ingest::row_lines as rows;

    #[test]
    fn each_line_is_a_run_under_its_mark() {
        let p = parse_file(
            &SiegeLog,
            "tests/data/harness/siege/siege-log-two-marks.csv",
        );
        let r = rows(&p);
        assert_eq!(r.len(), 18);
        assert_eq!(r[0], "3 siege|mark=c2|transactions|hits=1660");
        assert_eq!(r[4], "3 siege|mark=c2|transaction rate|trans/s=517.13");
        assert_eq!(r[9 + 7], "5 siege|mark=c4|successful transactions|=1701");
        assert_eq!(p.consumed, vec![1, 2, 4]);
    }

    #[test]
    fn a_line_of_other_width_is_accounted_and_a_bad_cell_named() {
        let text = "Date & Time,  Trans,  Trans Rate\n2026-12-07 08:52:55,   1660\n\
                    2026-12-07 08:52:56, 3, 4.5\n";
        let p = SiegeLog
            .parse_accounted(&Source::from_text("s.log", text))
            .unwrap();
        assert_eq!(p.skipped[0].0, 2);
        let text = "Date & Time,  Trans,  Trans Rate\n2026-12-07 08:52:55, x, 1\n";
        let e = SiegeLog
            .parse_accounted(&Source::from_text("s.log", text))
            .unwrap_err();
        assert!(e.to_string().contains(":2"), "{e}");
    }
}
