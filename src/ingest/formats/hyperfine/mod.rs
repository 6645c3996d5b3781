//! hyperfine: its exports (JSON, CSV, Markdown/Org, AsciiDoc) and console output.

pub(in crate::ingest) mod asciidoc;
pub(in crate::ingest) mod console;
pub(in crate::ingest) mod csv;
pub(in crate::ingest) mod json;
pub(in crate::ingest) mod markdown;
