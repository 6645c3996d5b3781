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
//! `Format` trait, and knows the context files (configs, snapshots) for
//! `checks` too; `analysis` runs its tests behind one `TestMethod`
//! interface; `report` holds every output, the terminal's included, each
//! a `report::Renderer`. Leaves shared by all: [`error`], [`output`] (the
//! format names) and [`numfmt`] (how a number is written). The
//! command-line interface in [`cli`] is one user of this library.
//! `CONTRIBUTING.md` maps the folders.

pub mod analysis;
pub mod checks;
pub mod cli;
pub mod error;
pub mod ingest;
pub mod model;
pub mod numfmt;
pub mod output;
pub mod pipeline;
pub mod report;
pub mod stats;

pub use error::{Error, Result};
