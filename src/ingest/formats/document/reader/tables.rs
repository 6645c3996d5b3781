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
            [h] => Some((h.line.number, split_cells(&h.line.text))),
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
            table::emit(&self.src.path, &t, &names, n, &mut self.memo, &mut self.out)?;
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

    pub(super) fn boxed_table(&mut self, part: &[&Cl<'a>], n: Option<(f64, u32)>) -> Result<()> {
        let depth = part.first().map(|c| c.line.quote_depth).unwrap_or(0);
        let mut header_rows: Vec<(u32, BoxCells<'a>)> = Vec::new();
        let mut data: Vec<(u32, BoxCells<'a>)> = Vec::with_capacity(part.len());
        for c in part {
            if let Kind::BoxRow(cells) = c.kind {
                // Once data rows start every row is data: no need to parse.
                if data.is_empty() && self.is_box_header(cells) {
                    header_rows.push((c.line.number, cells));
                } else {
                    data.push((c.line.number, cells));
                }
            }
        }
        if let Some(t) = table::boxed(&self.src.path, &header_rows, &data, &mut self.memo)? {
            let names = self.resolve(depth);
            table::emit(&self.src.path, &t, &names, n, &mut self.memo, &mut self.out)?;
        }
        Ok(())
    }

    /// True when no cell of a boxed row is a value.
    pub(super) fn is_box_header(&mut self, cells: BoxCells<'a>) -> bool {
        if self.box_headers.find(|h| *h == cells).is_some() {
            return true;
        }
        let header = !cells.iter().any(lines::is_value);
        if header {
            self.box_headers.insert(cells, ());
        }
        header
    }
}
