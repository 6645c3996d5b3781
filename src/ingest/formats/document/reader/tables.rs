//! Aligned and boxed tables of a paragraph, handed to the table reader.

use super::super::labels::{self, Heading};
use super::super::lines::{self, split_cells, BoxCells, Kind};
use super::super::table::{self};
use super::*;
use crate::error::Result;

impl<'a> Reader<'a> {
    /// A table of aligned columns under `head` (zero, one or two header
    /// lines, the last one nearest the rows).
    pub(super) fn aligned_table(
        &mut self,
        head: &[&Cl],
        rows: &[&Cl],
        n: Option<(f64, u32)>,
    ) -> Result<()> {
        let depth = rows.first().map(|c| c.line.quote_depth).unwrap_or(0);
        let hcells = match head {
            [] => None,
            [h] => {
                // Names one space apart that sit over the columns are
                // the header's cells, though no gap parts them.
                let texts: Vec<&str> = rows.iter().map(|c| c.line.text.as_str()).collect();
                let cells = lines::header_words(&h.line.text, &texts)
                    .unwrap_or_else(|| split_cells(&h.line.text));
                Some((h.line.number, cells))
            }
            [.., u, h] => Some((
                h.line.number,
                lines::merge_header(&split_cells(&u.line.text), &split_cells(&h.line.text)),
            )),
        };
        let data: Vec<(u32, &lines::DataRow)> = rows
            .iter()
            .filter_map(|c| match &c.kind {
                Kind::Row(r) => Some((c.line.number, r)),
                _ => None,
            })
            .collect();
        let t = table::aligned(
            &self.src.path,
            hcells.as_ref().map(|(l, c)| (*l, c.as_slice())),
            &data,
            &mut self.memo,
        )?;
        if let Some(t) = t {
            let names = self.resolve(depth);
            self.emit_stated(&t, &names, n)?;
        } else {
            // Not a header after all: headings for what follows.
            for h in head {
                if let Some(text) = labels::line_label(&h.line.text) {
                    self.pending.push(Heading {
                        text,
                        depth,
                        prose: false,
                    });
                }
            }
        }
        Ok(())
    }

    /// A boxed or pipe table. A row of one cell between its rows
    /// (`| brk1_8_processes` in a Markdown table) heads the rows below it
    /// as a group: each group is read as a table of its own under the
    /// same header, its name before the block's benchmark.
    pub(super) fn boxed_table(&mut self, part: &[&Cl<'a>], n: Option<(f64, u32)>) -> Result<()> {
        let depth = part.first().map(|c| c.line.quote_depth).unwrap_or(0);
        let mut header_rows: Vec<(u32, BoxCells<'a>)> = Vec::new();
        let mut data: Vec<(u32, BoxCells<'a>)> = Vec::with_capacity(part.len());
        let mut group: Option<String> = None;
        for (i, c) in part.iter().enumerate() {
            match c.kind {
                Kind::BoxRow(cells) => {
                    // Once data rows start every row is data: no need to parse.
                    if data.is_empty()
                        && group.is_none()
                        && (self.is_box_header(cells)
                            || header_rows.is_empty() && ruled_off_header(part, i, cells))
                    {
                        header_rows.push((c.line.number, cells));
                    } else {
                        data.push((c.line.number, cells));
                    }
                }
                Kind::Text => {
                    if let Some(name) = group_row(&c.line.text) {
                        self.boxed_group(&header_rows, &data, group.as_deref(), depth, n)?;
                        data.clear();
                        group = Some(name);
                    }
                }
                _ => {}
            }
        }
        self.boxed_group(&header_rows, &data, group.as_deref(), depth, n)
    }

    /// The rows of one group of a boxed table, read as a table.
    fn boxed_group(
        &mut self,
        header_rows: &[(u32, BoxCells<'a>)],
        data: &[(u32, BoxCells<'a>)],
        group: Option<&str>,
        depth: u8,
        n: Option<(f64, u32)>,
    ) -> Result<()> {
        if data.is_empty() {
            return Ok(());
        }
        if let Some(t) = table::boxed(&self.src.path, header_rows, data, &mut self.memo)? {
            let mut names = self.resolve(depth);
            if let Some(g) = group {
                // The file's name stands in for a missing heading: the
                // group names the rows alone then.
                let unnamed =
                    names.benchmark.is_empty() || names.benchmark == file_stem(&self.src.path);
                names.benchmark = if unnamed {
                    g.into()
                } else {
                    format!("{}: {g}", names.benchmark).into()
                };
            }
            self.emit_stated(&t, &names, n)?;
        }
        Ok(())
    }

    /// Emits a table's rows, then gives them what the heading over the
    /// block states (its unit and direction): rows named by their own
    /// labels keep no trace of the heading otherwise.
    fn emit_stated(
        &mut self,
        t: &table::Table<'_>,
        names: &table::BlockNames,
        n: Option<(f64, u32)>,
    ) -> Result<()> {
        let before = self.out.len();
        table::emit(&self.src.path, t, names, n, &mut self.memo, &mut self.out)?;
        if let Some(h) = self.label.as_ref().filter(|h| !h.prose) {
            super::super::titles::state(&h.text, &mut self.out[before..]);
        }
        Ok(())
    }

    /// True when no cell of a boxed row is a value.
    pub(super) fn is_box_header(&mut self, cells: BoxCells<'a>) -> bool {
        if self.box_headers.find(|h| *h == cells).is_some() {
            return true;
        }
        let header = !cells
            .iter()
            .any(|c| lines::is_value(c) || lines::in_two_units(c).is_some());
        if header {
            self.box_headers.insert(cells, ());
        }
        header
    }
}

/// Whether the box row at `i` of `part` is a header although it holds
/// numbers (`|   | 6.6 | 6.12 | mainline |`, kernel versions or a sweep's
/// settings): a rule under it sets it off from rows that follow without
/// rules between them, and it has a blank corner or a word among its
/// cells, as a header has and a row of values has not.
fn ruled_off_header(part: &[&Cl], i: usize, cells: BoxCells) -> bool {
    let kind = |k: usize| part.get(k).map(|c| &c.kind);
    let ruled = matches!(kind(i + 1), Some(Kind::Border))
        && matches!(kind(i + 2), Some(Kind::BoxRow(_)))
        && matches!(kind(i + 3), Some(Kind::BoxRow(_)));
    let mut cells = cells.iter();
    let corner = cells.next().is_some_and(str::is_empty);
    ruled && (corner || cells.any(|t| !t.is_empty() && !lines::is_value(t)))
}

/// The name a one-cell row of a pipe table gives the rows below it
/// (`| brk1_8_processes`, `| **fork** |`), when it holds no value.
pub(super) fn group_row(text: &str) -> Option<String> {
    let t = text.trim();
    let inner = t.strip_prefix('|')?;
    let inner = inner.strip_suffix('|').unwrap_or(inner).trim();
    let inner = inner.trim_matches(['*', '_', '`']).trim();
    let fits = !inner.is_empty()
        && !inner.contains('|')
        && inner.chars().any(char::is_alphabetic)
        && !lines::is_value(inner);
    fits.then(|| inner.to_string())
}
