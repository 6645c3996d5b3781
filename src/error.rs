//! Error type shared by every stage, mapped to exit codes by the CLI, and
//! the name under which an input's path is shown in errors and rows.

mod shown_path;
pub use shown_path::{show_as, shown_path, STDIN_NAME};

use std::fmt;
use std::path::PathBuf;

/// Where in an input a problem was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// The input file as given on the command line.
    pub path: PathBuf,
    /// 1-based line in the original file, when the input is line-based.
    pub line: Option<u32>,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}", shown_path(&self.path), line),
            None => write!(f, "{}", shown_path(&self.path)),
        }
    }
}

/// Everything that can go wrong in patchperf.
///
/// `Input` and `Usage` are the user's to fix and map to exit code 2; `Io` also
/// maps to 2 because it is almost always a wrong path.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Malformed or unsupported input, with the place it was found.
    #[error("{location}: {message}")]
    Input {
        /// The file, and line when known.
        location: Location,
        /// What is wrong there.
        message: String,
    },
    /// Wrong use of the command line or a study file.
    #[error("{0}")]
    Usage(String),
    /// A file could not be read or written.
    #[error("{}: {source}", shown_path(path))]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// Anything else, e.g. a failure inside a renderer.
    #[error("{0}")]
    Other(String),
}

impl Error {
    /// An input error at `path`, optionally at a 1-based `line`.
    pub fn input(path: impl Into<PathBuf>, line: Option<u32>, message: impl Into<String>) -> Self {
        Error::Input {
            location: Location {
                path: path.into(),
                line,
            },
            message: message.into(),
        }
    }

    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    /// The process exit code this error maps to: 2 for every error (bad
    /// input, usage, I/O), so that CI tells it from a gate's 1 (a
    /// regression) and 0 (a pass), which the commands set themselves.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Input { .. } | Error::Usage(_) | Error::Io { .. } => 2,
            Error::Other(_) => 2,
        }
    }
}

/// Result alias used across the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
