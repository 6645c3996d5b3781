//! PostgreSQL pgbench: the summary and the per-transaction and aggregate logs.

pub(in crate::ingest) mod log;
pub(in crate::ingest) mod summary;
