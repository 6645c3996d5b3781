//! Tidy tables (one value a row) in CSV/TSV and JSON, patchperf's own export among them.

pub(in crate::ingest) mod csv;
pub(in crate::ingest) mod json;
