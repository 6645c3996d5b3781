//! Reading a paragraph: by the layout rules first, then the general grid reader for what they left, and the headings and names of its blocks.

use super::super::grid;
use super::super::labels::{self, Heading};
use super::super::lines::{split_cells, Kind};
use super::super::table::BlockNames;
use super::*;
use crate::error::Result;
use crate::ingest::shared::text::is_rule;
use crate::model::Observation;

impl<'a> Reader<'a> {
    /// Reads one paragraph by the layout rules, then gives the lines with
    /// numbers they left unread (or all of them, when a rule found the
    /// paragraph malformed) to the general grid reader.
    pub(super) fn paragraph(&mut self, para: &[&Cl<'a>]) -> Result<()> {
        if let Some(names) = legend(para) {
            self.legend = Some(names);
        }
        match column_names(para) {
            Some(line) => self.column_names = Some(line),
            None if is_sentences(para) => self.column_names = None,
            None => {}
        }
        let start = self.out.len();
        let pending = self.pending.len();
        let seq = self.label_seq;
        if let Err(e) = self.paragraph_by_rules(para) {
            // A ragged table in a mail is read by the grid reader; a file
            // of tables alone is malformed, and the error says where.
            if !self.prose {
                return Err(e);
            }
            self.out.truncate(start);
        }
        // A block the rules named took the pending headings; those pending
        // now came below it (a sign-off under a table) and head nothing.
        let named = self.label_seq != seq;
        self.grid_fallback(para, start, pending, named);
        Ok(())
    }

    /// The grid reader on the lines of `para` holding a digit that no
    /// observation since `start` came from. A prose paragraph it reads is
    /// no heading after all: the headings it pushed (beyond `pending`) go.
    /// `named`: the rules named a block of the paragraph, whose label and
    /// context then head what the grid reader finds.
    pub(super) fn grid_fallback(
        &mut self,
        para: &[&Cl<'a>],
        start: usize,
        pending: usize,
        named: bool,
    ) {
        let has_digit = |c: &Cl| c.line.text.bytes().any(|b| b.is_ascii_digit());
        let digit_lines = para.iter().filter(|c| has_digit(c)).count();
        if digit_lines == 0 {
            return;
        }
        let mut covered: Vec<u32> = self.out[start..].iter().map(|o| o.line).collect();
        covered.sort_unstable();
        covered.dedup();
        let unread = |n: u32| covered.binary_search(&n).is_err();
        let lines: Vec<grid::GLine> = para
            .iter()
            .map(|c| grid::GLine {
                number: c.line.number,
                text: &c.line.text,
            })
            .collect();
        if !para.iter().any(|c| has_digit(c) && unread(c.line.number))
            && !grid::has_ruled_header(&lines)
        {
            return;
        }
        // The headings above the paragraph, the nearest last: those not yet
        // used, or the label and context of the block before.
        let above: Vec<&Heading> = match self.pending.get(..pending) {
            Some(p) if !p.is_empty() && !named => p.iter().collect(),
            _ => self.context.iter().chain(self.label.iter()).collect(),
        };
        let headings: Vec<String> = above
            .into_iter()
            .filter(|h| !h.prose)
            .map(|h| h.text.clone())
            .collect();
        let headings: Vec<&str> = headings.iter().map(String::as_str).collect();
        let got = grid::read(
            &lines,
            &headings,
            grid::Above {
                legend: self.legend.as_deref(),
                header: self.column_names,
                table: self.table_above.as_ref(),
            },
            file_stem(&self.src.path),
            &self.src.path,
        );
        if got.table.is_some() {
            self.table_above = got.table;
        }
        let mut ruled = got.ruled_lines;
        ruled.sort_unstable();
        ruled.dedup();
        let is_ruled = |n: u32| ruled.binary_search(&n).is_ok();
        // What the grid reader read under a column-by-column underline
        // replaces the layout rules' reading of those lines.
        if !ruled.is_empty() {
            let mut kept: Vec<Observation> = self.out.drain(start..).collect();
            kept.retain(|o| !is_ruled(o.line));
            self.out.extend(kept);
        }
        let before = self.out.len();
        self.out.extend(
            got.observations
                .into_iter()
                .filter(|o| unread(o.line) || is_ruled(o.line)),
        );
        if self.out.len() > before && self.pending.len() > pending {
            self.pending.truncate(pending);
        }
    }

    /// Reads one paragraph: prose becomes headings, structured runs data.
    pub(super) fn paragraph_by_rules(&mut self, para: &[&Cl<'a>]) -> Result<()> {
        let structured = |c: &Cl| !matches!(c.kind, Kind::Text);
        if !para.iter().any(|c| structured(c)) {
            let same = |k: &Vec<&str>| {
                k.len() == para.len() && k.iter().zip(para).all(|(a, c)| *a == c.line.text)
            };
            let label = match self.paragraph_labels.find(same) {
                Some(label) => label.clone(),
                None => {
                    let texts: Vec<&str> = para
                        .iter()
                        .map(|c| c.line.text.as_str())
                        .filter(|t| !labels::is_noise(t))
                        .collect();
                    let label = labels::paragraph_label(&texts);
                    let key = para.iter().map(|c| c.line.text.as_str()).collect();
                    self.paragraph_labels.insert(key, label.clone());
                    label
                }
            };
            if let Some((text, prose)) = label {
                self.pending.push(Heading {
                    text,
                    depth: para[0].line.quote_depth,
                    prose,
                });
            }
            return Ok(());
        }
        // Where the last table row of the paragraph is: sample lines before
        // it may state the table's count. Found once, not per sample run
        // (a long paragraph of alternating lines would make that quadratic).
        let last_table_row = para
            .iter()
            .rposition(|c| matches!(c.kind, Kind::Row(_) | Kind::BoxRow(_)));
        let mut n_for_table: Option<(f64, u32)> = None;
        let mut i = 0;
        while i < para.len() {
            let c = para[i];
            match &c.kind {
                Kind::Text => {
                    let mut j = i;
                    while j < para.len() && matches!(para[j].kind, Kind::Text) {
                        j += 1;
                    }
                    let next_is_row = matches!(para.get(j).map(|c| &c.kind), Some(Kind::Row(_)));
                    // An underline between the header and the rows is
                    // skipped; under a single cell it marks a title, not a
                    // header (`strlen/strnlen` over `==============`).
                    let underlined = j >= i + 2 && is_rule(&para[j - 1].line.text);
                    let h = j - usize::from(underlined);
                    let header = (next_is_row
                        && !is_rule(&para[h - 1].line.text)
                        && header_like(&para[h - 1].line.text)
                        && (!underlined || split_cells(&para[h - 1].line.text).len() >= 2))
                        .then(|| para[h - 1]);
                    // A header split over two lines: `baseline  patched` above
                    // `mean  sd  mean  sd`.
                    let upper = header
                        .filter(|_| h >= i + 2)
                        .map(|_| para[h - 2])
                        .filter(|u| {
                            header_like(&u.line.text) && split_cells(&u.line.text).len() >= 2
                        });
                    let heading_end =
                        h - usize::from(header.is_some()) - usize::from(upper.is_some());
                    self.text_headings(&para[i..heading_end]);
                    if let Some(h) = header {
                        let mut k = j;
                        while k < para.len() && matches!(para[k].kind, Kind::Row(_)) {
                            k += 1;
                        }
                        let mut head: Vec<&Cl> = upper.into_iter().collect();
                        head.push(h);
                        self.aligned_table(&head, &para[j..k], n_for_table.take())?;
                        j = k;
                    }
                    i = j;
                }
                Kind::Row(_) => {
                    let mut j = i;
                    while j < para.len() && matches!(para[j].kind, Kind::Row(_)) {
                        j += 1;
                    }
                    self.aligned_table(&[], &para[i..j], n_for_table.take())?;
                    i = j;
                }
                Kind::Border | Kind::BoxRow(_) => {
                    let mut j = i;
                    // A one-cell group row between rows stays in the table.
                    let in_table = |k: usize| match para[k].kind {
                        Kind::Border | Kind::BoxRow(_) => true,
                        Kind::Text => {
                            super::tables::group_row(&para[k].line.text).is_some()
                                && para
                                    .get(k + 1)
                                    .is_some_and(|c| matches!(c.kind, Kind::BoxRow(_)))
                        }
                        _ => false,
                    };
                    while j < para.len() && in_table(j) {
                        j += 1;
                    }
                    self.boxed_table(&para[i..j], n_for_table.take())?;
                    i = j;
                }
                Kind::Pairs(_) | Kind::Time(..) | Kind::Carets(_) | Kind::Change(_) => {
                    let mut j = i;
                    while j < para.len()
                        && matches!(
                            para[j].kind,
                            Kind::Pairs(_) | Kind::Time(..) | Kind::Carets(_) | Kind::Change(_)
                        )
                    {
                        j += 1;
                    }
                    let table_follows = last_table_row.is_some_and(|r| r >= j);
                    self.samples(&para[i..j], table_follows, &mut n_for_table);
                    i = j;
                }
                Kind::Blank => i += 1,
            }
        }
        Ok(())
    }

    /// Prose lines inside a data paragraph: the last one heads the data
    /// below it (`* with plist:`), the ones before it are a heading above that.
    pub(super) fn text_headings(&mut self, run: &[&Cl]) {
        let texts: Vec<&Cl> = run
            .iter()
            .copied()
            .filter(|c| {
                !labels::is_noise(&c.line.text)
                    && !is_rule(&c.line.text)
                    && !crate::ingest::shared::numbers::is_non_finite_line(&c.line.text)
            })
            .collect();
        let Some((last, before)) = texts.split_last() else {
            return;
        };
        if !before.is_empty() {
            let lines: Vec<&str> = before.iter().map(|c| c.line.text.as_str()).collect();
            if let Some((text, prose)) = labels::paragraph_label(&lines) {
                self.pending.push(Heading {
                    text,
                    depth: before[0].line.quote_depth,
                    prose,
                });
            }
        }
        if let Some(text) = labels::line_label(&last.line.text) {
            self.pending.push(Heading {
                text,
                depth: last.line.quote_depth,
                prose: false,
            });
        }
    }

    /// Moves the headings seen since the last data block into label and
    /// context, preferring a heading at the block's own quote depth.
    pub(super) fn resolve(&mut self, depth: u8) -> BlockNames {
        if let Some(idx) = self
            .pending
            .iter()
            .rposition(|h| h.depth == depth)
            .or(self.pending.len().checked_sub(1))
        {
            // The headings are moved out, not copied: all are dropped here.
            self.pending.truncate(idx + 1);
            let Some(mut label) = self.pending.pop() else {
                unreachable!("`idx` is an index of `pending`")
            };
            // Running prose names nothing: the block is numbered instead.
            if label.prose {
                self.prose_tables += 1;
                label.text = format!("table {}", self.prose_tables);
            }
            self.label = Some(label);
            if idx > 0 {
                self.context = self.pending.pop();
            }
            // A heading that names a build, further up than the two
            // nearest (a command line or a harness banner between it and
            // the rows), still names the rows' build.
            let names_build = |h: &Option<Heading>| {
                h.as_ref()
                    .is_some_and(|h| !h.prose && labels::is_variant_like(&h.text))
            };
            if !names_build(&self.label) && !names_build(&self.context) {
                if let Some(at) = self
                    .pending
                    .iter()
                    .rposition(|h| !h.prose && labels::is_variant_like(&h.text))
                {
                    self.context = Some(self.pending.swap_remove(at));
                }
            }
            self.label_seq += 1;
            self.pending.clear();
        }
        // Label and context change only with `label_seq`: blocks under the
        // same headings share their names.
        if let Some((seq, names)) = &self.names {
            if *seq == self.label_seq {
                return names.clone();
            }
        }
        let label = self.label.as_ref().map_or("", |h| h.text.as_str());
        let context = self
            .context
            .as_ref()
            .filter(|h| !h.prose)
            .map_or("", |h| h.text.as_str());
        let known = self
            .block_names
            .find(|(l, c)| l == label && c == context)
            .cloned();
        let names = known.unwrap_or_else(|| {
            let names = block_names(label, context, &self.src.path);
            self.block_names
                .insert((label.to_string(), context.to_string()), names.clone());
            names
        });
        self.names = Some((self.label_seq, names.clone()));
        names
    }
}

/// The line of a paragraph that is one line of column names: two to 24
/// names set apart by gaps of two spaces or more or a tab (a heading of
/// single-spaced words is a title, not names of columns), none ending as a
/// word of a sentence does (`:`, `.`, `,`), and no number among them. A
/// header over two lines, ruled under its upper line (`base  test` over
/// dashes over `speedup  key_sz  blk_sz  ops/sec  stdev …`), names the
/// columns by its last line.
fn column_names<'a>(para: &[&Cl<'a>]) -> Option<&'a str> {
    let (last, above) = para.split_last()?;
    let ruled_above = above.len() <= 2
        && above.iter().any(|c| is_rule_line(&c.line.text))
        && above
            .iter()
            .all(|c| is_rule_line(&c.line.text) || names_line(c).is_some());
    if !above.is_empty() && !ruled_above {
        return None;
    }
    names_line(last)
}

