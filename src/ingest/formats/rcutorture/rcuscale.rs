//! rcuscale (`kernel/rcu/rcuscale.c`, once `rcuperf`): each run starts with
//! `<type>-scale:--- Start of test: nreaders=N nwriters=N …`; when its
//! writers are done it logs `start: T end: T duration: NS gps: N batches:
//! N` (the writers' span in ns, the grace periods they waited for, and the
//! grace-period batches the flavour's counter advanced by), and, with its
//! writer durations kept, `W writer-duration: J NS` per grace period waited.
//! `kvm-recheck-rcuscale.sh` turns those into a histogram and `Average|
//! Minimum|Nth percentile|Maximum grace-period duration:` lines in µs.
//!
//! Benchmark `rcuscale`, parameters the type (`rcu`, `srcud`, `tasks` …),
//! readers and writers; metrics `duration` (ns), `grace periods`,
//! `batches`, and `grace-period duration` (ns from the module, its stats in
//! µs from the script).

use super::console::{harness_line, read_lines, start_params, tagged, unstamped, ConsoleReader};
use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};

lazy_re!(
    SPAN,
    r"^start: (\d+) end: (\d+) duration: (\d+) gps: (\d+) batches: (-?\d+)\s*$"
);
lazy_re!(WRITER_DURATION, r"^\s*\d+ writer-duration:\s+\d+ (\d+)\s*$");
lazy_re!(
    SUMMARY,
    r"^(Average|Minimum|Maximum|(\d+)th percentile) grace-period duration: ([0-9.eE+-]+)(?: microseconds)?\s*$"
);
lazy_re!(GRACE_PERIODS, r"^Grace periods: (\d+) Batches: \d+ Ratio: ");
lazy_re!(BUCKET_SIZE, r"^Histogram bucket size: [0-9.eE+-]+\s*$");
lazy_re!(BUCKET, r"^[0-9.eE+-]+ \d+\s*$");

/// The parameters of a start line that say what is measured.
const PARAMS: &[&str] = &[
    "nreaders",
    "nwriters",
    "gp_async",
    "gp_exp",
    "kfree_rcu_test",
];

/// The rcuscale importer.
pub struct Rcuscale;

impl Format for Rcuscale {
    fn name(&self) -> &'static str {
        "rcuscale"
    }

    fn description(&self) -> &'static str {
        "rcuscale (kernel module, console log): `start: end: duration: gps: batches:` and `writer-duration:` lines, and kvm-recheck-rcuscale.sh's `… grace-period duration:` summary"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let own = |t: &str| {
            let t = unstamped(t);
            tagged(t).is_some_and(|g| {
                matches!(g.kind, "scale" | "perf")
                    && (SPAN.is_match(g.message)
                        || WRITER_DURATION.is_match(g.message)
                        || g.message.starts_with("--- Start of test:"))
            }) || SUMMARY.is_match(t)
        };
        if src.lines.iter().take(5000).any(|l| own(&l.text)) {
            96
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut r = Reader::default();
        read_lines(src, &mut r)?;
        Parsed::found(
            src,
            r.out,
            r.consumed,
            r.skipped,
            "no rcuscale result (`start: … duration: … gps: … batches:`, `writer-duration:` or `Average grace-period duration:`)",
        )
    }
}

#[derive(Default)]
struct Reader {
    params: String,
    /// Inside the script's histogram (after `Histogram bucket size:`).
    histogram: bool,
    out: Vec<Observation>,
    consumed: Vec<u32>,
    skipped: Vec<(u32, String)>,
}

impl ConsoleReader for Reader {
    fn line(&mut self, src: &Source, n: u32, text: &str) -> Result<()> {
        Reader::line(self, src, n, text)
    }

    fn taken(&self) -> [usize; 3] {
        [self.out.len(), self.consumed.len(), self.skipped.len()]
    }

    fn skipped(&mut self) -> &mut Vec<(u32, String)> {
        &mut self.skipped
    }
}

