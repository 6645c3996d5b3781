//! lmbench's summary report, what `make summary` (and `make see`) print:
//! lmbench's `getsummary` script over one or more results files, under a
//! banner of spaced capitals (`L M B E N C H  3 . 0   S U M M A R Y`),
//! one table per section:
//!
//! ```text
//! File & VM system latencies in microseconds - smaller is better
//! -------------------------------------------------------------------------------
//! Host                 OS   0K File      10K File     Mmap    Prot   Page   100fd
//!                         Create Delete Create Delete Latency Fault  Fault  selct
//! --------- ------------- ------ ------ ------ ------ ------- ----- ------- -----
//! hygon-reg  Linux 10.0.0 8064.5  701.8  14.9K 1700.7  204.5K 0.878   160.6 4.095
//! ```
//!
//! Benchmark the section's title without its unit and direction
//! (`File & VM system latencies`, `Processor, Processes`; the stars of
//! `*Local*` dropped), metric the column's header lines joined (`0K File
//! Create`: a header word set across two columns heads both; `RPC/UDP`),
//! unit the one the title states (`in microseconds`, `in MB/s`), direction
//! its `smaller is better` / `bigger is better`. A column headed by a unit
//! (`Mhz`) is in that unit, whatever the section's. Cells as getsummary
//! abbreviates them: `11.K` and `204.5K` are thousands, `12.3M` millions,
//! `109.` an integer; empty and `-` cells are tests without a result; text
//! cells (`Description`, the memory section's `Guesses`) are no values.
//!
//! Each data row is one results file: its Host and OS cells say which
//! system. When the report holds more than one system, each row's variant
//! names its system: the host alone when no host shows two OS cells
//! (`pkb-72796`), else `host OS` (`margin Linux 2.6.12-rc1-bk3`).
//! getsummary cuts the OS to 13 characters (`Linux 4.15.0-` of
//! `Linux 4.15.0-1023-azure`), so a variant holds the cut only where the
//! host cannot tell the systems apart; the cells are read as written. A
//! report of one system leaves the variant to the caller (two reports of
//! one machine, before and after a change, would otherwise merge). The
//! rows of one system in a section are its runs, in order, each value a
//! `sample`.
//!
//! getpercent's `Comparison to best of the breed` tables (factors against
//! the best system) are left out with the reason, as are getsummary's
//! diagnostics printed around the tables (`x86_64-linux-gnu: lat_mem_rand =
//! 106.360`). A post that pastes a summary between paragraphs is the
//! document reader's, which reads such tables with the post's words.

use crate::error::Result;
use crate::ingest::formats::document::mixed::is_prose;
use crate::ingest::shared::logscan::{has, lazy_re};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Direction, Observation};
use std::collections::HashMap;

lazy_re!(
    UNIT_IN_TITLE,
    r"(?:times\s+)?\bin\s+(microseconds|nanoseconds|milliseconds|seconds|[KMG]B/s(?:ec)?)\b"
);
lazy_re!(CELL, r"^(\d+\.?\d*(?:[eE][-+]?\d+)?)([KM])?$");

/// The lmbench summary importer.
pub struct LmbenchSummary;