/// [`column_names`] of one line.
fn names_line<'a>(c: &Cl<'a>) -> Option<&'a str> {
    if !matches!(c.kind, Kind::Text) {
        return None;
    }
    let text = c.line.text.as_str();
    let inner = text.trim();
    let words: Vec<&str> = inner.split_whitespace().collect();
    let names = (2..=24).contains(&words.len())
        && (inner.contains('\t') || inner.contains("  "))
        && words.iter().all(|w| {
            w.chars().any(char::is_alphabetic)
                && !w.ends_with([':', '.', ',', ';', '!', '?'])
                && w.parse::<f64>().is_err()
        });
    names.then_some(text)
}

/// Whether a paragraph is written sentences: a line of text ending as a
/// sentence does, or several lines of text.
fn is_sentences(para: &[&Cl]) -> bool {
    let text = |c: &&Cl| matches!(c.kind, Kind::Text);
    para.iter().all(text)
        && (para.len() > 1
            || para
                .iter()
                .any(|c| c.line.text.trim_end().ends_with(['.', '!', '?'])))
}

/// The names a legend paragraph gives, in order: two to eight lines, each a
/// name of one word (letters in it) set apart by a tab or two spaces from a
/// short description (`kswapdwb-v2r5`, two tabs, `patches 1-7`).
fn legend(para: &[&Cl]) -> Option<Vec<String>> {
    if !(2..=8).contains(&para.len()) {
        return None;
    }
    para.iter()
        .map(|c| {
            let t = c.line.text.trim();
            let cut = t.find('\t').or_else(|| t.find("  "))?;
            let (name, rest) = t.split_at(cut);
            let rest = rest.trim();
            let fits = !name.contains(' ')
                && name.chars().any(char::is_alphabetic)
                && name.chars().count() <= 40
                && !rest.is_empty()
                && rest.split_whitespace().count() <= 8
                && !name.ends_with(':');
            fits.then(|| name.to_string())
        })
        .collect()
}
