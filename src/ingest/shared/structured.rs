//! Helpers shared by the importers of structured outputs (JSON documents,
//! JSON lines, CSV exports): errors that carry the position, CSV records
//! with their original line numbers, and value checks.
//!
//! Structured formats read [`Source::raw`], not the cleaned lines: quote
//! stripping and terminal replay would damage a JSON document.

use crate::error::{Error, Result};
use crate::ingest::shared::text::{strip_line_end, trim};
use crate::ingest::Source;
use serde::de::DeserializeOwned;

mod stream;
pub(crate) use stream::{JsonCursor, StreamCursor};

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

/// The fast reader gave up: the document has a shape or a token it does
/// not handle. The caller then reads the document with serde, which gives
/// the same values, or reports the error exactly as it always has.
#[derive(Debug)]
pub(crate) struct Bail;

/// What a [`Cursor`] step gives.
pub(crate) type Fast<T> = std::result::Result<T, Bail>;

/// Entries of room left after an array of numbers ([`Cursor::numbers`]):
/// more than the summary rows a reader adds after its samples.
const ROOM_AFTER_SAMPLES: usize = 16;

/// Fraction digits up to which a decimal with a significand of at most
/// 2^53 is converted exactly by both serde_json and fast-float2 (the
/// significand and the power of ten are exact doubles, their quotient is
/// correctly rounded once): the range where the two agree bit for bit.
const EXACT_FRACTION_DIGITS: usize = 22;

/// 10^0 ..= 10^22, every one an exact double.
const POWERS_OF_TEN: [f64; EXACT_FRACTION_DIGITS + 1] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// The end of the run of ASCII digits at `i` and `significand` with those
/// digits appended. Wrapping arithmetic: a caller with more than 19
/// digits must not use the value.
#[inline]
fn digits_from(b: &[u8], mut i: usize, mut significand: u64) -> (usize, u64) {
    while i < b.len() {
        let d = b[i].wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        significand = significand.wrapping_mul(10).wrapping_add(u64::from(d));
        i += 1;
    }
    (i, significand)
}

/// 10^0 ..= 10^8 as integers (the scale of a run of digits).
const POWERS_OF_TEN_INT: [u64; 9] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
];

/// The eight bytes at `i` as a little-endian word (the byte at `i`
/// lowest), when there are eight.
#[inline(always)]
fn word_at(b: &[u8], i: usize) -> Option<u64> {
    b.get(i..)
        .and_then(<[u8]>::first_chunk::<8>)
        .map(|c| u64::from_le_bytes(*c))
}

/// How many ASCII digits `word` (eight bytes read little-endian, so the
/// first byte is the lowest) starts with, 0 to 8, and their value.
#[inline(always)]
fn digit_run(word: u64) -> (usize, u64) {
    const LOW_BYTES: u64 = 0x0101_0101_0101_0101;
    // A digit byte becomes its value 0..=9; any other byte something else.
    let t = word ^ (0x30 * LOW_BYTES);
    // A byte is flagged when it is above 9 (adding 0x76 sets its high bit)
    // or has its high bit set already. A byte of 0x8A or more carries into
    // the next one up, but it is flagged itself, and only the lowest
    // flagged byte is used: every byte below it is a digit, which carries
    // nothing.
    let flagged = (t.wrapping_add(0x76 * LOW_BYTES) | t) & (0x80 * LOW_BYTES);
    let n = flagged.trailing_zeros() / 8;
    // The n digits moved to the top bytes, zero bytes (leading zero
    // digits) below: the value of an eight-digit number (no digit at
    // all: 0; the shift would be 64).
    let v = if n == 0 { 0 } else { t << (8 * (8 - n)) };
    // Pairs, then fours, then the whole, each one multiplication.
    let v = v.wrapping_mul(10).wrapping_add(v >> 8);
    const MASK: u64 = 0x0000_00FF_0000_00FF;
    const MUL1: u64 = 100 + (1_000_000 << 32);
    const MUL2: u64 = 1 + (10_000 << 32);
    let sum = (v & MASK)
        .wrapping_mul(MUL1)
        .wrapping_add(((v >> 16) & MASK).wrapping_mul(MUL2));
    // The value sits in bits 32..64 of the sum, below 10^8.
    (n as usize, (sum >> 32) & 0xFFFF_FFFF)
}

