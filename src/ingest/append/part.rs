//! Writing one part of an archive: one input's rows of one variant, as a
//! Parquet file without the partition column (its path holds it, as Hive
//! layouts do; Spark refuses a column that is in both).

use crate::error::{Error, Result};
use crate::ingest::formats::archive::layout::PARTITION;
use crate::model::{temp_file_beside, Dataset, Observation};
use polars::prelude::{ParquetWriter, PolarsError};
use std::path::Path;

/// Writes `rows` to `root/rel` whole: to a new file beside it, renamed into
/// place when complete.
pub fn write_part(root: &Path, rel: &Path, rows: Vec<Observation>) -> Result<()> {
    let path = root.join(rel);
    let dir = path.parent().unwrap_or(root);
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let bad = |e: PolarsError| Error::input(&path, None, format!("writing an archive part: {e}"));
    let mut frame = Dataset::new(rows)
        .to_frame()?
        .drop(PARTITION)
        .map_err(bad)?;
    let (file, tmp) = temp_file_beside(&path, "new")?;
    let written = ParquetWriter::new(file)
        .finish(&mut frame)
        .map_err(bad)
        .and_then(|_| std::fs::rename(&tmp, &path).map_err(|e| Error::io(&path, e)));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written.map(|_| ())
}
