//! mmtests `compare-kernels` / `compare-mmtests.pl` tables:
//!
//! ```text
//!                           5.15.0-rc3             5.15.0-rc3
//!                              vanilla  sched-wakeeflips-v1r1
//! Amean     48       1.3977 (   0.00%)      1.2400 *  11.28%*
//! ```
//!
//! One row per statistic and operation, one `value (pct%)` cell per kernel,
//! the first kernel being the baseline. Kernels are the variants, named from
//! the one or two header lines above the rows (joined by column). The
//! benchmark is the bare line above the header (`hackbench-process-pipes`)
//! when there is one, else `mmtests`; the operation is the `op` param.
//!
//! Statistic rows: `Amean`/`Hmean`/`Gmean` → `mean`, `Stddev`/`HStddev` →
//! `stddev`, `CoeffVar`/`HCoeffVar` → `cv`, `Min`/`Max`. mmtests chooses
//! Hmean for higher-is-better rates and Amean for lower-is-better times, so
//! the metric is named `throughput` or `time` accordingly (which is what
//! gives it its direction). mmtests prints percentages with **+ meaning
//! better** (lower-is-better uses 1 − new/base); the stated change of the
//! mean rows is turned back into a raw `change_pct` (new/base − 1). The
//! `*x%*` significance mark is mmtests' own ±1.96·SD overlap rule and is not
//! carried over: the analysis re-tests. n is not printed. Monitor rows
//! without percentages (`Duration User 632.09 934.45`, `Ops …`) are one
//! `sample` per kernel of metric `<label> <op>`; `--print-ratio` rows
//! (`Dmean`, `Gmean Higher`) are cross-benchmark ratios and are skipped.

use crate::error::Result;
use crate::ingest::shared::logscan::{num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};

crate::ingest::shared::logscan::lazy_re!(
    CELL,
    r"(-?(?:[\d.]+|nan|inf))\s+(?:\(\s*(-?(?:[\d.]+|nan|inf))%\)|\*\s*(-?(?:[\d.]+|nan|inf))%\*)"
);
crate::ingest::shared::logscan::lazy_re!(
    ROW,
    r"^(Min|Max|Amean|Hmean|Gmean|Stddev|HStddev|CoeffVar|HCoeffVar|BAmean-\d+|BHmean-\d+|Pctile-\d+|AmeanCI|SubAmean|[A-Za-z][\w/.-]*)\s+(\S.*?)\s+(-?(?:[\d.]+|nan|inf)\s+(?:\(\s*-?(?:[\d.]+|nan|inf)%\)|\*\s*-?(?:[\d.]+|nan|inf)%\*).*)$"
);

/// The mmtests compare-table importer.
pub struct Mmtests;

/// A statistic row: which stat, and the direction class it implies.
fn stat_of(label: &str) -> Option<Stat> {
    Some(match label {
        "Amean" | "Hmean" | "Gmean" => Stat::Mean,
        "Stddev" | "HStddev" => Stat::Stddev,
        "CoeffVar" | "HCoeffVar" => Stat::Cv,
        "Min" => Stat::Min,
        "Max" => Stat::Max,
        _ => return None,
    })
}

/// Cells of a percentage row: (value, stated %) per kernel.
fn cells(rest: &str) -> Vec<(String, String)> {
    CELL.captures_iter(rest)
        .map(|c| {
            let pct = c
                .get(2)
                .or(c.get(3))
                .map(|m| m.as_str().to_string())
                .unwrap_or_default();
            (c[1].to_string(), pct)
        })
        .collect()
}

