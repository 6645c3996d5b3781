//! PostMark (the small-file benchmark): under its banner `PostMark v1.51 :
//! 8/14/01`, the default report's `Time:`, `Files:` and `Data:` blocks
//! (`10582 created (10582 per second)`, `Creation alone: 500 files (500
//! per second)`, `64.60 megabytes read (64.60 megabytes per second)`), or,
//! with `set report terse`, one line of 13 numbers: total and transaction
//! seconds, then the rates the default report gives, bytes per second for
//! the data.
//!
//! Benchmark `postmark`; metrics `time total` and `transaction time` (s),
//! `transactions` (/s), for files `created`, `read`, `appended`, `deleted`,
//! `creation alone`, `creation mixed with transactions`, `deletion alone`,
//! `deletion mixed with transactions` (a count, and the rate as `<name>
//! rate`, files/s), `data read` and `data written` (MiB, and MiB/s; the
//! terse line's B/s). Each a `sample` of the run; a log of several runs
//! gives one run each.

use crate::error::Result;
use crate::ingest::shared::logscan::{has, lazy_re, num};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(BANNER, r"^PostMark v\d");
lazy_re!(TOTAL, r"^\s*(\d+) seconds total\s*$");
lazy_re!(
    TRANSACTIONS,
    r"^\s*(\d+) seconds of transactions \((\d+(?:\.\d+)?) per second\)\s*$"
);
lazy_re!(
    FILES,
    r"^\s*(\d+) (created|read|appended|deleted) \((\d+(?:\.\d+)?) per second\)\s*$"
);
lazy_re!(
    PART,
    r"^\s*(Creation alone|Deletion alone|Mixed with transactions): (\d+) files \((\d+(?:\.\d+)?) per second\)\s*$"
);
lazy_re!(
    DATA,
    r"^\s*([\d.]+) (?:megabytes|kilobytes|bytes) (read|written) \(([\d.]+) (megabytes|kilobytes|bytes) per second\)\s*$"
);
lazy_re!(TERSE, r"^\s*\d+ \d+(?: \d+\.\d+){11}\s*$");

/// The terse line's figures after the two times, as the default report
/// names them.
const TERSE_RATES: [(&str, &str); 11] = [
    ("transactions", "/s"),
    ("created rate", "files/s"),
    ("creation alone rate", "files/s"),
    ("creation mixed with transactions rate", "files/s"),
    ("read rate", "files/s"),
    ("appended rate", "files/s"),
    ("deleted rate", "files/s"),
    ("deletion alone rate", "files/s"),
    ("deletion mixed with transactions rate", "files/s"),
    ("data read rate", "B/s"),
    ("data written rate", "B/s"),
];

/// The PostMark importer.
pub struct Postmark;

/// PostMark's data unit: its megabyte is 2^20 bytes.
fn data_unit(word: &str) -> &'static str {
    match word {
        "megabytes" => "MiB",
        "kilobytes" => "KiB",
        _ => "B",
    }
}

