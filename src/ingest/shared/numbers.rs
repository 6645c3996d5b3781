//! Small lexical helpers shared by the importers: numbers as harnesses print
//! them (`1,234.5`, `+45.20%`, `33.94 +/- 0.07`, `2.8360 [0.5168]`).

/// Parses a number as printed by a harness: thousands separators, a leading
/// `+`, and a trailing `%` are accepted. NaN and infinities are refused
/// because a benchmark value is never one.
pub fn parse_number(s: &str) -> Option<f64> {
    let t = s.trim().trim_end_matches('%').trim();
    if t.is_empty() {
        return None;
    }
    let t = t.strip_prefix('+').unwrap_or(t);
    let cleaned: String;
    let t = if t.contains(',') {
        // `1,234,567` is a thousands separator; `1,5` is not ours to guess.
        let parts: Vec<&str> = t.split(',').collect();
        let last = parts.len() - 1;
        let grouped = parts[1..].iter().enumerate().all(|(i, p)| {
            let int = if i + 1 == last {
                p.split('.').next().unwrap_or(p)
            } else {
                p
            };
            int.len() == 3 && int.bytes().all(|b| b.is_ascii_digit())
        });
        if grouped {
            cleaned = parts.concat();
            &cleaned
        } else {
            return None;
        }
    } else {
        t
    };
    // A lone sign (`+`, `+%`) has no digits at all.
    let &first = t.as_bytes().first()?;
    if !(first.is_ascii_digit() || first == b'-' || first == b'.') {
        return None;
    }
    let v: f64 = parse_f64(t)?;
    v.is_finite().then_some(v)
}

/// True when `token` spells a value that is not a finite number: `nan`,
/// `-nan` (glibc's printf of a negative NaN), `inf`, `-inf`, `infinity`,
/// or a decimal beyond the range of a double (`1e309`). Such a token is a
/// value (a failed run, a division by zero), never a label.
pub fn is_non_finite_token(token: &str) -> bool {
    let t = token.trim_start_matches(['+', '-']);
    if ["nan", "inf", "infinity"]
        .iter()
        .any(|w| t.eq_ignore_ascii_case(w))
    {
        return true;
    }
    t.as_bytes().first().is_some_and(u8::is_ascii_digit)
        && parse_f64(token).is_some_and(|v| v.is_infinite())
}

/// True when every value on `line` is [`is_non_finite_token`] (`elapsed=nan
/// user=nan sys=nan`, `time: -nan`): a line of values that a run failed to
/// give, to be accounted as such, not read as a heading.
pub fn is_non_finite_line(line: &str) -> bool {
    let mut values = 0;
    for tok in line.split([' ', '\t', ',']).filter(|t| !t.is_empty()) {
        let value = match tok.rsplit_once(['=', ':']) {
            Some((_, "")) => continue, // `key:` before its value
            Some((_, v)) => v,
            None => tok,
        };
        if !is_non_finite_token(value) {
            return false;
        }
        values += 1;
    }
    values > 0
}

/// `s.parse::<f64>().ok()`, several times faster: fast-float2 gives the
/// same correctly rounded f64 for every decimal it accepts; what it does not
/// accept (a leading `+`, `inf`, a bare `5.`) goes to the standard parser,
/// so the accepted spellings are exactly the standard ones.
pub fn parse_f64(s: &str) -> Option<f64> {
    match fast_float2::parse::<f64, _>(s) {
        Ok(v) => Some(v),
        Err(_) => s.parse().ok(),
    }
}

/// A value with an optional spread, as written in a table cell:
/// `33.94 +/- 0.07`, `6656.73 ± 539.35`, `2.8360 [0.5168]`, `12.3 (0.4)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cell {
    /// The value.
    pub value: f64,
    /// The spread written after it, when there is one.
    pub spread: Option<f64>,
    /// True when the spread was written as a percentage (`± 3%`).
    pub spread_is_pct: bool,
    /// True when the value itself carried a `%`.
    pub is_pct: bool,
}

/// Parses a table cell; `None` when it is not numeric.
pub fn parse_cell(s: &str) -> Option<Cell> {
    let t = s.trim();
    for sep in ["+/-", "+-", "±"] {
        if let Some((a, b)) = t.split_once(sep) {
            let value = parse_number(a)?;
            let b = b.trim();
            let spread_is_pct = b.ends_with('%');
            let spread = parse_number(b.trim_end_matches(')').trim_start_matches('('))?;
            return Some(Cell {
                value,
                spread: Some(spread),
                spread_is_pct,
                is_pct: a.trim().ends_with('%'),
            });
        }
    }
    for (open, close) in [('[', ']'), ('(', ')')] {
        if let Some(idx) = t.find(open) {
            if t.ends_with(close) {
                let value = parse_number(&t[..idx])?;
                let inner = &t[idx + 1..t.len() - 1];
                let spread_is_pct = inner.trim().ends_with('%');
                let spread = parse_number(inner)?;
                return Some(Cell {
                    value,
                    spread: Some(spread),
                    spread_is_pct,
                    is_pct: t[..idx].trim().ends_with('%'),
                });
            }
        }
    }
    let value = parse_number(t)?;
    Some(Cell {
        value,
        spread: None,
        spread_is_pct: false,
        is_pct: t.ends_with('%'),
    })
}

