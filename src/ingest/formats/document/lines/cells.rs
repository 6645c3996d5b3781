//! Splitting a row into cells on its column gaps, and merging a header
//! written on two lines.

use super::RawCell;
use std::borrow::Cow;

/// Splits a line into cells at tabs and runs of two or more spaces.
pub fn split_cells(text: &str) -> Vec<RawCell> {
    cell_texts(text)
        .into_iter()
        .map(|(col, text)| RawCell {
            col,
            text: text.into_owned(),
        })
        .collect()
}

/// The cells of a one-line header whose names stand one space apart
/// (`Mode Iterations   Variance    Average`), which [`split_cells`] joins
/// (`Mode Iterations`). When the header has as many words as every row
/// under it has cells, and each word starts or ends in the column where
/// the cell under it does, the words are the header's cells; otherwise
/// `None`, and the gaps decide.
pub fn header_words(text: &str, rows: &[&str]) -> Option<Vec<RawCell>> {
    let words = word_cells(text);
    if rows.is_empty() || words.len() <= split_cells(text).len() {
        return None;
    }
    let end = |c: &RawCell| c.col + c.text.chars().count();
    let aligned = |row: &&str| {
        let cells = split_cells(row);
        cells.len() == words.len()
            && cells
                .iter()
                .zip(&words)
                .all(|(c, w)| c.col == w.col || end(c) == end(w))
    };
    rows.iter().all(aligned).then_some(words)
}

/// The words of `text` (split at any whitespace) with their starting
/// character columns.
fn word_cells(text: &str) -> Vec<RawCell> {
    let mut out = Vec::new();
    let mut word: Option<RawCell> = None;
    for (col, ch) in text.chars().enumerate() {
        match (ch.is_whitespace(), word.as_mut()) {
            (true, Some(_)) => out.extend(word.take()),
            (true, None) => {}
            (false, Some(w)) => w.text.push(ch),
            (false, None) => {
                word = Some(RawCell {
                    col,
                    text: ch.to_string(),
                })
            }
        }
    }
    out.extend(word);
    out
}

/// [`split_cells`] as (starting column, text) pairs; a cell of ASCII text
/// that is one span of the line borrows it instead of copying it.
pub(super) fn cell_texts(text: &str) -> Vec<(usize, Cow<'_, str>)> {
    // Columns are counted in characters; in ASCII text (nearly every line)
    // those are bytes, and the text needs no copy into characters.
    let cells: Vec<(usize, Cow<str>)> = if text.is_ascii() {
        let b = text.as_bytes();
        let ws = |x: u8| (x as char).is_whitespace();
        cell_spans(b, ws, |x| x == b' ')
            .into_iter()
            .map(|(s, e)| (s, Cow::Borrowed(&text[s..e])))
            .collect()
    } else {
        let c: Vec<char> = text.chars().collect();
        cell_spans(&c, char::is_whitespace, |x| x == ' ')
            .into_iter()
            .map(|(s, e)| (s, Cow::Owned(c[s..e].iter().collect())))
            .collect()
    };
    let mut out: Vec<(usize, Cow<str>)> = Vec::with_capacity(cells.len());
    for (start, text) in cells {
        // `140227 ±  3%`: a spread written after a wide gap stays in its cell.
        let joins = out.last().is_some_and(|(_, p)| {
            let p = p.trim_end();
            p.ends_with('±') || p.ends_with("+/-") || p.ends_with("+-")
        }) || text.starts_with('±')
            || text.starts_with("+/-")
            || (text.starts_with('[') && text.ends_with(']') && !out.is_empty());
        match out.last_mut() {
            Some((_, prev)) if joins => {
                let prev = prev.to_mut();
                prev.push(' ');
                prev.push_str(&text);
            }
            _ => out.push((start, text)),
        }
    }
    out
}

/// The (start, end) positions of the cells of a line given as characters
/// (or as bytes, for ASCII text): a single space continues a cell, a tab or
/// two spaces end it.
pub(super) fn cell_spans<T: Copy>(
    c: &[T],
    ws: impl Fn(T) -> bool,
    space: impl Fn(T) -> bool,
) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        while i < c.len() && ws(c[i]) {
            i += 1;
        }
        if i >= c.len() {
            break;
        }
        let start = i;
        loop {
            while i < c.len() && !ws(c[i]) {
                i += 1;
            }
            if i + 1 < c.len() && space(c[i]) && !ws(c[i + 1]) {
                i += 1;
                continue;
            }
            break;
        }
        out.push((start, i));
    }
    out
}

/// Joins a header written over two lines: each cell of the lower line gets
/// the upper cell above it (the one its span overlaps most, else the nearest
/// one to its left) as a prefix: `baseline` over `mean` and `sd` gives
/// `baseline mean` and `baseline sd`.
pub fn merge_header(upper: &[RawCell], lower: &[RawCell]) -> Vec<RawCell> {
    let span = |c: &RawCell| (c.col, c.col + c.text.chars().count());
    lower
        .iter()
        .map(|l| {
            let (ls, le) = span(l);
            let overlap = |u: &RawCell| {
                let (us, ue) = span(u);
                ue.min(le).saturating_sub(us.max(ls))
            };
            let best = upper
                .iter()
                .filter(|u| overlap(u) > 0)
                .max_by_key(|u| overlap(u))
                .or_else(|| upper.iter().filter(|u| u.col <= ls).max_by_key(|u| u.col));
            let text = match best {
                Some(u) => format!("{} {}", u.text, l.text),
                None => l.text.clone(),
            };
            RawCell { col: l.col, text }
        })
        .collect()
}
