//! benchstat v2 text tables (golang.org/x/perf/cmd/benchstat):
//!
//! ```text
//!                       │   old.txt   │               new.txt               │
//!                       │   sec/op    │   sec/op     vs base                │
//! Encode/format=json-48   1.718µ ± 1%   1.423µ ± 1%  -17.20% (p=0.000 n=10)
//! ```
//!
//! A summary input: per column (variant) the **median** with SI prefix,
//! `± x%` the distribution-free CI of the median (the larger side, so it is
//! stored as a symmetric `ci_low`/`ci_high` that contains the real one, not
//! as an SD), `vs base` the stated change (only when significant; `~` says
//! not significant and gives no number), `n=10` or `n=10+9` the sample
//! counts. `geomean` rows summarise rows and are not benchmarks.

use crate::error::Result;
use crate::ingest::formats::go::text::{metric_for_unit, split_name};
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};

/// The benchstat v2 text importer.
pub struct BenchstatText;

const BAR: char = '│';

impl Format for BenchstatText {
    fn name(&self) -> &'static str {
        "benchstat"
    }

    fn description(&self) -> &'static str {
        "benchstat v2 text: `│`-separated column headers with `vs base`, cells `1.718µ ± 1%`, `-17.20% (p=0.000 n=10)`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        // One searcher each for all lines (`str::contains` sets one up per
        // call); the rarer `vs base` header first, bar counting only then.
        let mut utf8 = [0; 4];
        let bar = memchr::memmem::Finder::new(BAR.encode_utf8(&mut utf8).as_bytes());
        let vs = crate::ingest::shared::logscan::lines_containing(src, "vs base")
            .any(|l| bar.find(l.as_bytes()).is_some());
        // UTF-8 is self-synchronising: byte matches are character matches.
        let bars = vs
            && src
                .lines
                .iter()
                .any(|l| bar.find_iter(l.text.as_bytes()).nth(1).is_some());
        if bars && vs {
            90
        } else if single_column_header(src) {
            85
        } else {
            0
        }
    }

    /// The two header lines of each table are `consumed`; `geomean` rows
    /// are `skipped` (a summary across benchmarks, not one).
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut consumed = Vec::new();
        let mut skipped = Vec::new();
        let mut out = Vec::new();
        let lines = &src.lines;
        let mut i = 0;
        while i < lines.len() {
            let t = &lines[i].text;
            // A table starts with two header lines: column names, then units.
            if !(t.contains(BAR) && i + 1 < lines.len() && lines[i + 1].text.contains(BAR)) {
                i += 1;
                continue;
            }
            let variants: Vec<String> = header_cells(t);
            // Where each column starts: a row's cell belongs to the column
            // whose bar is the last one left of it (a row missing a cell
            // leaves blanks where it would be).
            let bars: Vec<usize> = t
                .chars()
                .enumerate()
                .filter(|(_, c)| *c == BAR)
                .map(|(k, _)| k)
                .collect();
            let units: Vec<String> = header_cells(&lines[i + 1].text)
                .iter()
                .map(|c| c.split_whitespace().next().unwrap_or("").to_string())
                .collect();
            // Every column's values are read in its unit: a unit row with
            // a blank or missing cell would give rows without a metric, or
            // drop a column's values.
            if units.len() < variants.len() || units.iter().any(String::is_empty) {
                return Err(src.error(
                    Some(lines[i + 1].number),
                    format!(
                        "the unit row under a benchstat header names {} unit(s) for {} column(s); \
                         each column needs its unit (such as `sec/op`)",
                        units.iter().filter(|u| !u.is_empty()).count(),
                        variants.len()
                    ),
                ));
            }
            consumed.extend([lines[i].number, lines[i + 1].number]);
            i += 2;
            while i < lines.len()
                && !lines[i].text.trim().is_empty()
                && !lines[i].text.contains(BAR)
            {
                let first = lines[i].text.split_whitespace().next();
                if first == Some("geomean") {
                    let why = "geometric mean across the benchmarks, not a benchmark";
                    skipped.push((lines[i].number, why.to_string()));
                } else if first.is_some_and(is_footnote) {
                    let why = "benchstat footnote (a warning about the cells marked with it)";
                    skipped.push((lines[i].number, why.to_string()));
                    i += 1;
                    continue;
                }
                read_row(
                    src,
                    &lines[i].text,
                    lines[i].number,
                    &bars,
                    &variants,
                    &units,
                    &mut out,
                )?;
                i += 1;
            }
        }
        Ok(Parsed {
            observations: out,
            consumed,
            skipped,
            ..Parsed::default()
        })
    }
}

