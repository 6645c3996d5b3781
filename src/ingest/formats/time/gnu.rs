//! GNU `/usr/bin/time -v` (tab-indented `Key: value` lines, on stderr).
//! Benchmark = the timed command (`Command being timed: "make -j2"`); each
//! block (several may be appended to one file) is one run, every value a
//! `sample`: `real` (s, from `Elapsed (wall clock) time`, `h:mm:ss` or
//! `m:ss.ss`), `user`, `sys` (s), `cpu` (%), `max rss` (KiB), `major faults`,
//! `minor faults`, `voluntary context switches`, `involuntary context
//! switches`, `fs inputs`, `fs outputs`. A run that exited non-zero is
//! refused: its timings are not those of the work being measured.

use crate::error::Result;
use crate::ingest::shared::logscan::{any_with, lazy_re, num};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(COMMAND, r#"^\s*Command being timed: "(.*)"\s*$"#);
lazy_re!(
    ELAPSED,
    r"^\s*Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):(\d+(?:\.\d+)?)\s*$"
);
lazy_re!(KV, r"^\s+([A-Z][^:]*): (\S+)\s*$");

/// The GNU time -v importer.
pub struct GnuTime;

/// Metric and unit of a `-v` key worth comparing.
fn key(k: &str) -> Option<(&'static str, &'static str)> {
    Some(match k {
        "User time (seconds)" => ("user", "s"),
        "System time (seconds)" => ("sys", "s"),
        "Percent of CPU this job got" => ("cpu", "%"),
        "Maximum resident set size (kbytes)" => ("max rss", "KiB"),
        "Major (requiring I/O) page faults" => ("major faults", ""),
        "Minor (reclaiming a frame) page faults" => ("minor faults", ""),
        "Voluntary context switches" => ("voluntary context switches", ""),
        "Involuntary context switches" => ("involuntary context switches", ""),
        "File system inputs" => ("fs inputs", ""),
        "File system outputs" => ("fs outputs", ""),
        _ => return None,
    })
}

impl Format for GnuTime {
    fn name(&self) -> &'static str {
        "gnu-time"
    }

    fn description(&self) -> &'static str {
        "GNU time -v: `Command being timed: \"…\"` + `Elapsed (wall clock) time (h:mm:ss or m:ss):`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        match (
            any_with(src, "Command being timed: ", &COMMAND),
            any_with(src, "Elapsed (wall clock) time ", &ELAPSED),
        ) {
            (true, true) => 95,
            (false, true) => 70,
            (true, false) => 40,
            _ => 0,
        }
    }

    /// The command and exit status lines are `consumed`; fields Linux never
    /// fills in and the page size are `skipped` with that reason. A field
    /// this importer does not know stays unread.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut consumed = Vec::new();
        let mut skipped = Vec::new();
        let mut bench = "time".to_string();
        let mut block_start: Option<(u32, usize, bool)> = None;
        for l in &src.lines {
            let t = l.text.as_str();
            let n = l.number;
            if let Some(c) = COMMAND.captures(t) {
                check_block(src, block_start)?;
                bench = c[1].trim().to_string();
                block_start = Some((n, out.len(), false));
                consumed.push(n);
            } else if let Some(c) = ELAPSED.captures(t) {
                let h = c
                    .get(1)
                    .map(|m| num(src, n, m.as_str(), "hours"))
                    .transpose()?
                    .unwrap_or(0.0);
                let m = num(src, n, &c[2], "minutes")?;
                let s = num(src, n, &c[3], "seconds")?;
                out.push(
                    Row::at(src, n)
                        .benchmark(&bench)
                        .metric("real")
                        .unit("s")
                        .sample(h * 3600.0 + m * 60.0 + s),
                );
                if let Some(b) = block_start.as_mut() {
                    b.2 = true;
                }
            } else if let Some(c) = KV.captures(t) {
                if &c[1] == "Exit status" {
                    if c[2].trim() != "0" {
                        return Err(src.error(
                            Some(n),
                            format!("the timed command exited with status {}: its timings are not comparable", &c[2]),
                        ));
                    }
                    consumed.push(n);
                    continue;
                }
                let Some((metric, unit)) = key(&c[1]) else {
                    if let Some(why) = not_measured(&c[1]) {
                        skipped.push((n, why.to_string()));
                    }
                    continue;
                };
                let v = num(src, n, c[2].trim_end_matches('%'), metric)?;
                out.push(
                    Row::at(src, n)
                        .benchmark(&bench)
                        .metric(metric)
                        .unit(unit)
                        .sample(v),
                );
            }
        }
        check_block(src, block_start)?;
        Parsed::found(src, out, consumed, skipped, "no GNU time -v values found")
    }
}

/// Why a `time -v` field that is printed but not read carries no
/// measurement: Linux's getrusage leaves these fields at zero (see
/// getrusage(2), "unmaintained"), and the page size is a constant.
fn not_measured(key: &str) -> Option<&'static str> {
    match key.trim() {
        "Average shared text size (kbytes)"
        | "Average unshared data size (kbytes)"
        | "Average stack size (kbytes)"
        | "Average total size (kbytes)"
        | "Average resident set size (kbytes)"
        | "Swaps"
        | "Socket messages sent"
        | "Socket messages received"
        | "Signals delivered" => Some("not maintained by Linux getrusage (always 0)"),
        "Page size (bytes)" => Some("page size: a system constant, not a measurement"),
        _ => None,
    }
}

/// A block must have its wall-clock line, or the log was cut.
fn check_block(src: &Source, block: Option<(u32, usize, bool)>) -> Result<()> {
    match block {
        Some((line, _, false)) => Err(src.error(
            Some(line),
            "GNU time block without its `Elapsed (wall clock) time` line (truncated?)",
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unmaintained_fields_are_skipped_and_unknown_ones_stay_unread() {
        let text = "\tCommand being timed: \"make -j2\"\n\
                    \tElapsed (wall clock) time (h:mm:ss or m:ss): 0:02.40\n\
                    \tAverage stack size (kbytes): 0\n\
                    \tSwaps: 0\n\
                    \tPage size (bytes): 4096\n\
                    \tSome future field (kbytes): 12\n\
                    \tExit status: 0\n";
        let p = GnuTime
            .parse_accounted(&Source::from_text("time.txt", text))
            .unwrap();
        assert_eq!(p.consumed, vec![1, 7]);
        let skipped: Vec<u32> = p.skipped.iter().map(|(l, _)| *l).collect();
        assert_eq!(skipped, vec![3, 4, 5]);
        assert!(p.skipped[0].1.contains("getrusage"));
        assert!(p.skipped[2].1.contains("page size"));
        // Line 6 is neither: the driver reports it as unread.
        assert_eq!(p.observations.len(), 1);
        assert_eq!(p.observations[0].value, 2.4);
    }
}
