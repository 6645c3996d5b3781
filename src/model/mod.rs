//! The tidy data model: every value read from any input becomes one
//! [`Observation`]; a [`Dataset`] is a table of them.

mod batch;
mod dataset;
mod direction;
mod escape;
mod finding;
mod ingested;
mod lock;
mod observation;
mod parquet;
mod point_name;
mod row;
mod selection;
mod table_writer;
mod temp_file;
mod text_eq;
mod unit;

pub use crate::error::{show_as, shown_path, STDIN_NAME};
pub use batch::Batch;
pub use dataset::{Dataset, Series, COLUMNS};
pub use direction::Direction;
pub use escape::{escape_in_place, escape_unsafe, is_unsafe_char};
pub use finding::{sort_findings, Finding, FindingCode, Severity, Topic};
pub use ingested::{read_by_fallback, FileReport, Ingested, FALLBACK_MARK, FALLBACK_PARAMS};
pub use lock::OutputLock;
pub use observation::{canonical_params, Observation, Stat};
pub use point_name::point_name;
pub use row::{Head, HeadRef, Row, RowFields};
pub use selection::{SelectTerm, Selection};
pub use smol_str::SmolStr;
pub use table_writer::{TableFormat, TableWriter};
pub use temp_file::{folder_of, temp_file_beside};
pub use text_eq::text_eq;
pub use unit::{rescale, Dimension, Unit};
