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

mod header;
mod ruled;
mod tokens;

use super::labels;
use crate::model::{Observation, SmolStr, Stat};
use tokens::{merge_groups, Tok, TokKind};

/// One line of a paragraph.
#[derive(Debug, Clone, Copy)]
pub struct GLine<'a> {
    pub number: u32,
    pub text: &'a str,
}

/// What a line is to the grid reader.
enum LineKind {
    /// Dashes, equals signs or dots only: an underline or separator.
    Rule,
    /// Label words, then values.
    Data {
        label: Vec<Tok>,
        values: Vec<Tok>,
    },
    /// `key=value` / `key: value` pairs: (key, value token).
    Pairs(String, Vec<(String, Tok)>),
    /// Values among words, each keyed by the words before it; the line's label.
    Keyed(String, Vec<(String, Tok)>),
    Text,
}

/// Longest row label, in words, that is still a label and not prose.
const MAX_LABEL_WORDS: usize = 10;

fn kind(text: &str) -> LineKind {
    let t = text.trim();
    if t.len() >= 3
        && t.chars()
            .all(|c| matches!(c, '-' | '=' | '.' | ' ' | '+' | '|' | '_' | '~'))
    {
        return LineKind::Rule;
    }
    let toks = tokens::tokens(text);
    if let Some(p) = pairs(text) {
        return p;
    }
    let Some(last) = toks.last() else {
        return LineKind::Text;
    };
    if !last.in_values() {
        return trailing_label(&toks).unwrap_or_else(|| keyed(toks));
    }
    let split = toks
        .iter()
        .rposition(|t| !t.in_values())
        .map_or(0, |i| i + 1);
    let (label, values) = toks.split_at(split);
    if !values.iter().any(Tok::is_value) {
        return LineKind::Text;
    }
    if label.len() > MAX_LABEL_WORDS || label.iter().any(Tok::is_value) && label.len() > 4 {
        // Values among many words: a list line, not a row.
        return keyed(toks);
    }
    // A sentence that happens to end in a number is no row.
    if label.last().is_some_and(|t| t.text.ends_with(['.', ','])) && label.len() > 3 {
        return LineKind::Text;
    }
    LineKind::Data {
        label: label.to_vec(),
        values: values.to_vec(),
    }
}

/// A row whose label follows its values (`347258 ~ 0%  -18.2%  284195 ~ 0%
/// TOTAL softirqs.RCU`).
fn trailing_label(toks: &[Tok]) -> Option<LineKind> {
    let first_word = toks.iter().position(|t| !t.in_values())?;
    let (values, label) = toks.split_at(first_word);
    (first_word > 0
        && values.iter().any(Tok::is_value)
        && label.iter().all(|t| !t.in_values())
        && label.len() <= MAX_LABEL_WORDS)
        .then(|| LineKind::Data {
            label: label.to_vec(),
            values: values.to_vec(),
        })
}

/// The last resort for a line of values among words (`Iter 0 (325.719us):
/// hits 5.105M/s, drops 0.000M/s`): each value keyed by the words right
/// before it. The line's leading words (and a count right after them) are
/// its label. A line of prose is none: it needs two values, few words
/// between them, and no full stop at its end.
fn keyed(toks: Vec<Tok>) -> LineKind {
    let values = toks.iter().filter(|t| t.is_value()).count();
    let words = toks.len() - values;
    let last = toks.last().map_or("", |t| t.text.as_str());
    if values < 2 || words > values * 4 || last.ends_with('.') {
        return LineKind::Text;
    }
    let mut label: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < toks.len() && toks[i].kind == TokKind::Word {
        label.push(&toks[i].text);
        i += 1;
    }
    if i < toks.len() && toks[i].int_digits > 0 && toks.get(i + 1).is_some() {
        label.push(&toks[i].text);
        i += 1;
    }
    let label = label.join(" ").trim_end_matches(':').to_string();
    let mut out = Vec::new();
    let mut key: Vec<&str> = Vec::new();
    let mut last_key = String::new();
    for t in &toks[i..] {
        if t.is_value() {
            if !key.is_empty() {
                last_key = join_key(&key, "");
                key.clear();
            }
            out.push((last_key.clone(), t.clone()));
        } else if t.kind == TokKind::Word {
            key.push(&t.text);
        }
    }
    LineKind::Keyed(label, out)
}

