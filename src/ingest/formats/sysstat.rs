//! sysstat's text reports (sar, mpstat, pidstat, iostat, cifsiostat,
//! tapestat): the banner `Linux 6.1.0 (host) \t06/01/20 \t_x86_64_\t(9 CPU)`,
//! then tables whose header names the columns and whose rows give one
//! interval each. sar, mpstat and pidstat start every line with the
//! interval's time (`13:20:19`, `12:00:01 AM`); iostat, cifsiostat and
//! tapestat print blocks (`avg-cpu:  %user …` over one line of values,
//! `Device  r/s …` over a line per device) once per report.
//!
//! Benchmark: the header's key columns (`CPU`, `DEV`, `IFACE`, `UID PID
//! Command`), the block's title (`avg-cpu`), or `system` for a table with
//! neither (`sar -q`). A key column is one named in capitals (`CPU`,
//! `PID`) or holding words (`Device`, `Command`): its cells are the row's
//! parameters. Every other column is a metric named by its header, `%`
//! columns in percent; each interval's row is a `sample`. `Average:` and
//! `Summary:` rows are made of the intervals above and left out with the
//! reason, as are `LINUX RESTART` markers; a cell `-h` rounded to a
//! binary prefix (`222.1k`, `1.5G`) is left out of its row with the reason.

use crate::error::Result;
use crate::ingest::shared::logscan::lazy_re;
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(BANNER, r"^\w+ \S+ \(\S+\)\s+\S+\s+_\w+_\s+\(\d+ CPU\)\s*$");
lazy_re!(
    TIME,
    r"^(?:(\d{2}:\d{2}:\d{2}(?:\s+[AP]M)?)|(Average:|Summary:))\s+(\S.*)$"
);
lazy_re!(
    STAMP,
    r"^\d{2}/\d{2}/\d{2,4}\s+\d{2}:\d{2}:\d{2}(?:\s+[AP]M)?\s*$"
);

/// The sysstat text importer.
pub struct Sysstat;

/// A table's header: its column names, which are keys, and the title a
/// block states before them (`avg-cpu:`).
struct Header {
    title: Option<String>,
    cols: Vec<String>,
    keys: Vec<bool>,
}

/// A header cell naming a key: capitals only (`CPU`, `DEV`, `TGID`).
fn capital_name(name: &str) -> bool {
    name.chars().all(|c| c.is_ascii_uppercase() || c == '_')
        && name.chars().any(|c| c.is_ascii_uppercase())
}

/// A cell `-h` rounded to a binary prefix.
fn rounded(cell: &str) -> bool {
    cell.len() > 1
        && cell.ends_with(['k', 'M', 'G', 'T', 'P'])
        && parse_number(&cell[..cell.len() - 1]).is_some()
}

/// A header line: names only, one at least that is no key (a metric).
fn header(cells: &[&str]) -> Option<Header> {
    if cells.len() < 2
        || cells
            .iter()
            .any(|c| parse_number(c).is_some() || rounded(c))
    {
        return None;
    }
    let (title, names) = match cells[0].strip_suffix(':') {
        Some(t) => (Some(t.to_string()), &cells[1..]),
        None => (None, cells),
    };
    let keys: Vec<bool> = names.iter().map(|n| capital_name(n)).collect();
    if names.is_empty() || keys.iter().all(|&k| k) {
        return None;
    }
    Some(Header {
        title,
        cols: names.iter().map(|n| n.to_string()).collect(),
        keys,
    })
}

/// The unit a column's name or cell states.
fn unit_of(name: &str, cell: &str) -> &'static str {
    if name.starts_with('%') || cell.ends_with('%') {
        "%"
    } else if name.ends_with("kB/s") {
        "kB/s"
    } else if name.ends_with("MB/s") {
        "MB/s"
    } else {
        ""
    }
}

