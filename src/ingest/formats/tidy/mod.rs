//! Tidy tables (one value a row) in CSV/TSV, JSON and Parquet, patchperf's own exports among them.

pub(in crate::ingest) mod csv;
mod field_map;
pub(in crate::ingest) mod json;
pub(in crate::ingest) mod parquet;
