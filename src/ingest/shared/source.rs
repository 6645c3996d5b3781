//! A file's text with the damage of e-mail and terminals undone, so that every
//! format parses clean lines while reporting the original line numbers.
//!
//! Order matters: decompression, then decoding, then quoted-printable (which
//! can join lines), then terminal redraws, then quote prefixes, then record
//! lines a mail client wrapped.

use crate::error::{Error, Result};
use crate::ingest::shared::text::strip_line_end;
use crate::model::SmolStr;
use std::borrow::Cow;
use std::io::Read;
use std::path::Path;
use std::sync::OnceLock;

mod line_texts;
mod quoted_printable;
mod rewrap;
mod terminal;

use line_texts::lines_are_raw;
pub use line_texts::{LineText, LineTexts};
use quoted_printable::{looks_quoted_printable, text_is_quoted_printable, undo_quoted_printable};
use terminal::{has_terminal_control, replay_terminal};

/// One prepared line and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// The cleaned text.
    pub text: String,
    /// 1-based line number in the original file.
    pub number: u32,
    /// How many `>` quote levels were stripped.
    pub quote_depth: u8,
}

/// An input prepared for parsing.
#[derive(Debug, Clone)]
pub struct Source {
    /// The path as given by the user; shared (not copied) by every
    /// observation read from this source.
    pub path: SmolStr,
    /// The cleaned lines.
    pub lines: Vec<Line>,
    /// The decoded text before line cleaning (JSON and other structured
    /// formats parse this, where quote stripping would do harm).
    pub raw: String,
    /// The cleaned lines joined, made on first use (see [`Source::joined`]).
    joined: OnceLock<Option<String>>,
    /// Whether `lines` is left empty until [`Source::ensure_lines`]: a
    /// structured document read from `raw` needs no copy of its text as
    /// lines (see [`Source::read_deferred`]).
    deferred: bool,
}

impl Source {
    /// Reads and prepares `path`. `.gz` (or gzip magic) is decompressed.
    pub fn read(path: &Path) -> Result<Source> {
        let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        Source::prepare(&crate::model::shown_path(path), Cow::Owned(bytes), false)
    }

    /// [`Source::read`], except that the lines of a JSON document whose
    /// lines are its raw text's as they are ([`lines_are_raw`]) are not
    /// made until [`Source::ensure_lines`]: a structured format reads
    /// `raw`, and a copy of a 100 MB document as lines is 100 MB more (a
    /// `String` a line, when it is indented). Until then `lines` is empty,
    /// and [`Source::line_texts`], [`Source::head`] and [`Source::text`]
    /// read the lines from `raw`.
    pub(crate) fn read_deferred(path: &Path) -> Result<Source> {
        let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        Source::prepare(&crate::model::shown_path(path), Cow::Owned(bytes), true)
    }

    /// [`Source::from_bytes`] of bytes the source takes over (no copy).
    pub(crate) fn from_owned(path: &str, bytes: Vec<u8>) -> Result<Source> {
        Source::prepare(path, Cow::Owned(bytes), false)
    }

    /// Prepares in-memory bytes as if read from a file called `path`.
    pub fn from_bytes(path: &str, bytes: &[u8]) -> Result<Source> {
        Source::prepare(path, Cow::Borrowed(bytes), false)
    }

    /// Decompresses, decodes and cleans. Bytes that are owned (a file just
    /// read, a decompressed stream) become the raw text without a copy.
    /// `defer`: leave the lines to [`Source::ensure_lines`] when they are
    /// the raw text's ([`Source::read_deferred`]).
    fn prepare(path: &str, bytes: Cow<'_, [u8]>, defer: bool) -> Result<Source> {
        let bytes = if bytes.starts_with(&[0x1f, 0x8b]) {
            let mut out = Vec::new();
            flate2::read::MultiGzDecoder::new(&bytes[..])
                .read_to_end(&mut out)
                .map_err(|e| {
                    Error::input(path, None, format!("corrupt or truncated gzip data: {e}"))
                })?;
            Cow::Owned(out)
        } else {
            bytes
        };
        let raw = decode_text(path, bytes)?;
        let deferred = defer && lines_are_raw(&raw);
        let lines = if deferred {
            Vec::new()
        } else {
            prepare_lines(&raw)
        };
        Ok(Source {
            path: path.into(),
            lines,
            raw,
            joined: OnceLock::new(),
            deferred,
        })
    }

