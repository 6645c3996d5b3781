//! stress-ng: the `--metrics` tables and the `-Y` YAML results.

mod blocks;
pub(in crate::ingest) mod metrics;
mod names;
pub(in crate::ingest) mod yaml;
