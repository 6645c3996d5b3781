//! Numeric cells (`12.3`, `1,234`, `4.5 ± 0.2`, `12ms`) and rows of
//! them after an optional label.

use super::cells::cell_texts;
use super::known_unit;
use super::DataRow;
use crate::ingest::shared::numbers::{parse_cell, scale_suffix, Cell};
use crate::ingest::shared::text::trim;
use crate::model::{SmolStr, Unit};

/// Parses a table cell that may carry a unit and a trailing remark:
/// `5.53 us`, `10.2 us +- 0.5 us`, `12ms`, `10.2 us: 1.85x slower`,
/// `6656.73 ± 539.35`. Returns the cell and its unit, if written.
pub fn value_cell(text: &str) -> Option<(Cell, Option<SmolStr>)> {
    let t = trim(text);
    // Every reading below parses some part of the text as a number, and a
    // number has a digit: prose and header cells stop here.
    if !t.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    if let Some(c) = plain_number(t) {
        return Some((c, None));
    }
    // A percent sign written before its number (`%1.31`, as netperf's
    // confidence summary prints a variance) is the same percentage.
    if let Some(rest) = t.strip_prefix('%') {
        if plain_number(rest).is_some() {
            return value_cell(&format!("{rest}%"));
        }
    }
    // A sign set apart from its number: `+ 4.5%`, `- 12`.
    if let Some(rest) = t.strip_prefix(['+', '-']) {
        let number = rest.trim_start();
        if number.len() < rest.len() && number.starts_with(|c: char| c.is_ascii_digit()) {
            return value_cell(&format!("{}{number}", &t[..1]));
        }
    }
    if let Some(c) = cell(t) {
        return Some((c, None));
    }
    // A remark after the value: `10.2 us: 1.85x slower`, `5.1 (noisy)`.
    let head = match memchr::memchr2(b':', b'(', t.as_bytes()) {
        Some(i) if i > 0 => t[..i].trim(),
        _ => t,
    };
    let mut words = head.split_whitespace();
    let first = words.next()?;
    let last = words.next_back();
    // The unit as its own word, possibly repeated after the spread. What is
    // left must start like a number before the unit is worth looking up.
    if let Some(unit) = last.or(Some(first)) {
        let rest_first = if first != unit {
            Some(first)
        } else {
            head.split_whitespace().find(|w| *w != unit)
        };
        if rest_first.is_some_and(number_start) && unit != "%" && known_unit(unit) {
            let rest: Vec<&str> = head.split_whitespace().filter(|w| *w != unit).collect();
            if let Some(c) = cell(&rest.join(" ")) {
                return Some((c, Some(Unit::normalize_spelling(unit))));
            }
        }
    }
    // The unit glued to the spread: `0.453 ± 0.002M/s`.
    if let Some(w) = last.filter(|w| number_start(w)) {
        if let Some((num, unit)) = glued_unit(w) {
            let mut rest: Vec<&str> = head.split_whitespace().collect();
            rest.pop();
            rest.push(num);
            if let Some(c) = cell(&rest.join(" ")) {
                return Some((c, Some(Unit::normalize_spelling(unit))));
            }
        }
    }
    // The unit glued to the value: `12ms`, `1.5GB/s`.
    if last.is_none() {
        let w = first;
        // Both the glued reading and the whole-head one below need `w`
        // (which is the head) to start like a number.
        if !number_start(w) {
            return None;
        }
        let (num, unit) = split_glued(w)?;
        if known_unit(unit) {
            let c = cell(num)?;
            return Some((c, Some(Unit::normalize_spelling(unit))));
        }
        if let Some(factor) = scale_suffix(unit) {
            let mut c = plain_number(num)?;
            c.value = crate::model::rescale(c.value, factor);
            return Some((c, None));
        }
    }
    (head != t).then(|| cell(head).map(|c| (c, None))).flatten()
}

/// `value_cell(text).is_some()`, without reading the value of a short run
/// of digits (a thread count, a size): fewer than 16 digits always read as
/// a finite number.
#[inline]
pub fn is_value(text: &str) -> bool {
    let b = text.as_bytes();
    if (1..16).contains(&b.len()) && b.iter().all(u8::is_ascii_digit) {
        return true;
    }
    value_cell(text).is_some()
}