/// The pairs of a `key=value, key: value` line, when every value of the
/// line is one; words before the first key are the line's prefix
/// (`slat (usec): min=2, max=196` → prefix `slat (usec)`).
fn pairs(text: &str) -> Option<LineKind> {
    if !text.contains(['=', ':']) {
        return None;
    }
    let words = tokens::split(text);
    let mut pending: Vec<&str> = Vec::new();
    let mut prefix = String::new();
    let mut out: Vec<(String, Tok)> = Vec::new();
    let mut key: Option<String> = None;
    for &(col, end, w) in &words {
        if let Some(k) = key.take() {
            let t = value_token(w, col, end)?;
            out.push((k, t));
            continue;
        }
        if let Some((k, v)) = w.split_once('=') {
            let k = join_key(&pending, k);
            pending.clear();
            if v.is_empty() {
                key = Some(k);
            } else {
                out.push((k, value_token(v, col, end)?));
            }
            continue;
        }
        if let Some(k) = w.strip_suffix(':') {
            let k = join_key(&pending, k);
            pending.clear();
            let next = words.iter().find(|x| x.0 > col);
            if next.is_some_and(|n| value_token(n.2, n.0, n.1).is_some()) {
                key = Some(k);
            } else if out.is_empty() {
                prefix = k;
            } else {
                return None;
            }
            continue;
        }
        if w == "," || w == ";" {
            continue;
        }
        match out.last_mut() {
            // A unit after a pair's value (`bw=618740 B/s`).
            Some((_, t))
                if pending.is_empty()
                    && t.unit.is_empty()
                    && super::lines::known_unit(w.trim_end_matches(',')) =>
            {
                t.unit = w.trim_end_matches(',').to_string();
            }
            _ => pending.push(w),
        }
    }
    // A lone `key: value` is the layout rules' to judge (an attribute or a
    // sample line); pairs with `=` or several on a line are a list.
    if out.is_empty() || key.is_some() || (out.len() < 2 && !text.contains('=')) {
        return None;
    }
    // Trailing words are a remark (`(lowest).`) only when short.
    if pending.len() > 2 {
        return None;
    }
    Some(LineKind::Pairs(prefix, out))
}

fn join_key(pending: &[&str], k: &str) -> String {
    let mut s = pending.join(" ");
    if !k.is_empty() {
        if !s.is_empty() {
            s.push(' ');
        }
        s.push_str(k);
    }
    s.trim_matches([',', ';', ' ']).to_string()
}

fn value_token(w: &str, col: usize, end: usize) -> Option<Tok> {
    let t = tokens::tokens(w.trim_end_matches([',', ';']));
    match t.as_slice() {
        [t] if t.is_value() => Some(Tok {
            col,
            end,
            ..t.clone()
        }),
        _ => None,
    }
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
                LineKind::Data { .. } | LineKind::Pairs(..) | LineKind::Keyed(..)
            )
        })
        .nth(1)
        .is_some()
}

