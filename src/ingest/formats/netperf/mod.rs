//! netperf: the classic test output (a banner, a stacked column header
//! and its result rows), and the omni output selectors (`-k` keyval, `-o`
//! CSV, `-O` columns).

pub(in crate::ingest) mod banner;
pub(in crate::ingest) mod columns;
pub(in crate::ingest) mod output;
