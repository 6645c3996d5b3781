//! vm-scalability: each case script (`./case-truncate`, usually behind the
//! timestamp of the harness that runs it) starts its processes, and each
//! process prints one line: usemem's `12884901888 bytes / 859434826 usecs =
//! 14640 KB/s`, the truncate cases' `67424993280 bytes truncated in
//! END-START seconds` (and `… bytes faulted in END-START seconds`), or dd's
//! `… copied, S s, R MB/s`; usemem also prints `11880398 usecs to free
//! memory`.
//!
//! Benchmark the case (`case-truncate`; `vm-scalability` when no case line
//! is kept); per run of the case, `throughput` (KB/s) is the sum of its
//! concurrent processes' rates, and `fault throughput` likewise, with
//! parameter `processes`; each process's `free time` (us) is a sample.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Observation;

lazy_re!(CASE, r"(?:^|\s)\./(case-[a-z0-9-]+)\s*$");
lazy_re!(USEMEM, r"^\.*(\d+) bytes / (\d+) usecs = (\d+) KB/s\s*$");
lazy_re!(
    SPAN,
    r"^(\d+) bytes (truncated|faulted) in (\d+)(\.\d+)?-(\d+)(\.\d+)? seconds\s*$"
);
lazy_re!(
    DD,
    r"^(\d+) bytes \([0-9.]+ .B(?:, [0-9.]+ .iB)?\) copied, ([0-9.]+) s, [0-9.]+ .B/s\s*$"
);
lazy_re!(FREE, r"^(\d+) usecs to free memory\s*$");
lazy_re!(STAMPED, r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s");

/// The vm-scalability importer.
pub struct VmScalability;

impl Format for VmScalability {
    fn name(&self) -> &'static str {
        "vm-scalability"
    }

    fn description(&self) -> &'static str {
        "vm-scalability: its case scripts' per-process lines (usemem's `bytes / usecs = KB/s`, `bytes truncated|faulted in END-START seconds`, `usecs to free memory`), summed per run of a case"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let own = |t: &str| USEMEM.is_match(t) || SPAN.is_match(t) || FREE.is_match(t);
        if src.lines.iter().take(2000).any(|l| own(l.text.trim())) {
            90
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut r = Reader::default();
        for l in &src.lines {
            r.line(src, l.number, l.text.trim())?;
        }
        r.end_run(src);
        Parsed::found(
            src,
            r.out,
            r.consumed,
            r.skipped,
            "no vm-scalability process line (`N bytes / U usecs = K KB/s`, `N bytes truncated in END-START seconds`)",
        )
    }
}

/// One run of a case: its processes' rates, summed at its end.
#[derive(Default)]
struct Run {
    /// The first line of the run's rates, where its rows are placed.
    line: u32,
    rates: Vec<f64>,
    faults: Vec<f64>,
}

#[derive(Default)]
struct Reader {
    case: Option<String>,
    run: Run,
    out: Vec<Observation>,
    consumed: Vec<u32>,
    skipped: Vec<(u32, String)>,
}

impl Reader {
    fn line(&mut self, src: &Source, n: u32, t: &str) -> Result<()> {
        if let Some(c) = CASE.captures(t) {
            self.end_run(src);
            self.case = Some(c[1].to_string());
            self.consumed.push(n);
        } else if let Some(c) = USEMEM.captures(t) {
            let v = num(src, n, &c[3], "KB/s")?;
            self.add(n, v, false);
        } else if let Some(c) = SPAN.captures(t) {
            let v = span_rate(src, n, &c)?;
            self.add(n, v, &c[2] == "faulted");
        } else if let Some(c) = DD.captures(t) {
            let secs = num(src, n, &c[2], "seconds")?;
            let bytes = num(src, n, &c[1], "bytes")?;
            self.add(n, kib(bytes) / secs, false);
        } else if let Some(c) = FREE.captures(t) {
            let v = num(src, n, &c[1], "usecs to free memory")?;
            let row = self.row(src, n, "free time", "us", &Params::default());
            self.out.push(row.sample(v));
        } else if STAMPED.is_match(t) {
            // The commands a case script runs print sizes it chose, not results.
            self.skipped.push((
                n,
                "a command a case script runs, behind a timestamp (its numbers are settings)"
                    .to_string(),
            ));
        }
        Ok(())
    }

