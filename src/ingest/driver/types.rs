//! What the driver is asked ([`IngestOptions`]) and what it gives: the
//! table and a report per input.

use crate::model::{Dataset, Selection};

/// How to read the inputs.
#[derive(Debug, Clone, Default)]
pub struct IngestOptions {
    /// Force this format instead of detecting one.
    pub format: Option<String>,
    /// Override every observation's variant with this name.
    pub variant: Option<String>,
    /// Give observations that carry no variant this name.
    pub default_variant: Option<String>,
    /// Rows a reader may leave out before making them (an archive's
    /// partitions); the command's filter still runs on what is read.
    pub selection: Selection,
}

/// What happened to one input file (or folder a directory format reads).
#[derive(Debug, Clone, PartialEq)]
pub struct FileReport {
    /// The path as given or found while walking a folder.
    pub path: String,
    /// The format that read it; `None` when no format recognised it.
    pub format: Option<String>,
    /// Observations produced.
    pub rows: usize,
    /// Original line numbers that look numeric but produced no observation.
    /// Empty for structured formats, whose values have no line.
    pub unread_numeric: Vec<u32>,
    /// Lines the format left out on purpose, with its reason.
    pub skipped: Vec<(u32, String)>,
    /// A remark for the user (why a file was skipped).
    pub note: Option<String>,
}

/// The result of ingesting a set of paths.
#[derive(Debug, Clone, Default)]
pub struct Ingested {
    pub dataset: Dataset,
    pub files: Vec<FileReport>,
}

/// One input as [`crate::ingest::units`] lists it: a file, or a folder a
/// directory format reads whole (`folder`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// The path as given or found while walking a folder.
    pub path: std::path::PathBuf,
    /// True for a folder read whole by a directory format.
    pub folder: bool,
}