/// A table of one file (`benchstat FILE`) has no `vs base` column: its two
/// header lines are a name and a unit such as `sec/op`, each between bars.
fn single_column_header(src: &Source) -> bool {
    let mut utf8 = [0; 4];
    let bar = BAR.encode_utf8(&mut utf8);
    let mut previous_bars = false;
    for l in crate::ingest::shared::logscan::lines_containing(src, bar) {
        let cells = header_cells(l);
        let unit = cells.len() == 1 && (cells[0].contains('/') || cells[0].ends_with("bytes"));
        if previous_bars && unit && l.trim_start().starts_with(BAR) {
            return true;
        }
        previous_bars = cells.len() == 1 && l.trim_start().starts_with(BAR);
    }
    false
}

/// The cells between `│` bars of a header line, trimmed; the leading name
/// column and the trailing empty cell are dropped.
fn header_cells(line: &str) -> Vec<String> {
    let parts: Vec<&str> = line.split(BAR).collect();
    if parts.len() < 3 {
        return Vec::new();
    }
    parts[1..parts.len() - 1]
        .iter()
        .map(|s| s.trim().to_string())
        .collect()
}

/// A number with benchstat's SI (or binary, for bytes) suffix: `1.718µ`, `24.00Ki`.
pub(crate) fn si_value(s: &str) -> Option<f64> {
    let end = s
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E')))
        .map_or(s.len(), |(i, _)| i);
    // `e` could start a suffix-free exponent or nothing: let parse decide.
    let (num, suffix) = s.split_at(end);
    let v: f64 = num.parse().ok()?;
    // Decimal prefixes as an exponent of the written digits, so that
    // `437.0n` is the double nearest 437.0e-9 (a product would round twice);
    // binary ones multiply by a power of two, which is exact.
    let exponent = match suffix {
        "" => Some(0),
        "n" => Some(-9),
        "µ" | "μ" | "u" => Some(-6),
        "m" => Some(-3),
        "k" => Some(3),
        "M" => Some(6),
        "G" => Some(9),
        "T" => Some(12),
        _ => None,
    };
    let scaled = match exponent {
        Some(0) => v,
        Some(e) if !num.contains(['e', 'E']) => format!("{num}e{e}").parse().ok()?,
        Some(e) => v * 10f64.powi(e),
        None => {
            let f = match suffix {
                "Ki" => 1024.0,
                "Mi" => 1024.0 * 1024.0,
                "Gi" => 1024.0 * 1024.0 * 1024.0,
                "Ti" => 1024f64.powi(4),
                _ => return None,
            };
            v * f
        }
    };
    Some(scaled).filter(|v| v.is_finite())
}

/// Footnote markers benchstat appends to cells.
fn is_footnote(tok: &str) -> bool {
    tok.chars()
        .all(|c| matches!(c, '¹' | '²' | '³' | '⁴' | '⁵' | '⁶' | '⁷' | '⁸' | '⁹' | '⁰'))
}

/// The tokens of a row: its name, then per column the tokens that start
/// in it, footnote marks left out.
fn row_columns<'t>(
    text: &'t str,
    bars: &[usize],
    columns: usize,
) -> (Option<&'t str>, Vec<Vec<&'t str>>) {
    let mut cols: Vec<Vec<&str>> = vec![Vec::new(); columns];
    let mut name = None;
    let mut start: Option<(usize, usize)> = None;
    let mut push = |at: usize, byte: usize, end: usize, name: &mut Option<&'t str>| {
        let tok = &text[byte..end];
        if is_footnote(tok) {
            return;
        }
        match bars.iter().rposition(|&b| b < at) {
            None if name.is_none() => *name = Some(tok),
            None => {}
            Some(k) if columns > 0 => cols[k.min(columns - 1)].push(tok),
            Some(_) => {}
        }
    };
    for (k, (byte, c)) in text.char_indices().enumerate() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some((k, byte)),
            (true, Some((at, b))) => {
                push(at, b, byte, &mut name);
                start = None;
            }
            _ => {}
        }
    }
    if let Some((at, b)) = start {
        push(at, b, text.len(), &mut name);
    }
    (name, cols)
}

