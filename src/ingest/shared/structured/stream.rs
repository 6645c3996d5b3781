//! [`Cursor`] over a document read from disk a window at a time, so that a
//! JSON document of hundreds of megabytes is read without its text held
//! whole (issue 22: a 110 MB hyperfine export held its text while its
//! 80 MB of samples were made).
//!
//! Every token is read by [`Cursor`] itself on the window, once the
//! window holds the token and [`MARGIN`] bytes after it (or the file's
//! end): what the token's reading looks at is then the same bytes as in
//! the whole text, so the values are [`Cursor`]'s and a document is read
//! to the same values or given up on ([`Bail`]) the same way. Text that
//! the whole-text reading would repair or refuse (bytes that are not
//! UTF-8, a NUL byte) and a read error are given up on too: the caller
//! then reads the file whole, which reports them as it always has.

use super::{plain_decimal, Bail, Cursor, Fast, ROOM_AFTER_SAMPLES};
use std::borrow::Cow;
use std::io::Read;

/// Bytes past a token the window holds before the token is read: more
/// than any token's reading looks beyond its last byte (the byte after it,
/// or a word of eight read from within it).
const MARGIN: usize = 64;

/// Bytes read from the file at a time.
const CHUNK: usize = 1 << 20;

/// The longest single token (a string, or a value skipped whole) read
/// before giving up: the caller then reads the file whole.
const MAX_TOKEN: usize = 64 << 20;

/// What both cursors offer a reader of a JSON document: [`Cursor`] over a
/// text in memory, [`StreamCursor`] over a file. A reader written once
/// against this reads either, to the same values.
pub(crate) trait JsonCursor {
    /// Consumes a `null` if one comes next.
    fn null(&mut self) -> bool;
    /// Only whitespace is left.
    fn end(&mut self) -> Fast<()>;
    /// A string, unescaped.
    fn string(&mut self) -> Fast<Cow<'_, str>>;
    /// A number as `f64`.
    fn number(&mut self) -> Fast<f64>;
    /// An integer that fits `i64`.
    fn integer(&mut self) -> Fast<i64>;
    /// Calls `f` for each element of an array.
    fn array(&mut self, f: impl FnMut(&mut Self) -> Fast<()>) -> Fast<()>;
    /// Calls `f` with each key of an object, the cursor at its value.
    fn object(&mut self, f: impl FnMut(&mut Self, &str) -> Fast<()>) -> Fast<()>;
    /// Consumes back-to-back copies of `run` ([`Cursor::skip_copies`]).
    fn skip_copies(&mut self, run: &[u8; 8]) -> usize;
    /// An array of numbers appended to `out`.
    fn numbers(&mut self, out: &mut Vec<f64>) -> Fast<()>;
    /// The text of the next value, checked by serde_json.
    fn value_text(&mut self) -> Fast<&str>;
}

impl JsonCursor for Cursor<'_> {
    fn null(&mut self) -> bool {
        Cursor::null(self)
    }
    fn end(&mut self) -> Fast<()> {
        Cursor::end(self)
    }
    fn string(&mut self) -> Fast<Cow<'_, str>> {
        Cursor::string(self)
    }
    fn number(&mut self) -> Fast<f64> {
        Cursor::number(self)
    }
    fn integer(&mut self) -> Fast<i64> {
        Cursor::integer(self)
    }
    fn array(&mut self, f: impl FnMut(&mut Self) -> Fast<()>) -> Fast<()> {
        Cursor::array(self, f)
    }
    fn object(&mut self, f: impl FnMut(&mut Self, &str) -> Fast<()>) -> Fast<()> {
        Cursor::object(self, f)
    }
    fn skip_copies(&mut self, run: &[u8; 8]) -> usize {
        Cursor::skip_copies(self, run)
    }
    fn numbers(&mut self, out: &mut Vec<f64>) -> Fast<()> {
        Cursor::numbers(self, out)
    }
    fn value_text(&mut self) -> Fast<&str> {
        Cursor::value_text(self)
    }
}

