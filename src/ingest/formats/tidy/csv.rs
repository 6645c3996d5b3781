//! Generic CSV/TSV whose header names the tidy columns (`source, line,
//! benchmark, params, variant, metric, unit, stat, value, run`), so that
//! `patchperf ingest --out x.csv` output reads back unchanged; other headers
//! are mapped with `--map column=field` (see [`FieldMap`]).

use crate::error::Result;
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::structured::{numbered_lines, raw_lines, split_csv, split_unquoted};
use crate::ingest::shared::text::trim;
use crate::ingest::{Confidence, Format, Parsed, Pieces, Source};
use crate::model::{canonical_params, text_eq, Observation, Stat, COLUMNS};
use rayon::prelude::*;
use smallvec::SmallVec;
use smol_str::SmolStr;

pub use super::field_map::{FieldMap, Target};

/// One input record as (column, cell text) pairs, turned into observations.
/// `line` is the record's line (0 for JSON documents).
pub(crate) fn record_to_obs(
    src: &Source,
    map: &FieldMap,
    record: &[(String, String)],
    line: u32,
    at: &str,
) -> Result<Vec<Observation>> {
    let targets: Vec<Option<Target>> = record.iter().map(|(c, _)| map.target(c)).collect();
    let mut reader = RowReader::new(&targets);
    let mut out = Vec::new();
    let cells = record
        .iter()
        .zip(&targets)
        .map(|((col, cell), t)| (col.as_str(), t.as_ref(), cell.as_str()));
    reader.push_row(src, cells, line, at, &mut out)?;
    Ok(out)
}

/// The text of the previous row's cell and what it became, so that the
/// repeated names, units and stats of a long table are converted (and their
/// longer strings allocated) once per run of equal cells, not once per row.
struct Memo<T> {
    last: Option<(String, T)>,
}

impl<T> Default for Memo<T> {
    fn default() -> Self {
        Memo { last: None }
    }
}

impl<T: Clone> Memo<T> {
    fn get<E>(
        &mut self,
        cell: &str,
        make: impl FnOnce(&str) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E> {
        if let Some((k, v)) = &self.last {
            if text_eq(k, cell) {
                return Ok(v.clone());
            }
        }
        let v = make(cell)?;
        match &mut self.last {
            Some((k, old)) => {
                k.clear();
                k.push_str(cell);
                *old = v.clone();
            }
            None => self.last = Some((cell.to_string(), v.clone())),
        }
        Ok(v)
    }
}

/// Turns rows of one table into observations; holds the per-column memos.
struct RowReader {
    template: Observation,
    /// One memo per column, for the text columns (source, benchmark,
    /// variant, metric, unit).
    text: Vec<Memo<SmolStr>>,
    stat: Memo<Stat>,
    /// The previous row's parameter pairs and their canonical string.
    params: (Vec<(String, String)>, SmolStr),
}

impl RowReader {
    fn new(targets: &[Option<Target>]) -> RowReader {
        RowReader {
            template: Observation::new("", "value", "", Stat::Sample, f64::NAN),
            text: targets.iter().map(|_| Memo::default()).collect(),
            stat: Memo::default(),
            params: Default::default(),
        }
    }