impl Format for Mmtests {
    fn name(&self) -> &'static str {
        "mmtests"
    }

    fn description(&self) -> &'static str {
        "mmtests compare tables: `Amean|Hmean|Stddev|Min|Max <op> value (  x.xx%)` rows, `*x%*` marks, kernel header above"
    }

    fn detect(&self, src: &Source) -> Confidence {
        // Every cell has a `%`: without one the regex (compiled only when
        // needed) cannot match.
        let rows = crate::ingest::shared::logscan::lines_containing(src, "%")
            .filter(|t| is_compare_row(t))
            .count();
        match rows {
            0 => 0,
            1 => 60,
            _ => 90,
        }
    }

    /// The kernel-name header lines above each table are `consumed`.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let lines = &src.lines;
        let mut consumed = Vec::new();
        let mut out = Vec::new();
        // The builds each compare table named, by the line after it.
        let mut tables: Vec<(usize, Vec<String>)> = Vec::new();
        let mut i = 0;
        while i < lines.len() {
            let is_row = |k: usize| {
                ROW.captures(&lines[k].text)
                    .is_some_and(|c| cells(&c[3]).len() >= 2)
            };
            if !is_row(i) {
                i += 1;
                continue;
            }
            // A table: consecutive rows (monitor rows may follow) under a header.
            let start = i;
            let mut end = i;
            while end < lines.len() && !lines[end].text.trim().is_empty() {
                end += 1;
            }
            let ncols = ROW
                .captures(&lines[start].text)
                .map(|c| cells(&c[3]).len())
                .unwrap_or(0);
            // A bracketed line right over the rows (`(SNC on)`) is the
            // setting of the rows under it, the header above it.
            let mut top = start;
            let mut setting = None;
            if start > 0 && subheading(&lines[start - 1].text) {
                top = start - 1;
                setting = Some(lines[top].text.trim().to_string());
                consumed.push(lines[top].number);
            }
            let (named, bench) = header(src, top, ncols, &mut consumed);
            // A table with no header of its own compares the builds of the
            // table above it when it has as many columns (a second
            // benchmark under only its title, `NUMA01_THREADLOCAL`).
            let variants = named
                .or_else(|| {
                    tables
                        .last()
                        .map(|(_, v): &(usize, Vec<String>)| v.clone())
                        .filter(|v| v.len() == ncols)
                })
                .unwrap_or_else(|| (0..ncols).map(|c| format!("kernel {}", c + 1)).collect());
            let higher = lines[start..end]
                .iter()
                .any(|l| l.text.starts_with("Hmean"));
            let metric = if higher { "throughput" } else { "time" };
            for l in &lines[start..end] {
                if subheading(&l.text) {
                    setting = Some(l.text.trim().to_string());
                    consumed.push(l.number);
                    continue;
                }
                let named = match &setting {
                    Some(s) => format!("{bench} {s}"),
                    None => bench.clone(),
                };
                table_row(
                    src, l.number, &l.text, &variants, &named, metric, higher, ncols, &mut out,
                )?;
            }
            if !variants.iter().any(|v| v.starts_with("kernel ")) {
                tables.push((end, variants));
            }
            i = end;
        }
        // Monitor tables (no percentages) elsewhere in the file.
        monitor_tables(src, &tables, &mut out)?;
        Parsed::found(
            src,
            out,
            consumed,
            Vec::new(),
            "no mmtests compare row found",
        )
    }
}

/// A bracketed line of a few words (`(SNC on)`, `(THP always)`) among the
/// rows of a compare table: the setting of the rows below it.
fn subheading(text: &str) -> bool {
    let t = text.trim();
    t.len() > 2
        && t.starts_with('(')
        && t.ends_with(')')
        && t.split_whitespace().count() <= 4
        && !t[1..t.len() - 1].contains(['(', ')'])
}

