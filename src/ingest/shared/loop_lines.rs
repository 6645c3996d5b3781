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

use crate::ingest::shared::numbers::looks_numeric;
use crate::ingest::shared::text::is_timestamped;

/// The lines of `lines` (number and text, in order) that separate the runs
/// of a log, given the sorted numbers of the lines the importer `used`.
pub(crate) fn separators<'a>(
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
        .map(|&(n, t)| (n, (!is_used(n) && looks_numeric(t)).then(|| mask(t))))
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

/// Of the `frame` lines of `lines` (those a reader takes as its log's
/// frame: banners, menus), the loop's lines between runs: a date alone,
/// or a short line of one number (four words at most) whose number counts
/// up by one from each such line to the next (`=== run 2 ===`,
/// `Iteration: 3`); a figure of the tool's own frame does not count so.
/// A reader reads them as no frame of its tool, so they are listed as
/// not read.
pub(crate) fn counters_in_frame<'a>(
    lines: impl Iterator<Item = (u32, &'a str)>,
    frame: &[u32],
) -> Vec<u32> {
    let lines: Vec<(u32, &str)> = lines.filter(|(_, t)| !t.trim().is_empty()).collect();
    // Per shape of a short line of one number: its lines and numbers.
    let mut counters: Vec<(String, Vec<(u32, u64)>)> = Vec::new();
    let mut out = Vec::new();
    for &(n, t) in &lines {
        if frame.binary_search(&n).is_err() || !t.bytes().any(|b| b.is_ascii_digit()) {
            continue;
        }
        if is_date(t) {
            out.push(n);
            continue;
        }
        let shape = mask(t);
        let number = t
            .split(|c: char| !c.is_ascii_digit())
            .find(|w| !w.is_empty())
            .and_then(|w| w.parse::<u64>().ok());
        let (Some(number), 1, ..=4) = (
            number,
            shape.matches('#').count(),
            t.split_whitespace().count(),
        ) else {
            continue;
        };
        match counters.iter_mut().find(|(s, _)| *s == shape) {
            Some((_, seen)) => seen.push((n, number)),
            None => counters.push((shape, vec![(n, number)])),
        }
    }
    // The lines' place already marks them as the loop's: one step up is
    // enough.
    for (_, seen) in counters {
        if counts_by_one(seen.iter().map(|&(_, v)| v as f64), 1) {
            out.extend(seen.iter().map(|&(n, _)| n));
        }
    }
    out.sort_unstable();
    out
}

/// Whether `values`, in order, are a counter: whole numbers, each one
/// more than the one before or lower (counting starts again, as when the
/// log of another loop is appended), with at least `steps` steps of one.
pub(crate) fn counts_by_one(values: impl IntoIterator<Item = f64>, steps: usize) -> bool {
    let mut ones = 0;
    let mut last: Option<f64> = None;
    for v in values {
        if v.fract() != 0.0 {
            return false;
        }
        if let Some(a) = last {
            if v == a + 1.0 {
                ones += 1;
            } else if v >= a {
                return false;
            }
        }
        last = Some(v);
    }
    ones >= steps
}

/// Whether `text` is a date alone, as `date` prints it (`Sun Dec  6
/// 20:11:48 UTC 2026`): led by a time, and nothing but numbers, times and
/// short names (day, month, zone) after it; a command behind a time stamp
/// is a log's line, not a loop's.
pub(crate) fn is_date(text: &str) -> bool {
    is_timestamped(text)
        && text.split_whitespace().all(|w| {
            w.bytes()
                .all(|b| b.is_ascii_digit() || b == b':' || b == b'-')
                || (w.len() <= 4 && w.bytes().all(|b| b.is_ascii_alphabetic()))
        })
}

/// Whether `text` could be a loop's line between runs by its words alone:
/// a date, or a short line (four words at most) of one number (`3`,
/// `=== run 3 ===`, `Iteration: 3`). A tool's line of figures, or a
/// command behind a time stamp, is not.
pub(crate) fn is_loop_line(text: &str) -> bool {
    let mask = mask(text);
    is_date(text)
        || (mask.matches('#').count() == 1
            && looks_numeric(text)
            && text.split_whitespace().count() <= 4)
}

