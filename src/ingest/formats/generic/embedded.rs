//! JSON documents inside a text log: a tool that prints a JSON object
//! (on one line or pretty over many) after other output, such as a test
//! runner's lines before a benchmark tool's `--output-format=json`. The
//! file as a whole is no JSON, so the JSON reading never sees it, and its
//! values sit inside braces that no `label: value` line gives.
//!
//! A document starts at a line opening with `{` or `[` and ends at the
//! first later line, closing with `}` or `]`, at which the lines so far
//! parse as one JSON value; each is read as JSON is (every number named
//! by the keys above it), its rows at its first line, its lines read. A
//! start that never closes is no document, and its lines are left to the
//! reading of the rest of the log.

use super::json;
use crate::error::Result;
use crate::ingest::{Parsed, Source};

/// Lines a document may span before its start is given up.
const MAX_LINES: usize = 20_000;

/// The documents of `src` read as JSON, with every line they span in
/// `consumed`, and the lines outside them; `None` when `src` holds none
/// that gives a value.
pub(super) fn read(src: &Source, stem: &str) -> Option<Result<(Parsed, Vec<bool>)>> {
    let lines = &src.lines;
    let mut inside = vec![false; lines.len()];
    let mut found = Parsed::default();
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].text.trim_start();
        let (end, doc) = if t.starts_with('{') || t.starts_with('[') {
            let Some(end) = document_end(src, i) else {
                i += 1;
                continue;
            };
            let text: Vec<&str> = lines[i..=end].iter().map(|l| l.text.as_str()).collect();
            (end, text.join("\n"))
        } else if let Some(json) = after_label(t) {
            (i, json.to_string())
        } else {
            i += 1;
            continue;
        };
        let doc = Source::from_text(&src.path, &doc);
        match json::read(&doc, stem) {
            Some(Ok(p)) if !p.observations.is_empty() => {
                for mut o in p.into_observations() {
                    o.line = lines[i].number;
                    found.observations.push(o);
                }
                found
                    .consumed
                    .extend(lines[i..=end].iter().map(|l| l.number));
                inside[i..=end].iter_mut().for_each(|b| *b = true);
            }
            Some(Err(e)) => return Some(Err(e)),
            _ => {}
        }
        i = end + 1;
    }
    (!found.observations.is_empty()).then_some(Ok((found, inside)))
}

/// The JSON object (or array of objects) closing a line after a label
/// (`INF [20140611-21:34:01.224] stats: {"400":84,…}`, a harness's
/// `TALOSDATA: [{…}]`): a structured logger's record of its results. The
/// label ends in `:` or a space; the rest of the line must parse whole.
fn after_label(line: &str) -> Option<&str> {
    let at = line.find('{')?;
    let at = match line[..at].trim_end().strip_suffix('[') {
        Some(before) => before.len(),
        None => at,
    };
    let label = &line[..at];
    if !(label.ends_with(':') || label.ends_with(' ')) {
        return None;
    }
    let json = line[at..].trim_end();
    serde_json::from_str::<serde_json::Value>(json).ok()?;
    Some(json)
}

/// The last line of the JSON value starting at line `start`, if it closes.
fn document_end(src: &Source, start: usize) -> Option<usize> {
    let lines = &src.lines;
    let mut text = String::new();
    for (j, l) in lines.iter().enumerate().skip(start).take(MAX_LINES) {
        text.push_str(&l.text);
        text.push('\n');
        let t = l.text.trim_end();
        if !(t.ends_with('}') || t.ends_with(']')) {
            continue;
        }
        match serde_json::from_str::<serde_json::Value>(&text) {
            Ok(_) => return Some(j),
            Err(e) if e.is_eof() => continue,
            Err(_) => return None,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_line_and_a_pretty_document_after_other_output() {
        // Lines of bencher's lib/bencher_adapter/tool_output/rust/gungraun/
        // json_pretty_mixed_foreign_ndjson.txt, the objects cut to one metric.
        let text = r#"running 0 tests

test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

{"module_path":"play_game::bench_play_game_group::bench_play_game_100","metrics_summary":{"Callgrind":{"Ir":{"metrics":{"Left":{"Int":21880}}}}}}
Some foreign line {"not":"json
{
  "module_path": "play_game::bench_play_game_group::bench_play_game_1000",
  "metrics_summary": {
    "Callgrind": {
      "Ir": {
        "metrics": {
          "Left": {
            "Int": 218824
          }
        }
      }
    }
  }
}
"#;
        let src = Source::from_text("g.txt", text);
        let (parsed, inside) = read(&src, "g").unwrap().unwrap();
        let rows: Vec<(u32, f64)> = parsed
            .observations
            .iter()
            .map(|o| (o.line, o.value))
            .collect();
        assert_eq!(rows, [(5, 21880.0), (7, 218824.0)]);
        assert!(parsed.observations[0].metric.contains("Callgrind.Ir"));
        assert_eq!(parsed.consumed.len(), 1 + 14);
        assert!(!inside[5], "the foreign line is left to the rest");
        assert!(inside[4] && inside[6] && inside[19]);
    }

    #[test]
    fn a_json_object_closing_a_log_line_after_its_label() {
        // Iago's stats line (jenkinsci/performance-plugin,
        // src/test/resources/IagoResults.log), cut to three of its keys.
        let text = concat!(
            "INF [20140611-21:34:01.224] stats: ",
            r#"{"400":84,"client\/available":1,"client\/codec_connection_preparation_latency_ms_p99":142}"#,
            "\nSome text: {\"not\": json}\nkey: [1, 2]\n"
        );
        let src = Source::from_text("iago.log", text);
        let (parsed, inside) = read(&src, "iago").unwrap().unwrap();
        let p99 = parsed
            .observations
            .iter()
            .find(|o| o.metric.ends_with("preparation_latency_ms_p99"))
            .unwrap();
        assert_eq!((p99.value, p99.line), (142.0, 1));
        assert_eq!(parsed.observations.len(), 3);
        assert_eq!(inside, [true, false, false]);
        assert_eq!(
            after_label(r#"TALOSDATA: [{"a": 1}]"#),
            Some(r#"[{"a": 1}]"#)
        );
        assert_eq!(after_label(r#"x{"a": 1}"#), None);
    }

    #[test]
    fn an_opening_brace_that_never_closes_is_no_document() {
        let src = Source::from_text("g.txt", "{ started\nvalue: 3\n");
        assert!(read(&src, "g").is_none());
    }
}
