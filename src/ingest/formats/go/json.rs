//! `go test -json` events. The benchmark text arrives in `"Action":"output"`
//! events, and one result line is often split over several of them (the
//! name first, the numbers when the benchmark finishes), interleaved across
//! packages. The output is rejoined per package and then read as the Go
//! benchmark format; each value reports the event line that completed it.

use crate::error::Result;
use crate::ingest::shared::structured::{json_error, raw_lines};
use crate::ingest::{Confidence, Format, Parsed, Source};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The `go test -json` importer.
pub struct GoJson;

#[derive(Deserialize)]
struct Event {
    #[serde(rename = "Action")]
    action: String,
    #[serde(rename = "Package", default)]
    package: String,
    #[serde(rename = "Output", default)]
    output: Option<String>,
}

impl Format for GoJson {
    fn name(&self) -> &'static str {
        "go-test-json"
    }

    fn description(&self) -> &'static str {
        "go test -json: event lines with \"Action\":\"output\" whose Output holds Go benchmark results"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let mut events = false;
        let mut bench = false;
        for (_, l) in raw_lines(src).take(5000) {
            let t = l.trim_start();
            if t.starts_with('{') && t.contains("\"Action\"") {
                events = true;
                if t.contains("\"Output\":\"Benchmark") {
                    bench = true;
                    break;
                }
            }
        }
        match (events, bench) {
            (true, true) => 90,
            _ => 0,
        }
    }

    /// Every JSON event is `consumed`: each is decoded whole and its output
    /// text read as Go benchmark text (timestamps, actions and
    /// configuration are its context). Non-JSON lines merged in stay
    /// unread.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut consumed = Vec::new();
        // Per package: the partial line being built and the finished lines.
        let mut partial: BTreeMap<String, String> = BTreeMap::new();
        let mut lines: Vec<(u32, String)> = Vec::new();
        let mut last = 0;
        for (n, l) in raw_lines(src) {
            last = n;
            let t = l.trim();
            if !t.starts_with('{') {
                continue; // build errors and other stderr text merged in
            }
            let ev: Event = serde_json::from_str(t)
                .map_err(|e| json_error(src, &e, n - 1, "go test -json event"))?;
            consumed.push(n);
            if ev.action != "output" {
                continue;
            }
            let Some(text) = ev.output else { continue };
            let buf = partial.entry(ev.package).or_default();
            buf.push_str(&text);
            while let Some(i) = buf.find('\n') {
                lines.push((n, buf[..i].trim_end_matches(['\n', '\r']).to_string()));
                buf.drain(..=i);
            }
        }
        for (_, rest) in partial {
            if !rest.trim().is_empty() {
                lines.push((last, rest));
            }
        }
        let observations = crate::ingest::formats::go::text::parse_lines(
            src,
            lines.iter().map(|(n, s)| (*n, s.as_str())),
        )?;
        Ok(Parsed {
            observations,
            consumed,
            skipped: Vec::new(),
            ..Parsed::default()
        })
    }
}
