//! Linux perf: `perf bench` collections and `perf stat` in text, CSV and JSON.

pub(in crate::ingest) mod bench;
pub(in crate::ingest) mod bench_more;
pub(in crate::ingest) mod stat;
pub(in crate::ingest) mod stat_csv;
pub(in crate::ingest) mod stat_csv_modes;
pub(in crate::ingest) mod stat_json;
pub(in crate::ingest) mod stat_json_metric_only;
pub(in crate::ingest) mod stat_metric_only;