impl Format for LmbenchSummary {
    fn name(&self) -> &'static str {
        "lmbench-summary"
    }

    fn description(&self) -> &'static str {
        "lmbench's `make summary` / `make see` report (`L M B E N C H  3 . 0   S U M M A R Y`): \
         every section's table, a row per results file"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if !has(src, "L M B E N C H") || !src.lines.iter().any(|l| is_banner(&l.text)) {
            return 0;
        }
        // Sentences besides the report's own banner, titles and notes
        // are a post's: the document reader's.
        // A line set in columns (a run of three blanks, its indentation
        // too) is a table's, however many words its header holds.
        let own = |t: &&str| {
            let s = t.trim();
            is_banner(s) || is_title(s) || s.starts_with('(') || t.trim_end().contains("   ")
        };
        if is_prose(
            src.lines
                .iter()
                .map(|l| l.text.as_str())
                .filter(|t| !own(t)),
        ) {
            0
        } else {
            95
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut tables: Vec<Table> = Vec::new();
        let (mut consumed, mut skipped) = (Vec::new(), Vec::new());
        // The text lines since the last table: the title and, under it, a
        // parenthesised warning (`(WARNING - may not be correct …)`).
        let mut above: Vec<String> = Vec::new();
        let mut open: Option<Table> = None;
        let mut comparison = false;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim_end());
            if let Some(table) = open.as_mut() {
                if table.columns.is_empty() {
                    if let Some(columns) = column_rule(t) {
                        table.set_columns(columns);
                        consumed.push(n);
                        continue;
                    }
                    if is_underline(t) {
                        // A title under the title (getpercent's heading
                        // above its first section): the table starts again.
                        let title = table
                            .header
                            .iter()
                            .rev()
                            .find(|h| !h.trim().starts_with('('));
                        let mut again = Table::new(title.map_or("", |h| h.trim()));
                        again.skip_reason = table.skip_reason.take();
                        *table = again;
                        consumed.push(n);
                        continue;
                    }
                    if table.header.len() < MAX_HEADER {
                        if !t.trim().is_empty() {
                            table.header.push(t.to_string());
                            consumed.push(n);
                        }
                        continue;
                    }
                    // No column rule under the title: no table.
                    open = None;
                } else if t.trim().is_empty() {
                    tables.extend(open.take());
                    continue;
                } else if table.holds_row(t) {
                    match &table.skip_reason {
                        Some(why) => skipped.push((n, why.clone())),
                        None => table.rows.push((n, t.to_string())),
                    }
                    continue;
                } else {
                    tables.extend(open.take());
                }
            }
            let s = t.trim();
            if s.is_empty() {
                continue;
            }
            if is_banner(s) {
                above.clear();
                consumed.push(n);
                continue;
            }
            if s.starts_with("Comparison to best") {
                comparison = true;
            }
            if is_underline(s) {
                // A title's underline: the title is the text above it, or
                // above its parenthesised warning.
                consumed.push(n);
                let title = above.iter().rev().find(|a| !a.starts_with('(')).cloned();
                above.clear();
                if let Some(title) = title.filter(|a| !is_banner(a)) {
                    let mut table = Table::new(&title);
                    if comparison || title.contains(" than the best") {
                        table.skip_reason = Some(
                            "getpercent's comparison to the best system: factors, not measurements"
                                .into(),
                        );
                    }
                    open = Some(table);
                }
                continue;
            }
            // Titles and notes are context; a line with figures outside
            // the tables is one of getsummary's diagnostics on stderr.
            if s.chars().any(|c| c.is_ascii_digit()) && !is_title(s) {
                skipped.push((
                    n,
                    "outside the summary's tables (a diagnostic of the script or make)".into(),
                ));
            } else {
                consumed.push(n);
            }
            above.push(s.to_string());
        }
        tables.extend(open.filter(|t| !t.columns.is_empty()));
        let names = variant_names(&tables);
        let mut out = Vec::new();
        for table in &tables {
            table.read(src, &names, &mut out, &mut skipped);
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no value in the tables of the lmbench summary",
        )
    }
}

/// Header lines a table may have between its title and its column rule
/// (getsummary writes at most three, and a blank).
const MAX_HEADER: usize = 6;

/// Whether `text` is a title's underline: a run of dashes alone.
fn is_underline(text: &str) -> bool {
    let t = text.trim();
    t.len() >= 10 && t.bytes().all(|b| b == b'-')
}

/// Whether `text` is the banner: lmbench spelled in spaced capitals.
fn is_banner(text: &str) -> bool {
    let t = text.trim();
    t.starts_with("L M B E N C H")
        && t.chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .ends_with("SUMMARY")
}

/// Whether `text` reads as a section title (`Basic uint64 operations - …`):
/// its figures are part of words, not values.
fn is_title(text: &str) -> bool {
    text.contains(" - ") && text.ends_with("is better")
}

