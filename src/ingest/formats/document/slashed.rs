//! Names joined by slashes against as many values joined by slashes:
//! `rtt min/avg/max/mdev = 0.040/0.055/0.071/0.015 ms` (ping),
//! `round-trip min/avg/max = 0.072/0.086/0.101 ms`, `min/avg/max/mdev =
//! 28.8 ms / 380.8 ms / 847.8 ms / 297.1 ms` (a unit after each value).
//! The pair reader knows one value per key; such a line is read as the
//! pairs it stands for (`rtt min = 0.040 ms, avg = 0.055 ms, …`), each name
//! with its value, the words before the names kept before the first.
//! Counts that differ leave the line as it was (`read/write = 1.2` is a
//! ratio, not two values).

use super::rewrite;
use crate::ingest::shared::pattern::lazy_re;
use crate::ingest::{Line, Source};
use std::borrow::Cow;

lazy_re!(
    SLASHED,
    r"^(?P<pre>.*?)(?P<names>[A-Za-z_][\w.%-]*(?:/[A-Za-z_][\w.%-]*)+)\s*[=:]\s*(?P<values>[-+]?\d[\d.]*(?:\s*[A-Za-zµ%]+)?(?:\s*/\s*[-+]?\d[\d.]*(?:\s*[A-Za-zµ%]+)?)+)\s*(?P<unit>[A-Za-zµ%][\w/µ%]*)?\s*$"
);

/// A number with its unit, which may hold a slash of its own (`481KB/s`).
const NUM: &str = r"[-+]?\d+(?:\.\d+)?(?:[A-Za-zµ%]+(?:/[A-Za-z]+)?)?";

lazy_re!(
    SEGMENT,
    &format!(
        r"(?P<names>\b[A-Za-z][\w%-]*(?:/[A-Za-z][\w%-]*)+)(?P<words>(?:\s+[A-Za-z][\w()%-]*){{0,3}}?)(?:\s*[=:]\s*(?P<slashed>{NUM}(?:/{NUM})+)| (?P<spaced>{NUM}(?: {NUM})+))(?:[.,;]?(?:\s|$))"
    )
);

/// `src`, or a copy whose slash-joined names and values are written as
/// the pairs they stand for.
pub fn expand(src: &Source) -> Cow<'_, Source> {
    let has = |l: &Line| l.text.contains('/');
    if !src.lines.iter().any(|l| {
        has(l)
            && (SLASHED.is_match(&l.text)
                || SEGMENT.is_match(&l.text)
                || current(&l.text).is_some())
    }) {
        return Cow::Borrowed(src);
    }
    rewrite::each_line(src, |_, l| {
        has(l)
            .then(|| {
                pairs(&l.text)
                    .or_else(|| current(&l.text))
                    .or_else(|| segments(&l.text))
            })
            .flatten()
    })
}

