//! Pipe tables drawn with underscores: `_` pads the header cells
//! (`|______ Testset _____|`) and draws the bottom rule of a group through
//! its last row (`|____________________|__ 658485248 (628 MiB) __|`), and a
//! line of underscores alone closes the box above the header.
//!
//! The box readers know a rule by its dashes and a cell by its text: a
//! padded header read as one title and a padded row as a rule, so the
//! values of every group's last row were lost. A run of underscores in a
//! pipe row that stands between pipes, spaces and the line's ends is
//! padding (an identifier's underscores touch a letter or digit:
//! `GFP_NOWAIT`, `__kmalloc`): it becomes as many spaces, so that the row's
//! cells keep their columns. A line of underscores alone right above such
//! a row becomes a line of dashes, the rule it draws. Line numbers and
//! quote depths are kept.

use super::rewrite;
use crate::ingest::Source;
use std::borrow::Cow;

/// `src`, or a copy whose underscore-padded pipe rows are padded with spaces.
pub fn unpad(src: &Source) -> Cow<'_, Source> {
    let lines = &src.lines;
    let padded: Vec<bool> = lines.iter().map(|l| has_padding(&l.text)).collect();
    // One padded row is a stray mark; a drawn table pads several.
    if padded.iter().filter(|&&p| p).nth(1).is_none() {
        return Cow::Borrowed(src);
    }
    rewrite::each_line(src, |i, l| {
        if padded[i] {
            Some(spaced(&l.text))
        } else if padded.get(i + 1) == Some(&true) && is_underscores(&l.text) {
            Some(l.text.replace('_', "-"))
        } else {
            None
        }
    })
}

/// Whether `text` is a pipe row (it starts with `|` and holds another)
/// with a run of underscores that pads a cell.
fn has_padding(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with('|') && t[1..].contains('|') && padding_runs(t).next().is_some()
}

/// The byte ranges of the runs of underscores in `text` whose both sides
/// are a pipe, a space, a tab or an end of the line.
fn padding_runs(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let b = text.as_bytes();
    let edge = |c: Option<&u8>| c.is_none_or(|c| matches!(c, b'|' | b' ' | b'\t'));
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() {
            if b[i] != b'_' {
                i += 1;
                continue;
            }
            let start = i;
            while i < b.len() && b[i] == b'_' {
                i += 1;
            }
            let before = start.checked_sub(1).map(|k| &b[k]);
            if edge(before) && edge(b.get(i)) {
                return Some((start, i));
            }
        }
        None
    })
}

/// `text` with its padding runs of underscores made spaces.
fn spaced(text: &str) -> String {
    let mut out = text.as_bytes().to_vec();
    for (a, b) in padding_runs(text) {
        out[a..b].fill(b' ');
    }
    // Only ASCII underscores became ASCII spaces: still UTF-8.
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

/// A line of three underscores or more and nothing else but spaces.
fn is_underscores(text: &str) -> bool {
    let t = text.trim();
    t.len() >= 3 && t.bytes().all(|c| c == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::ingest::source_of_lines as src;

    // Real lines of an erofs-utils commit message.
    const TABLE: [&str; 4] = [
        "  _________________________________________________________________________",
        " |______ Testset _____|_______ Vanilla _________|_________ After __________| Command Line",
        " |                    |   687501312 (656 MiB)   |   687652864 (656 MiB)    | -zlzma,6 -Eall-fragments,fragdedupe=inode -C131072",
        " |____________________|__ 658485248 (628 MiB) __|__ 658698240 (629 MiB)  __| -zlzma,6 -Eall-fragments,fragdedupe=inode -C1048576",
    ];

    #[test]
    fn padding_becomes_spaces_and_the_top_line_a_rule() {
        let s = src(&TABLE);
        let u = unpad(&s);
        assert!(u.lines[0].text.trim().bytes().all(|c| c == b'-'));
        assert_eq!(
            u.lines[1].text,
            " |       Testset      |        Vanilla          |          After           | Command Line"
        );
        assert_eq!(u.lines[2].text, TABLE[2]);
        assert_eq!(
            u.lines[3].text,
            " |                    |   658485248 (628 MiB)   |   658698240 (629 MiB)    | -zlzma,6 -Eall-fragments,fragdedupe=inode -C1048576"
        );
        assert_eq!(u.lines[3].number, 4);
    }

    #[test]
    fn identifiers_and_lone_marks_are_kept() {
        let rows = [
            "| __GFP_NOWAIT | 12 | 13 |",
            "| _raw_spin_lock | 1.5 | 1.7 |",
        ];
        assert!(matches!(unpad(&src(&rows)), Cow::Borrowed(_)));
        // A single padded row is no drawn table (a signature, a stray mark).
        let one = ["_____", "| a | __ |"];
        assert!(matches!(unpad(&src(&one)), Cow::Borrowed(_)));
    }
}