/// A cell that states one value in two units, the second in brackets
/// with its unit (`741978112 (708 MiB)`, `2.5 s (2500 ms)`): both values.
/// A bracketed percentage is a spread or a change, read as such by
/// [`read_value`], never here.
pub fn in_two_units(text: &str) -> Option<(ReadCell, ReadCell)> {
    let inner = trim(text).strip_suffix(')')?;
    let (first, second) = inner.rsplit_once(" (")?;
    let a = read_value(trim(first))?;
    let b = read_value(trim(second))?;
    let unit = b.1.as_deref()?;
    (!unit.contains('%') && a.0.spread.is_none() && b.0.spread.is_none()).then_some((a, b))
}

/// A value cell as [`read_value`] reads it: the value and its own unit.
pub type ReadCell = (Cell, Option<SmolStr>);

/// [`value_cell`] with the bare decimal of most table cells read first.
#[inline]
pub fn read_value(text: &str) -> Option<(Cell, Option<SmolStr>)> {
    // A bare decimal has a digit and no surrounding space, so `value_cell`
    // would read it the same way, after scanning it twice.
    match plain_number(text) {
        Some(c) => Some((c, None)),
        None => value_cell(text),
    }
}

/// `w` cut into its number and the known unit glued after it
/// (`0.002M/s` → `0.002`, `M/s`).
fn glued_unit(w: &str) -> Option<(&str, &str)> {
    split_glued(w).filter(|(num, unit)| !num.is_empty() && known_unit(unit))
}

/// `w` cut where its first letter starts (`12ms` → `12`, `ms`).
fn split_glued(w: &str) -> Option<(&str, &str)> {
    let at = w
        .char_indices()
        .find(|(_, c)| c.is_alphabetic() || *c == 'µ')
        .map(|(i, _)| i)?;
    Some(w.split_at(at))
}

/// True when `w` starts the way [`parse_cell`] needs a cell to start: its
/// value is read from the text's beginning, which must be a digit, a sign
/// or a decimal point.
pub(super) fn number_start(w: &str) -> bool {
    matches!(
        w.trim_start().as_bytes().first(),
        Some(b'0'..=b'9' | b'+' | b'-' | b'.')
    )
}

/// [`parse_cell`], skipping the searches for spread separators in text that
/// cannot start a number.
pub(super) fn cell(t: &str) -> Option<Cell> {
    if number_start(t) {
        parse_cell(t)
    } else {
        None
    }
}

/// The common cell, a bare decimal (`5.1803`, `-12`, `.5`), read without
/// the general cell parser: for such text `parse_cell` finds no spread, no
/// separator and no percent sign, and reads the same value. `None` sends
/// anything else (and a malformed number such as `1.2.3`) the long way.
#[inline]
pub(super) fn plain_number(t: &str) -> Option<Cell> {
    let cell = |value| Cell {
        value,
        spread: None,
        spread_is_pct: false,
        is_pct: false,
    };
    // A short decimal is a bare decimal (and finite): one pass reads it.
    if let Some(v) = short_decimal(t) {
        return Some(cell(v));
    }
    let b = t.as_bytes();
    let digits = b.strip_prefix(b"-").unwrap_or(b);
    let &first = digits.first()?;
    if !(first.is_ascii_digit() || first == b'.')
        || !digits.iter().all(|&c| c.is_ascii_digit() || c == b'.')
    {
        return None;
    }
    let value = crate::ingest::shared::numbers::parse_f64(t)?;
    value.is_finite().then_some(Cell {
        value,
        spread: None,
        spread_is_pct: false,
        is_pct: false,
    })
}

/// The value of a short decimal (`5.1803`, `-12`, `.5`, `5.`: an optional
/// `-`, digits and at most one `.`, at most 15 digits) read without the
/// general float parser: its digits are an integer below 2^53 and its
/// scale an exact power of ten, so one division, correctly rounded, gives
/// the correctly rounded value that `parse_f64` gives. `None` for anything
/// else (more digits, two points, no digit), which the caller reads the
/// long way.
#[inline]
pub(super) fn short_decimal(t: &str) -> Option<f64> {
    let b = t.as_bytes();
    let (negative, digits) = match b.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, b),
    };
    if digits.len() > 16 {
        return None;
    }
    let mut m: u64 = 0;
    let mut count = 0usize;
    let mut scale: Option<usize> = None;
    for &c in digits {
        match c {
            b'0'..=b'9' => {
                m = m * 10 + u64::from(c - b'0');
                count += 1;
            }
            b'.' if scale.is_none() => scale = Some(count),
            _ => return None,
        }
    }
    if count == 0 || count > 15 {
        return None;
    }
    let v = m as f64 / EXACT_POW10[count - scale.unwrap_or(count)];
    Some(if negative { -v } else { v })
}