/// Reads the grids and lists of a paragraph. `headings`: the headings
/// above it, the nearest last; `stem`: the benchmark name of last resort.
pub fn read(para: &[GLine], headings: &[&str], stem: &str, path: &str) -> Read {
    let heading = headings.last().copied().unwrap_or("");
    let mut ruled_lines: Vec<u32> = Vec::new();
    let mut last_header: Option<(usize, usize)> = None;
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
    let mut out = Vec::new();
    let mut texts: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < para.len() {
        match &kinds[i] {
            LineKind::Text => {
                texts.push(i);
                i += 1;
            }
            LineKind::Rule => i += 1,
            LineKind::Pairs(..) | LineKind::Keyed(..) => {
                let title = texts
                    .last()
                    .map(|&t| clean(para[t].text))
                    .unwrap_or_else(|| heading.to_string());
                let section = section_of(para, &texts, headings);
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
                    _ => {}
                }
                i += 1;
            }
            LineKind::Data { .. } => {
                let mut j = i;
                while j < para.len() && matches!(kinds[j], LineKind::Data { .. } | LineKind::Rule) {
                    j += 1;
                }
                // The header: the text line right above (an underline may sit between).
                let above = texts.last().copied().filter(|&t| {
                    (t + 1..i).all(|k| matches!(kinds[k], LineKind::Rule))
                        && header_like(para[t].text)
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
                // A title holds words: a line of values no rule reads is none.
                let titled = |t: &usize| {
                    tokens::tokens(para[*t].text)
                        .iter()
                        .filter(|x| x.is_value())
                        .count()
                        < 2
                };
                let title_at = match above {
                    Some(h) => texts
                        .iter()
                        .rev()
                        .nth(1)
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
                let header = above.map(|h| para[h].text);
                // One row is a table only under a header, with two values.
                let lone = rows.len() == 1
                    && (header.is_none() || rows[0].2.iter().filter(|t| t.is_value()).count() < 2);
                if rows.is_empty() || lone {
                    texts.extend(i..j);
                    i = j;
                    continue;
                }
                let section = section_of(para, &texts, headings);
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
                    while top > 0 && top + 4 > i && matches!(kinds[top - 1], LineKind::Text) {
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
                    ruled_lines.extend(out[before..].iter().map(|o| o.line));
                    texts.clear();
                    i = j;
                    continue;
                }
                let table = Grid {
                    header,
                    title: &title,
                    section: &section,
                    stem,
                    path,
                };
                table.read(&rows, &mut out);
                texts.clear();
                i = j;
            }
        }
    }
    Read {
        observations: out,
        ruled_lines,
    }
}

/// What [`read`] found in a paragraph.
pub struct Read {
    pub observations: Vec<Observation>,
    /// Lines of tables underlined column by column: their reading here is
    /// surer than any layout rule's, and replaces it.
    pub ruled_lines: Vec<u32>,
}

/// Whether a line of `para` underlines columns one by one.
pub fn has_ruled_header(para: &[GLine]) -> bool {
    para.iter()
        .any(|l| l.text.contains("- -") && ruled::spans(l.text).is_some())
}

/// The rows of a table underlined column by column.
fn read_ruled(
    spans: &[(usize, usize)],
    head: &[&str],
    body: &[GLine],
    n: &Names,
    out: &mut Vec<Observation>,
) {
    let labels = ruled::header_labels(spans, head);
    let rows: Vec<(u32, Vec<Vec<Tok>>)> = body
        .iter()
        .map(|l| (l.number, ruled::cells(spans, l.text)))
        .collect();
    let is_value_cell = |c: &[Tok]| {
        c.first()
            .is_some_and(|t| matches!(t.kind, TokKind::Num | TokKind::Change))
    };
    let value_col: Vec<bool> = (0..spans.len())
        .map(|s| {
            let v = rows.iter().filter(|(_, c)| is_value_cell(&c[s])).count();
            v * 2 >= rows.len() && v > 0
        })
        .collect();
    let value_labels: Vec<&String> = labels
        .iter()
        .zip(&value_col)
        .filter(|(_, v)| **v)
        .map(|(l, _)| l)
        .collect();
    let cols_variant =
        value_labels.iter().filter(|l| variant_like(l)).count() * 2 > value_labels.len();
    for (line, cells) in &rows {
        let label = cells
            .iter()
            .zip(&value_col)
            .filter(|(_, v)| !**v)
            .map(|(c, _)| words(c))
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        let title = if n.title.is_empty() { n.stem } else { n.title };
        let benchmark = if label.is_empty() {
            title.to_string()
        } else if n.title.is_empty() {
            label.clone()
        } else {
            format!("{title}: {label}")
        };
        for (s, c) in cells.iter().enumerate() {
            if !value_col[s] || !is_value_cell(c) {
                continue;
            }
            let col = labels[s].as_str();
            let (variant, metric) = if cols_variant {
                (col, "value")
            } else {
                (n.section, if col.is_empty() { "value" } else { col })
            };
            let unit_of = |t: &Tok| {
                if t.unit.is_empty() {
                    unit_in(col).unwrap_or_default()
                } else {
                    t.unit.clone()
                }
            };
            for t in c.iter().filter(|t| t.is_value()) {
                let stat = match t.kind {
                    TokKind::Change => Stat::ChangePct,
                    TokKind::Spread => Stat::Stddev,
                    _ => col_stat(col),
                };
                push(
                    out,
                    n.path,
                    &benchmark,
                    "",
                    variant,
                    metric,
                    &unit_of(t),
                    stat,
                    t.value,
                    *line,
                );
            }
        }
    }
}

/// Mail headers, attributions, addresses and links: never data. (Unlike
/// [`labels::is_noise`], a `field: value` line is not noise here: it may
/// be a list.)
fn is_mail_noise(text: &str) -> bool {
    let t = text.trim();
    let lower = t.to_lowercase();
    labels::NOISE_HEADERS.iter().any(|h| lower.starts_with(h))
        || lower.ends_with("wrote:")
        || t.contains('@')
        || lower.contains("http://")
        || lower.contains("https://")
}

/// A prose line that can head columns: several words, not a sentence, not
/// a `heading:`.
fn header_like(text: &str) -> bool {
    let t = text.trim();
    let words = t.split_whitespace().count();
    (2..=24).contains(&words) && !t.ends_with([':', '.'])
}

fn clean(text: &str) -> String {
    let t = text.trim().trim_matches(['*', '#', '=', '_', '`']);
    labels::clean(labels::benchmark_name(t), 60)
}

/// One run of data rows and what names them.
struct Grid<'a> {
    header: Option<&'a str>,
    title: &'a str,
    /// The nearest heading above naming a build (`Before:`, `v2.6.23:`).
    section: &'a str,
    stem: &'a str,
    path: &'a str,
}

/// What names the values of a list line.
struct Names<'a> {
    title: &'a str,
    section: &'a str,
    stem: &'a str,
    path: &'a str,
}

