//! A file read by detection's importer, supplemented by the document
//! reader, or read by it in the importer's place when it refuses a mail.

use crate::error::Result;
use crate::ingest::{Format, Parsed, Registry, Source};

/// `src` read with `format`, detection's choice, supplemented by the
/// document reader ([`mixed::read`]): the format that read it, its rows,
/// and, when `format` refused a mail the document reader then read, the
/// note that says so (with the refusal, so that a reader of the report
/// sees why the harness's importer gave no row).
///
/// [`mixed::read`]: crate::ingest::formats::document::mixed::read
pub(super) fn refused_or_read<'r>(
    registry: &'r Registry,
    format: &'r dyn Format,
    src: &Source,
) -> Result<(&'r dyn Format, Parsed, Option<String>)> {
    use crate::ingest::formats::document::{mixed, Document};
    let reading = mixed::read(registry, format, src)?;
    let Some(e) = reading.refused else {
        return Ok((format, reading.parsed, None));
    };
    let document = registry.get(Document.name()).unwrap_or(format);
    let note = format!(
        "the {} importer refused this file ({e}); being a mail of prose, its tables \
         and lines of values were read as a document (check the names)",
        format.name()
    );
    Ok((document, reading.parsed, Some(note)))
}
