//! patchperf: turn raw benchmark output into a verdict a patch reviewer can trust.
//!
//! The crate is a pipeline whose stages are modules, each importing only the
//! stages to its left (and `model`, which they all share):
//!
//! ```text
//! files ─► ingest ─► model::Dataset ─► stats / analysis ─► checks ─► report
//! ```
//!
//! [`pipeline`] wires the stages once (paths or a study file in, an
//! analysis with its findings out), for `compare`, `report` and `history`
//! alike: the analysis takes a dataset and the reports an analysis, and
//! neither reads an input itself.
//!
//! `ingest` is a folder per tool (`ingest/formats/<tool>/`) behind one
//! `Format` trait; `report` holds every output, the terminal's included
//! (`report::terminal`). The command-line interface in [`cli`] is one user
//! of this library. `CONTRIBUTING.md` maps the folders.

pub mod analysis;
pub mod checks;
pub mod cli;
pub mod error;
pub mod ingest;
pub mod model;
pub mod output;
pub mod pipeline;
pub mod report;
pub mod stats;

pub use error::{Error, Result};