/// The nearest heading naming a build: a text line of the paragraph above
/// the block, or a heading above the paragraph.
fn section_of(para: &[GLine], texts: &[usize], headings: &[&str]) -> String {
    texts
        .iter()
        .rev()
        .map(|&t| clean(para[t].text))
        .chain(headings.iter().rev().map(|h| clean(h)))
        .find(|t| variant_like(t))
        .unwrap_or_default()
}

/// A row of a grid, its cells grouped: (value-or-missing token, spreads after it).
struct Row<'t> {
    line: u32,
    label: String,
    cells: Vec<(&'t Tok, Vec<&'t Tok>)>,
}

fn group(values: &[Tok]) -> Vec<(&Tok, Vec<&Tok>)> {
    let mut cells: Vec<(&Tok, Vec<&Tok>)> = Vec::new();
    for t in values {
        match t.kind {
            TokKind::Spread if !cells.is_empty() => {
                if let Some(c) = cells.last_mut() {
                    c.1.push(t)
                }
            }
            TokKind::Marker | TokKind::Word => {}
            _ => cells.push((t, Vec::new())),
        }
    }
    cells
}

impl Grid<'_> {
    fn read(&self, raw: &[(u32, &[Tok], &[Tok])], out: &mut Vec<Observation>) {
        let (hcells, positioned) = self.header.map(header::cells).unwrap_or_default();
        // Digit groups a space apart are one number where that gives the
        // row the header's count of columns.
        let merged: Vec<Vec<Tok>> = raw.iter().map(|(_, _, v)| merge_groups(v)).collect();
        // With a header: where the plain count is more than it heads and the
        // joined one is not. Without: where the joined counts agree from
        // row to row and the plain ones do not.
        let h = hcells.len();
        let fits = |n: usize| n <= h;
        let agree = |v: Vec<usize>| v.windows(2).all(|w| w[0] == w[1]);
        let joined_agree = agree(merged.iter().map(|m| group(m).len()).collect());
        let plain_agree = agree(raw.iter().map(|(_, _, v)| group(v).len()).collect());
        let mut rows: Vec<Row> = Vec::with_capacity(raw.len());
        for (k, (line, label, values)) in raw.iter().enumerate() {
            let plain = group(values);
            let joined = group(&merged[k]);
            let lead = usize::from(!label.is_empty());
            let use_merged = joined.len() != plain.len()
                && if h > 0 {
                    !fits(plain.len() + lead) && fits(joined.len() + lead)
                } else {
                    joined_agree && !plain_agree
                };
            let cells = if use_merged { joined } else { plain };
            rows.push(Row {
                line: *line,
                label: words(label),
                cells,
            });
        }
        let k = rows.iter().map(|r| r.cells.len()).max().unwrap_or(0);
        if k == 0 {
            return;
        }
        // Columns of integers down the side of unlabelled rows are their
        // parameters (`BS(KB)` over 1, 2, 4 …; `Gb Rep Threads` over
        // `32 3 1`), named by the header cells above them.
        let int_col = |j: usize| {
            rows.iter().all(|r| {
                r.cells.len() == k
                    && r.cells[j].0.kind == TokKind::Num
                    && r.cells[j].0.unit.is_empty()
                    && r.cells[j].0.value.fract() == 0.0
                    && r.cells[j].1.is_empty()
            })
        };
        let mut params = 0;
        if rows.iter().all(|r| r.label.is_empty()) && k >= 2 {
            while params + 1 < k && int_col(params) {
                params += 1;
            }
            let named = hcells.len() == k;
            let rising = rows
                .windows(2)
                .all(|w| w[0].cells[0].0.value < w[1].cells[0].0.value);
            if !named {
                params = usize::from(params >= 1 && rising);
            }
        }
        let param_names: Vec<String> = (0..params)
            .map(|j| {
                if hcells.len() == k {
                    hcells[j].text.to_lowercase()
                } else {
                    "row".to_string()
                }
            })
            .collect();
        let mut param_text: Vec<String> = Vec::new();
        for r in &mut rows {
            if params > 0 {
                let p: Vec<String> = r.cells[..params]
                    .iter()
                    .zip(&param_names)
                    .map(|(c, n)| format!("{n}={}", c.0.text))
                    .collect();
                r.label = r.cells[..params]
                    .iter()
                    .map(|c| c.0.text.as_str())
                    .collect::<Vec<_>>()
                    .join(" ");
                param_text.push(p.join(","));
                r.cells.drain(..params);
            } else {
                param_text.push(String::new());
            }
        }
        let k = k - params;
        let head_cells: &[header::HCell] = if params > 0 && hcells.len() == k + params {
            &hcells[params..]
        } else {
            &hcells
        };
        let labelled = params == 0 && rows.iter().any(|r| !r.label.is_empty());
        let spans: Option<Vec<(usize, usize)>> = rows
            .iter()
            .find(|r| r.cells.len() == k)
            .map(|r| r.cells.iter().map(|c| (c.0.col, c.0.end)).collect());
        let (cols, label_head) = header::column_labels(
            head_cells,
            positioned,
            spans.as_deref(),
            k,
            labelled || (params > 0 && head_cells.len() == hcells.len()),
        );
        let rows_variant = labelled
            && params == 0
            && rows.iter().filter(|r| variant_like(&r.label)).count() * 2 >= rows.len().max(1);
        let cols_variant = cols.iter().filter(|c| variant_like(c)).count() * 2 > cols.len()
            || cols.iter().any(|c| variant_like(c)) && !rows_variant;
        let transposed = rows_variant && !cols_variant;
        let title_unit = unit_in(self.title).or_else(|| label_head.as_deref().and_then(unit_in));
        for (ri, r) in rows.iter().enumerate() {
            for (j, (tok, spreads)) in r.cells.iter().enumerate() {
                if tok.kind == TokKind::Missing {
                    continue;
                }
                let col = cols.get(j).map(String::as_str).unwrap_or("");
                let col_unit = unit_in(col);
                let unit = if !tok.unit.is_empty() {
                    tok.unit.clone()
                } else {
                    col_unit
                        .clone()
                        .or_else(|| title_unit.clone())
                        .unwrap_or_default()
                };
                let (mut benchmark, mut prm, variant, metric) = if transposed {
                    (
                        self.title_or_stem(),
                        String::new(),
                        r.label.clone(),
                        col.to_string(),
                    )
                } else if cols_variant {
                    (
                        self.bench(&r.label),
                        String::new(),
                        col.to_string(),
                        "value".to_string(),
                    )
                } else {
                    let m = if col.is_empty() { "value" } else { col };
                    (
                        self.bench(&r.label),
                        String::new(),
                        self.section.to_string(),
                        m.to_string(),
                    )
                };
                if !param_text[ri].is_empty() {
                    benchmark = self.title_or_stem();
                    prm = param_text[ri].clone();
                }
                let stat = match tok.kind {
                    TokKind::Change => Stat::ChangePct,
                    _ => col_stat(col),
                };
                let unit = if stat == Stat::ChangePct {
                    "%".to_string()
                } else {
                    unit
                };
                out.push(self.obs(
                    &benchmark, &prm, &variant, &metric, &unit, stat, tok.value, r.line,
                ));
                for s in spreads {
                    let unit = if s.unit.is_empty() {
                        unit.clone()
                    } else {
                        s.unit.clone()
                    };
                    out.push(self.obs(
                        &benchmark,
                        &prm,
                        &variant,
                        &metric,
                        &unit,
                        Stat::Stddev,
                        s.value,
                        r.line,
                    ));
                }
            }
        }
    }

    fn title_or_stem(&self) -> String {
        if self.title.is_empty() {
            self.stem.to_string()
        } else {
            self.title.to_string()
        }
    }

    /// A row's benchmark: its label under the table's title.
    fn bench(&self, label: &str) -> String {
        match (self.title.is_empty(), label.is_empty()) {
            (_, true) => self.title_or_stem(),
            (true, false) => label.to_string(),
            (false, false) => format!("{}: {label}", self.title),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn obs(
        &self,
        benchmark: &str,
        params: &str,
        variant: &str,
        metric: &str,
        unit: &str,
        stat: Stat,
        value: f64,
        line: u32,
    ) -> Observation {
        let mut o = Observation::new(benchmark, metric, unit, stat, value)
            .at_line(line)
            .with_variant(variant)
            .with_params_str(params);
        o.source = SmolStr::new(self.path);
        o
    }
}

/// The observations of one `key=value` line.
fn emit_pairs(
    line: u32,
    prefix: &str,
    ps: &[(String, Tok)],
    n: &Names,
    out: &mut Vec<Observation>,
) {
    let prefix_unit = unit_in(prefix);
    let benchmark = if n.title.is_empty() { n.stem } else { n.title };
    for (key, t) in ps {
        let unit = if t.unit.is_empty() {
            prefix_unit.clone().unwrap_or_default()
        } else {
            t.unit.clone()
        };
        let (variant, metric) = if variant_like(key) {
            let m = if prefix.is_empty() {
                "value".to_string()
            } else {
                prefix.to_string()
            };
            (key.as_str(), m)
        } else {
            let m = if prefix.is_empty() {
                key.clone()
            } else {
                format!("{prefix} {key}")
            };
            (n.section, m)
        };
        let stat = match t.kind {
            TokKind::Change => Stat::ChangePct,
            TokKind::Spread => Stat::Stddev,
            _ => key.parse::<Stat>().unwrap_or(Stat::Sample),
        };
        push(
            out, n.path, benchmark, "", variant, &metric, &unit, stat, t.value, line,
        );
    }
}

/// The observations of a line of values among words, read by the
/// low-confidence fallback: each value named by the line's label and the
/// words before it.
fn emit_keyed(line: u32, label: &str, ps: &[(String, Tok)], n: &Names, out: &mut Vec<Observation>) {
    let title = if n.title.is_empty() { n.stem } else { n.title };
    let benchmark = if label.is_empty() {
        title.to_string()
    } else {
        format!("{title}: {label}")
    };
    for (key, t) in ps {
        let stat = match t.kind {
            TokKind::Change => Stat::ChangePct,
            TokKind::Spread => Stat::Stddev,
            _ => Stat::Sample,
        };
        let metric = if key.is_empty() {
            "value"
        } else {
            key.as_str()
        };
        push(
            out, n.path, &benchmark, "", n.section, metric, &t.unit, stat, t.value, line,
        );
    }
}

#[allow(clippy::too_many_arguments)]
fn push(
    out: &mut Vec<Observation>,
    path: &str,
    benchmark: &str,
    params: &str,
    variant: &str,
    metric: &str,
    unit: &str,
    stat: Stat,
    value: f64,
    line: u32,
) {
    let mut o = Observation::new(benchmark, metric, unit, stat, value)
        .at_line(line)
        .with_variant(variant)
        .with_params_str(params);
    o.source = SmolStr::new(path);
    out.push(o);
}

/// The stat a column header names by its last word (`avg`, `stddev`, `p99`).
fn col_stat(col: &str) -> Stat {
    col.split_whitespace()
        .last()
        .and_then(|w| w.trim_matches(['(', ')', '[', ']']).parse::<Stat>().ok())
        .unwrap_or(Stat::Sample)
}

/// A unit in parentheses or brackets (`time (s)`, `[us]`).
fn unit_in(text: &str) -> Option<String> {
    let mut rest = text;
    while let Some(open) = rest.find(['(', '[']) {
        let close = rest[open..].find([')', ']'])? + open;
        let inner = rest[open + 1..close].trim();
        if super::lines::known_unit(inner) {
            return Some(inner.to_string());
        }
        rest = &rest[close + 1..];
    }
    None
}

fn words(toks: &[Tok]) -> String {
    toks.iter()
        .map(|t| t.text.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A label naming a build: a variant word, a kernel version, a commit id,
/// a `+patch` label.
pub fn variant_like(label: &str) -> bool {
    if labels::is_variant_like(label) {
        return true;
    }
    label.split_whitespace().any(|w| {
        let w = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '+' && c != '.');
        labels::is_kernel_version(&w.to_lowercase())
            || w.starts_with('+')
            || is_version_number(w)
            || is_commit(w)
    }) && label.split_whitespace().count() <= 4
}

/// `6.6`, `v6.12`, `2.6.14`: a release number.
fn is_version_number(w: &str) -> bool {
    let w = w.strip_prefix(['v', 'V']).unwrap_or(w);
    let parts: Vec<&str> = w.split('.').collect();
    (2..=4).contains(&parts.len())
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        && (parts.len() >= 3 || w.len() <= 5 && !w.starts_with('0'))
}

/// A commit id: seven to forty hex digits with both letters and digits.
fn is_commit(w: &str) -> bool {
    (7..=40).contains(&w.len())
        && w.bytes().all(|b| b.is_ascii_hexdigit())
        && w.bytes().any(|b| b.is_ascii_digit())
        && w.bytes().any(|b| b.is_ascii_alphabetic())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<GLine<'_>> {
        text.lines()
            .enumerate()
            .map(|(i, t)| GLine {
                number: i as u32 + 1,
                text: t,
            })
            .collect()
    }

    fn show(text: &str) -> Vec<String> {
        read(&lines(text), &[], "stem", "p")
            .observations
            .iter()
            .map(|o| {
                format!(
                    "{} {}|{}|{}|{}|{}|{}={}",
                    o.line, o.benchmark, o.params, o.variant, o.metric, o.stat, o.unit, o.value
                )
            })
            .collect()
    }

    #[test]
    fn lists_of_pairs_under_a_section() {
        let got = show(
            "**Unpatched**\nread : io=102120KB, bw=618740 B/s, iops=151 , runt=169006msec\n\
             slat (usec): min=275 , max=87560 , avg=6571.88, stdev=2799.57",
        );
        assert_eq!(got.len(), 8);
        assert_eq!(got[0], "2 Unpatched||Unpatched|read io|sample|KB=102120");
        assert_eq!(
            got[6],
            "3 Unpatched||Unpatched|slat (usec) avg|mean|us=6571.88"
        );
    }

    #[test]
    fn repeated_lines_of_values_among_words() {
        let got = show(
            "Iter   0 (325.719us): hits    5.105M/s (  5.105M/prod), drops 0.000M/s\n\
             Iter   1 (-17.295us): hits    5.224M/s (  5.224M/prod), drops 0.000M/s",
        );
        assert_eq!(got.len(), 8);
        assert_eq!(got[1], "1 stem: Iter 0|||hits|sample|M/s=5.105");
        // One such line alone is not read: it may be prose.
        assert!(show("Iter   0 (325.719us): hits    5.105M/s").is_empty());
    }

    #[test]
    fn collapsed_grid_with_a_parameter_column_and_changes() {
        let got = show(
            "Read averages:\nBS(KB) RHEL4U2 2.6.14 %-diff\n------ -------- -------- ------\n\
             1 23.8 12.3 -48.4%\n2 46.6 21.3 -54.2%",
        );
        assert_eq!(
            got,
            vec![
                "4 Read averages|bs(kb)=1|RHEL4U2|value|sample|=23.8",
                "4 Read averages|bs(kb)=1|2.6.14|value|sample|=12.3",
                "4 Read averages|bs(kb)=1|%-diff|value|change_pct|%=-48.4",
                "5 Read averages|bs(kb)=2|RHEL4U2|value|sample|=46.6",
                "5 Read averages|bs(kb)=2|2.6.14|value|sample|=21.3",
                "5 Read averages|bs(kb)=2|%-diff|value|change_pct|%=-54.2",
            ]
        );
    }

    #[test]
    fn transposed_grid_with_spaced_digit_groups() {
        let got = show(
            "Kernel pipe bogo ops/s sched_migrate_task sched_switch\n\
             6.6.78 2 339 827 98 21 151 454\n6.12.81 1 163 540 4 39 911 525",
        );
        assert_eq!(got.len(), 6);
        assert_eq!(got[0], "2 stem||6.6.78|pipe bogo ops/s|sample|=2339827");
        assert_eq!(got[5], "3 stem||6.12.81|sched_switch|sample|=39911525");
    }

    #[test]
    fn labels_after_the_values_and_tilde_spreads() {
        let got = show(
            "8c81f3eeb336567  5507231dd04d3d68796bafe83\n\
             ---------------  -------------------------\n      \
             347258 ~ 0%     -18.2%     284195 ~ 0%  TOTAL vm-scalability.migrate_mbps\n      \
             93913 ~ 7%     -49.8%      47172 ~ 3%  TOTAL softirqs.RCU",
        );
        assert_eq!(got.len(), 10);
        assert_eq!(
            got[0],
            "3 TOTAL vm-scalability.migrate_mbps||8c81f3eeb336567|value|sample|=347258"
        );
        assert_eq!(got[1].split('|').nth(4), Some("stddev"));
    }
}
