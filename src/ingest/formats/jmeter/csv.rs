//! JMeter's CSV results: a `timeStamp,elapsed,label,…` header (the fields
//! chosen in jmeter.properties, in its order) and a line per sample.

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

impl Format for JmeterCsv {
    fn name(&self) -> &'static str {
        "jmeter-csv"
    }

    fn description(&self) -> &'static str {
        "Apache JMeter CSV results (.jtl/.csv): `timeStamp,elapsed,label,…` header, a line per request"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let first = src.lines.iter().find(|l| !l.text.trim().is_empty());
        if first.is_some_and(|l| header(&l.text).is_some()) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let mut cols: Option<Vec<String>> = None;
        for l in &src.lines {
            if l.text.trim().is_empty() {
                continue;
            }
            let Some(names) = &cols else {
                cols = header(&l.text);
                consumed.push(l.number);
                continue;
            };
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
