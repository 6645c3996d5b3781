//! Generic JSON (an array of row objects, as `ingest --out x.json` writes)
//! and JSON lines (one object per line, `--out x.jsonl`) whose keys name the
//! tidy columns, or are mapped with `--map key=field` like the CSV importer.

use crate::error::Result;
use crate::ingest::formats::tidy::csv::{record_to_obs, FieldMap};
use crate::ingest::shared::structured::{json_error, parse_json, raw_lines, Bail, Cursor, Fast};
use crate::ingest::{Confidence, Format, Parsed, Pieces, Source};
use crate::model::COLUMNS;
use serde_json::{Map, Value};

/// The generic tidy JSON / JSON-lines importer, optionally with a mapping.
pub struct TidyJson {
    map: FieldMap,
}

impl TidyJson {
    /// The importer of documents whose keys name the tidy columns.
    pub fn new() -> TidyJson {
        TidyJson {
            map: FieldMap::default(),
        }
    }

    /// The importer for a `--map` mapping.
    pub fn with_map(map: FieldMap) -> TidyJson {
        TidyJson { map }
    }
}

impl Default for TidyJson {
    fn default() -> Self {
        TidyJson::new()
    }
}

/// An object's entries as (key, text) pairs; nested values are refused.
fn record(
    src: &Source,
    obj: &Map<String, Value>,
    line: u32,
    at: &str,
) -> Result<Vec<(String, String)>> {
    obj.iter()
        .map(|(k, v)| {
            let text = match v {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                Value::Null => String::new(),
                Value::Bool(b) => b.to_string(),
                Value::Array(_) | Value::Object(_) => {
                    return Err(src.error(
                        (line > 0).then_some(line),
                        format!(
                            "{at}, key `{k}`: expected a string or a number, found a nested value"
                        ),
                    ))
                }
            };
            Ok((k.clone(), text))
        })
        .collect()
}