/// The common number of a long array, its fraction read eight digits at
/// a time: `-?`, an integer part (no leading zero), and an optional
/// fraction, at most 19 digits and 2^53 in all, not followed by an
/// exponent. Gives the end and the value, which is [`Cursor::number`]'s
/// (same significand, same one division); `None` for anything else,
/// including a fraction within eight bytes of the end of the text, which
/// the general reading then takes.
#[inline(always)]
fn plain_decimal(b: &[u8], start: usize) -> Option<(usize, f64)> {
    let negative = b.get(start) == Some(&b'-');
    let i = start + usize::from(negative);
    // Integer parts are short (`0.`, `17.`): a digit at a time.
    let (mut end, mut significand) = digits_from(b, i, 0);
    let int_digits = end - i;
    if int_digits == 0 || (int_digits > 1 && b[i] == b'0') {
        return None;
    }
    let mut fraction = 0;
    if b.get(end) == Some(&b'.') {
        let j = end + 1;
        let (n, v) = digit_run(word_at(b, j)?);
        if n == 0 {
            return None;
        }
        // Wraps as n single steps would; past 19 digits the value is
        // refused below.
        significand = significand
            .wrapping_mul(POWERS_OF_TEN_INT[n])
            .wrapping_add(v);
        end = j + n;
        if n == 8 {
            (end, significand) = digits_from(b, end, significand);
        }
        fraction = end - j;
    }
    if int_digits + fraction > 19
        || significand > 1 << 53
        || matches!(b.get(end), Some(b'e' | b'E'))
    {
        return None;
    }
    let v = significand as f64 / POWERS_OF_TEN[fraction];
    Some((end, if negative { -v } else { v }))
}

