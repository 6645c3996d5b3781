//! The general grid reader: tables found by the kinds of their lines'
//! tokens, not by character positions or known layouts.
//!
//! A line is a data row when it ends in values: label words, then numbers,
//! changes, spreads, missing marks and markers (`hackbench -g 10  1.23 ±0.02
//! 1.10  -10.6% *`). A run of data rows is a table; the text line right
//! above it is its header when its words can head the columns, the text
//! line above that (or the heading above the paragraph) its title. A line
//! of `key=value` / `key: value` pairs is a list. Columns are matched by
//! position where the header keeps its gaps and by the count and kind of
//! tokens where an archive collapsed them. Whether the variants run across
//! (the usual orientation) or down the side (transposed) is decided from
//! the labels: kernel versions, commit ids, `+patch`, base/patched words.
//!
//! The document reader gives this reader the paragraphs, or the lines of a
//! paragraph, that its layout rules leave unread.

mod axis_header;
mod bare_header;
mod bounds;
mod collapsed;
mod header;
mod kinds;
mod lists;
mod names;
mod perf_rows;
mod ruled;
mod short_rows;
mod spread_columns;
mod sweep;
mod table;
mod tokens;

use super::labels;
use crate::model::{Observation, SmolStr, Stat};
use kinds::*;
use lists::*;
pub use names::variant_like;
use names::*;
use table::*;
use tokens::merge_groups;
pub use tokens::{number, split, tokens, Tok, TokKind};

/// One line of a paragraph.
#[derive(Debug, Clone, Copy)]
pub struct GLine<'a> {
    pub number: u32,
    pub text: &'a str,
}

/// Whether `text` is a data row to the grid reader (label words and
/// values, values and a label, or values between two labels).
pub fn is_data_row(text: &str) -> bool {
    matches!(kind(text), LineKind::Data { .. })
}

/// Whether two or more of the first lines of `src` are grid rows or lists.
pub fn has_rows(src: &crate::ingest::Source) -> bool {
    src.lines
        .iter()
        .take(4000)
        .filter(|l| l.text.bytes().any(|b| b.is_ascii_digit()))
        .filter(|l| {
            matches!(
                kind(&l.text),
                LineKind::Data { .. }
                    | LineKind::Pairs(..)
                    | LineKind::Keyed(..)
                    | LineKind::Collapsed(..)
            )
        })
        .nth(1)
        .is_some()
}

/// What earlier paragraphs of the document say of a headerless table.
#[derive(Default, Clone, Copy)]
pub struct Above<'a> {
    /// The names of a legend above, for a table of as many builds.
    pub legend: Option<&'a [String]>,
    /// A line of column names standing alone above sections of tables
    /// (`nr_mapped  pgfree` over `ON:` rows and `OFF:` rows): the header
    /// of a headerless table below whose rows have one value per name.
    pub header: Option<&'a str>,
    /// The last table read under a header of its own, for rows of the
    /// same shape that an interruption (a remark at another quote depth,
    /// a line of prose) parted from it.
    pub table: Option<&'a Carried>,
}

/// A table's header and the shape of its rows, carried to the paragraphs
/// below it.
#[derive(Debug, Clone, PartialEq)]
pub struct Carried {
    /// The header line.
    pub header: String,
    /// The kind and unit of each value of its first row.
    pub shape: Vec<(TokKind, String)>,
}

/// The kind and unit of each value of a row (a spread or change goes with
/// the value before it).
fn shape_of(values: &[Tok]) -> Vec<(TokKind, String)> {
    group(values)
        .iter()
        .map(|c| (c.0.kind, c.0.unit.to_string()))
        .collect()
}

/// Whether a row of shape `shape` holds the values of the table `above`,
/// one per cell of its header, without the key it stated beside them and
/// with or without its changes (in percent): a comparison of builds
/// (mmtests' `Hmean  64  568.73 (0.00%)  577.56 * 1.55%*` under `baseline
/// lbnuma-v3`) and, below it, counters of the same builds with the values
/// alone, or latencies keyed by a name of their own.
fn measured_only(shape: &[(TokKind, String)], above: &Carried) -> bool {
    let plain = |s: &[(TokKind, String)]| s.iter().filter(|c| c.1 != "%").count();
    let values = plain(shape);
    values >= 2
        && plain(&above.shape) >= values
        && shape
            .iter()
            .all(|c| c.0 == TokKind::Num && above.shape.contains(c))
        && header::cells(&above.header).0.len() == values
}

