//! A document too large to hold whole, read a piece at a time: each piece
//! under the lines it carries from before it ([`crate::ingest::Carry`]),
//! so that rows deep in a long table keep the names its header gives them.

use super::Document;
use crate::error::Result;
use crate::ingest::{Carry, Format, Parsed, Pieces, Source};

/// How a document is cut. A table's header and underline are its first
/// lines, its title a line or two above it; the lines before the cut keep
/// a row whose label sits on the line above it (and a wrapped row) whole.
/// The reader holds tens of times its input per line, so pieces are small:
/// a thread reading a 256 KiB piece of a one-table mail peaked near 25 MB
/// of the reader's per-line structures, and each thread keeps what its
/// heap once held (a 32 MB mail: 85, 130 and 241 MB resident on 1, 2 and 4
/// threads). Half that size holds half as much, for about 5% more CPU on
/// a 200 MB mail (more pieces, each with its carried lines, and more
/// windows for the run counter).
pub(super) const PIECES: Pieces = Pieces {
    header_lines: 1,
    context: None,
    carry: Some(Carry {
        block_head: 12,
        above: 12,
        before_cut: 3,
    }),
    piece_bytes: Some(128 << 10),
};

/// Reads `body` with the lines `head` holds before it, and keeps what
/// comes from `body`'s own lines: the carried lines were read with the
/// piece before.
pub(super) fn read(head: &Source, body: &Source) -> Result<Parsed> {
    let first = body.first_line();
    let mut lines: Vec<_> = head
        .lines
        .iter()
        .filter(|l| l.number < first)
        .cloned()
        .collect();
    lines.sort_by_key(|l| l.number);
    lines.dedup_by_key(|l| l.number);
    lines.extend(body.lines.iter().cloned());
    let joined = Source::from_lines(&body.path, lines);
    let mut parsed = Document.parse_accounted(&joined)?;
    parsed.observations.retain(|o| o.line >= first);
    parsed.consumed.retain(|&n| n >= first);
    parsed.skipped.retain(|(n, _)| *n >= first);
    Ok(parsed)
}
