//! pyperf: JSON result files and its text commands.

pub(in crate::ingest) mod dump;
pub(in crate::ingest) mod json;
pub(in crate::ingest) mod text;
