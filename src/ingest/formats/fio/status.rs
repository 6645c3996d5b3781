//! fio's status line, the one it rewrites on the terminal while jobs run
//! and which mails paste a few of, a line per second, to show a rate that
//! holds or drops:
//!
//! `Jobs: 24 (f=24): [0.1% done] [9798M/0K /s] [2392K/0  iops] [09h:59m:13s]`
//! (fio 2.x: bandwidth and IOPS per direction, read/write[/trim], split by
//! `/`), and
//! `Jobs: 1 (f=1): [w(1)][100.0%][r=0KiB/s,w=402MiB/s][r=0,w=402 IOPS][eta 00m:00s]`
//! (fio 3: each direction named).
//!
//! A mail may keep only the groups (`[183K/0/0 iops]`, a line per run
//! under `Before:` and `After:`): a line of nothing but such groups is a
//! status line too, when one of them holds a rate or IOPS.
//!
//! Each line is a `sample` of benchmark `fio`, parameter `rw=` the
//! direction, metrics `bw` (in the unit the line prints) and `iops` (a
//! count, its `K` multiplied out as a table's `155K` is). A direction the
//! jobs do not run prints 0 and is left out: it is no measurement.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::rescale;

lazy_re!(STATUS, r"^Jobs: \d+ \(f=\d+\): (.*)$");

/// The fio status-line importer.
pub struct FioStatus;

const DIRECTIONS: [&str; 3] = ["read", "write", "trim"];

