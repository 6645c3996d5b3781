//! Large files cut into pieces of whole lines, so that one log of hundreds
//! of megabytes streams through the ingest driver like a folder of small
//! ones: read a few pieces at a time, on all threads, its rows handed on
//! before more are read. Held whole, a 157 MB tidy table took 1 GB of
//! memory; the rows of one input are all held at once.
//!
//! Only formats that say so are cut ([`Format::pieces`]), and only
//! files whose pieces prepare to exactly the lines of the whole: text that
//! is UTF-8 throughout, without NUL bytes, quoted-printable escapes or
//! terminal redraws (each of which [`Source`] handles by looking at the
//! whole text). Any other file is read whole, as before.

// The probe read here is larger than detection's wide probe, so that
// detection on it sees exactly the lines it would see on the whole file.
use crate::error::{Error, Result};
use crate::ingest::driver::carry::Carrier;
use crate::ingest::driver::detect::{detect_at, WIDE_PROBE_BYTES};
use crate::ingest::shared::source::{is_plain, prepared_lines};
use crate::ingest::{context_kind, Format, IngestOptions, Line, Registry, Source};
use crate::model::Observation;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A file read in pieces: what its pieces share.
pub(super) struct PiecedFile {
    pub path: PathBuf,
    /// The path as rows and messages name it.
    pub display: String,
    /// Where the format that reads it stands in the registry (names are
    /// not unique).
    format_at: usize,
    /// The lines every piece needs: its header, then the lines the format
    /// picks from the whole file (see [`Format::parse_piece`]).
    pub head: Source,
    /// Whether the first piece is read as a file (it holds the header) or,
    /// like the others, with [`Format::parse_piece`] (no header).
    pub first_as_file: bool,
    /// Whether its text starts as JSON does (quote stripping depends on it).
    pub json_like: bool,
    /// What a byte of it counts for in the driver's windows: more than 1
    /// when its format cuts smaller pieces than the driver's because it
    /// holds more per byte (see [`crate::ingest::Pieces::piece_bytes`]), so that a
    /// window holds as much of the rows and of the reader as usual.
    pub weight: u64,
}

/// One piece: whole lines `bytes` of the file, the first of them line
/// `first_line`. The first piece starts at byte 0 and holds the header.
pub(super) struct Piece {
    pub bytes: Range<u64>,
    pub first_line: u32,
    /// The lines before the piece it needs (see [`crate::ingest::Carry`]), in
    /// file order; empty for the first piece and for formats that carry
    /// nothing.
    pub carry: Vec<Line>,
}

/// A file is cut when it holds at least this many of its format's pieces
/// (and more than detection's probe). Read whole, a file holds many times
/// its size while it is read (a 15 MB tidy CSV peaked at 300 MiB, read
/// whole for being under four of the driver's pieces; 227 MiB in pieces),
/// and the pass that finds the cuts costs less than it saves.
const MIN_PIECES: u64 = 1;

/// Lines the probe must hold: the context-file test looks at up to 400.
const MIN_PROBE_LINES: usize = 400;

/// Whether a file of `size` bytes is large enough to be considered for
/// pieces: larger than detection's probe, and than [`MIN_PIECES`] of the
/// smallest pieces a format cuts. Whether it is cut depends then on its
/// format's piece size ([`cut_worth_it`]): a format that holds much per
/// byte (the document reader) cuts pieces far smaller than `piece_bytes`,
/// and a 15 MB mail read whole held 1.1 GB.
pub(super) fn worth_planning(size: u64, piece_bytes: usize) -> bool {
    let smallest = piece_bytes.min(SMALLEST_PIECE_BYTES) as u64;
    size >= MIN_PIECES * smallest && size > WIDE_PROBE_BYTES as u64
}

/// The smallest piece a format asks for ([`crate::ingest::Pieces::piece_bytes`]).
const SMALLEST_PIECE_BYTES: usize = 128 << 10;

/// Whether a file of `size` bytes is cut into pieces of `piece_bytes`:
/// at least [`MIN_PIECES`] of them.
fn cut_worth_it(size: u64, piece_bytes: usize) -> bool {
    size >= MIN_PIECES * piece_bytes as u64
}