    /// Appends the observations of one row, given as (column name, target,
    /// cell) in column order, to `out`. Errors name `src` and `line`.
    fn push_row<'c>(
        &mut self,
        src: &Source,
        cells: impl Iterator<Item = (&'c str, Option<&'c Target>, &'c str)>,
        line: u32,
        at: &str,
        out: &mut Vec<Observation>,
    ) -> Result<()> {
        let err = |m: String| src.error((line > 0).then_some(line), format!("{at}: {m}"));
        let mut o = self.template.clone();
        // On the stack: two vectors allocated and freed per row took 7% of
        // the time of a long table's ingest into Parquet (2.24 s against
        // 2.07 s for 524 MB).
        let mut params: SmallVec<[(&str, &str); 8]> = SmallVec::new();
        // A value, and for `value.METRIC[:UNIT]` columns the metric and unit it carries.
        type Labelled<'a> = (Option<(&'a str, Option<&'a str>)>, f64);
        let mut values: SmallVec<[Labelled<'c>; 4]> = SmallVec::new();
        for (i, (col, t, cell)) in cells.enumerate() {
            let Some(t) = t else { continue };
            let cell = trim(cell);
            let number = |what: &str| -> Result<f64> {
                parse_number(cell)
                    .or_else(|| cell.parse::<f64>().ok().filter(|v| v.is_finite()))
                    .ok_or_else(|| {
                        err(format!("column `{col}` ({what}): `{cell}` is not a number"))
                    })
            };
            let text = |memo: &mut Memo<SmolStr>| {
                memo.get(cell, |c| Ok::<_, std::convert::Infallible>(SmolStr::new(c)))
                    .unwrap_or_default()
            };
            match t {
                Target::Column("value") => values.push((None, number("value")?)),
                Target::Value(metric, unit) => {
                    if !cell.is_empty() {
                        values.push((Some((metric.as_str(), unit.as_deref())), number("value")?));
                    }
                }
                Target::Param(k) => params.push((k.as_str(), cell)),
                Target::Column("params") => {
                    for kv in cell.split(',').filter(|s| !s.trim().is_empty()) {
                        match kv.split_once('=') {
                            Some((k, v)) => params.push((k, v)),
                            None => {
                                return Err(err(format!(
                                    "params `{cell}`: expected key=value pairs"
                                )))
                            }
                        }
                    }
                }
                Target::Column("source") => o.source = text(&mut self.text[i]),
                Target::Column("line") => {
                    o.line = if cell.is_empty() {
                        0
                    } else {
                        cell.parse()
                            .map_err(|_| err(format!("line `{cell}` is not a line number")))?
                    }
                }
                Target::Column("benchmark") => o.benchmark = text(&mut self.text[i]),
                Target::Column("variant") => o.variant = text(&mut self.text[i]),
                Target::Column("metric") => o.metric = text(&mut self.text[i]),
                Target::Column("unit") => {
                    o.unit = self.text[i]
                        .get(cell, |c| {
                            Ok::<_, std::convert::Infallible>(
                                crate::model::Unit::normalize_spelling(c),
                            )
                        })
                        .unwrap_or_default()
                }
                Target::Column("stat") => {
                    if !cell.is_empty() {
                        o.stat = self
                            .stat
                            .get(cell, |c| c.parse())
                            .map_err(|e: String| err(e))?;
                    }
                }
                Target::Column("run") => {
                    o.run = if cell.is_empty() || cell == "null" {
                        None
                    } else {
                        Some(
                            cell.parse()
                                .map_err(|_| err(format!("run `{cell}` is not a run index")))?,
                        )
                    }
                }
                Target::Column(_) => {}
            }
        }
        if o.benchmark.is_empty() {
            return Err(err("no benchmark name".into()));
        }
        if values.is_empty() {
            return Err(err("no value".into()));
        }
        o.params = self.canonical(&params);
        // Stored lines of a re-read table point into the original input; keep them.
        if o.source.is_empty() {
            o.line = line;
        }
        let label = |x: &mut Observation, (metric, v): Labelled| {
            if let Some((m, u)) = metric {
                x.metric = m.into();
                if let Some(u) = u {
                    x.unit = crate::model::Unit::normalize_spelling(u);
                }
            }
            x.value = v;
        };
        // Every value but the last gets a copy; the last takes the row itself.
        let last = values.pop().expect("checked non-empty above");
        for v in values {
            let mut x = o.clone();
            label(&mut x, v);
            out.push(x);
        }
        label(&mut o, last);
        out.push(o);
        Ok(())
    }

    /// [`canonical_params`] of the row's pairs, reused while the pairs stay
    /// the same as the previous row's.
    fn canonical(&mut self, params: &[(&str, &str)]) -> SmolStr {
        if params.is_empty() {
            return SmolStr::default();
        }
        let (last, s) = &mut self.params;
        let same = last.len() == params.len()
            && last
                .iter()
                .zip(params)
                .all(|((a, b), (c, d))| text_eq(a, c) && text_eq(b, d));
        if !same {
            // The previous pairs' strings are overwritten, not reallocated.
            last.resize_with(params.len(), Default::default);
            for ((a, b), (c, d)) in last.iter_mut().zip(params) {
                a.clear();
                a.push_str(c);
                b.clear();
                b.push_str(d);
            }
            *s = canonical_params(params).into();
        }
        s.clone()
    }
}

/// The generic tidy CSV/TSV importer, optionally with a column mapping.
pub struct TidyCsv {
    map: FieldMap,
}

impl TidyCsv {
    /// The importer of files whose header names the tidy columns.
    pub fn new() -> TidyCsv {
        TidyCsv {
            map: FieldMap::default(),
        }
    }