    /// Prepares text that is already in memory (tests, stdin).
    pub fn from_text(path: &str, text: &str) -> Source {
        Source {
            path: path.into(),
            lines: prepare_lines(text),
            raw: text.to_string(),
            joined: OnceLock::new(),
            deferred: false,
        }
    }

    /// A piece of a large file read in pieces: `bytes` are whole lines
    /// from the middle of `path`, the first of them line `first_line`.
    /// `json_like` is the whole file's kind ([`Source::looks_like_json`] of
    /// its start), on which quote stripping depends. When the file is
    /// [`is_plain`], the piece's lines are the file's lines of the same
    /// numbers, as [`Source::read`] of the whole file prepares them.
    pub(crate) fn piece(
        path: &str,
        bytes: Vec<u8>,
        first_line: u32,
        json_like: bool,
    ) -> Result<Source> {
        let raw = decode_text(path, Cow::Owned(bytes))?;
        // The file's first piece starts with its BOM, if any.
        let text = match first_line {
            ..=1 => raw.strip_prefix('\u{feff}').unwrap_or(&raw),
            _ => &raw,
        };
        let mut lines = lines_of(text, json_like);
        for l in &mut lines {
            l.number += first_line.saturating_sub(1);
        }
        Ok(Source {
            path: path.into(),
            lines,
            raw,
            joined: OnceLock::new(),
            deferred: false,
        })
    }

    /// A source of lines already prepared, numbered as given (the lines a
    /// piece of a large file needs from elsewhere in it).
    pub(crate) fn from_lines(path: &str, lines: Vec<Line>) -> Source {
        let mut src = Source {
            path: path.into(),
            lines,
            raw: String::new(),
            joined: OnceLock::new(),
            deferred: false,
        };
        src.raw = src.text();
        src
    }

    /// The number of the source's first line in its file (1 when it has
    /// none): where a piece of a large file starts.
    pub(crate) fn first_line(&self) -> u32 {
        self.line_texts().next().map_or(1, |l| l.number)
    }

    /// Whether the lines are not made yet ([`Source::read_deferred`]).
    pub(crate) fn lines_deferred(&self) -> bool {
        self.deferred
    }

    /// Makes the lines of a source read with [`Source::read_deferred`],
    /// for a reader or an account that reads them.
    pub(crate) fn ensure_lines(&mut self) {
        if self.deferred {
            self.lines = prepare_lines(&self.raw);
            self.deferred = false;
        }
    }

