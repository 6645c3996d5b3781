//! Python's `json` module writes a float that is not finite as a bare
//! `NaN`, `Infinity` or `-Infinity` (asv's result files mark a benchmark
//! that was skipped so). No JSON parser takes them: read as `null`, the
//! value not measured.

/// `text` with each such literal outside strings written `null`, and the
/// lines (1-based) where one stood; `None` when there is none.
pub fn python_literals(text: &str) -> Option<(String, Vec<u32>)> {
    let mut out = String::with_capacity(text.len());
    let mut lines = Vec::new();
    let (mut line, mut in_string, mut escaped) = (1u32, false, false);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
        } else if let Some(lit) = ["NaN", "-Infinity", "Infinity"]
            .into_iter()
            .find(|l| rest.starts_with(l))
        {
            out.push_str("null");
            if lines.last() != Some(&line) {
                lines.push(line);
            }
            rest = &rest[lit.len()..];
            continue;
        }
        if c == '\n' {
            line += 1;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    (!lines.is_empty()).then_some((out, lines))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_non_finite_numbers_become_null_and_strings_stay() {
        // Lines of asv's example results (its test data).
        let text = "{\n\t\"time_AAA_failure\": null,\n\t\"time_AAA_skip\": NaN,\n    \"s\": \"NaN Infinity\",\n    \"x\": -Infinity\n}";
        let (got, lines) = python_literals(text).unwrap();
        assert_eq!(lines, vec![3, 5]);
        assert!(got.contains("\"time_AAA_skip\": null,"));
        assert!(got.contains("\"s\": \"NaN Infinity\""));
        assert!(got.contains("\"x\": null"));
        assert!(python_literals("{\"a\": 1}").is_none());
    }
}
