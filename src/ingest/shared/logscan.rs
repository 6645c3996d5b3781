//! Shared helpers for the line-oriented harness-log importers (perf, rt-tests,
//! pgbench, sysbench, time …): building observations at an original line,
//! parsing numbers with an error that names the line, and counting signature
//! lines for detection.
//!
//! A convention all these importers follow: `stat` describes the spread over
//! *replicates* (runs, invocations, threads printed as samples). A statistic a
//! harness computes *inside* one run over its own events (cyclictest's max
//! latency, sysbench's 95th percentile, pgbench's latency average) is a
//! measurement of that run, so it becomes a metric of its own (`latency max`,
//! `latency p95`, `latency avg`) with `stat = sample`. Comparing several runs
//! per side then works like any other sample comparison.

use crate::error::Result;
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::Source;
use crate::model::{canonical_params, Observation, Stat};
use regex::Regex;
use std::sync::LazyLock;

pub(crate) use super::pattern::lazy_re;

/// Whitespace as a regex's `\s` sees it, for ASCII bytes (`u8::is_ascii_whitespace`
/// leaves out the vertical tab).
pub(crate) fn is_space(b: u8) -> bool {
    matches!(b, b'\t'..=b'\r' | b' ')
}

/// A map keyed by names read from one input (benchmark names, units),
/// looked up once per line: hashbrown's default hasher (foldhash) costs a
/// few instructions for such short keys, where the standard SipHash cost
/// more than the rest of the lookup.
pub(crate) type NameMap<K, V> = hashbrown::HashMap<K, V>;

/// The captures of a line that a log repeats verbatim (the header printed
/// before every run). Equal text has equal captures, so the regex runs
/// once per change of text instead of once per line. Groups that did not
/// take part are empty.
#[derive(Debug, Default)]
pub(crate) struct Repeated<'t, const N: usize> {
    last: Option<(&'t str, Option<[&'t str; N]>)>,
}

impl<'t, const N: usize> Repeated<'t, N> {
    /// Groups 1 to N of `re` on `text`, or `None` when it does not match.
    pub(crate) fn captures(&mut self, re: &Regex, text: &'t str) -> Option<[&'t str; N]> {
        if let Some((last, caps)) = self.last {
            if last == text {
                return caps;
            }
        }
        let caps = re
            .captures(text)
            .map(|c| std::array::from_fn(|i| c.get(i + 1).map_or("", |m| m.as_str())));
        self.last = Some((text, caps));
        caps
    }
}

/// True when some prepared line matches `re`.
pub(crate) fn any(src: &Source, re: &Regex) -> bool {
    src.lines.iter().any(|l| re.is_match(&l.text))
}

/// Lines a detection by a table's header or a banner looks at: a
/// harness prints them near its start, and a huge log need not be
/// scanned whole to be recognised.
pub(crate) const DETECT_LINES: usize = 20_000;

/// True when one of the first [`DETECT_LINES`] prepared lines, trimmed,
/// matches `re`.
pub(crate) fn any_near_start(src: &Source, re: &Regex) -> bool {
    src.lines
        .iter()
        .take(DETECT_LINES)
        .any(|l| re.is_match(l.text.trim()))
}

/// True when some prepared line contains `literal` and matches `re`.
///
/// `literal` must be a substring of every match of `re`, so the answer is
/// the same as [`any`]'s; the point is that `re` is compiled (a lazy static
/// forced) only when some line has the literal. Detection runs every
/// format on every input, and compiling ~200 Unicode-aware regexes was most
/// of a small `compare`'s time.
pub(crate) fn any_with(src: &Source, literal: &str, re: &LazyLock<Regex>) -> bool {
    lines_containing(src, literal).any(|l| re.is_match(l))
}

/// True when some prepared line contains `literal`.
pub(crate) fn has(src: &Source, literal: &str) -> bool {
    lines_containing(src, literal).next().is_some()
}

/// The prepared lines of `src` that contain `literal`, in order: what
/// `src.lines.iter().map(|l| l.text.as_str()).filter(|t| t.contains(literal))`
/// gives, found with one search of the joined lines where that finds the
/// same lines (see [`Source::joined`]), else with one searcher for all
/// lines (`str::contains` sets one up per call). Detection runs forty
/// detectors on each input, most of them looking for a literal that the
/// input does not hold.
pub(crate) fn lines_containing<'s>(src: &'s Source, literal: &'s str) -> LinesContaining<'s> {
    // An empty literal is in every line, and one holding a line break
    // could match across lines of the joined text.
    let joined = if literal.is_empty() || literal.contains('\n') {
        None
    } else {
        src.joined()
    };
    LinesContaining {
        finder: memchr::memmem::Finder::new(literal),
        search: match joined {
            Some(text) => Search::Joined { text, from: 0 },
            None => Search::Lines(src.lines.iter()),
        },
    }
}

