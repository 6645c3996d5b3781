//! Helpers shared by the importers of structured outputs (JSON documents,
//! JSON lines, CSV exports): errors that carry the position, CSV records
//! with their original line numbers, and value checks.
//!
//! Structured formats read [`Source::raw`], not the cleaned lines: quote
//! stripping and terminal replay would damage a JSON document.

use super::Source;
use crate::error::{Error, Result};
use serde::de::DeserializeOwned;

/// Deserialises the whole raw text of `src` as `T`. A syntax or type error
/// names the file, the line and the column (serde_json's position).
pub(crate) fn parse_json<T: DeserializeOwned>(src: &Source, what: &str) -> Result<T> {
    parse_json_str(src, &src.raw, 0, what)
}

/// Deserialises `text`, a part of `src` starting after `line_offset` lines
/// (JSON lines, several documents in one file).
pub(crate) fn parse_json_str<T: DeserializeOwned>(
    src: &Source,
    text: &str,
    line_offset: u32,
    what: &str,
) -> Result<T> {
    let text = text.trim_start_matches('\u{feff}');
    serde_json::from_str(text).map_err(|e| json_error(src, &e, line_offset, what))
}

/// Converts a serde_json error into an input error at its position.
pub(crate) fn json_error(
    src: &Source,
    e: &serde_json::Error,
    line_offset: u32,
    what: &str,
) -> Error {
    let line = (e.line() as u32).max(1) + line_offset;
    // serde_json's Display already ends in "at line L column C"; that line is
    // relative to the parsed text, so restate the position in file terms.
    let msg = e.to_string();
    let msg = match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg,
    };
    src.error(
        Some(line),
        format!(
            "malformed {what}: {msg} (line {line}, column {})",
            e.column()
        ),
    )
}

/// The non-blank raw lines of `src` with their 1-based numbers, CR removed.
pub(crate) fn raw_lines(src: &Source) -> impl Iterator<Item = (u32, &str)> {
    src.raw
        .split('\n')
        .enumerate()
        .map(|(i, l)| (i as u32 + 1, l.strip_suffix('\r').unwrap_or(l)))
        .filter(|(_, l)| !l.trim().is_empty())
}

/// Splits one CSV record (RFC 4180 quoting, `""` for a quote inside quotes).
/// Records spanning lines are not supported: no harness here writes them.
pub(crate) fn split_csv(line: &str, sep: char) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if quoted {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    cur.push('"');
                    chars.next();
                } else {
                    quoted = false;
                }
            } else {
                cur.push(c);
            }
        } else if c == '"' && cur.trim().is_empty() {
            cur.clear();
            quoted = true;
        } else if c == sep {
            out.push(std::mem::take(&mut cur));
        } else {
            cur.push(c);
        }
    }
    out.push(cur);
    out
}

/// Refuses NaN and infinities with an error naming the place.
pub(crate) fn finite(src: &Source, line: Option<u32>, v: f64, what: &str) -> Result<f64> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(src.error(line, format!("{what} is not a finite number ({v})")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_and_separators() {
        assert_eq!(
            split_csv(r#""a,b",1,"say ""hi""""#, ','),
            vec!["a,b", "1", r#"say "hi""#]
        );
        assert_eq!(split_csv("x\ty\t", '\t'), vec!["x", "y", ""]);
    }

    #[test]
    fn json_errors_carry_the_position() {
        let src = Source::from_text("r.json", "{\n  \"a\": [1,\n");
        let e = parse_json::<serde_json::Value>(&src, "test JSON").unwrap_err();
        let s = e.to_string();
        assert!(s.starts_with("r.json:3: malformed test JSON"), "{s}");
        assert!(s.contains("column"), "{s}");
    }
}