fn read_row(
    src: &Source,
    text: &str,
    line: u32,
    bars: &[usize],
    variants: &[String],
    units: &[String],
    out: &mut Vec<Observation>,
) -> Result<()> {
    let (name, cells) = row_columns(text, bars, variants.len());
    let Some(name) = name else {
        return Ok(());
    };
    if name == "geomean" {
        return Ok(());
    }
    let (bench, params) = split_name(name);
    let mut rows = Vec::new();
    let mut counts: Option<(f64, f64)> = None;
    for (col, variant) in variants.iter().enumerate() {
        let Some(unit_raw) = units.get(col) else {
            break;
        };
        let (metric, unit) = metric_for_unit(unit_raw);
        let mut toks = cells[col].iter().copied().peekable();
        let Some(tok) = toks.next() else { continue };
        let Some(median) = si_value(tok) else {
            return Err(src.error(Some(line), format!("`{tok}` is not a benchstat value")));
        };
        let mk = |stat: Stat, v: f64| {
            Observation::new(bench.as_str(), metric.as_str(), &unit, stat, v)
                .with_params_str(params.clone())
                .with_variant(variant.as_str())
                .at_line(line)
        };
        rows.push(mk(Stat::Median, median));
        if toks.peek() == Some(&"±") {
            toks.next();
            if let Some(ci) = toks.next() {
                if let Some(pct) = ci.strip_suffix('%').and_then(|p| p.parse::<f64>().ok()) {
                    rows.push(mk(Stat::CiLow, median * (1.0 - pct / 100.0)));
                    rows.push(mk(Stat::CiHigh, median * (1.0 + pct / 100.0)));
                }
            }
        }
        if col == 0 {
            continue;
        }
        // Comparison columns: `-17.20%` or `~`, then `(p=0.000 n=10)`.
        match toks.peek().copied() {
            Some("~") => {
                toks.next();
            }
            Some(d) if d.ends_with('%') => {
                toks.next();
                if let Some(v) = crate::ingest::shared::numbers::parse_number(d) {
                    rows.push(mk(Stat::ChangePct, v));
                }
            }
            _ => {}
        }
        if toks
            .peek()
            .is_some_and(|t| t.starts_with("(p=") || t.starts_with("(n="))
        {
            let mut paren = String::new();
            for t in toks.by_ref() {
                paren.push_str(t);
                paren.push(' ');
                if t.ends_with(')') {
                    break;
                }
            }
            if let Some(n) = paren
                .split_whitespace()
                .find_map(|w| w.trim_matches(['(', ')']).strip_prefix("n="))
            {
                let (a, b) = n.split_once('+').unwrap_or((n, n));
                if let (Ok(a), Ok(b)) = (a.parse::<f64>(), b.parse::<f64>()) {
                    counts.get_or_insert((a, b));
                    rows.push(mk(Stat::N, b));
                }
            }
        }
    }
    if let Some((base_n, _)) = counts {
        if let (Some(v), Some(u)) = (variants.first(), units.first()) {
            let (metric, unit) = metric_for_unit(u);
            out.push(
                Observation::new(bench.as_str(), metric, &unit, Stat::N, base_n)
                    .with_params_str(params.clone())
                    .with_variant(v.as_str())
                    .at_line(line),
            );
        }
    }
    out.extend(rows);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_unit_row_missing_a_column_is_an_error_at_its_line() {
        let table = std::fs::read_to_string("tests/data/structured/benchstat-v2.txt").unwrap();
        assert!(BenchstatText
            .parse(&Source::from_text("ok.txt", &table))
            .is_ok());
        // The unit row with its cells blanked (one bar lost), as a mangled
        // paste gives it: its values had no metric and the second column
        // was dropped.
        let mut lines: Vec<&str> = table.lines().collect();
        lines[1] = "                      │                │";
        let broken = lines.join("\n");
        let e = BenchstatText
            .parse(&Source::from_text("broken.txt", &broken))
            .unwrap_err()
            .to_string();
        assert!(e.contains("broken.txt:2"), "{e}");
        assert!(e.contains("0 unit(s) for 2 column(s)"), "{e}");
    }

    fn read(name: &str) -> Parsed {
        crate::ingest::parse_file(
            &BenchstatText,
            &format!("tests/data/harness/benchstat/{name}"),
        )
    }

    fn medians(p: &Parsed) -> Vec<(&str, &str, f64)> {
        p.observations
            .iter()
            .filter(|o| o.stat == Stat::Median)
            .map(|o| (o.benchmark.as_str(), o.variant.as_str(), o.value))
            .collect()
    }

    #[test]
    fn footnoted_cells_and_footnote_lines() {
        let p = read("footnotes-three-units.txt");
        // 7 benchmarks × 3 units, a median per column.
        let med = medians(&p);
        assert_eq!(med.len(), 7 * 2 * 3);
        let (old, new) = ("/tmp/old_bench_filtered.txt", "/tmp/new_bench_filtered.txt");
        assert_eq!(med[0], ("CrushOriginal", old, 437.0e-9));
        assert_eq!(med[1], ("CrushOriginal", new, 456.8e-9));
        assert_eq!(med[13], ("IndexDirectTracking", new, 0.3953e-9));
        assert_eq!(med[18], ("LoadGlobalConfig", old, 1.281 * 1024.0));
        // `~ (p=1.000 n=1)`: n on both sides, no change.
        let n = p.observations.iter().filter(|o| o.stat == Stat::N);
        assert!(n.clone().all(|o| o.value == 1.0));
        assert_eq!(n.count(), 42);
        assert!(!p.observations.iter().any(|o| o.stat == Stat::ChangePct));
        // Footnotes and geomean rows are accounted, never read.
        let footnotes = p
            .skipped
            .iter()
            .filter(|(_, w)| w.contains("footnote"))
            .count();
        assert_eq!(footnotes, 2 + 3 + 3);
        assert_eq!(
            p.skipped
                .iter()
                .filter(|(_, w)| w.contains("geometric"))
                .count(),
            3
        );
    }

    #[test]
    fn a_row_with_one_cell_gives_it_to_its_own_column() {
        let p = read("missing-cells.txt");
        assert_eq!(
            medians(&p),
            vec![
                ("MarkdownRenderXHTML", "c4a.results", 143.9e-3),
                ("MarkdownRenderXHTML", "c4.results", 158.3e-3),
                (
                    "MarkdownRenderXHTML",
                    "c4a.results",
                    22.49 * 1024.0 * 1024.0
                ),
                ("MarkdownRenderXHTML", "c4.results", 24.78 * 1024.0 * 1024.0),
            ]
        );
        let p = read("missing-cells-three-columns.txt");
        let variants: Vec<&str> = p
            .observations
            .iter()
            .filter(|o| o.stat == Stat::Median)
            .map(|o| o.variant.as_str())
            .collect();
        assert_eq!(variants, vec!["http-default", "ssl-cached", "ssl-default"]);
    }

    #[test]
    fn a_single_file_table_is_recognised_and_read() {
        let src = Source::read(std::path::Path::new(
            "tests/data/harness/benchstat/single-column.txt",
        ))
        .unwrap();
        assert_eq!(BenchstatText.detect(&src), 85);
        let p = read("single-column.txt");
        let v: Vec<f64> = p
            .observations
            .iter()
            .filter(|o| o.stat == Stat::Median)
            .map(|o| o.value)
            .collect();
        assert_eq!(v, vec![62.92, 113.3 * 1024.0 * 1024.0 * 1024.0, 22.50e3]);
    }

    #[test]
    fn si_suffixes() {
        assert_eq!(si_value("1.718µ"), Some(1.718e-6));
        assert_eq!(si_value("24.00Ki"), Some(24.0 * 1024.0));
        assert_eq!(si_value("100.0n"), Some(100.0e-9));
        assert_eq!(si_value("~"), None);
    }

    /// Detection as it was before the searchers: `str` methods per line.
    fn detect_by_str(src: &Source) -> Confidence {
        let bars = src.lines.iter().any(|l| l.text.matches(BAR).count() >= 2);
        let vs = src
            .lines
            .iter()
            .any(|l| l.text.contains(BAR) && l.text.contains("vs base"));
        if bars && vs {
            90
        } else if single_column_header(src) {
            85
        } else {
            0
        }
    }

    #[test]
    fn real_benchstat_table_is_recognised_by_the_searchers() {
        let path = "tests/data/structured/benchstat-v2.txt";
        let src = Source::read(std::path::Path::new(path)).unwrap();
        assert_eq!(BenchstatText.detect(&src), 90);
    }

    #[test]
    fn detection_gives_the_score_str_methods_give() {
        crate::ingest::assert_detection_agrees(&BenchstatText, detect_by_str);
        for text in [
            "a │ vs base\n",
            "│ vs base\nx │ y │\n",
            "x │ y │ vs base\n",
            "││\nvs base\n",
        ] {
            let src = Source::from_text("x", text);
            assert_eq!(BenchstatText.detect(&src), detect_by_str(&src), "{text:?}");
        }
    }
}
