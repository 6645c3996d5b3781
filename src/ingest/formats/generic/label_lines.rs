//! The generic reader's reading of a text log that is no table: `label:
//! value` lines under their section titles, `key=value` records under
//! their headings, stacked name-over-value lines and named lists, each
//! value filed under the file's title or name.

use super::value_line::{bracket_unit, separator, value_line, MAX_LABEL};
use super::{file_stem, named_list, pairs, sections, stacked};
use crate::ingest::shared::asides;
use crate::ingest::shared::row::Row;
use crate::ingest::{Parsed, Source};

/// The benchmark a file's values are filed under.
fn benchmark_of(src: &Source) -> String {
    let first = src.lines.iter().find(|l| !l.text.trim().is_empty());
    if let Some(l) = first {
        // A byte-order mark starts each run of a loop's capture.
        let t = l.text.trim().trim_matches(['\u{feff}', ':']).trim();
        let title = !t.is_empty()
            && t.len() <= 80
            && t.chars().any(char::is_alphabetic)
            && !t.chars().any(|c| c.is_ascii_digit())
            && value_line(t).is_none();
        if title {
            return t
                .trim_start_matches(['#', '=', '-', ' '])
                .trim()
                .to_string();
        }
    }
    file_stem(src)
}

/// `label: value` lines and `key=value` records, the reading of any text
/// log that is no table.
pub(super) fn label_lines(src: &Source) -> Parsed {
    let bench = benchmark_of(src);
    let mut out = Vec::new();
    let mut consumed = Vec::new();
    // The section a line sits under, and the unit its title gives.
    let mut section: Option<(String, String)> = None;
    // The first line of the block a line sits in, while it may head
    // the pair lines below it.
    let mut heading: Option<(u32, &str)> = None;
    let mut block_start = true;
    let mut sections = sections::Sections::default();
    let stacked = stacked::stacked(src);
    let mut stacked_at = stacked.iter().peekable();
    for l in &src.lines {
        let n = l.number;
        let t = l.text.trim();
        if let Some(s) = stacked_at.next_if(|s| s.label_line == n) {
            consumed.push(n);
            out.push(
                Row::at(src, s.value_line)
                    .benchmark(&bench)
                    .metric(s.label)
                    .unit(s.unit)
                    .sample(s.value),
            );
            sections.row();
            continue;
        }
        if out.last().is_some_and(|o| o.line == n) {
            // The value of the label just read.
            continue;
        }
        if t.is_empty() {
            section = None;
            (heading, block_start) = (None, true);
            continue;
        }
        let first_of_block = std::mem::take(&mut block_start);
        if let Some(found) = pairs::pairs(t) {
            let variant = heading.map(|(line, h)| {
                if consumed.last() != Some(&line) {
                    consumed.push(line);
                }
                h.trim_end_matches(':').trim()
            });
            for (key, value, unit) in found {
                let mut o = Row::at(src, n)
                    .benchmark(&bench)
                    .metric(key)
                    .unit(unit)
                    .sample(value);
                if let Some(v) = variant {
                    o.variant = v.into();
                }
                out.push(o);
                sections.row();
            }
            continue;
        }
        if let Some((label, found)) = named_list::named_list(t) {
            for (name, value, unit) in found {
                out.push(
                    Row::at(src, n)
                        .benchmark(&bench)
                        .metric(&format!("{label} {name}"))
                        .unit(unit)
                        .sample(value),
                );
                sections.row();
            }
            continue;
        }
        heading = None;
        if first_of_block && crate::ingest::shared::text::is_heading(t) && value_line(t).is_none() {
            heading = Some((n, t));
        }
        if let Some(title) = t.strip_suffix(':') {
            if !title.chars().any(|c| c.is_ascii_digit()) && title.len() <= MAX_LABEL {
                let title = title.trim();
                section = Some(match bracket_unit(title) {
                    Some((name, unit)) => (name.to_string(), unit.to_string()),
                    None => (title.to_string(), String::new()),
                });
                consumed.push(n);
                sections.text_line(n, t);
                continue;
            }
        }
        // A number alone under a `name:` title (`Latency:` over one
        // latency a line): a value of that name.
        if let Some((name, unit, value)) = stacked::under_title(section.as_ref(), t) {
            out.push(
                Row::at(src, n)
                    .benchmark(&bench)
                    .metric(name)
                    .unit(unit)
                    .sample(value),
            );
            sections.row();
            continue;
        }
        // Figures in parentheses after a separated value are values too.
        let (t, asides) = match asides::split(t) {
            Some((core, a)) if separator(core).is_some() && value_line(core).is_some() => (core, a),
            _ => (t, Vec::new()),
        };
        let Some((label, value, unit)) = value_line(t) else {
            // Text above the values may head them; a line of figures no
            // rule reads neither heads nor ends a section.
            if t.ends_with(':') || !t.bytes().any(|b| b.is_ascii_digit()) {
                sections.text_line(n, t);
            }
            continue;
        };
        let (label, unit) = match (unit, bracket_unit(label)) {
            ("", Some((l, u))) => (l, u),
            _ => (label, unit),
        };
        let indented = l.text.starts_with(char::is_whitespace);
        let (metric, unit) = match &section {
            Some((s, u)) if indented => {
                let unit = if unit.is_empty() { u.as_str() } else { unit };
                (format!("{s} {label}"), unit)
            }
            _ => (label.to_string(), unit),
        };
        let mut o = Row::at(src, n)
            .benchmark(&bench)
            .metric(&metric)
            .unit(unit)
            .sample(value);
        o.source = src.path.clone();
        out.push(o);
        sections.row();
        for a in asides {
            let unit = if a.percent { "%" } else { unit };
            let metric = format!("{metric} {}", a.name);
            out.push(
                Row::at(src, n)
                    .benchmark(&bench)
                    .metric(&metric)
                    .unit(unit)
                    .sample(a.value),
            );
            sections.row();
        }
    }
    let metrics: Vec<&str> = out.iter().map(|o| o.metric.as_str()).collect();
    let (variants, lines) = sections.variants(&metrics);
    let variants: Vec<Option<String>> = variants
        .into_iter()
        .map(|v| v.map(str::to_string))
        .collect();
    for (o, v) in out.iter_mut().zip(variants) {
        if let (Some(v), true) = (v, o.variant.is_empty()) {
            o.variant = v.into();
        }
    }
    consumed.extend(lines);
    consumed.sort_unstable();
    consumed.dedup();
    Parsed {
        observations: out,
        consumed,
        skipped: Vec::new(),
        ..Parsed::default()
    }
}