    /// The importer for a `--map` mapping.
    pub fn with_map(map: FieldMap) -> TidyCsv {
        TidyCsv { map }
    }
}

impl Default for TidyCsv {
    fn default() -> Self {
        TidyCsv::new()
    }
}

fn separator(header: &str) -> char {
    if header.contains('\t') && !header.contains(',') {
        '\t'
    } else {
        ','
    }
}

impl Format for TidyCsv {
    fn name(&self) -> &'static str {
        "tidy-csv"
    }

    fn description(&self) -> &'static str {
        "CSV/TSV with a header naming the tidy columns (benchmark, value, metric, stat …; ingest --out output), or mapped with --map col=field"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if src.looks_like_json() {
            return 0;
        }
        let Some(HeaderCells { cols, .. }) = header_cells(src) else {
            return 0;
        };
        if !self.map.is_empty() {
            return if self.map.all_present(&cols) && self.map.usable(&cols) {
                99
            } else {
                0
            };
        }
        if cols.iter().map(|c| c.trim()).eq(COLUMNS.iter().copied()) {
            return 95;
        }
        let tidy = cols.iter().filter(|c| COLUMNS.contains(&c.trim())).count();
        if self.map.usable(&cols) && tidy >= 3 {
            80
        } else {
            0
        }
    }

    /// The header and every row are `consumed`: a re-read table keeps the
    /// source and line its rows came from, so their lines say nothing about
    /// this file.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        self.parse_in_chunks(src, CHUNK_BYTES)
    }

    /// Rows are read one by one under the header (records spanning lines
    /// are not supported), so a large table is read in pieces after it.
    fn pieces(&self, head: &Source) -> Option<Pieces> {
        raw_lines(head).next().map(|(line, _)| Pieces {
            header_lines: line,
            context: None,
            ..Default::default()
        })
    }

    fn parse_piece(&self, head: &Source, body: &Source) -> Result<Parsed> {
        let header = self.header(head)?;
        let first = body.first_line();
        // One chunk: the driver reads pieces on all threads already, and
        // the rows of a piece's chunks were held twice while they were
        // joined (8 MB of the 29 MB heap peak of a 15 MB table).
        header
            .table(body)
            .read_chunks(&body.raw, first, body.raw.len().max(1))
    }
}

impl TidyCsv {
    /// [`Format::parse_accounted`] with the rows cut into chunks of about
    /// `chunk_bytes` bytes (the result does not depend on it).
    fn parse_in_chunks(&self, src: &Source, chunk_bytes: usize) -> Result<Parsed> {
        let header = self.header(src)?;
        // The rows start on the line after the header's.
        let body = match memchr::memchr(b'\n', &src.raw.as_bytes()[header.end..]) {
            Some(i) => &src.raw[header.end + i + 1..],
            None => "",
        };
        let mut parsed = header
            .table(src)
            .read_chunks(body, header.line + 1, chunk_bytes)?;
        parsed.consumed.insert(0, header.line);
        Ok(parsed)
    }

