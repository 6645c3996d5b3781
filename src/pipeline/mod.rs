//! The pipeline: inputs → ingest → filter → analysis → checks, wired once.
//! `compare`, `report` and `history` run through here; the stages it calls
//! know nothing of each other's inputs (the analysis takes a dataset, the
//! reports take a prepared analysis).
//!
//! - [`inputs`]: command-line paths to named variants, each ingested once;
//! - [`study`]: the study file (`report STUDY.toml`);
//! - [`run`]: `compare`'s run, from paths to an analysis with its findings;
//! - [`prepare`](mod@prepare): a study's run, to what its reports are made from;
//! - [`history`]: `history`'s run, one point per input, to change points;
//! - `unnamed`: values named only by their file, when each variant is one.

pub mod history;
pub mod inputs;
mod names;
pub mod prepare;
pub mod run;
pub mod study;
mod unnamed;

pub use inputs::{
    baseline_name, load, load_plan, load_with, plan_variants, LoadOptions, VariantInput,
};
pub use prepare::{prepare, Prepared};
pub use run::{compare, load_and_analyze, CheckFiles, InputsRead};
pub use study::Study;
