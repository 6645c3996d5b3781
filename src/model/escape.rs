//! Names shown to people: control characters and text-direction overrides
//! written as escapes, so that a name read from an input can neither drive
//! a terminal (`ESC[8m` hides what follows), nor reorder what a reader
//! sees (U+202E turns the rest of the line around), nor break a renderer
//! (typst refuses control characters in SVG text).

use smol_str::SmolStr;
use std::fmt::Write;

/// True for a character that must not reach an output as it is: C0 and C1
/// controls (tab and line breaks included: a name spans one table cell),
/// DEL, and the Unicode bidirectional marks, embeddings, overrides and
/// isolates.
pub fn is_unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// `s` with every [`is_unsafe_char`] written as an escape (`\x1b`, `\n`,
/// `\t`, `\u{202e}`); `None` when `s` holds none, which is nearly always
/// and costs one pass over its bytes.
pub fn escape_unsafe(s: &str) -> Option<String> {
    // Every unsafe character is below 0x20, 0x7f, or starts with a byte
    // of 0xc2 (C1), 0xd8 (U+061C) or 0xe2 (the U+20xx marks).
    let suspect = s
        .bytes()
        .any(|b| b < 0x20 || b == 0x7f || b == 0xc2 || b == 0xd8 || b == 0xe2);
    if !suspect || !s.chars().any(is_unsafe_char) {
        return None;
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if is_unsafe_char(c) && (c as u32) < 0x100 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if is_unsafe_char(c) => {
                let _ = write!(out, "\\u{{{:04x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Some(out)
}

/// Escapes `s` in place when it needs it ([`escape_unsafe`]).
pub fn escape_in_place(s: &mut SmolStr) {
    if let Some(e) = escape_unsafe(s) {
        *s = e.into();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_direction_overrides_are_escaped() {
        assert_eq!(
            escape_unsafe("sleep\u{1b}[8m 0.1").as_deref(),
            Some("sleep\\x1b[8m 0.1")
        );
        assert_eq!(escape_unsafe("a\u{202e}b").as_deref(), Some("a\\u{202e}b"));
        assert_eq!(
            escape_unsafe("two\nlines\t!").as_deref(),
            Some("two\\nlines\\t!")
        );
        assert_eq!(escape_unsafe("c1\u{85}").as_deref(), Some("c1\\x85"));
        assert_eq!(escape_unsafe("µs ± 3 → ok"), None);
        assert_eq!(escape_unsafe("plain name"), None);
    }

    proptest::proptest! {
        #[test]
        fn an_escaped_name_holds_no_unsafe_character(s in "\\PC*|[\\x00-\\x1f\\u{202a}-\\u{202e}a-z]*") {
            let e = escape_unsafe(&s).unwrap_or_else(|| s.clone());
            proptest::prop_assert!(!e.chars().any(is_unsafe_char));
            if !s.chars().any(is_unsafe_char) {
                proptest::prop_assert_eq!(e, s);
            }
        }
    }
}
