//! fio's completion latency histogram logs (`--write_hist_log=PREFIX`,
//! files `PREFIX_clat_hist.N.log`): per `--log_hist_msec` interval and
//! direction a line `time (ms), direction, block size, count, count, …`,
//! the I/Os completed in that interval counted into fio's latency buckets
//! (the difference of its running histogram since the line before).
//!
//! The buckets are fio's: 64 a group, each group twice as wide as the one
//! before, so an index stands for a latency range (`plat_idx_to_val`).
//! fio 3 keeps 29 groups in ns, fio 2 kept 19 in µs; `--log_hist_coarseness
//! C` merges 2^C neighbours. The count of buckets a line has therefore
//! says the version, and so the unit: 1856 / 2^C buckets are ns, 1216 / 2^C
//! µs; no other count is read.
//!
//! Each line gives, as fio's own reports name them, `clat p50`, `clat p90`,
//! `clat p99`, `clat p99.9` (the middle of the bucket where the share is
//! reached, as fio reports percentiles) and `completions` (the I/Os of the
//! interval), each a sample of the series of its direction (`dir=`) and
//! block size (`bs=`): one run per interval. A line without completions has
//! no percentile and is left out with the reason. Benchmark: the job
//! (`PREFIX`; `job=N` among the params when N is not 1).

use crate::error::Result;
use crate::ingest::shared::logscan::Params;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

/// The fio histogram log importer.
pub struct FioHistLog;

/// fio's buckets per group (`FIO_IO_U_PLAT_VAL`, 2^`FIO_IO_U_PLAT_BITS`).
const PER_GROUP: u64 = 64;
const BITS: u32 = 6;

/// The percentiles read from each line.
const PERCENTILES: [f64; 4] = [50.0, 90.0, 99.0, 99.9];

/// The unit and coarseness a line of `buckets` counts was written with.
fn layout(buckets: usize) -> Option<(&'static str, u32)> {
    (0..=10).find_map(|c| match buckets << c {
        1856 => Some(("ns", c)),
        1216 => Some(("us", c)),
        _ => None,
    })
}

/// The latency range fio's bucket `i` (not coarsened) stands for.
fn range(i: u64) -> (f64, f64) {
    if i < PER_GROUP << 1 {
        return (i as f64, i as f64);
    }
    let error_bits = (i >> BITS) - 1;
    let base = (1u64 << (error_bits + BITS as u64)) as f64;
    let width = (1u64 << error_bits) as f64;
    let k = (i % PER_GROUP) as f64;
    (base + k * width, base + (k + 1.0) * width)
}

/// The middle of the range bucket `j` of a log coarsened by `c` covers:
/// for `c = 0` exactly fio's `plat_idx_to_val`.
fn value(j: usize, c: u32) -> f64 {
    let stride = 1u64 << c;
    let first = j as u64 * stride;
    (range(first).0 + range(first + stride - 1).1) / 2.0
}

/// The job and its number, from `PREFIX_clat_hist.N.log`.
fn name_parts(path: &str) -> Option<(&str, &str)> {
    let file = path.rsplit(['/', '\\']).next()?;
    let stem = file.strip_suffix(".log")?;
    let (rest, job) = match stem.rsplit_once('.') {
        Some((r, j)) if !j.is_empty() && j.bytes().all(|b| b.is_ascii_digit()) => (r, j),
        _ => (stem, ""),
    };
    Some((rest.strip_suffix("_clat_hist")?, job))
}

/// The integers of a line, if it is all integers.
fn fields(text: &str) -> Option<Vec<u64>> {
    let t = text.trim().trim_end_matches(',');
    t.split(',').map(|f| f.trim().parse().ok()).collect()
}

