//! Google Benchmark: JSON, CSV and console output.

pub(in crate::ingest) mod compare;
pub(in crate::ingest) mod console;
pub(in crate::ingest) mod csv;
pub(in crate::ingest) mod json;
pub(in crate::ingest) mod names;
