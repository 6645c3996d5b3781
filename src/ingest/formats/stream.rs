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
//! one run per table. A run whose validation after its table failed
//! (`Failed Validation on array a[]`) is left out with that reason, and a
//! file of such runs only is refused.

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
lazy_re!(FAILED, r"^Failed Validation on array [abc]\[\]");
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
        let mut out: Vec<crate::model::Observation> = Vec::new();
        let mut skipped: Vec<(u32, String)> = Vec::new();
        let mut params = Params::default();
        let mut in_table = false;
        // Where the rows of the latest table start in `out`, and the first
        // line that failed validation.
        let mut run_start = 0;
        let mut first_failure: Option<u32> = None;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            if HEADER.is_match(t) {
                in_table = true;
                run_start = out.len();
            } else if FAILED.is_match(t) {
                // STREAM checks its arrays after printing the table: wrong
                // values mean the timed loops did not do the work the
                // rates are computed from.
                first_failure.get_or_insert(n);
                let why = format!(
                    "the run failed STREAM's validation (line {n}: its arrays hold wrong values), so its rates are not of the work they are computed from"
                );
                skipped.extend(out.drain(run_start..).map(|o| (o.line, why.clone())));
                skipped.dedup();
                skipped.push((n, why));
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
        let consumed = Parsed::frame_lines(src, &out, &skipped);
        let why = match first_failure {
            Some(n) => format!(
                "every STREAM run failed its validation (first at line {n}: `Failed Validation on array …`): no rate of correct work to read"
            ),
            None => {
                "no `Copy:`/`Scale:`/`Add:`/`Triad:` row under STREAM's `Function … Rate` header"
                    .to_string()
            }
        };
        Parsed::found(src, out, consumed, skipped, why)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: &str = "Function      Rate (MB/s)   Avg time     Min time     Max time\nCopy:        4012.3456       0.0080       0.0079       0.0081\nTriad:       4511.0000       0.0107       0.0106       0.0109\n";

    /// Two runs, the second failing validation, in the wording of
    /// stream.c 5.10's checkSTREAMresults.
    const FAILING: &str = "Function    Best Rate MB/s  Avg time     Min time     Max time\n\
        Copy:           25956.9     0.006271     0.006164     0.006907\n\
        -------------------------------------------------------------\n\
        Solution Validates: avg error less than 1.000000e-13 on all three arrays\n\
        Function    Best Rate MB/s  Avg time     Min time     Max time\n\
        Copy:           99999.9     0.001000     0.001000     0.001000\n\
        -------------------------------------------------------------\n\
        Failed Validation on array a[], AvgRelAbsErr > epsilon (1.000000e-13)\n\
        \x20    Expected Value: 1.153301e+12, AvgAbsErr: 1.153301e+12, AvgRelAbsErr: 1.000000e+00\n\
        \x20    For array a[], 10000000 errors were found.\n";

    #[test]
    fn a_run_that_failed_validation_is_left_out_with_the_reason() {
        let p = Stream
            .parse_accounted(&Source::from_text("s.txt", FAILING))
            .unwrap();
        assert!(p.observations.iter().all(|o| o.line == 2));
        assert_eq!(p.observations[0].value, 25956.9);
        assert!(p
            .skipped
            .iter()
            .any(|(l, why)| *l == 6 && why.contains("line 8")));
        // The failing run alone is refused, naming the failure's line.
        let only = FAILING.lines().skip(4).collect::<Vec<_>>().join("\n");
        let e = Stream
            .parse_accounted(&Source::from_text("s.txt", &only))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("line 4") && e.contains("failed its validation"),
            "{e}"
        );
    }

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
