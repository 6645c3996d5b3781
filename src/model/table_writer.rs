//! Writes the tidy table batch by batch, so that `ingest --out` never holds
//! more than a few inputs' rows in memory however many inputs it reads.

use super::parquet::{self, ParquetOut, RowGroup};
use super::{folder_of, temp_file_beside, Batch, Dataset, Observation, OutputLock, RowFields};
use crate::error::{Error, Result};
use polars::prelude::*;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// The output formats of the tidy table, chosen by file extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableFormat {
    /// Comma-separated with the [`super::COLUMNS`] header.
    Csv,
    /// One JSON array of row objects.
    Json,
    /// One JSON object per line.
    JsonLines,
    /// Apache Parquet (one row group per batch at least).
    Parquet,
}

impl TableFormat {
    /// The format a path's extension names; a usage error for any other.
    pub fn from_path(path: &Path) -> Result<TableFormat> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        match ext.as_str() {
            "csv" => Ok(TableFormat::Csv),
            "json" => Ok(TableFormat::Json),
            "jsonl" | "ndjson" => Ok(TableFormat::JsonLines),
            "parquet" => Ok(TableFormat::Parquet),
            other => Err(Error::Usage(format!(
                "{}: unknown output format `.{other}` (use .csv, .json, .jsonl or .parquet)",
                path.display()
            ))),
        }
    }
}

type Sink = BufWriter<Box<dyn Write + Send>>;

/// Rows turned into output bytes (or Parquet row groups), ready to be
/// appended: [`TableWriter::encode`] makes them on any thread,
/// [`TableWriter::append`] writes them in order.
pub struct Encoded(EncodedKind);

enum EncodedKind {
    /// CSV or JSON lines text, and how many rows it holds.
    Text(Vec<u8>, usize),
    Parquet(Vec<RowGroup>),
    /// Rows of more than one Parquet row group, encoded as they are
    /// appended (see [`TableWriter::encode_owned`]).
    Deferred(Batch),
}

/// The CSV or JSON text being written and how many rows it holds so far
/// (the JSON array needs to know whether a row is its first).
struct TextOut {
    out: Sink,
    rows: usize,
}

/// A tidy-table writer that takes rows in batches.
///
/// Encoding (building the frame, serialising or compressing it: most of the
/// cost) and appending are separate steps taking `&self`, so that a caller
/// can encode batches on several threads and append them in order;
/// [`TableWriter::write`] does both. Writing to a path goes to a temporary
/// file beside it that is renamed on [`TableWriter::finish`]: an ingest
/// that fails half-way (a malformed input found late) leaves no truncated
/// table behind and keeps an older one.
pub struct TableWriter {
    format: TableFormat,
    /// CSV and JSON output.
    text: std::sync::Mutex<Option<TextOut>>,
    /// Parquet output: encodes through `&self` and locks its file only to
    /// append.
    parquet: Option<Box<ParquetOut<Sink>>>,
    /// (temporary path, final path) when writing to a file.
    paths: Option<(PathBuf, PathBuf)>,
    label: String,
    /// Held until the table is in place (or given up).
    lock: Option<OutputLock>,
}

