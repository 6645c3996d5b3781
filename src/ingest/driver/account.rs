//! Each input's report: its rows with their sources, and the
//! numeric-looking lines nobody read.

use super::types::FileReport;
use crate::error::Result;
use crate::ingest::formats::document::is_fallback;
use crate::ingest::{shared::numbers::looks_numeric, Format, Parsed, Source};
use crate::model::{Batch, Head, Observation, SmolStr};

/// What reading one input adds to the reports: a file's report (or a
/// folder's or a pieced file's, opened by its first part), or what a later
/// part adds to the report its first part opened (its rows, unread and
/// skipped lines; its path, format and note are the first part's).
pub(super) enum Account {
    Report(FileReport),
    More(FileReport),
}

impl Account {
    pub(super) fn add_to(self, reports: &mut Vec<FileReport>) {
        match self {
            Account::Report(r) => reports.push(r),
            Account::More(more) => {
                if let Some(r) = reports.last_mut() {
                    // A pieced file whose first piece held no values says
                    // so only while no later piece has held any.
                    if r.rows == 0 && more.rows > 0 {
                        r.note = None;
                    }
                    r.rows += more.rows;
                    r.fallback += more.fallback;
                    r.unread_numeric.extend(more.unread_numeric);
                    r.skipped.extend(more.skipped);
                }
            }
        }
    }
}

/// An empty report of `path`.
pub(super) fn report_of(path: String, format: Option<String>) -> FileReport {
    FileReport {
        path,
        format,
        rows: 0,
        fallback: 0,
        unread_numeric: Vec::new(),
        skipped: Vec::new(),
        note: None,
    }
}

/// The rows `format` read from `src`, each with its source, and their
/// report: the numeric-looking lines of `src` that nobody read, and those
/// the format left out. A value that is not a finite number is an error.
pub(super) fn account(
    src: &Source,
    format: &dyn Format,
    parsed: Parsed,
) -> Result<(Batch, FileReport)> {
    let Parsed {
        bulk,
        observations,
        consumed,
        skipped,
        notes,
    } = parsed;
    let mut batch = Batch {
        columns: bulk,
        rows: observations,
    };
    let mut names = SafeNames::default();
    for h in batch.columns.heads_mut() {
        if h.source.is_empty() {
            h.source = src.path.clone();
        }
        names.make_safe_head(h);
    }
    for o in batch.rows.iter_mut() {
        if o.source.is_empty() {
            o.source = src.path.clone();
        }
        names.make_safe(o);
    }
    let not_finite = |line: u32, benchmark: &str, metric: &str| {
        src.error(
            (line > 0).then_some(line),
            format!("value of {benchmark} {metric} is not a finite number"),
        )
    };
    for s in batch.columns.series() {
        if let Some(i) = s.values.iter().position(|v| !v.is_finite()) {
            return Err(not_finite(s.line(i), &s.head.benchmark, &s.head.metric));
        }
    }
    if let Some(o) = batch.rows.iter().find(|o| !o.value.is_finite()) {
        return Err(not_finite(o.line, &o.benchmark, &o.metric));
    }
    let lines = || {
        let columns = batch.columns.series().flat_map(|s| s.lines());
        columns.chain(batch.rows.iter().map(|o| o.line))
    };
    // Structured formats report line 0 for every value; counting their
    // lines as unread would only be noise.
    let unread = if lines().all(|l| l == 0) && !batch.is_empty() {
        Vec::new()
    } else {
        // Line numbers are dense: a bitmap beats a hash set of
        // millions of entries.
        let mut used = LineSet::for_source(src);
        lines().for_each(|l| used.insert(l));
        consumed.iter().for_each(|&l| used.insert(l));
        skipped.iter().for_each(|(l, _)| used.insert(*l));
        numeric_lines(src, &used)
    };
    let empty = batch
        .is_empty()
        .then(|| "recognised, but it holds no values (no table found)".to_string());
    // The reader's own notes follow what the account says.
    let note = empty
        .into_iter()
        .chain(notes)
        .reduce(|a, b| format!("{a}; {b}"));
    let report = FileReport {
        rows: batch.len(),
        fallback: batch.rows.iter().filter(|o| is_fallback(o)).count(),
        unread_numeric: unread,
        skipped,
        note,
        ..report_of(src.path.to_string(), Some(format.name().to_string()))
    };
    Ok((batch, report))
}