/// True when serde_json's `Map` keeps keys sorted (its default build), the
/// order [`record`] gives the pairs in and [`record_fast`] reproduces. With
/// `preserve_order` the fast reader stands aside.
fn maps_are_sorted() -> bool {
    static SORTED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *SORTED.get_or_init(|| {
        serde_json::from_str::<Map<String, Value>>(r#"{"b":0,"a":0}"#)
            .is_ok_and(|m| m.keys().next().map(String::as_str) == Some("a"))
    })
}

/// What [`record`] gives for the object at the cursor, read without
/// building a `Value`: keys sorted, the last of duplicate keys kept,
/// numbers rendered as serde_json renders them. Nested values, which
/// [`record`] refuses with its message, are a [`Bail`].
fn record_fast(c: &mut Cursor) -> Fast<Vec<(String, String)>> {
    let mut pairs: Vec<(String, String)> = Vec::with_capacity(COLUMNS.len());
    c.object(|c, key| {
        let text = if c.null() {
            String::new()
        } else if c.at(b'"') {
            c.string()?.into_owned()
        } else {
            let v = c.value_text()?;
            match v.as_bytes()[0] {
                b't' | b'f' => v.to_string(),
                // A plain unsigned integer is rendered as written.
                b'1'..=b'9' if v.len() < 20 && v.bytes().all(|b| b.is_ascii_digit()) => {
                    v.to_string()
                }
                b'-' | b'0'..=b'9' => serde_json::from_str::<serde_json::Number>(v)
                    .map_err(|_| Bail)?
                    .to_string(),
                _ => return Err(Bail),
            }
        };
        pairs.push((key.to_string(), text));
        Ok(())
    })?;
    // serde_json's map: sorted by key, a repeated key keeps its last value.
    pairs.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out: Vec<(String, String)> = Vec::with_capacity(pairs.len());
    for p in pairs {
        match out.last_mut() {
            Some(last) if last.0 == p.0 => *last = p,
            _ => out.push(p),
        }
    }
    Ok(out)
}

/// The rows of a JSON table as [`record_fast`] reads them, or [`Bail`].
fn table_fast(src: &Source) -> Fast<Vec<Vec<(String, String)>>> {
    let mut c = Cursor::new(src.raw.trim_start_matches('\u{feff}'));
    let mut rows = Vec::new();
    c.array(|c| {
        rows.push(record_fast(c)?);
        Ok(())
    })?;
    c.end()?;
    Ok(rows)
}

impl Format for TidyJson {
    fn name(&self) -> &'static str {
        "tidy-json"
    }

    fn description(&self) -> &'static str {
        "JSON array of row objects or JSON lines with keys naming the tidy columns (ingest --out output), or mapped with --map key=field"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if !src.looks_like_json() {
            return 0;
        }
        // The first 4096 characters, borrowed.
        let raw = src.raw_trimmed();
        let head = &raw[..raw.char_indices().nth(4096).map_or(raw.len(), |(i, _)| i)];
        let key = |k: &str| head.contains(&format!("\"{k}\""));
        if !self.map.is_empty() {
            let keys: Vec<String> = extract_keys(head);
            return if self.map.all_present(&keys) && self.map.usable(&keys) {
                99
            } else {
                0
            };
        }
        let tidy = COLUMNS.iter().filter(|c| key(c)).count();
        if tidy == COLUMNS.len() {
            // Every column: `ingest --out` output. Certain enough for the
            // driver to decide on the first lines of a large table instead
            // of running every format over all of it.
            95
        } else if key("benchmark") && key("value") && tidy >= 5 {
            80
        } else {
            0
        }
    }

    /// Every line is `consumed`: the document is read whole (JSON lines:
    /// object by object), and re-read rows keep the line of their original
    /// input, which says nothing about this file.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let consumed = src.lines.iter().map(|l| l.number).collect();
        if src.raw_trimmed().starts_with('[') {
            // All rows are read before any is converted, as the Value path
            // does: a syntax error anywhere is reported before a bad row.
            if let Some(records) = maps_are_sorted()
                .then(|| table_fast(src))
                .and_then(Result::ok)
            {
                for (i, rec) in records.iter().enumerate() {
                    let at = format!("row {}", i + 1);
                    out.extend(record_to_obs(src, &self.map, rec, 0, &at)?);
                }
                return Ok(Parsed {
                    observations: out,
                    consumed,
                    skipped: Vec::new(),
                    ..Parsed::default()
                });
            }
            let rows: Vec<Value> = parse_json(src, "JSON table")?;
            for (i, row) in rows.iter().enumerate() {
                let at = format!("row {}", i + 1);
                let Value::Object(obj) = row else {
                    return Err(src.error(None, format!("{at}: expected an object")));
                };
                let rec = record(src, obj, 0, &at)?;
                out.extend(record_to_obs(src, &self.map, &rec, 0, &at)?);
            }
        } else {
            out = self.json_lines(src, 0)?;
        }
        Ok(Parsed {
            observations: out,
            consumed,
            skipped: Vec::new(),
            ..Parsed::default()
        })
    }

    /// JSON lines are read one by one: a large file is read in pieces.
    /// One JSON document (an array) is read whole.
    fn pieces(&self, head: &Source) -> Option<Pieces> {
        (!head.raw_trimmed().starts_with('[')).then_some(Pieces {
            header_lines: 0,
            context: None,
            ..Default::default()
        })
    }

    fn parse_piece(&self, _head: &Source, body: &Source) -> Result<Parsed> {
        let first = body.first_line();
        Ok(Parsed {
            observations: self.json_lines(body, first - 1)?,
            consumed: body.lines.iter().map(|l| l.number).collect(),
            skipped: Vec::new(),
            ..Parsed::default()
        })
    }
}