    /// The header of the table in `src`: its first non-blank line.
    fn header(&self, src: &Source) -> Result<Header> {
        let Some(HeaderCells {
            line,
            end,
            cols,
            sep,
        }) = header_cells(src)
        else {
            return Err(src.error(None, "empty table"));
        };
        if !self.map.usable(&cols) {
            return Err(src.error(
                Some(line),
                "the header names no benchmark and value columns; map them with --map COLUMN=benchmark --map COLUMN=value",
            ));
        }
        let targets = cols.iter().map(|c| self.map.target(c)).collect();
        Ok(Header {
            line,
            end,
            cols,
            targets,
            sep,
        })
    }
}

/// A table's first non-blank line, read as its header.
struct HeaderCells {
    /// Its line number.
    line: u32,
    /// Where it ends in the raw text (before its line break).
    end: usize,
    cols: Vec<String>,
    sep: char,
}

/// The header of the table in `src`, a UTF-8 BOM removed; `None` when
/// every line is blank.
fn header_cells(src: &Source) -> Option<HeaderCells> {
    let (line, text) = raw_lines(src).next()?;
    let end = text.as_ptr() as usize - src.raw.as_ptr() as usize + text.len();
    let text = text.trim_start_matches('\u{feff}');
    let sep = separator(text);
    Some(HeaderCells {
        line,
        end,
        cols: split_csv(text, sep),
        sep,
    })
}

/// A table's header line and what its columns become.
struct Header {
    /// Its line number.
    line: u32,
    /// Where it ends in the raw text (before its line break).
    end: usize,
    cols: Vec<String>,
    targets: Vec<Option<Target>>,
    sep: char,
}

impl Header {
    /// The rows of `src` under this header.
    fn table<'a>(&'a self, src: &'a Source) -> Table<'a> {
        Table {
            src,
            cols: &self.cols,
            targets: &self.targets,
            sep: self.sep,
        }
    }
}

/// Bytes per chunk of a table read in parallel: large enough that a chunk
/// costs far more than handing it to a thread.
const CHUNK_BYTES: usize = 1 << 20;

/// `text` cut into pieces of about `size` bytes, each ending after a
/// newline (the last one at the end of the text).
fn split_lines(text: &str, size: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while rest.len() > size {
        match memchr::memchr(b'\n', &rest.as_bytes()[size..]) {
            Some(i) => {
                let (a, b) = rest.split_at(size + i + 1);
                out.push(a);
                rest = b;
            }
            None => break,
        }
    }
    if !rest.is_empty() || out.is_empty() {
        out.push(rest);
    }
    out
}

/// What every chunk of one table shares: its source, header and targets.
struct Table<'a> {
    src: &'a Source,
    cols: &'a [String],
    targets: &'a [Option<Target>],
    sep: char,
}

