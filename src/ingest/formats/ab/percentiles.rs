//! ApacheBench's `-e FILE` CSV: `Percentage served,Time in ms`, then one
//! line per percent, `50,1.234`: the total time within which that share
//! of the requests was served, to the microsecond (the text report rounds
//! the same list to whole ms). Each line is metric `served within pNN`
//! (ms), as the text report's list is named, a `sample` of the run.
//! The file names no URL: benchmark `ab`.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(ROW, r"^\s*(\d+(?:\.\d+)?)\s*,\s*(\S+)\s*$");

const HEADER: &str = "Percentage served,Time in ms";

/// The `ab -e` CSV importer.
pub struct AbPercentiles;

impl Format for AbPercentiles {
    fn name(&self) -> &'static str {
        "ab-percentiles"
    }

    fn description(&self) -> &'static str {
        "ApacheBench -e CSV: `Percentage served,Time in ms` then `percent,ms` lines"
    }

    fn detect(&self, src: &Source) -> Confidence {
        match src.lines.first() {
            Some(l) if l.text.trim() == HEADER => 95,
            _ => 0,
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut consumed = Vec::new();
        let mut out = Vec::new();
        for l in &src.lines {
            let t = l.text.trim();
            if t.is_empty() {
                continue;
            }
            if t == HEADER {
                consumed.push(l.number);
                continue;
            }
            let Some(c) = ROW.captures(t) else {
                let msg = format!("expected `percent,ms`, found `{t}`");
                return Err(src.error(Some(l.number), msg));
            };
            let metric = format!("served within p{}", &c[1]);
            let v = num(src, l.number, &c[2], &metric)?;
            let row = Row::at(src, l.number).benchmark("ab").metric(&metric);
            out.push(row.unit("ms").sample(v));
        }
        let why = "no `percent,ms` line under `Percentage served,Time in ms`";
        Parsed::found(src, out, consumed, Vec::new(), why)
    }
}
