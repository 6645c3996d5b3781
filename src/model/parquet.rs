//! Parquet row groups built straight from observations.
//!
//! The six text columns of the tidy table repeat the same few values in long
//! runs (every sample of a benchmark shares its name, params, variant,
//! metric and unit). Going through a polars frame, each cell is copied into
//! a string view column and the Parquet writer then hashes every cell again
//! to dictionary-encode it: most of the cost of `ingest --out table.parquet`.
//! Here each text column is built as a dictionary directly, and a cell equal
//! to the one above it (the common case) costs one comparison. The file's
//! schema still declares plain strings, so readers get the same columns as
//! before; only the page encoding is chosen here instead of by polars.

use super::RowFields;
use crate::error::{Error, Result};
use hashbrown::HashMap;
use polars::prelude::{CompatLevel, PolarsError, SchemaExt};
use polars_arrow::array::{Array, DictionaryArray, PrimitiveArray};
use polars_arrow::datatypes::{ArrowDataType, ArrowSchema, IntegerType};
use polars_parquet::write::{
    compress, to_parquet_schema, CompressedPage, CompressionOptions, DynIter, DynStreamingIterator,
    Encoding, FallibleStreamingIterator, FileWriter, ParquetType, RowGroupIterColumns,
    StatisticsOptions, Version, WriteOptions,
};
use std::io::Write;
use std::sync::Mutex;

mod text_columns;
#[cfg(test)]
use text_columns::dictionary;
use text_columns::{Dictionary, StatColumn};

/// Most rows in one row group. A batch of rows is one row group, as when
/// polars wrote each batch's frame; an input with millions of rows is cut
/// so that its encoded columns stay small beside the rows themselves, while
/// groups stay large enough that per-group dictionaries and statistics cost
/// little (a quarter of this made a hyperfine table 10% larger).
pub(super) const ROW_GROUP_ROWS: usize = 1 << 20;