impl Format for Sysstat {
    fn name(&self) -> &'static str {
        "sysstat"
    }

    fn description(&self) -> &'static str {
        "sysstat text reports (sar, mpstat, pidstat, iostat, cifsiostat, tapestat): the \
         `Linux … (host) date _arch_ (N CPU)` banner, then timed rows or per-report blocks under \
         their column headers"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let first = src.lines.iter().find(|l| !l.text.trim().is_empty());
        if first.is_some_and(|l| BANNER.is_match(&l.text)) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let mut head: Option<(u32, Header)> = None;
        for l in &src.lines {
            let n = l.number;
            let text = l.text.trim_end();
            if text.trim().is_empty() {
                // A block ends at its blank line; a timed table's header
                // is printed again above the next.
                head = None;
                continue;
            }
            if BANNER.is_match(text) || STAMP.is_match(text.trim()) {
                consumed.push(n);
                continue;
            }
            let (summary, body) = match TIME.captures(text) {
                Some(c) => (c.get(2).is_some(), c.get(3).map_or("", |m| m.as_str())),
                None => (false, text),
            };
            if body.contains("LINUX RESTART") {
                skipped.push((n, "a restart of the system being recorded".to_string()));
                head = None;
                continue;
            }
            let cells: Vec<&str> = body.split_whitespace().collect();
            if let Some(h) = header(&cells) {
                head = Some((n, h));
                consumed.push(n);
                continue;
            }
            let Some((hline, h)) = &mut head else {
                continue;
            };
            // `Tape:  r/s …` over `st0  1 …`: the word before the colon
            // names the key column, not a title (`avg-cpu:` over values only).
            if cells.len() == h.cols.len() + 1 {
                if let Some(t) = h.title.take() {
                    h.cols.insert(0, t);
                    h.keys.insert(0, true);
                }
            }
            let (hline, h) = (*hline, &*h);
            if summary {
                skipped.push((n, "the average of the intervals above".to_string()));
                continue;
            }
            let joined;
            let mut cells = cells;
            // A last key column of words (pidstat -l's command line) takes the rest.
            if cells.len() > h.cols.len() && h.keys.last() == Some(&true) {
                joined = cells[h.cols.len() - 1..].join(" ");
                cells.truncate(h.cols.len() - 1);
                cells.push(&joined);
            }
            if cells.len() != h.cols.len() {
                skipped.push((
                    n,
                    format!(
                        "{} cells under the {} columns of the header at line {hline}",
                        cells.len(),
                        h.cols.len()
                    ),
                ));
                continue;
            }
            let key =
                |c: usize| h.keys[c] || parse_number(cells[c]).is_none() && !rounded(cells[c]);
            let mut params = Vec::new();
            let mut names = Vec::new();
            for c in (0..cells.len()).filter(|&c| key(c)) {
                params.push(format!("{}={}", h.cols[c], cells[c]));
                names.push(h.cols[c].as_str());
            }
            let benchmark = match &h.title {
                Some(t) => t.clone(),
                None if !names.is_empty() => names.join(" "),
                None => "system".to_string(),
            };
            let params = params.join(",");
            let mut lost = Vec::new();
            for c in (0..cells.len()).filter(|&c| !key(c)) {
                let Some(v) = parse_number(cells[c]).filter(|_| !rounded(cells[c])) else {
                    lost.push(h.cols[c].as_str());
                    continue;
                };
                out.push(
                    Row::at(src, n)
                        .benchmark(&benchmark)
                        .params(&params)
                        .metric(&h.cols[c])
                        .unit(unit_of(&h.cols[c], cells[c]))
                        .sample(v),
                );
            }
            if !lost.is_empty() {
                skipped.push((
                    n,
                    format!("cells rounded by -h not read: {}", lost.join(", ")),
                ));
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no sysstat table under the banner",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;
    use crate::ingest::row_lines as rows;

    #[test]
    fn sar_rows_are_samples_of_their_key_columns_and_averages_are_left_out() {
        let p = parse_file(&Sysstat, "tests/data/harness/sysstat/sar-u.txt");
        let r = rows(&p);
        assert_eq!(r.len(), 216);
        assert_eq!(r[0], "4 CPU|CPU=all|%user|%=2.15");
        assert_eq!(r[5], "4 CPU|CPU=all|%idle|%=82.88");
        assert_eq!(r[6], "5 CPU|CPU=0|%user|%=2.71");
        let avg: Vec<u32> = p.skipped.iter().map(|(n, _)| *n).collect();
        assert_eq!(avg[..10], (40..=49).collect::<Vec<u32>>());
        assert_eq!(p.skipped[0].1, "the average of the intervals above");
        assert_eq!(p.consumed[..2], [1, 3]);
    }

    #[test]
    fn a_key_column_at_the_end_and_restarts_between_tables() {
        let p = parse_file(&Sysstat, "tests/data/harness/sysstat/sar-dev.txt");
        let r = rows(&p);
        assert_eq!(r[16], "6 DEV|DEV=sda|tps|=1604.7");
        assert_eq!(r[17], "6 DEV|DEV=sda|rkB/s|kB/s=41499.97");
        assert_eq!(r[23], "6 DEV|DEV=sda|%util|%=85.36");
        assert!(p
            .skipped
            .iter()
            .any(|(n, why)| *n == 10 && why.contains("restart")));
        // pidstat: the command's name is a parameter like the ids.
        let p = parse_file(&Sysstat, "tests/data/harness/sysstat/pidstat-A.txt");
        assert_eq!(
            rows(&p)[5],
            "5 UID PID CPU Command|UID=1000,PID=8741,CPU=2,Command=firefox|%usr|%=0.97"
        );
    }

    #[test]
    fn iostat_blocks_a_title_over_values_and_a_key_word_over_rows() {
        let p = parse_file(&Sysstat, "tests/data/harness/sysstat/iostat-x.txt");
        let r = rows(&p);
        assert_eq!(r[0], "4 avg-cpu||%user|%=1.49");
        assert_eq!(r[6], "7 Device|Device=sda|r/s|=6.9");
        assert_eq!(r[7], "7 Device|Device=sda|rkB/s|kB/s=222.14");
        let p = parse_file(&Sysstat, "tests/data/harness/sysstat/tapestat.txt");
        assert_eq!(rows(&p)[1], "4 Tape|Tape=st0|w/s|=139");
        // -h: percentages read, cells rounded to a binary prefix left out.
        let p = parse_file(&Sysstat, "tests/data/harness/sysstat/iostat-human.txt");
        let r = rows(&p);
        assert_eq!(r[0], "4 avg-cpu||%user|%=1.5");
        assert_eq!(r[6], "7 Device|Device=sda|tps|=8.59");
        assert_eq!(r.len(), 11);
        assert!(p.skipped[0]
            .1
            .starts_with("cells rounded by -h not read: kB_read/s"));
    }

    #[test]
    fn only_a_file_that_opens_with_the_banner() {
        let banner = "Linux 1.2.3-TEST (SYSSTAT.TEST) \t06/01/20 \t_x86_64_\t(9 CPU)\n";
        let src = Source::from_text("a.txt", banner);
        assert_eq!(Sysstat.detect(&src), 95);
        let mail = format!("Results of the run:\n{banner}");
        assert_eq!(Sysstat.detect(&Source::from_text("b.txt", &mail)), 0);
    }
}
