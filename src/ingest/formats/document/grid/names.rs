//! Names from the text around a grid: titles, sections that name a build,
//! units and stats in headers, and what makes a label a variant.

use super::*;

/// A prose line that can head columns: several words, not a sentence, not
/// a `heading:`.
pub(super) fn header_like(text: &str) -> bool {
    let t = text.trim();
    let words = t.split_whitespace().count();
    (2..=24).contains(&words) && !t.ends_with([':', '.']) && !states_settings(t)
}

/// A line that states the settings of what follows (`RETPOLINE=n, Selinux:
/// Off`): a `key=value` ending in a comma, and a `key:` with its value
/// after it. It titles the rows below as `Selinux: Off:` would; column
/// names are written side by side, not as a list of settings (`bs=4k
/// bs=8k`).
fn states_settings(t: &str) -> bool {
    let words: Vec<&str> = t.split_whitespace().collect();
    let key = |k: &str| k.chars().next().is_some_and(char::is_alphabetic);
    let listed = words.iter().any(|w| {
        w.ends_with(',')
            && w.split_once('=')
                .is_some_and(|(k, v)| key(k) && v.len() > 1)
    });
    let keyed = words.windows(2).any(|p| {
        p[0].len() > 1
            && p[0].ends_with(':')
            && key(p[0])
            && p[1].chars().next().is_some_and(char::is_alphanumeric)
    });
    listed && keyed
}

pub(super) fn clean(text: &str) -> String {
    let t = super::ruled::dashed_title(text).unwrap_or(text);
    let t = t.trim().trim_matches(['*', '#', '=', '_', '`']);
    labels::clean(labels::benchmark_name(t), 60)
}

/// What names the values of a list line.
pub(super) struct Names<'a> {
    pub(super) title: &'a str,
    pub(super) section: &'a str,
    pub(super) stem: &'a str,
    pub(super) path: &'a str,
}

/// The nearest heading naming a build: a text line of the paragraph above
/// the block, or a heading above the paragraph.
///
/// The text lines only grow until a table clears them (and the memo with
/// them), so the memo looks at each line once: asking again for every line
/// of a long paragraph of keyed lines would read all the lines above each
/// (quadratic).
pub(super) fn section_of(
    para: &[GLine],
    texts: &[usize],
    headings: &[&str],
    memo: &mut SectionMemo,
) -> String {
    for &t in &texts[memo.seen.min(texts.len())..] {
        let name = clean(para[t].text);
        if variant_like(&name) {
            memo.found = Some(name);
        }
    }
    memo.seen = texts.len();
    match &memo.found {
        Some(name) => name.clone(),
        None => headings
            .iter()
            .rev()
            .map(|h| clean(h))
            .find(|t| variant_like(t))
            .unwrap_or_default(),
    }
}

/// What `section_of` has read of a paragraph's text lines: how many, and
/// the name of the last one naming a build. Cleared with the lines.
#[derive(Default)]
pub(super) struct SectionMemo {
    seen: usize,
    found: Option<String>,
}

/// The stat a column header names by its last word (`avg`, `stddev`, `p99`).
pub(super) fn col_stat(col: &str) -> Stat {
    col.split_whitespace()
        .last()
        .and_then(|w| Stat::parse_name(w.trim_matches(['(', ')', '[', ']'])))
        .unwrap_or(Stat::Sample)
}

/// A unit in parentheses or brackets (`time (s)`, `[us]`).
pub(super) fn unit_in(text: &str) -> Option<String> {
    let mut rest = text;
    while let Some(open) = rest.find(['(', '[']) {
        let close = rest[open..].find([')', ']'])? + open;
        let inner = rest[open + 1..close].trim();
        if super::super::lines::known_unit(inner) {
            return Some(inner.to_string());
        }
        rest = &rest[close + 1..];
    }
    None
}

pub(super) fn words(toks: &[Tok]) -> String {
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
            // `+patch`, `+ mc-llc` (the words after a lone `+`), not `+/-`.
            || w.starts_with('+') && w.len() > 1
            || is_version_number(w)
            || is_commit(w)
    }) && label.split_whitespace().count() <= 4
}

