//! What one line of a document is: a boxed-table border or row, a bash
//! `time` line, `key: value` pairs, a row of aligned numeric columns, a caret
//! line marking units under the line above, or prose.
//!
//! Every scanner works on `char`s so that no input can split a UTF-8 sequence.

use crate::ingest::shared::numbers::{parse_cell, parse_number, Cell};
use crate::ingest::shared::text::trim;
use crate::model::{Dimension, SmolStr, Unit};
use std::borrow::Cow;

/// One `key: value` pair of a line.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    /// The key as written, trimmed (`pert/s`, `maximum latency`, `std. dev.`).
    pub key: String,
    /// The number after the separator.
    pub value: f64,
    /// The unit written right after the value (`us`, `%`, `µs`), or empty.
    pub unit: String,
    /// Character columns of the value and its unit, for caret annotations.
    pub span: (usize, usize),
}

/// A cell of a row split on column gaps, with its starting column.
#[derive(Debug, Clone, PartialEq)]
pub struct RawCell {
    /// Character column where the cell starts.
    pub col: usize,
    /// The cell's text, inner single spaces kept.
    pub text: String,
}

/// A row of aligned columns: an optional text label, then numeric cells.
#[derive(Debug, Clone, PartialEq)]
pub struct DataRow {
    /// The text before the first numeric cell (empty for a bare row).
    pub label: String,
    /// Each numeric cell as written and as parsed.
    pub cells: Vec<(String, Cell)>,
}

/// The kind of a cleaned line; boxed-row cells borrow the line's text.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind<'a> {
    /// Nothing but whitespace.
    Blank,
    /// `+----+----+` or `|----|----|`.
    Border,
    /// `| a | b |`: the cell texts.
    BoxRow(BoxCells<'a>),
    /// `real 0m34.067s`: metric and seconds.
    Time(String, f64),
    /// One or more `key: value` pairs covering the whole line.
    Pairs(Vec<Pair>),
    /// Aligned numeric columns after an optional label.
    Row(DataRow),
    /// `   ^^^^^usecs   ^^^^^usecs`: (first column, last column + 1, unit).
    Carets(Vec<(usize, usize, String)>),
    /// Anything else.
    Text,
}

/// Classifies one cleaned line.
pub fn classify(text: &str) -> Kind<'_> {
    classify_with(text, true)
}

/// [`classify`] for a caller that no longer needs to know about column rows
/// (format detection once it has seen a table): what would be a
/// [`Kind::Row`] is [`Kind::Text`], and the costliest test is skipped.
pub fn classify_without_rows(text: &str) -> Kind<'_> {
    classify_with(text, false)
}

fn classify_with(text: &str, rows: bool) -> Kind<'_> {
    let t = trim(text);
    classify_boxed(t).unwrap_or_else(|| classify_rest(text, t, rows))
}

/// [`classify`] of a document's lines in order, remembering the prose:
/// documents repeat lines (the heading above every table), and a line
/// known to be [`Kind::Text`] is not read again. Blank lines and boxed
/// tables, quick to tell, are not remembered.
#[derive(Default)]
pub struct Classifier<'a> {
    prose: hashbrown::HashSet<&'a str>,
}

impl<'a> Classifier<'a> {
    /// Distinct prose lines remembered; later ones are read each time.
    const MAX: usize = 4096;

    /// [`classify`] of `text`.
    pub fn classify(&mut self, text: &'a str) -> Kind<'a> {
        let t = trim(text);
        if let Some(k) = classify_boxed(t) {
            return k;
        }
        if self.prose.contains(text) {
            return Kind::Text;
        }
        let k = classify_rest(text, t, true);
        if matches!(k, Kind::Text) && self.prose.len() < Self::MAX {
            self.prose.insert(text);
        }
        k
    }
}

/// The kinds told by the trimmed line `t` alone, quickly: blank, border,
/// boxed row.
#[inline]
fn classify_boxed(t: &str) -> Option<Kind<'_>> {
    if t.is_empty() {
        return Some(Kind::Blank);
    }
    if is_border(t) {
        return Some(Kind::Border);
    }
    box_inner(t).map(|inner| Kind::BoxRow(BoxCells(inner)))
}

/// [`classify_with`] of a line that is not blank, a border or a boxed row;
/// `t` is `text` trimmed.
fn classify_rest<'t>(text: &'t str, t: &'t str, rows: bool) -> Kind<'t> {
    if let Some((m, v)) = time_line(t) {
        return Kind::Time(m, v);
    }
    if let Some(c) = carets(text) {
        return Kind::Carets(c);
    }
    if let Some(p) = pairs(text) {
        return Kind::Pairs(p);
    }
    if rows {
        if let Some(r) = data_row(text) {
            return Kind::Row(r);
        }
    }
    Kind::Text
}