/// A forward reader over a JSON document read from `reader` a window at a
/// time (see the module documentation). A leading UTF-8 BOM is skipped,
/// as the whole-text readers trim it.
pub(crate) struct StreamCursor<R> {
    reader: R,
    /// The text read and not yet consumed, from `pos` on (what is before
    /// `pos` is dropped when more is read).
    window: String,
    pos: usize,
    /// Bytes read that do not yet end a character.
    partial: Vec<u8>,
    /// The buffer a chunk is read into.
    scratch: Vec<u8>,
    /// Bytes of text dropped from the window's front so far.
    dropped: u64,
    /// The document's size in bytes, when known: arrays of numbers are
    /// sized from what is left of it.
    size: Option<u64>,
    /// Nothing more to read.
    eof: bool,
    /// A read error or text that is not UTF-8 (or holds a NUL byte) ended
    /// the reading: the document is given up on.
    failed: bool,
    /// Whether the BOM check at the start is done.
    started: bool,
}

impl<R: Read> StreamCursor<R> {
    /// A cursor at the start of the document `reader` gives, `size` bytes
    /// long when known.
    pub(crate) fn new(reader: R, size: Option<u64>) -> Self {
        Self::with_chunk(reader, size, CHUNK)
    }

    /// [`StreamCursor::new`] reading `chunk` bytes at a time (tests read a
    /// byte at a time, to cut every token somewhere).
    pub(crate) fn with_chunk(reader: R, size: Option<u64>, chunk: usize) -> Self {
        StreamCursor {
            reader,
            window: String::new(),
            pos: 0,
            partial: Vec::new(),
            scratch: vec![0; chunk.max(1)],
            dropped: 0,
            size,
            eof: false,
            failed: false,
            started: false,
        }
    }

    /// Whether the whole document was read as text: no read error, no
    /// byte that is not UTF-8, no NUL. A reading that ended otherwise is
    /// no reading, whatever it gave.
    pub(crate) fn intact(&self) -> bool {
        !self.failed
    }

    /// The offset of `pos` in the document.
    fn offset(&self) -> u64 {
        self.dropped + self.pos as u64
    }

    /// Bytes of the window from `pos` on.
    fn ahead(&self) -> usize {
        self.window.len() - self.pos
    }

    /// Reads until the window holds `need` bytes from `pos` on, or the
    /// document ends. `Err` when the reading failed (see
    /// [`StreamCursor::intact`]).
    fn fill(&mut self, need: usize) -> Fast<()> {
        if self.failed {
            return Err(Bail);
        }
        if !self.started {
            self.started = true;
            self.fill(3)?;
            while self.window[self.pos..].starts_with('\u{feff}') {
                self.pos += 3;
                self.fill(3)?;
            }
        }
        if self.ahead() >= need || self.eof {
            return Ok(());
        }
        // What was consumed goes; what is left (less than `need`) moves
        // to the front.
        self.dropped += self.pos as u64;
        self.window.drain(..self.pos);
        self.pos = 0;
        while self.window.len() < need && !self.eof {
            self.read_chunk();
            if self.failed {
                return Err(Bail);
            }
        }
        Ok(())
    }

    /// Appends the next chunk of the file to the window.
    fn read_chunk(&mut self) {
        let n = loop {
            match self.reader.read(&mut self.scratch) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => {
                    self.failed = true;
                    return;
                }
            }
        };
        if n == 0 {
            self.eof = true;
            // A character cut by the end of the file is no character.
            self.failed |= !self.partial.is_empty();
            return;
        }
        let read = &self.scratch[..n];
        if memchr::memchr(0, read).is_some() {
            self.failed = true;
            return;
        }
        self.partial.extend_from_slice(read);
        match std::str::from_utf8(&self.partial) {
            Ok(s) => {
                self.window.push_str(s);
                self.partial.clear();
            }
            Err(e) if e.error_len().is_none() => {
                let valid = e.valid_up_to();
                let s = std::str::from_utf8(&self.partial[..valid]).expect("valid up to here");
                self.window.push_str(s);
                self.partial.drain(..valid);
            }
            Err(_) => self.failed = true,
        }
    }

    /// Skips whitespace, reading on as needed, and returns the next byte.
    fn peek(&mut self) -> Option<u8> {
        loop {
            let b = self.window.as_bytes();
            let mut i = self.pos;
            while let Some(&c) = b.get(i) {
                if matches!(c, b' ' | b'\n' | b'\r' | b'\t') {
                    i += 1;
                } else {
                    self.pos = i;
                    return Some(c);
                }
            }
            self.pos = i;
            if self.eof || self.fill(1).is_err() || self.ahead() == 0 {
                return None;
            }
        }
    }

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

    /// One token read by [`Cursor`] with `read` on the window, once the
    /// window holds it and [`MARGIN`] bytes after it; gives where in the
    /// window it started, and what `read` gave. A reading that ends near
    /// the window's end, or fails before the document's end, may have been
    /// cut short: it is read again with more of the document.
    fn token<T>(&mut self, read: impl Fn(&mut Cursor) -> Fast<T>) -> Fast<(usize, T)> {
        self.peek();
        let mut need = MARGIN;
        loop {
            self.fill(need)?;
            let mut c = Cursor {
                text: &self.window,
                pos: self.pos,
            };
            let got = read(&mut c);
            let end = c.pos;
            let whole = self.eof || (got.is_ok() && end + MARGIN <= self.window.len());
            if whole {
                let start = self.pos;
                self.pos = end;
                return got.map(|v| (start, v));
            }
            if need >= MAX_TOKEN {
                return Err(Bail);
            }
            need = (need * 2).max(end - self.pos + MARGIN);
        }
    }
}

