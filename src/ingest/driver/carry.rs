//! The lines each piece of a large file takes from the text before it
//! ([`crate::ingest::Carry`]): a piece that starts inside a table is read under
//! the table's header, as the whole file would be.

use crate::ingest::shared::source::prepared_lines;
use crate::ingest::{Carry, Line};
use std::collections::VecDeque;

/// Walks a file's lines in order, piece after piece, remembering what the
/// next piece will need.
pub(super) struct Carrier {
    spec: Carry,
    json_like: bool,
    /// The last `spec.above.max(spec.before_cut)` lines seen.
    recent: VecDeque<Line>,
    /// The lines above the block being walked, as they were when it began.
    above: Vec<Line>,
    /// The first `spec.block_head` lines of that block.
    head: Vec<Line>,
    /// Whether the last line seen was in a block (not blank).
    in_block: bool,
}

impl Carrier {
    pub(super) fn new(spec: Carry, json_like: bool) -> Carrier {
        Carrier {
            spec,
            json_like,
            recent: VecDeque::new(),
            above: Vec::new(),
            head: Vec::new(),
            in_block: false,
        }
    }

    /// Walks `text`, whole lines of the file of which the first is line
    /// `first`, and returns what the piece made of it carries (nothing
    /// for the file's first piece) and its number of line breaks.
    pub(super) fn walk(&mut self, text: &str, first: u32) -> (Vec<Line>, usize) {
        let carried = self.carried();
        let breaks = prepared_lines(text, first, self.json_like, |text, number, quote_depth| {
            self.see(Line {
                text: text.to_string(),
                number,
                quote_depth,
            })
        });
        (carried, breaks)
    }

    /// What a piece starting after the lines seen so far needs, in file
    /// order, each line once.
    fn carried(&self) -> Vec<Line> {
        let mut out: Vec<Line> = if self.in_block {
            let cut = self.recent.len().saturating_sub(self.spec.before_cut);
            self.above
                .iter()
                .chain(&self.head)
                .chain(self.recent.iter().skip(cut))
                .cloned()
                .collect()
        } else {
            let skip = self.recent.len().saturating_sub(self.spec.above);
            self.recent.iter().skip(skip).cloned().collect()
        };
        out.sort_by_key(|l| l.number);
        out.dedup_by_key(|l| l.number);
        out
    }

    fn see(&mut self, line: Line) {
        let blank = line.text.trim().is_empty();
        if !blank && !self.in_block {
            let skip = self.recent.len().saturating_sub(self.spec.above);
            self.above = self.recent.iter().skip(skip).cloned().collect();
            self.head.clear();
        }
        self.in_block = !blank;
        if !blank && self.head.len() < self.spec.block_head {
            self.head.push(line.clone());
        }
        self.recent.push_back(line);
        if self.recent.len() > self.spec.above.max(self.spec.before_cut) {
            self.recent.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(lines: &[Line]) -> Vec<u32> {
        lines.iter().map(|l| l.number).collect()
    }

    #[test]
    fn a_piece_inside_a_block_carries_its_head_the_lines_above_and_before_the_cut() {
        let spec = Carry {
            block_head: 2,
            above: 2,
            before_cut: 1,
        };
        let mut c = Carrier::new(spec, false);
        // 1 title, 2 blank, 3 header, 4 rule, 5..8 rows.
        let (first, breaks) = c.walk("title\n\nname base new\n---- ---- ---\na 1 2\nb 3 4\n", 1);
        assert!(first.is_empty());
        assert_eq!(breaks, 6);
        let (carried, _) = c.walk("c 5 6\n", 7);
        assert_eq!(numbers(&carried), [1, 2, 3, 4, 6]);
        assert_eq!(carried[2].text, "name base new");
        // After a blank line the next piece starts a block of its own: it
        // carries the lines above it only.
        let (_, _) = c.walk("\n", 8);
        let (carried, _) = c.walk("other 1\n", 9);
        assert_eq!(numbers(&carried), [7, 8]);
    }

    #[test]
    fn quoted_lines_are_carried_as_the_whole_file_prepares_them() {
        let spec = Carry {
            block_head: 1,
            above: 0,
            before_cut: 0,
        };
        let mut c = Carrier::new(spec, false);
        c.walk("> name base\n> a 1\n", 1);
        let (carried, _) = c.walk("> b 2\n", 3);
        assert_eq!(carried.len(), 1);
        assert_eq!(carried[0].text, "name base");
        assert_eq!(carried[0].quote_depth, 1);
    }
}
