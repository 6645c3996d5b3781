//! iperf3 `-J` JSON: `start.test_start` (protocol, streams, reverse) and
//! the `end` summary: TCP `sum_sent` / `sum_received` (bits_per_second,
//! retransmits), UDP `sum_sent` / `sum_received` where the version writes
//! them, `sum` (bits_per_second, jitter_ms, lost_percent) where not, and
//! `cpu_utilization_percent` (`host_total`, `remote_total`).
//!
//! `--bidir` runs the test both ways at once: the client-to-server
//! direction is the one above, the server-to-client one the same keys with
//! `_bidir_reverse` (`sum_sent_bidir_reverse`, `sum_received_bidir_reverse`,
//! UDP `sum_bidir_reverse`). Each direction's rows carry `direction` (`tx`,
//! `rx`, as the text mode's `[TX-C]`/`[RX-C]` streams do), so that the two
//! are two series and not replicates of one; the CPU use is the whole
//! test's and has no direction.
//!
//! Benchmark `iperf3 tcp` / `iperf3 udp`, parameters `streams`,
//! `reverse` and, for `--bidir`, `direction`; metrics `sender bitrate`, `receiver bitrate` (bit/s, the unit
//! the text mode's `Gbits/sec` is converted to), `retransmits`, `jitter`
//! (ms), `lost` (%), `cpu host`, `cpu remote` (%), each a `sample` of the
//! run. Per-interval values are
//! the run's time series, not replicates, and are not read.

use crate::error::Result;
use crate::ingest::shared::logscan::Params;
use crate::ingest::shared::structured::json_error;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};
use serde_json::Value;

/// The iperf3 JSON importer.
pub struct Iperf3Json;

impl Format for Iperf3Json {
    fn name(&self) -> &'static str {
        "iperf3-json"
    }

    fn description(&self) -> &'static str {
        "iperf3 -J: `start.test_start` and the `end` summary (`sum_sent`, `sum_received`, UDP `sum`)"
    }

    /// A test that failed to start writes only the frame, `start`,
    /// `intervals`, `end` and its `error`: still iperf3's, so that its
    /// error is what the user is told.
    fn detect(&self, src: &Source) -> Confidence {
        let raw = src.raw_trimmed();
        let has = |k: &str| raw.contains(k);
        if !src.looks_like_json() {
            return 0;
        }
        if has("\"test_start\"") && has("\"bits_per_second\"") {
            95
        } else if ["\"start\"", "\"intervals\"", "\"end\"", "\"error\""]
            .iter()
            .all(|k| has(k))
        {
            90
        } else {
            0
        }
    }

    /// Each JSON document of the file is one test (a loop appending with
    /// `>>`, LKP's logs): its rows are the next run; a document that
    /// reports iperf3's error is left out with it.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let text = src.raw.trim_start_matches('\u{feff}');
        let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
        let mut out = Vec::new();
        let mut skipped = Vec::new();
        let mut failure = None;
        // Lines are counted from where the last count stopped: a long loop
        // of documents is read once, not once per document.
        let (mut counted, mut line) = (0, 1u32);
        loop {
            let at = stream.byte_offset();
            let start = at + (text[at..].len() - text[at..].trim_start().len());
            line += text[counted..start].matches('\n').count() as u32;
            counted = start;
            match stream.next() {
                None => break,
                Some(Ok(doc)) => match one_test(src, &doc) {
                    // Rows of a document have no line, as the values of
                    // one: the accounting reads no JSON line by line.
                    Ok(rows) => out.extend(rows),
                    Err(why) => {
                        skipped.push((line, format!("iperf3 JSON without results: {why}")));
                        failure.get_or_insert((line, why));
                    }
                },
                Some(Err(e)) => return Err(json_error(src, &e, 0, "iperf3 JSON")),
            }
        }
        if out.is_empty() {
            let (line, why) = failure.unwrap_or((1, "no JSON document".into()));
            return Err(src.error(Some(line), format!("iperf3 JSON without results: {why}")));
        }
        Ok(Parsed {
            observations: out,
            consumed: Vec::new(),
            skipped,
            ..Parsed::default()
        })
    }
}

/// The rows of one test's document, or why it has none.
fn one_test(src: &Source, doc: &Value) -> std::result::Result<Vec<Observation>, String> {
    let start = &doc["start"]["test_start"];
    let protocol = start["protocol"]
        .as_str()
        .unwrap_or("TCP")
        .to_ascii_lowercase();
    let mut params = Params::default();
    for key in ["num_streams", "reverse"] {
        if let Some(v) = start[key].as_i64() {
            params.set(key.trim_start_matches("num_"), v.to_string());
        }
    }
    let bench = format!("iperf3 {protocol}");
    let end = &doc["end"];
    let bidir = end.get("sum_sent_bidir_reverse").is_some()
        || end.get("sum_received_bidir_reverse").is_some()
        || end.get("sum_bidir_reverse").is_some();
    let mut out = Vec::new();
    let ways: &[(&str, &str)] = if bidir {
        &[("tx", ""), ("rx", "_bidir_reverse")]
    } else {
        &[("", "")]
    };
    for &(way, suffix) in ways {
        let mut p = params.clone();
        if !way.is_empty() {
            p.set("direction", way);
        }
        let p = p.render();
        let part = |name: &str| &end[format!("{name}{suffix}")];
        one_direction(src, &bench, &p, &protocol, part, &mut out);
    }
    let params = params.render();
    let mut push = |metric: &str, unit: &str, v: Option<f64>| {
        if let Some(v) = v {
            let mut o = Observation::new(&bench, metric, unit, Stat::Sample, v);
            o.source = src.path.clone();
            o.params = params.as_str().into();
            out.push(o);
        }
    };
    let get = |part: &str, key: &str| end[part][key].as_f64();
    push(
        "cpu host",
        "%",
        get("cpu_utilization_percent", "host_total"),
    );
    push(
        "cpu remote",
        "%",
        get("cpu_utilization_percent", "remote_total"),
    );
    if out.is_empty() {
        let why = doc["error"]
            .as_str()
            .unwrap_or("no `end` summary (interrupted run?)");
        return Err(why.to_string());
    }
    Ok(out)
}

