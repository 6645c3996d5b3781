//! Telling a plain `key=20` from quoted-printable's encoded trailing space
//! (both end a line in `=20`), and a plain line ending in `=` from a soft
//! break: an encoder leaves no other bare `=`.

use super::is_hex;

/// The paragraph of `text` that holds byte `i`: its line and the lines
/// next to it up to a blank line or the text's ends, without line endings.
pub(super) fn paragraph_around(text: &str, i: usize) -> impl Iterator<Item = &str> {
    let b = text.as_bytes();
    let start_of_line = |at: usize| memchr::memrchr(b'\n', &b[..at]).map_or(0, |k| k + 1);
    let end_of_line = |at: usize| memchr::memchr(b'\n', &b[at..]).map_or(b.len(), |k| at + k);
    let blank = |s: usize, e: usize| text[s..e].trim().is_empty();
    let mut start = start_of_line(i);
    while start > 0 {
        let prev = start_of_line(start - 1);
        if blank(prev, start - 1) {
            break;
        }
        start = prev;
    }
    let mut end = end_of_line(i);
    while end < b.len() {
        let next = end_of_line(end + 1);
        if blank(end + 1, next) {
            break;
        }
        end = next;
    }
    text[start..end].lines().map(|l| l.trim_end_matches('\r'))
}

/// Whether `line` holds an `=` that quoted-printable cannot have written:
/// one followed by anything but two hex digits, short of the line's end
/// (a soft break). An encoder escapes every `=` of the text as `=3D`, so
/// such a line (`min=1, max=20`) is plain, and its `=20` ending a value.
pub(super) fn has_bare_equals(line: &str) -> bool {
    let b = line.as_bytes();
    b.iter().enumerate().any(|(i, &c)| {
        c == b'=' && i + 1 < b.len() && !(i + 2 < b.len() && is_hex(b[i + 1]) && is_hex(b[i + 2]))
    })
}

/// The longest line a quoted-printable encoder writes, soft break
/// included (RFC 2045).
const QP_WIDTH: usize = 76;

/// Whether unquoted lines show soft breaks an archive left undecoded: two
/// or more lines ending in `=`, and every such line (but a rule of `==`)
/// one an encoder would have written. An encoder breaks a line only when
/// it is longer than [`QP_WIDTH`], so each broken line is at most that
/// long and, with the rest on the next line, longer; and it escapes every
/// other `=` (as `=3D`), so neither line holds a bare one. A log line
/// ending in `=` (`ret =` over the rest of a statement, `key=` with an
/// empty value) fails one of these.
pub(super) fn bare_soft_breaks<'a>(lines: impl Iterator<Item = &'a str>) -> bool {
    let mut count = 0;
    let mut lines = lines.peekable();
    while let Some(l) = lines.next() {
        let b = l.as_bytes();
        if b.last() != Some(&b'=') || b.len() < 2 || b[b.len() - 2] == b'=' {
            continue;
        }
        let next = lines.peek().copied().unwrap_or("");
        // The body's last soft break, after an encoded line end (`=0A=`),
        // has nothing to join: the encoder's, when the line is.
        if next.is_empty() && ends_encoded(l) {
            continue;
        }
        let encoded = b.len() <= QP_WIDTH
            && !next.is_empty()
            && b.len() - 1 + next.len() > QP_WIDTH
            && !has_bare_equals(l)
            && !has_bare_equals(next);
        if !encoded {
            return false;
        }
        count += 1;
    }
    count >= 2
}

/// Whether `line` ends in an encoded line end before a soft break
/// (`1319=0A=`), and is one an encoder could have written.
fn ends_encoded(line: &str) -> bool {
    let b = line.as_bytes();
    b.len() <= QP_WIDTH
        && (line.ends_with("=0A=") || line.ends_with("=0D="))
        && !has_bare_equals(line)
}

/// How many line ends `text` holds encoded before a quote mark (`=0A>`):
/// a body in which even the line breaks are escaped. Two make it
/// quoted-printable; a plain `x=0A` hex value is not followed by `>`.
pub(super) fn encoded_quoted_breaks(text: &str) -> usize {
    memchr::memmem::find_iter(text.as_bytes(), b"=0A>").count()
}