/// Parses one cell as numbers: a single value (`33.94 +/- 0.07`, `+45.20%`,
/// `2.8 %`) or several single-space-separated values.
pub(super) fn numeric_cells(text: &str) -> Option<Vec<(String, Cell)>> {
    if let Some((cell, _)) = value_cell(text) {
        return Some(vec![(text.to_string(), cell)]);
    }
    // Every word must be a number: the first one says most of the time.
    if !text.split_whitespace().next().is_some_and(number_start) {
        return None;
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() < 2 {
        return None;
    }
    words
        .iter()
        .map(|w| cell(w).map(|c| (w.to_string(), c)))
        .collect()
}

/// A label followed by numeric cells, separated by column gaps.
pub(super) fn data_row(text: &str) -> Option<DataRow> {
    // A row ends in a numeric cell. Detection classifies every line of a
    // file's first MiB, and splitting all cells of each was most of its
    // cost on text that is no table (Go benchmark lines): the last cell
    // alone rules most such lines out.
    if let Some(last) = plain_last_cell(text) {
        numeric_cells(last)?;
    }
    all_cells_row(text)
}

/// The last cell of `text` as [`cell_texts`] splits it, when that is
/// simply the text after the last column gap: an ASCII line with no `+`
/// or `[`, so that no spread or bracket joins cells. `None` otherwise.
pub(super) fn plain_last_cell(text: &str) -> Option<&str> {
    let b = text.as_bytes();
    if !text.is_ascii() || memchr::memchr2(b'+', b'[', b).is_some() {
        return None;
    }
    let ws = |x: u8| (x as char).is_whitespace();
    let end = b.iter().rposition(|&x| !ws(x))? + 1;
    let mut start = end;
    // A single space between two non-blank characters continues a cell;
    // any other blank ends it (see `cell_spans`).
    while start > 0 {
        let k = start - 1;
        if !ws(b[k]) {
            start = k;
            continue;
        }
        if b[k] == b' ' && k > 0 && !ws(b[k - 1]) {
            start = k;
            continue;
        }
        break;
    }
    Some(&text[start..end])
}

/// [`data_row`] from all the cells of the line.
pub(super) fn all_cells_row(text: &str) -> Option<DataRow> {
    let cells = cell_texts(text);
    let mut first_numeric = None;
    let mut parsed = Vec::new();
    for i in (0..cells.len()).rev() {
        match numeric_cells(&cells[i].1) {
            Some(mut v) => {
                v.extend(parsed);
                parsed = v;
                first_numeric = Some(i);
            }
            None => break,
        }
    }
    let first = first_numeric?;
    let mut label = cells[..first]
        .iter()
        .map(|(_, t)| t.as_ref())
        .collect::<Vec<_>>()
        .join(" ");
    // `# Min Latencies: 00006      00007      00008`: the first value is
    // glued to its `key:` by a single space, so the gaps hide it in the
    // label cell. With values after it in columns, it is the first of them.
    if parsed.len() >= 2 {
        if let Some((head, last)) = label.rsplit_once(' ') {
            if head.ends_with(':') {
                if let Some(mut v) = numeric_cells(last) {
                    v.extend(parsed);
                    parsed = v;
                    label = head.to_string();
                }
            }
        }
    }
    // Prose ends in a number now and then; a row label is short. A `key:`
    // label before one value is a sample line, not a row.
    let keyed = label.ends_with(':') && parsed.len() < 2;
    let words = label.split_whitespace().count();
    if (words > 6 && !(words <= 10 && settings_like(&label))) || keyed || label.ends_with('=') {
        return None;
    }
    Some(DataRow {
        label,
        cells: parsed,
    })
}

/// Whether a long row label is a list of settings rather than prose: half
/// its words or more are settings (a number with its letters, `32k`,
/// `lz4hc,12`) or a sign joining them (`+`), where a sentence has few or
/// none. A label holding a bar spans the cells of a pipe table, and bare
/// numbers are values, not settings.
fn settings_like(label: &str) -> bool {
    if label.contains('|') {
        return false;
    }
    let words: Vec<&str> = label.split_whitespace().collect();
    let set = words
        .iter()
        .filter(|w| {
            (w.chars().any(|c| c.is_ascii_digit()) && w.chars().any(char::is_alphabetic))
                || w.chars().all(|c| "+&=".contains(c))
        })
        .count();
    2 * set >= words.len()
}

/// Powers of ten that are exact in an `f64`.
pub(super) const EXACT_POW10: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];
