//! ApacheBench's `-g FILE` TSV: a header `starttime seconds ctime dtime
//! ttime wait`, then one line per request, its start as a date and as
//! epoch seconds followed by its times in whole ms: connect, processing
//! (total less connect), total and waiting. Each request gives one
//! `sample` of `connect`, `processing`, `total` and `waiting` (ms), the
//! quantities whose statistics the text report's `Connection Times (ms)`
//! table states (`connect mean` …). ab writes the lines sorted by total
//! time, so the run index is that rank, not the order requests ran; the
//! start columns say when, not how long, and are not read. The file names
//! no URL: benchmark `ab`.

use crate::error::Result;
use crate::ingest::shared::logscan::num;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

const HEADER: [&str; 6] = ["starttime", "seconds", "ctime", "dtime", "ttime", "wait"];

/// The columns read, by their header names, and the metric each gives.
const TIMES: [(&str, &str); 4] = [
    ("ctime", "connect"),
    ("dtime", "processing"),
    ("ttime", "total"),
    ("wait", "waiting"),
];

/// The `ab -g` TSV importer.
pub struct AbGnuplot;

fn is_header(text: &str) -> bool {
    text.trim_end().split('\t').eq(HEADER)
}

impl Format for AbGnuplot {
    fn name(&self) -> &'static str {
        "ab-gnuplot"
    }

    fn description(&self) -> &'static str {
        "ApacheBench -g TSV: `starttime\\tseconds\\tctime\\tdtime\\tttime\\twait`, a line per request"
    }

    fn detect(&self, src: &Source) -> Confidence {
        match src.lines.first() {
            Some(l) if is_header(&l.text) => 95,
            _ => 0,
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut consumed = Vec::new();
        let mut out = Vec::new();
        for l in &src.lines {
            if l.text.trim().is_empty() {
                continue;
            }
            if is_header(&l.text) {
                consumed.push(l.number);
                continue;
            }
            let cells: Vec<&str> = l.text.trim_end().split('\t').collect();
            if cells.len() != HEADER.len() {
                let msg = format!(
                    "expected {} tab-separated cells like the header, found {}",
                    HEADER.len(),
                    cells.len()
                );
                return Err(src.error(Some(l.number), msg));
            }
            for (column, metric) in TIMES {
                let i = HEADER.iter().position(|h| *h == column).unwrap_or(0);
                let v = num(src, l.number, cells[i], column)?;
                let row = Row::at(src, l.number).benchmark("ab").metric(metric);
                out.push(row.unit("ms").sample(v));
            }
        }
        let why = "no request line under the `starttime\tseconds\t…` header";
        Parsed::found(src, out, consumed, Vec::new(), why)
    }
}
