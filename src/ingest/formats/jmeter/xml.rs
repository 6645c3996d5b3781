//! JMeter's XML results: `<testResults>` holding `<httpSample …/>` or
//! `<sample …/>` elements whose attributes are the fields.

use super::sample_rows;
use crate::error::Result;
use crate::ingest::shared::logscan::{has, lazy_re};
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(SAMPLE, r#"^\s*<(httpSample|sample)\s([^>]*?)/?>\s*$"#);
lazy_re!(ATTR, r#"(\w+)="([^"]*)""#);

/// The JMeter XML results importer.
pub struct JmeterXml;

impl Format for JmeterXml {
    fn name(&self) -> &'static str {
        "jmeter-xml"
    }

    fn description(&self) -> &'static str {
        "Apache JMeter XML results (.jtl): `<testResults>` and `<httpSample t=… lt=… lb=…/>` \
         elements, a sample per request"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if has(src, "<testResults")
            && src
                .lines
                .iter()
                .any(|l| SAMPLE.is_match(&l.text) && l.text.contains(" t=\""))
        {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, skipped) = (Vec::new(), Vec::new(), Vec::new());
        for l in &src.lines {
            let Some(c) = SAMPLE.captures(&l.text) else {
                if l.text.contains("testResults") || l.text.starts_with("<?xml") {
                    consumed.push(l.number);
                }
                continue;
            };
            let attrs: Vec<(&str, &str)> = ATTR
                .captures_iter(c.get(2).map_or("", |m| m.as_str()))
                .map(|a| (a.get(1).unwrap().as_str(), a.get(2).unwrap().as_str()))
                .collect();
            let get = |name: &str| attrs.iter().find(|(k, _)| *k == name).map(|(_, v)| *v);
            let label = get("lb").unwrap_or("sample");
            let success = get("s") != Some("false");
            sample_rows(src, l.number, label, success, |_, a| get(a), &mut out);
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no JMeter sample element with a time",
        )
    }
}