    fn add(&mut self, n: u32, rate: f64, fault: bool) {
        if self.run.rates.is_empty() && self.run.faults.is_empty() {
            self.run.line = n;
        }
        if fault {
            self.run.faults.push(rate);
        } else {
            self.run.rates.push(rate);
        }
        self.consumed.push(n);
    }

    /// The suite's throughput is what the concurrent processes of one run
    /// achieve together, so a run's rates are summed.
    fn end_run(&mut self, src: &Source) {
        let run = std::mem::take(&mut self.run);
        for (metric, rates) in [("throughput", run.rates), ("fault throughput", run.faults)] {
            if rates.is_empty() {
                continue;
            }
            let mut params = Params::default();
            params.set("processes", rates.len().to_string());
            let row = self.row(src, run.line, metric, "KB/s", &params);
            self.out.push(row.sample(rates.iter().sum()));
        }
    }

    fn row(&self, src: &Source, n: u32, metric: &str, unit: &str, params: &Params) -> Row {
        let case = self.case.as_deref().unwrap_or("vm-scalability");
        Row::at(src, n)
            .benchmark(case)
            .params(&params.render())
            .metric(metric)
            .unit(unit)
    }
}

/// KiB, as the suite counts the bytes of a rate in KB/s.
fn kib(bytes: f64) -> f64 {
    (bytes / 1024.0).floor()
}

/// The rate of `N bytes truncated in END-START seconds`. The timestamps are
/// epoch seconds with nanoseconds: subtracted as floats they would keep
/// only a few digits of a span of milliseconds, so they are subtracted as
/// integers of their finest decimal.
fn span_rate(src: &Source, n: u32, c: &regex::Captures) -> Result<f64> {
    let bytes = num(src, n, &c[1], "bytes")?;
    let frac = |i: usize| c.get(i).map_or("", |m| &m.as_str()[1..]);
    let digits = frac(4).len().max(frac(6).len()).min(18);
    let ticks = |whole: usize, part: usize| -> Option<i128> {
        let f = frac(part);
        let f = &f[..f.len().min(digits)];
        let scaled = format!("{}{}{}", &c[whole], f, "0".repeat(digits - f.len()));
        scaled.parse::<i128>().ok()
    };
    let (Some(end), Some(start)) = (ticks(3, 4), ticks(5, 6)) else {
        return Err(src.error(Some(n), "vm-scalability span: a timestamp too long to read"));
    };
    if end <= start {
        return Err(src.error(
            Some(n),
            "vm-scalability span: its end is not after its start",
        ));
    }
    let secs = (end - start) as f64 / 10f64.powi(digits as i32);
    Ok(kib(bytes) / secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Parsed> {
        VmScalability.parse_accounted(&Source::from_text("vm.txt", text))
    }

    #[test]
    fn each_run_of_a_case_sums_its_processes() {
        let p = read(
            "2026-01-01 00:00:00  ./case-anon-w-seq\n\
             100 bytes / 10 usecs = 2000 KB/s\n\
             .100 bytes / 10 usecs = 3000 KB/s\n\
             2026-01-01 00:00:09  ./case-anon-w-seq\n\
             100 bytes / 10 usecs = 2500 KB/s\n\
             2048 bytes (2.0 kB, 2.0 KiB) copied, 0.5 s, 4.1 kB/s\n",
        )
        .unwrap();
        let got: Vec<_> = p
            .observations
            .iter()
            .map(|o| (o.benchmark.as_str(), o.params.as_str(), o.value, o.line))
            .collect();
        assert_eq!(
            got,
            [
                ("case-anon-w-seq", "processes=2", 5000.0, 2),
                ("case-anon-w-seq", "processes=2", 2504.0, 5),
            ]
        );
    }

    #[test]
    fn a_span_that_ends_before_it_starts_names_its_line() {
        let e = read("1024 bytes truncated in 5.0-6.0 seconds\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("vm.txt:1") && e.contains("not after"), "{e}");
    }
}