impl Table<'_> {
    /// Reads the rows of `body`, whose first line is line `first` of the
    /// file, in chunks of about `chunk_bytes` bytes.
    ///
    /// A large table is read in chunks of whole lines on all threads; each
    /// chunk knows the number of its first line, and the chunks are joined
    /// in file order, so rows, line numbers and the first error are those
    /// of a reading from top to bottom.
    fn read_chunks(&self, body: &str, first: u32, chunk_bytes: usize) -> Result<Parsed> {
        let chunks = split_lines(body, chunk_bytes);
        if let [chunk] = chunks[..] {
            // Room for the rows at once: grown by doubling, the vector of a
            // piece's rows was copied a dozen times and left up to half
            // its room unused.
            let lines = memchr::memchr_iter(b'\n', chunk.as_bytes()).count() + 1;
            return self.read(chunk, first, lines);
        }
        // Lines per chunk: where each chunk starts, and room for its rows
        // (a row is one value unless several columns are mapped to values).
        let lines: Vec<u32> = chunks
            .par_iter()
            .map(|c| memchr::memchr_iter(b'\n', c.as_bytes()).count() as u32)
            .collect();
        let first_lines: Vec<u32> = lines
            .iter()
            .scan(first, |next, n| {
                let first = *next;
                *next += n;
                Some(first)
            })
            .collect();
        let total = lines.iter().map(|&n| n as usize).sum::<usize>();
        let mut observations = Vec::with_capacity(total);
        // Room for the header's line, which the caller puts in front.
        let mut consumed = Vec::with_capacity(1 + total);
        // A few chunks per thread at a time, each wave's rows moved into the
        // table before the next is read: all chunks' rows held at once next
        // to the table they are moved into doubled the peak memory (and the
        // fresh memory, whose zeroing by the kernel was most of the time on
        // a virtual machine at times). The first error in file order is in
        // the first wave that has one.
        let wave = 4 * rayon::current_num_threads().max(1);
        let numbered: Vec<(&str, (u32, u32))> = chunks
            .into_iter()
            .zip(first_lines.into_iter().zip(lines))
            .collect();
        for group in numbered.chunks(wave) {
            let parts: Vec<Result<Parsed>> = group
                .par_iter()
                .map(|&(c, (first, lines))| self.read(c, first, lines as usize))
                .collect();
            for part in parts {
                let mut part = part?;
                consumed.append(&mut part.consumed);
                observations.append(&mut part.observations);
            }
        }
        Ok(Parsed {
            observations,
            consumed,
            skipped: Vec::new(),
            ..Parsed::default()
        })
    }

    /// Reads the rows of `chunk`, whose first line is line `first` of the
    /// file; blank lines are skipped and a trailing CR removed, as
    /// [`raw_lines`] does. `lines` (its line count, when known) sizes the
    /// vectors.
    fn read(&self, chunk: &str, first: u32, lines: usize) -> Result<Parsed> {
        let mut reader = RowReader::new(self.targets);
        let mut out = Vec::with_capacity(lines);
        let mut consumed = Vec::with_capacity(lines);
        let mut plain: Vec<&str> = Vec::with_capacity(self.cols.len());
        let mut lines = numbered_lines(chunk, first);
        while let Some((n, l)) = lines.next() {
            consumed.push(n);
            // Without quotes a record is its separator-split cells (what
            // `split_csv` gives), borrowed rather than copied.
            let owned: Vec<String>;
            let quoted: Vec<&str>;
            let cells: &[&str] = if split_unquoted(l, self.sep, &mut plain) {
                &plain
            } else {
                // A quoted field may hold line breaks: the record goes on
                // until its quotes pair up.
                let mut record = std::borrow::Cow::Borrowed(l);
                while record.bytes().filter(|&b| b == b'"').count() % 2 == 1 {
                    let Some((m, more)) = lines.next() else {
                        return Err(self.src.error(Some(n), "quoted field never closed"));
                    };
                    consumed.push(m);
                    let r = record.to_mut();
                    r.push('\n');
                    r.push_str(more);
                }
                owned = split_csv(&record, self.sep);
                quoted = owned.iter().map(String::as_str).collect();
                &quoted
            };
            if cells.len() != self.cols.len() {
                return Err(self.src.error(
                    Some(n),
                    format!(
                        "expected {} fields like the header, found {}",
                        self.cols.len(),
                        cells.len()
                    ),
                ));
            }
            let row = self
                .cols
                .iter()
                .zip(self.targets)
                .zip(cells)
                .map(|((c, t), cell)| (c.as_str(), t.as_ref(), *cell));
            reader.push_row(self.src, row, n, "row", &mut out)?;
        }
        Ok(Parsed {
            observations: out,
            consumed,
            skipped: Vec::new(),
            ..Parsed::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn re_read_rows_are_consumed_though_their_lines_point_elsewhere() {
        let text = "source,line,benchmark,params,variant,metric,unit,stat,value,run\n\
                    a.txt,3,hackbench,,base,time,s,sample,0.46,0\n\
                    a.txt,9,hackbench,,base,time,s,sample,0.47,1\n";
        let p = TidyCsv::new()
            .parse_accounted(&Source::from_text("t.csv", text))
            .unwrap();
        assert_eq!(p.consumed, vec![1, 2, 3]);
        let lines: Vec<u32> = p.observations.iter().map(|o| o.line).collect();
        assert_eq!(lines, vec![3, 9]);
    }

    /// Rows as the serial reader of the previous version produced them:
    /// every row through `record_to_obs`, in order.
    fn one_by_one(src: &Source) -> Result<Vec<Observation>> {
        let mut lines = raw_lines(src);
        let (_, header) = lines.next().unwrap();
        let header = header.trim_start_matches('\u{feff}');
        let sep = separator(header);
        let cols = split_csv(header, sep);
        let mut out = Vec::new();
        for (n, l) in lines {
            let cells = split_csv(l, sep);
            if cells.len() != cols.len() {
                return Err(src.error(Some(n), "field count"));
            }
            let record: Vec<(String, String)> = cols.iter().cloned().zip(cells).collect();
            out.extend(record_to_obs(src, &FieldMap::default(), &record, n, "row")?);
        }
        Ok(out)
    }

    #[test]
    fn chunks_give_the_rows_lines_and_first_error_of_a_serial_read() {
        let mut text =
            String::from("\u{feff}benchmark,params,variant,metric,unit,stat,value,run\r\n");
        for i in 0..200 {
            let params = if i % 3 == 0 {
                "\"threads=4,cpu=2\""
            } else {
                ""
            };
            let stat = if i % 7 == 0 { "mean" } else { "sample" };
            text.push_str(&format!(
                "b{},{params},{},t,{},{stat},{}.5,{}\r\n",
                i / 10,
                if i % 2 == 0 { "base" } else { "new" },
                if i % 5 == 0 { "ms" } else { "us" },
                i,
                i % 10
            ));
            if i % 17 == 0 {
                text.push_str("\n   \n");
            }
        }
        let src = Source::from_text("t.csv", &text);
        let want = one_by_one(&src).unwrap();
        assert_eq!(want.len(), 200);
        let whole = TidyCsv::new().parse_in_chunks(&src, 1 << 20).unwrap();
        for size in [1, 7, 64, 500] {
            let p = TidyCsv::new().parse_in_chunks(&src, size).unwrap();
            assert_eq!(p.observations, want, "chunks of {size} bytes");
            assert_eq!(p.consumed, whole.consumed, "chunks of {size} bytes");
        }
        // 200 rows, the header and 12 pairs of blank lines.
        assert_eq!(whole.consumed.len(), 201);
        assert_eq!(*whole.consumed.last().unwrap(), 225);
        assert_eq!(want[3].params, "cpu=2,threads=4");
        assert_eq!(want[7].stat, Stat::Mean);
        assert_eq!(want[199].line, 225);

        // The first bad row is the one reported, whatever the chunking.
        let bad = text
            .replacen("12.5,2", "x12,2", 1)
            .replacen("150.5,0", "oops,0", 1);
        let src = Source::from_text("t.csv", &bad);
        let serial = one_by_one(&src).unwrap_err().to_string();
        for size in [1, 64, 1 << 20] {
            let e = TidyCsv::new()
                .parse_in_chunks(&src, size)
                .unwrap_err()
                .to_string();
            assert_eq!(e, serial, "chunks of {size} bytes");
        }
        assert!(
            serial.starts_with("t.csv:16: row: column `value`"),
            "{serial}"
        );
    }
}