/// True when a line holds something that looks like a measured number: used
/// to account for lines that no format read.
pub fn looks_numeric(line: &str) -> bool {
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() {
            let start_ok = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'.') {
                j += 1;
            }
            if start_ok {
                return true;
            }
            i = j;
        } else {
            i += 1;
        }
    }
    false
}

/// The factor of a scale letter glued to a count (`155K`, `1.5M`, `2G`):
/// the thousands of IOPS or operations that tables print this way.
pub fn scale_suffix(suffix: &str) -> Option<f64> {
    match suffix {
        "K" | "k" => Some(1e3),
        "M" => Some(1e6),
        "G" => Some(1e9),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_finite_values_are_values() {
        for t in [
            "nan", "-nan", "NaN", "inf", "-inf", "Infinity", "1e309", "-1e400",
        ] {
            assert!(is_non_finite_token(t), "{t}");
        }
        for t in ["1e308", "infinite", "nano", "n/a", "x"] {
            assert!(!is_non_finite_token(t), "{t}");
        }
        assert!(is_non_finite_line("elapsed=nan user=nan sys=nan"));
        assert!(is_non_finite_line("time: -nan"));
        assert!(!is_non_finite_line("elapsed=3.1 user=nan"));
        assert!(!is_non_finite_line("Results with the patch"));
        assert!(!is_non_finite_line(""));
    }

    #[test]
    fn numbers_as_harnesses_print_them() {
        assert_eq!(parse_number("1,234.5"), Some(1234.5));
        assert_eq!(parse_number("+45.20%"), Some(45.20));
        assert_eq!(parse_number("-0.5"), Some(-0.5));
        assert_eq!(parse_number(".5"), Some(0.5));
        assert_eq!(parse_number("NaN"), None);
        assert_eq!(parse_number("inf"), None);
        assert_eq!(parse_number("1,5"), None);
        assert_eq!(parse_number("abc"), None);
        assert_eq!(parse_number(""), None);
        assert_eq!(parse_number("+"), None);
        assert_eq!(parse_number("+%"), None);
    }

    /// The quick path gives the standard parser's f64, bit for bit.
    fn same_f64(s: &str) {
        let want = s.parse::<f64>().ok().map(f64::to_bits);
        assert_eq!(parse_f64(s).map(f64::to_bits), want, "{s:?}");
    }

    #[test]
    fn quick_floats_are_the_standard_ones() {
        for s in [
            "0",
            "-0",
            "+0",
            "1012",
            "0.465",
            "5.",
            ".5",
            ".",
            "-",
            "+",
            "",
            "1e5",
            "1.5E-3",
            "123456789012345",
            "1234567890123456",
            "0.1",
            "0.3",
            "9007199254740993",
            "999999999999999.9",
            "00000000000000001",
            "1.2.3",
            "12a",
            "inf",
            "NaN",
            " 1",
        ] {
            same_f64(s);
        }
    }

    proptest::proptest! {
        #[test]
        fn quick_floats_agree_on_any_decimal(s in "[-+]?[0-9]{0,18}([.][0-9]{0,18})?") {
            same_f64(&s);
        }

        #[test]
        fn quick_floats_agree_with_exponents_and_junk(
            s in "[-+]?[0-9]{0,22}([.][0-9]{0,22})?([eE][-+]?[0-9]{0,4})?[a-z ]?"
        ) {
            same_f64(&s);
        }
    }

    #[test]
    fn cells_with_spreads() {
        let c = parse_cell("33.94 +/- 0.07").unwrap();
        assert_eq!((c.value, c.spread), (33.94, Some(0.07)));
        let c = parse_cell("2.8360 [0.5168]").unwrap();
        assert_eq!((c.value, c.spread), (2.8360, Some(0.5168)));
        let c = parse_cell("6656.73 ± 539.35").unwrap();
        assert_eq!((c.value, c.spread), (6656.73, Some(539.35)));
        let c = parse_cell("110582 ±  3%").unwrap();
        assert!(c.spread_is_pct);
        let c = parse_cell("+191.58%").unwrap();
        assert!(c.is_pct && c.value == 191.58);
        assert!(parse_cell("baseline").is_none());
    }

    #[test]
    fn numeric_lines() {
        assert!(looks_numeric("Time: 2.978"));
        assert!(!looks_numeric("Running with threads"));
        assert!(!looks_numeric("sha256 x86_64 abc"));
        assert!(looks_numeric("  3869  7400"));
    }
}