/// What one bracketed group of a status line holds.
#[derive(Debug, PartialEq)]
enum Group {
    /// Per direction, the value and the unit (`MB/s`).
    Bandwidth(Vec<(&'static str, f64, String)>),
    /// Per direction, the operations per second.
    Iops(Vec<(&'static str, f64)>),
}

/// A number with an optional scale letter or byte unit glued to it
/// (`9798M`, `6314MB`, `402MiB`, `2392K`, `0`): value and the letters.
fn amount(s: &str) -> Option<(f64, &str)> {
    let s = s.trim();
    let end = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let value: f64 = s[..end].parse().ok()?;
    value.is_finite().then_some((value, &s[end..]))
}

/// A count with an optional `k`/`K`/`M` multiplied out.
fn count(s: &str) -> Option<f64> {
    let (v, letters) = amount(s)?;
    let scale = match letters {
        "" => 1.0,
        "k" | "K" => 1e3,
        "m" | "M" => 1e6,
        _ => return None,
    };
    Some(rescale(v, scale))
}

/// A bandwidth as printed, its unit spelled out as bytes per second: fio
/// 2.x's bare `M` is the same `MB/s` its other status lines print.
fn bandwidth(s: &str) -> Option<(f64, String)> {
    let (v, letters) = amount(s)?;
    let unit = match letters {
        "" | "B" => "B/s".to_string(),
        l if l.len() == 1 && "KMGT".contains(l) => format!("{l}B/s"),
        l if matches!(l.len(), 2 | 3)
            && l.starts_with(['K', 'M', 'G', 'T'])
            && (l.ends_with('B') || l.ends_with("iB")) =>
        {
            format!("{l}/s")
        }
        _ => return None,
    };
    Some((v, unit))
}

/// Reads one group's text (without its brackets).
fn group(text: &str) -> Option<Group> {
    let t = text.trim();
    if t.contains('=') {
        // fio 3: `r=0KiB/s,w=402MiB/s` or `r=0,w=402 IOPS`.
        let direction = |key: &str| match key.trim() {
            "r" => Some("read"),
            "w" => Some("write"),
            "t" => Some("trim"),
            _ => None,
        };
        if let Some(cells) = t.strip_suffix("IOPS") {
            let mut out = Vec::new();
            for cell in cells.split(',') {
                let (k, v) = cell.split_once('=')?;
                out.push((direction(k)?, count(v)?));
            }
            return Some(Group::Iops(out));
        }
        let mut out = Vec::new();
        for cell in t.split(',') {
            let (k, v) = cell.split_once('=')?;
            let (v, unit) = bandwidth(v.trim().strip_suffix("/s")?)?;
            out.push((direction(k)?, v, unit));
        }
        return Some(Group::Bandwidth(out));
    }
    // fio 2.x: `9798M/0K /s`, `6314MB/0KB/0KB /s`, `2392K/0  iops`.
    let (cells, iops) = if let Some(c) = t.strip_suffix("iops") {
        (c, true)
    } else {
        (t.strip_suffix("/s")?, false)
    };
    let cells: Vec<&str> = cells.trim().split('/').collect();
    if cells.len() > DIRECTIONS.len() {
        return None;
    }
    let named = DIRECTIONS.iter().copied().zip(cells);
    if iops {
        named
            .map(|(d, c)| Some((d, count(c)?)))
            .collect::<Option<Vec<_>>>()
            .map(Group::Iops)
    } else {
        named
            .map(|(d, c)| bandwidth(c).map(|(v, u)| (d, v, u)))
            .collect::<Option<Vec<_>>>()
            .map(Group::Bandwidth)
    }
}

/// The groups of a status line after its `Jobs: N (f=N):` prefix; the
/// progress, state and eta groups are not values and read as none.
fn groups(rest: &str) -> Vec<Group> {
    rest.split('[')
        .filter_map(|g| g.split_once(']'))
        .filter_map(|(inside, _)| group(inside))
        .collect()
}

/// The groups of a status line: after its `Jobs: N (f=N):` prefix, or a
/// line of bracketed groups alone (`[183K/0/0 iops]`); none for any other
/// line, or one whose groups hold no rate.
fn status_groups(text: &str) -> Vec<Group> {
    if let Some(c) = STATUS.captures(text) {
        return groups(c.get(1).map_or("", |m| m.as_str()));
    }
    let t = text.trim();
    let only_groups = t.starts_with('[')
        && t.ends_with(']')
        && t.split('[').skip(1).all(|g| {
            g.split_once(']')
                .is_some_and(|(inside, after)| !inside.is_empty() && after.trim().is_empty())
        });
    if only_groups {
        groups(t)
    } else {
        Vec::new()
    }
}

impl Format for FioStatus {
    fn name(&self) -> &'static str {
        "fio-status"
    }

    fn description(&self) -> &'static str {
        "fio status lines: `Jobs: N (f=N): […] [9798M/0K /s] [2392K/0 iops]` or `[r=…,w=…MiB/s][r=…,w=… IOPS]`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let lines = src
            .lines
            .iter()
            .filter(|l| l.text.contains(']') && !status_groups(&l.text).is_empty())
            .count();
        // One line could be quoted in passing; a series of them is output,
        // and so is a file that holds one `Jobs:` line and nothing else.
        let alone = || {
            let mut text = src.lines.iter().filter(|l| !l.text.trim().is_empty());
            text.next()
                .is_some_and(|l| STATUS.is_match(l.text.trim_start()))
                && text.next().is_none()
        };
        if lines >= 2 || (lines == 1 && alone()) {
            60
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut consumed = Vec::new();
        for l in &src.lines {
            let found = status_groups(&l.text);
            if found.is_empty() {
                continue;
            }
            consumed.push(l.number);
            let row = |dir: &str, metric: &str, unit: &str, v: f64| {
                let mut p = Params::default();
                p.set("rw", dir);
                Row::at(src, l.number)
                    .benchmark("fio")
                    .params(&p.render())
                    .metric(metric)
                    .unit(unit)
                    .sample(v)
            };
            for g in found {
                match g {
                    Group::Bandwidth(cells) => {
                        for (d, v, unit) in cells.into_iter().filter(|c| c.1 != 0.0) {
                            out.push(row(d, "bw", &unit, v));
                        }
                    }
                    Group::Iops(cells) => {
                        for (d, v) in cells.into_iter().filter(|c| c.1 != 0.0) {
                            out.push(row(d, "iops", "", v));
                        }
                    }
                }
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            Vec::new(),
            "no fio status line (`Jobs: N (f=N): … iops]`) found",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_generations_of_the_status_line() {
        let old = groups("[0.1% done] [9798M/0K /s] [2392K/0  iops] [09h:59m:13s]");
        assert_eq!(
            old,
            [
                Group::Bandwidth(vec![
                    ("read", 9798.0, "MB/s".into()),
                    ("write", 0.0, "KB/s".into())
                ]),
                Group::Iops(vec![("read", 2392000.0), ("write", 0.0)]),
            ]
        );
        let three = groups("[RRRR] [0.0% done] [6314MB/0KB/0KB /s] [1616K/0/0 iops]");
        assert_eq!(three.len(), 2);
        let new = groups("[w(1)][100.0%][r=0KiB/s,w=402MiB/s][r=0,w=402 IOPS][eta 00m:00s]");
        assert_eq!(
            new,
            [
                Group::Bandwidth(vec![
                    ("read", 0.0, "KiB/s".into()),
                    ("write", 402.0, "MiB/s".into())
                ]),
                Group::Iops(vec![("read", 0.0), ("write", 402.0)]),
            ]
        );
        // A unit of another alphabet is no bandwidth, and no panic.
        assert!(groups("[5µB/0K /s]").is_empty());
        // Progress and eta are no values; a bracket left open is no group.
        assert!(groups("[0.1% done] [eta 09h:58m:40s] [12M/3").is_empty());
    }

    #[test]
    fn a_series_of_status_lines_is_read_line_by_line() {
        let text = "Without the change:\n\
Jobs: 24 (f=24): [0.1% done] [9798M/0K /s] [2392K/0  iops] [09h:59m:13s]\n\
Jobs: 24 (f=24): [0.1% done] [9782M/0K /s] [2388K/0  iops] [09h:59m:12s]\n";
        let src = Source::from_text("s.txt", text);
        assert_eq!(FioStatus.detect(&src), 60);
        let p = FioStatus.parse_accounted(&src).unwrap();
        let got: Vec<(u32, &str, &str, f64, &str)> = p
            .observations
            .iter()
            .map(|o| {
                (
                    o.line,
                    o.params.as_str(),
                    o.metric.as_str(),
                    o.value,
                    o.unit.as_str(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (2, "rw=read", "bw", 9798.0, "MB/s"),
                (2, "rw=read", "iops", 2392000.0, ""),
                (3, "rw=read", "bw", 9782.0, "MB/s"),
                (3, "rw=read", "iops", 2388000.0, ""),
            ]
        );
        // A mail that kept only the IOPS group of each line, under its
        // headings (read IOPS, K multiplied out; the idle directions'
        // zeros are no measurement).
        let bare = Source::from_text(
            "b.txt",
            ">> Before:\n>> [183K/0/0 iops]\n>> [172K/0/0 iops]\n>>\n>> After:\n>> [258K/0/0 iops]\n",
        );
        assert_eq!(FioStatus.detect(&bare), 60);
        let p = FioStatus.parse_accounted(&bare).unwrap();
        let got: Vec<(u32, &str, &str, f64)> = p
            .observations
            .iter()
            .map(|o| (o.line, o.params.as_str(), o.metric.as_str(), o.value))
            .collect();
        assert_eq!(
            got,
            [
                (2, "rw=read", "iops", 183000.0),
                (3, "rw=read", "iops", 172000.0),
                (6, "rw=read", "iops", 258000.0)
            ]
        );
        // Brackets around other words, or with text after them, are not.
        assert!(status_groups("[  5]  0.00-1.00 sec  1.10 GBytes").is_empty());
        assert!(status_groups("[0.1% done] [eta 09h:58m:40s]").is_empty());
        assert!(status_groups("[183K/0/0 iops] and more").is_empty());
        // One line quoted in passing is not output to read.
        let one = Source::from_text(
            "o.txt",
            text.lines().take(2).collect::<Vec<_>>().join("\n").as_str(),
        );
        assert_eq!(FioStatus.detect(&one), 0);
        // A file of that one line alone is fio's output.
        let alone = Source::from_text("a.txt", text.lines().nth(1).unwrap_or(""));
        assert_eq!(FioStatus.detect(&alone), 60);
        let p = FioStatus.parse_accounted(&alone).unwrap();
        assert_eq!(p.observations.len(), 2);
        let bare = Source::from_text("b.txt", "[183K/0/0 iops]\n");
        assert_eq!(FioStatus.detect(&bare), 0);
    }
}
