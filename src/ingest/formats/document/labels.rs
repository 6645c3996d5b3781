//! Block labels: turning the prose around a table into short names, and the
//! vocabulary that tells a variant name from a benchmark name.

use crate::ingest::shared::text::trim;
use std::borrow::Cow;

/// Longest label taken from a deliberate one- or two-line heading.
const HEADING_MAX: usize = 72;
/// Longest label taken from the first sentence of a prose paragraph.
const SENTENCE_MAX: usize = 40;

/// Words that open a name of a build or system rather than of a workload
/// (`with plist`, `without:`, `baseline`, `patched kernel`).
const VARIANT_WORDS: &[&str] = &[
    "with",
    "without",
    "w/",
    "w/o",
    "baseline",
    "base",
    "patched",
    "unpatched",
    "vanilla",
    "original",
    "orig",
    "stock",
    "before",
    "after",
    "mainline",
    "upstream",
    "reference",
    "modified",
];

/// Whether `w` is a plain name: an ASCII letter, then letters, digits,
/// `-` and `_`, and `.` where `dotted` (a row label `case-1.5`, where a key
/// glued to a value must not be a file name, `helpers.py`).
pub fn plain_name(w: &str, dotted: bool) -> bool {
    w.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
        && w.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_') || (dotted && b == b'.'))
}

/// The name a key cell gives its settings in a row's params (`vcpu=4`):
/// the cell without the marks written around a name (`#vCPU` counts
/// vCPUs, `Clients:` introduces them), lower case. Every reader that keys
/// rows by a cell names the key here, so that the same header gives the
/// same key whichever layout it heads.
pub fn key_name(cell: &str) -> String {
    cell.trim()
        .trim_start_matches('#')
        .trim_end_matches(':')
        .trim()
        .to_lowercase()
}

/// [`key_name`] of the last word of a label written before settings
/// (`number of groups 50 100` keys by `groups`), without the punctuation
/// around it; none when that word is no name (a version, or a unit, which
/// labels measured values rather than settings: `22 Mpps`).
pub fn key_word(label: &str) -> Option<String> {
    let last = label
        .split_whitespace()
        .last()?
        .trim_matches(|c: char| !c.is_alphanumeric() && c != '_');
    let ok =
        last.chars().next().is_some_and(char::is_alphabetic) && !super::lines::known_unit(last);
    ok.then(|| key_name(last))
}

/// A heading found above (or at the top of) a data block.
#[derive(Debug, Clone, PartialEq)]
pub struct Heading {
    /// The cleaned, shortened label.
    pub text: String,
    /// Quote depth of the lines it came from.
    pub depth: u8,
    /// True when it is the first sentence of running prose rather than a
    /// heading: such a label names no benchmark and no variant.
    pub prose: bool,
}

/// The label of a prose paragraph: short paragraphs are headings and are kept
/// whole; long ones are prose and give their first sentence (flagged `true`).
pub fn paragraph_label(lines: &[&str]) -> Option<(String, bool)> {
    let lines: Vec<&str> = lines
        .iter()
        .map(|l| trim(l))
        .filter(|l| !l.is_empty())
        .collect();
    let joined: Cow<str> = match lines[..] {
        [] => return None,
        // A one-line heading, the common case, is its own text.
        [line] => line.into(),
        _ => lines.join(" ").into(),
    };
    // A full sentence (`3 kernels are tested.`) is prose however short.
    let sentence =
        joined.ends_with('.') && !joined.ends_with("...") && joined.split_whitespace().count() >= 3;
    let heading = lines.len() <= 2 && joined.chars().count() <= 100 && !sentence;
    // A short title over the command that made the block (`IPv4 tests`
    // over `for i in {1..10}; do netperf -t TCP_RR ...`): the title is
    // the heading, the command is no prose about the rows.
    if !heading && lines.len() >= 2 && lines[1..].iter().all(|l| is_command_line(l)) {
        let title = lines[0];
        let short = title.split_whitespace().count() <= 6 && title.chars().count() <= 60;
        if short && !title.ends_with('.') && !is_command_line(title) {
            let label = clean(title, HEADING_MAX);
            return (!label.is_empty()).then_some((label, false));
        }
    }
    // Running prose that closes on a short line of its own ending in a
    // colon, after a sentence has ended (`…before and after the series.`
    // over `Before:`): that line heads the block below, the prose above it
    // is about the whole post.
    if let [.., above, last] = lines[..] {
        let closes = above.ends_with(['.', '!', '?']) && !above.ends_with("...");
        if closes && last.ends_with(':') && last.split_whitespace().count() <= 6 {
            let label = opening_build(last);
            return (!label.is_empty()).then_some((label, false));
        }
    }
    let label = if heading {
        opening_build(&joined)
    } else {
        clean(first_sentence(&joined), SENTENCE_MAX)
    };
    (!label.is_empty()).then_some((label, !heading))
}

