//! Rust benchmarking: Criterion.rs trees and console, libtest bencher lines, cargo-criterion and critcmp.

pub(in crate::ingest) mod bencher;
pub(in crate::ingest) mod cargo;
pub(in crate::ingest) mod console;
pub(in crate::ingest) mod critcmp;
pub(in crate::ingest) mod dir;
pub(in crate::ingest) mod file;
mod samples;
