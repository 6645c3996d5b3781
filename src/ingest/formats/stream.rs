//! STREAM, the memory bandwidth benchmark: after its banner (`Array size =
//! 10000000 (elements)`, `Number of Threads counted = 4` with OpenMP), a
//! table of the four kernels, `Copy:  25956.9  0.006271  0.006164
//! 0.006907`, under `Function    Best Rate MB/s  Avg time  Min time  Max
//! time` (`Rate (MB/s)` in versions before 5.9).
//!
//! Benchmark `stream`, the kernel as parameter `function` (with the array
//! size and thread count where stated); metrics `bandwidth` (MB/s, the
//! best rate) and `avg time`, `min time`, `max time` (s), each a sample of
//! the run: a log of several runs (a shell loop, LKP's iterations) gives
//! one run per table.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(
    HEADER,
    r"^Function\s+(?:Best\s+)?Rate\s*\(?MB/s\)?\s+Avg time\s+Min time\s+Max time\s*$"
);
lazy_re!(
    KERNEL,
    r"^(Copy|Scale|Add|Triad):\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*$"
);
lazy_re!(ARRAY, r"^Array size = (\d+)");
lazy_re!(THREADS, r"^Number of Threads (?:counted|requested) = (\d+)");

/// The STREAM importer.
pub struct Stream;

impl Format for Stream {
    fn name(&self) -> &'static str {
        "stream"
    }

    fn description(&self) -> &'static str {
        "STREAM: the Copy/Scale/Add/Triad table under `Function  Best Rate MB/s  Avg time  Min time  Max time`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let mut header = false;
        for l in src.lines.iter().take(20_000) {
            let t = l.text.trim();
            if HEADER.is_match(t) {
                header = true;
            } else if header && KERNEL.is_match(t) {
                return 96;
            }
        }
        0
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut params = Params::default();
        let mut in_table = false;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            if HEADER.is_match(t) {
                in_table = true;
            } else if let Some(c) = KERNEL.captures(t).filter(|_| in_table) {
                let mut p = params.clone();
                p.set("function", c[1].to_ascii_lowercase());
                let p = p.render();
                let row = |metric: &str, unit: &str, at: usize| -> Result<_> {
                    let v = num(src, n, &c[at], metric)?;
                    Ok(Row::at(src, n)
                        .benchmark("stream")
                        .params(&p)
                        .metric(metric)
                        .unit(unit)
                        .sample(v))
                };
                out.push(row("bandwidth", "MB/s", 2)?);
                out.push(row("avg time", "s", 3)?);
                out.push(row("min time", "s", 4)?);
                out.push(row("max time", "s", 5)?);
            } else if t.starts_with('-') && t.chars().all(|c| c == '-') {
                // The rule under the table closes it.
                in_table = false;
            } else if let Some(c) = ARRAY.captures(t) {
                params.set("array_size", &c[1]);
            } else if let Some(c) = THREADS.captures(t) {
                params.set("threads", &c[1]);
            }
        }
        // Everything else is STREAM's banner (memory sizes, clock
        // granularity, its advice, the validation line) and a wrapper's
        // commands: the frame of the tables, not results.
        let consumed = Parsed::frame_lines(src, &out, &[]);
        Parsed::found(
            src,
            out,
            consumed,
            Vec::new(),
            "no `Copy:`/`Scale:`/`Add:`/`Triad:` row under STREAM's `Function … Rate` header",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: &str = "Function      Rate (MB/s)   Avg time     Min time     Max time\nCopy:        4012.3456       0.0080       0.0079       0.0081\nTriad:       4511.0000       0.0107       0.0106       0.0109\n";

    #[test]
    fn the_older_header_and_its_rows() {
        let src = Source::from_text("s.txt", OLD);
        assert_eq!(Stream.detect(&src), 96);
        let p = Stream.parse_accounted(&src).unwrap();
        let got: Vec<(&str, &str, f64)> = p
            .observations
            .iter()
            .map(|o| (o.params.as_str(), o.metric.as_str(), o.value))
            .collect();
        assert_eq!(got[0], ("function=copy", "bandwidth", 4012.3456));
        assert_eq!(got[7], ("function=triad", "max time", 0.0109));
        assert_eq!(got.len(), 8);
    }

    #[test]
    fn a_cell_that_is_no_number_is_an_error_at_its_line() {
        let bad = OLD.replace("0.0107", "0.01x7");
        let e = Stream
            .parse_accounted(&Source::from_text("s.txt", &bad))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("s.txt:3"), "{e}");
    }
}