/// The character spans of a column rule (`--------- ------------- ----`):
/// two or more runs of dashes and nothing else.
fn column_rule(text: &str) -> Option<Vec<(usize, usize)>> {
    if !text.contains("- -") || !text.chars().all(|c| c == '-' || c == ' ') {
        return None;
    }
    let spans = tokens(text)
        .into_iter()
        .map(|(a, b, _)| (a, b))
        .collect::<Vec<_>>();
    (spans.len() >= 2).then_some(spans)
}

/// The whitespace-separated words of `text` with their character spans.
fn tokens(text: &str) -> Vec<(usize, usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    let mut chars = 0;
    for (byte, c) in text.char_indices() {
        if c.is_whitespace() {
            if let Some((cs, bs)) = start.take() {
                out.push((cs, chars, &text[bs..byte]));
            }
        } else if start.is_none() {
            start = Some((chars, byte));
        }
        chars += 1;
    }
    if let Some((cs, bs)) = start {
        out.push((cs, chars, &text[bs..]));
    }
    out
}

/// How many characters of `a` and `b` overlap.
fn overlap(a: (usize, usize), b: (usize, usize)) -> usize {
    a.1.min(b.1).saturating_sub(a.0.max(b.0))
}

/// The column of `columns` (from `from` on) that the span `at` falls in:
/// the one it overlaps most, else the nearest.
fn column_of(columns: &[(usize, usize)], from: usize, at: (usize, usize)) -> Option<usize> {
    let distance = |c: (usize, usize)| {
        if overlap(c, at) > 0 {
            0
        } else if at.1 <= c.0 {
            c.0 - at.1
        } else {
            at.0.saturating_sub(c.1)
        }
    };
    (from..columns.len()).min_by_key(|&k| {
        let c = columns[k];
        (distance(c), usize::MAX - overlap(c, at))
    })
}

/// One section's table.
struct Table {
    benchmark: String,
    unit: &'static str,
    direction: Option<Direction>,
    header: Vec<String>,
    columns: Vec<(usize, usize)>,
    names: Vec<String>,
    rows: Vec<(u32, String)>,
    skip_reason: Option<String>,
}

impl Table {
    fn new(title: &str) -> Table {
        let mut parts: Vec<&str> = title.split(" - ").map(str::trim).collect();
        let direction = parts.iter().find_map(|p| match *p {
            "smaller is better" => Some(Direction::Lower),
            "bigger is better" | "larger is better" => Some(Direction::Higher),
            _ => None,
        });
        parts.retain(|p| !p.ends_with(" is better"));
        let mut unit = "";
        let mut kept = Vec::new();
        for p in parts {
            let rest = match UNIT_IN_TITLE.captures(p) {
                Some(c) => {
                    unit = super::lmbench::canonical(&c[1]);
                    let whole = c.get(0).map_or(0..0, |m| m.range());
                    format!("{}{}", &p[..whole.start], &p[whole.end..])
                }
                None => p.to_string(),
            };
            let rest = rest.trim().trim_matches(|c: char| c == ',' || c == ' ');
            if !rest.is_empty() {
                kept.push(rest.to_string());
            }
        }
        Table {
            benchmark: kept.join(" - ").replace('*', ""),
            unit,
            direction,
            header: Vec::new(),
            columns: Vec::new(),
            names: Vec::new(),
            rows: Vec::new(),
            skip_reason: None,
        }
    }