/// A forward reader over JSON text for large documents whose bulk is
/// arrays of numbers (a million samples in one hyperfine export), where
/// serde's generic machinery costs several times the parse itself.
///
/// It accepts only valid JSON and gives the values serde_json would: plain
/// decimals are converted here, any other number, escaped string or
/// skipped value is handed to serde_json itself, and anything unusual is a
/// [`Bail`], after which the caller parses the document with serde as
/// before. So it changes the speed, never the result or the error.
pub(crate) struct Cursor<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `text` (BOM already removed).
    pub(crate) fn new(text: &'a str) -> Self {
        Cursor { text, pos: 0 }
    }

    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    /// Skips JSON whitespace and returns the next byte.
    #[inline]
    fn peek(&mut self) -> Option<u8> {
        let c = *self.bytes().get(self.pos)?;
        if matches!(c, b' ' | b'\n' | b'\r' | b'\t') {
            self.skip_whitespace()
        } else {
            Some(c)
        }
    }

    /// [`Cursor::peek`] past whitespace (compact documents have none
    /// between the values of an array).
    #[inline(never)]
    fn skip_whitespace(&mut self) -> Option<u8> {
        let b = self.bytes();
        while let Some(&c) = b.get(self.pos) {
            if matches!(c, b' ' | b'\n' | b'\r' | b'\t') {
                self.pos += 1;
                // Pretty-printed exports indent every array element on
                // its own line: the indent eight spaces at a time.
                while b.get(self.pos..).and_then(<[u8]>::first_chunk::<8>) == Some(b"        ") {
                    self.pos += 8;
                }
            } else {
                return Some(c);
            }
        }
        None
    }

    /// Consumes `c` if it comes next.
    fn try_eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn eat(&mut self, c: u8) -> Fast<()> {
        if self.try_eat(c) {
            Ok(())
        } else {
            Err(Bail)
        }
    }

    /// True when the next value starts with `c`.
    pub(crate) fn at(&mut self, c: u8) -> bool {
        self.peek() == Some(c)
    }

    /// Consumes a `null` if one comes next.
    pub(crate) fn null(&mut self) -> bool {
        if self.peek() == Some(b'n') && self.text[self.pos..].starts_with("null") {
            self.pos += 4;
            true
        } else {
            false
        }
    }

    /// Only whitespace is left.
    pub(crate) fn end(&mut self) -> Fast<()> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(Bail),
        }
    }

    /// A string, unescaped (escapes are decoded by serde_json).
    pub(crate) fn string(&mut self) -> Fast<std::borrow::Cow<'a, str>> {
        self.eat(b'"')?;
        let start = self.pos;
        let b = self.bytes();
        let mut escaped = false;
        let mut i = start;
        loop {
            match b.get(i) {
                None => return Err(Bail),
                Some(b'"') => break,
                Some(b'\\') => {
                    escaped = true;
                    i += 2;
                }
                Some(&c) if c < 0x20 => return Err(Bail),
                Some(_) => i += 1,
            }
        }
        self.pos = i + 1;
        if escaped {
            serde_json::from_str::<String>(&self.text[start - 1..=i])
                .map(std::borrow::Cow::Owned)
                .map_err(|_| Bail)
        } else {
            Ok(std::borrow::Cow::Borrowed(&self.text[start..i]))
        }
    }

    /// A number as `f64`.
    pub(crate) fn number(&mut self) -> Fast<f64> {
        self.number_inline()
    }

    /// [`Cursor::number`], inlined into the loop of [`Cursor::numbers`].
    #[inline(always)]
    fn number_inline(&mut self) -> Fast<f64> {
        self.peek();
        match plain_decimal(self.bytes(), self.pos) {
            Some((end, v)) => {
                self.pos = end;
                Ok(v)
            }
            None => self.any_number(),
        }
    }

    /// [`Cursor::number`] for every number: a digit at a time, and
    /// serde_json's conversion for exponents and long mantissas.
    #[inline(never)]
    fn any_number(&mut self) -> Fast<f64> {
        let b = self.bytes();
        let start = self.pos;
        let mut i = start;
        let negative = b.get(i) == Some(&b'-');
        if negative {
            i += 1;
        }
        let int_start = i;
        let (int_end, mut significand) = digits_from(b, i, 0);
        let int_digits = int_end - int_start;
        if int_digits == 0 || (b[int_start] == b'0' && int_digits > 1) {
            return Err(Bail);
        }
        i = int_end;
        let mut fraction = 0usize;
        if b.get(i) == Some(&b'.') {
            let (end, s) = digits_from(b, i + 1, significand);
            fraction = end - (i + 1);
            if fraction == 0 {
                return Err(Bail);
            }
            (i, significand) = (end, s);
        }
        let digits = int_digits + fraction;
        let plain = !matches!(b.get(i), Some(b'e' | b'E'))
            && digits <= 19
            && significand <= 1 << 53
            && fraction <= EXACT_FRACTION_DIGITS;
        if !plain {
            // Exponents, long mantissas: the standard library's conversion,
            // correctly rounded (serde_json's is not, without its
            // `float_roundtrip` feature: 17-digit values came out 1 ulp off).
            // serde_json validates the token's JSON syntax first.
            while let Some(c) = b.get(i) {
                if c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-') {
                    i += 1;
                } else {
                    break;
                }
            }
            self.pos = i;
            let token = &self.text[start..i];
            serde_json::from_str::<f64>(token).map_err(|_| Bail)?;
            return token.parse::<f64>().map_err(|_| Bail);
        }
        self.pos = i;
        // Both operands are exact doubles, so the one division is correctly
        // rounded: the same bits fast-float2 or serde_json give, without
        // reading the digits a second time.
        let v = significand as f64 / POWERS_OF_TEN[fraction];
        Ok(if negative { -v } else { v })
    }

    /// An integer that fits `i64` (not `-0`, which serde_json reads as a
    /// float).
    pub(crate) fn integer(&mut self) -> Fast<i64> {
        self.peek();
        let b = self.bytes();
        let mut i = self.pos;
        let negative = b.get(i) == Some(&b'-');
        if negative {
            i += 1;
        }
        let int_start = i;
        let mut v: i64 = 0;
        while let Some(&c) = b.get(i).filter(|c| c.is_ascii_digit()) {
            if i - int_start >= 18 {
                return Err(Bail);
            }
            v = v * 10 + i64::from(c - b'0');
            i += 1;
        }
        if i == int_start
            || (b[int_start] == b'0' && i - int_start > 1)
            || matches!(b.get(i), Some(b'.' | b'e' | b'E'))
            || (negative && v == 0)
        {
            return Err(Bail);
        }
        self.pos = i;
        Ok(if negative { -v } else { v })
    }

    /// Calls `f` for each element of an array.
    pub(crate) fn array(&mut self, mut f: impl FnMut(&mut Self) -> Fast<()>) -> Fast<()> {
        self.eat(b'[')?;
        if self.try_eat(b']') {
            return Ok(());
        }
        loop {
            f(self)?;
            if !self.try_eat(b',') {
                return self.eat(b']');
            }
        }
    }

    /// Calls `f` with each key of an object, the cursor at its value.
    pub(crate) fn object(&mut self, mut f: impl FnMut(&mut Self, &str) -> Fast<()>) -> Fast<()> {
        self.eat(b'{')?;
        if self.try_eat(b'}') {
            return Ok(());
        }
        loop {
            let key = self.string()?;
            self.eat(b':')?;
            f(self, &key)?;
            if !self.try_eat(b',') {
                return self.eat(b'}');
            }
        }
    }

    /// Consumes as many back-to-back copies of `run` as come next (no
    /// whitespace skipped between them) and returns how many. A caller
    /// that knows what most elements of a long array look like steps over
    /// them a word at a time: hyperfine's exit codes are `0,` per run, so
    /// `0,0,0,0,` is four codes, and the cursor is then again at the start
    /// of an element, where the ordinary reading goes on.
    pub(crate) fn skip_copies(&mut self, run: &[u8; 8]) -> usize {
        let b = self.bytes();
        let start = self.pos;
        while b.get(self.pos..).and_then(<[u8]>::first_chunk::<8>) == Some(run) {
            self.pos += 8;
        }
        (self.pos - start) / 8
    }

    /// An array of numbers appended to `out`.
    pub(crate) fn numbers(&mut self, out: &mut Vec<f64>) -> Fast<()> {
        // [`Cursor::array`] with the compact separator (`,` right after
        // the number) tested first, in one loop with the number.
        self.eat(b'[')?;
        if self.try_eat(b']') {
            return Ok(());
        }
        let first = self.pos;
        out.push(self.number()?);
        if !self.try_eat(b',') {
            return self.eat(b']');
        }
        // Sized once: the array ends at the first `]` (no number holds
        // one), and its elements are about as wide as the first with its
        // comma and indent. Only a hint, what the text holds is read
        // below; growing by doubling copied a million samples about twice
        // over. A few more make room for the rows a reader adds after the
        // samples when it takes the vector over as its table's column
        // (see `Dataset::push_values_vec`), which else grows by a copy.
        self.peek();
        let width = self.pos - first;
        if let Some(len) = memchr::memchr(b']', &self.bytes()[first..]) {
            out.reserve(len / width + 1 + ROOM_AFTER_SAMPLES);
        }
        loop {
            out.push(self.number_inline()?);
            if self.bytes().get(self.pos) == Some(&b',') {
                self.pos += 1;
            } else if !self.try_eat(b',') {
                return self.eat(b']');
            }
        }
    }

    /// The text of the next value, checked by serde_json (any value the
    /// fast reader does not interpret itself).
    pub(crate) fn value_text(&mut self) -> Fast<&'a str> {
        let first = self.peek().ok_or(Bail)?;
        let b = self.bytes();
        let start = self.pos;
        let mut i = start;
        let mut depth = 0usize;
        loop {
            match b.get(i) {
                None => return Err(Bail),
                Some(b'"') => {
                    i += 1;
                    loop {
                        match b.get(i) {
                            None => return Err(Bail),
                            Some(b'"') => break,
                            Some(b'\\') => i += 2,
                            Some(_) => i += 1,
                        }
                    }
                    i += 1;
                }
                Some(b'{' | b'[') => {
                    depth += 1;
                    // serde_json's recursion limit depends on where the
                    // value sits; deep values are left to serde.
                    if depth > 64 {
                        return Err(Bail);
                    }
                    i += 1;
                }
                Some(b'}' | b']') => {
                    if depth == 0 {
                        break;
                    }
                    depth -= 1;
                    i += 1;
                }
                Some(b',') if depth == 0 => break,
                Some(c) if depth == 0 && matches!(c, b' ' | b'\n' | b'\r' | b'\t') => break,
                Some(_) => i += 1,
            }
            if depth == 0 && matches!(first, b'"' | b'{' | b'[') {
                break;
            }
        }
        self.pos = i;
        let text = &self.text[start..i];
        serde_json::from_str::<serde::de::IgnoredAny>(text).map_err(|_| Bail)?;
        Ok(text)
    }
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