impl TableWriter {
    /// A writer for `path`, in the format its extension names.
    pub fn create(path: &Path) -> Result<TableWriter> {
        let format = TableFormat::from_path(path)?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "table".into());
        // One writer per table at a time, into a temporary file of its own.
        let lock = OutputLock::take(folder_of(path), &name)?;
        let (file, tmp) = temp_file_beside(path, "partial")?;
        let mut w = TableWriter {
            format,
            text: std::sync::Mutex::new(None),
            parquet: None,
            paths: Some((tmp, path.to_path_buf())),
            label: path.display().to_string(),
            lock: Some(lock),
        };
        // After `paths` is set, so that a failure removes the file.
        w.begin(Box::new(file))?;
        Ok(w)
    }

    /// A writer of the given format to any byte sink (stdout, a buffer).
    pub fn to_writer(out: impl Write + Send + 'static, format: TableFormat) -> Result<TableWriter> {
        let mut w = TableWriter {
            format,
            text: std::sync::Mutex::new(None),
            parquet: None,
            paths: None,
            label: "output".into(),
            lock: None,
        };
        w.begin(Box::new(out))?;
        Ok(w)
    }

    /// Writes what comes before the first row: the CSV header, or sets up
    /// the Parquet writer (whose schema is the fixed tidy schema).
    fn begin(&mut self, out: Box<dyn Write + Send>) -> Result<()> {
        let mut out = BufWriter::with_capacity(1 << 20, out);
        match self.format {
            TableFormat::Parquet => {
                let schema = parquet::arrow_schema(empty_frame()?.schema());
                let w = ParquetOut::new(out, schema).map_err(self.polars_error())?;
                self.parquet = Some(Box::new(w));
            }
            TableFormat::Csv | TableFormat::Json | TableFormat::JsonLines => {
                if self.format == TableFormat::Csv {
                    let header = format!("{}\n", super::COLUMNS.join(","));
                    out.write_all(header.as_bytes())
                        .map_err(|e| self.io_error(e))?;
                }
                self.text = std::sync::Mutex::new(Some(TextOut { out, rows: 0 }));
            }
        }
        Ok(())
    }

    /// Encodes rows for [`TableWriter::append`]; callable from any thread,
    /// also while another appends.
    pub fn encode(&self, rows: &Dataset) -> Result<Encoded> {
        self.encode_rows(rows.rows(), rows.len())
    }

    /// [`TableWriter::encode`] of a batch: its rows stored by column, then
    /// the others, each encoded where they are (no copy made first).
    pub fn encode_batch(&self, batch: &Batch) -> Result<Encoded> {
        if batch.columns.is_empty() {
            return self.encode_rows(batch.rows.iter(), batch.rows.len());
        }
        let mut first = self.encode(&batch.columns)?;
        if !batch.rows.is_empty() {
            let rest = self.encode_rows(batch.rows.iter(), batch.rows.len())?;
            match (&mut first.0, rest.0) {
                (EncodedKind::Parquet(a), EncodedKind::Parquet(b)) => a.extend(b),
                (EncodedKind::Text(a, n), EncodedKind::Text(b, m)) => {
                    a.extend(b);
                    *n += m;
                }
                _ => unreachable!("one writer encodes one kind"),
            }
        }
        Ok(first)
    }

    /// [`TableWriter::encode_batch`] of a batch handed over. A batch of
    /// more than one Parquet row group is kept as it is and encoded a
    /// group at a time by [`TableWriter::append`], each group written as
    /// soon as it is made: its encoded groups are not all held at once
    /// beside its rows. Smaller batches are encoded here, on any thread.
    pub fn encode_owned(&self, batch: Batch) -> Result<Encoded> {
        if self.parquet.is_some() && batch.len() > parquet::ROW_GROUP_ROWS {
            return Ok(Encoded(EncodedKind::Deferred(batch)));
        }
        self.encode_batch(&batch)
    }

    fn encode_rows<'a, R: RowFields<'a>>(
        &self,
        rows: impl Iterator<Item = R> + Clone,
        n: usize,
    ) -> Result<Encoded> {
        let fail = self.polars_error();
        if let Some(w) = &self.parquet {
            return Ok(Encoded(EncodedKind::Parquet(w.encode(rows, n)?)));
        }
        let mut df = frame(rows, n)?;
        let kind = match self.format {
            TableFormat::Csv => {
                let mut text = Vec::new();
                CsvWriter::new(&mut text)
                    .include_header(false)
                    .finish(&mut df)
                    .map_err(fail)?;
                EncodedKind::Text(text, n)
            }
            _ => {
                let mut text = Vec::new();
                polars::io::json::BatchedWriter::new(&mut text)
                    .write_batch(&df)
                    .map_err(fail)?;
                EncodedKind::Text(text, n)
            }
        };
        Ok(Encoded(kind))
    }

    /// Appends encoded rows after those appended before.
    pub fn append(&self, encoded: Encoded) -> Result<()> {
        match (&self.parquet, encoded.0) {
            (Some(w), EncodedKind::Parquet(groups)) => {
                w.append(groups).map_err(self.polars_error())
            }
            (Some(w), EncodedKind::Deferred(batch)) => {
                let columns = &batch.columns;
                w.write_rows(columns.rows(), columns.len(), self.polars_error())?;
                w.write_rows(batch.rows.iter(), batch.rows.len(), self.polars_error())
            }
            (None, EncodedKind::Text(text, n)) => {
                let mut guard = self.text.lock().map_err(|_| self.poisoned())?;
                let Some(t) = guard.as_mut() else {
                    return Err(self.poisoned());
                };
                let array = self.format == TableFormat::Json;
                write_text(&mut t.out, &text, n, array, &mut t.rows).map_err(|e| self.io_error(e))
            }
            _ => unreachable!("rows are encoded by the writer they are appended to"),
        }
    }

    /// Appends rows: [`TableWriter::encode`] then [`TableWriter::append`].
    pub fn write(&mut self, rows: &Batch) -> Result<()> {
        let e = self.encode_batch(rows)?;
        self.append(e)
    }

    /// Flushes the table and, for a file, moves it into place.
    pub fn finish(mut self) -> Result<()> {
        if let Some(w) = self.parquet.take() {
            let mut out = w.finish().map_err(self.polars_error())?;
            out.flush().map_err(|e| self.io_error(e))?;
        }
        let poisoned = self.poisoned();
        let text = self.text.get_mut().map_err(|_| poisoned)?.take();
        if let Some(TextOut { mut out, rows }) = text {
            if self.format == TableFormat::Json {
                let end: &[u8] = if rows == 0 { b"[]\n" } else { b"]\n" };
                out.write_all(end).map_err(|e| self.io_error(e))?;
            }
            out.flush().map_err(|e| self.io_error(e))?;
        }
        if let Some((tmp, path)) = self.paths.take() {
            std::fs::rename(&tmp, &path).map_err(|e| {
                let _ = std::fs::remove_file(&tmp);
                Error::io(&path, e)
            })?;
        }
        self.lock.take();
        Ok(())
    }

    fn polars_error(&self) -> impl Fn(PolarsError) -> Error + use<> {
        let label = self.label.clone();
        move |e| Error::Other(format!("{label}: {e}"))
    }

    fn poisoned(&self) -> Error {
        Error::Other(format!("{}: a writer thread failed", self.label))
    }

    fn io_error(&self, e: std::io::Error) -> Error {
        match &self.paths {
            Some((_, path)) => Error::io(path, e),
            None => Error::Other(format!("{}: {e}", self.label)),
        }
    }
}

