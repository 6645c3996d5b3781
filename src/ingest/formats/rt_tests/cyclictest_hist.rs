//! rt-tests `cyclictest -h N` histogram output: `# Histogram`, one row per
//! 1 µs bucket (`%06d` latency, then one count per thread, separated by
//! spaces or tabs), then `# Total:`, `# Min Latencies:`, `# Avg Latencies:`,
//! `# Max Latencies:`, `# Histogram Overflows:` trailer lines.
//!
//! Per thread (`thread=N`, a series of its own) this gives the samples
//! `latency min`, `latency avg`, `latency max` from the trailer and the
//! percentiles `latency p50`, `latency p90`, `latency p99`, `latency p99.9`
//! computed from the buckets. cyclictest does not bin latencies beyond its
//! last bucket, it only counts them; a percentile whose rank lands in that
//! count has no known value and is left out (the trailer's max still holds).
//!
//! `--histofall` adds, with two threads or more, a last column summing the
//! threads (also in `# Total:`, `# Max Latencies:` and `# Histogram
//! Overflows:`, but not in the min and avg lines): it is `thread=all`.

use crate::error::Result;
use crate::ingest::shared::logscan::{any_with, last_line, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::shared::runs::each_run;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(HIST, r"^# Histogram\s*$");
lazy_re!(BUCKET, r"^(\d{6})((?:\s+\d+)+)\s*$");
lazy_re!(
    TRAILER,
    r"^# (Total|Min Latencies|Avg Latencies|Max Latencies|Histogram Overflows):((?:\s+\d+)*)\s*$"
);

// Setup and overflow-position lines: read past on purpose.
lazy_re!(DMA_LATENCY, r"^# /dev/cpu_dma_latency set to");
lazy_re!(
    OVERFLOW_CYCLES,
    r"^# (?:Histogram Overflow at cycle number:|Thread \d+:)"
);

/// The percentiles read from a latency histogram.
pub(crate) const PERCENTILES: [(f64, &str); 4] = [
    (50.0, "latency p50"),
    (90.0, "latency p90"),
    (99.0, "latency p99"),
    (99.9, "latency p99.9"),
];

/// The bucket holding the `p`-th percentile of a histogram given as
/// `(bucket, count)` pairs in increasing bucket order, with `overflow` samples
/// above the last bucket. `None` when the percentile lies in the overflow (or
/// the histogram is empty). Returns the index into `buckets`.
pub(crate) fn percentile_bucket(buckets: &[(f64, u64)], overflow: u64, p: f64) -> Option<usize> {
    let in_range: u64 = buckets.iter().map(|&(_, c)| c).sum();
    let total = in_range.checked_add(overflow)?;
    if total == 0 {
        return None;
    }
    // Nearest-rank definition: the smallest value with at least p% of the
    // samples at or below it.
    let rank = ((p / 100.0) * total as f64).ceil().max(1.0) as u64;
    let mut cum = 0u64;
    for (i, &(_, c)) in buckets.iter().enumerate() {
        cum = cum.saturating_add(c);
        if cum >= rank {
            return Some(i);
        }
    }
    None
}

/// The cyclictest histogram importer.
pub struct CyclictestHist;

impl Format for CyclictestHist {
    fn name(&self) -> &'static str {
        "cyclictest-hist"
    }

    fn description(&self) -> &'static str {
        "rt-tests cyclictest -h: `# Histogram`, `%06d` bucket rows, `# Max Latencies:` trailer"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let trailer = src
            .lines
            .iter()
            .any(|l| l.text.starts_with("# Max Latencies:"));
        match (any_with(src, "# Histogram", &HIST), trailer) {
            (true, true) => 95,
            (true, false) => 50,
            _ => 0,
        }
    }

    /// Every bucket row and trailer line is `consumed` (the percentiles
    /// summarise them); the PM QoS line and the overflow cycle numbers are
    /// `skipped`. Each `# Histogram` of a file of several runs is a run of
    /// its own: its buckets are not added to the run's before it.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        each_run(src, |t| HIST.is_match(t), read_run)
    }
}