/// A line holding slash-joined names with words after them, then their
/// values joined by slashes after `:` or `=`, or as many values one space
/// apart (values in columns are a table's, one per column), among other
/// text: `1. Read/Write IOPS: 117/41. Read/Write Speed
/// 481KB/s 168KB/s` is `1. Read IOPS = 117, Write IOPS = 41. Read Speed
/// = 481KB/s, Write Speed = 168KB/s`. `None` when no part of it is such.
fn segments(text: &str) -> Option<String> {
    let mut out = String::new();
    let mut last = 0;
    // Two names against two values are a ratio when they stand alone
    // (`IOS/call=1/1`), but a list of such pairs in a row is a record of
    // counts (bloat-o-meter's `add/remove: 0/0 grow/shrink: 4/2 up/down:
    // 432/-36`).
    let record = SEGMENT
        .captures_iter(text)
        .filter(|c| {
            c["words"].trim().is_empty()
                && c.name("slashed").is_some_and(|v| {
                    let names = c["names"].split('/').count();
                    names == 2 && slashed_values(v.as_str()).len() == names
                })
        })
        .nth(1)
        .is_some();
    for c in SEGMENT.captures_iter(text) {
        let names: Vec<&str> = c["names"].split('/').collect();
        // A unit (`MB/s`, `Requests/sec`) is no pair of names.
        if names.iter().any(|n| {
            n.chars().filter(|ch| ch.is_alphabetic()).count() < 2
                || ["sec", "ms", "us", "ns", "min", "op", "ops"]
                    .contains(&n.to_lowercase().as_str())
        }) {
            continue;
        }
        let values: Vec<&str> = match (c.name("slashed"), c.name("spaced")) {
            (Some(v), _) => slashed_values(v.as_str()),
            (_, Some(v)) => v.as_str().split_whitespace().collect(),
            _ => continue,
        };
        let words = c["words"].trim();
        // Two names alone against two values is as often a ratio
        // (`IOS/call=1/1` of t/io_uring) as a pair: words after the names
        // (`Read/Write IOPS`) or a third name make it one.
        if values.len() != names.len() || (words.is_empty() && names.len() < 3 && !record) {
            continue;
        }
        let pairs: Vec<String> = names
            .iter()
            .zip(&values)
            .map(|(n, v)| match words {
                "" => format!("{n} = {v}"),
                w => format!("{n} {w} = {v}"),
            })
            .collect();
        let whole = c.get(0).expect("match");
        let values_end = c
            .name("slashed")
            .or_else(|| c.name("spaced"))
            .map_or(whole.end(), |m| m.end());
        let start = c.name("names").map_or(whole.start(), |m| m.start());
        out.push_str(&text[last..start]);
        out.push_str(&pairs.join(", "));
        last = values_end;
    }
    if last == 0 {
        return None;
    }
    out.push_str(&text[last..]);
    Some(out)
}

/// The values of `117/41` or `1.2MB/s/3.4MB/s`: split at each slash that
/// is followed by a number (a unit's own slash is not).
fn slashed_values(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    for i in 0..b.len() {
        let next_is_number = b
            .get(i + 1)
            .is_some_and(|c| c.is_ascii_digit() || *c == b'-' || *c == b'+');
        if b[i] == b'/' && next_is_number {
            out.push(&text[start..i]);
            start = i + 1;
        }
    }
    out.push(&text[start..]);
    out
}

/// The pairs a line of a current sample before its running statistics
/// stands for (see [`super::current_first`]), when its slashed values match
/// its names one for one.
fn current(text: &str) -> Option<String> {
    super::current_first::current_first(text).and_then(|t| pairs(&t))
}

