//! iperf3: client text output and `-J` JSON.

pub(in crate::ingest) mod json;
pub(in crate::ingest) mod text;
