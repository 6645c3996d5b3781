//! What reading a set of inputs gives: the table and an account of every
//! input. Made by `ingest`, read by the analysis, the checks and the
//! reports, so it sits in the model that all of them import.

use super::Dataset;

/// What happened to one input file (or folder a directory format reads).
#[derive(Debug, Clone, PartialEq)]
pub struct FileReport {
    /// The path as given or found while walking a folder.
    pub path: String,
    /// The format that read it; `None` when no format recognised it.
    pub format: Option<String>,
    /// Observations produced.
    pub rows: usize,
    /// How many of `rows` the low-confidence fallback read (values no
    /// layout rule read, marked `read=fallback`): guesses to check.
    pub fallback: usize,
    /// Original line numbers that look numeric but produced no observation.
    /// Empty for structured formats, whose values have no line.
    pub unread_numeric: Vec<u32>,
    /// Lines the format left out on purpose, with its reason.
    pub skipped: Vec<(u32, String)>,
    /// A remark for the user (why a file was skipped).
    pub note: Option<String>,
}

/// The parameter (key, value) that marks a row the low-confidence fallback
/// of the document reader read: a value no layout rule read, named by the
/// words around it.
pub const FALLBACK_MARK: (&str, &str) = ("read", "fallback");

/// [`FALLBACK_MARK`] as the row's parameters write it.
pub const FALLBACK_PARAMS: &str = "read=fallback";

/// Whether a row or group with `params` was read by the fallback (see
/// [`FALLBACK_PARAMS`]), whatever other parameters it has.
pub fn read_by_fallback(params: &str) -> bool {
    params.split(',').any(|p| p == FALLBACK_PARAMS)
}

/// The result of ingesting a set of paths.
#[derive(Debug, Clone, Default)]
pub struct Ingested {
    /// Every row read.
    pub dataset: Dataset,
    /// One report per input file: format, rows, lines left unread.
    pub files: Vec<FileReport>,
}

impl Ingested {
    /// Adds `other`'s rows and reports after this one's. Into an empty
    /// table the rows are taken over, not copied: the first of several
    /// inputs is often most of the rows, hundreds of megabytes of them.
    pub fn append(&mut self, other: Ingested) {
        self.dataset.append(other.dataset);
        self.files.extend(other.files);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fallback_mark_is_written_as_its_params() {
        let (k, v) = FALLBACK_MARK;
        assert_eq!(format!("{k}={v}"), FALLBACK_PARAMS);
    }
}
