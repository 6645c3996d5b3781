//! bash `time` lines (`real 0m34.067s`) and caret lines marking units
//! under the line above.

use super::known_unit;
use crate::model::Unit;

/// `real 0m34.067s`, `user 1m2.5s`, `sys 0.98s`, `real 34.06`.
pub(super) fn time_line(t: &str) -> Option<(String, f64)> {
    let mut it = t.split_whitespace();
    let key = it.next()?;
    if !matches!(key, "real" | "user" | "sys") {
        return None;
    }
    let v = it.next()?;
    if it.next().is_some() {
        return None;
    }
    Some((key.to_string(), duration_seconds(v)?))
}

/// Parses `0m34.067s`, `1h2m3s`, `34.067s`, `34.067` as seconds.
pub fn duration_seconds(v: &str) -> Option<f64> {
    let mut total = 0.0;
    let mut num = String::new();
    let mut any = false;
    for c in v.chars() {
        match c {
            '0'..='9' | '.' => num.push(c),
            'h' | 'm' | 's' => {
                let x: f64 = num.parse().ok()?;
                total += x * match c {
                    'h' => 3600.0,
                    'm' => 60.0,
                    _ => 1.0,
                };
                num.clear();
                any = true;
            }
            _ => return None,
        }
    }
    if !num.is_empty() {
        if any {
            return None;
        }
        total = num.parse().ok()?;
    }
    total.is_finite().then_some(total)
}

/// A line made only of caret runs with a unit right after each
/// (`^^^^^usecs`); other words on it are tolerated, digits are not.
pub(super) fn carets(text: &str) -> Option<Vec<(usize, usize, String)>> {
    if !text.contains('^') || text.chars().any(|c| c.is_ascii_digit()) {
        return None;
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '^' {
            let start = i;
            while i < chars.len() && chars[i] == '^' {
                i += 1;
            }
            let end = i;
            let ustart = i;
            while i < chars.len() && !chars[i].is_whitespace() {
                i += 1;
            }
            let unit: String = chars[ustart..i].iter().collect();
            if known_unit(&unit) {
                out.push((start, end, Unit::normalize_spelling(&unit).to_string()));
            }
        } else {
            i += 1;
        }
    }
    let first = text.trim_start();
    (first.starts_with('^') && !out.is_empty()).then_some(out)
}
