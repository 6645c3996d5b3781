//! The lines a shell loop prints between the runs of a tool (`echo $i`,
//! `echo "=== run $i ==="`, `date`): in a log the tool's importer read, they
//! are no results, and the document reader supplementing it must not make
//! values of them (`=== run 2 ===` as a value 2, a date as 2026).
//!
//! Such a line is known by its place, not its words: a line the importer
//! did not read, holding one number (a counter) or led by a time, whose
//! text with its digits masked comes again before another block, each time
//! right above the block's first line the importer read, and never next to
//! a line of its own shape (a list of `run 1: 12.3 ms` lines is values, one
//! under the other).

use crate::ingest::shared::text::is_timestamped;

/// The lines of `lines` (number and text, in order) that separate the runs
/// of a log, given the sorted numbers of the lines the importer `used`.
pub(super) fn separators<'a>(
    lines: impl Iterator<Item = (u32, &'a str)>,
    used: &[u32],
) -> Vec<u32> {
    let is_used = |n: u32| used.binary_search(&n).is_ok();
    // Non-blank lines: number, shape (digits masked; none for a used line
    // or one without a digit), text.
    let lines: Vec<(u32, &str)> = lines.filter(|(_, t)| !t.trim().is_empty()).collect();
    let digit = |t: &str| t.bytes().any(|b| b.is_ascii_digit());
    let has_digit: std::collections::HashMap<u32, bool> =
        lines.iter().map(|&(n, t)| (n, digit(t))).collect();
    let texts: Vec<&str> = lines.iter().map(|&(_, t)| t).collect();
    let lines: Vec<(u32, Option<String>)> = lines
        .iter()
        .map(|&(n, t)| (n, (!is_used(n) && digit(t)).then(|| mask(t))))
        .collect();
    let mut candidates: Vec<(u32, &str)> = Vec::new();
    for (i, (n, shape)) in lines.iter().enumerate() {
        let Some(shape) = shape else { continue };
        if shape.matches('#').count() > 1 && !is_timestamped(texts[i]) {
            continue;
        }
        // The block's first line the importer read, past a few lines
        // without a digit it left (`Running coremark benchmark...`).
        let next_used = lines[i + 1..]
            .iter()
            .take(4)
            .find(|&&(m, ref s)| is_used(m) || s.is_some() || has_digit[&m])
            .is_some_and(|&(m, _)| is_used(m));
        let same = |j: Option<usize>| {
            j.and_then(|j| lines.get(j))
                .is_some_and(|(_, s)| s.as_deref() == Some(shape.as_str()))
        };
        if next_used && !same(i.checked_sub(1)) && !same(Some(i + 1)) {
            candidates.push((*n, shape));
        }
    }
    candidates
        .iter()
        .filter(|(_, s)| candidates.iter().filter(|(_, t)| t == s).count() >= 2)
        .map(|(n, _)| *n)
        .collect()
}

/// `text` trimmed, each run of digits written `#`.
fn mask(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.trim().chars() {
        if c.is_ascii_digit() {
            if !out.ends_with('#') {
                out.push('#');
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::separators;

    fn of(text: &str, used: &[u32]) -> Vec<u32> {
        let lines: Vec<(u32, &str)> = text.lines().zip(1..).map(|(t, n)| (n, t)).collect();
        separators(lines.into_iter(), used)
    }

    #[test]
    fn a_line_before_each_run_is_a_separator() {
        let text = "=== run 1 ===\nConnecting\n[ 5] 1.0 Gbit/s\n\
                    === run 2 ===\nConnecting\n[ 5] 1.1 Gbit/s\n";
        assert_eq!(of(text, &[2, 3, 5, 6]), [1, 4]);
        // A date, or a bare counter, the same way.
        let text = "Sun Dec  6 20:11:48 UTC 2026\nscore 5\nSun Dec  6 20:12:50 UTC 2026\nscore 6\n";
        assert_eq!(of(text, &[2, 4]), [1, 3]);
        assert_eq!(of("1\nscore 5\n2\nscore 6\n", &[2, 4]), [1, 3]);
        // Past the lines without a digit the importer left above its block.
        let text = "1\nRunning...\nscore 5\n2\nRunning...\nscore 6\n";
        assert_eq!(of(text, &[3, 6]), [1, 4]);
    }

    #[test]
    fn lists_single_lines_and_lines_inside_a_block_are_not() {
        // Two lines of one shape one under the other: a list of values.
        let text = "run 1: 12.3 ms\nrun 2: 12.9 ms\nscore 5\n";
        assert!(of(text, &[3]).is_empty());
        // A line of several figures is a result, however it recurs.
        let text = "1 x Dhrystone 1 2 3\nscore 5\n1 x Dhrystone 4 5 6\nscore 6\n";
        assert!(of(text, &[2, 4]).is_empty());
        // Once only: a heading or a value of its own.
        assert!(of("total 12\nscore 5\n", &[2]).is_empty());
        // Not right above a line the importer read.
        let text = "note 1\nsize 4 KiB x 2\nscore 5\nnote 2\nsize 8 KiB x 2\nscore 6\n";
        assert!(of(text, &[3, 6]).is_empty());
    }
}