    /// Names each column by the header words above it: a word within one
    /// column heads it; a word across two (`File` of `0K File` over
    /// `Create Delete`) makes its phrase head every column the phrase
    /// covers.
    fn set_columns(&mut self, columns: Vec<(usize, usize)>) {
        let mut names: Vec<Vec<String>> = vec![Vec::new(); columns.len()];
        for line in &self.header {
            let words = tokens(line);
            let mut k = 0;
            while k < words.len() {
                // The phrase: words set one space apart.
                let mut end = k + 1;
                while end < words.len() && words[end].0 == words[end - 1].1 + 1 {
                    end += 1;
                }
                let phrase = &words[k..end];
                let straddles = phrase.iter().any(|w| {
                    columns
                        .iter()
                        .filter(|&&c| overlap(c, (w.0, w.1)) > 0)
                        .count()
                        > 1
                });
                if straddles {
                    let span = (phrase[0].0, phrase[phrase.len() - 1].1);
                    let text = phrase.iter().map(|w| w.2).collect::<Vec<_>>().join(" ");
                    for (c, col) in columns.iter().enumerate() {
                        if overlap(*col, span) > 0 {
                            names[c].push(text.clone());
                        }
                    }
                } else {
                    for w in phrase {
                        if let Some(c) = column_of(&columns, 0, (w.0, w.1)) {
                            names[c].push(w.2.to_string());
                        }
                    }
                }
                k = end;
            }
        }
        self.names = names.into_iter().map(|parts| join_header(&parts)).collect();
        self.columns = columns;
    }

    /// Whether `text` is one of the table's rows: a blank (or the line's
    /// end) where the column rule leaves a gap after Host and after OS.
    /// `make[1]: Leaving directory …` right under the last row is not.
    fn holds_row(&self, text: &str) -> bool {
        let blank_at = |i: usize| text.chars().nth(i).is_none_or(char::is_whitespace);
        self.columns.len() >= 3 && blank_at(self.columns[0].1) && blank_at(self.columns[1].1)
    }

    /// The rows of the table: Host and OS from the first two columns, a
    /// value per numeric cell.
    fn read(
        &self,
        src: &Source,
        names: &HashMap<System, String>,
        out: &mut Vec<Observation>,
        skipped: &mut Vec<(u32, String)>,
    ) {
        let mut runs: HashMap<System, u32> = Default::default();
        for (n, text) in &self.rows {
            let Some(system) = system_of(&self.columns, text) else {
                skipped.push((*n, "a table row without its Host and OS cells".into()));
                continue;
            };
            let run = runs.entry(system.clone()).or_insert(0);
            let mut taken = vec![false; self.columns.len()];
            let mut read = 0;
            for (a, b, cell) in tokens(text) {
                if b <= self.columns[1].1 {
                    continue;
                }
                let Some(value) = cell_value(cell) else {
                    continue;
                };
                let Some(mut c) = column_of(&self.columns, 2, (a, b)) else {
                    continue;
                };
                if taken[c] {
                    // Two cells in one column's reach: the later one is
                    // the next column's.
                    match (c + 1..self.columns.len()).find(|&k| !taken[k]) {
                        Some(k) => c = k,
                        None => continue,
                    }
                }
                taken[c] = true;
                read += 1;
                let name = &self.names[c];
                let (unit, direction) = match column_unit(name) {
                    Some(u) => (u, None),
                    None => (self.unit, self.direction),
                };
                let mut o = Row::at(src, *n)
                    .benchmark(&self.benchmark)
                    .metric(name)
                    .unit(unit)
                    .sample(value)
                    .with_run(*run);
                if names.len() > 1 {
                    o = o.with_variant(names.get(&system).map_or("", String::as_str));
                }
                o.direction = direction;
                out.push(o);
            }
            if read == 0 {
                skipped.push((*n, "a system without results in this section".into()));
            }
            *run += 1;
        }
    }
}

/// A system as a row states it: its Host and OS cells.
type System = (String, String);

/// Host and OS of a data row, from the text under the first two columns.
fn system_of(columns: &[(usize, usize)], text: &str) -> Option<System> {
    if columns.len() < 3 {
        return None;
    }
    let chars: Vec<char> = text.chars().collect();
    let cut = |(a, b): (usize, usize)| -> String {
        chars
            .get(a.min(chars.len())..b.min(chars.len()))
            .map(|s| s.iter().collect::<String>())
            .unwrap_or_default()
            .trim()
            .to_string()
    };
    // The OS cell is right-aligned and may run into the gap before it.
    let host = cut(columns[0]);
    let os = cut((columns[0].1, columns[1].1));
    (!host.is_empty()).then_some((host, os))
}

