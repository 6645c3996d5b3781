//! Tidy tables in Parquet: `data.parquet` that `report` writes, what
//! `ingest --out x.parquet` writes, and Parquet from other tools whose
//! columns are named like the tidy ones. Read through the same row reader
//! as the CSV and JSON tables, so that a value reads back as it was.

use super::csv::{record_to_obs, FieldMap};
use crate::error::{Error, Result};
use crate::ingest::Source;
use crate::model::Observation;
use polars::prelude::{DataFrame, DataType, ParquetReader, SerReader};
use std::io::Read;
use std::path::Path;

/// Whether the file at `path` starts with Parquet's magic bytes.
pub fn is_parquet(path: &Path) -> bool {
    let mut magic = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok()
        && &magic == b"PAR1"
}

/// The rows of the Parquet file at `path`, named `display` in messages.
pub fn read(path: &Path, display: &str) -> Result<Vec<Observation>> {
    let bad = |e: &dyn std::fmt::Display| Error::input(display, None, format!("Parquet: {e}"));
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let frame = ParquetReader::new(file).finish().map_err(|e| bad(&e))?;
    frame_rows(&frame, display)
}

/// The rows of a frame read from Parquet (a file, or an archive's part
/// with its partition column), named `display` in messages.
pub fn frame_rows(frame: &DataFrame, display: &str) -> Result<Vec<Observation>> {
    let bad = |e: &dyn std::fmt::Display| Error::input(display, None, format!("Parquet: {e}"));
    let names: Vec<String> = frame
        .get_column_names()
        .iter()
        .map(|n| n.to_string())
        .collect();
    let map = FieldMap::default();
    if !map.usable(&names) {
        return Err(Error::input(
            display,
            None,
            format!(
                "Parquet columns {} are not a tidy table (benchmark and value, at least)",
                names.join(", ")
            ),
        ));
    }
    // Every column as text, the form the row reader takes its cells in.
    let mut columns = Vec::with_capacity(names.len());
    for name in &names {
        let col = frame
            .column(name)
            .and_then(|c| c.cast(&DataType::String))
            .map_err(|e| bad(&e))?;
        columns.push(col);
    }
    let texts: Vec<_> = columns
        .iter()
        .map(|c| c.str().map_err(|e| bad(&e)))
        .collect::<Result<_>>()?;
    let src = Source::from_text(display, "");
    let mut out = Vec::with_capacity(frame.height());
    // One record, its names set once and its cells overwritten row by row.
    let mut record: Vec<(String, String)> =
        names.iter().map(|n| (n.clone(), String::new())).collect();
    for row in 0..frame.height() {
        for ((_, cell), text) in record.iter_mut().zip(&texts) {
            cell.clear();
            cell.push_str(text.get(row).unwrap_or(""));
        }
        out.extend(record_to_obs(
            &src,
            &map,
            &record,
            0,
            &format!("row {}", row + 1),
        )?);
    }
    Ok(out)
}