impl<R: Read> JsonCursor for StreamCursor<R> {
    fn null(&mut self) -> bool {
        if self.peek() != Some(b'n') || self.fill(4).is_err() {
            return false;
        }
        if self.window[self.pos..].starts_with("null") {
            self.pos += 4;
            true
        } else {
            false
        }
    }

    fn end(&mut self) -> Fast<()> {
        match self.peek() {
            None if !self.failed => Ok(()),
            _ => Err(Bail),
        }
    }

    fn string(&mut self) -> Fast<Cow<'_, str>> {
        let (_, s) = self.token(|c| c.string().map(Cow::into_owned))?;
        Ok(Cow::Owned(s))
    }

    fn number(&mut self) -> Fast<f64> {
        self.peek();
        if self.ahead() < MARGIN {
            self.fill(MARGIN)?;
        }
        // A plain decimal looks at no more than its 21 bytes and a word
        // after them: within the margin.
        if let Some((end, v)) = plain_decimal(self.window.as_bytes(), self.pos) {
            self.pos = end;
            return Ok(v);
        }
        self.token(|c| c.number()).map(|(_, v)| v)
    }

    fn integer(&mut self) -> Fast<i64> {
        self.token(|c| c.integer()).map(|(_, v)| v)
    }

    fn array(&mut self, mut f: impl FnMut(&mut Self) -> Fast<()>) -> Fast<()> {
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

    fn object(&mut self, mut f: impl FnMut(&mut Self, &str) -> Fast<()>) -> Fast<()> {
        self.eat(b'{')?;
        if self.try_eat(b'}') {
            return Ok(());
        }
        loop {
            let key = self.string()?.into_owned();
            self.eat(b':')?;
            f(self, &key)?;
            if !self.try_eat(b',') {
                return self.eat(b'}');
            }
        }
    }

    fn skip_copies(&mut self, run: &[u8; 8]) -> usize {
        let mut n = 0;
        loop {
            let b = self.window.as_bytes();
            while b.get(self.pos..).and_then(<[u8]>::first_chunk::<8>) == Some(run) {
                self.pos += 8;
                n += 1;
            }
            // Stopped at a different element, or at the window's end.
            if self.ahead() >= 8 || self.eof || self.fill(8).is_err() || self.ahead() < 8 {
                return n;
            }
        }
    }

    fn numbers(&mut self, out: &mut Vec<f64>) -> Fast<()> {
        self.eat(b'[')?;
        if self.try_eat(b']') {
            return Ok(());
        }
        let first = self.offset();
        out.push(self.number()?);
        if !self.try_eat(b',') {
            return self.eat(b']');
        }
        // Sized once from what is left of the document, at the width of
        // the first element with its comma and indent: more than the
        // array (the document goes on after it) but only as address
        // space, where growing by doubling copied ten million samples
        // about twice over and held both copies at its peak.
        self.peek();
        let width = (self.offset() - first).max(1);
        if let Some(size) = self.size {
            let left = size.saturating_sub(self.offset()) / width;
            out.reserve(usize::try_from(left).unwrap_or(0) + 1 + ROOM_AFTER_SAMPLES);
        }
        loop {
            out.push(self.number()?);
            if self.window.as_bytes().get(self.pos) == Some(&b',') {
                self.pos += 1;
            } else if !self.try_eat(b',') {
                return self.eat(b']');
            }
        }
    }

    fn value_text(&mut self) -> Fast<&str> {
        let (start, ()) = self.token(|c| c.value_text().map(|_| ()))?;
        Ok(&self.window[start..self.pos])
    }
}

#[cfg(test)]
mod tests;