/// Kernel names (`None` when no line names them) and benchmark name from
/// the lines above row `start`; the lines read are added to `consumed`.
fn header(
    src: &Source,
    start: usize,
    ncols: usize,
    consumed: &mut Vec<u32>,
) -> (Option<Vec<String>>, String) {
    let mut names: Vec<Vec<String>> = Vec::new();
    let mut k = start;
    let mut bench = "mmtests".to_string();
    // Where the values of the first row begin: an indented header's first
    // cell that ends before them names the row labels' column.
    let values_at = ROW
        .captures(&src.lines[start].text)
        .and_then(|c| c.get(3))
        .map(|m| m.start());
    // A header parted from its rows by a blank line and a remark (a reply
    // written into the quote) still heads them: past blank lines and
    // lines without a digit, the nearest line with one is tried as the
    // header, once.
    let mut skipped_to = None;
    while k > 0 {
        k -= 1;
        let unruled = unruled(&src.lines[k].text);
        let text = unruled.as_str();
        let toks: Vec<String> = text.split_whitespace().map(str::to_string).collect();
        // Names of several words keep their single spaces (`good + series`);
        // a first cell over the row labels (`kernel`) heads no column.
        let cells: Vec<String> = text
            .split("  ")
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(str::to_string)
            .collect();
        let indented = text.starts_with([' ', '\t']);
        // A second header line whose long names ran into each other
        // (`vanillasched-scalewakegran-v2r4`) is cut where the columns of
        // the line above end.
        let glued = (indented && toks.len() < ncols && k > 0)
            .then(|| &src.lines[k - 1].text)
            .filter(|above| {
                above.starts_with([' ', '\t']) && above.split_whitespace().count() == ncols
            })
            .and_then(|above| split_glued(text, above, ncols));
        let named = if let Some(row) = glued {
            Some(row)
        } else if toks.len() == ncols && indented {
            Some(toks)
        } else if cells.len() == ncols && indented {
            Some(cells)
        } else if cells.len() == ncols + 1
            && (!indented || over_labels(text, &cells[0], values_at))
            && !cells[0].bytes().any(|b| b.is_ascii_digit())
        {
            Some(cells[1..].to_vec())
        } else {
            None
        };
        if let Some(row) = named.filter(|_| names.len() < 2) {
            names.insert(0, row);
            consumed.push(src.lines[k].number);
            continue;
        }
        let t = src.lines[k].text.trim();
        if !t.is_empty() && !names.is_empty() && !t.contains("  ") {
            bench = t.to_string();
            consumed.push(src.lines[k].number);
        }
        if names.is_empty() && skipped_to.is_none() && k + 1 == start {
            if let Some(h) = header_above_remark(src, k) {
                skipped_to = Some(h);
                k = h + 1;
                continue;
            }
        }
        break;
    }
    if names.is_empty() {
        return (None, bench);
    }
    let variants = (0..ncols)
        .map(|c| {
            let parts: Vec<&str> = names
                .iter()
                .filter_map(|n| n.get(c).map(String::as_str))
                .collect();
            if parts.is_empty() {
                format!("kernel {}", c + 1)
            } else {
                parts.join(" ")
            }
        })
        .collect();
    (Some(variants), bench)
}

/// `text` with a leading rule of `=` or `-` blanked out, when names
/// follow it after a gap (`==========\t\tbase   patched`: the header
/// written on the title's underline); the columns of the names stay.
fn unruled(text: &str) -> String {
    let t = text.trim_start();
    let rule = t.bytes().take_while(|&b| b == b'=' || b == b'-').count();
    let rest = &t[rule..];
    if rule >= 3 && rest.starts_with([' ', '\t']) && !rest.trim().is_empty() {
        let lead = text.len() - t.len();
        format!("{}{}", " ".repeat(lead + rule), rest)
    } else {
        text.to_string()
    }
}

/// The index of the last line of a header standing in its own paragraph
/// above line `k` (the line over a table's first row, which heads
/// nothing): `k` is blank or a remark, and going up over blank lines and
/// lines without a digit (the remark), at least one blank among them,
/// the first line with a digit is indented. Up to eight lines are passed.
fn header_above_remark(src: &Source, k: usize) -> Option<usize> {
    let mut blank = false;
    let mut j = k + 1;
    while j > 0 && k + 1 - j < 8 {
        j -= 1;
        let t = &src.lines[j].text;
        if t.trim().is_empty() {
            blank = true;
            continue;
        }
        if t.bytes().any(|b| b.is_ascii_digit()) {
            return (blank && j < k && t.starts_with([' ', '\t'])).then_some(j);
        }
    }
    None
}

