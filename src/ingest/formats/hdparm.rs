//! hdparm's read timings (`-t`, `-T`, `--direct`): under a device's
//! `/dev/sda:` line, `Timing cached reads:   9314 MB in  2.00 seconds =
//! 4650.94 MB/sec` and `Timing buffered disk reads: …` (older versions:
//! `Timing buffer-cache reads:`; `--direct`: `Timing O_DIRECT disk reads:`).
//!
//! Benchmark `hdparm`, parameter `device`; the metric is the timing's name
//! (`cached reads`, `buffered disk reads`, `O_DIRECT disk reads` …), its
//! value the rate (MB/s, or kB/s as printed); hdparm reads for about as
//! long as it takes to read enough, so the megabytes read and the seconds
//! differ from run to run too: `<name> amount` (MB) and `<name> time` (s).
//! Each a `sample` of the run; a file of several runs (a loop, several
//! devices) gives one run each.

use crate::error::Result;
use crate::ingest::shared::logscan::{has, lazy_re, lines_containing, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

// The line may stand behind a quote or comment mark, and old versions
// print `=1120.07` with no space. hdparm writes the name before it reads:
// an error of another device on stderr (`/dev/vda: Operation not
// permitted`) can come between the name and its figures, which then open
// the next line.
lazy_re!(LABEL, r"\bTiming ([A-Za-z_][\w -]*?):");
lazy_re!(
    RATE,
    r"^\s*(\d+(?:\.\d+)?) MB in\s*([\d.]+) seconds\s*=\s*([\d.]+) ([kMG]?B)/sec\s*$"
);
lazy_re!(DEVICE, r"^\s*(/dev/\S+?):\s*$");

/// The hdparm timing importer.
pub struct Hdparm;

impl Format for Hdparm {
    fn name(&self) -> &'static str {
        "hdparm"
    }

    fn description(&self) -> &'static str {
        "hdparm -t/-T/--direct: `Timing cached reads:   9314 MB in  2.00 seconds = 4650.94 MB/sec` under `/dev/sda:`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if !has(src, "Timing ") {
            return 0;
        }
        let timing = |l: &str| LABEL.find(l).is_some_and(|m| RATE.is_match(&l[m.end()..]));
        if lines_containing(src, " seconds").any(timing) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed) = (Vec::new(), Vec::new());
        let mut params = Params::default();
        // A timing's name whose figures have not come yet.
        let mut pending: Option<String> = None;
        for l in &src.lines {
            let n = l.number;
            if let Some(c) = DEVICE.captures(&l.text) {
                params = Params::default();
                params.set("device", &c[1]);
                consumed.push(n);
                continue;
            }
            let mut rest = l.text.as_str();
            if let Some(c) = LABEL.captures(rest) {
                pending = Some(c[1].trim().to_string());
                rest = &rest[c.get(0).map_or(0, |m| m.end())..];
            }
            let Some(c) = RATE.captures(rest) else {
                if pending.is_some() && rest.len() < l.text.len() {
                    // The name alone: its figures follow.
                    consumed.push(n);
                }
                continue;
            };
            if let Some(name) = pending.take() {
                let rate = format!("{}/s", &c[4]);
                for (metric, unit, at) in [
                    (name.clone(), rate.as_str(), 3),
                    (format!("{name} amount"), "MB", 1),
                    (format!("{name} time"), "s", 2),
                ] {
                    let v = num(src, n, &c[at], &metric)?;
                    out.push(
                        Row::at(src, n)
                            .benchmark("hdparm")
                            .params(&params.render())
                            .metric(&metric)
                            .unit(unit)
                            .sample(v),
                    );
                }
            }
        }
        Parsed::found(src, out, consumed, Vec::new(), "no hdparm `Timing …` line")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    /// The rates alone.
    fn rows(p: &Parsed) -> Vec<(&str, &str, &str, f64)> {
        p.observations
            .iter()
            .filter(|o| o.unit.ends_with("/s"))
            .map(|o| {
                (
                    o.params.as_str(),
                    o.metric.as_str(),
                    o.unit.as_str(),
                    o.value,
                )
            })
            .collect()
    }

    #[test]
    fn each_timing_is_the_rate_under_its_device() {
        let p = parse_file(&Hdparm, "tests/data/harness/hdparm/tT-loop.txt");
        assert_eq!(
            rows(&p),
            vec![
                ("device=/dev/loop0", "cached reads", "MB/s", 4650.94),
                ("device=/dev/loop0", "buffered disk reads", "MB/s", 145.13)
            ]
        );
        assert_eq!(p.consumed, vec![2]);
        // What the rate is made of, read as well.
        let line3: Vec<(&str, &str, f64)> = p
            .observations
            .iter()
            .filter(|o| o.line == 3)
            .map(|o| (o.metric.as_str(), o.unit.as_str(), o.value))
            .collect();
        assert_eq!(
            line3,
            vec![
                ("cached reads", "MB/s", 4650.94),
                ("cached reads amount", "MB", 9314.0),
                ("cached reads time", "s", 2.0)
            ]
        );
        let p = parse_file(&Hdparm, "tests/data/harness/hdparm/t-direct-loop3.txt");
        let rates = rows(&p);
        assert_eq!(rates.len(), 3);
        assert!(rates.iter().all(|r| r.1 == "O_DIRECT disk reads"));
    }

    #[test]
    fn figures_pushed_to_the_next_line_by_another_device_s_error() {
        let p = parse_file(
            &Hdparm,
            "tests/data/harness/hdparm/tT-loop-and-refused-vda.txt",
        );
        assert_eq!(
            rows(&p),
            vec![
                ("device=/dev/loop0", "cached reads", "MB/s", 5996.0),
                ("device=/dev/loop0", "buffered disk reads", "MB/s", 259.75)
            ]
        );
    }

    #[test]
    fn old_names_and_a_rate_stuck_to_its_equals_sign() {
        let text = "/dev/hda:\nTiming buffer-cache reads: 128 MB in 0.11 seconds =1120.07 MB/sec\n\
                    Timing buffered disk reads: 64 MB in 46.92 seconds = 1.36 MB/sec\n";
        let src = Source::from_text("mail.txt", text);
        assert_eq!(Hdparm.detect(&src), 95);
        let p = Hdparm.parse_accounted(&src).unwrap();
        assert_eq!(
            rows(&p),
            vec![
                ("device=/dev/hda", "buffer-cache reads", "MB/s", 1120.07),
                ("device=/dev/hda", "buffered disk reads", "MB/s", 1.36)
            ]
        );
    }
}
