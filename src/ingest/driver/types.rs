//! What the driver is asked ([`IngestOptions`]); what it gives, the table
//! and a report per input, is the model's ([`Ingested`]).

use crate::model::Selection;
pub use crate::model::{FileReport, Ingested};

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

/// One input as [`crate::ingest::units`] lists it: a file, or a folder a
/// directory format reads whole (`folder`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// The path as given or found while walking a folder.
    pub path: std::path::PathBuf,
    /// True for a folder read whole by a directory format.
    pub folder: bool,
}