/// How a large file is cut: `None` when it must be read whole (smaller
/// than [`MIN_PIECES`] pieces or than detection's probe, not plain text,
/// compressed, a context file, unrecognised, or in a format that needs the
/// whole file). `piece_bytes` is the size a piece grows to before it is
/// cut at the next line break.
pub(super) fn plan(
    path: &Path,
    size: u64,
    registry: &Registry,
    opts: &IngestOptions,
    piece_bytes: usize,
) -> Result<Option<(Arc<PiecedFile>, Vec<Piece>)>> {
    if !worth_planning(size, piece_bytes) {
        return Ok(None);
    }
    let mut file = File::open(path).map_err(|e| Error::io(path, e))?;
    let mut probe = Vec::new();
    (&mut file)
        .take((WIDE_PROBE_BYTES + (64 << 10)) as u64)
        .read_to_end(&mut probe)
        .map_err(|e| Error::io(path, e))?;
    if probe.starts_with(&[0x1f, 0x8b]) {
        return Ok(None);
    }
    let Some(last_break) = memchr::memrchr(b'\n', &probe) else {
        return Ok(None);
    };
    probe.truncate(last_break + 1);
    let display = crate::model::shown_path(path);
    // Text the whole-file reading would refuse or repair is left to it,
    // which then says what is wrong with it.
    let Ok(src) = Source::from_bytes(&display, &probe) else {
        return Ok(None);
    };
    if src.raw.len() <= WIDE_PROBE_BYTES || src.lines.len() < MIN_PROBE_LINES || !is_plain(&src.raw)
    {
        return Ok(None);
    }
    // The format's place, not the format: `--map` adds a second reader
    // called tidy-csv, and the pieces must be read by the one chosen here.
    let format_at = match &opts.format {
        Some(name) => registry.index_of(name),
        None if context_kind(&src).is_some() => None,
        None => detect_at(registry, &src),
    };
    let Some((format_at, format)) = format_at.and_then(|i| Some((i, registry.at(i)?))) else {
        return Ok(None);
    };
    let Some(spec) = format.pieces(&src) else {
        return Ok(None);
    };
    let head_lines = spec.header_lines;
    let head = if head_lines == 0 {
        Source::from_text(&display, "")
    } else {
        let Some(head_end) = memchr::memchr_iter(b'\n', &probe)
            .nth(head_lines as usize - 1)
            .map(|i| i + 1)
        else {
            return Ok(None);
        };
        let Ok(head) = Source::from_bytes(&display, &probe[..head_end]) else {
            return Ok(None);
        };
        head
    };
    let driver_piece_bytes = piece_bytes;
    let piece_bytes = match spec.piece_bytes {
        Some(b) => b.min(piece_bytes),
        None => sized_by_rows(format, &src, piece_bytes),
    };
    let json_like = src.looks_like_json();
    drop(src);
    file.seek(SeekFrom::Start(0))
        .map_err(|e| Error::io(path, e))?;
    let mut context = spec.context.map(|picks| Context {
        picks,
        json_like,
        lines: Vec::new(),
    });
    let mut carrier = spec.carry.map(|c| Carrier::new(c, json_like));
    if !cut_worth_it(size, piece_bytes) {
        return Ok(None);
    }
    let Some(pieces) = cut(
        &mut file,
        piece_bytes.max(head.raw.len()),
        context.as_mut(),
        carrier.as_mut(),
    )
    .map_err(|e| Error::io(path, e))?
    else {
        return Ok(None);
    };
    let head = match context {
        Some(c) => {
            let mut lines = head.lines;
            lines.extend(c.lines);
            Source::from_lines(&display, lines)
        }
        None => head,
    };
    if pieces.len() < 2 {
        return Ok(None);
    }
    let file = PiecedFile {
        path: path.to_path_buf(),
        display,
        format_at,
        head,
        first_as_file: head_lines > 0,
        json_like,
        weight: driver_piece_bytes.div_ceil(piece_bytes.max(1)).max(1) as u64,
    };
    Ok(Some((Arc::new(file), pieces)))
}