impl TidyJson {
    /// The rows of JSON lines `src`, whose first line is line `offset + 1`
    /// of the file.
    fn json_lines(&self, src: &Source, offset: u32) -> Result<Vec<crate::model::Observation>> {
        let mut out = Vec::new();
        let fast = maps_are_sorted();
        for (n, l) in raw_lines(src) {
            let n = n + offset;
            let l = l.trim();
            if fast {
                let mut c = Cursor::new(l);
                if let Ok(rec) = record_fast(&mut c).and_then(|r| c.end().map(|()| r)) {
                    out.extend(record_to_obs(src, &self.map, &rec, n, "object")?);
                    continue;
                }
            }
            let v: Value =
                serde_json::from_str(l).map_err(|e| json_error(src, &e, n - 1, "JSON line"))?;
            let Value::Object(obj) = v else {
                return Err(src.error(Some(n), "expected one JSON object per line"));
            };
            let rec = record(src, &obj, n, "object")?;
            out.extend(record_to_obs(src, &self.map, &rec, n, "object")?);
        }
        Ok(out)
    }
}

/// The distinct `"key":` names in a JSON text prefix (for detection only).
fn extract_keys(text: &str) -> Vec<String> {
    let mut keys = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find('"') {
        let after = &rest[i + 1..];
        let Some(j) = after.find('"') else { break };
        let k = &after[..j];
        let tail = after[j + 1..].trim_start();
        if tail.starts_with(':') && !keys.iter().any(|x: &String| x == k) {
            keys.push(k.to_string());
        }
        rest = &after[j + 1..];
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast reader gives [`record`]'s pairs, or stands aside.
    #[test]
    fn fast_records_are_the_value_records() {
        assert!(maps_are_sorted());
        let src = Source::from_text("t.jsonl", "");
        for (line, fast) in [
            (
                r#"{"value":1.0,"benchmark":"a\"b\u00e9","run":7,"x":null,"t":true}"#,
                true,
            ),
            (
                r#"{"value":1e3,"v2":-0,"v3":18446744073709551616,"v4":-12,"v5":0.1}"#,
                true,
            ),
            (r#"{"b":"first","a":2,"b":"last"}"#, true),
            (r#"{ "k" : "v" , "n" : 5 }"#, true),
            (r#"{"nested":{"a":1}}"#, false),
            (r#"{"list":[1]}"#, false),
            (r#"{"n":01}"#, false),
            (r#"{"a":1} x"#, false),
        ] {
            let mut c = Cursor::new(line);
            let got = record_fast(&mut c).and_then(|r| c.end().map(|()| r));
            assert_eq!(got.is_ok(), fast, "{line}");
            if let Ok(got) = got {
                let Value::Object(obj) = serde_json::from_str::<Value>(line).unwrap() else {
                    panic!("{line}")
                };
                assert_eq!(got, record(&src, &obj, 1, "object").unwrap(), "{line}");
            }
        }
    }

    #[test]
    fn fast_tables_are_the_value_tables() {
        let text = r#"[{"benchmark":"a","value":1.5,"b":"x","b":"y"},
            {"value":-0,"stat":"mean"}]"#;
        let src = Source::from_text("t.json", text);
        let rows: Vec<Value> = serde_json::from_str(text).unwrap();
        let want: Vec<Vec<(String, String)>> = rows
            .iter()
            .map(|r| record(&src, r.as_object().unwrap(), 0, "row").unwrap())
            .collect();
        assert_eq!(table_fast(&src).unwrap(), want);
        for bad in [r#"[{"a":[1]}]"#, "[1]", r#"[{"a":1},]"#, r#"[{"a":1}] x"#] {
            assert!(
                table_fast(&Source::from_text("t.json", bad)).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn the_full_tidy_table_is_detected_with_certainty() {
        let full = r#"{"source":"a","line":0,"benchmark":"b","params":"","variant":"","metric":"time","unit":"s","stat":"sample","value":1.5,"run":0}"#;
        assert_eq!(
            TidyJson::new().detect(&Source::from_text("t.jsonl", full)),
            95
        );
        let some = r#"{"benchmark":"b","metric":"time","unit":"s","stat":"mean","value":1.5}"#;
        assert_eq!(
            TidyJson::new().detect(&Source::from_text("t.jsonl", some)),
            80
        );
        let obs = TidyJson::new()
            .parse(&Source::from_text("t.jsonl", full))
            .unwrap();
        assert_eq!((obs[0].benchmark.as_str(), obs[0].value), ("b", 1.5));
    }
}
