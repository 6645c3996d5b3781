//! NetPIPE 3's output file (`np.out` by default, `-o FILE`): one line per
//! message size, `       1 1.818705   0.00000419` — the size in bytes, the
//! rate in Mbps and the time in seconds, the figures the console line of
//! that size prints (see [`super::console`]). Only its default name tells
//! it from any three columns of numbers, so detection needs that name; a
//! file named otherwise is read with `--format netpipe-out`.
//!
//! Benchmark `netpipe`, parameter `size` (bytes); metrics `throughput`
//! (Mbps) and `latency` (s), a sample per size, a size seen again opening
//! the next run.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(LINE, r"^\s*(\d+)\s+([0-9.]+)\s+([0-9.eE+-]+)\s*$");

/// The NetPIPE output-file importer.
pub struct NetpipeOut;

impl Format for NetpipeOut {
    fn name(&self) -> &'static str {
        "netpipe-out"
    }

    fn description(&self) -> &'static str {
        "NetPIPE 3's np.out file: `BYTES MBPS SECONDS` per message size (detected by its default name)"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let named = src.file_name() == "np.out";
        let lines = src.lines.iter().filter(|l| !l.text.trim().is_empty());
        if named && src.lines.len() >= 2 && lines.clone().all(|l| LINE.is_match(&l.text)) {
            96
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            if t.is_empty() {
                continue;
            }
            let Some(c) = LINE.captures(t) else {
                return Err(src.error(
                    Some(n),
                    "NetPIPE output file: a line other than `BYTES MBPS SECONDS`",
                ));
            };
            num(src, n, &c[1], "NetPIPE message size")?;
            let params = format!("size={}B", &c[1]);
            let row = |metric: &str, unit: &str| {
                Row::at(src, n)
                    .benchmark("netpipe")
                    .params(&params)
                    .metric(metric)
                    .unit(unit)
            };
            out.push(row("throughput", "Mbps").sample(num(src, n, &c[2], "NetPIPE rate")?));
            out.push(row("latency", "s").sample(num(src, n, &c[3], "NetPIPE time")?));
        }
        Parsed::found(
            src,
            super::console::number_runs(out),
            Vec::new(),
            Vec::new(),
            "no NetPIPE output line (`BYTES MBPS SECONDS`)",
        )
    }
}