impl Format for FioHistLog {
    fn name(&self) -> &'static str {
        "fio-hist-log"
    }

    fn description(&self) -> &'static str {
        "fio --write_hist_log files (NAME_clat_hist.1.log): `time, direction, block size, bucket counts…`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let first = src.lines.iter().find(|l| !l.text.trim().is_empty());
        let shaped = first
            .and_then(|l| fields(&l.text))
            .is_some_and(|f| f.len() > 3 && f[1] <= 2 && layout(f.len() - 3).is_some());
        match (shaped, name_parts(&src.path).is_some()) {
            (true, true) => 95,
            (true, false) => 75,
            _ => 0,
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (prefix, job) = name_parts(&src.path).unwrap_or(("fio", ""));
        let mut out = Vec::new();
        let mut skipped: Vec<(u32, String)> = Vec::new();
        for l in src.lines.iter().filter(|l| !l.text.trim().is_empty()) {
            let n = l.number;
            let Some(f) = fields(&l.text).filter(|f| f.len() > 3) else {
                let msg = "not a fio histogram line (`time, direction, block size, counts…`)";
                return Err(src.error(Some(n), msg));
            };
            let counts = &f[3..];
            let Some((unit, coarse)) = layout(counts.len()) else {
                let msg = format!(
                    "{} bucket counts: neither fio 3's 1856 nor fio 2's 1216 (or a power-of-two share of them)",
                    counts.len()
                );
                return Err(src.error(Some(n), msg));
            };
            // fio 3.7 could write a first line of uninitialised counts
            // (values near 2^63): no interval completes that many I/Os.
            let Some(total) = counts.iter().try_fold(0u64, |a, &c| a.checked_add(c)) else {
                skipped.push((
                    n,
                    "bucket counts overflow 64 bits: not counts fio could have made".into(),
                ));
                continue;
            };
            if total == 0 {
                skipped.push((n, "no I/O completed in this interval: no latency".into()));
                continue;
            }
            let mut p = Params::default();
            let dir = match f[1] {
                0 => "read".to_string(),
                1 => "write".to_string(),
                2 => "trim".to_string(),
                other => other.to_string(),
            };
            p.set("dir", dir);
            if f[2] != 0 {
                p.set("bs", f[2].to_string());
            }
            if !job.is_empty() && job != "1" {
                p.set("job", job);
            }
            let params = p.render();
            let row = |metric: &str, unit: &str, v: f64| {
                let named = Row::at(src, n).benchmark(prefix).params(&params);
                named.metric(metric).unit(unit).sample(v)
            };
            for pct in PERCENTILES {
                let want = pct / 100.0 * total as f64;
                let mut sum = 0u64;
                let at = counts.iter().position(|&c| {
                    sum += c;
                    sum as f64 >= want
                });
                let at = at.unwrap_or(counts.len() - 1);
                out.push(row(&format!("clat p{pct}"), unit, value(at, coarse)));
            }
            out.push(row("completions", "", total as f64));
        }
        let why = if skipped.iter().any(|(_, r)| r.contains("overflow")) {
            "fio histogram log whose lines hold no completions or counts that overflow"
        } else {
            "fio histogram log without completions"
        };
        Parsed::found(src, out, Vec::new(), skipped, why)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_stand_for_fio_s_latencies() {
        // fio's plat_idx_to_val: exact below 128, then the middle of a
        // range that doubles every 64 buckets.
        assert_eq!(value(100, 0), 100.0);
        assert_eq!(value(128, 0), 129.0);
        assert_eq!(value(191, 0), 255.0);
        assert_eq!(value(192, 0), 258.0);
        // Coarseness 4: bucket 8 covers fio's 128..=143, 128 to 160.
        assert_eq!(value(8, 4), 144.0);
        assert_eq!(layout(1856), Some(("ns", 0)));
        assert_eq!(layout(116), Some(("ns", 4)));
        assert_eq!(layout(1216), Some(("us", 0)));
        assert_eq!(layout(1000), None);
    }

    #[test]
    fn the_name_gives_the_job() {
        assert_eq!(name_parts("x/rr_clat_hist.1.log"), Some(("rr", "1")));
        assert_eq!(
            name_parts("pkb_fio_avg_1506559526.49_clat_hist.2.log"),
            Some(("pkb_fio_avg_1506559526.49", "2"))
        );
        assert_eq!(name_parts("rr_clat.1.log"), None);
    }

    #[test]
    fn a_line_of_garbage_counts_is_an_error_not_a_panic() {
        // A fio 3.7 log from pbench's postprocess samples: its only line
        // holds counts near 2^63 (uninitialised memory), whose sum used to
        // overflow and panic.
        let text = include_str!("../../../../tests/data/harness/fio/pbench_clat_hist.1.log");
        let src = Source::from_text("fio_clat_hist.1.log", text);
        let e = FioHistLog.parse_accounted(&src).unwrap_err().to_string();
        assert!(
            e.contains("fio_clat_hist.1.log:1") && e.contains("overflow"),
            "{e}"
        );
    }

    #[test]
    fn bad_lines_are_named() {
        let counts = vec!["0"; 1000].join(", ");
        let src = Source::from_text("a_clat_hist.1.log", &format!("1, 0, 4096, {counts}\n"));
        let e = FioHistLog.parse(&src).unwrap_err().to_string();
        assert!(
            e.contains("a_clat_hist.1.log:1") && e.contains("1000 bucket counts"),
            "{e}"
        );
        let src = Source::from_text("a_clat_hist.1.log", "1, 0, x\n");
        let e = FioHistLog.parse(&src).unwrap_err().to_string();
        assert!(
            e.contains(":1") && e.contains("not a fio histogram line"),
            "{e}"
        );
    }
}
