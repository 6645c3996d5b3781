//! What the readers of `formats/` share.

pub(in crate::ingest) mod asides;
pub(in crate::ingest) mod keyvals;
pub(in crate::ingest) mod lkp_wrapper;
pub(in crate::ingest) mod logscan;
pub(in crate::ingest) mod loop_lines;
pub mod numbers;
pub(in crate::ingest) mod pattern;
pub(in crate::ingest) mod prompt;
pub(in crate::ingest) mod row;
pub(in crate::ingest) mod runs;
pub(in crate::ingest) mod source;
pub(in crate::ingest) mod stack;
pub(in crate::ingest) mod structured;
pub(in crate::ingest) mod text;