impl Reader {
    fn line(&mut self, src: &Source, n: u32, t: &str) -> Result<()> {
        if let Some(tag) = tagged(t) {
            if matches!(tag.kind, "scale" | "perf") {
                self.tagged(src, n, tag.test_type, tag.message)?;
            }
            return Ok(());
        }
        let t = t.trim();
        if let Some(c) = SUMMARY.captures(t) {
            self.histogram = false;
            let stat = match &c[1] {
                "Average" => Stat::Mean,
                "Minimum" => Stat::Min,
                "Maximum" => Stat::Max,
                _ => Stat::percentile(num(src, n, &c[2], "percentile")?),
            };
            let v = num(src, n, &c[3], "grace-period duration")?;
            let row = self.row(src, n, "grace-period duration", "us");
            self.out.push(row.stat(stat, v));
        } else if let Some(c) = GRACE_PERIODS.captures(t) {
            // The script counts one batch whatever the log says, so its
            // batches and ratio are no measurement.
            let v = num(src, n, &c[1], "grace periods")?;
            self.out
                .push(self.row(src, n, "grace periods", "").sample(v));
        } else if BUCKET_SIZE.is_match(t) {
            self.histogram = true;
            self.consumed.push(n);
        } else if self.histogram && BUCKET.is_match(t) {
            self.skipped.push((
                n,
                "a bucket of the script's histogram of grace-period durations (its summary lines are read)".to_string(),
            ));
        } else if let Some(why) = harness_line(t) {
            self.skipped.push((n, why.to_string()));
        } else if !t.is_empty() {
            self.histogram = false;
        }
        Ok(())
    }

    fn tagged(&mut self, src: &Source, n: u32, test_type: &str, m: &str) -> Result<()> {
        if m.starts_with("--- Start of test:") {
            self.params = start_params(test_type, m, PARAMS).render();
            self.consumed.push(n);
        } else if let Some(c) = SPAN.captures(m) {
            let duration = num(src, n, &c[3], "rcuscale duration")?;
            let gps = num(src, n, &c[4], "rcuscale gps")?;
            let batches = num(src, n, &c[5], "rcuscale batches")?;
            self.out
                .push(self.row(src, n, "duration", "ns").sample(duration));
            self.out
                .push(self.row(src, n, "grace periods", "").sample(gps));
            self.out
                .push(self.row(src, n, "batches", "").sample(batches));
        } else if let Some(c) = WRITER_DURATION.captures(m) {
            let v = num(src, n, &c[1], "rcuscale writer duration")?;
            let row = self.row(src, n, "grace-period duration", "ns");
            self.out.push(row.sample(v));
        } else {
            // Progress messages (`rcu_scale_writer 1 has 100 measurements`,
            // `writer 0 gps: 100`, `Test complete`): the span line holds
            // their totals.
            self.consumed.push(n);
        }
        Ok(())
    }

    fn row(&self, src: &Source, n: u32, metric: &str, unit: &str) -> Row {
        Row::at(src, n)
            .benchmark("rcuscale")
            .params(&self.params)
            .metric(metric)
            .unit(unit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writer_durations_are_samples_and_the_span_line_its_totals() {
        let text =
            "[ 1.0] rcu-scale:--- Start of test: nreaders=2 nwriters=2 verbose=1 shutdown=0\n\
                    [ 9.0] rcu-scale: start: 100 end: 400 duration: 300 gps: 3 batches: 2\n\
                    [ 9.1] rcu-scale:    0 writer-duration:     0 120\n\
                    [ 9.1] rcu-scale:    1 writer-duration:     0 80\n";
        let p = Rcuscale
            .parse_accounted(&Source::from_text("r.txt", text))
            .unwrap();
        let got: Vec<_> = p
            .observations
            .iter()
            .map(|o| (o.metric.as_str(), o.unit.as_str(), o.value))
            .collect();
        assert_eq!(
            got,
            [
                ("duration", "ns", 300.0),
                ("grace periods", "", 3.0),
                ("batches", "", 2.0),
                ("grace-period duration", "ns", 120.0),
                ("grace-period duration", "ns", 80.0),
            ]
        );
        assert_eq!(
            p.observations[0].params.as_str(),
            "nreaders=2,nwriters=2,type=rcu"
        );
    }

    #[test]
    fn recheck_summary_is_in_microseconds() {
        let text = "Histogram bucket size: 1\n12 4\n13 1\nAverage grace-period duration: 12.5 microseconds\nMinimum grace-period duration: 12\n50th percentile grace-period duration: 12\n99th percentile grace-period duration: 13\nMaximum grace-period duration: 13\nGrace periods: 5 Batches: 1 Ratio: 5\nComputed from rcuscale printk output.\n";
        let p = Rcuscale
            .parse_accounted(&Source::from_text("r.txt", text))
            .unwrap();
        assert_eq!(p.skipped.len(), 2);
        let got: Vec<_> = p
            .observations
            .iter()
            .map(|o| (o.stat, o.unit.as_str(), o.value))
            .collect();
        assert_eq!(got[0], (Stat::Mean, "us", 12.5));
        assert_eq!(got[2], (Stat::percentile(50.0), "us", 12.0));
        assert_eq!(got[5], (Stat::Sample, "", 5.0));
    }
}