/// A heading cleaned; one that opens with a build named before a comma
/// and goes on with a clause about the block (`After, shrink_slab itself
/// is the top entry, as intended:`, `With this patch, hackbench gives:`)
/// is that build.
fn opening_build(text: &str) -> String {
    if let Some((head, rest)) = text.split_once(", ") {
        let first = head.split_whitespace().next().unwrap_or("").to_lowercase();
        if VARIANT_WORDS.contains(&first.as_str())
            && head.split_whitespace().count() <= 4
            && rest.split_whitespace().count() >= 2
        {
            return clean(head, HEADING_MAX);
        }
    }
    clean(text, HEADING_MAX)
}

/// A shell command line: an option word (`-t`, `--size`) with the
/// shell's separators (`;`, `|`) or a prompt, or a continued option list
/// (a line that starts with an option).
fn is_command_line(line: &str) -> bool {
    let t = line.trim();
    let option = |w: &str| {
        let rest = w.strip_prefix("--").or_else(|| w.strip_prefix('-'));
        rest.is_some_and(|r| r.starts_with(|c: char| c.is_ascii_alphabetic()))
    };
    let has_option = t.split_whitespace().any(option);
    has_option
        && (t.contains(';')
            || t.contains('|')
            || t.starts_with("$ ")
            || t.starts_with("# ")
            || t.starts_with('-'))
}

/// A label from one line inside a block (`* with simple list:`).
pub fn line_label(line: &str) -> Option<String> {
    let label = clean(line, HEADING_MAX);
    (!label.is_empty()).then_some(label)
}

fn first_sentence(text: &str) -> &str {
    let b = text.as_bytes();
    for i in 0..b.len() {
        // A sentence ends at `. `, `? ` or `! `; a dot inside `2.6` or `.config` does not end one.
        if matches!(b[i], b'.' | b'?' | b'!') && b.get(i + 1) == Some(&b' ') {
            return &text[..=i];
        }
    }
    text
}

/// Trims bullets and closing punctuation, collapses spaces and shortens to
/// `max` characters at a word boundary.
pub fn clean(text: &str, max: usize) -> String {
    // The words joined by single spaces, built in one buffer.
    let mut s = String::with_capacity(text.len());
    for w in text.split_whitespace() {
        if !s.is_empty() {
            s.push(' ');
        }
        s.push_str(w);
    }
    let leading: &[char] = &['*', '-', '#', '•', '>', ' '];
    let cut = s.len() - s.trim_start_matches(leading).len();
    s.replace_range(..cut, "");
    // A name in brackets alone (`[before]`) is that name.
    if s.starts_with('[') && s.ends_with(']') && s.matches(['[', ']']).count() == 2 {
        s.pop();
        s.remove(0);
    }
    if s.chars().count() > max {
        let mut out = String::new();
        for w in s.split(' ') {
            let extra = if out.is_empty() { 0 } else { 1 };
            if out.chars().count() + extra + w.chars().count() > max {
                break;
            }
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(w);
        }
        if out.is_empty() {
            out = s.chars().take(max).collect();
        }
        s = out;
    }
    let trailing: &[char] = &[':', '.', ',', ';', '-', ' ', '…', '('];
    // What is kept is a part of `s`: cut down in place, not copied.
    let kept = s.trim_end_matches(trailing).trim();
    let start = kept.as_ptr() as usize - s.as_ptr() as usize;
    let end = start + kept.len();
    s.truncate(end);
    s.replace_range(..start, "");
    s
}

/// True when a label names a build or system (`with plist`, `without`,
/// `baseline`, `3.12-rc1`) rather than a workload.
pub fn is_variant_like(label: &str) -> bool {
    // Lowercasing keeps words apart: the first word of the lowercased label
    // is the lowercased first word.
    let first = label.split_whitespace().next().unwrap_or("");
    let lower = first.to_lowercase();
    if VARIANT_WORDS.contains(&lower.as_str()) || is_kernel_version(&lower) {
        return true;
    }
    // A short heading that ends on a build word or holds a kernel version
    // names a build too (`clean fs, baseline`, `results on 6.8-rc1`,
    // `tip/sched/core + patch`); a longer one is a sentence about it.
    let words: Vec<String> = label
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | ':'))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    words.len() <= 6
        && (words
            .last()
            .is_some_and(|w| ENDING_BUILD_WORDS.contains(&w.as_str()))
            || words.iter().any(|w| is_kernel_version(w)))
}

/// Words that close a name of a build (`clean fs, baseline`, `tip + patch`).
const ENDING_BUILD_WORDS: &[&str] = &[
    "baseline",
    "base",
    "patched",
    "unpatched",
    "vanilla",
    "before",
    "after",
    "patch",
    "patches",
    "patchset",
    "series",
    "fix",
    "mainline",
    "upstream",
];