/// The size a piece of a format that reads its lines one by one grows to:
/// the driver's `piece_bytes` shrunk so that the rows of a piece take
/// about as much memory as `piece_bytes` of text, by the rows the format
/// gives on the `probe` (the file's first MiB). A row read line by line is
/// an [`Observation`] of 176 bytes whatever its text: a 15 MB Go log of
/// three metrics a line (30 bytes of text a row) held 60 MB of rows for
/// the two 4 MiB pieces being read, a tidy CSV of 50-byte lines 30 MB, and
/// the whole file's rows were held at once, read or being written. A
/// probe the format cannot read, or whose rows take less than its text,
/// leaves the driver's size; pieces never shrink below
/// [`SMALLEST_PIECE_BYTES`] (the document reader's, which holds the most
/// per byte and says so itself).
fn sized_by_rows(format: &dyn Format, probe: &Source, piece_bytes: usize) -> usize {
    let Ok(parsed) = format.parse_accounted(probe) else {
        return piece_bytes;
    };
    let rows = parsed.observations.len() + parsed.bulk.len();
    let held = rows.saturating_mul(std::mem::size_of::<Observation>());
    let text = probe.raw.len().max(1);
    if held <= text {
        return piece_bytes;
    }
    let sized = (piece_bytes as f64 * text as f64 / held as f64) as usize;
    sized.clamp(piece_bytes.min(SMALLEST_PIECE_BYTES), piece_bytes)
}

/// Reads `file` from its start and cuts it after the first line break at
/// or past every `piece_bytes` bytes, counting lines; `None` as soon as a
/// piece is not plain UTF-8 text (see the module documentation).
fn cut(
    file: &mut File,
    piece_bytes: usize,
    mut context: Option<&mut Context>,
    mut carrier: Option<&mut Carrier>,
) -> std::io::Result<Option<Vec<Piece>>> {
    const MORE: u64 = 64 << 10;
    let mut pieces = Vec::new();
    let (mut start, mut line) = (0u64, 1u32);
    let mut buf: Vec<u8> = Vec::with_capacity(piece_bytes + MORE as usize);
    loop {
        if buf.len() < piece_bytes {
            let want = (piece_bytes - buf.len()) as u64;
            file.by_ref().take(want).read_to_end(&mut buf)?;
        }
        if buf.is_empty() {
            return Ok(Some(pieces));
        }
        // The piece ends at the first line break from `piece_bytes` on, or
        // at the end of the file.
        let mut from = piece_bytes.min(buf.len());
        let end = loop {
            if let Some(i) = memchr::memchr(b'\n', &buf[from..]) {
                break from + i + 1;
            }
            from = buf.len();
            if file.by_ref().take(MORE).read_to_end(&mut buf)? == 0 {
                break buf.len();
            }
        };
        let Ok(text) = std::str::from_utf8(&buf[..end]) else {
            return Ok(None);
        };
        if memchr::memchr(0, text.as_bytes()).is_some() || !is_plain(text) {
            return Ok(None);
        }
        let (carry, breaks) = match (context.as_deref_mut(), carrier.as_deref_mut()) {
            (Some(c), Some(k)) => {
                c.collect(text, line);
                k.walk(text, line)
            }
            (Some(c), None) => (Vec::new(), c.collect(text, line)),
            (None, Some(k)) => k.walk(text, line),
            (None, None) => (
                Vec::new(),
                memchr::memchr_iter(b'\n', text.as_bytes()).count(),
            ),
        };
        pieces.push(Piece {
            bytes: start..start + end as u64,
            first_line: line,
            carry,
        });
        let Some(next) = u32::try_from(breaks).ok().and_then(|b| line.checked_add(b)) else {
            return Ok(None);
        };
        line = next;
        start += end as u64;
        buf.drain(..end);
    }
}

/// The lines a format picks from the whole file as it is cut.
struct Context {
    picks: fn(&str) -> bool,
    json_like: bool,
    lines: Vec<Line>,
}

impl Context {
    /// Keeps the lines of `text` (whole lines, the first numbered `first`)
    /// that the format picks, prepared as the whole file's would be;
    /// returns the number of line breaks.
    fn collect(&mut self, text: &str, first: u32) -> usize {
        let (picks, lines) = (self.picks, &mut self.lines);
        prepared_lines(text, first, self.json_like, |text, number, quote_depth| {
            if picks(text) {
                lines.push(Line {
                    text: text.to_string(),
                    number,
                    quote_depth,
                });
            }
        })
    }
}