/// See [`lines_containing`].
pub(crate) struct LinesContaining<'s> {
    finder: memchr::memmem::Finder<'s>,
    search: Search<'s>,
}

enum Search<'s> {
    /// Lines each ended by `\n`, none holding one; the next search starts
    /// at `from`, a line start.
    Joined {
        text: &'s str,
        from: usize,
    },
    Lines(std::slice::Iter<'s, crate::ingest::Line>),
}

impl<'s> Iterator for LinesContaining<'s> {
    type Item = &'s str;

    fn next(&mut self) -> Option<&'s str> {
        match &mut self.search {
            Search::Joined { text, from } => {
                let b = text.as_bytes();
                let at = *from + self.finder.find(b.get(*from..)?)?;
                let start = memchr::memrchr(b'\n', &b[*from..at]).map_or(*from, |i| *from + i + 1);
                let end = memchr::memchr(b'\n', &b[at..]).map_or(b.len(), |i| at + i);
                // The next search starts on the next line: a line is given once.
                *from = end + 1;
                Some(&text[start..end])
            }
            Search::Lines(lines) => lines
                .map(|l| l.text.as_str())
                .find(|t| self.finder.find(t.as_bytes()).is_some()),
        }
    }
}

/// Parses a captured number, or fails naming the file and line.
pub(crate) fn num(src: &Source, line: u32, text: &str, what: &str) -> Result<f64> {
    parse_number(text)
        .ok_or_else(|| src.error(Some(line), format!("{what}: `{text}` is not a number")))
}

/// Ordered `k=v` parameters being collected from a header; rendered
/// canonically (sorted by key). Values lose characters that would break the
/// `k=v,k=v` form.
#[derive(Debug, Clone, Default)]
pub(crate) struct Params(Vec<(String, String)>);

/// A value as it is stored: `,` and `=` would break the `k=v,k=v` form.
fn clean_value(c: char) -> char {
    if c == ',' || c == '=' {
        ';'
    } else {
        c
    }
}

impl Params {
    /// Sets `key` to `value`, replacing an earlier value.
    pub(crate) fn set(&mut self, key: &str, value: impl AsRef<str>) {
        let v: String = value.as_ref().trim().chars().map(clean_value).collect();
        if let Some(e) = self.0.iter_mut().find(|(k, _)| k == key) {
            e.1 = v;
        } else {
            self.0.push((key.to_string(), v));
        }
    }

    /// The value of `key`, if set.
    pub(crate) fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The canonical `k=v,…` string.
    pub(crate) fn render(&self) -> String {
        canonical_params(&self.0)
    }
}

/// Emits the stated summary of a perf-style `mean (+- x%)` line: the mean,
/// the standard error (perf's `+-` is the relative SEM), and, when the number
/// of replicates is known, n and the standard deviation SEM·√n that a
/// summary-statistics test needs.
#[allow(clippy::too_many_arguments)]
pub(crate) fn mean_with_sem(
    out: &mut Vec<Observation>,
    src: &Source,
    line: u32,
    benchmark: &str,
    params: &str,
    metric: &str,
    unit: &str,
    mean: f64,
    sem: Option<f64>,
    n: Option<usize>,
) {
    // Every row of the summary differs only in its stat.
    let row = Row::at(src, line)
        .benchmark(benchmark)
        .params(params)
        .metric(metric)
        .unit(unit);
    out.push(row.clone().stat(Stat::Mean, mean));
    if let Some(se) = sem {
        out.push(row.clone().stat(Stat::Stderr, se));
        if let Some(n) = n.filter(|&n| n > 0) {
            out.push(row.clone().stat(Stat::Stddev, se * (n as f64).sqrt()));
        }
    }
    if let Some(n) = n.filter(|&n| n > 0) {
        // Same unit as the values so that a group never looks like a unit mix.
        out.push(row.stat(Stat::N, n as f64));
    }
}

