//! fio: normal, JSON (and json+) and terse output, and the bandwidth, IOPS
//! and latency logs, the latency histogram logs, the status lines and the
//! group summary lines a mail pastes alone.

mod disk;
pub(in crate::ingest) mod group;
pub(in crate::ingest) mod hist_log;
pub(in crate::ingest) mod io_uring;
pub(in crate::ingest) mod json;
pub(in crate::ingest) mod log;
pub(in crate::ingest) mod status;
pub(in crate::ingest) mod terse;
pub(in crate::ingest) mod text;
