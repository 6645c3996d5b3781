//! A table an archive collapsed into one line: its line breaks and its
//! column padding gone, so that titles, headers and rows run together
//! (`w/o patch: Gb Rep Threads User … fault/wsec 4 3 1 0.146s … w/patch Gb
//! Rep …`). Such a line is a sequence of segments: words, then a run of
//! values. Within a segment the last words are the column header and the
//! values its rows, as many values a row as the header has words; the
//! words before the header are the title.

use super::*;

/// One header and its rows, out of a collapsed line.
pub(in super::super) struct Segment {
    /// The words before the header (a table's title), cleaned.
    pub title: String,
    /// One name per column.
    pub header: Vec<String>,
    /// The cells, row after row.
    pub values: Vec<Tok>,
}

/// Fewest values a collapsed line holds: a line of prose with a few
/// numbers in it is none.
const MIN_VALUES: usize = 8;

/// Fewest columns a segment's header names: two words before two numbers
/// are as likely a phrase of prose.
const MIN_COLUMNS: usize = 3;

/// The segments of a collapsed table line, when it has two or more whose
/// values fill whole rows under their header (a row of a wide table has
/// one run of values; a list line has runs of one or two).
pub(in super::super) fn segments(toks: &[Tok]) -> Option<Vec<Segment>> {
    if toks.iter().filter(|t| t.is_value()).count() < MIN_VALUES {
        return None;
    }
    let cell = |t: &Tok| t.is_value() || t.kind == TokKind::Missing;
    let mut out = Vec::new();
    let mut words_from = 0;
    let mut i = 0;
    while i < toks.len() {
        if !cell(&toks[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < toks.len() && cell(&toks[i]) {
            i += 1;
        }
        let before = &toks[words_from..start];
        words_from = i;
        // The header: the words right before the values, up to a rule or
        // another mark (`-----`, `|`).
        let tail = before
            .iter()
            .rev()
            .take_while(|t| t.kind == TokKind::Word)
            .count();
        let Some(columns) = columns(&toks[start..i], tail) else {
            continue;
        };
        let (title, header) = before.split_at(before.len() - columns);
        // Words of a sentence are no column names.
        if header.iter().any(|t| t.text.ends_with(['.', ',', ';'])) {
            continue;
        }
        out.push(Segment {
            title: clean(&title_of(title)),
            header: header.iter().map(|t| t.text.to_string()).collect(),
            values: toks[start..i].to_vec(),
        });
    }
    (out.len() >= 2).then_some(out)
}

/// The title among the words before a header: the words an underline
/// (`Vanilla CFQ -----`) marks as a heading, or else all of them.
fn title_of(words: &[Tok]) -> String {
    let rule = |t: &Tok| t.text.len() >= 3 && t.text.chars().all(|c| matches!(c, '-' | '='));
    let span = match words.iter().rposition(rule) {
        Some(end) => {
            let start = words[..end].iter().rposition(rule).map_or(0, |s| s + 1);
            &words[start..end]
        }
        None => words,
    };
    let texts: Vec<&str> = span
        .iter()
        .filter(|t| t.kind == TokKind::Word)
        .map(|t| t.text.as_str())
        .collect();
    texts.join(" ")
}

/// How many columns a run of `values` under up to `words` header words
/// has: the widest that divides the run into whole rows and whose rows
/// repeat the kinds and units of the first. `None` when no such width
/// reaches [`MIN_COLUMNS`].
fn columns(values: &[Tok], words: usize) -> Option<usize> {
    let n = values.len();
    let shape = |t: &Tok| (t.kind, t.unit.clone());
    (MIN_COLUMNS..=words.min(n)).rev().find(|&p| {
        n.is_multiple_of(p) && (p..n).all(|k| shape(&values[k]) == shape(&values[k - p]))
    })
}

/// The observations of a collapsed line's segments: each value named by
/// its column's header word, its segment's title (or the one before it)
/// the benchmark.
pub(super) fn emit(line: u32, segments: &[Segment], n: &Names, out: &mut Vec<Observation>) {
    let mut title = if n.title.is_empty() { n.stem } else { n.title };
    for s in segments {
        if !s.title.is_empty() {
            title = &s.title;
        }
        for (k, t) in s.values.iter().enumerate() {
            if t.kind == TokKind::Missing {
                continue;
            }
            let stat = match t.kind {
                TokKind::Change => Stat::ChangePct,
                TokKind::Spread => Stat::Stddev,
                _ => Stat::Sample,
            };
            let metric = &s.header[k % s.header.len()];
            push(
                out, n.path, title, "", n.section, metric, &t.unit, stat, t.value, line,
            );
        }
    }
}