/// Every character of a border is ASCII, so bytes suffice; a table row
/// fails on its second or third byte.
fn is_border(t: &str) -> bool {
    let b = t.as_bytes();
    if !matches!(b.first(), Some(b'+' | b'|')) {
        return false;
    }
    // A border is mostly dashes: eight at a time where they run.
    let mut dashes = 0;
    let mut i = 0;
    while i < b.len() {
        if i + 8 <= b.len() && b[i..i + 8] == *b"--------" {
            dashes += 8;
            i += 8;
            continue;
        }
        match b[i] {
            b'-' | b'=' => dashes += 1,
            b'+' | b'|' | b':' | b' ' => {}
            _ => return false,
        }
        i += 1;
    }
    dashes >= 3
}

/// The part of a boxed row between its outer bars, when it has at least two
/// cells.
fn box_inner(t: &str) -> Option<&str> {
    if t.len() < 3 {
        return None;
    }
    let inner = t.strip_prefix('|')?;
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    find_bar(inner.as_bytes()).map(|_| inner)
}

/// True when `classify` would call the trimmed line `t` a boxed row.
pub fn is_box_row(t: &str) -> bool {
    !is_border(t) && box_inner(t).is_some()
}

/// The cells of a boxed row: the text between its outer bars, split on
/// demand (a table reads them once, into one buffer for all its rows).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoxCells<'a>(&'a str);

impl<'a> BoxCells<'a> {
    /// The trimmed cell texts, left to right.
    pub fn iter(self) -> impl Iterator<Item = &'a str> {
        BoxCellIter { rest: Some(self.0) }
    }

    /// How many cells [`BoxCells::iter`] gives, without splitting them.
    pub fn count(self) -> usize {
        // A short row: a counting loop beats setting up a searcher.
        self.0.bytes().filter(|&b| b == b'|').count() + 1
    }
}

/// The cells of a boxed row, split at each `|`. Cells are short: a plain
/// byte loop beats a pattern search per cell.
struct BoxCellIter<'a> {
    /// What is left of the row; `None` once the last cell is given.
    rest: Option<&'a str>,
}

impl<'a> Iterator for BoxCellIter<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let rest = self.rest?;
        let b = rest.as_bytes();
        let i = find_bar(b).unwrap_or(b.len());
        let raw = &rest[..i];
        self.rest = (i < b.len()).then(|| &rest[i + 1..]);
        // Cells are padded with a space or two: `trim` strips them in place.
        Some(trim(raw))
    }
}

