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
        let mut parsed = Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no value in the tables of the lmbench summary",
        )?;
        parsed.notes = cut_names(&tables);
        Ok(parsed)
    }
}

/// What to say of each system whose Host or OS cell fills the width
/// getsummary cuts it to (9 and 13 characters: `Linux 4.15.0-`) and that
/// has more than one row in a section: those rows are read as runs of one
/// system, and two systems whose names agree that far, which getsummary
/// prints alike, would be merged. Only their results files name them in
/// full.
fn cut_names(tables: &[Table]) -> Vec<String> {
    let mut cut = std::collections::BTreeMap::new();
    for t in tables.iter().filter(|t| t.skip_reason.is_none()) {
        let mut rows: HashMap<System, usize> = HashMap::new();
        let fills = |cell: &str, (a, b): (usize, usize)| cell.chars().count() >= b - a;
        for (_, text) in &t.rows {
            let Some(system) = system_of(&t.columns, text) else {
                continue;
            };
            let n = rows.entry(system.clone()).or_default();
            *n += 1;
            if *n > 1 && (fills(&system.0, t.columns[0]) || fills(&system.1, t.columns[1])) {
                let most = cut.entry(system).or_insert(0);
                *most = (*most).max(*n);
            }
        }
    }
    if cut.is_empty() {
        return Vec::new();
    }
    let named: Vec<String> = cut
        .into_iter()
        .map(|((host, os), rows)| format!("`{host} {os}` ({rows} rows a section)"))
        .collect();
    vec![format!(
        "{} fill the width lmbench's summary cuts a name to (Host 9, OS 13 characters): \
         each one's rows are read as runs of one system, but may be systems whose names agree \
         that far (their results files name them in full)",
        named.join(", ")
    )]
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
mod tests;
