//! A source's cleaned lines borrowed, from its lines or, for a document
//! whose lines are its raw text's, from that text (lines not made: see
//! [`Source::read_deferred`]).

#[cfg(doc)]
use super::Source;
use super::{has_plusminus_spelling, is_plain, Line};

/// One cleaned line, borrowed ([`Source::line_texts`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LineText<'a> {
    /// The cleaned text.
    pub text: &'a str,
    /// 1-based line number in the original file.
    pub number: u32,
    /// How many `>` quote levels were stripped.
    pub quote_depth: u8,
}

impl LineText<'_> {
    /// The owned [`Line`].
    pub fn to_line(self) -> Line {
        Line {
            text: self.text.to_string(),
            number: self.number,
            quote_depth: self.quote_depth,
        }
    }
}

/// The iterator of [`Source::line_texts`].
#[derive(Debug, Clone)]
pub enum LineTexts<'a> {
    /// The lines made.
    Made(std::slice::Iter<'a, Line>),
    /// The raw text's lines, the next numbered `number` (deferred lines).
    Raw {
        /// The text from the next line on; `None` past the last.
        rest: Option<&'a str>,
        /// The next line's number.
        number: u32,
    },
}

impl<'a> Iterator for LineTexts<'a> {
    type Item = LineText<'a>;

    fn next(&mut self) -> Option<LineText<'a>> {
        match self {
            LineTexts::Made(lines) => lines.next().map(|l| LineText {
                text: &l.text,
                number: l.number,
                quote_depth: l.quote_depth,
            }),
            LineTexts::Raw { rest, number } => {
                let text = rest.take()?;
                let line = match memchr::memchr(b'\n', text.as_bytes()) {
                    Some(i) => {
                        *rest = Some(&text[i + 1..]);
                        &text[..i]
                    }
                    None => text,
                };
                *number += 1;
                Some(LineText {
                    text: line,
                    number: *number - 1,
                    quote_depth: 0,
                })
            }
        }
    }
}

/// Whether the cleaned lines of `text` are its lines as they are, split at
/// `\n` (a UTF-8 BOM aside): a JSON document (no quote stripping, no
/// rewrapping) that is [`is_plain`] and holds no `\r`, no spelling of `±`
/// to repair and no no-break space. Such a text's lines can be read from
/// it at any time, and need not be made ([`Source::read_deferred`]).
pub(super) fn lines_are_raw(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let b = text.as_bytes();
    matches!(text.trim_start().as_bytes().first(), Some(b'{' | b'['))
        && memchr::memchr(b'\r', b).is_none()
        && !has_plusminus_spelling(text)
        && memchr::memmem::find(b, "\u{a0}".as_bytes()).is_none()
        && is_plain(text)
}

impl<'a> LineTexts<'a> {
    /// The lines of `raw`, a text of which [`lines_are_raw`] holds.
    pub(super) fn of_raw(raw: &'a str) -> Self {
        let text = raw.strip_prefix('\u{feff}').unwrap_or(raw);
        let body = text.strip_suffix('\n').unwrap_or(text);
        LineTexts::Raw {
            rest: Some(body),
            number: 1,
        }
    }
}