/// One encoded, compressed row group and its row count.
pub(super) type RowGroup = (u64, RowGroupIterColumns<'static, PolarsError>);

/// A Parquet file being written: row groups are encoded on any thread by
/// [`ParquetOut::encode`] and appended in order by [`ParquetOut::append`].
pub(super) struct ParquetOut<W: Write> {
    file: Mutex<FileWriter<W>>,
    columns: Vec<ParquetType>,
    options: WriteOptions,
}

impl<W: Write> ParquetOut<W> {
    /// Starts a file with the tidy table's schema (`arrow`, as polars would
    /// write it for the [`super::COLUMNS`] frame).
    pub(super) fn new(out: W, arrow: ArrowSchema) -> std::result::Result<Self, PolarsError> {
        let options = WriteOptions {
            statistics: StatisticsOptions::default(),
            compression: CompressionOptions::Zstd(None),
            version: Version::V1,
            data_page_size: None,
        };
        let columns = to_parquet_schema(&arrow)?.fields().to_vec();
        let file = FileWriter::try_new(out, arrow, options)?;
        Ok(ParquetOut {
            file: Mutex::new(file),
            columns,
            options,
        })
    }

    /// Encodes and compresses rows into row groups; no I/O, callable from
    /// several threads at once.
    pub(super) fn encode<'a, R: RowFields<'a>>(
        &self,
        rows: impl Iterator<Item = R>,
        n: usize,
    ) -> Result<Vec<RowGroup>> {
        let mut all = rows;
        let mut left = n;
        let mut groups = Vec::with_capacity(left.div_ceil(ROW_GROUP_ROWS));
        while left > 0 {
            let n = left.min(ROW_GROUP_ROWS);
            groups.push(self.row_group(all.by_ref().take(n), n)?);
            left -= n;
        }
        Ok(groups)
    }

    /// Encodes rows a row group at a time and writes each as it is made.
    /// A batch of many row groups held its encoded groups together until
    /// they were written: as much again as its values, whose random bits
    /// hardly compress (a 10^7-sample hyperfine export, 71 MB).
    pub(super) fn write_rows<'a, R: RowFields<'a>>(
        &self,
        rows: impl Iterator<Item = R>,
        n: usize,
        fail: impl Fn(PolarsError) -> Error,
    ) -> Result<()> {
        let mut all = rows;
        let mut left = n;
        while left > 0 {
            let n = left.min(ROW_GROUP_ROWS);
            let group = self.row_group(all.by_ref().take(n), n)?;
            self.append(vec![group]).map_err(&fail)?;
            left -= n;
        }
        Ok(())
    }

    /// Writes encoded row groups after those written before.
    pub(super) fn append(&self, groups: Vec<RowGroup>) -> std::result::Result<(), PolarsError> {
        let mut file = self
            .file
            .lock()
            .map_err(|_| PolarsError::ComputeError("a writer thread failed".into()))?;
        for (n, group) in groups {
            file.write(n, group)?;
        }
        Ok(())
    }

    /// Writes the footer (with the Arrow schema, as polars does).
    pub(super) fn finish(self) -> std::result::Result<W, PolarsError> {
        let mut file = self
            .file
            .into_inner()
            .map_err(|_| PolarsError::ComputeError("a writer thread failed".into()))?;
        file.end(None)?;
        Ok(file.into_inner())
    }

    fn row_group<'a, R: RowFields<'a>>(
        &self,
        rows: impl Iterator<Item = R>,
        n: usize,
    ) -> Result<RowGroup> {
        let fail = |e: PolarsError| Error::Other(format!("encoding Parquet: {e}"));
        // One pass over the rows fills every column: a batch of rows is far
        // larger than the caches, and a pass per column read it from memory
        // ten times.
        let mut text: [Dictionary; 6] = Default::default();
        let mut stat = StatColumn::default();
        let mut line = Vec::with_capacity(n);
        let mut value = Vec::with_capacity(n);
        let mut run = Vec::with_capacity(n);
        for r in rows {
            let h = r.head_of();
            let [source, benchmark, params, variant, metric, unit] = &mut text;
            source.push(h.source);
            line.push(r.line());
            benchmark.push(h.benchmark);
            params.push(h.params);
            variant.push(h.variant);
            metric.push(h.metric);
            unit.push(h.unit);
            stat.push(h.stat);
            value.push(r.value());
            run.push(r.run());
        }
        let [source, benchmark, params, variant, metric, unit] = text;
        // polars estimates the values' cardinality and tries a dictionary,
        // but its cast cannot make one of floats: the values are always
        // plain in the end (tested). Only an empty column is written as an
        // empty dictionary.
        let value_encoding = if n > 0 {
            Encoding::Plain
        } else {
            Encoding::RleDictionary
        };
        let dictionary = |d: Dictionary| Ok((d.finish()?, Encoding::RleDictionary));
        // Each column's array is made, encoded and dropped in turn: the
        // ten arrays of a group of a million rows held at once were 60 MB
        // beside the rows (a hyperfine export's peak).
        type Made = std::result::Result<(Box<dyn Array>, Encoding), PolarsError>;
        let makers: [Box<dyn FnOnce() -> Made + '_>; 10] = [
            Box::new(move || dictionary(source)),
            Box::new(move || line_column(line)),
            Box::new(move || dictionary(benchmark)),
            Box::new(move || dictionary(params)),
            Box::new(move || dictionary(variant)),
            Box::new(move || dictionary(metric)),
            Box::new(move || dictionary(unit)),
            Box::new(move || Ok((stat.finish()?, Encoding::RleDictionary))),
            Box::new(move || Ok((PrimitiveArray::from_vec(value).boxed(), value_encoding))),
            Box::new(move || run_column(run)),
        ];
        let mut columns = Vec::with_capacity(makers.len());
        for (make, column) in makers.into_iter().zip(&self.columns) {
            let (array, encoding) = make().map_err(fail)?;
            columns.push(
                self.compressed_pages(array.as_ref(), column, encoding)
                    .map_err(fail)?,
            );
        }
        let group: RowGroupIterColumns<'static, PolarsError> =
            DynIter::new(columns.into_iter().map(Ok));
        Ok((n as u64, group))
    }

    /// Encodes one column and compresses its pages now, so that the work
    /// happens on the encoding thread rather than under the file's lock.
    fn compressed_pages(
        &self,
        array: &dyn Array,
        column: &ParquetType,
        encoding: Encoding,
    ) -> std::result::Result<DynStreamingIterator<'static, CompressedPage, PolarsError>, PolarsError>
    {
        // Dictionary columns arrive encoded; with `RleDictionary` the others
        // are written as polars would (its dictionary attempt for integers
        // and floats), with `Plain` as it does once that attempt failed.
        let mut pages = Vec::new();
        for leaf in polars_parquet::write::array_to_columns(
            array,
            column.clone(),
            self.options,
            &[encoding],
        )? {
            for page in leaf {
                pages.push(compress(page?, Vec::new(), self.options.compression)?);
            }
        }
        Ok(DynStreamingIterator::new(Pages {
            pages: pages.into_iter(),
            current: None,
        }))
    }
}

/// Compressed pages handed to the file writer one at a time.
struct Pages {
    pages: std::vec::IntoIter<CompressedPage>,
    current: Option<CompressedPage>,
}

impl FallibleStreamingIterator for Pages {
    type Item = CompressedPage;
    type Error = PolarsError;

    fn advance(&mut self) -> std::result::Result<(), PolarsError> {
        self.current = self.pages.next();
        Ok(())
    }

    fn get(&self) -> Option<&CompressedPage> {
        self.current.as_ref()
    }
}

/// The tidy table's Arrow schema as polars writes it.
pub(super) fn arrow_schema(frame_schema: &polars::prelude::Schema) -> ArrowSchema {
    frame_schema.to_arrow(CompatLevel::newest())
}

/// The line column, encoded as polars would encode it, at less cost.
///
/// Rows of one table or benchmark line share a line number, so the column
/// is runs of a value. polars decides in three steps: a column spanning at
/// most 2¹⁶ numbers gets its cheap bitmap dictionary (left to it here);
/// otherwise a HyperLogLog estimate above 3/4 of the rows means plain
/// values; otherwise it hashes every row into a dictionary in order of
/// first appearance. That last step is done here with the runs skipped,
/// after the same estimate, so the pages are the same bytes.
fn line_column(line: Vec<u32>) -> std::result::Result<(Box<dyn Array>, Encoding), PolarsError> {
    let (Some(&min), Some(&max)) = (line.iter().min(), line.iter().max()) else {
        return Ok((
            Box::new(PrimitiveArray::from_vec(line)),
            Encoding::RleDictionary,
        ));
    };
    if (max - min) as usize <= u16::MAX as usize {
        return Ok((
            Box::new(PrimitiveArray::from_vec(line)),
            Encoding::RleDictionary,
        ));
    }
    let array = PrimitiveArray::from_vec(line);
    let estimate = polars_compute::cardinality::estimate_cardinality(&array);
    let n = array.len();
    if n > 128 && estimate as f64 / n as f64 > 0.75 {
        return Ok((Box::new(array), Encoding::Plain));
    }
    let mut keys = Vec::with_capacity(n);
    let mut values: Vec<u32> = Vec::new();
    let mut index: HashMap<u32, u32> = HashMap::new();
    let mut last: Option<(u32, u32)> = None;
    for &v in array.values().iter() {
        let key = match last {
            Some((above, k)) if above == v => k,
            _ => {
                let k = *index.entry(v).or_insert_with(|| {
                    values.push(v);
                    values.len() as u32 - 1
                });
                last = Some((v, k));
                k
            }
        };
        keys.push(key);
    }
    let dtype =
        ArrowDataType::Dictionary(IntegerType::UInt32, Box::new(ArrowDataType::UInt32), false);
    let keys = PrimitiveArray::from_vec(keys);
    let values = PrimitiveArray::from_vec(values).boxed();
    let array = DictionaryArray::<u32>::try_new(dtype, keys, values)?;
    Ok((Box::new(array), Encoding::RleDictionary))
}

/// The run column, encoded as polars would encode it, at less cost.
///
/// Inputs of summaries (tables in e-mails) have no run at all: polars
/// finds no range, estimates one distinct value, and hashes every row into
/// an empty dictionary with null keys; that dictionary is built here
/// directly. Runs spanning at most 2¹⁶ numbers get polars' cheap bitmap
/// dictionary. Beyond that (a million samples of a few commands), polars
/// estimates the distinct values with a HyperLogLog and then hashes every
/// row; here run numbers, dense by construction, index a table instead,
/// which gives the same dictionary in order of first appearance and the
/// exact count. The exact count decides plain against dictionary where
/// polars uses its estimate: they differ only when the two fall on either
/// side of 3/4 of the rows, and then only in the pages' encoding, never in
/// the values read back.
fn run_column(
    run: Vec<Option<u32>>,
) -> std::result::Result<(Box<dyn Array>, Encoding), PolarsError> {
    let dtype =
        ArrowDataType::Dictionary(IntegerType::UInt32, Box::new(ArrowDataType::UInt32), false);
    let present = run.iter().flatten();
    let (Some(&min), Some(&max)) = (present.clone().min(), present.max()) else {
        if run.is_empty() {
            return Ok((
                Box::new(PrimitiveArray::<u32>::from(run)),
                Encoding::RleDictionary,
            ));
        }
        let keys = PrimitiveArray::<u32>::new_null(ArrowDataType::UInt32, run.len());
        let values = PrimitiveArray::<u32>::from_vec(Vec::new()).boxed();
        let array = DictionaryArray::<u32>::try_new(dtype, keys, values)?;
        return Ok((Box::new(array), Encoding::RleDictionary));
    };
    let n = run.len();
    let span = (max - min) as usize;
    if span <= u16::MAX as usize || span > 4 * n {
        return Ok((
            Box::new(PrimitiveArray::<u32>::from(run)),
            Encoding::RleDictionary,
        ));
    }
    let mut first = vec![u32::MAX; span + 1];
    let mut values: Vec<u32> = Vec::new();
    let mut keys = Vec::with_capacity(n);
    let mut nulls = false;
    for r in &run {
        keys.push(match *r {
            Some(v) => {
                let slot = &mut first[(v - min) as usize];
                if *slot == u32::MAX {
                    *slot = values.len() as u32;
                    values.push(v);
                }
                *slot
            }
            None => {
                nulls = true;
                0
            }
        });
    }
    let array = PrimitiveArray::<u32>::from(run);
    let distinct = values.len() + usize::from(nulls);
    if n > 128 && distinct as f64 / n as f64 > 0.75 {
        return Ok((Box::new(array), Encoding::Plain));
    }
    let keys = PrimitiveArray::new(
        ArrowDataType::UInt32,
        keys.into(),
        array.validity().cloned(),
    );
    let values = PrimitiveArray::from_vec(values).boxed();
    let array = DictionaryArray::<u32>::try_new(dtype, keys, values)?;
    Ok((Box::new(array), Encoding::RleDictionary))
}

#[cfg(test)]
mod tests {
    use super::super::table_writer::frame;
    use super::*;
    use crate::model::{Observation, Stat};
    use polars::prelude::{DataFrame, ParquetReader, SerReader};
    use polars_arrow::array::Utf8ViewArray;

    /// Rows that exercise the dictionaries: runs of equal cells, values that
    /// come back after others, long (shared) and empty strings, non-ASCII
    /// text, percentiles and missing runs.
    fn varied(n: usize) -> Vec<Observation> {
        let long = "benchmark/with/a/name/longer/than/twenty-three/bytes";
        (0..n)
            .map(|i| {
                let stat = match i % 7 {
                    0 => Stat::percentile(99.9),
                    1 => Stat::percentile(50.0),
                    2 => Stat::Mean,
                    _ => Stat::Sample,
                };
                let bench = if i % 1000 < 600 { long } else { "short" };
                let mut o = Observation::new(bench, "latency", "µs", stat, i as f64 * 0.5)
                    .with_variant(if (i / 10) % 3 == 0 {
                        "baseline"
                    } else {
                        "patched"
                    })
                    .with_params_str(format!("threads={}", i % 13))
                    .at_line(i as u32 + 1);
                if i % 11 != 0 {
                    o = o.with_run(i as u32);
                }
                o.source = if i % 2 == 0 { "a.txt" } else { "" }.into();
                o
            })
            .collect()
    }

    fn written(rows: &[Observation]) -> DataFrame {
        let schema = arrow_schema(super::super::table_writer::empty_frame().unwrap().schema());
        let out = ParquetOut::new(Vec::new(), schema).unwrap();
        let (a, b) = rows.split_at(rows.len() / 3);
        for part in [a, b] {
            let groups = out.encode(part.iter(), part.len()).unwrap();
            out.append(groups).unwrap();
        }
        let bytes = out.finish().unwrap();
        ParquetReader::new(std::io::Cursor::new(bytes))
            .finish()
            .unwrap()
    }

    /// The pages of column `i` of the table, printed (headers with
    /// statistics, and the compressed bytes).
    fn pages(i: usize, array: &dyn Array, encoding: Encoding) -> Vec<String> {
        let schema = arrow_schema(super::super::table_writer::empty_frame().unwrap().schema());
        let out = ParquetOut::new(Vec::new(), schema).unwrap();
        let mut pages = out
            .compressed_pages(array, &out.columns[i], encoding)
            .unwrap();
        let mut printed = Vec::new();
        while let Some(page) = pages.next().unwrap() {
            printed.push(format!("{page:?}"));
        }
        printed
    }

    #[test]
    fn line_and_run_pages_are_the_ones_polars_writes() {
        let line_pages = |array: &dyn Array, encoding| pages(1, array, encoding);
        let run_pages = |array: &dyn Array, encoding| pages(9, array, encoding);
        // Runs over a range polars' bitmap dictionary does not take, all
        // distinct over such a range (plain), a narrow range (left to
        // polars), runs then one far value, and nothing.
        let runs: Vec<u32> = (0..300_000u32).map(|i| 7 + i / 4 * 3).collect();
        let distinct: Vec<u32> = (0..100_000u32).map(|i| i * 2).collect();
        let narrow: Vec<u32> = (0..50_000u32).map(|i| 1000 + (i * 7) % 60_000).collect();
        let mut far = vec![5u32; 1000];
        far.push(4_000_000_000);
        for (name, line) in [
            ("runs", runs),
            ("distinct", distinct),
            ("narrow", narrow),
            ("far", far),
            ("empty", Vec::new()),
        ] {
            let (array, encoding) = line_column(line.clone()).unwrap();
            let ours = line_pages(array.as_ref(), encoding);
            let polars = line_pages(&PrimitiveArray::from_vec(line), Encoding::RleDictionary);
            assert!(!ours.is_empty(), "{name}");
            assert_eq!(ours, polars, "{name}");
        }
        // Runs: none at all, some, none of no rows, a million samples of
        // three commands with some summaries between them (a table from
        // run numbers), and runs all distinct over a wide span (plain).
        let commands: Vec<Option<u32>> = (0..1_000_000u32)
            .map(|i| (i % 1000 != 7).then_some(i % 333_334))
            .collect();
        let distinct_runs: Vec<Option<u32>> = (0..80_000u32).map(|i| Some(i * 3)).collect();
        for run in [
            vec![None; 70_000],
            vec![Some(3), None, Some(3)],
            Vec::new(),
            commands,
            distinct_runs,
        ] {
            let (array, encoding) = run_column(run.clone()).unwrap();
            let ours = run_pages(array.as_ref(), encoding);
            let polars = run_pages(&PrimitiveArray::<u32>::from(run), Encoding::RleDictionary);
            assert_eq!(ours, polars);
        }
        // Values, plain at once: all distinct, a handful of distinct values
        // (a dictionary would be worth it), with NaN and signed zeros, and
        // none.
        let value_pages = |array: &dyn Array, encoding| pages(8, array, encoding);
        let few: Vec<f64> = (0..50_000).map(|i| [24.0, 1.0, 0.5][i % 3]).collect();
        let spread: Vec<f64> = (0..50_000).map(|i| i as f64 * 0.37).collect();
        let odd = vec![0.0, -0.0, f64::NAN, 1.5, 1.5, 0.0];
        for values in [few, spread, odd] {
            let array = PrimitiveArray::from_vec(values);
            assert_eq!(
                value_pages(&array, Encoding::Plain),
                value_pages(&array, Encoding::RleDictionary)
            );
        }
        let none = PrimitiveArray::<f64>::from_vec(Vec::new());
        assert_ne!(
            value_pages(&none, Encoding::Plain),
            value_pages(&none, Encoding::RleDictionary)
        );
        // The comparison can fail: a dictionary in another order differs.
        let (array, encoding) = line_column(vec![9, 9, 70_000, 3]).unwrap();
        let reordered = line_column(vec![3, 9, 9, 70_000]).unwrap().0;
        assert_ne!(
            line_pages(array.as_ref(), encoding),
            line_pages(reordered.as_ref(), encoding)
        );
    }

    #[test]
    fn reads_back_as_the_frame_polars_builds() {
        // More rows than one row group holds, so that groups are split too.
        let rows = varied(ROW_GROUP_ROWS + ROW_GROUP_ROWS / 2 + 17);
        let back = written(&rows);
        let expected = frame(rows.iter(), rows.len()).unwrap();
        assert_eq!(back.schema(), expected.schema());
        assert!(back.equals_missing(&expected));
        // The comparison can fail: one changed cell is noticed.
        let mut other = rows.clone();
        other[ROW_GROUP_ROWS + 3].variant = "changed".into();
        assert!(!frame(other.iter(), other.len())
            .unwrap()
            .equals_missing(&back));
    }

    #[test]
    fn text_columns_are_dictionaries_in_order_of_first_use() {
        let cells = ["b", "b", "a", "b", "", "a"];
        let array = dictionary(&cells, |c| c).unwrap();
        assert_eq!(dict_of(&*array).0, [0, 0, 1, 0, 2, 1]);
        assert_eq!(dict_of(&*array).1, ["b", "a", ""]);
        // Past the short scan, the hash index gives the same keys.
        let many: Vec<String> = (0..40).map(|i| format!("v{}", (i * 7) % 13)).collect();
        let array = dictionary(&many, |c| c.as_str()).unwrap();
        let (keys, values) = dict_of(&*array);
        assert_eq!(values.len(), 13);
        for (cell, key) in many.iter().zip(&keys) {
            assert_eq!(values[*key as usize], cell.as_str());
        }
        assert_eq!(keys[..3], [0, 1, 2]);
        assert_eq!(keys[13..16], [0, 1, 2]);
        // Keys kept as runs give a key per row: runs of one cell, a run
        // coming back after another, a run of one.
        let cells: Vec<&str> = [("x", 5), ("y", 3), ("x", 2), ("z", 1), ("y", 4)]
            .iter()
            .flat_map(|&(c, n)| std::iter::repeat_n(c, n))
            .collect();
        let array = dictionary(&cells, |c| c).unwrap();
        let want: Vec<u32> = [(0, 5), (1, 3), (0, 2), (2, 1), (1, 4)]
            .iter()
            .flat_map(|&(k, n)| std::iter::repeat_n(k, n))
            .collect();
        assert_eq!(
            dict_of(&*array),
            (want, vec!["x".into(), "y".into(), "z".into()])
        );
    }

    fn dict_of(array: &dyn Array) -> (Vec<u32>, Vec<String>) {
        let dict = array
            .as_any()
            .downcast_ref::<DictionaryArray<u32>>()
            .unwrap();
        let values = dict
            .values()
            .as_any()
            .downcast_ref::<Utf8ViewArray>()
            .unwrap();
        (
            dict.keys().values().as_slice().to_vec(),
            values.values_iter().map(str::to_string).collect(),
        )
    }

    #[test]
    fn an_empty_table_has_the_schema() {
        let back = written(&[]);
        assert_eq!(back.height(), 0);
        assert_eq!(
            back.schema(),
            super::super::table_writer::empty_frame().unwrap().schema()
        );
    }
}
