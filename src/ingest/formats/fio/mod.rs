//! fio: normal, JSON (and json+) and terse output, and the bandwidth, IOPS
//! and latency logs, and the latency histogram logs.

pub(in crate::ingest) mod hist_log;
pub(in crate::ingest) mod json;
pub(in crate::ingest) mod log;
pub(in crate::ingest) mod status;
pub(in crate::ingest) mod terse;
pub(in crate::ingest) mod text;