/// Reads the grids and lists of a paragraph. `headings`: the headings
/// above it, the nearest last; `above`: names earlier paragraphs give;
/// `stem`: the benchmark name of last resort.
pub fn read(para: &[GLine], headings: &[&str], above_para: Above, stem: &str, path: &str) -> Read {
    let legend = above_para.legend;
    let heading = headings.last().copied().unwrap_or("");
    let mut ruled_lines: Vec<u32> = Vec::new();
    let mut last_header: Option<(usize, usize)> = None;
    let mut table_above: Option<Carried> = None;
    let mut kinds: Vec<LineKind> = para
        .iter()
        .map(|l| {
            if is_mail_noise(l.text) {
                LineKind::Text
            } else {
                kind(l.text)
            }
        })
        .collect();
    // A lone line of values among words is as likely prose as data: the
    // fallback reads such lines only where they repeat.
    if kinds
        .iter()
        .filter(|k| matches!(k, LineKind::Keyed(..)))
        .count()
        < 2
    {
        for k in &mut kinds {
            if matches!(k, LineKind::Keyed(..)) {
                *k = LineKind::Text;
            }
        }
    }
    numeric_headers(&mut kinds);
    first_keys(&mut kinds);
    let settings = names::settings_over_runs(para, &kinds);
    let mut out = Vec::new();
    let mut texts: Vec<usize> = Vec::new();
    let mut sections = names::SectionMemo::default();
    let mut i = 0;
    while i < para.len() {
        if let Some((_, true)) = &settings[i] {
            i += 1;
            continue;
        }
        match &kinds[i] {
            LineKind::Text => {
                texts.push(i);
                i += 1;
            }
            LineKind::Rule => i += 1,
            LineKind::Pairs(..) | LineKind::Keyed(..) | LineKind::Collapsed(..) => {
                let title = texts
                    .last()
                    .map(|&t| clean(para[t].text))
                    .unwrap_or_else(|| heading.to_string());
                let mut section = section_of(para, &texts, headings, &mut sections);
                if let Some((setting, _)) = &settings[i] {
                    section = if section.is_empty() {
                        setting.clone()
                    } else {
                        format!("{section} / {setting}")
                    };
                }
                let names = Names {
                    title: &title,
                    section: &section,
                    stem,
                    path,
                };
                match &kinds[i] {
                    LineKind::Pairs(prefix, ps) => {
                        emit_pairs(para[i].number, prefix, ps, &names, &mut out)
                    }
                    LineKind::Keyed(label, ps) => {
                        emit_keyed(para[i].number, label, ps, &names, &mut out)
                    }
                    LineKind::Collapsed(segments) => {
                        collapsed::emit(para[i].number, segments, &names, &mut out)
                    }
                    _ => {}
                }
                i += 1;
            }
            LineKind::Data { .. } => {
                let mut j = i;
                while j < para.len() && matches!(kinds[j], LineKind::Data { .. } | LineKind::Rule) {
                    j += 1;
                }
                // The header: the text line right above (an underline may
                // sit between), or a line ruled over and under that heads
                // rows of words and rows of values below its rules.
                let above = ruled_off(para, &kinds, &texts, i).or_else(|| {
                    texts.last().copied().filter(|&t| {
                        (t + 1..i).all(|k| matches!(kinds[k], LineKind::Rule))
                            && header_like(para[t].text)
                    })
                });
                // A table broken by a line no rule reads keeps the header of
                // its first part when its rows have as many values.
                let values_of = |k: usize| match &kinds[k] {
                    LineKind::Data { values, .. } => group(values).len(),
                    _ => 0,
                };
                let above = above.or_else(|| {
                    last_header
                        .filter(|&(_, n)| (i..j).any(|k| values_of(k) == n))
                        .map(|(h, _)| h)
                });
                if let Some(h) = above {
                    last_header = Some((h, values_of(i)));
                }
                // Else the column names standing alone above, when each
                // row has one value per name and a label of its own.
                let carried = above_para.header.filter(|h| {
                    above.is_none() && (i..j).all(|k| labelled_with(&kinds[k], names_in(h)))
                });
                // Else the header of the last table above, when every row
                // has its rows' shape: as many values, of the same kinds
                // and units (a table resumed after an interruption).
                let resumed = above_para
                    .table
                    .filter(|c| {
                        above.is_none()
                            && carried.is_none()
                            && c.shape.len() >= 2
                            && (i..j).all(|k| match &kinds[k] {
                                LineKind::Data { values, .. } => {
                                    let shape = shape_of(values);
                                    shape == c.shape || measured_only(&shape, c)
                                }
                                _ => true,
                            })
                    })
                    .map(|c| c.header.as_str());
                let carried = carried.or(resumed);
                if let (Some(h), LineKind::Data { values, .. }) = (above, &kinds[i]) {
                    table_above = Some(Carried {
                        header: para[h].text.to_string(),
                        shape: shape_of(values),
                    });
                }
                // A title holds words: a line of values no rule reads is none.
                let titled = |t: &usize| {
                    tokens::tokens(para[*t].text)
                        .iter()
                        .filter(|x| x.is_value())
                        .count()
                        < 2
                };
                // A header written over two lines: the line over it stacks.
                let upper = above.and_then(|h| h.checked_sub(1)).filter(|&u| {
                    // Group words may trail dots (`tmpfs......`): no sentence's.
                    texts.contains(&u)
                        && ruled::dashed_title(para[u].text).is_none()
                        && para[u].text.split_whitespace().count() <= 24
                        && header::stacked(para[u].text, para[u + 1].text).is_some()
                });
                let top = upper.or(above);
                let title_at = match top {
                    Some(h) => texts
                        .iter()
                        .rev()
                        .find(|&&t| t < h)
                        .copied()
                        .filter(|&t| t + 1 == h)
                        .filter(titled),
                    None => texts.last().copied().filter(titled),
                };
                let title = title_at
                    .map(|t| clean(para[t].text))
                    .unwrap_or_else(|| heading.to_string());
                let rows: Vec<(u32, &[Tok], &[Tok])> = (i..j)
                    .filter_map(|k| match &kinds[k] {
                        LineKind::Data { label, values } => {
                            Some((para[k].number, label.as_slice(), values.as_slice()))
                        }
                        _ => None,
                    })
                    .collect();
                let header = above.map(|h| para[h].text).or(carried);
                // One row is a table only under a header, with two values.
                let lone = rows.len() == 1
                    && (header.is_none() || rows[0].2.iter().filter(|t| t.is_value()).count() < 2);
                if rows.is_empty() || lone {
                    texts.extend(i..j);
                    i = j;
                    continue;
                }
                let section = section_of(para, &texts, headings, &mut sections);
                // Underlined column by column: the dash groups cut header and rows.
                // The rows must keep to the columns: one value in a column at
                // most (an archive that collapsed the gaps breaks them).
                let rule = (i > 0)
                    .then(|| ruled::spans(para[i - 1].text))
                    .flatten()
                    .filter(|spans| {
                        (i..j).all(|k| {
                            ruled::cells(spans, para[k].text).iter().all(|c| {
                                c.iter()
                                    .filter(|t| matches!(t.kind, TokKind::Num | TokKind::Change))
                                    .count()
                                    <= 1
                            })
                        })
                    });
                if let Some(spans) = rule {
                    let mut top = i - 1;
                    while top > 0
                        && top + 4 > i
                        && matches!(kinds[top - 1], LineKind::Text)
                        && ruled::dashed_title(para[top - 1].text).is_none()
                    {
                        top -= 1;
                    }
                    let head: Vec<&str> = para[top..i - 1].iter().map(|l| l.text).collect();
                    let title = texts
                        .iter()
                        .rev()
                        .find(|&&t| t < top)
                        .map(|&t| clean(para[t].text))
                        .unwrap_or_else(|| heading.to_string());
                    let body: Vec<GLine> = (i..j)
                        .filter(|&k| matches!(kinds[k], LineKind::Data { .. }))
                        .map(|k| para[k])
                        .collect();
                    let names = Names {
                        title: &title,
                        section: &section,
                        stem,
                        path,
                    };
                    let before = out.len();
                    read_ruled(&spans, &head, &body, &names, &mut out);
                    super::titles::state(&title, &mut out[before..]);
                    ruled_lines.extend(out[before..].iter().map(|o| o.line));
                    texts.clear();
                    sections = names::SectionMemo::default();
                    i = j;
                    continue;
                }
                let table = Grid {
                    legend,
                    header,
                    upper: upper.map(|u| para[u].text),
                    title: &title,
                    section: &section,
                    stem,
                    path,
                };
                let before = out.len();
                table.read(&rows, &mut out);
                // What a caption states of the values: its unit and
                // direction (the rows are named by their own labels).
                super::titles::state(&title, &mut out[before..]);
                texts.clear();
                sections = names::SectionMemo::default();
                i = j;
            }
        }
    }
    Read {
        observations: out,
        ruled_lines,
        table: table_above,
    }
}