/// The bytes of `piece`, read anew.
pub(super) fn read(file: &PiecedFile, piece: &Range<u64>) -> Result<Vec<u8>> {
    let io = |e| Error::io(&file.path, e);
    let mut f = File::open(&file.path).map_err(io)?;
    f.seek(SeekFrom::Start(piece.start)).map_err(io)?;
    let len = piece.end - piece.start;
    let mut bytes = Vec::with_capacity(len as usize);
    f.take(len).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 != len {
        return Err(Error::input(
            &file.display,
            None,
            "the file changed while it was read (it is shorter than at first)",
        ));
    }
    Ok(bytes)
}

/// The format that reads `file`, from the registry it was planned with.
pub(super) fn format<'r>(registry: &'r Registry, file: &PiecedFile) -> Result<&'r dyn Format> {
    registry.at(file.format_at).ok_or_else(|| {
        Error::Other(format!(
            "{}: read with another set of formats than it was cut with",
            file.display
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn cut_text(text: &[u8], piece_bytes: usize) -> Option<Vec<Piece>> {
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(text).unwrap();
        f.seek(SeekFrom::Start(0)).unwrap();
        cut(&mut f, piece_bytes, None, None).unwrap()
    }

    /// The pieces cover the text in order, each but the last ends with a
    /// line break found at or past `piece_bytes`, and each knows its first
    /// line's number.
    fn check_cover(text: &[u8], piece_bytes: usize) -> usize {
        let pieces = cut_text(text, piece_bytes).expect("plain text is cut");
        let mut at = 0u64;
        for (i, p) in pieces.iter().enumerate() {
            assert_eq!(p.bytes.start, at);
            let bytes = &text[p.bytes.start as usize..p.bytes.end as usize];
            let before = memchr::memchr_iter(b'\n', &text[..at as usize]).count();
            assert_eq!(p.first_line as usize, before + 1);
            if i + 1 < pieces.len() {
                assert_eq!(bytes.last(), Some(&b'\n'));
                // The cut is the first break from `piece_bytes` on.
                assert!(bytes.len() > piece_bytes);
                assert!(!bytes[piece_bytes.min(bytes.len())..bytes.len() - 1].contains(&b'\n'));
            }
            at = p.bytes.end;
        }
        assert_eq!(at, text.len() as u64);
        pieces.len()
    }

    #[test]
    fn pieces_end_after_line_breaks_and_cover_the_file() {
        let lines: String = (0..5000)
            .map(|i| format!("line {i} {}\n", "x".repeat(i % 97)))
            .collect();
        assert!(check_cover(lines.as_bytes(), 4096) > 20);
        // No final line break; a line longer than a piece; blank lines.
        let mut odd = lines.clone();
        odd.push_str(&"y".repeat(20_000));
        odd.push_str("\n\n\nlast");
        check_cover(odd.as_bytes(), 4096);
        assert_eq!(check_cover(b"short\n", 4096), 1);
        assert!(cut_text(b"", 4096).unwrap().is_empty());
    }

    #[test]
    fn text_that_is_prepared_as_a_whole_is_not_cut() {
        let plain = "a,b,1.5\n".repeat(3000);
        assert!(cut_text(plain.as_bytes(), 1024).is_some());
        // Latin-1, a NUL byte, quoted-printable, a terminal redraw, each in
        // a late piece.
        for (late, what) in [
            (&b"caf\xe9,1\n"[..], "latin-1"),
            (b"a,\0,1\n", "NUL"),
            (b"a=3Db,1\n", "quoted-printable"),
            (b"a,1\rb,2\n", "carriage return"),
            (b"\x1b[2Ka,1\n", "escape"),
        ] {
            let mut text = plain.clone().into_bytes();
            text.extend_from_slice(late);
            text.extend_from_slice(plain.as_bytes());
            assert!(cut_text(&text, 1024).is_none(), "{what}");
        }
        // CRLF line ends are plain.
        assert!(cut_text("a,b,1.5\r\n".repeat(3000).as_bytes(), 1024).is_some());
    }
}