/// One run: its histogram and the trailer under it.
fn read_run(src: &Source) -> Result<Parsed> {
    let mut consumed = Vec::new();
    let mut skipped = Vec::new();
    // Per thread: (bucket, count, line) rows.
    let mut rows: Vec<Vec<(f64, u64, u32)>> = Vec::new();
    let mut threads: Option<usize> = None;
    let mut in_hist = false;
    let mut trailer: Vec<(String, Vec<f64>, u32)> = Vec::new();
    for l in &src.lines {
        let t = l.text.as_str();
        if HIST.is_match(t) {
            in_hist = true;
            consumed.push(l.number);
            continue;
        }
        if DMA_LATENCY.is_match(t) {
            skipped.push((
                l.number,
                "PM QoS latency request: setup, not a result".into(),
            ));
            continue;
        }
        if OVERFLOW_CYCLES.is_match(t) {
            let why = "cycle numbers of overflowing wake-ups: when, not how long";
            skipped.push((l.number, why.into()));
            continue;
        }
        if let Some(c) = TRAILER.captures(t) {
            let mut vals = Vec::new();
            for w in c[2].split_whitespace() {
                vals.push(num(src, l.number, w, &c[1])?);
            }
            trailer.push((c[1].to_string(), vals, l.number));
            consumed.push(l.number);
            in_hist = false;
            continue;
        }
        if !in_hist {
            continue;
        }
        if let Some(c) = BUCKET.captures(t) {
            let bucket = num(src, l.number, &c[1], "bucket")?;
            consumed.push(l.number);
            let counts: Vec<&str> = c[2].split_whitespace().collect();
            let want = *threads.get_or_insert(counts.len());
            if counts.len() != want {
                return Err(src.error(
                    Some(l.number),
                    format!(
                        "histogram row has {} counts, earlier rows had {want}",
                        counts.len()
                    ),
                ));
            }
            if rows.len() < want {
                rows.resize(want, Vec::new());
            }
            for (i, w) in counts.iter().enumerate() {
                let n: u64 = w.parse().map_err(|_| {
                    src.error(
                        Some(l.number),
                        format!("bucket count `{w}` is not an integer"),
                    )
                })?;
                rows[i].push((bucket, n, l.number));
            }
        } else if !t.trim().is_empty() && !t.starts_with('#') {
            return Err(src.error(
                Some(l.number),
                format!("unexpected line inside the histogram: `{t}`"),
            ));
        }
    }
    let get = |name: &str| trailer.iter().find(|(n, _, _)| n == name);
    let Some((_, max_vals, _)) = get("Max Latencies") else {
        return Err(src.error(
            last_line(src),
            "histogram without its `# Max Latencies:` trailer (truncated output?)",
        ));
    };
    let nthreads = max_vals.len().max(rows.len());
    let overflows = get("Histogram Overflows");
    // `--histofall`: the min line names one column fewer, and each
    // bucket's last count is the sum of the others.
    let all_column = nthreads >= 3
        && get("Min Latencies").is_some_and(|(_, v, _)| v.len() + 1 == nthreads)
        && rows.len() == nthreads
        && (0..rows[0].len()).all(|i| {
            let sum: u64 = rows[..nthreads - 1].iter().map(|r| r[i].1).sum();
            sum == rows[nthreads - 1][i].1
        });
    let mut out = Vec::new();
    for th in 0..nthreads {
        let mut p = Params::default();
        if all_column && th == nthreads - 1 {
            p.set("thread", "all");
        } else {
            p.set("thread", th.to_string());
        }
        let params = p.render();
        for (name, metric) in [
            ("Min Latencies", "latency min"),
            ("Avg Latencies", "latency avg"),
            ("Max Latencies", "latency max"),
        ] {
            if let Some((_, vals, line)) = get(name) {
                if let Some(&v) = vals.get(th) {
                    out.push(
                        Row::at(src, *line)
                            .benchmark("cyclictest")
                            .params(&params)
                            .metric(metric)
                            .unit("us")
                            .sample(v),
                    );
                }
            }
        }
        let Some(thread_rows) = rows.get(th) else {
            continue;
        };
        let buckets: Vec<(f64, u64)> = thread_rows.iter().map(|&(b, c, _)| (b, c)).collect();
        let over = overflows
            .and_then(|(_, v, _)| v.get(th))
            .map(|&v| v as u64)
            .unwrap_or(0);
        for (pct, metric) in PERCENTILES {
            if let Some(i) = percentile_bucket(&buckets, over, pct) {
                let (b, _, line) = thread_rows[i];
                out.push(
                    Row::at(src, line)
                        .benchmark("cyclictest")
                        .params(&params)
                        .metric(metric)
                        .unit("us")
                        .sample(b),
                );
            }
        }
    }
    Parsed::found(
        src,
        out,
        consumed,
        skipped,
        "cyclictest histogram holds no values",
    )
}

#[cfg(test)]
mod tests {
    use super::{percentile_bucket, CyclictestHist};

    #[test]
    fn nearest_rank_percentiles_and_overflow() {
        let h = [(1.0, 50), (2.0, 40), (3.0, 9), (4.0, 1)];
        assert_eq!(percentile_bucket(&h, 0, 50.0), Some(0));
        assert_eq!(percentile_bucket(&h, 0, 90.0), Some(1));
        assert_eq!(percentile_bucket(&h, 0, 99.0), Some(2));
        assert_eq!(percentile_bucket(&h, 0, 99.9), Some(3));
        // Two of 102 samples beyond the range: p99.9 is unknown.
        assert_eq!(percentile_bucket(&h, 2, 99.9), None);
        assert_eq!(percentile_bucket(&[], 0, 50.0), None);
    }

    #[test]
    fn buckets_are_consumed_and_overflow_cycles_skipped() {
        let path = "tests/data/corpus/cyclictest_hist-baseline-1.txt";
        let p = crate::ingest::parse_file(&CyclictestHist, path);
        // `# Histogram`, 400 bucket rows (3–402) and five trailer lines.
        assert_eq!(p.consumed.len(), 1 + 400 + 5);
        assert!(p.consumed.contains(&3) && p.consumed.contains(&402));
        let skipped: Vec<u32> = p.skipped.iter().map(|(l, _)| *l).collect();
        assert_eq!(skipped, vec![1, 408, 409, 410]);
        assert!(p.skipped[0].1.contains("PM QoS"));
    }

    #[test]
    fn each_histogram_of_a_loop_is_a_run_of_its_own() {
        // Two runs of `cyclictest -h` in one log (a shell loop): before,
        // the second run's buckets were added to the first's and one run
        // came out, its percentiles from both.
        let one = std::fs::read_to_string("tests/data/harness/cyclictest/hist-t2.txt").unwrap();
        let alone = crate::ingest::testing::rows_of(&CyclictestHist, "h", &one);
        let two = crate::ingest::testing::rows_of(&CyclictestHist, "h", &format!("{one}{one}"));
        assert_eq!(alone.len(), 12);
        assert_eq!(two.len(), 24);
        assert_eq!(two[..12], alone[..]);
        assert_eq!(two[12..], alone[..]);
    }
}