impl Format for Postmark {
    fn name(&self) -> &'static str {
        "postmark"
    }

    fn description(&self) -> &'static str {
        "PostMark: `PostMark v1.51` banner, the `Time:`/`Files:`/`Data:` report or the terse line of 13 numbers"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if !has(src, "PostMark v") || !src.lines.iter().any(|l| BANNER.is_match(&l.text)) {
            return 0;
        }
        let report = src.lines.iter().any(|l| {
            TRANSACTIONS.is_match(&l.text) || FILES.is_match(&l.text) || TERSE.is_match(&l.text)
        });
        if report {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed) = (Vec::new(), Vec::new());
        // `Mixed with transactions` is the creation's or the deletion's,
        // as the `… alone` line above it says.
        let mut part = "creation";
        for l in &src.lines {
            let (n, t) = (l.number, l.text.as_str());
            let mut push = |metric: &str, unit: &str, v: f64| {
                out.push(
                    Row::at(src, n)
                        .benchmark("postmark")
                        .metric(metric)
                        .unit(unit)
                        .sample(v),
                );
            };
            if BANNER.is_match(t) {
                consumed.push(n);
            } else if let Some(c) = TOTAL.captures(t) {
                push("time total", "s", num(src, n, &c[1], "seconds total")?);
            } else if let Some(c) = TRANSACTIONS.captures(t) {
                push(
                    "transaction time",
                    "s",
                    num(src, n, &c[1], "transaction time")?,
                );
                push("transactions", "/s", num(src, n, &c[2], "transactions")?);
            } else if let Some(c) = FILES.captures(t) {
                let what = &c[2];
                push(what, "", num(src, n, &c[1], what)?);
                push(
                    &format!("{what} rate"),
                    "files/s",
                    num(src, n, &c[3], what)?,
                );
            } else if let Some(c) = PART.captures(t) {
                let metric = match &c[1] {
                    "Creation alone" => {
                        part = "creation";
                        "creation alone".to_string()
                    }
                    "Deletion alone" => {
                        part = "deletion";
                        "deletion alone".to_string()
                    }
                    _ => format!("{part} mixed with transactions"),
                };
                push(&metric, "", num(src, n, &c[2], &metric)?);
                push(
                    &format!("{metric} rate"),
                    "files/s",
                    num(src, n, &c[3], &metric)?,
                );
            } else if let Some(c) = DATA.captures(t) {
                let metric = format!("data {}", &c[2]);
                let unit = data_unit(&c[4]);
                push(&metric, unit, num(src, n, &c[1], &metric)?);
                push(
                    &format!("{metric} rate"),
                    &format!("{unit}/s"),
                    num(src, n, &c[3], &metric)?,
                );
            } else if TERSE.is_match(t) {
                let cells: Vec<&str> = t.split_whitespace().collect();
                push("time total", "s", num(src, n, cells[0], "seconds total")?);
                push(
                    "transaction time",
                    "s",
                    num(src, n, cells[1], "transaction time")?,
                );
                for (cell, (metric, unit)) in cells[2..].iter().zip(TERSE_RATES) {
                    push(metric, unit, num(src, n, cell, metric)?);
                }
            }
        }
        Parsed::found(src, out, consumed, Vec::new(), "no PostMark report")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    fn rows(path: &str) -> Vec<(u32, String, String, f64)> {
        parse_file(&Postmark, path)
            .observations
            .iter()
            .map(|o| (o.line, o.metric.to_string(), o.unit.to_string(), o.value))
            .collect()
    }

    fn row(line: u32, metric: &str, unit: &str, v: f64) -> (u32, String, String, f64) {
        (line, metric.into(), unit.into(), v)
    }

    #[test]
    fn the_default_report_gives_counts_and_rates() {
        let r = rows("tests/data/harness/postmark/n1000-s5k-50k-t40000.txt");
        assert_eq!(r.len(), 23);
        assert_eq!(r[0], row(7, "time total", "s", 3.0));
        assert_eq!(r[2], row(8, "transactions", "/s", 13333.0));
        assert_eq!(r[4], row(11, "created rate", "files/s", 6941.0));
        assert_eq!(
            r[8],
            row(
                13,
                "creation mixed with transactions rate",
                "files/s",
                6608.0
            )
        );
        assert_eq!(
            r[17],
            row(18, "deletion mixed with transactions", "", 20176.0)
        );
        assert_eq!(r[22], row(22, "data written rate", "MiB/s", 230.43));
    }

    #[test]
    fn the_terse_line_gives_the_times_and_rates() {
        let r = rows("tests/data/harness/postmark/n1000-s5k-50k-t40000-terse.txt");
        assert_eq!(r.len(), 13);
        assert_eq!(r[0], row(6, "time total", "s", 5.0));
        assert_eq!(r[1], row(6, "transaction time", "s", 3.0));
        assert_eq!(r[3], row(6, "created rate", "files/s", 4164.8));
        assert_eq!(r[12], row(6, "data written rate", "B/s", 144971056.0));
    }
}
