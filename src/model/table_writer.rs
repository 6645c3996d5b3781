//! Writes the tidy table batch by batch, so that `ingest --out` never holds
//! more than a few inputs' rows in memory however many inputs it reads.

use super::{Dataset, Observation};
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

/// The polars writer behind a [`TableWriter`], created with the first batch
/// (polars' batched writers want the schema, which the first frame gives).
enum Inner {
    Pending(Sink),
    Csv(polars::io::csv::write::BatchedWriter<Sink>),
    Parquet(Box<polars::io::parquet::write::BatchedWriter<Sink>>),
    /// JSON array or JSON lines; `rows` counts what was written so far.
    Json {
        out: Sink,
        array: bool,
        rows: usize,
    },
    Done,
}

/// A tidy-table writer that takes rows in batches.
///
/// Writing to a path goes to a temporary file beside it that is renamed on
/// [`TableWriter::finish`]: an ingest that fails half-way (a malformed input
/// found late) leaves no truncated table behind and keeps an older one.
pub struct TableWriter {
    format: TableFormat,
    inner: Inner,
    /// (temporary path, final path) when writing to a file.
    paths: Option<(PathBuf, PathBuf)>,
    label: String,
}

impl TableWriter {
    /// A writer for `path`, in the format its extension names.
    pub fn create(path: &Path) -> Result<TableWriter> {
        let format = TableFormat::from_path(path)?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "table".into());
        let tmp = path.with_file_name(format!(".{name}.partial"));
        let file = std::fs::File::create(&tmp).map_err(|e| Error::io(&tmp, e))?;
        Ok(TableWriter {
            format,
            inner: Inner::Pending(BufWriter::with_capacity(1 << 20, Box::new(file))),
            paths: Some((tmp, path.to_path_buf())),
            label: path.display().to_string(),
        })
    }

    /// A writer of the given format to any byte sink (stdout, a buffer).
    pub fn to_writer(out: impl Write + Send + 'static, format: TableFormat) -> TableWriter {
        TableWriter {
            format,
            inner: Inner::Pending(BufWriter::with_capacity(1 << 20, Box::new(out))),
            paths: None,
            label: "output".into(),
        }
    }

    /// Appends rows.
    pub fn write(&mut self, rows: &[Observation]) -> Result<()> {
        let df = frame(rows)?;
        let label = self.label.clone();
        let fail = move |e: PolarsError| Error::Other(format!("{label}: {e}"));
        if let Inner::Pending(_) = self.inner {
            let Inner::Pending(out) = std::mem::replace(&mut self.inner, Inner::Done) else {
                unreachable!("checked above");
            };
            let schema = df.schema();
            self.inner = match self.format {
                TableFormat::Csv => Inner::Csv(
                    CsvWriter::new(out)
                        .include_header(true)
                        .batched(schema)
                        .map_err(&fail)?,
                ),
                TableFormat::Parquet => Inner::Parquet(Box::new(
                    ParquetWriter::new(out).batched(schema).map_err(&fail)?,
                )),
                TableFormat::Json | TableFormat::JsonLines => Inner::Json {
                    out,
                    array: self.format == TableFormat::Json,
                    rows: 0,
                },
            };
        }
        match &mut self.inner {
            Inner::Csv(w) => w.write_batch(&df).map_err(&fail),
            Inner::Parquet(w) => w.write_batch(&df).map_err(&fail),
            Inner::Json { out, array, rows } => {
                let mut lines = Vec::new();
                polars::io::json::BatchedWriter::new(&mut lines)
                    .write_batch(&df)
                    .map_err(&fail)?;
                write_json_rows(out, &lines, *array, rows).map_err(|e| self.io_error(e))
            }
            Inner::Pending(_) | Inner::Done => unreachable!("initialised above"),
        }
    }

    /// Flushes the table and, for a file, moves it into place.
    pub fn finish(mut self) -> Result<()> {
        let label = self.label.clone();
        let fail = move |e: PolarsError| Error::Other(format!("{label}: {e}"));
        if let Inner::Pending(_) = self.inner {
            // No rows at all: the header (or empty document) still says what
            // the table is.
            self.write(&[])?;
        }
        match std::mem::replace(&mut self.inner, Inner::Done) {
            Inner::Csv(mut w) => w.finish().map_err(&fail)?,
            Inner::Parquet(w) => {
                w.finish().map_err(&fail)?;
            }
            Inner::Json {
                mut out,
                array,
                rows,
            } => {
                if array {
                    let end: &[u8] = if rows == 0 { b"[]\n" } else { b"]\n" };
                    out.write_all(end).map_err(|e| self.io_error(e))?;
                }
                out.flush().map_err(|e| self.io_error(e))?;
            }
            Inner::Pending(_) | Inner::Done => {}
        }
        if let Some((tmp, path)) = self.paths.take() {
            std::fs::rename(&tmp, &path).map_err(|e| Error::io(&path, e))?;
        }
        Ok(())
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

/// Appends JSON-lines output as rows of one JSON array (`[` before the
/// first row, `,` between rows), or as it is for JSON lines.
fn write_json_rows(
    out: &mut Sink,
    lines: &[u8],
    array: bool,
    rows: &mut usize,
) -> std::io::Result<()> {
    if !array {
        *rows += lines.iter().filter(|&&b| b == b'\n').count();
        return out.write_all(lines);
    }
    for line in lines.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        out.write_all(if *rows == 0 { b"[" } else { b",\n" })?;
        out.write_all(line)?;
        *rows += 1;
    }
    Ok(())
}

/// Builds the polars frame with the [`super::COLUMNS`] schema.
pub(super) fn frame(rows: &[Observation]) -> Result<DataFrame> {
    let n = rows.len();
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
    for r in rows {
        if let super::Stat::Percentile(t) = r.stat {
            if !percentiles.iter().any(|(p, _)| *p == t) {
                percentiles.push((t, r.stat.to_string()));
            }
        }
    }
    let mut value = Vec::with_capacity(n);
    let mut run: Vec<Option<u32>> = Vec::with_capacity(n);
    for r in rows {
        source.push(r.source.as_str());
        line.push(r.line);
        benchmark.push(r.benchmark.as_str());
        params.push(r.params.as_str());
        variant.push(r.variant.as_str());
        metric.push(r.metric.as_str());
        unit.push(r.unit.as_str());
        stat.push(match r.stat {
            super::Stat::Percentile(t) => percentiles
                .iter()
                .find(|(p, _)| *p == t)
                .map_or("", |(_, s)| s.as_str()),
            other => other.name(),
        });
        value.push(r.value);
        run.push(r.run);
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
    /// Writes the table to `path`, choosing CSV, JSON (an array of row
    /// objects), JSON lines or Parquet by the extension.
    pub fn write_path(&self, path: &Path) -> Result<()> {
        let mut w = TableWriter::create(path)?;
        w.write(self.rows())?;
        w.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Stat;

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
        for b in batches {
            w.write(b).unwrap();
        }
        w.finish().unwrap();
        std::fs::read(p).unwrap()
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
            w.write(&rows(2, 0)).unwrap();
            // Dropped without finish: an error happened on the way.
        }
        assert_eq!(std::fs::read(&p).unwrap(), b"older table");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        assert!(TableWriter::create(&dir.path().join("t.xlsx")).is_err());
    }
}
