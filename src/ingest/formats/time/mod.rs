//! Timing wrappers: GNU `time -v` and the shells' `time`.

pub(in crate::ingest) mod gnu;
pub(in crate::ingest) mod shell;