    /// The cleaned lines in order, borrowed: from `lines`, or from `raw`
    /// while the lines are deferred (where they are the same text).
    pub fn line_texts(&self) -> LineTexts<'_> {
        if !self.deferred {
            return LineTexts::Made(self.lines.iter());
        }
        LineTexts::of_raw(&self.raw)
    }

    /// At most `max_lines` cleaned lines and `max_bytes` bytes of the start
    /// (raw text likewise), when the source is larger: a cheap stand-in for
    /// format detection on large files. A line longer than what is left of
    /// `max_bytes` (one-line JSON) is cut at a character boundary. `None`
    /// when the source fits.
    /// A source whose lines are deferred always gives its head, lines
    /// made, so that detection never reads the empty `lines`.
    pub fn head(&self, max_lines: usize, max_bytes: usize) -> Option<Source> {
        if !self.deferred && self.lines.len() <= max_lines && self.raw.len() <= max_bytes {
            return None;
        }
        let mut lines = Vec::new();
        let mut bytes = 0;
        for l in self.line_texts().take(max_lines) {
            if bytes + l.text.len() > max_bytes {
                // The line break counted after the previous line may already
                // reach the limit: nothing of this line fits then.
                let cut = floor_boundary(l.text, max_bytes.saturating_sub(bytes));
                if cut > 0 {
                    lines.push(Line {
                        text: l.text[..cut].to_string(),
                        number: l.number,
                        quote_depth: l.quote_depth,
                    });
                }
                break;
            }
            bytes += l.text.len() + 1;
            lines.push(l.to_line());
        }
        // The raw text is cut at the end of line `max_lines` or at
        // `max_bytes`, whichever comes first: a line end past `max_bytes`
        // is not looked for.
        let within = &self.raw.as_bytes()[..max_bytes.min(self.raw.len())];
        let line_end = memchr::memchr_iter(b'\n', within)
            .nth(max_lines.saturating_sub(1))
            .map_or(self.raw.len(), |i| i + 1);
        let end = floor_boundary(&self.raw, line_end.min(max_bytes));
        Some(Source {
            path: self.path.clone(),
            lines,
            raw: self.raw[..end].to_string(),
            joined: OnceLock::new(),
            deferred: false,
        })
    }

    /// The cleaned lines joined with `\n`.
    pub fn text(&self) -> String {
        let mut s = String::with_capacity(self.raw.len());
        for l in self.line_texts() {
            s.push_str(l.text);
            s.push('\n');
        }
        s
    }

    /// [`Source::text`], made once and kept, for searches of the whole text
    /// instead of line by line (format detection runs some forty detectors
    /// on the same lines). `None` when a cleaned line holds a line break
    /// (none should: a quoted-printable `=0A` is decoded into two lines):
    /// then a match in the joined text could span two of the text's lines,
    /// and callers search line by line.
    pub fn joined(&self) -> Option<&str> {
        self.joined
            .get_or_init(|| {
                let text = self.text();
                // One break per line: none inside a line.
                let breaks = memchr::memchr_iter(b'\n', text.as_bytes()).count();
                (breaks == self.line_texts().count()).then_some(text)
            })
            .as_deref()
    }

    /// The raw text with leading whitespace and a UTF-8 BOM removed, for
    /// structured formats to sniff.
    pub fn raw_trimmed(&self) -> &str {
        self.raw.trim_start_matches('\u{feff}').trim_start()
    }

    /// True when the first non-blank character opens a JSON value.
    pub fn looks_like_json(&self) -> bool {
        matches!(
            self.raw_trimmed().as_bytes().first(),
            Some(b'{') | Some(b'[')
        )
    }

    /// An input error at an original line number of this source.
    pub fn error(&self, line: Option<u32>, message: impl Into<String>) -> Error {
        Error::input(&self.path, line, message)
    }

    /// The file name without directories, for labels.
    pub fn file_name(&self) -> &str {
        Path::new(&self.path)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or(&self.path)
    }
}

/// The largest char boundary of `s` at or below `i`.
fn floor_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Decodes bytes as UTF-8, falling back to Latin-1 for old mail archives;
/// refuses binary data. Owned UTF-8 bytes are taken over as they are.
fn decode_text(path: &str, bytes: Cow<'_, [u8]>) -> Result<String> {
    if bytes.is_empty() {
        return Err(Error::input(path, None, "empty file"));
    }
    if let Some(pos) = memchr::memchr(0, &bytes) {
        let line = memchr::memchr_iter(b'\n', &bytes[..pos]).count() as u32 + 1;
        return Err(Error::input(
            path,
            Some(line),
            "binary data (NUL byte): not a text benchmark log",
        ));
    }
    let bytes = match bytes {
        Cow::Owned(v) => match String::from_utf8(v) {
            Ok(s) => return Ok(s),
            Err(e) => e.into_bytes(),
        },
        Cow::Borrowed(b) => match std::str::from_utf8(b) {
            Ok(s) => return Ok(s.to_string()),
            Err(_) => b.to_vec(),
        },
    };
    // Control bytes other than whitespace and ESC mean this is not text.
    let control = bytes
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\n' | b'\r' | b'\t' | 0x1b | 0x0c))
        .count();
    if control * 100 > bytes.len() {
        return Err(Error::input(
            path,
            None,
            "binary data: not a text benchmark log",
        ));
    }
    Ok(decode_lines(&bytes))
}

