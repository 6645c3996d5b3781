//! Large JSON documents read from disk as they are parsed, never held
//! whole (issue 22: a 110 MB hyperfine export peaked at 238 MB, its text
//! held while its 80 MB of samples were made).
//!
//! What the driver decides from a file's text (a context file, which
//! format, whether it is prose) it decides for such a document from its
//! first MiB and a little more, the probe: detection on a large file looks
//! at no more than its first MiB anyway ([`super::detect`]). A format that
//! reads documents from disk ([`crate::ingest::Format::streams`]) then reads the file;
//! where it gives up, or its rows would need the file's lines for the
//! account, the file is read whole as any other.

use super::account::{account, accounts_lines, Account};
use super::detect::{detect, WIDE_PROBE_BYTES};
use super::types::IngestOptions;
use crate::error::{Error, Result};
use crate::ingest::formats::document::mixed::is_prose_document;
use crate::ingest::shared::source::is_plain;
use crate::ingest::{context_kind, Registry, Source};
use crate::model::Batch;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// JSON documents of at least this size are read from disk as they are
/// parsed: below it, holding the text costs less than a driver's window.
pub(super) const STREAM_BYTES: u64 = 8 << 20;

/// The probe: more than detection's wide probe, so that detection on it
/// sees the lines it would see on the whole file.
const PROBE_BYTES: u64 = WIDE_PROBE_BYTES as u64 + (64 << 10);

/// `path`, `size` bytes, read by a format that reads it from disk, when
/// it is a JSON document of at least `min_size` bytes that such a format
/// reads (see the module documentation); `None` when it is to be read
/// whole.
pub(super) fn read_streamed(
    path: &Path,
    size: u64,
    min_size: u64,
    registry: &Registry,
    opts: &IngestOptions,
) -> Result<Option<(Batch, Account)>> {
    if size < min_size {
        return Ok(None);
    }
    let mut file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut probe = Vec::new();
    (&mut file)
        .take(PROBE_BYTES)
        .read_to_end(&mut probe)
        .map_err(|e| Error::io(path, e))?;
    // The probe ends at a character's end; text that is not UTF-8 is
    // left to the whole reading, which decodes or refuses it.
    match std::str::from_utf8(&probe) {
        Ok(_) => {}
        Err(e) if e.error_len().is_none() => probe.truncate(e.valid_up_to()),
        Err(_) => return Ok(None),
    }
    let display = crate::model::shown_path(path);
    let Ok(head) = Source::from_owned(&display, probe) else {
        return Ok(None);
    };
    // Quoted-printable or terminal redraws make lines of the whole text.
    if !head.looks_like_json() || !is_plain(&head.raw) {
        return Ok(None);
    }
    let format = match &opts.format {
        Some(name) => registry.get(name),
        None if context_kind(&head).is_some() || is_prose_document(&head) => return Ok(None),
        None => detect(registry, &head),
    };
    let Some(format) = format.filter(|f| f.streams()) else {
        return Ok(None);
    };
    file.seek(SeekFrom::Start(0))
        .map_err(|e| Error::io(path, e))?;
    let Some(parsed) = format.parse_streamed(&head, &mut file, size)? else {
        return Ok(None);
    };
    // Rows with lines, or none at all, are accounted against the lines.
    if accounts_lines(&parsed) {
        return Ok(None);
    }
    let (batch, report) = account(&head, format, parsed)?;
    Ok(Some((batch, Account::Report(report))))
}