/// `6.6`, `v6.12`, `2.6.14`: a release number.
pub(super) fn is_version_number(w: &str) -> bool {
    let w = w.strip_prefix(['v', 'V']).unwrap_or(w);
    let parts: Vec<&str> = w.split('.').collect();
    (2..=4).contains(&parts.len())
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        && (parts.len() >= 3 || w.len() <= 5 && !w.starts_with('0'))
}

/// A commit id: seven to forty hex digits with both letters and digits.
pub(super) fn is_commit(w: &str) -> bool {
    (7..=40).contains(&w.len())
        && w.bytes().all(|b| b.is_ascii_hexdigit())
        && w.bytes().any(|b| b.is_ascii_digit())
        && w.bytes().any(|b| b.is_ascii_alphabetic())
}

/// The setting each line of `para` was measured at, where a setting
/// heads indented runs: a lone `key=value` line (`cpu_lat_limit_us=10
/// (enabled)`) less indented than the list lines right below it names
/// the runs under it, down to the next line as little indented as
/// itself, as a heading does. (A `key: value` line over indented lines
/// is a total over its parts and stays a value.) `None` for the other
/// lines; the setting lines themselves are `Some` with `true`.
pub(super) fn settings_over_runs(
    para: &[GLine],
    kinds: &[LineKind],
) -> Vec<Option<(String, bool)>> {
    let indent = |t: &str| t.len() - t.trim_start().len();
    let is_list = |k: &LineKind| matches!(k, LineKind::Pairs(..) | LineKind::Keyed(..));
    let mut out: Vec<Option<(String, bool)>> = vec![None; para.len()];
    let mut current: Option<(String, usize)> = None;
    for (i, l) in para.iter().enumerate() {
        let t = l.text.trim();
        let setting = matches!(&kinds[i], LineKind::Pairs(prefix, ps) if prefix.is_empty() && ps.len() == 1)
            && t.contains('=')
            && !t.contains(':')
            && para
                .get(i + 1)
                .is_some_and(|n| is_list(&kinds[i + 1]) && indent(n.text) > indent(l.text));
        if setting {
            current = Some((clean(l.text), indent(l.text)));
            out[i] = Some((clean(l.text), true));
            continue;
        }
        if current.as_ref().is_some_and(|(_, d)| indent(l.text) <= *d) {
            current = None;
        }
        out[i] = current.as_ref().map(|(s, _)| (s.clone(), false));
    }
    out
}

/// What the units written in each value column of headerless rows name it
/// (`682 Mb/s  1333582 pps` → `Mb/s`, `pps`; `4.12 ms` → `time`), for columns whose
/// cells all carry a unit naming the same quantity, which no other column
/// of the rows names: a column nothing else names is then told from the
/// others by what it measures, not by its number. `None` for the others
/// (two time columns, `avg 10ms  max 20ms`, are no one series).
pub(super) fn unit_named_columns(rows: &[Vec<&Tok>], value_cols: usize) -> Vec<Option<String>> {
    // `Some(None)`: a cell without a unit, or units of two quantities.
    let mut named: Vec<Option<Option<String>>> = vec![None; value_cols];
    for cells in rows {
        let mut col = 0usize;
        for (j, tok) in cells.iter().enumerate() {
            if j > 0 && tok.kind != TokKind::Change {
                col += 1;
            }
            if tok.kind != TokKind::Num || col >= value_cols {
                continue;
            }
            let name = (!tok.unit.is_empty())
                .then(|| crate::ingest::formats::document::table::metric_from_unit(&tok.unit))
                .filter(|m| m != "value");
            named[col] = match named[col].take() {
                None => Some(name),
                Some(prev) if prev == name => Some(prev),
                Some(_) => Some(None),
            };
        }
    }
    let names: Vec<Option<String>> = named.into_iter().map(Option::flatten).collect();
    names
        .iter()
        .map(|n| {
            n.clone()
                .filter(|n| names.iter().filter(|m| m.as_ref() == Some(n)).count() == 1)
        })
        .collect()
}