/// Text that is not UTF-8 as a whole, decoded line by line: a line that is
/// UTF-8 stays as it is and any other is read as Latin-1 (every byte the
/// code point of the same value, which old mail archives use). Decoding
/// the whole file as Latin-1 for one stray byte turned every `±` and `µ`
/// of its UTF-8 lines into two characters, and their tables fell apart.
fn decode_lines(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + bytes.len() / 8);
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        match std::str::from_utf8(line) {
            Ok(s) => out.push_str(s),
            Err(_) => out.extend(line.iter().map(|&b| b as char)),
        }
    }
    out
}

/// Splits, cleans and numbers the lines of `text`.
fn prepare_lines(text: &str) -> Vec<Line> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let json_like = matches!(
        text.trim_start().as_bytes().first(),
        Some(b'{') | Some(b'[')
    );
    lines_of(text, json_like)
}

/// [`prepare_lines`] once the BOM is gone and the text's kind is known.
fn lines_of(text: &str, json_like: bool) -> Vec<Line> {
    let mut lines = if is_plain(text) {
        plain_lines(text, json_like)
    } else {
        general_lines(text, json_like)
    };
    if !json_like {
        rewrap::rejoin_wrapped(&mut lines);
    }
    lines
}

/// True when `text` holds no quoted-printable escape and no terminal
/// redraw, so that its lines are prepared one by one, each on its own
/// ([`plain_lines`]). The signs lie within a line, or two (a soft break
/// shown undecoded): a text cut after line breaks is plain when each of
/// its pieces is, but for a soft break the cut falls in.
pub(crate) fn is_plain(text: &str) -> bool {
    !text_is_quoted_printable(text) && !has_terminal_control(text)
}

/// Every repair in order: quoted-printable, terminal redraws, quote
/// prefixes, `ą`.
fn general_lines(text: &str, json_like: bool) -> Vec<Line> {
    let mut lines: Vec<(String, u32)> = text
        .split('\n')
        .enumerate()
        .map(|(i, l)| (strip_line_end(l).to_string(), i as u32 + 1))
        .collect();
    if text.ends_with('\n') {
        lines.pop();
    }
    if looks_quoted_printable(&lines) {
        lines = undo_quoted_printable(lines);
    }
    let lines = replay_terminal(lines);
    lines
        .into_iter()
        .map(|(text, number)| {
            let (text, quote_depth) = if json_like {
                (text, 0)
            } else {
                strip_quotes(text)
            };
            Line {
                text: spaces_for_nbsp(fix_plusminus(text)),
                number,
                quote_depth,
            }
        })
        .collect()
}

/// The lines of a text that has neither quoted-printable escapes nor
/// terminal redraws (nearly every log): one pass, one copy of each line,
/// and the quote and `±` repairs only when the text holds a `>` or a
/// mangled `±` at all. Gives what the general path gives for such a text.
fn plain_lines(text: &str, json_like: bool) -> Vec<Line> {
    let body = text.strip_suffix('\n').unwrap_or(text);
    let quotes = !json_like && memchr::memchr(b'>', body.as_bytes()).is_some();
    let plusminus = has_plusminus_spelling(body);
    let nbsp = memchr::memmem::find(body.as_bytes(), "\u{a0}".as_bytes()).is_some();
    let b = body.as_bytes();
    // About one line per 40 bytes in logs; the estimate only saves copies.
    let mut lines = Vec::with_capacity(b.len() / 40 + 1);
    let ends = memchr::memchr_iter(b'\n', b).chain(std::iter::once(b.len()));
    let mut start = 0;
    for (i, end) in ends.enumerate() {
        let l = &body[start..end];
        start = end + 1;
        let mut text = strip_line_end(l).to_string();
        let mut quote_depth = 0;
        if quotes {
            (text, quote_depth) = strip_quotes(text);
        }
        if plusminus {
            text = fix_plusminus(text);
        }
        if nbsp {
            text = spaces_for_nbsp(text);
        }
        lines.push(Line {
            text,
            number: i as u32 + 1,
            quote_depth,
        });
    }
    lines
}

/// `text` with each no-break space made a plain space: mail clients keep
/// runs of spaces by alternating the two (`=A0 =A0` in quoted-printable),
/// so in a pasted table it is a column gap like any other.
fn spaces_for_nbsp(text: String) -> String {
    if text.contains('\u{a0}') {
        text.replace('\u{a0}', " ")
    } else {
        text
    }
}

