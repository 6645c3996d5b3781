//! fio: normal, JSON (and json+) and terse output.

pub(in crate::ingest) mod json;
pub(in crate::ingest) mod terse;
pub(in crate::ingest) mod text;