/// Whether [`account`] of `parsed` reads the source's lines: to list the
/// numeric-looking lines nobody read, unless every value says it has no
/// line (a structured format's; see [`account`]).
pub(super) fn accounts_lines(parsed: &Parsed) -> bool {
    let no_line = parsed.bulk.series().all(|s| s.lines().all(|l| l == 0))
        && parsed.observations.iter().all(|o| o.line == 0);
    !no_line || (parsed.bulk.is_empty() && parsed.observations.is_empty())
}

/// Escapes the names of rows ([`crate::model::escape_unsafe`]) for every
/// output at once. Rows of one input repeat a few names: a field equal to
/// the one of the row before is given that row's result without a scan.
#[derive(Default)]
pub(super) struct SafeNames {
    pub(super) last: [(SmolStr, SmolStr); 6],
}

impl SafeNames {
    pub(super) fn make_safe_head(&mut self, h: &mut Head) {
        self.make_safe_fields([
            &mut h.source,
            &mut h.benchmark,
            &mut h.params,
            &mut h.variant,
            &mut h.metric,
            &mut h.unit,
        ]);
    }

    pub(super) fn make_safe(&mut self, o: &mut Observation) {
        self.make_safe_fields([
            &mut o.source,
            &mut o.benchmark,
            &mut o.params,
            &mut o.variant,
            &mut o.metric,
            &mut o.unit,
        ]);
    }

    fn make_safe_fields(&mut self, fields: [&mut SmolStr; 6]) {
        for (field, (seen, safe)) in fields.into_iter().zip(self.last.iter_mut()) {
            if *field != *seen {
                *seen = field.clone();
                crate::model::escape_in_place(field);
                *safe = field.clone();
            } else {
                *field = safe.clone();
            }
        }
    }
}

/// A set of original line numbers of one source, those of its lines only
/// (a source may be a piece from the middle of a file; rows of a re-read
/// tidy table carry line numbers of the file they first came from).
pub(super) struct LineSet {
    pub(super) first: u32,
    pub(super) seen: Vec<bool>,
}

impl LineSet {
    pub(super) fn for_source(src: &Source) -> Self {
        let first = src.lines.first().map_or(0, |l| l.number);
        let last = src.lines.last().map_or(0, |l| l.number);
        LineSet {
            first,
            seen: vec![false; (last - first.min(last)) as usize + 1],
        }
    }

    pub(super) fn insert(&mut self, line: u32) {
        if let Some(seen) = line
            .checked_sub(self.first)
            .and_then(|i| self.seen.get_mut(i as usize))
        {
            *seen = true;
        }
    }

    pub(super) fn contains(&self, line: u32) -> bool {
        line.checked_sub(self.first)
            .and_then(|i| self.seen.get(i as usize))
            .copied()
            .unwrap_or(false)
    }
}

pub(super) fn numeric_lines(src: &Source, used: &LineSet) -> Vec<u32> {
    use crate::ingest::shared::prompt::shell_prompt;
    // Most unread lines (table borders, headers, prose) hold no digit at
    // all: a word-at-a-time test settles them before the byte-wise one.
    // A shell prompt's figures are the command's options (`$ ioping -c 3
    // /tmp`): the capture's command, read as its context, not a value.
    let mut v: Vec<u32> = src
        .lines
        .iter()
        .filter(|l| {
            !used.contains(l.number)
                && has_digit(l.text.as_bytes())
                && looks_numeric(&l.text)
                && shell_prompt(&l.text).is_none()
        })
        .map(|l| l.number)
        .collect();
    v.dedup();
    v
}

/// Whether `b` holds an ASCII digit, eight bytes at a time.
pub(super) fn has_digit(b: &[u8]) -> bool {
    let mut words = b.chunks_exact(8);
    for w in &mut words {
        let mut word = [0u8; 8];
        word.copy_from_slice(w);
        if word_has_digit(u64::from_le_bytes(word)) {
            return true;
        }
    }
    words.remainder().iter().any(u8::is_ascii_digit)
}

/// Whether any byte of `w` is in `b'0'..=b'9'`. On the low seven bits of
/// each byte, adding 0x50 sets the byte's top bit from 0x30 up and adding
/// 0x46 sets it above 0x39, with no carry into the next byte; bytes with
/// their own top bit set (not ASCII) are masked out.
pub(super) fn word_has_digit(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = ONES * 0x80;
    let low = w & !HIGH;
    let from_0 = low + ONES * (0x80 - 0x30);
    let above_9 = low + ONES * (0x7f - 0x39);
    from_0 & !above_9 & !w & HIGH != 0
}
