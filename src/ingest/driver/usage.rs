//! A program's usage text, printed instead of a run (an option it does
//! not know, a missing argument): its numbers are option defaults and
//! version numbers, never results, so neither the document nor the
//! generic reader may turn them into rows.

use crate::ingest::Source;
use regex::Regex;
use std::sync::LazyLock;

static USAGE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)^\s*usage:").expect("static regex"));
/// An option's description: `-f --fds=NUM  number of fds`, `  -p, --port #`.
static OPTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*--?[A-Za-z0-9?][\w-]*(?:[=,\s\[<]|$)").expect("static regex")
});

/// The options a help text lists at least, so that a single option-like
/// line of a log is no help text.
const MIN_OPTIONS: usize = 3;

/// The line of `Usage:` when `src` is a usage text: below that line, option
/// descriptions are at least [`MIN_OPTIONS`] and at least half of the
/// lines that are not blank.
pub(super) fn usage_line(src: &Source) -> Option<u32> {
    let at = src.lines.iter().position(|l| USAGE.is_match(&l.text))?;
    let below = src.lines[at + 1..]
        .iter()
        .filter(|l| !l.text.trim().is_empty());
    let (mut filled, mut options) = (0usize, 0usize);
    for l in below {
        filled += 1;
        options += usize::from(OPTION.is_match(&l.text));
    }
    (options >= MIN_OPTIONS && options * 2 >= filled).then(|| src.lines[at].number)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_texts_are_told_from_logs_that_mention_usage() {
        let help = "hackbench: unrecognized option '--json=x'\nhackbench V 2.40\nUsage:\n\
                    hackbench <options>\n\n-f       --fds=NUM         number of fds\n\
                    -g       --groups=NUM      number of groups to be used\n\
                    -l       --loops=LOOPS     how many message should be send\n";
        assert_eq!(usage_line(&Source::from_text("h.txt", help)), Some(3));
        let log = "usage: 3 runs\nrun 1: 2.5 s\nrun 2: 2.6 s\n-x flag was set\n";
        assert_eq!(usage_line(&Source::from_text("l.txt", log)), None);
        let prose =
            "Usage:\n  -a  all\n  -b  brief\nresults: 1.2 s\ntime: 3 s\nmem: 4 MB\nops: 7\n";
        assert_eq!(usage_line(&Source::from_text("p.txt", prose)), None);
    }
}
