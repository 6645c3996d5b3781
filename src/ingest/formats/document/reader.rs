//! The reading pass over a document: paragraphs, headings and the label
//! and context they give each block, and the dispatch of every block to the
//! table or sample readers.

use super::grid;
use super::labels::{self, Heading};
use super::lines::{self, split_cells, BoxCells, Classifier, Kind};
use super::table::{self, BlockNames, Memo};
use crate::error::Result;
use crate::ingest::{Line, Source};
use crate::model::{Observation, SmolStr, Stat};
use std::collections::HashMap;
use std::ops::Range;

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
        Ok(self.out)
    }

    /// Reads one paragraph by the layout rules, then gives the lines with
    /// numbers they left unread (or all of them, when a rule found the
    /// paragraph malformed) to the general grid reader.
    fn paragraph(&mut self, para: &[&Cl<'a>]) -> Result<()> {
        let start = self.out.len();
        let pending = self.pending.len();
        if let Err(e) = self.paragraph_by_rules(para) {
            // A ragged table in a mail is read by the grid reader; a file
            // of tables alone is malformed, and the error says where.
            if !self.prose {
                return Err(e);
            }
            self.out.truncate(start);
        }
        self.grid_fallback(para, start, pending);
        Ok(())
    }

    /// The grid reader on the lines of `para` holding a digit that no
    /// observation since `start` came from. A prose paragraph it reads is
    /// no heading after all: the headings it pushed (beyond `pending`) go.
    fn grid_fallback(&mut self, para: &[&Cl<'a>], start: usize, pending: usize) {
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
            Some(p) if !p.is_empty() => p.iter().collect(),
            _ => self.context.iter().chain(self.label.iter()).collect(),
        };
        let headings: Vec<String> = above
            .into_iter()
            .filter(|h| !h.prose)
            .map(|h| h.text.clone())
            .collect();
        let headings: Vec<&str> = headings.iter().map(String::as_str).collect();
        let got = grid::read(&lines, &headings, file_stem(&self.src.path), &self.src.path);
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
    fn paragraph_by_rules(&mut self, para: &[&Cl<'a>]) -> Result<()> {
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
                    let header =
                        (next_is_row && header_like(&para[j - 1].line.text)).then(|| para[j - 1]);
                    // A header split over two lines: `baseline  patched` above
                    // `mean  sd  mean  sd`.
                    let upper = header
                        .filter(|_| j >= i + 2)
                        .map(|_| para[j - 2])
                        .filter(|u| {
                            header_like(&u.line.text) && split_cells(&u.line.text).len() >= 2
                        });
                    let heading_end =
                        j - usize::from(header.is_some()) - usize::from(upper.is_some());
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
                    while j < para.len() && matches!(para[j].kind, Kind::Border | Kind::BoxRow(_)) {
                        j += 1;
                    }
                    self.boxed_table(&para[i..j], n_for_table.take())?;
                    i = j;
                }
                Kind::Pairs(_) | Kind::Time(..) | Kind::Carets(_) => {
                    let mut j = i;
                    while j < para.len()
                        && matches!(
                            para[j].kind,
                            Kind::Pairs(_) | Kind::Time(..) | Kind::Carets(_)
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
    fn text_headings(&mut self, run: &[&Cl]) {
        let texts: Vec<&Cl> = run
            .iter()
            .copied()
            .filter(|c| {
                !labels::is_noise(&c.line.text)
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
    fn resolve(&mut self, depth: u8) -> BlockNames {
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

    /// A table of aligned columns under `head` (zero, one or two header
    /// lines, the last one nearest the rows).
    fn aligned_table(&mut self, head: &[&Cl], rows: &[&Cl], n: Option<(f64, u32)>) -> Result<()> {
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

    fn boxed_table(&mut self, part: &[&Cl<'a>], n: Option<(f64, u32)>) -> Result<()> {
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
    fn is_box_header(&mut self, cells: BoxCells<'a>) -> bool {
        if self.box_headers.find(|h| *h == cells).is_some() {
            return true;
        }
        let header = !cells.iter().any(lines::is_value);
        if header {
            self.box_headers.insert(cells, ());
        }
        header
    }

    /// `key: value` lines, bash `time` lines and caret unit marks.
    fn samples(&mut self, part: &[&Cl], table_follows: bool, n_for_table: &mut Option<(f64, u32)>) {
        let depth = part[0].line.quote_depth;
        let names = self.resolve(depth);
        let path = self.src.path.clone();
        let start = self.out.len();
        let mut multi_keys: Option<Vec<String>> = None;
        let mut caret_units: HashMap<String, String> = HashMap::new();
        let mut prev_pairs: Option<&Vec<lines::Pair>> = None;
        let mut first_metric: Option<(String, String)> = None;
        for c in part {
            let number = c.line.number;
            let sample = |metric: &str, unit: &str, value: f64| {
                let mut o =
                    Observation::new(names.benchmark.clone(), metric, unit, Stat::Sample, value)
                        .at_line(number)
                        .with_variant(names.variant.clone());
                o.source = path.as_str().into();
                o
            };
            match &c.kind {
                Kind::Time(metric, v) => {
                    first_metric.get_or_insert_with(|| (metric.clone(), "s".into()));
                    self.out.push(sample(metric, "s", *v));
                }
                Kind::Pairs(ps) => {
                    let stat = (ps.len() == 1)
                        .then(|| ps[0].key.parse::<Stat>().ok())
                        .flatten();
                    match stat {
                        // A lone `CPU family: 6` is an attribute, not a run.
                        None if ps.len() == 1 && !lines::is_measurement(&ps[0]) => {}
                        Some(Stat::Sample) | None => {
                            let keys: Vec<String> = ps
                                .iter()
                                .filter(|p| !p.key.starts_with('>'))
                                .map(|p| p.key.to_lowercase())
                                .collect();
                            if ps.len() > 1 {
                                multi_keys.get_or_insert(keys);
                            }
                            for p in ps.iter().filter(|p| !p.key.starts_with('>')) {
                                let unit = if p.unit.is_empty() && p.key.ends_with("/s") {
                                    "/s"
                                } else {
                                    &p.unit
                                };
                                let metric = p.key.to_lowercase();
                                first_metric
                                    .get_or_insert_with(|| (metric.clone(), unit.to_string()));
                                self.out.push(sample(&metric, unit, p.value));
                            }
                            prev_pairs = Some(ps);
                        }
                        Some(Stat::N) if table_follows => {
                            *n_for_table = Some((ps[0].value, number))
                        }
                        Some(stat) => self.stated(stat, &ps[0], number, &names),
                    }
                }
                Kind::Carets(marks) => {
                    if let Some(prev) = prev_pairs {
                        for (a, b, unit) in marks {
                            if let Some(p) = prev.iter().find(|p| p.span.0 < *b && *a < p.span.1) {
                                caret_units.insert(p.key.to_lowercase(), unit.clone());
                            }
                        }
                    }
                }
                _ => {}
            }
            // A summary line may follow its samples within the paragraph.
            if let (Some((metric, unit)), false) = (
                &first_metric,
                self.last.as_ref().is_some_and(|l| l.start == start),
            ) {
                self.last = Some(LastSamples {
                    label_seq: self.label_seq,
                    start,
                    benchmark: names.benchmark.clone(),
                    variant: names.variant.clone(),
                    metric: metric.clone(),
                    unit: unit.clone(),
                });
            }
        }
        for o in &mut self.out[start..] {
            if o.unit.is_empty() {
                if let Some(u) = caret_units.get(o.metric.as_str()) {
                    o.unit = u.into();
                }
            }
        }
        if let Some(keys) = multi_keys {
            let label = self
                .label
                .as_ref()
                .map(|h| h.text.clone())
                .unwrap_or_default();
            self.blocks.push(SampleBlock {
                range: start..self.out.len(),
                keys,
                label,
            });
        }
    }

    /// A stated summary (`avg : 33.94s`): of the samples above it under the
    /// same label, or of the block itself when there are none.
    fn stated(&mut self, stat: Stat, p: &lines::Pair, number: u32, names: &BlockNames) {
        let (benchmark, variant, metric, unit) = match &self.last {
            Some(l) if l.label_seq == self.label_seq => {
                let unit = if p.unit.is_empty() {
                    l.unit.clone()
                } else {
                    p.unit.clone()
                };
                (
                    l.benchmark.clone(),
                    l.variant.clone(),
                    l.metric.clone(),
                    unit,
                )
            }
            _ => (
                names.benchmark.clone(),
                names.variant.clone(),
                table::metric_from_unit(&p.unit),
                p.unit.clone(),
            ),
        };
        let unit = if stat == Stat::N { String::new() } else { unit };
        let mut o = Observation::new(benchmark, metric, &unit, stat, p.value)
            .at_line(number)
            .with_variant(variant);
        o.source = self.src.path.as_str().into();
        self.out.push(o);
    }

    /// Consecutive blocks of the same multi-key sample lines under different
    /// labels are one benchmark run on several systems: the labels become
    /// variants and the first key names the benchmark (`pert/s` → `pert`).
    /// Units one block shows (a caret mark, a suffix) hold for all of them.
    fn group_sample_blocks(&mut self) {
        let mut i = 0;
        while i < self.blocks.len() {
            let mut j = i + 1;
            while j < self.blocks.len() && self.blocks[j].keys == self.blocks[i].keys {
                j += 1;
            }
            let group = &self.blocks[i..j];
            let mut units: HashMap<String, String> = HashMap::new();
            for b in group {
                for o in &self.out[b.range.clone()] {
                    if !o.unit.is_empty() {
                        units
                            .entry(o.metric.to_string())
                            .or_insert_with(|| o.unit.to_string());
                    }
                }
            }
            // min/max/avg of one line share a unit.
            let stat_units: Vec<&String> = units
                .iter()
                .filter(|(k, _)| is_stat_key(k))
                .map(|(_, u)| u)
                .collect();
            let shared = stat_units
                .first()
                .filter(|u| stat_units.iter().all(|v| v == *u))
                .map(|u| (*u).clone());
            let distinct_labels = {
                let mut l: Vec<&str> = group.iter().map(|b| b.label.as_str()).collect();
                l.dedup();
                l.len()
            };
            let bench = group[0].keys.first().map(|k| key_stem(k));
            for b in group {
                for o in &mut self.out[b.range.clone()] {
                    if o.unit.is_empty() {
                        if let Some(u) = units.get(o.metric.as_str()) {
                            o.unit = u.into();
                        } else if let (true, Some(u)) = (is_stat_key(&o.metric), &shared) {
                            o.unit = u.into();
                        }
                    }
                    if group.len() > 1 && distinct_labels > 1 {
                        o.variant = b.label.as_str().into();
                        if let Some(bench) = &bench {
                            o.benchmark = bench.into();
                        }
                    }
                }
            }
            i = j;
        }
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
        k.parse::<Stat>(),
        Ok(Stat::Min | Stat::Max | Stat::Mean | Stat::Median | Stat::Percentile(_))
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
            let rows_only = p.iter().all(|c| matches!(c.kind, Kind::Row(_)));
            let gap_ok = first.line.number <= last.line.number + 2
                && first.line.quote_depth == last.line.quote_depth;
            let prev_is_table = matches!(last.kind, Kind::Row(_))
                || (prev.len() == 1
                    && matches!(last.kind, Kind::Text)
                    && last.line.text.starts_with([' ', '\t'])
                    && header_like(&last.line.text));
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
