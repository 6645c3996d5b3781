//! JMeter's CSV results: a `timeStamp,elapsed,label,…` header (the fields
//! chosen in jmeter.properties, in its order) and a line per sample; or,
//! written with `jmeter.save.saveservice.print_field_names=false` (the
//! default before JMeter 3.0), the lines alone, in the default fields'
//! order, which a line is taken to be in when it has their number and a
//! time stamp, an elapsed time and a success flag where they stand.

use super::sample_rows;
use crate::error::Result;
use crate::ingest::shared::structured::split_csv;
use crate::ingest::{Confidence, Format, Parsed, Source};

/// The JMeter CSV results importer.
pub struct JmeterCsv;

/// The header's fields when it is JMeter's: `elapsed` and `label` with
/// `timeStamp` or `success` beside them.
fn header(text: &str) -> Option<Vec<String>> {
    if !text.contains("elapsed") || !text.contains("label") {
        return None;
    }
    let f = split_csv(text.trim(), ',');
    let has = |n: &str| f.iter().any(|c| c == n);
    (has("elapsed") && has("label") && (has("timeStamp") || has("success"))).then_some(f)
}

/// The fields JMeter writes by default, in its order.
const DEFAULT: &[&str] = &[
    "timeStamp",
    "elapsed",
    "label",
    "responseCode",
    "responseMessage",
    "threadName",
    "dataType",
    "success",
    "failureMessage",
    "bytes",
    "sentBytes",
    "grpThreads",
    "allThreads",
    "URL",
    "Latency",
    "IdleTime",
    "Connect",
];

/// Whether `text` is a sample line in the default fields' order: a time
/// stamp in ms (13 digits), a whole elapsed time, a success flag.
fn default_sample(text: &str) -> bool {
    let f = split_csv(text.trim_end(), ',');
    let digits = |s: &str, n: Option<usize>| {
        !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && n.is_none_or(|n| s.len() == n)
    };
    f.len() == DEFAULT.len()
        && digits(&f[0], Some(13))
        && digits(&f[1], None)
        && matches!(f[7].as_str(), "true" | "false")
}

impl Format for JmeterCsv {
    fn name(&self) -> &'static str {
        "jmeter-csv"
    }

    fn description(&self) -> &'static str {
        "Apache JMeter CSV results (.jtl/.csv): `timeStamp,elapsed,label,…` header, a line per request"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let mut content = src.lines.iter().filter(|l| !l.text.trim().is_empty());
        match content.next() {
            Some(l) if header(&l.text).is_some() => 95,
            // Without a header, its first lines all in the default order.
            Some(l)
                if default_sample(&l.text) && content.take(20).all(|l| default_sample(&l.text)) =>
            {
                90
            }
            _ => 0,
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let mut cols: Option<Vec<String>> = None;
        for l in &src.lines {
            if l.text.trim().is_empty() {
                continue;
            }
            if cols.is_none() {
                cols = header(&l.text);
                if cols.is_some() || !default_sample(&l.text) {
                    consumed.push(l.number);
                    continue;
                }
                cols = Some(DEFAULT.iter().map(|n| n.to_string()).collect());
            }
            let names = cols.as_deref().unwrap_or_default();
            let cells = split_csv(l.text.trim_end(), ',');
            if cells.len() != names.len() {
                skipped.push((
                    l.number,
                    format!(
                        "{} fields where the header has {}",
                        cells.len(),
                        names.len()
                    ),
                ));
                continue;
            }
            let get = |name: &str| {
                names
                    .iter()
                    .position(|n| n == name)
                    .map(|i| cells[i].as_str())
            };
            let label = get("label").unwrap_or("sample");
            let success = get("success") != Some("false");
            sample_rows(src, l.number, label, success, |c, _| get(c), &mut out);
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no JMeter sample line under the header",
        )
    }
}
