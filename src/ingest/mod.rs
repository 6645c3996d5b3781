//! Ingestion: turning any harness's output into [`Observation`]s.
//!
//! The folder is laid out as:
//!
//! - [`Format`] (`format.rs`), the interface every input format implements,
//!   and [`Registry`] (`registry.rs`), the list of built-in formats that
//!   detection chooses among;
//! - `formats/`, one folder per tool (`hyperfine/`, `perf/`, `rt_tests/`
//!   …) with one file per output mode, plus the document (e-mail) and
//!   generic readers;
//! - `shared/`, what readers share: the [`Source`] of an input, number and
//!   text helpers, structured (JSON/YAML) access and line-log scanning;
//! - `driver/`, which walks files and folders, detects each input's format,
//!   reads large files in pieces and accounts for every line;
//! - `context.rs`, which recognises kernel configs and machine snapshots
//!   given as inputs, `extractor.rs`, the user's own formats, and
//!   `progress.rs`, how far reading has come, for a caller that shows it.
//!
//! Detection asks every format how sure it is that a [`Source`] is its
//! kind and picks the most confident one; `--format NAME` skips detection.

pub mod append;
pub mod context;
mod driver;
mod extractor;
mod format;
pub mod formats;
pub mod progress;
mod registry;
pub mod shared;
#[cfg(test)]
mod testing;

pub use context::{context_kind, CaptureKind, ContextKind};
pub use driver::{ingest, ingest_each, units, FileReport, IngestOptions, Ingested, Unit};
pub use extractor::{add_user_formats, Extractor};
pub use format::{Carry, Confidence, Format, Parsed, Pieces, MIN_CONFIDENCE};
pub use formats::gbench::json::context as gbench_context;
pub use formats::go::text::stated_directions as go_stated_directions;
pub use formats::pyperf::json::metadata as pyperf_metadata;
pub use formats::tidy::csv::{FieldMap, TidyCsv};
pub use formats::tidy::json::TidyJson;
pub use registry::Registry;
pub use shared::numbers;
pub use shared::source::{Line, LineText, LineTexts, Source};
#[cfg(test)]
pub(crate) use testing::{
    any_line_matches, assert_detection_agrees, parse_file, row_lines, source_of_lines, Trickle,
};

#[cfg(doc)]
use crate::model::Observation;