impl Drop for TableWriter {
    /// A writer dropped before `finish` (an error on the way) removes its
    /// temporary file.
    fn drop(&mut self) {
        if let Some((tmp, _)) = self.paths.take() {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

/// Appends CSV or JSON-lines text as it is, or JSON-lines text as rows of
/// one JSON array (`[` before the first row, `,` between rows).
fn write_text(
    out: &mut Sink,
    text: &[u8],
    n: usize,
    array: bool,
    rows: &mut usize,
) -> std::io::Result<()> {
    if !array {
        *rows += n;
        return out.write_all(text);
    }
    for line in text.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        out.write_all(if *rows == 0 { b"[" } else { b",\n" })?;
        out.write_all(line)?;
        *rows += 1;
    }
    Ok(())
}

/// The frame of no rows: the schema.
pub(super) fn empty_frame() -> Result<DataFrame> {
    frame(std::iter::empty::<&Observation>(), 0)
}

/// Builds the polars frame with the [`super::COLUMNS`] schema.
pub(super) fn frame<'a, R: RowFields<'a>>(
    rows: impl Iterator<Item = R> + Clone,
    n: usize,
) -> Result<DataFrame> {
    let mut source = Vec::with_capacity(n);
    let mut line = Vec::with_capacity(n);
    let mut benchmark = Vec::with_capacity(n);
    let mut params = Vec::with_capacity(n);
    let mut variant = Vec::with_capacity(n);
    let mut metric = Vec::with_capacity(n);
    let mut unit = Vec::with_capacity(n);
    let mut stat: Vec<&str> = Vec::with_capacity(n);
    // Stat names are few; percentiles render through a small cache instead
    // of a String per row.
    let mut percentiles: Vec<(u32, String)> = Vec::new();
    for r in rows.clone() {
        let stat = r.head_of().stat;
        if let super::Stat::Percentile(t) = stat {
            if !percentiles.iter().any(|(p, _)| *p == t) {
                percentiles.push((t, stat.to_string()));
            }
        }
    }
    let mut value = Vec::with_capacity(n);
    let mut run: Vec<Option<u32>> = Vec::with_capacity(n);
    for r in rows {
        let h = r.head_of();
        source.push(h.source);
        line.push(r.line());
        benchmark.push(h.benchmark);
        params.push(h.params);
        variant.push(h.variant);
        metric.push(h.metric);
        unit.push(h.unit);
        stat.push(match h.stat {
            super::Stat::Percentile(t) => percentiles
                .iter()
                .find(|(p, _)| *p == t)
                .map_or("", |(_, s)| s.as_str()),
            other => other.name(),
        });
        value.push(r.value());
        run.push(r.run());
    }
    let cols = vec![
        Column::new("source".into(), source),
        Column::new("line".into(), line),
        Column::new("benchmark".into(), benchmark),
        Column::new("params".into(), params),
        Column::new("variant".into(), variant),
        Column::new("metric".into(), metric),
        Column::new("unit".into(), unit),
        Column::new("stat".into(), stat),
        Column::new("value".into(), value),
        Column::new("run".into(), run),
    ];
    DataFrame::new(n, cols).map_err(|e| Error::Other(format!("building the table: {e}")))
}

impl Dataset {
    /// Builds the polars frame with the [`COLUMNS`](super::COLUMNS) schema.
    pub fn to_frame(&self) -> Result<DataFrame> {
        frame(self.rows(), self.len())
    }

    /// Writes the table to `path`, choosing CSV, JSON (an array of row
    /// objects), JSON lines or Parquet by the extension.
    pub fn write_path(&self, path: &Path) -> Result<()> {
        let w = TableWriter::create(path)?;
        let e = w.encode(self)?;
        w.append(e)?;
        w.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Observation, Stat};

    fn rows(n: usize, offset: usize) -> Vec<Observation> {
        (0..n)
            .map(|i| {
                let mut o =
                    Observation::sample("hackbench", "time", "s", (offset + i) as f64 / 4.0)
                        .with_variant("baseline")
                        .at_line((offset + i) as u32 + 1)
                        .with_run((offset + i) as u32);
                o.source = "a/very/long/path/to/an/input/file.txt".into();
                o
            })
            .chain(std::iter::once(
                Observation::new("hackbench", "time", "s", Stat::percentile(99.9), 3.0)
                    .with_variant("patched"),
            ))
            .collect()
    }

    /// Writes `batches` through a TableWriter into `dir/name`, returning the bytes.
    fn written(dir: &Path, name: &str, batches: &[Vec<Observation>]) -> Vec<u8> {
        let p = dir.join(name);
        let mut w = TableWriter::create(&p).unwrap();
        // Batches alternate between rows stored by column and rows as
        // observations, and one holds both: the output must not show it.
        for (i, b) in batches.iter().enumerate() {
            let batch = match i % 3 {
                0 => Batch::from(b.clone()),
                1 => Batch {
                    columns: Dataset::new(b.clone()),
                    rows: Vec::new(),
                },
                _ => Batch {
                    columns: Dataset::new(b[..b.len() / 2].to_vec()),
                    rows: b[b.len() / 2..].to_vec(),
                },
            };
            w.write(&batch).unwrap();
        }
        w.finish().unwrap();
        std::fs::read(p).unwrap()
    }

    #[test]
    fn a_batch_of_many_row_groups_handed_over_writes_the_same_parquet() {
        let dir = tempfile::tempdir().unwrap();
        let n = parquet::ROW_GROUP_ROWS * 2 + 5;
        let big = rows(n, 0);
        let small = rows(3, n);
        let shapes = [
            Batch::from(big.clone()),
            Batch {
                columns: Dataset::new(big[..n / 3].to_vec()),
                rows: big[n / 3..].to_vec(),
            },
        ];
        for (i, batch) in shapes.into_iter().enumerate() {
            let write = |name: &str, owned: bool| {
                let p = dir.path().join(name);
                let w = TableWriter::create(&p).unwrap();
                for b in [batch.clone(), Batch::from(small.clone())] {
                    let e = if owned {
                        w.encode_owned(b).unwrap()
                    } else {
                        w.encode_batch(&b).unwrap()
                    };
                    w.append(e).unwrap();
                }
                w.finish().unwrap();
                std::fs::read(p).unwrap()
            };
            let owned = write(&format!("o{i}.parquet"), true);
            assert_eq!(owned, write(&format!("e{i}.parquet"), false), "shape {i}");
            // The large batch was kept whole, not encoded on handing over.
            let w = TableWriter::create(&dir.path().join("x.parquet")).unwrap();
            let kept = w.encode_owned(batch.clone()).unwrap();
            assert!(matches!(kept.0, EncodedKind::Deferred(_)));
        }
    }

    #[test]
    fn batches_make_the_same_csv_as_one_write() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (rows(3, 0), rows(2, 3));
        let all: Vec<Observation> = a.iter().chain(&b).cloned().collect();
        let batched = written(dir.path(), "b.csv", &[a, b]);
        let whole = written(dir.path(), "w.csv", &[all]);
        assert_eq!(batched, whole);
        let text = String::from_utf8(batched).unwrap();
        assert_eq!(text.lines().count(), 1 + 7);
        assert!(text.contains(",patched,time,s,p99.9,3.0,\n"), "{text}");
        // No temporary file is left beside the table.
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().collect();
        assert_eq!(names.len(), 2);
    }

    #[test]
    fn json_array_across_batches_is_one_valid_document() {
        let dir = tempfile::tempdir().unwrap();
        let bytes = written(dir.path(), "t.json", &[rows(2, 0), vec![], rows(1, 2)]);
        let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        let arr = v.as_array().unwrap();
        assert_eq!(arr.len(), 5);
        assert_eq!(arr[2]["stat"], "p99.9");
        assert_eq!(arr[4]["run"], serde_json::Value::Null);
        let empty = written(dir.path(), "e.json", &[]);
        let v: serde_json::Value = serde_json::from_slice(&empty).unwrap();
        assert_eq!(v, serde_json::json!([]));
        let lines = written(dir.path(), "t.jsonl", &[rows(2, 0), rows(1, 2)]);
        assert_eq!(lines.iter().filter(|&&b| b == b'\n').count(), 5);
    }

    #[test]
    fn parquet_batches_read_back_as_one_table() {
        let dir = tempfile::tempdir().unwrap();
        let bytes = written(dir.path(), "t.parquet", &[rows(3, 0), rows(4, 3)]);
        let df = ParquetReader::new(std::io::Cursor::new(bytes))
            .finish()
            .unwrap();
        assert_eq!(df.height(), 9);
        let names: Vec<&str> = df.get_column_names().iter().map(|n| n.as_str()).collect();
        assert_eq!(names, crate::model::COLUMNS.to_vec());
        let values = df.column("value").unwrap().f64().unwrap();
        assert_eq!(values.get(4), Some(0.75));
    }

    #[test]
    fn an_unfinished_writer_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("t.parquet");
        std::fs::write(&p, b"older table").unwrap();
        {
            let mut w = TableWriter::create(&p).unwrap();
            w.write(&Batch::from(rows(2, 0))).unwrap();
            // Dropped without finish: an error happened on the way.
        }
        assert_eq!(std::fs::read(&p).unwrap(), b"older table");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        assert!(TableWriter::create(&dir.path().join("t.xlsx")).is_err());
    }
}