/// The rates of one direction of a test (the only one unless `--bidir`):
/// `part("sum_sent")` is that direction's `sum_sent` object.
fn one_direction<'a>(
    src: &Source,
    bench: &str,
    params: &str,
    protocol: &str,
    part: impl Fn(&str) -> &'a Value,
    out: &mut Vec<Observation>,
) {
    let mut push = |metric: &str, unit: &str, v: Option<f64>| {
        if let Some(v) = v {
            let mut o = Observation::new(bench, metric, unit, Stat::Sample, v);
            o.source = src.path.clone();
            o.params = params.into();
            out.push(o);
        }
    };
    let get = |name: &str, key: &str| part(name)[key].as_f64();
    let tcp = part("sum_sent").is_object() && protocol == "tcp";
    // Newer iperf3 gives UDP both sides too, as its text mode prints.
    if tcp || part("sum_received").get("jitter_ms").is_some() {
        push(
            "sender bitrate",
            "bit/s",
            get("sum_sent", "bits_per_second"),
        );
        push(
            "receiver bitrate",
            "bit/s",
            get("sum_received", "bits_per_second"),
        );
        if tcp {
            push("retransmits", "", get("sum_sent", "retransmits"));
        } else {
            push("jitter", "ms", get("sum_received", "jitter_ms"));
            push("lost", "%", get("sum_received", "lost_percent"));
        }
    } else {
        push("bitrate", "bit/s", get("sum", "bits_per_second"));
        push("jitter", "ms", get("sum", "jitter_ms"));
        push("lost", "%", get("sum", "lost_percent"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_document_of_a_file_is_a_run() {
        let one = std::fs::read_to_string("tests/data/harness/iperf3/tcp.json").unwrap();
        let failed =
            r#"{"start": {}, "intervals": [], "end": {}, "error": "unable to connect to server"}"#;
        let text = format!("{one}\n{failed}\n{one}");
        let src = Source::from_text("loop.json", &text);
        let p = Iperf3Json.parse_accounted(&src).unwrap();
        let sender: Vec<f64> = p
            .observations
            .iter()
            .filter(|o| o.metric == "sender bitrate")
            .map(|o| o.value)
            .collect();
        assert_eq!(sender.len(), 2);
        assert_eq!(sender[0], sender[1]);
        assert_eq!(p.skipped.len(), 1);
        assert!(
            p.skipped[0].1.contains("unable to connect"),
            "{:?}",
            p.skipped
        );
        // A file of failed tests is iperf3's and only says why.
        let src = Source::from_text("failed.json", failed);
        assert_eq!(Iperf3Json.detect(&src), 90);
        let err = Iperf3Json.parse_accounted(&src).unwrap_err().to_string();
        assert!(err.contains("unable to connect to server"), "{err}");
    }

    #[test]
    fn tcp_summary_is_exact() {
        let p = crate::ingest::parse_file(&Iperf3Json, "tests/data/harness/iperf3/tcp.json");
        let v: Vec<(&str, f64)> = p
            .observations
            .iter()
            .map(|o| (o.metric.as_str(), o.value))
            .collect();
        // 17 significant digits, read to the last bit.
        assert_eq!(
            v,
            vec![
                ("sender bitrate", 19059833388.65715),
                ("receiver bitrate", 19058242299.092583),
                ("retransmits", 18.0),
                ("cpu host", 98.20672322650917),
                ("cpu remote", 37.96159896506857)
            ]
        );
        assert_eq!(p.observations[0].benchmark, "iperf3 tcp");
        assert_eq!(p.observations[0].params, "reverse=0,streams=1");
    }

    #[test]
    fn udp_gives_bitrate_jitter_and_loss() {
        let p = crate::ingest::parse_file(&Iperf3Json, "tests/data/harness/iperf3/udp.json");
        // Both sides, as the text mode prints them: sent, then received
        // with the receiver's jitter.
        assert_eq!(p.observations.len(), 6);
        assert_eq!(p.observations[0].value, 50064322.34263754);
        assert_eq!(p.observations[1].value, 50062270.001984715);
        assert_eq!(p.observations[2].value, 0.008171948269066283);
        assert_eq!(p.observations[0].benchmark, "iperf3 udp");
    }

    #[test]
    fn bidir_gives_both_directions_each_with_its_name() {
        let p = crate::ingest::parse_file(&Iperf3Json, "tests/data/harness/iperf3/tcp-bidir.json");
        let v: Vec<(&str, &str, f64)> = p
            .observations
            .iter()
            .map(|o| (o.params.as_str(), o.metric.as_str(), o.value))
            .collect();
        let (tx, rx, both) = (
            "direction=tx,reverse=0,streams=1",
            "direction=rx,reverse=0,streams=1",
            "reverse=0,streams=1",
        );
        assert_eq!(
            v,
            vec![
                (tx, "sender bitrate", 8633247251.14858),
                (tx, "receiver bitrate", 8565747086.732082),
                (tx, "retransmits", 2.0),
                (rx, "sender bitrate", 8093833114.19844),
                (rx, "receiver bitrate", 8039217687.571995),
                (rx, "retransmits", 0.0),
                (both, "cpu host", 35.10651563393457),
                (both, "cpu remote", 37.44080023466126)
            ]
        );
    }
}
