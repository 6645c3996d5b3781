//! hyperfine `--export-markdown`: `| Command | Mean [ms] | Min [ms] | Max [ms] | Relative |`
//! rows with `mean ± sd` cells, summaries in the unit named in the header.
//! The `Relative` column is a ratio between commands, not a value: skipped.
//! `--export-orgmode` writes the same table with an Org rule (`|--+--|`)
//! and `=command=` quoting, read here too.

use crate::error::Result;
use crate::ingest::shared::numbers::{parse_cell, parse_number};
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{canonical_params, Observation, Stat};

/// The hyperfine Markdown export importer.
pub struct HyperfineMarkdown;

impl Format for HyperfineMarkdown {
    fn name(&self) -> &'static str {
        "hyperfine-markdown"
    }

    fn description(&self) -> &'static str {
        "hyperfine --export-markdown / --export-orgmode: table header `| Command | Mean [unit] | Min [unit] | Max [unit] | Relative |`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let hit = src.lines.iter().take(5).any(|l| {
            let cells = cells(&l.text);
            cells.len() >= 4 && cells[0] == "Command" && cells[1].starts_with("Mean [")
        });
        if hit {
            90
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut header: Option<Vec<String>> = None;
        for l in &src.lines {
            let t = l.text.trim();
            if !t.starts_with('|') {
                continue;
            }
            let row = cells(t);
            if row.first().map(String::as_str) == Some("Command") {
                header = Some(row);
                continue;
            }
            let Some(h) = &header else { continue };
            if row
                .iter()
                .all(|c| c.chars().all(|ch| matches!(ch, ':' | '-' | '+' | ' ')))
            {
                continue; // alignment row (Org: `|--+--|`)
            }
            if row.len() != h.len() {
                return Err(src.error(
                    Some(l.number),
                    format!(
                        "expected {} cells like the header, found {}",
                        h.len(),
                        row.len()
                    ),
                ));
            }
            out.extend(row_values(src, l.number, h, &row)?);
        }
        Ok(out.into())
    }
}

/// The values of one table row under `header` (`Command`, `Mean [unit]`
/// … cells), shared with the AsciiDoc export.
pub(crate) fn row_values(
    src: &Source,
    line: u32,
    header: &[String],
    row: &[String],
) -> Result<Vec<Observation>> {
    let h = header;
    let command = unquote(&row[0]).to_string();
    let mut out = Vec::new();
    let mut params = Vec::new();
    let mut values = Vec::new();
    for (name, cell) in h.iter().zip(row).skip(1) {
        let (label, unit) = match name.split_once(" [") {
            Some((a, b)) => (a, b.trim_end_matches(']')),
            None => (name.as_str(), ""),
        };
        match label {
            "Relative" => {}
            "Mean" => {
                let c = parse_cell(cell).ok_or_else(|| {
                    src.error(Some(line), format!("Mean cell `{cell}` is not a number"))
                })?;
                values.push((Stat::Mean, unit, c.value));
                if let Some(sd) = c.spread {
                    values.push((Stat::Stddev, unit, sd));
                }
            }
            "Min" | "Max" | "Median" => {
                let v = parse_number(cell).ok_or_else(|| {
                    src.error(Some(line), format!("{label} cell `{cell}` is not a number"))
                })?;
                let stat = match label {
                    "Min" => Stat::Min,
                    "Max" => Stat::Max,
                    _ => Stat::Median,
                };
                values.push((stat, unit, v));
            }
            // Newer hyperfine adds one column per scan parameter.
            other => params.push((other.to_string(), unquote(cell).to_string())),
        }
    }
    let ps = canonical_params(&params);
    for (stat, unit, v) in values {
        out.push(
            Observation::new(
                command.as_str(),
                crate::ingest::formats::hyperfine::json::METRIC,
                unit,
                stat,
                v,
            )
            .at_line(line)
            .with_params_str(ps.clone()),
        );
    }
    Ok(out)
}

/// A cell without its quoting: Markdown's `` `cmd` ``, Org's `=cmd=`.
fn unquote(cell: &str) -> &str {
    let c = cell.trim_matches('`');
    match c.strip_prefix('=').and_then(|c| c.strip_suffix('=')) {
        Some(inner) if !inner.is_empty() => inner,
        _ => c,
    }
}

/// The cells of a Markdown table row; `\|` inside a cell is a literal bar.
fn cells(row: &str) -> Vec<String> {
    let t = row.trim();
    let Some(inner) = t.strip_prefix('|') else {
        return Vec::new();
    };
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && chars.peek() == Some(&'|') {
            cur.push('|');
            chars.next();
        } else if c == '|' {
            out.push(cur.trim().to_string());
            cur.clear();
        } else {
            cur.push(c);
        }
    }
    out.push(cur.trim().to_string());
    out
}
