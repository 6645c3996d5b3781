//! Text helpers shared by the readers, working on bytes where the text is
//! ASCII and falling back to `str`'s Unicode-aware methods where it is not.

use crate::ingest::shared::pattern::lazy_re;

/// `str::trim` that strips the ASCII whitespace at the ends of nearly every
/// line and cell byte by byte; only an end left on a non-ASCII character
/// (which may be Unicode whitespace) goes through `str::trim`.
#[inline]
pub(crate) fn trim(s: &str) -> &str {
    // Most texts given (cells already split, rows between bars) start and
    // end on a visible ASCII character: nothing to trim, no call.
    match s.as_bytes() {
        [] => s,
        [f, .., l] | [f @ l] if (b'!'..=b'~').contains(f) && (b'!'..=b'~').contains(l) => s,
        _ => trim_ends(s),
    }
}

/// [`trim`] of a text that may have something to trim.
fn trim_ends(s: &str) -> &str {
    let b = s.as_bytes();
    // The ASCII characters `char::is_whitespace` accepts: tab to CR, space.
    let ws = |c: u8| matches!(c, b'\t'..=b'\r' | b' ');
    let mut start = 0;
    while start < b.len() && ws(b[start]) {
        start += 1;
    }
    let mut end = b.len();
    while end > start && ws(b[end - 1]) {
        end -= 1;
    }
    let t = &s[start..end];
    match (t.as_bytes().first(), t.as_bytes().last()) {
        (Some(&f), Some(&l)) if !f.is_ascii() || !l.is_ascii() => t.trim(),
        _ => t,
    }
}

/// A line without its line ending's carriage returns: any run of `\r`
/// before the `\n` belongs to the line ending. `script(1)` captures and
/// text passed twice through CRLF conversion end lines in `\r\r\n`; taking
/// only one `\r` away left a lone `\r` that terminal replay read as a
/// carriage return and erased the line with.
#[inline]
pub(crate) fn strip_line_end(line: &str) -> &str {
    line.trim_end_matches('\r')
}

lazy_re!(
    RUN_SEPARATOR,
    r"(?i)^[\W_]*$|\b(run|iteration|loop|pass|round|trial)\s*#?\s*\d+"
);

/// Whether `line` can head a block of pair lines as its variant: a short
/// line with letters that is no value and no run counter (`=== run 3 ===`
/// would split one series into many).
pub(crate) fn is_heading(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty()
        && t.len() <= 80
        && t.chars().any(char::is_alphabetic)
        && !t.contains('=')
        && !RUN_SEPARATOR.is_match(t)
        && !is_timestamped(t)
}

lazy_re!(
    TIMESTAMP,
    r"^(?:\[\s*\d+\.\d+\]|\d{4}-\d\d-\d\d[ T]\d\d:\d\d|\d\d:\d\d:\d\d\b|[A-Z][a-z]{2} [A-Z][a-z]{2} +\d+ \d\d:\d\d|[A-Z][a-z]{2} +\d+ \d\d:\d\d:\d\d)"
);

/// Whether `line` starts with the time a log stamped it with: a kernel
/// log's `[  12.345678]`, `2026-07-21 10:00:00`, `10:00:00`, `date`'s
/// `Tue Jul 21 10:00` or syslog's `Jul 21 10:00:00`. Such a line is an
/// event of the log (a command run, a message), never the heading of the
/// lines under it, however few its words.
pub(crate) fn is_timestamped(line: &str) -> bool {
    TIMESTAMP.is_match(trim(line))
}

/// How many dot-separated numbers a release spelling holds (`6.8` 2,
/// `v2.6.20-rc4` 3): a `v` before it and a suffix after a dash allowed;
/// `None` unless two to four parts, all digits.
pub(crate) fn dotted_release(word: &str) -> Option<usize> {
    let w = word.strip_prefix('v').unwrap_or(word);
    let core = w.split('-').next().unwrap_or("");
    let parts = core.split('.').count();
    ((2..=4).contains(&parts)
        && core
            .split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())))
    .then_some(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_carriage_return_before_the_break_is_the_line_ending() {
        assert_eq!(strip_line_end("a b\r\r"), "a b");
        assert_eq!(strip_line_end("a\rb\r"), "a\rb");
        assert_eq!(strip_line_end("plain"), "plain");
        assert_eq!(strip_line_end("\r"), "");
    }

    proptest::proptest! {
        #[test]
        fn trim_is_str_trim(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    " ", "\t", "\n", "\u{b}", "\u{c}", "\r", "\u{85}", "\u{a0}", "\u{3000}",
                    "a", "µ", "|", "\u{1c}", "\0",
                ]),
                0..12,
            )
        ) {
            let s = parts.concat();
            proptest::prop_assert_eq!(trim(&s), s.trim());
        }
    }
}

#[cfg(test)]
mod heading_tests {
    use super::is_heading;

    #[test]
    fn headings_are_short_lines_that_are_no_run_counter() {
        assert!(is_heading("IRQ, 128/32/32, cache off"));
        assert!(is_heading("w/o extents:"));
        assert!(!is_heading("=== run 3 ==="));
        assert!(!is_heading("2026-07-21 10:00:00 ./schbench -m 1"));
        assert!(!is_heading("[   12.345678] rcu: Start-up"));
        assert!(!is_heading("Jul 21 10:00:00 host kernel"));
        assert!(!is_heading("Tue Jul 21 10:00:00 UTC 2026"));
        assert!(!is_heading("Iteration 2"));
        assert!(!is_heading("-----"));
        assert!(!is_heading("key=value"));
    }
}

/// True for a line drawn, not written: dashes, equals signs, dots and the
/// like only (`-------  ----`, `==========`), an underline or a separator.
pub fn is_rule(text: &str) -> bool {
    let t = text.trim();
    t.len() >= 3
        && t.chars()
            .all(|c| matches!(c, '-' | '=' | '.' | ' ' | '+' | '|' | '_' | '~'))
        && t.chars().filter(|c| !matches!(c, ' ' | '|' | '+')).count() >= 3
}