/// `text` trimmed, each run of digits written `#`.
fn mask(text: &str) -> String {
    digits_masked(text.trim())
}

/// `text`, each run of digits written `#`: the shape lines of one kind
/// share whatever their numbers.
pub(crate) fn digits_masked(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
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
    use super::{counters_in_frame, counts_by_one, separators};

    fn of(text: &str, used: &[u32]) -> Vec<u32> {
        let lines: Vec<(u32, &str)> = text.lines().zip(1..).map(|(t, n)| (n, t)).collect();
        separators(lines.into_iter(), used)
    }

    #[test]
    fn a_counter_steps_by_one_or_starts_again_lower() {
        let f = |v: &[f64], steps| counts_by_one(v.iter().copied(), steps);
        assert!(f(&[1.0, 2.0, 3.0, 1.0, 2.0], 3));
        assert!(f(&[7.0, 8.0], 1));
        assert!(!f(&[7.0, 8.0], 3));
        // A step up by more than one, a repeat, a fraction: no counter.
        assert!(!f(&[1.0, 2.0, 4.0, 5.0], 1));
        assert!(!f(&[1.0, 2.0, 2.0, 3.0], 1));
        assert!(!f(&[1.5, 2.5, 3.5, 4.5], 1));
        assert!(!f(&[3.0], 1));
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
        // A digit inside a word is no number (`python3`): the tool's own
        // advice, repeated by each run.
        let text = "Run 'python3 -m pyperf system tune'\nscore 5\nRun 'python3 -m pyperf system tune'\nscore 6\n";
        assert!(of(text, &[2, 4]).is_empty());
        // Once only: a heading or a value of its own.
        assert!(of("total 12\nscore 5\n", &[2]).is_empty());
        // Not right above a line the importer read.
        let text = "note 1\nsize 4 KiB x 2\nscore 5\nnote 2\nsize 8 KiB x 2\nscore 6\n";
        assert!(of(text, &[3, 6]).is_empty());
    }

    #[test]
    fn frame_lines_that_count_or_tell_the_time_are_the_loop_s() {
        let of = |text: &str, frame: &[u32]| {
            let lines: Vec<(u32, &str)> = text.lines().zip(1..).map(|(t, n)| (n, t)).collect();
            counters_in_frame(lines.into_iter(), frame)
        };
        let text = "=== run 1 ===\nbanner v2\nscore 5\n=== run 2 ===\nbanner v2\nscore 6\n";
        assert_eq!(of(text, &[1, 2, 4, 5]), [1, 4]);
        // Two loops' logs one after the other: the counter starts again.
        let text = "=== run 1 ===\nscore 5\n=== run 2 ===\nscore 6\n=== run 1 ===\nscore 7\n";
        assert_eq!(of(text, &[1, 3, 5]), [1, 3, 5]);
        // The tool's own frame, the same in each run, is its frame.
        let text = "banner v2\nscore 5\nbanner v2\nscore 6\n";
        assert!(of(text, &[1, 3]).is_empty());
        // A figure that changes from run to run without counting, or a
        // command behind a time stamp, is the tool's or the wrapper's.
        let text = "(= 4608 clock ticks)\nscore 5\n(= 4577 clock ticks)\nscore 6\n";
        assert!(of(text, &[1, 3]).is_empty());
        let text = "2022-09-13 12:10:37 ./stream\nscore 5\n2022-09-13 12:10:39 ./stream\nscore 6\n";
        assert!(of(text, &[1, 3]).is_empty());
        // A sentence with a figure that changes from run to run too.
        let text = "Each test below will take on the order of 4608 microseconds.\nscore 5\n\
                    Each test below will take on the order of 4577 microseconds.\nscore 6\n";
        assert!(of(text, &[1, 3]).is_empty());
    }
}