/// The non-blank raw lines of `src` with their 1-based numbers, line-ending
/// CRs removed.
pub(crate) fn raw_lines(src: &Source) -> impl Iterator<Item = (u32, &str)> {
    numbered_lines(&src.raw, 1)
}

/// The lines of `text` as `text.split('\n')` cuts them, numbered from
/// `first`, each without a trailing CR, blank ones left out. Line ends are
/// found with `memchr`'s vector search and blanks told with the byte-level
/// `trim`: `str::split` and `str::trim` were a fifth of the time of reading
/// a long tidy CSV table.
pub(crate) fn numbered_lines(text: &str, first: u32) -> impl Iterator<Item = (u32, &str)> {
    let ends = memchr::memchr_iter(b'\n', text.as_bytes()).chain([text.len()]);
    let mut start = 0;
    ends.enumerate().filter_map(move |(i, end)| {
        let l = &text[start..end];
        start = end + 1;
        let l = strip_line_end(l);
        (!trim(l).is_empty()).then_some((first + i as u32, l))
    })
}

/// The cells of a line without quotes, split at `sep` and borrowed, into
/// `cells` (cleared first), in one pass over its bytes; false, with `cells`
/// in an unspecified state, when the line holds a quote or `sep` is not
/// ASCII, and [`split_csv`] is needed. Where it succeeds it gives what
/// `split_csv` gives, without a `String` per cell.
pub(crate) fn split_unquoted<'a>(line: &'a str, sep: char, cells: &mut Vec<&'a str>) -> bool {
    cells.clear();
    if !sep.is_ascii() {
        return false;
    }
    let sep = sep as u8;
    let mut from = 0;
    for (j, &b) in line.as_bytes().iter().enumerate() {
        if b == sep {
            // Both ends are ASCII bytes, so both are character boundaries.
            cells.push(&line[from..j]);
            from = j + 1;
        } else if b == b'"' {
            return false;
        }
    }
    cells.push(&line[from..]);
    true
}