/// Whether `first`, the first cell of the header line `text`, ends before
/// `values_at`, the column where the values of the rows begin: it heads
/// the row labels (`clients` over `Amean 1`), not a build's column.
fn over_labels(text: &str, first: &str, values_at: Option<usize>) -> bool {
    let end = text.find(first).map(|at| at + first.len());
    matches!((end, values_at), (Some(end), Some(at)) if end <= at)
}

/// The words of `lower` cut into `ncols` names at the right edges of the
/// words of `above` (in columns of characters, tabs counted as one), where
/// a word runs across one; `None` when that does not give `ncols` names.
fn split_glued(lower: &str, above: &str, ncols: usize) -> Option<Vec<String>> {
    let spans = |t: &str| -> Vec<(usize, usize)> {
        let chars: Vec<char> = t.chars().collect();
        let mut out = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            if chars[i].is_whitespace() {
                i += 1;
                continue;
            }
            let start = i;
            while i < chars.len() && !chars[i].is_whitespace() {
                i += 1;
            }
            out.push((start, i));
        }
        out
    };
    let edges: Vec<usize> = spans(above).iter().map(|s| s.1).collect();
    let chars: Vec<char> = lower.chars().collect();
    let mut words = spans(lower);
    let mut k = 0;
    while k < words.len() && words.len() < ncols {
        let (start, end) = words[k];
        match edges.iter().find(|e| start < **e && **e < end) {
            Some(&e) => {
                words[k] = (start, e);
                words.insert(k + 1, (e, end));
            }
            None => k += 1,
        }
    }
    (words.len() == ncols).then(|| {
        words
            .iter()
            .map(|(a, b)| chars[*a..*b].iter().collect())
            .collect()
    })
}

#[allow(clippy::too_many_arguments)]
fn table_row(
    src: &Source,
    line: u32,
    text: &str,
    variants: &[String],
    bench: &str,
    metric: &str,
    higher: bool,
    ncols: usize,
    out: &mut Vec<Observation>,
) -> Result<()> {
    let Some(c) = ROW.captures(text) else {
        return Ok(());
    };
    let label = &c[1];
    let op = c[2].trim();
    let row = cells(&c[3]);
    if row.len() != ncols {
        return Err(src.error(
            Some(line),
            format!(
                "mmtests row has {} kernel cells, the table {ncols}",
                row.len()
            ),
        ));
    }
    let mut p = Params::default();
    p.set("op", op);
    let params = p.render();
    let (metric, stat) = match stat_of(label) {
        Some(s) => (metric.to_string(), s),
        // BAmean-NN, Pctile-NN … and plain labels (`MB/sec copy`) are their own metric.
        None => (label.to_string(), Stat::Sample),
    };
    for (k, (v, pct)) in row.iter().enumerate() {
        let variant = variants.get(k).cloned().unwrap_or_default();
        // mmtests prints `nan` for a statistic of no data (a CoeffVar of a
        // zero mean): no value, and no error for the rest of the table.
        if v.contains("nan") || v.contains("inf") {
            continue;
        }
        let v = num(src, line, v, &metric)?;
        out.push(
            Row::at(src, line)
                .benchmark(bench)
                .params(&params)
                .metric(&metric)
                .stat(stat, v)
                .with_variant(variant.clone()),
        );
        if k > 0 && stat == Stat::Mean && !pct.contains("nan") && !pct.contains("inf") {
            let better = num(src, line, pct, "change")?;
            // + means better: back to new/base − 1.
            let raw = if higher { better } else { -better };
            out.push(
                Row::at(src, line)
                    .benchmark(bench)
                    .params(&params)
                    .metric(&metric)
                    .stat(Stat::ChangePct, raw)
                    .with_variant(variant),
            );
        }
    }
    Ok(())
}

