//! tinymembench: bandwidth lines, ` C copy backwards  :  13496.9 MB/s
//! (1.3%)` — the best rate of the test's repetitions, with their standard
//! deviation relative to it in brackets when it exceeds 0.1% — in the
//! memory and framebuffer sections, and the latency tables under `block
//! size : single random read / dual random read[, [MADV_HUGEPAGE]]`, one
//! row per buffer size (`  1024 :    0.0 ns  /  0.0 ns`, the time added to
//! an L1 hit). Its `==`-framed banners explain; they hold no result.
//!
//! Benchmark `tinymembench`. Bandwidth: parameter `test` (the line's name),
//! metric `bandwidth` (MB/s), a sample of the run as STREAM's best rate is
//! (the bracketed deviation is relative to that best, not to a mean, and
//! its repetitions are not counted: it is not read). Latency: parameters
//! `block` (bytes) and `hugepages` when the header names the madvise mode,
//! metrics `single random read` and `dual random read` (ns).

use crate::error::Result;
use crate::ingest::shared::lkp_wrapper;
use crate::ingest::shared::logscan::{any_near_start, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Observation;

lazy_re!(BANNER, r"^tinymembench v[0-9.]+ ");
lazy_re!(
    BANDWIDTH,
    r"^(\S.*?\S)\s+:\s+([0-9.]+) MB/s(?: \(([0-9.]+)%\))?\s*$"
);
lazy_re!(
    LATENCY_HEADER,
    r"^block size : .*single random read / dual random read(?:, \[(MADV_NOHUGEPAGE|MADV_HUGEPAGE)\])?"
);
lazy_re!(
    LATENCY_ROW,
    r"^(\d+) :\s+([0-9.]+) ns\s+/\s+([0-9.]+) ns\s*$"
);
lazy_re!(FRAME, r"^==.*==$|^=+$");

/// The tinymembench importer.
pub struct Tinymembench;

impl Format for Tinymembench {
    fn name(&self) -> &'static str {
        "tinymembench"
    }

    fn description(&self) -> &'static str {
        "tinymembench: `NAME : N MB/s (d%)` bandwidth lines and the `block size : single random read / dual random read` latency tables"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let banner = src
            .lines
            .iter()
            .take(200)
            .any(|l| BANNER.is_match(l.text.trim()));
        let table = any_near_start(src, &LATENCY_HEADER);
        if banner || table {
            96
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out: Vec<Observation> = Vec::new();
        let mut consumed = Vec::new();
        let mut skipped = Vec::new();
        // The latency table being read: its parameters.
        let mut table: Option<Params> = None;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            if let Some(c) = LATENCY_HEADER.captures(t) {
                let mut p = Params::default();
                if let Some(mode) = c.get(1) {
                    let on = mode.as_str() == "MADV_HUGEPAGE";
                    p.set("hugepages", if on { "yes" } else { "no" });
                }
                table = Some(p);
                consumed.push(n);
            } else if let Some((c, p)) = LATENCY_ROW.captures(t).zip(table.as_ref()) {
                let mut p = p.clone();
                p.set("block", &c[1]);
                let params = p.render();
                for (metric, at) in [("single random read", 2), ("dual random read", 3)] {
                    let v = num(src, n, &c[at], metric)?;
                    let row = Row::at(src, n)
                        .benchmark("tinymembench")
                        .params(&params)
                        .metric(metric)
                        .unit("ns");
                    out.push(row.sample(v));
                }
            } else if let Some(c) = BANDWIDTH.captures(t) {
                table = None;
                let v = num(src, n, &c[2], "tinymembench bandwidth")?;
                let mut p = Params::default();
                p.set("test", &c[1]);
                let row = Row::at(src, n)
                    .benchmark("tinymembench")
                    .params(&p.render())
                    .metric("bandwidth")
                    .unit("MB/s");
                out.push(row.sample(v));
            } else if FRAME.is_match(t) || BANNER.is_match(t) || t == "---" {
                consumed.push(n);
            } else if let Some(why) = lkp_wrapper::reason(t, "tinymembench") {
                skipped.push((n, why.to_string()));
            } else if t.is_empty() {
                continue;
            } else {
                table = None;
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no tinymembench result (`NAME : N MB/s` or a `block size :` latency table)",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latency_rows_take_their_table_s_mode() {
        let text = "block size : single random read / dual random read, [MADV_HUGEPAGE]\n      1024 :    0.0 ns          /     0.0 ns \n  67108864 :   59.4 ns          /    83.4 ns \n";
        let p = Tinymembench
            .parse_accounted(&Source::from_text("t.txt", text))
            .unwrap();
        let last = p.observations.last().unwrap();
        assert_eq!(
            (last.params.as_str(), last.metric.as_str(), last.value),
            ("block=67108864,hugepages=yes", "dual random read", 83.4)
        );
    }
}
