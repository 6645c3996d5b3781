//! redis-benchmark: `--csv`, `-q` and the default report.

pub(in crate::ingest) mod csv;
pub(in crate::ingest) mod quiet;
pub(in crate::ingest) mod text;