/// The position of the first `|` in `b`, eight bytes at a time: a cell
/// is about a word long, too short for setting up a vector search.
#[inline]
fn find_bar(b: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const BARS: u64 = ONES * b'|' as u64;
    let mut words = b.chunks_exact(8);
    let mut at = 0;
    for w in words.by_ref() {
        let mut word = [0u8; 8];
        word.copy_from_slice(w);
        // A zero byte of `x` is a bar; the lowest flagged byte is the first
        // zero (a borrow only flags bytes above a zero).
        let x = u64::from_le_bytes(word) ^ BARS;
        let zero = x.wrapping_sub(ONES) & !x & (ONES << 7);
        if zero != 0 {
            return Some(at + zero.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    words
        .remainder()
        .iter()
        .position(|&c| c == b'|')
        .map(|i| at + i)
}

/// `real 0m34.067s`, `user 1m2.5s`, `sys 0.98s`, `real 34.06`.
fn time_line(t: &str) -> Option<(String, f64)> {
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
fn carets(text: &str) -> Option<Vec<(usize, usize, String)>> {
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

/// True for a unit a value can carry after a space (`42963.2 µs`).
pub fn known_unit(u: &str) -> bool {
    if u.is_empty() {
        return false;
    }
    if u == "%" {
        return true;
    }
    let unit = Unit::parse(u);
    !matches!(unit.dimension, Dimension::Other(_) | Dimension::Count)
}

/// `key: value[unit]` pairs covering the whole line (`Time: 2.978`,
/// `pert/s: 229 >5484.43us: 41 min: 0.15 …`, `Iterations=5000`).
pub fn pairs(text: &str) -> Option<Vec<Pair>> {
    // The first key decides most lines (prose, table rows): checked on the
    // text itself before it is split into characters.
    let sep = memchr::memchr2(b':', b'=', text.as_bytes())?;
    if !valid_key(text[..sep].trim()) {
        return None;
    }
    // Spans are character columns; in ASCII text (nearly every line) those
    // are bytes, and the text needs no copy into characters.
    if text.is_ascii() {
        pairs_in(text.as_bytes(), |a, b| text[a..b].to_string())
    } else {
        let c: Vec<char> = text.chars().collect();
        pairs_in(&c, |a, b| c[a..b].iter().collect())
    }
}

/// A character of a line: a `char`, or a byte of an ASCII line (which is
/// the same character).
trait Sym: Copy {
    fn ch(self) -> char;
}

impl Sym for u8 {
    fn ch(self) -> char {
        char::from(self)
    }
}

impl Sym for char {
    fn ch(self) -> char {
        self
    }
}

/// [`pairs`] over the characters `c` of a line; `sub(a, b)` is the text of
/// characters `a..b`.
fn pairs_in<T: Sym>(c: &[T], sub: impl Fn(usize, usize) -> String) -> Option<Vec<Pair>> {
    let n = c.len();
    let mut i = 0;
    let mut out = Vec::new();
    let skip_ws = |i: &mut usize| {
        while *i < n && c[*i].ch().is_whitespace() {
            *i += 1;
        }
    };
    skip_ws(&mut i);
    while i < n {
        let kstart = i;
        while i < n && c[i].ch() != ':' && c[i].ch() != '=' {
            i += 1;
        }
        if i == n {
            return None;
        }
        let key: String = sub(kstart, i).trim().to_string();
        if !valid_key(&key) {
            return None;
        }
        i += 1;
        skip_ws(&mut i);
        let vstart = i;
        if i < n && (c[i].ch() == '+' || c[i].ch() == '-') {
            i += 1;
        }
        let dstart = i;
        while i < n && (c[i].ch().is_ascii_digit() || c[i].ch() == '.' || c[i].ch() == ',') {
            i += 1;
        }
        if i == dstart || !c[dstart].ch().is_ascii_digit() && c[dstart].ch() != '.' {
            return None;
        }
        let num = sub(vstart, i);
        let value = parse_number(&num)?;
        let ustart = i;
        while i < n && (c[i].ch().is_alphabetic() || c[i].ch() == '%' || c[i].ch() == '/') {
            i += 1;
        }
        let mut unit = sub(ustart, i);
        if i < n && !c[i].ch().is_whitespace() {
            return None;
        }
        if !unit.is_empty() && !known_unit(&unit) {
            return None;
        }
        let mut vend = i;
        skip_ws(&mut i);
        if unit.is_empty() && i < n {
            // A unit after a space, unless that word is the next key.
            let tstart = i;
            let mut j = i;
            while j < n && !c[j].ch().is_whitespace() && c[j].ch() != ':' && c[j].ch() != '=' {
                j += 1;
            }
            let next_is_sep = j < n && (c[j].ch() == ':' || c[j].ch() == '=');
            if !next_is_sep {
                let tok = sub(tstart, j);
                if known_unit(&tok) {
                    unit = tok;
                    vend = j;
                    i = j;
                    skip_ws(&mut i);
                }
            }
        }
        out.push(Pair {
            key,
            value,
            unit: Unit::normalize_spelling(&unit).to_string(),
            span: (vstart, vend),
        });
    }
    (!out.is_empty()).then_some(out)
}

/// Key words that name a measurement.
const MEASURE_WORDS: &[&str] = &[
    "time",
    "latency",
    "duration",
    "throughput",
    "bandwidth",
    "tps",
    "ops",
    "rate",
    "score",
    "elapsed",
    "runtime",
    "speed",
    "iops",
    "cycles",
    "overhead",
    "/s",
    "per sec",
    "wall",
    "real",
    "user",
    "sys",
];

/// True when a lone `key: value` line is a measurement rather than an
/// attribute (`CPU family: 6`, `Model: 106`): it has a unit, names a
/// measurement, or states a summary (`avg`, `Iterations`).
pub fn is_measurement(p: &Pair) -> bool {
    let k = p.key.to_lowercase();
    !p.unit.is_empty()
        || MEASURE_WORDS.iter().any(|w| k.contains(w))
        || k.parse::<crate::model::Stat>().is_ok()
}

fn valid_key(key: &str) -> bool {
    // Every line holding `:` or `=` has its first key tested (a Go log's
    // `Benchmark…/n=10` result lines included): ASCII keys, nearly all of
    // them, are settled in one pass over their bytes.
    if key.is_ascii() {
        return valid_ascii_key(key.as_bytes());
    }
    valid_key_chars(key)
}

/// [`valid_key`] of an ASCII key, in one pass: a key of ASCII has one
/// character per byte, and its whitespace is what `char::is_whitespace`
/// calls whitespace among ASCII characters (vertical tab included).
fn valid_ascii_key(key: &[u8]) -> bool {
    const LONGEST: usize = 32;
    const LONGEST_BUCKET: usize = 16;
    let bucket_start = key.first() == Some(&b'>');
    if key.is_empty() || key.len() > LONGEST {
        return false;
    }
    let (mut words, mut in_word, mut space, mut excluded) = (0, false, false, false);
    for &b in key {
        let ws = matches!(b, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r');
        words += usize::from(!ws && !in_word);
        in_word = !ws;
        space |= b == b' ';
        excluded |= matches!(
            b,
            b',' | b'<' | b'>' | b'(' | b')' | b'[' | b']' | b'"' | b'\''
        );
    }
    // At most 32 bytes: a window scan costs less than a searcher's set-up.
    let config = key.windows(7).any(|w| w == b"CONFIG_");
    let plain = words <= 4 && !excluded && !config;
    let bucket = bucket_start && key.len() <= LONGEST_BUCKET && !space;
    plain || bucket
}

/// [`valid_key`] of any key, character by character.
fn valid_key_chars(key: &str) -> bool {
    let plain = !key.is_empty()
        && key.chars().count() <= 32
        && key.split_whitespace().count() <= 4
        && !key.contains([',', '<', '>', '(', ')', '[', ']', '"', '\''])
        // Kernel .config lines are settings, not measurements.
        && !key.contains("CONFIG_");
    // `>5484.43us:` is a histogram-bucket key: the line is read, the key is not.
    let bucket = key.starts_with('>') && key.chars().count() <= 16 && !key.contains(' ');
    plain || bucket
}

/// Splits a line into cells at tabs and runs of two or more spaces.
pub fn split_cells(text: &str) -> Vec<RawCell> {
    cell_texts(text)
        .into_iter()
        .map(|(col, text)| RawCell {
            col,
            text: text.into_owned(),
        })
        .collect()
}

/// [`split_cells`] as (starting column, text) pairs; a cell of ASCII text
/// that is one span of the line borrows it instead of copying it.
fn cell_texts(text: &str) -> Vec<(usize, Cow<'_, str>)> {
    // Columns are counted in characters; in ASCII text (nearly every line)
    // those are bytes, and the text needs no copy into characters.
    let cells: Vec<(usize, Cow<str>)> = if text.is_ascii() {
        let b = text.as_bytes();
        let ws = |x: u8| (x as char).is_whitespace();
        cell_spans(b, ws, |x| x == b' ')
            .into_iter()
            .map(|(s, e)| (s, Cow::Borrowed(&text[s..e])))
            .collect()
    } else {
        let c: Vec<char> = text.chars().collect();
        cell_spans(&c, char::is_whitespace, |x| x == ' ')
            .into_iter()
            .map(|(s, e)| (s, Cow::Owned(c[s..e].iter().collect())))
            .collect()
    };
    let mut out: Vec<(usize, Cow<str>)> = Vec::with_capacity(cells.len());
    for (start, text) in cells {
        // `140227 ±  3%`: a spread written after a wide gap stays in its cell.
        let joins = out.last().is_some_and(|(_, p)| {
            let p = p.trim_end();
            p.ends_with('±') || p.ends_with("+/-") || p.ends_with("+-")
        }) || text.starts_with('±')
            || text.starts_with("+/-")
            || (text.starts_with('[') && text.ends_with(']') && !out.is_empty());
        match out.last_mut() {
            Some((_, prev)) if joins => {
                let prev = prev.to_mut();
                prev.push(' ');
                prev.push_str(&text);
            }
            _ => out.push((start, text)),
        }
    }
    out
}

/// The (start, end) positions of the cells of a line given as characters
/// (or as bytes, for ASCII text): a single space continues a cell, a tab or
/// two spaces end it.
fn cell_spans<T: Copy>(
    c: &[T],
    ws: impl Fn(T) -> bool,
    space: impl Fn(T) -> bool,
) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        while i < c.len() && ws(c[i]) {
            i += 1;
        }
        if i >= c.len() {
            break;
        }
        let start = i;
        loop {
            while i < c.len() && !ws(c[i]) {
                i += 1;
            }
            if i + 1 < c.len() && space(c[i]) && !ws(c[i + 1]) {
                i += 1;
                continue;
            }
            break;
        }
        out.push((start, i));
    }
    out
}

/// Joins a header written over two lines: each cell of the lower line gets
/// the upper cell above it (the one its span overlaps most, else the nearest
/// one to its left) as a prefix: `baseline` over `mean` and `sd` gives
/// `baseline mean` and `baseline sd`.
pub fn merge_header(upper: &[RawCell], lower: &[RawCell]) -> Vec<RawCell> {
    let span = |c: &RawCell| (c.col, c.col + c.text.chars().count());
    lower
        .iter()
        .map(|l| {
            let (ls, le) = span(l);
            let overlap = |u: &RawCell| {
                let (us, ue) = span(u);
                ue.min(le).saturating_sub(us.max(ls))
            };
            let best = upper
                .iter()
                .filter(|u| overlap(u) > 0)
                .max_by_key(|u| overlap(u))
                .or_else(|| upper.iter().filter(|u| u.col <= ls).max_by_key(|u| u.col));
            let text = match best {
                Some(u) => format!("{} {}", u.text, l.text),
                None => l.text.clone(),
            };
            RawCell { col: l.col, text }
        })
        .collect()
}

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
    // The unit glued to the value: `12ms`, `1.5GB/s`.
    if last.is_none() {
        let w = first;
        // Both the glued reading and the whole-head one below need `w`
        // (which is the head) to start like a number.
        if !number_start(w) {
            return None;
        }
        let split = w
            .char_indices()
            .find(|(_, c)| c.is_alphabetic() || *c == 'µ')
            .map(|(i, _)| i)?;
        let (num, unit) = w.split_at(split);
        if known_unit(unit) {
            let c = cell(num)?;
            return Some((c, Some(Unit::normalize_spelling(unit))));
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

/// True when `w` starts the way [`parse_cell`] needs a cell to start: its
/// value is read from the text's beginning, which must be a digit, a sign
/// or a decimal point.
fn number_start(w: &str) -> bool {
    matches!(
        w.trim_start().as_bytes().first(),
        Some(b'0'..=b'9' | b'+' | b'-' | b'.')
    )
}

/// [`parse_cell`], skipping the searches for spread separators in text that
/// cannot start a number.
fn cell(t: &str) -> Option<Cell> {
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
fn plain_number(t: &str) -> Option<Cell> {
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

/// Powers of ten that are exact in an `f64`.
const EXACT_POW10: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/// The value of a short decimal (`5.1803`, `-12`, `.5`, `5.`: an optional
/// `-`, digits and at most one `.`, at most 15 digits) read without the
/// general float parser: its digits are an integer below 2^53 and its
/// scale an exact power of ten, so one division, correctly rounded, gives
/// the correctly rounded value that `parse_f64` gives. `None` for anything
/// else (more digits, two points, no digit), which the caller reads the
/// long way.
#[inline]
fn short_decimal(t: &str) -> Option<f64> {
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
fn numeric_cells(text: &str) -> Option<Vec<(String, Cell)>> {
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
fn data_row(text: &str) -> Option<DataRow> {
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
fn plain_last_cell(text: &str) -> Option<&str> {
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
fn all_cells_row(text: &str) -> Option<DataRow> {
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
    let label = cells[..first]
        .iter()
        .map(|(_, t)| t.as_ref())
        .collect::<Vec<_>>()
        .join(" ");
    // Prose ends in a number now and then; a row label is short.
    if label.split_whitespace().count() > 6 || label.ends_with(':') || label.ends_with('=') {
        return None;
    }
    Some(DataRow {
        label,
        cells: parsed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_is_judged_by_its_last_cell_first() {
        let go =
            "BenchmarkGen0/n=10-2 \t  200000\t      1012 ns/op\t      24 B/op\t       1 allocs/op";
        assert_eq!(plain_last_cell(go), Some("1 allocs/op"));
        assert_eq!(plain_last_cell("a b  c d \t"), Some("c d"));
        assert_eq!(plain_last_cell("x  140227 ±  3%"), None);
        assert_eq!(plain_last_cell("x  1 +- 2"), None);
        assert_eq!(plain_last_cell("   "), None);
        assert_eq!(data_row(go), None);
        let row = data_row("hackbench 50   1.234   1.301").unwrap();
        assert_eq!(row.label, "hackbench 50");
        assert_eq!(row.cells.len(), 2);
    }

    #[test]
    fn ascii_keys_are_judged_as_character_by_character() {
        for key in [
            "",
            "time",
            "BenchmarkGen0/n",
            ">5484.43us",
            "> 5484",
            ">12345678901234567",
            "a b c d",
            "a b c d e",
            "a\x0bb\x0bc\x0bd\x0be",
            "CONFIG_HZ",
            "x CONFIG_",
            "CONFIG",
            "avg (ms)",
            "1234567890123456789012345678901",
            "12345678901234567890123456789012",
            "123456789012345678901234567890123",
            "\ttime\t",
            "it's",
            "[0]",
        ] {
            assert_eq!(
                valid_ascii_key(key.as_bytes()),
                valid_key_chars(key),
                "{key:?}"
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn ascii_keys_agree_with_the_character_test(
            key in "[ -~\t\n\x0b\x0c\r]{0,40}|(>|CONFIG_| |[a-z]{1,6}|[,<>()\\[\\]\"'])*"
        ) {
            proptest::prop_assert_eq!(valid_ascii_key(key.as_bytes()), valid_key_chars(&key));
        }
    }

    proptest::proptest! {
        /// The shortcut never changes what a line is: rows and their cells
        /// are those of reading every cell.
        #[test]
        fn the_last_cell_shortcut_agrees_with_reading_every_cell(
            text in "[a-z0-9 ./%:=+\\[\\]\t-]{0,40}|[a-z0-9 .]{0,12}  [0-9.]{1,6}( [a-z%/]{1,4})?"
        ) {
            proptest::prop_assert_eq!(data_row(&text), all_cells_row(&text));
            if let Some(last) = plain_last_cell(&text) {
                let cells = cell_texts(&text);
                proptest::prop_assert_eq!(cells.last().map(|(_, t)| t.as_ref()), Some(last));
            }
        }
    }

    #[test]
    fn pairs_of_a_sample_line() {
        let p = pairs("pert/s:      229 >5484.43us:       41 min:  0.15 max:12069.42 avg:2193.81 sum/s:502382us overhead:50.24%").unwrap();
        let keys: Vec<&str> = p.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "pert/s",
                ">5484.43us",
                "min",
                "max",
                "avg",
                "sum/s",
                "overhead"
            ]
        );
        assert_eq!(p[4].value, 2193.81);
        assert_eq!(p[5].unit, "us");
        assert_eq!(p[6].unit, "%");
    }

    #[test]
    fn pairs_with_spaced_units_and_equals() {
        let p = pairs("maximum latency: 42963.2 µs").unwrap();
        assert_eq!(
            (p[0].key.as_str(), p[0].value, p[0].unit.as_str()),
            ("maximum latency", 42963.2, "us")
        );
        let p = pairs("Iterations=5000").unwrap();
        assert_eq!(p[0].value, 5000.0);
        let p = pairs("std. dev. : 0.07s").unwrap();
        assert_eq!((p[0].key.as_str(), p[0].unit.as_str()), ("std. dev.", "s"));
        let p = pairs("a: 5 b: 6").unwrap();
        assert_eq!(p.len(), 2);
    }

    #[test]
    fn prose_and_headers_are_not_pairs() {
        for l in [
            "Date:\tWed, 10 Jan 2007 12:47:21 +0100",
            "Message-ID: <45A4D249.8080904@bull.net>",
            "On Tue, 2013-11-26 at 11:25 -0800, someone wrote:",
            "  Last update: 2013-11-26 22:41    [W:0.078 / U:0.224 seconds]",
            "First case: all threads are SCHED_OTHER",
            "Subject: Re: [PATCH 2.6.20-rc4 1/4] futex priority based wakeup",
            "OpenPGP key fingerprint: 8CD5 52C3 8E3C 4140 715F  BA06 3F25 A8FE 3BAE 9A68",
        ] {
            assert_eq!(pairs(l), None, "{l}");
            assert!(!matches!(classify(l), Kind::Row(_)), "{l}");
        }
    }

    #[test]
    fn cells_with_units_and_remarks() {
        let (c, u) = value_cell("5.53 us").unwrap();
        assert_eq!((c.value, u.as_deref()), (5.53, Some("us")));
        let (c, u) = value_cell("10.2 us +- 0.5 us").unwrap();
        assert_eq!(
            (c.value, c.spread, u.as_deref()),
            (10.2, Some(0.5), Some("us"))
        );
        let (c, u) = value_cell("10.2 us: 1.85x slower").unwrap();
        assert_eq!((c.value, u.as_deref()), (10.2, Some("us")));
        let (c, u) = value_cell("12ms").unwrap();
        assert_eq!((c.value, u.as_deref()), (12.0, Some("ms")));
        let (c, u) = value_cell("2.8 %").unwrap();
        assert_eq!((c.value, c.is_pct, u), (2.8, true, None));
        assert_eq!(value_cell("abc"), None);
        assert_eq!(value_cell("2.6.20-rc4"), None);
        assert_eq!(value_cell("x86_64"), None);
    }

    #[test]
    fn attributes_are_not_measurements() {
        let one = |l: &str| pairs(l).unwrap().remove(0);
        assert!(!is_measurement(&one("CPU family: 6")));
        assert!(!is_measurement(&one("BogoMIPS: 5586.87")));
        assert!(is_measurement(&one("Time: 2.978")));
        assert!(is_measurement(&one("maximum latency: 42963.2 µs")));
        assert!(is_measurement(&one("avg : 2.99")));
        assert!(is_measurement(&one("Iterations=5000")));
        assert_eq!(pairs("CONFIG_HZ=250"), None);
    }

    #[test]
    fn fast_decimals_round_like_str_parse() {
        // Deterministic spread of lengths, dot positions and digits,
        // including mantissas at and past the exact range.
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = 1 + (x % 19) as usize;
            let mut s: String = (0..len)
                .map(|i| char::from(b'0' + ((x >> (i * 3)) % 10) as u8))
                .collect();
            let dot = ((x >> 40) % (len as u64 + 2)) as usize;
            if dot <= len {
                s.insert(dot, '.');
            }
            if (x >> 50) & 1 == 1 {
                s.insert(0, '-');
            }
            let want = s.parse::<f64>().ok().filter(|v| v.is_finite());
            let got = plain_number(&s).map(|c| c.value);
            assert_eq!(got.map(f64::to_bits), want.map(f64::to_bits), "{s}");
        }
        for s in [
            "0.1",
            "5.1803",
            "-0",
            "-0.0",
            ".5",
            "5.",
            "123456789012345",
            "0.000000000000001",
        ] {
            assert_eq!(
                plain_number(s).map(|c| c.value.to_bits()),
                s.parse::<f64>().ok().map(f64::to_bits),
                "{s}"
            );
        }
        assert_eq!(plain_number("."), None);
        assert_eq!(plain_number("1.2.3"), None);
        assert_eq!(plain_number("-"), None);
    }

    proptest::proptest! {
        /// Boxed cells are the row split at each bar and trimmed.
        #[test]
        fn box_cells_are_split_and_trimmed(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "|", " ", "\t", "5", "a b", "µ", "\u{a0}", "\u{3000}", "x", "  ", "}",
                    "\u{7f}", "0.5180", "\u{fc}",
                ]),
                0..24,
            )
        ) {
            let row = parts.concat();
            proptest::prop_assert_eq!(find_bar(row.as_bytes()), row.find('|'));
            let cells: Vec<&str> = BoxCells(&row).iter().collect();
            proptest::prop_assert_eq!(BoxCells(&row).count(), cells.len());
            let want: Vec<&str> = row.split('|').map(str::trim).collect();
            proptest::prop_assert_eq!(cells, want, "{:?}", row);
        }
    }

    /// [`is_border`] as it was written before its eight-dash step.
    fn is_border_bytewise(t: &str) -> bool {
        let b = t.as_bytes();
        if !matches!(b.first(), Some(b'+' | b'|')) {
            return false;
        }
        let mut dashes = 0;
        for &c in b {
            match c {
                b'-' | b'=' => dashes += 1,
                b'+' | b'|' | b':' | b' ' => {}
                _ => return false,
            }
        }
        dashes >= 3
    }

    proptest::proptest! {
        #[test]
        fn borders_are_told_as_byte_by_byte(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "+", "|", "-", "--------", "=", ":", " ", "x", "-------", "5",
                ]),
                0..14,
            )
        ) {
            let t = parts.concat();
            proptest::prop_assert_eq!(is_border(&t), is_border_bytewise(&t), "{:?}", t);
        }

        /// Remembering prose changes no line's kind, whatever repeats.
        #[test]
        fn the_classifier_classifies_as_classify(
            picks in proptest::collection::vec(0usize..12, 0..40)
        ) {
            let lines = [
                "Results on machine 0 of the test rack:",
                "",
                "+-----+------+",
                "| threads | time (ms) |",
                "| 512 | 5.1803 |",
                "hackbench 50   1.234   1.301",
                "Time: 2.978",
                "real 0m34.067s",
                "   ^^^^^usecs",
                "with plist:",
                "  baseline  patched",
                "Results on machine 0 of the test rack:",
            ];
            let mut c = Classifier::default();
            for i in picks {
                proptest::prop_assert_eq!(c.classify(lines[i]), classify(lines[i]));
            }
        }
    }

    #[test]
    fn short_decimals_read_as_the_float_parser_reads_them() {
        for t in [
            "0",
            "-0",
            "-0.0",
            "5.",
            ".5",
            "-.5",
            "5.1803",
            "0.1",
            "0.3",
            "123456789012345",
            "12345678.9012345",
            ".000000000000001",
            "999999999999999",
            "00012.50",
        ] {
            let fast = short_decimal(t).unwrap();
            let slow = crate::ingest::shared::numbers::parse_f64(t).unwrap();
            assert_eq!(fast.to_bits(), slow.to_bits(), "{t}");
        }
        // Sixteen digits, two points, no digit, other characters: the long way.
        for t in [
            "1234567890123456",
            "1.2.3",
            ".",
            "-",
            "",
            "1e5",
            "+1",
            "1,5",
            " 1",
        ] {
            assert_eq!(short_decimal(t), None, "{t}");
        }
    }

    proptest::proptest! {
        /// Any decimal the shortcut reads has the bits `parse_f64` gives.
        #[test]
        fn the_short_decimal_is_the_parsed_one(
            t in "-?[0-9]{0,9}\\.?[0-9]{0,9}|-?[0-9]{1,15}|-?[0-9]{0,15}\\.[0-9]{0,15}"
        ) {
            if let Some(fast) = short_decimal(&t) {
                let slow = crate::ingest::shared::numbers::parse_f64(&t);
                proptest::prop_assert_eq!(Some(fast.to_bits()), slow.map(f64::to_bits), "{}", t);
            }
        }
    }

    #[test]
    fn is_value_is_value_cell() {
        for t in [
            "",
            "0",
            "512",
            "123456789012345",
            "1234567890123456",
            "1e5",
            "x",
            "5 us",
            "-3",
            "1.5",
            "9999999999999999999",
            " 12 ",
        ] {
            assert_eq!(is_value(t), value_cell(t).is_some(), "{t:?}");
        }
    }

    #[test]
    fn time_lines() {
        assert_eq!(
            classify("real\t0m34.067s"),
            Kind::Time("real".into(), 34.067)
        );
        assert_eq!(duration_seconds("1h2m3.5s"), Some(3723.5));
        assert_eq!(duration_seconds("3s4"), None);
    }

    #[test]
    fn rows_and_cells() {
        let Kind::Row(r) =
            classify("make -j1 kernel/      33.94 +/- 0.07         34.91 +/- 0.27      2.8 %")
        else {
            panic!()
        };
        assert_eq!(r.label, "make -j1 kernel/");
        assert_eq!(r.cells.len(), 3);
        assert_eq!(r.cells[2].1.value, 2.8);
        let Kind::Row(r) = classify("                  3869     7400  6656.73      539.35") else {
            panic!()
        };
        assert_eq!((r.label.as_str(), r.cells.len()), ("", 4));
        let Kind::Row(r) = classify("wakeup-buddy\t\t63024\t\t+45.20%") else {
            panic!()
        };
        assert_eq!((r.label.as_str(), r.cells.len()), ("wakeup-buddy", 2));
        assert_eq!(classify("hackbench 50"), Kind::Text);
        assert_eq!(
            classify("Here are the average latencies after 5000 measures."),
            Kind::Text
        );
    }

    #[test]
    fn boxes_and_carets() {
        assert_eq!(classify("+---------+-----+"), Kind::Border);
        let Kind::BoxRow(cells) = classify("| 512 | 4.2410 |") else {
            panic!()
        };
        assert_eq!(cells.iter().collect::<Vec<_>>(), ["512", "4.2410"]);
        let Kind::BoxRow(cells) = classify("|a||  b  |") else {
            panic!()
        };
        assert_eq!(cells.iter().collect::<Vec<_>>(), ["a", "", "b"]);
        let Kind::Carets(c) = classify("      ^^^^^usecs   ^^^^^usecs      ^^the competition")
        else {
            panic!()
        };
        assert_eq!(
            c,
            vec![(6, 11, "us".to_string()), (19, 24, "us".to_string())]
        );
    }
}