/// Makes a header of a line of values that has no row label and is
/// underlined above rows that have one (`| 16384 | 4096 |` over a rule
/// over `CPU A | 67% | 59% |`): message sizes, thread counts or kernel
/// versions head the columns though they are numbers. Whole numbers alone
/// on the first line of a table head it without a rule too
/// ([`bare_header`]).
fn numeric_headers(kinds: &mut [LineKind]) {
    let labelled = |k: &LineKind| match k {
        LineKind::Data { label, .. } => label
            .iter()
            .any(|t| t.text.chars().any(char::is_alphabetic)),
        _ => false,
    };
    for i in 0..kinds.len().saturating_sub(2) {
        let unlabelled = matches!(&kinds[i], LineKind::Data { .. }) && !labelled(&kinds[i]);
        // Settings heading the columns (`BIO | bs=4k | bs=8k`) read as
        // `key=value` pairs: underlined over rows, they are a header.
        let settings = matches!(&kinds[i], LineKind::Pairs(..) | LineKind::Keyed(..));
        let rows = matches!(&kinds[i + 2], LineKind::Data { .. });
        // Names with a number in them (`clat mean    clat 99%`): fewer
        // values than the rows under the rule, and words running over the
        // value columns of those rows, whose labels come before their
        // values.
        let over_values = match (&kinds[i], &kinds[i + 2]) {
            (
                LineKind::Data { label, values: own },
                LineKind::Data {
                    label: row_label,
                    values,
                },
            ) => {
                labelled(&kinds[i])
                    && labelled(&kinds[i + 2])
                    && group(own).len() < group(values).len()
                    && label
                        .last()
                        .zip(values.first())
                        .is_some_and(|(l, v)| l.end > v.col)
                    && row_label
                        .last()
                        .zip(values.first())
                        .is_some_and(|(l, v)| l.end < v.col)
            }
            _ => false,
        };
        if matches!(kinds[i + 1], LineKind::Rule)
            && ((unlabelled && labelled(&kinds[i + 2]))
                || (settings && rows)
                || over_values
                || axis_header::is_axis(kinds, i))
        {
            kinds[i] = LineKind::Text;
        }
    }
    for i in 0..kinds.len() {
        if bare_header::is_bare_header(kinds, i) {
            kinds[i] = LineKind::Text;
        }
    }
}