/// `Duration User 632.09 934.45` / `Ops Minor Faults 5884093.00 2325847.00`
/// rows under a kernel header: one sample per kernel.
/// Without a header of their own, they compare the builds of the nearest
/// compare table above when it has as many (mmtests prints them under it).
fn monitor_tables(
    src: &Source,
    tables: &[(usize, Vec<String>)],
    out: &mut Vec<Observation>,
) -> Result<()> {
    let lines = &src.lines;
    for (i, l) in lines.iter().enumerate() {
        let toks: Vec<&str> = l.text.split_whitespace().collect();
        if toks.len() < 3 || !matches!(toks[0], "Duration" | "Ops") {
            continue;
        }
        let nums = toks
            .iter()
            .rev()
            .take_while(|t| crate::ingest::shared::numbers::parse_number(t).is_some())
            .count();
        if nums < 2 || nums + 2 > toks.len() {
            continue;
        }
        let label = toks[..toks.len() - nums].join(" ").to_ascii_lowercase();
        // The kernel header is the nearest line above with exactly `nums` words.
        let mut variants: Vec<String> = tables
            .iter()
            .rev()
            .find(|(end, _)| *end <= i)
            .map(|(_, v)| v.clone())
            .filter(|v| v.len() == nums)
            .unwrap_or_else(|| (0..nums).map(|k| format!("kernel {}", k + 1)).collect());
        for k in (0..i).rev() {
            let h: Vec<&str> = lines[k].text.split_whitespace().collect();
            if h.is_empty() {
                break;
            }
            if h.len() == nums && lines[k].text.starts_with(' ') {
                variants = h.iter().map(|s| s.to_string()).collect();
                break;
            }
        }
        for (k, v) in toks[toks.len() - nums..].iter().enumerate() {
            let v = num(src, l.number, v, &label)?;
            out.push(
                Row::at(src, l.number)
                    .benchmark("mmtests")
                    .metric(&label)
                    .sample(v)
                    .with_variant(variants[k].clone()),
            );
        }
    }
    Ok(())
}