/// Splits one CSV record (RFC 4180 quoting, `""` for a quote inside quotes).
/// Records spanning lines are not supported: no harness here writes them.
pub(crate) fn split_csv(line: &str, sep: char) -> Vec<String> {
    csv_cells(line, sep).collect()
}

/// The cells of [`split_csv`] one at a time, for callers that decide on the
/// first few (format detection looks at every line of every input).
pub(crate) fn csv_cells(line: &str, sep: char) -> CsvCells<'_> {
    CsvCells {
        chars: line.chars().peekable(),
        sep,
        done: false,
    }
}

/// Iterator of [`csv_cells`].
pub(crate) struct CsvCells<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    sep: char,
    done: bool,
}

impl Iterator for CsvCells<'_> {
    type Item = String;

    fn next(&mut self) -> Option<String> {
        if self.done {
            return None;
        }
        let mut cur = String::new();
        let mut quoted = false;
        while let Some(c) = self.chars.next() {
            if quoted {
                if c == '"' {
                    if self.chars.peek() == Some(&'"') {
                        cur.push('"');
                        self.chars.next();
                    } else {
                        quoted = false;
                    }
                } else {
                    cur.push(c);
                }
            } else if c == '"' && cur.trim().is_empty() {
                cur.clear();
                quoted = true;
            } else if c == self.sep {
                return Some(cur);
            } else {
                cur.push(c);
            }
        }
        // The line's end closes the last cell (empty after a final separator).
        self.done = true;
        Some(cur)
    }
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
mod tests;

/// `src`'s raw text parsed as XML with `options`; an error names the row
/// and column the parser stopped at.
pub(crate) fn parse_xml<'a>(
    src: &'a Source,
    options: roxmltree::ParsingOptions<'a>,
) -> Result<roxmltree::Document<'a>> {
    roxmltree::Document::parse_with_options(&src.raw, options).map_err(|e| {
        let pos = e.pos();
        src.error(
            Some(pos.row),
            format!("invalid XML (column {}): {e}", pos.col),
        )
    })
}
