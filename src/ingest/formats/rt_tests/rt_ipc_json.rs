//! `--json` of rt-tests' inter-process latency tools, pmqtest,
//! ptsematest, sigwaittest and svsematest: `"thread": {"0": {"sender":
//! {cpu, priority, samples, interval}, "receiver": {cpu, priority, min,
//! avg, max}}}`, the receiver's wake-up latencies in µs.
//!
//! Benchmark: the program of `cmdline:`. Thread pair `i` is the pair the
//! text report prints as `#2i+1 -> #2i`, so its parameter is `pair=2i`, as
//! the text reader names it. Metrics `latency min`, `latency avg` (here
//! unrounded), `latency max` (us) and, where the tool counts them,
//! `timeouts` (pmqtest's `timeoutcount`), each a `sample` of the run. The
//! sender's cpu, priority, sample count and interval and the receiver's
//! cpu and priority are settings, not read.

use crate::error::Result;
use crate::ingest::shared::logscan::Params;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

/// The rt-tests IPC JSON importer.
pub struct RtIpcJson;

impl Format for RtIpcJson {
    fn name(&self) -> &'static str {
        "rt-ipc-json"
    }

    fn description(&self) -> &'static str {
        "rt-tests pmqtest/ptsematest/sigwaittest/svsematest --json: \"thread\":{\"0\":{\"sender\":…,\"receiver\":{min,avg,max}}}"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let raw = src.raw_trimmed();
        let keys = [
            "\"file_version\"",
            "\"thread\"",
            "\"sender\"",
            "\"receiver\"",
        ];
        if src.looks_like_json() && keys.iter().all(|k| raw.contains(k)) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let doc = super::json_doc::read(src, "rt-tests JSON")?;
        let pairs = super::json_doc::threads(src, &doc, "rt-tests JSON")?;
        // `/usr/bin/ptsematest -S` → `ptsematest`.
        let bench = super::json_doc::program(&doc, "rt-tests ipc");
        let mut out = Vec::new();
        for (i, _, pair) in pairs {
            let Some(receiver) = pair.get("receiver") else {
                let msg = format!("thread {i} has no `receiver`");
                return Err(src.error(None, msg));
            };
            let mut p = Params::default();
            p.set("pair", (2 * i).to_string());
            let params = p.render();
            let figures = [
                ("min", "latency min", "us"),
                ("avg", "latency avg", "us"),
                ("max", "latency max", "us"),
                ("timeoutcount", "timeouts", ""),
            ];
            for (key, metric, unit) in figures {
                let Some(v) = receiver.get(key) else {
                    if key == "timeoutcount" {
                        continue;
                    }
                    let msg = format!("thread {i}: receiver has no `{key}`");
                    return Err(src.error(None, msg));
                };
                let Some(v) = v.as_f64().filter(|v| v.is_finite()) else {
                    let msg = format!("thread {i}: receiver `{key}` is not a number: {v}");
                    return Err(src.error(None, msg));
                };
                let row = Row::at(src, 0).benchmark(&bench).params(&params);
                out.push(row.metric(metric).unit(unit).sample(v));
            }
        }
        let why = "rt-tests JSON whose `thread` object is empty";
        Parsed::found(src, out, Vec::new(), Vec::new(), why)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_documents_name_what_is_missing() {
        let read = |text: &str| {
            RtIpcJson
                .parse(&Source::from_text("p.json", text))
                .unwrap_err()
                .to_string()
        };
        let e = read(r#"{"file_version": 1, "thread": {"0": {"sender": {}}}}"#);
        assert!(e.contains("thread 0 has no `receiver`"), "{e}");
        let e = read(r#"{"file_version": 1, "thread": {"0": {"receiver": {"min": 1}}}}"#);
        assert!(e.contains("receiver has no `avg`"), "{e}");
        let e = read(r#"{"file_version": 1, "thread": {"x": {}}}"#);
        assert!(e.contains("`x` is not a thread number"), "{e}");
        let e = read("{\n\"thread\": [");
        assert!(e.contains("p.json:2"), "{e}");
    }
}
