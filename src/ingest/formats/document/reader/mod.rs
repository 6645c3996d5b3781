//! The reading pass over a document: paragraphs, headings and the label
//! and context they give each block, and the dispatch of every block to the
//! table or sample readers.

use super::labels::{self, Heading};
use super::lines::{split_cells, BoxCells, Classifier, Kind};
use super::table::{BlockNames, Memo};
use crate::error::Result;
use crate::ingest::{Line, Source};
use crate::model::{Observation, SmolStr, Stat};
use std::ops::Range;

mod paragraph;
mod samples;
mod siblings;
mod tables;

/// Reads every block of `src`.
pub fn read(src: &Source) -> Result<Vec<Observation>> {
    Reader::new(src).run()
}

/// A classified line.
struct Cl<'a> {
    line: &'a Line,
    kind: Kind<'a>,
}

/// Multi-pair sample lines read under one label (`pert/s: … min: … avg: …`).
struct SampleBlock {
    range: std::ops::Range<usize>,
    keys: Vec<String>,
    label: String,
}

/// The last samples read, so that `avg :`/`std. dev. :` lines below them
/// state their summary.
#[derive(Clone)]
struct LastSamples {
    label_seq: u32,
    /// Where in the output the paragraph of these samples starts.
    start: usize,
    benchmark: SmolStr,
    variant: SmolStr,
    metric: String,
    unit: String,
}

struct Reader<'a> {
    src: &'a Source,
    out: Vec<Observation>,
    pending: Vec<Heading>,
    label: Option<Heading>,
    context: Option<Heading>,
    label_seq: u32,
    /// Blocks labelled by running prose so far, for their `table N` names.
    prose_tables: u32,
    last: Option<LastSamples>,
    blocks: Vec<SampleBlock>,
    memo: Memo,
    /// The names of the last block and the `label_seq` they were made at.
    names: Option<(u32, BlockNames)>,
    /// Labels of prose paragraphs already read, by their lines' texts:
    /// a document repeats its headings (`Results on machine 3:`) above
    /// table after table.
    paragraph_labels: Recent<Vec<&'a str>, Option<(String, bool)>>,
    /// Block names already made, by (label, context) text.
    block_names: Recent<(String, String), BlockNames>,
    /// Boxed rows known to hold no value (header rows, which documents
    /// repeat above table after table).
    box_headers: Recent<BoxCells<'a>, ()>,
    /// Whether the document holds written sentences (a mail, not a table file).
    prose: bool,
    /// The names of the last legend paragraph (`vanilla  3.0-rc6` over
    /// `patched  patches 1-7`), for a headerless table of as many columns.
    legend: Option<Vec<String>>,
    /// The last line of column names standing alone in its paragraph,
    /// until a paragraph of sentences: it heads the headerless tables of
    /// the sections below it.
    column_names: Option<&'a str>,
    /// The last table the grid reader read under a header of its own:
    /// its header heads rows of the same shape resumed below it.
    table_above: Option<super::grid::Carried>,
}

/// The last few answers of a pure function of a key, looked up by a linear
/// search: documents repeat a handful of headings, and comparing a short
/// text costs far less than reading it again.
struct Recent<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Recent<K, V> {
    /// Entries kept: enough for the headings of any real document; one
    /// with more distinct ones is still read right, only slower.
    const MAX: usize = 32;

    fn new() -> Self {
        Recent {
            entries: Vec::new(),
        }
    }

    fn find(&self, matches: impl Fn(&K) -> bool) -> Option<&V> {
        self.entries
            .iter()
            .find(|(k, _)| matches(k))
            .map(|(_, v)| v)
    }

    fn insert(&mut self, key: K, value: V) {
        if self.entries.len() < Self::MAX {
            self.entries.push((key, value));
        }
    }
}

impl<'a> Reader<'a> {
    fn new(src: &'a Source) -> Self {
        Reader {
            src,
            out: Vec::new(),
            pending: Vec::new(),
            label: None,
            context: None,
            label_seq: 0,
            prose_tables: 0,
            last: None,
            blocks: Vec::new(),
            memo: Memo::default(),
            names: None,
            paragraph_labels: Recent::new(),
            block_names: Recent::new(),
            box_headers: Recent::new(),
            prose: super::mixed::is_prose_document(src),
            legend: None,
            column_names: None,
            table_above: None,
        }
    }

    fn run(mut self) -> Result<Vec<Observation>> {
        let mut classifier = Classifier::default();
        let classified: Vec<Cl> = self
            .src
            .lines
            .iter()
            .map(|line| Cl {
                line,
                kind: classifier.classify(&line.text),
            })
            .collect();
        // Room for about one value per cell: grown by doubling, the rows of a
        // large document were copied over and over (the estimate changes
        // no row).
        self.out.reserve(cells_estimate(&classified));
        let (lines, paras) = paragraphs(&classified);
        for para in paras {
            self.paragraph(&lines[para])?;
        }
        self.group_sample_blocks();
        siblings::sibling_headings(&mut self.out, file_stem(&self.src.path));
        siblings::run_list_headings(&mut self.out, &self.src.lines, file_stem(&self.src.path));
        Ok(self.out)
    }
}

/// The names a block's label and context give it: a label that names a
/// build is the variant and the context the benchmark, any other label the
/// benchmark and the context the variant; the file names a benchmark that
/// nothing else names.
fn block_names(label: &str, context: &str, path: &str) -> BlockNames {
    let (mut benchmark, variant) = if labels::is_variant_like(label) {
        (labels::benchmark_name(context), label)
    } else {
        (labels::benchmark_name(label), context)
    };
    if benchmark.is_empty() {
        benchmark = file_stem(path);
    }
    BlockNames {
        benchmark: benchmark.into(),
        variant: variant.into(),
    }
}

