//! Go: `go test -bench` text and `-json`, and benchstat's text and CSV.

pub(in crate::ingest) mod benchstat_csv;
pub(in crate::ingest) mod benchstat_text;
pub(in crate::ingest) mod json;
pub(in crate::ingest) mod text;