/// `3.12`, `v6.8-rc1`, `2.6.20-rc4`, `5.10.0-123-generic`.
pub fn is_kernel_version(word: &str) -> bool {
    crate::ingest::shared::text::dotted_release(word)
        .is_some_and(|parts| parts >= 3 || word.contains('-'))
}

/// A benchmark name from a label: a command line gives its program
/// (`taskset -c 3 ./wakeup-latency& …` → `wakeup-latency`).
pub fn benchmark_name(label: &str) -> &str {
    // Only a token starting `./` names a program: none without a `./`.
    if memchr::memmem::find(label.as_bytes(), b"./").is_none() {
        return label;
    }
    for tok in label.split(|c: char| c.is_whitespace() || c == ';') {
        if let Some(prog) = tok.strip_prefix("./") {
            let prog = prog.trim_end_matches(['&', ';', ',', ')']);
            if !prog.is_empty() {
                return prog;
            }
        }
    }
    label
}

/// Mail header fields, lowercase.
pub(super) const NOISE_HEADERS: &[&str] = &[
    "from:",
    "to:",
    "cc:",
    "date:",
    "subject:",
    "message-id:",
    "in-reply-to:",
    "references:",
    "reply-to:",
    "sender:",
    "content-type:",
];

/// Prose lines that never label a table: mail headers, attributions,
/// addresses, archive navigation.
pub fn is_noise(line: &str) -> bool {
    let t = trim(line);
    if t.is_ascii() {
        return is_noise_ascii(t);
    }
    let lower = t.to_lowercase();
    NOISE_HEADERS.iter().any(|h| lower.starts_with(h))
        || lower.ends_with("wrote:")
        || lower.contains("a écrit")
        || t.contains('@')
        || lower.contains("http://")
        || lower.contains("https://")
        || is_bracketed_tag(t)
        || lower.starts_with("[snip")
        || t == "--"
        || t == "-"
        || is_attribute(t)
        || is_settings_banner(t)
}

/// [`is_noise`] of a trimmed ASCII line, where lowercasing is ASCII
/// lowercasing and so needs no lowercase copy.
fn is_noise_ascii(t: &str) -> bool {
    let b = t.as_bytes();
    let starts = |p: &str| b.len() >= p.len() && b[..p.len()].eq_ignore_ascii_case(p.as_bytes());
    let ends =
        |p: &str| b.len() >= p.len() && b[b.len() - p.len()..].eq_ignore_ascii_case(p.as_bytes());
    // `http://` or `https://` in any case: a `://` after `http` or `https`.
    // Every `://` starts at a `:` (and no two overlap).
    let url = memchr::memchr_iter(b':', b).any(|i| {
        if !b[i + 1..].starts_with(b"//") {
            return false;
        }
        let before = &b[..i];
        let ends_with = |p: &[u8]| {
            before.len() >= p.len() && before[before.len() - p.len()..].eq_ignore_ascii_case(p)
        };
        ends_with(b"http") || ends_with(b"https")
    });
    NOISE_HEADERS.iter().any(|h| starts(h))
        || ends("wrote:")
        || memchr::memchr(b'@', b).is_some()
        || url
        || is_bracketed_tag(t)
        || starts("[snip")
        || t == "--"
        || t == "-"
        || is_attribute(t)
        || is_settings_banner(t)
}

/// `[...]`, `[snip]`, `[12:12:28]`: a tag in brackets, no heading; but
/// a build in brackets over its rows (`[before]`, `[after]`) is one.
fn is_bracketed_tag(t: &str) -> bool {
    t.strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .is_some_and(|inner| !inner.contains(' ') && !is_variant_like(inner))
}

/// `Engine=io_uring, sq_ring=128, cq_ring=128`: a harness's banner of its
/// settings, two `key=value` items or more separated by commas and
/// nothing else. It stands between a block's heading (`Without
/// fixedbufs`) and the block's rows and names neither the benchmark nor
/// the build; a line that states a measurement is a sample line, never a
/// heading, so none is lost here. Items apart by spaces only are left
/// alone: that is how a header of settings columns is written
/// (`bs=4k    bs=8k`).
fn is_settings_banner(t: &str) -> bool {
    memchr::memchr(b'=', t.as_bytes()).is_some()
        && t.contains(", ")
        && crate::ingest::shared::keyvals::record(t).is_some_and(|(items, _)| items >= 2)
}

