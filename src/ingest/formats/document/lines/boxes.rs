//! Boxed tables: `+----+` borders and `| a | b |` rows, their cells
//! borrowed from the line.

use crate::ingest::shared::text::trim;

/// Every character of a border is ASCII, so bytes suffice; a table row
/// fails on its second or third byte.
pub(super) fn is_border(t: &str) -> bool {
    let b = t.as_bytes();
    if !matches!(b.first(), Some(b'+' | b'|')) {
        return false;
    }
    // A border is mostly dashes: eight at a time where they run.
    let mut dashes = 0;
    let mut i = 0;
    while i < b.len() {
        if i + 8 <= b.len() && b[i..i + 8] == *b"--------" {
            dashes += 8;
            i += 8;
            continue;
        }
        match b[i] {
            b'-' | b'=' => dashes += 1,
            b'+' | b'|' | b':' | b' ' => {}
            _ => return false,
        }
        i += 1;
    }
    dashes >= 3
}

/// The part of a boxed row between its outer bars, when it has at least two
/// cells.
pub(super) fn box_inner(t: &str) -> Option<&str> {
    if t.len() < 3 {
        return None;
    }
    let inner = t.strip_prefix('|')?;
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    find_bar(inner.as_bytes()).map(|_| inner)
}

/// True when `classify` would call the trimmed line `t` a boxed row.
pub fn is_box_row(t: &str) -> bool {
    !is_border(t) && box_inner(t).is_some()
}

/// The cells of a boxed row: the text between its outer bars, split on
/// demand (a table reads them once, into one buffer for all its rows).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoxCells<'a>(pub(super) &'a str);

impl<'a> BoxCells<'a> {
    /// The trimmed cell texts, left to right.
    pub fn iter(self) -> impl Iterator<Item = &'a str> {
        BoxCellIter { rest: Some(self.0) }
    }

    /// How many cells [`BoxCells::iter`] gives, without splitting them.
    pub fn count(self) -> usize {
        // A short row: a counting loop beats setting up a searcher.
        self.0.bytes().filter(|&b| b == b'|').count() + 1
    }
}

/// The position of the first `|` in `b`, eight bytes at a time: a cell
/// is about a word long, too short for setting up a vector search.
#[inline]
pub(super) fn find_bar(b: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const BARS: u64 = ONES * b'|' as u64;
    let mut words = b.chunks_exact(8);
    let mut at = 0;
    for w in words.by_ref() {
        let mut word = [0u8; 8];
        word.copy_from_slice(w);
        // A zero byte of `x` is a bar; the lowest flagged byte is the first
        // zero (a borrow only flags bytes above a zero).
        let x = u64::from_le_bytes(word) ^ BARS;
        let zero = x.wrapping_sub(ONES) & !x & (ONES << 7);
        if zero != 0 {
            return Some(at + zero.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    words
        .remainder()
        .iter()
        .position(|&c| c == b'|')
        .map(|i| at + i)
}

/// The cells of a boxed row, split at each `|`. Cells are short: a plain
/// byte loop beats a pattern search per cell.
pub(super) struct BoxCellIter<'a> {
    /// What is left of the row; `None` once the last cell is given.
    rest: Option<&'a str>,
}

impl<'a> Iterator for BoxCellIter<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let rest = self.rest?;
        let b = rest.as_bytes();
        let i = find_bar(b).unwrap_or(b.len());
        let raw = &rest[..i];
        self.rest = (i < b.len()).then(|| &rest[i + 1..]);
        // Cells are padded with a space or two: `trim` strips them in place.
        Some(trim(raw))
    }
}
