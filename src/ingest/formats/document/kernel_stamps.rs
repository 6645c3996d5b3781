//! Kernel-log lines pasted from `dmesg`: each starts with a time stamp
//! (`[   55.109680] `, or `[  +0.001850] ` with relative stamps), and the
//! lines a self-test module prints often repeat the module's own prefix
//! after it (`Strings selftest: memset(dst+0): 140 Mb/s`).
//!
//! The stamp is a number the line's reader took for a value or a cell, and
//! its bracket leaked into the headings above (`… random-filled bitmap: [`);
//! the repeated prefix made every line's key the same words. The stamp of a
//! line is dropped wherever two lines or more carry one (a lone bracketed
//! number is some other mark), and a `words: ` prefix that three stamped
//! lines in a row or more share is dropped from them, so that what follows
//! it is read as the line's own key and value. Line numbers and quote
//! depths are kept.

use super::rewrite;
use crate::ingest::Source;
use std::borrow::Cow;

/// `src`, or a copy whose kernel-log lines lost their stamps and their
/// repeated prefix.
pub fn strip(src: &Source) -> Cow<'_, Source> {
    let stamped: Vec<Option<usize>> = src.lines.iter().map(|l| stamp_len(&l.text)).collect();
    if stamped.iter().flatten().nth(1).is_none() {
        return Cow::Borrowed(src);
    }
    // Each line's text after its stamp, and the prefix to drop from it.
    let bare: Vec<&str> = src
        .lines
        .iter()
        .zip(&stamped)
        .map(|(l, s)| &l.text[s.unwrap_or(0)..])
        .collect();
    let prefixes = shared_prefixes(&bare, &stamped);
    rewrite::each_line(src, |i, l| {
        stamped[i].map(|n| l.text[n + prefixes[i]..].to_string())
    })
}

/// The byte length of the stamp at the start of `text` and the space after
/// it: `[`, spaces, an optional `+`, digits, `.`, digits, `]`.
fn stamp_len(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let lead = b.iter().take_while(|&&c| c == b' ').count();
    let mut i = lead;
    if b.get(i) != Some(&b'[') {
        return None;
    }
    i += 1;
    while b.get(i) == Some(&b' ') {
        i += 1;
    }
    if b.get(i) == Some(&b'+') {
        i += 1;
    }
    let int = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    i += int;
    if int == 0 || b.get(i) != Some(&b'.') {
        return None;
    }
    i += 1;
    let frac = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    i += frac;
    // The kernel prints microseconds; three digits and more are a clock.
    if frac < 3 || b.get(i) != Some(&b']') {
        return None;
    }
    i += 1;
    match b.get(i) {
        None => Some(i),
        Some(b' ') => Some(i + 1),
        _ => None,
    }
}

/// The byte length of the `words: ` prefix that each of `bare` (lines
/// after their stamps) loses: that of a run of three stamped lines or more
/// that share it (the printing module's name), else 0.
fn shared_prefixes(bare: &[&str], stamped: &[Option<usize>]) -> Vec<usize> {
    let mut lens = vec![0; bare.len()];
    let runs = rewrite::runs(bare, |i, t| stamped[i].and_then(|_| prefix(t)));
    for (r, p) in runs {
        if r.len() >= 3 {
            lens[r].fill(p.len());
        }
    }
    lens
}

/// A line's leading `words: ` before more text: letters, digits, spaces,
/// `_` and `-` up to the first `: `, with a letter first. A prefix holding
/// a digit is a measurement's key (`distance 0: 75 Mb/s`), not a name.
fn prefix(text: &str) -> Option<&str> {
    let end = text.find(": ")?;
    let head = &text[..end];
    let name = head.starts_with(|c: char| c.is_ascii_alphabetic())
        && head
            .chars()
            .all(|c| c.is_ascii_alphabetic() || matches!(c, ' ' | '_' | '-'));
    (name && !text[end + 2..].trim_start().is_empty()).then(|| &text[..end + 2])
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::ingest::source_of_lines as src;

    fn texts(s: &Source) -> Vec<&str> {
        s.lines.iter().map(|l| l.text.as_str()).collect()
    }

    // Real lines of a lib/string self-test's output.
    #[test]
    fn stamps_and_the_module_prefix_go() {
        let s = src(&[
            "[   27.893931] Strings selftest: memcpy testing with size: 32 Mb",
            "[   28.315272] Strings selftest: memcpy(dst+0, src+0), distance 0: 75 Mb/s",
            "[   28.736485] Strings selftest: memcpy(dst+0, src+1), distance 1: 75 Mb/s",
        ]);
        let out = strip(&s);
        assert_eq!(
            texts(&out),
            [
                "memcpy testing with size: 32 Mb",
                "memcpy(dst+0, src+0), distance 0: 75 Mb/s",
                "memcpy(dst+0, src+1), distance 1: 75 Mb/s",
            ]
        );
        assert_eq!(out.lines[2].number, 3);
    }

    // Real lines of the find_bit test module, relative stamps.
    #[test]
    fn relative_stamps_go_and_a_key_that_varies_stays() {
        let s = src(&[
            "              Start testing find_bit() with random-filled bitmap",
            "[  +0.001850] find_next_bit:                  842792 ns, 163788 iterations",
            "[  +0.000873] find_prev_bit:                  870914 ns, 163788 iterations",
            "[  +0.000001]",
        ]);
        assert_eq!(
            texts(&strip(&s)),
            [
                "              Start testing find_bit() with random-filled bitmap",
                "find_next_bit:                  842792 ns, 163788 iterations",
                "find_prev_bit:                  870914 ns, 163788 iterations",
                "",
            ]
        );
    }

    #[test]
    fn a_lone_bracketed_number_is_kept() {
        let s = src(&["[1.5] a note", "x: 3 ms"]);
        assert!(matches!(strip(&s), Cow::Borrowed(_)));
        let two = src(&["[1.5] a", "[2.5] b"]);
        // One decimal is no kernel clock.
        assert!(matches!(strip(&two), Cow::Borrowed(_)));
    }
}