/// A header ruled over and under (`-----` / `mm-unstable  v5 of this
/// series` / `-----`) whose rows start with rows of words: the line of
/// words right over the rows of values (`zswap compressor   zstd   zstd`)
/// is one of its rows, no header. `texts`: the text lines since the last
/// table; `i`: the first row of values. One to three lines of words part
/// the header's lower rule from the values.
fn ruled_off(para: &[GLine], kinds: &[LineKind], texts: &[usize], i: usize) -> Option<usize> {
    let h = texts.iter().rev().copied().find(|&h| {
        h >= 1
            && h + 2 < i
            && i - h <= 5
            && matches!(kinds[h - 1], LineKind::Rule)
            && matches!(kinds[h + 1], LineKind::Rule)
    })?;
    // A line underlined right over the values is their header itself
    // (a title ruled off above it): only rows of words may part them.
    ((h + 2..i).all(|k| matches!(kinds[k], LineKind::Text)) && header_like(para[h].text))
        .then_some(h)
}

/// The number of names in a line of column names standing alone.
fn names_in(header: &str) -> usize {
    header.split_whitespace().count()
}

/// Whether `kind` is a row whose label has a word, or which has no label
/// (the names then head every column), and which holds `n` values (a
/// change counts with the value before it).
fn labelled_with(kind: &LineKind, n: usize) -> bool {
    match kind {
        LineKind::Data { label, values } => {
            (label.is_empty()
                || label
                    .iter()
                    .any(|t| t.text.chars().any(char::is_alphabetic)))
                && group(values)
                    .iter()
                    .filter(|c| c.0.kind != TokKind::Change)
                    .count()
                    == n
        }
        LineKind::Rule => true,
        _ => false,
    }
}

/// What [`read`] found in a paragraph.
pub struct Read {
    pub observations: Vec<Observation>,
    /// Lines of tables underlined column by column: their reading here is
    /// surer than any layout rule's, and replaces it.
    pub ruled_lines: Vec<u32>,
    /// The last table of the paragraph read under a header of its own.
    pub table: Option<Carried>,
}

/// Whether a line of `para` underlines columns one by one.
pub fn has_ruled_header(para: &[GLine]) -> bool {
    para.iter().any(|l| {
        // Each pattern holds a `-`: one scan rules most lines out.
        memchr::memchr(b'-', l.text.as_bytes()).is_some()
            && ["- -", "-|-", "-+-"].iter().any(|p| l.text.contains(p))
            && ruled::spans(l.text).is_some()
    })
}

#[cfg(test)]
mod tests;
