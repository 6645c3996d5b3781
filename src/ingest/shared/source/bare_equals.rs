//! Telling a plain `key=20` from quoted-printable's encoded trailing space:
//! both end a line in `=20`, but an encoder leaves no other bare `=`.

use super::is_hex;

/// The line of `text` that holds byte `i`, without its line ending.
pub(super) fn line_around(text: &str, i: usize) -> &str {
    let b = text.as_bytes();
    let start = memchr::memrchr(b'\n', &b[..i]).map_or(0, |k| k + 1);
    let end = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |k| i + k);
    text[start..end].trim_end_matches('\r')
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