/// Whether `t` is a row of an mmtests compare table. The baseline column is
/// always `(   0.00%)`: with it, any row label (`MB/sec copy`) is a compare
/// row.
fn is_compare_row(t: &str) -> bool {
    ROW.captures(t).is_some_and(|c| {
        let cells = cells(&c[3]);
        cells.len() >= 2 && (stat_of(&c[1]).is_some() || cells[0].1 == "0.00")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Detection as it was before the joined-text search: every line.
    fn detect_by_line(src: &Source) -> Confidence {
        let rows = src
            .lines
            .iter()
            .filter(|l| l.text.contains('%') && is_compare_row(&l.text))
            .count();
        match rows {
            0 => 0,
            1 => 60,
            _ => 90,
        }
    }

    #[test]
    fn detection_gives_the_score_the_line_search_gives() {
        assert!(crate::ingest::assert_detection_agrees(&Mmtests, detect_by_line) > 0);
    }

    #[test]
    fn glued_names_are_cut_at_the_columns_above() {
        let above =
            "                         5.15.0-rc1             5.15.0-rc1             5.15.0-rc1";
        let lower =
            "                            vanillasched-scalewakegran-v2r4 sched-moveforward-v1r1";
        assert_eq!(
            split_glued(lower, above, 3).unwrap(),
            [
                "vanilla",
                "sched-scalewakegran-v2r4",
                "sched-moveforward-v1r1"
            ]
        );
        assert_eq!(split_glued("   a b", "  x  y  z", 3), None);
    }

    #[test]
    fn a_bracketed_setting_among_the_rows_names_the_rows_under_it() {
        let text = "hackbench-process-pipes\n                         baseline\t\t  patched\n\
                    (SNC on)\n\
                    Amean     1        0.4557 (   0.00%)      0.4500 (   1.24%)\n\
                    (SNC off)\n\
                    Amean     1        0.3143 (   0.00%)      0.2933 (   6.68%)\n";
        let rows = Mmtests.parse(&Source::from_text("m.txt", text)).unwrap();
        let get = |v: f64| rows.iter().find(|o| o.value == v).unwrap();
        assert_eq!(get(0.45).variant, "patched");
        assert_eq!(get(0.4557).benchmark, "hackbench-process-pipes (SNC on)");
        assert_eq!(get(0.2933).benchmark, "hackbench-process-pipes (SNC off)");
    }

    #[test]
    fn an_indented_header_cell_over_the_row_labels_heads_no_build() {
        // Lines of a corpus post (dbench under BFQ, quoted): `clients`
        // names the column of `Amean 1`, the three builds follow it.
        let text = "      clients           MQ                     SQ             MQ-Patched\n\
                    Amean 1      39.12 (0.00%)       43.29 * -10.67%*       36.09 *   7.74%*\n\
                    Amean 2     128.58 (0.00%)      101.30 *  21.22%*       96.14 *  25.23%*\n";
        let rows = Mmtests.parse(&Source::from_text("m.txt", text)).unwrap();
        let get = |v: f64| rows.iter().find(|o| o.value == v).unwrap();
        assert_eq!(get(39.12).variant, "MQ");
        assert_eq!(get(101.3).variant, "SQ");
        assert_eq!(get(36.09).variant, "MQ-Patched");
        // A header cell that reaches into the values is a build's name.
        assert!(!over_labels("   base    patched", "base", Some(5)));
        assert!(over_labels("  clients   MQ", "clients", Some(9)));
    }

    #[test]
    fn a_header_on_the_underline_names_the_builds_of_later_tables_too() {
        // Lines of a corpus post (kernbench and autonumabench, two builds):
        // the names stand on the title's underline; the monitor rows and
        // the second table, under its title alone, compare the same builds.
        let text = "kernbench\n\
                    ==========\t\tbase                  patched %gain\n\
                    Amean    elsp-128      165.09 ( 0.00%)      164.78 *   0.19%*\n\
                    \n\
                    Duration User       41404.28    41375.08\n\
                    \n\
                    NUMA01_THREADLOCAL\n\
                    ==================\n\
                    Amean  elsp-NUMA01_THREADLOCAL   81.79 (0.00%)  67.74 *  17.18%*\n";
        let rows = Mmtests.parse(&Source::from_text("m.txt", text)).unwrap();
        let get = |v: f64| rows.iter().find(|o| o.value == v).unwrap();
        assert_eq!(get(165.09).variant, "base");
        assert_eq!(get(165.09).benchmark, "kernbench");
        assert_eq!(get(164.78).variant, "patched %gain");
        assert_eq!(get(41404.28).variant, "base");
        assert_eq!(get(81.79).variant, "base");
        assert_eq!(get(67.74).variant, "patched %gain");
    }

    #[test]
    fn a_header_parted_from_its_rows_by_a_remark_heads_them() {
        // Lines of a corpus post: the reply's remark sits between the
        // quoted header and the quoted rows.
        let text = "stress-highalloc\n\
                    \x20                             4.5-rc1               4.5-rc1\n\
                    \x20                              3-test                4-test\n\
                    \n\
                    A question about those two names sits in the quote here; the tables go\n\
                    on below it:\n\
                    \n\
                    Success 1 Min          1.00 (  0.00%)        3.00 (-200.00%)\n";
        let rows = Mmtests.parse(&Source::from_text("m.txt", text)).unwrap();
        let get = |v: f64| rows.iter().find(|o| o.value == v).unwrap();
        assert_eq!(get(1.0).variant, "4.5-rc1 3-test");
        assert_eq!(get(3.0).variant, "4.5-rc1 4-test");
        assert_eq!(get(3.0).benchmark, "stress-highalloc");
        // A remark with a digit in it parts the rows from anything above.
        let text = text.replace("on below it:", "on below 2:");
        let rows = Mmtests.parse(&Source::from_text("m.txt", &text)).unwrap();
        assert_eq!(
            rows.iter().find(|o| o.value == 1.0).unwrap().variant,
            "kernel 1"
        );
    }
}