fn is_stat_key(k: &str) -> bool {
    matches!(
        Stat::parse_name(k),
        Some(Stat::Min | Stat::Max | Stat::Mean | Stat::Median | Stat::Percentile(_))
    )
}

fn key_stem(k: &str) -> String {
    k.trim_end_matches("/s")
        .trim_end_matches("/sec")
        .to_string()
}

fn file_stem(path: &str) -> &str {
    std::path::Path::new(path)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or(path)
}

/// About how many values the classified lines hold: a cell of each table
/// row but its label, a pair of each sample line. Header rows count too,
/// spreads in a cell do not: an estimate for the capacity of the output.
fn cells_estimate(lines: &[Cl]) -> usize {
    // The rows of one boxed table have the same cells: they are counted in
    // its first row only.
    let mut box_cells = None;
    lines
        .iter()
        .map(|c| match &c.kind {
            Kind::BoxRow(cells) => *box_cells.get_or_insert_with(|| cells.count() - 1),
            Kind::Border => 0,
            kind => {
                box_cells = None;
                match kind {
                    Kind::Row(r) => r.cells.len(),
                    Kind::Pairs(ps) => ps.len(),
                    Kind::Time(..) => 1,
                    _ => 0,
                }
            }
        })
        .sum()
}

/// A prose line that can head a column table: cells apart by gaps, or indented.
fn header_like(text: &str) -> bool {
    let t = text.trim_end();
    if t.ends_with(':') || labels::is_noise(t) {
        return false;
    }
    let cells = split_cells(t);
    let indented = t.starts_with([' ', '\t']);
    (cells.len() >= 2 || indented)
        && cells.len() <= 16
        && cells.iter().all(|c| c.text.split(' ').count() <= 6)
}

/// Whether a paragraph ends in a column header that a blank line parts
/// from its rows: a last line of three or more cells apart by gaps
/// (`pkt_size before opt   p 1     p 2+3`), or such a line over a rule of
/// dashes or equals signs (`----------`). A line of prose has one cell, a
/// legend line (`vanilla<tab>3.0-rc6`) two.
fn ends_in_header(para: &[&Cl]) -> bool {
    let header = |c: &Cl| {
        matches!(c.kind, Kind::Text)
            && split_cells(c.line.text.trim()).len() >= 3
            && header_like(&c.line.text)
    };
    match para {
        [.., above, last] if is_rule_line(&last.line.text) => header(above),
        [.., last] => header(last),
        [] => false,
    }
}

/// A line of dashes or equals signs alone (`-------`, `=== ===`).
fn is_rule_line(text: &str) -> bool {
    let t = text.trim();
    t.len() >= 3 && t.chars().all(|c| matches!(c, '-' | '=' | ' ' | '+'))
}

/// Splits classified lines into paragraphs (non-blank runs at one quote
/// depth), then joins a column table that blank lines cut into pieces: a
/// lone indented header line, or rows, followed after one blank line by more
/// rows. The paragraphs are ranges of the non-blank lines, which come in
/// order: one list for the document, not one per paragraph.
fn paragraphs<'c, 'a>(lines: &'c [Cl<'a>]) -> (Vec<&'c Cl<'a>>, Vec<Range<usize>>) {
    let mut kept: Vec<&Cl> = Vec::with_capacity(lines.len());
    let mut paras: Vec<Range<usize>> = Vec::new();
    let mut start = 0;
    for c in lines {
        let depth_change = kept[start..]
            .last()
            .is_some_and(|p| p.line.quote_depth != c.line.quote_depth);
        if matches!(c.kind, Kind::Blank) || depth_change {
            if kept.len() > start {
                paras.push(start..kept.len());
                start = kept.len();
            }
            if matches!(c.kind, Kind::Blank) {
                continue;
            }
        }
        kept.push(c);
    }
    if kept.len() > start {
        paras.push(start..kept.len());
    }
    let mut merged: Vec<Range<usize>> = Vec::with_capacity(paras.len());
    for p in paras {
        let joins = merged.last().is_some_and(|prev: &Range<usize>| {
            let prev = &kept[prev.clone()];
            let p = &kept[p.clone()];
            let (Some(last), Some(first)) = (prev.last(), p.first()) else {
                return false;
            };
            // Under a header parted from them, rows the layout rules do
            // not see as such (a name after the values) count too.
            let header_above = ends_in_header(prev);
            // So do rules under the rows (`=========` over a total).
            let rows_only = p.iter().any(|c| !is_rule_line(&c.line.text))
                && p.iter().all(|c| {
                    matches!(c.kind, Kind::Row(_))
                        || (header_above
                            && matches!(c.kind, Kind::Text)
                            && (super::grid::is_data_row(&c.line.text)
                                || is_rule_line(&c.line.text)))
                });
            let gap_ok = first.line.number <= last.line.number + 2
                && first.line.quote_depth == last.line.quote_depth;
            let prev_is_table = matches!(last.kind, Kind::Row(_))
                || (prev.len() == 1
                    && matches!(last.kind, Kind::Text)
                    && last.line.text.starts_with([' ', '\t'])
                    && header_like(&last.line.text))
                || header_above;
            rows_only && gap_ok && prev_is_table
        });
        match merged.last_mut() {
            // Paragraphs are adjacent in `kept`: joining widens the range.
            Some(prev) if joins => prev.end = p.end,
            _ => merged.push(p),
        }
    }
    (kept, merged)
}