/// The pairs a slashed line stands for, or `None` when it is no such line.
fn pairs(text: &str) -> Option<String> {
    let c = SLASHED.captures(text)?;
    let names: Vec<&str> = c["names"].split('/').collect();
    let values: Vec<&str> = c["values"].split('/').map(str::trim).collect();
    if names.len() != values.len() {
        return None;
    }
    let own_unit = |v: &str| {
        v.trim_start_matches(|ch: char| ch.is_ascii_digit() || "+-.".contains(ch))
            .trim()
            .to_string()
    };
    // A unit after the last value alone is the line's (`0.015 ms`).
    let mut values: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    let mut unit = c
        .name("unit")
        .map_or(String::new(), |m| m.as_str().to_string());
    let bare = values[..values.len() - 1]
        .iter()
        .all(|v| own_unit(v).is_empty());
    if let Some(last) = values.last_mut() {
        let u = own_unit(last);
        if bare && !u.is_empty() && unit.is_empty() {
            *last = last[..last.len() - u.len()].trim().to_string();
            unit = u;
        }
    }
    let pairs: Vec<String> = names
        .iter()
        .zip(&values)
        .map(|(name, value)| {
            // A value with its own unit keeps it; a bare one takes the
            // line's.
            let own =
                value.trim_start_matches(|ch: char| ch.is_ascii_digit() || "+-.".contains(ch));
            if own.trim().is_empty() && !unit.is_empty() {
                format!("{name} = {value} {unit}")
            } else {
                format!("{name} = {value}")
            }
        })
        .collect();
    Some(format!("{}{}", &c["pre"], pairs.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::Format;

    #[test]
    fn slashed_names_and_values_become_pairs() {
        assert_eq!(
            pairs("rtt min/avg/max/mdev = 0.040/0.055/0.071/0.015 ms").as_deref(),
            Some("rtt min = 0.040 ms, avg = 0.055 ms, max = 0.071 ms, mdev = 0.015 ms")
        );
        assert_eq!(
            pairs("min/avg/max/mdev = 28.8 ms / 380.8 ms / 847.8 ms / 297.1 ms").as_deref(),
            Some("min = 28.8 ms, avg = 380.8 ms, max = 847.8 ms, mdev = 297.1 ms")
        );
        assert_eq!(
            pairs("round-trip min/avg/max = 0.072/0.086/0.101 ms").as_deref(),
            Some("round-trip min = 0.072 ms, avg = 0.086 ms, max = 0.101 ms")
        );
    }

    /// Lines of a part-q post: numbered results with slashed keys, the
    /// values joined by slashes after a colon, or apart with their units.
    #[test]
    fn slashed_keys_among_other_text_become_pairs() {
        assert_eq!(
            segments("1. Read/Write IOPS: 117/41. Read/Write Speed 481KB/s 168KB/s").as_deref(),
            Some(
                "1. Read IOPS = 117, Write IOPS = 41. Read Speed = 481KB/s, Write Speed = 168KB/s"
            )
        );
        assert_eq!(
            segments("4. Read/Write IOPS: 97/32. Read/Write Speed 400K/s 131KB/s").as_deref(),
            Some("4. Read IOPS = 97, Write IOPS = 32. Read Speed = 400K/s, Write Speed = 131KB/s")
        );
        // Counts that differ, a unit, prose: left alone.
        assert_eq!(segments("Read/Write IOPS: 117/41/12"), None);
        assert_eq!(segments("throughput MB/s 120 130"), None);
        assert_eq!(segments("the read/write path takes 5 ms"), None);
        assert_eq!(segments("Patch 3/4 adds 2 helpers"), None);
        // Columns of a table (mmtests, two kernels), a rate's unit.
        assert_eq!(
            segments("%age total pages scanned/reclaimed          99.48%    99.49%"),
            None
        );
        assert_eq!(segments("Requests/sec 583729.93 460007.44"), None);
        // A part-s post's bloat-o-meter summary: pairs of counts in a row.
        assert_eq!(
            segments("add/remove: 0/0 grow/shrink: 4/2 up/down: 432/-36 (396)").as_deref(),
            Some("add = 0, remove = 0 grow = 4, shrink = 2 up = 432, down = -36 (396)")
        );
        // A ratio of t/io_uring's record lines.
        assert_eq!(
            segments("IOPS=254820, BW=124MiB/s, IOS/call=1/1, inflight=(1 1)"),
            None
        );
    }

    /// Lines of a part-t post: a sample, then the running statistics.
    #[test]
    fn a_current_sample_then_its_statistics_become_pairs() {
        assert_eq!(
            current("usb_request rtt : min/max/mean: 3860718 : 220744/5710327/3372587").as_deref(),
            Some("usb_request rtt = 3860718, min = 220744, max = 5710327, mean = 3372587")
        );
        // Counts that differ: left.
        assert_eq!(current("rtt : min/max/mean: 38 : 22/57"), None);
    }

    #[test]
    fn other_slashes_are_left_alone() {
        // A ratio of two names, counts that differ, a path, a date.
        assert_eq!(pairs("read/write = 1.2"), None);
        assert_eq!(pairs("min/avg/max = 1/2"), None);
        assert_eq!(pairs("see /proc/meminfo: 12 kB"), None);
        assert_eq!(pairs("Date: 2019/07/02"), None);
    }

    #[test]
    fn a_document_reads_each_name_with_its_value() {
        let src = Source::from_text(
            "ping.txt",
            "--- 10.0.0.2 ping statistics ---\nrtt min/avg/max/mdev = 0.040/0.055/0.071/0.015 ms\n",
        );
        let rows = crate::ingest::formats::document::Document
            .parse(&src)
            .unwrap();
        let avg = rows.iter().find(|o| o.value == 0.055).expect("avg read");
        assert_eq!((avg.metric.as_str(), avg.unit.as_str()), ("avg", "ms"));
        assert!(rows.iter().any(|o| o.value == 0.015 && o.metric == "mdev"));
    }
}