/// A cell as getsummary writes it: `1.4520`, `109.`, `11.K`, `204.5K`,
/// `12.3M`, `1e-04`.
fn cell_value(cell: &str) -> Option<f64> {
    let c = CELL.captures(cell)?;
    let v: f64 = c[1].parse().ok()?;
    let scale = match c.get(2).map(|m| m.as_str()) {
        Some("K") => 1e3,
        Some("M") => 1e6,
        _ => 1.0,
    };
    v.is_finite().then_some(v * scale)
}

/// Header words of one column joined: `RPC/` runs into the word below it.
fn join_header(parts: &[String]) -> String {
    let mut name = String::new();
    for p in parts {
        if !name.is_empty() && !name.ends_with('/') {
            name.push(' ');
        }
        name.push_str(p);
    }
    name
}

/// The unit a column's header names by itself (`Mhz`).
fn column_unit(name: &str) -> Option<&'static str> {
    name.eq_ignore_ascii_case("mhz").then_some("MHz")
}

/// The variant of each system the tables' rows name: its host when every
/// host has one OS cell, else `host OS`.
fn variant_names(tables: &[Table]) -> HashMap<System, String> {
    let mut seen = std::collections::BTreeSet::new();
    for t in tables.iter().filter(|t| t.skip_reason.is_none()) {
        for (_, text) in &t.rows {
            if let Some(s) = system_of(&t.columns, text) {
                seen.insert(s);
            }
        }
    }
    let hosts: std::collections::BTreeSet<&str> = seen.iter().map(|(h, _)| h.as_str()).collect();
    let by_host = hosts.len() == seen.len();
    seen.iter()
        .map(|(h, os)| {
            let name = if by_host {
                h.clone()
            } else {
                format!("{h} {os}").trim().to_string()
            };
            ((h.clone(), os.clone()), name)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::testing::{parse_file, source_of_lines};

    fn read(file: &str) -> Parsed {
        parse_file(
            &LmbenchSummary,
            &format!("tests/data/harness/lmbench/{file}"),
        )
    }

    /// The values of `metric` in `benchmark` for `variant`, with their
    /// unit and run, in order.
    fn cells(p: &Parsed, benchmark: &str, variant: &str, metric: &str) -> Vec<(f64, String, u32)> {
        p.observations
            .iter()
            .filter(|o| o.benchmark == benchmark && o.variant == variant && o.metric == metric)
            .map(|o| (o.value, o.unit.to_string(), o.run.unwrap_or(u32::MAX)))
            .collect()
    }

    #[test]
    fn two_systems_three_runs_each_by_section_and_column() {
        let p = read("summary-getsummary-two-systems-3runs.txt");
        let (reg, csv) = ("hygon-reg", "hygon-csv");
        let fs = "File & VM system latencies";
        // `0K File` is set across two columns: it heads both.
        assert_eq!(
            cells(&p, fs, reg, "0K File Create"),
            [
                (8064.5, "us".into(), 0),
                (7633.6, "us".into(), 1),
                (9434.0, "us".into(), 2)
            ]
        );
        assert_eq!(cells(&p, fs, csv, "0K File Create")[1].0, 10400.0);
        assert_eq!(cells(&p, fs, reg, "10K File Delete")[0].0, 1700.7);
        assert_eq!(cells(&p, fs, reg, "Mmap Latency")[0].0, 204500.0);
        let proc = "Processor, Processes";
        assert_eq!(cells(&p, proc, reg, "sh proc")[0].0, 11000.0);
        assert_eq!(cells(&p, proc, reg, "fork proc")[0].0, 109.0);
        assert_eq!(cells(&p, proc, reg, "Mhz")[0], (0.0, "MHz".into(), 0));
        // Empty cells are tests without a result.
        assert!(cells(&p, proc, reg, "slct TCP").is_empty());
        let lat = "Local Communication latencies";
        assert_eq!(cells(&p, lat, csv, "TCP conn")[2].0, 257.0);
        assert!(cells(&p, lat, csv, "RPC/UDP").is_empty());
        let bw = "Local Communication bandwidths";
        assert_eq!(
            cells(&p, bw, reg, "Mem read")[0],
            (15000.0, "MB/s".into(), 0)
        );
        assert_eq!(cells(&p, bw, reg, "TCP")[1].0, 1.56);
        let mem = "Memory latencies";
        assert_eq!(cells(&p, mem, csv, "L1 $")[2], (0.906, "ns".into(), 2));
        assert_eq!(cells(&p, mem, reg, "Rand mem")[0].0, 106.4);
        assert_eq!(
            cells(&p, "Basic uint64 operations", reg, "int64 add")[0].0,
            0.23
        );
        assert_eq!(
            cells(&p, "Basic double operations", csv, "double mul")[1].0,
            0.9
        );
        let basic = "Basic system parameters";
        assert_eq!(
            cells(&p, basic, reg, "mem par")[1],
            (7.23, String::new(), 1)
        );
        assert_eq!(cells(&p, basic, reg, "cache line bytes")[0].0, 64.0);
        let dir = |b: &str| {
            p.observations
                .iter()
                .find(|o| o.benchmark == b)
                .map(|o| o.direction)
        };
        assert_eq!(dir(fs), Some(Some(Direction::Lower)));
        assert_eq!(dir(bw), Some(Some(Direction::Higher)));
        // 6 systems x (4 basic + 10 processor + 5 + 1 + 4 + 4 + 7 ctx + 6
        // latencies + 8 file + 9 bandwidth + 5 memory) values.
        assert_eq!(p.observations.len(), 6 * 63);
    }

    #[test]
    fn one_system_leaves_the_variant_to_the_caller() {
        let p = read("summary-make-see-virtualclient.txt");
        let fs = "File & VM system latencies";
        assert_eq!(cells(&p, fs, "", "0K File Create")[0].0, 12.7);
        assert_eq!(cells(&p, fs, "", "0K File Delete")[0].0, 9.8942);
        assert_eq!(cells(&p, fs, "", "10K File Create")[0].0, 21.9);
        assert_eq!(cells(&p, fs, "", "Mmap Latency")[0].0, 111500.0);
        // The warning under the memory title is not its name.
        assert_eq!(
            cells(&p, "Memory latencies", "", "L1 $")[0],
            (1.452, "ns".into(), 0)
        );
        assert_eq!(cells(&p, "Memory latencies", "", "Mhz")[0].0, 1344.0);
        assert_eq!(p.observations.len(), 7 + 4 + 5 + 9 + 5);
        // make's `Leaving directory` right under the last row is no row.
        let last = src_lines("summary-make-see-virtualclient.txt");
        assert!(p.skipped.iter().any(|(n, _)| *n == last));
    }

    fn src_lines(file: &str) -> u32 {
        let text = std::fs::read_to_string(format!("tests/data/harness/lmbench/{file}")).unwrap();
        text.lines().count() as u32
    }

    #[test]
    fn diagnostics_above_the_banner_and_partial_sections() {
        let p = read("summary-getsummary-stderr-two-hosts.txt");
        // Named by host: the OS cells are cut (`Linux 4.15.0-`).
        let (pkb, kylin) = ("pkb-72796", "kylin-pc");
        // getsummary's stderr above the banner is accounted for.
        assert_eq!(p.skipped[0].0, 1);
        assert!(p.skipped[0].1.contains("outside the summary"));
        assert_eq!(
            cells(&p, "Processor, Processes", pkb, "sh proc")[0].0,
            800.0
        );
        assert_eq!(
            cells(&p, "Local Communication bandwidths", kylin, "AF UNIX")[0].0,
            4746.0
        );
        assert_eq!(
            cells(&p, "Local Communication bandwidths", pkb, "AF UNIX")[0].0,
            11000.0
        );
        assert_eq!(
            cells(&p, "Local Communication latencies", pkb, "TCP conn")[0].0,
            1047.0
        );
        assert!(cells(&p, "Basic integer operations", pkb, "intgr bit").is_empty());
        assert_eq!(cells(&p, "Memory latencies", kylin, "Main mem")[0].0, 9.167);
    }

    #[test]
    fn a_post_around_a_summary_is_the_document_reader_s() {
        let mut lines = vec![
            "The numbers below compare the two kernels on the same machine, with the patch \
             applied to the second one only, after a reboot between the runs.",
            "Both were run three times and the table lists every run of each of the kernels.",
            "",
        ];
        let table = [
            "                 L M B E N C H  3 . 0   S U M M A R Y",
            "                 ------------------------------------",
            "",
            "Context switching - times in microseconds - smaller is better",
            "-------------------------------------------------------------",
            "Host                 OS  2p/0K 2p/16K",
            "                         ctxsw  ctxsw",
            "--------- ------------- ------ ------",
            "hygon-reg  Linux 10.0.0 2.4000 2.5000",
        ];
        let alone = source_of_lines(&table);
        // The banner and the titles are the report's own words.
        assert_eq!(LmbenchSummary.detect(&alone), 95);
        let p = LmbenchSummary.parse_accounted(&alone).unwrap();
        assert_eq!(p.observations.len(), 2);
        lines.extend(table);
        assert_eq!(LmbenchSummary.detect(&source_of_lines(&lines)), 0);
    }

    #[test]
    fn one_host_under_two_kernels_is_named_with_its_os_cell() {
        let table = [
            "                 L M B E N C H  3 . 0   S U M M A R Y",
            "Context switching - times in microseconds - smaller is better",
            "-------------------------------------------------------------",
            "Host                 OS  2p/0K 2p/16K",
            "                         ctxsw  ctxsw",
            "--------- ------------- ------ ------",
            "box       Linux 6.8.0-4 2.4000 2.5000",
            "box       Linux 6.9.0-r 2.1000 2.2000",
        ];
        let p = LmbenchSummary
            .parse_accounted(&source_of_lines(&table))
            .unwrap();
        let variants: Vec<&str> = p.observations.iter().map(|o| o.variant.as_str()).collect();
        assert_eq!(
            variants,
            [
                "box Linux 6.8.0-4",
                "box Linux 6.8.0-4",
                "box Linux 6.9.0-r",
                "box Linux 6.9.0-r"
            ]
        );
    }

    #[test]
    fn reports_are_recognised_and_posts_are_not() {
        let detect = |path: &str| {
            LmbenchSummary.detect(&crate::ingest::Source::read(std::path::Path::new(path)).unwrap())
        };
        for file in [
            "summary-getsummary-two-systems-3runs.txt",
            "summary-make-see-virtualclient.txt",
            "summary-getsummary-stderr-two-hosts.txt",
        ] {
            assert_eq!(
                detect(&format!("tests/data/harness/lmbench/{file}")),
                95,
                "{file}"
            );
        }
        for post in [
            "2005a-ia64-clear-page-lmbench3.txt",
            "2001b-mm-large-page-cache-size-lmbench2-summary-repeated-hosts.txt",
        ] {
            assert_eq!(detect(&format!("tests/data/emails/{post}")), 0, "{post}");
        }
    }

    #[test]
    fn cells_as_getsummary_abbreviates_them() {
        assert_eq!(cell_value("11.K"), Some(11000.0));
        assert_eq!(cell_value("204.5K"), Some(204500.0));
        assert_eq!(cell_value("12.3M"), Some(12300000.0));
        assert_eq!(cell_value("109."), Some(109.0));
        assert_eq!(cell_value("1e-04"), Some(1e-4));
        assert_eq!(cell_value("-"), None);
        assert_eq!(cell_value("x86_64-linux-gnu"), None);
    }

    #[test]
    fn a_title_without_a_table_or_broken_rows_never_panic() {
        let lines = [
            "L M B E N C H  3 . 0   S U M M A R Y",
            "Memory latencies in nanoseconds - smaller is better",
            "------------------------------------------------",
            "Host  OS",
            "--------- ---",
            "é",
            "x",
        ];
        let src = source_of_lines(&lines);
        assert!(LmbenchSummary.parse_accounted(&src).is_err());
    }
}