/// One line of a plain text as [`plain_lines`] prepares it (the `\r` of a
/// `\r\n` ending gone, quote prefixes stripped unless the text is JSON,
/// `ą` repaired), with its quote depth; borrowed when nothing changes.
pub(crate) fn plain_line(line: &str, json_like: bool) -> (Cow<'_, str>, u8) {
    let line = strip_line_end(line);
    let quoted = !json_like && line.trim_start_matches([' ', '\t']).starts_with('>');
    // `ą` starts with the byte 0xC4: an ASCII line is cleared by one scan.
    let broken = memchr::memchr(0xC4, line.as_bytes()).is_some() && line.contains('ą');
    if !quoted && !broken {
        return (Cow::Borrowed(line), 0);
    }
    let (text, depth) = if quoted {
        strip_quotes(line.to_string())
    } else {
        (line.to_string(), 0)
    };
    (Cow::Owned(fix_plusminus(text)), depth)
}

/// Removes e-mail quote prefixes (`>`, `> >`, `>>`) and returns the depth.
/// An unquoted line (most lines of most files) is returned as it came,
/// without a copy.
fn strip_quotes(line: String) -> (String, u8) {
    let mut depth = 0u8;
    let mut rest = line.as_str();
    loop {
        let t = rest.trim_start_matches([' ', '\t']);
        // Only a few leading spaces may precede a quote marker; deeper
        // indentation followed by `>` is content, not quoting.
        let indent = rest.len() - t.len();
        if indent <= 3 && t.starts_with('>') {
            depth = depth.saturating_add(1);
            rest = &t[1..];
            if rest.starts_with(' ') && !rest.trim_start().starts_with('>') {
                rest = &rest[1..];
            }
        } else {
            break;
        }
    }
    if depth == 0 {
        return (line, 0);
    }
    (rest.to_string(), depth)
}

/// What `±` becomes on its way through mail clients and archives: `ą`
/// after a Latin-1/Latin-2 round trip, `Â±` when UTF-8 is read as Latin-1,
/// `A+-` when an archive then folds that to ASCII, `\261` when it prints
/// the byte as an octal escape.
const PLUSMINUS_SPELLINGS: [&str; 4] = ["ą", "Â±", "A+-", "\\261"];

/// Whether `text` holds a spelling of `±` that [`fix_plusminus`] undoes.
fn has_plusminus_spelling(text: &str) -> bool {
    PLUSMINUS_SPELLINGS
        .iter()
        .any(|s| memchr::memmem::find(text.as_bytes(), s.as_bytes()).is_some())
}

/// Undoes a spelling of `±` ([`PLUSMINUS_SPELLINGS`]) where it stands
/// between a number and the spread after it, as in `563556 A+-  1%`.
fn fix_plusminus(text: String) -> String {
    if !has_plusminus_spelling(&text) {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    'scan: while !rest.is_empty() {
        for spelling in PLUSMINUS_SPELLINGS {
            if let Some(after) = rest.strip_prefix(spelling) {
                let digit_before = out
                    .trim_end()
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_ascii_digit());
                let digit_after = after
                    .trim_start()
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_digit());
                if digit_before && digit_after {
                    out.push('±');
                    rest = after;
                    continue 'scan;
                }
            }
        }
        let c = rest.chars().next().expect("rest is not empty");
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// Calls `each` with every line of `text` (whole lines, the first numbered
/// `first`) prepared as the whole file's would be, its number and quote
/// depth; returns the number of line breaks.
pub(in crate::ingest) fn prepared_lines(
    text: &str,
    first: u32,
    json_like: bool,
    mut each: impl FnMut(&str, u32, u8),
) -> usize {
    let mut breaks = 0;
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', text.as_bytes())
        .map(Some)
        .chain([None])
    {
        let l = &text[start..end.unwrap_or(text.len())];
        if end.is_some() || !l.is_empty() {
            let (prepared, quote_depth) = plain_line(l, json_like);
            each(&prepared, first + breaks as u32, quote_depth);
        }
        let Some(end) = end else { break };
        breaks += 1;
        start = end + 1;
    }
    breaks
}

#[cfg(test)]
mod tests;