/// perf prints its `+-` rounded to 0.01 %, so an SD derived from it differs
/// slightly from the SD of the runs printed beside it. Where those runs
/// exist (`samples > 0`) they are the data and a derived SD would only be a
/// false mismatch: the stddev rows pushed since `start` are removed, the
/// stated mean, SEM and n are kept.
pub(crate) fn drop_derived_sd(out: &mut Vec<Observation>, start: usize, samples: usize) {
    if samples > 0 {
        let mut i = start;
        while i < out.len() {
            if out[i].stat == Stat::Stddev {
                out.remove(i);
            } else {
                i += 1;
            }
        }
    }
}

/// The last line number of the source, for "truncated" errors.
pub(crate) fn last_line(src: &Source) -> Option<u32> {
    src.lines.last().map(|l| l.number)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::shared::pattern::re;

    #[test]
    fn params_render_what_was_set_last() {
        let mut p = Params::default();
        p.set("mode", "process");
        p.set("groups", " 4 ");
        p.set("loops", "1,000");
        assert_eq!(p.render(), "groups=4,loops=1;000,mode=process");
        p.set("mode", "a=b");
        assert_eq!(p.get("mode"), Some("a;b"));
        assert_eq!(p.render(), "groups=4,loops=1;000,mode=a;b");
    }

    /// What [`any_with`] and [`has`] answered before the joined text:
    /// every line searched on its own.
    fn by_line(src: &Source, literal: &str, re: &Regex) -> (bool, bool) {
        let any = src
            .lines
            .iter()
            .any(|l| l.text.contains(literal) && re.is_match(&l.text));
        let has = src.lines.iter().any(|l| l.text.contains(literal));
        (any, has)
    }

    fn agrees(text: &str, literal: &str, re: &LazyLock<Regex>) {
        let src = Source::from_text("t", text);
        assert_eq!(
            (any_with(&src, literal, re), has(&src, literal)),
            by_line(&src, literal, re),
            "{text:?} {literal:?}"
        );
        let found: Vec<&str> = lines_containing(&src, literal).collect();
        let want: Vec<&str> = src
            .lines
            .iter()
            .map(|l| l.text.as_str())
            .filter(|t| t.contains(literal))
            .collect();
        assert_eq!(found, want, "{text:?} {literal:?}");
    }

    lazy_re!(ANCHORED, r"^ab: \d+$");
    lazy_re!(TWO_LINES, r"(?m)b$");

    #[test]
    fn joined_search_agrees_with_the_line_search() {
        for text in [
            "",
            "\n",
            "ab: 1\n",
            "xab: 1\nab: 2",
            "ab: x\nab: x\nab: 3\n",
            "ab: 1 ab: 2\n",
            "> ab: 4\n",
            // A quoted-printable line break decodes into two lines.
            "ab: 5=3D=0Ab\n",
            "ab: 5=3D=0Aab: 6\n",
        ] {
            for lit in ["ab: ", "b", "ab: 1", "\n", ""] {
                agrees(text, lit, &ANCHORED);
                agrees(text, lit, &TWO_LINES);
            }
        }
        // An encoded line end is a line break of the decoded text, so no
        // line holds one and the joined text serves.
        let qp = Source::from_text("t", "ab: 5=3D=0Ab\n");
        let texts: Vec<&str> = qp.lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["ab: 5=", "b"]);
        assert_eq!(qp.joined(), Some("ab: 5=\nb\n"));
        let plain = Source::from_text("t", "a\n\nb");
        assert_eq!(plain.joined(), Some("a\n\nb\n"));
    }

    proptest::proptest! {
        #[test]
        fn joined_search_agrees_on_any_text(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "ab", ": ", "1", "22", "\n", " ", "b", ">", "=3D", "=0A", "x",
                ]),
                0..30,
            ),
            lit in proptest::sample::select(vec!["ab: ", "b", "ab: 1", "2\n", "x"]),
        ) {
            let text = parts.concat();
            agrees(&text, lit, &ANCHORED);
            agrees(&text, lit, &TWO_LINES);
        }
    }

    #[test]
    fn repeated_lines_keep_their_captures() {
        let re = re(r"^x (\d+)(?: (y))?");
        let mut r = Repeated::<2>::default();
        assert_eq!(r.captures(&re, "x 1"), Some(["1", ""]));
        assert_eq!(r.captures(&re, "x 1"), Some(["1", ""]));
        assert_eq!(r.captures(&re, "x 2 y"), Some(["2", "y"]));
        assert_eq!(r.captures(&re, "z"), None);
        assert_eq!(r.captures(&re, "z"), None);
    }
}