/// `Start date: 2026-11-30 08:39:40`, `Kernel: 6.8.0-rc1`: a field of a
/// report header, not a heading; a heading after a colon has no figures.
fn is_attribute(t: &str) -> bool {
    // `split_once(": ")`: the first `:` followed by a space.
    let b = t.as_bytes();
    match memchr::memchr_iter(b':', b).find(|&i| b.get(i + 1) == Some(&b' ')) {
        Some(i) => {
            let (key, value) = (&t[..i], &b[i + 2..]);
            key.split_whitespace().count() <= 4 && value.iter().any(|c| c.is_ascii_digit())
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_title_over_a_command_is_the_heading() {
        let label = |lines: &[&str]| paragraph_label(lines);
        assert_eq!(
            label(&[
                "IPv4 tests",
                "for i in {1..10}; do netperf -t TCP_RR  -H 10.0.0.5 -p50000 -- -r80000,80000",
                "-O MIN_LATENCY,P90_LATENCY,P99_LATENCY,THROUGHPUT|tail -1; done",
            ]),
            Some(("IPv4 tests".to_string(), false))
        );
        // Lines of prose under a title are no command: the paragraph is prose.
        let prose = label(&[
            "Results",
            "The runs were made on an idle machine; each one took a minute",
            "and the numbers below are the mean of five.",
        ]);
        assert!(prose.is_some_and(|(_, prose)| prose));
        // A sentence over a command is no title.
        let sentence = label(&[
            "Ten runs of the same command were made.",
            "$ perf bench sched pipe -l 100000",
            "$ perf bench sched messaging -g 20",
        ]);
        assert!(sentence.is_some_and(|(_, prose)| prose));
    }

    #[test]
    fn headings_are_cleaned_and_shortened() {
        assert_eq!(
            line_label("* with simple list:").as_deref(),
            Some("with simple list")
        );
        assert_eq!(line_label("without:").as_deref(), Some("without"));
        assert_eq!(line_label("Detail :").as_deref(), Some("Detail"));
        assert_eq!(
            paragraph_label(&[
                "Second case: all threads are SCHED_FIFO with priority equally distributed from ",
                "priomin to priomax"
            ])
            .map(|(l, prose)| (l.as_str().to_owned(), prose)),
            Some((
                "Second case: all threads are SCHED_FIFO with priority equally".to_owned(),
                false
            ))
        );
        let long = [
            "Some long prose about the run. It goes on",
            "and on",
            "and on.",
        ];
        assert_eq!(
            paragraph_label(&long),
            Some(("Some long prose about the run".to_owned(), true))
        );
    }

    #[test]
    fn variant_words_and_versions() {
        assert!(is_variant_like("with plist"));
        assert!(is_variant_like("Without per-tty groups"));
        assert!(is_variant_like("2.6.20-rc4"));
        assert!(!is_variant_like("make -j1 kernel/"));
        assert!(!is_variant_like("hackbench 50"));
        assert!(is_variant_like("clean fs, baseline"));
        assert!(is_variant_like("tip/sched/core + patch"));
        assert!(is_variant_like("results on 6.8-rc1"));
        assert!(!is_variant_like(
            "the numbers of five runs, each against the baseline"
        ));
        assert!(!is_kernel_version("2.8"));
        assert!(is_kernel_version("v6.8-rc1"));
    }

    #[test]
    fn command_lines_name_their_program() {
        assert_eq!(
            benchmark_name("taskset -c 3 ./wakeup-latency& sleep 30;killall wakeup-latency"),
            "wakeup-latency"
        );
        assert_eq!(benchmark_name("hackbench 50"), "hackbench 50");
    }

    #[test]
    fn mail_noise_is_recognised() {
        assert!(is_noise(
            "On Tue, 2013-11-26 at 11:25 -0800, someone wrote:"
        ));
        assert!(is_noise("Date:\tWed, 10 Jan 2007 12:47:21 +0100"));
        assert!(!is_noise("First case: all threads are SCHED_OTHER"));
        assert!(is_noise("Start date: 2026-11-30 08:39:40"));
        assert!(is_noise("Engine=io_uring, sq_ring=128, cq_ring=128"));
        assert!(is_noise("submitter=0, tid=2481, file=/dev/ng0n1, node=-1"));
        assert!(!is_noise("rwmixwrite=10%"));
        assert!(!is_noise("cpu_lat_limit_us=10 (enabled)"));
        assert!(!is_noise("bs=4k    bs=8k    bs=16k"));
        // Case-insensitive on ASCII lines, as on any other.
        assert!(is_noise("see HTTP://example.org/x"));
        assert!(is_noise("see Https://example.org/x"));
        assert!(!is_noise("see ftp://example.org/x"));
        assert!(is_noise("SUBJECT: results"));
        assert!(is_noise("[SNIP]"));
        assert!(is_noise("le 3 mai, quelqu'un a écrit :"));
        assert!(!is_noise("with plist, 3 runs"));
    }
}
