//! BenchmarkDotNet's summary table, as its console prints it at the end of a
//! run and as its Markdown exporters write it (`*-report-github.md`,
//! `*-report-console.md`, `*-report.md`, the Stack Overflow style indented
//! by four spaces):
//!
//! ```text
//!  Method | Param | Mean     | Error   | StdDev  | Ratio | Allocated |
//! ------- |------ |---------:|--------:|--------:|------:|----------:|
//!  Base   | 2     | 114.5 ns | 5.88 ns | 8.80 ns |  1.00 |      32 B | ^
//!         |       |          |         |         |       |           |
//!  Base   | 10    | 414.5 ns | 5.88 ns | 8.80 ns |  1.00 |         - |
//! ```
//!
//! A header row holding a `Method` cell and a `Mean` or `Median` cell, with
//! or without its outer pipes, over a delimiter row (`---|---:|`). Rows are
//! read by their header: the statistics of the time per operation (`Mean`,
//! `Median`, `StdDev`, `StdErr`, `Min`, `Max`, `Q1`/`Q3` as p25/p75, `P95`
//! and the other percentiles) as metric `time` in the cell's unit; `Error`
//! (half of the 99.9% confidence interval) as the interval's bounds around
//! the mean; `Op/s` as `throughput`; `Allocated` as `allocated`; any other
//! column of numbers after the first statistic (`Gen0`, `Code Size`, a
//! counter) under its own name. Columns before the first statistic (job,
//! runtime, `[Params]` values) and columns of words are the row's params;
//! a `Type` column names the benchmark with its method. `Ratio`,
//! `RatioSD`, `Alloc Ratio` and `Rank` compare rows read already: not
//! read. A cell of `-`, `NA` or `?` has no value; a row whose time
//! statistics are all `NA` (the benchmark failed) is left out with the
//! reason. The blank rows between groups and the `^` marking a group's
//! first row are part of the table.
//!
//! The AsciiDoc exporter (`*-report.asciidoc`) writes the same rows
//! between `|===` lines, the header right under the opening one and no
//! delimiter row: `|Method |Mean |Error` over `|Foo | 1.000 ns| 0.000 ns`.

use crate::error::Result;
use crate::ingest::shared::logscan::Params;
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};

/// The BenchmarkDotNet summary table importer.
pub struct BenchmarkDotNetTable;

/// The cells of a pipe-separated line, outer pipes dropped; `None` when
/// the line has no inner pipe. `outer` says whether the table writes its
/// outer pipes: without them, a pipe opening the line closes a blank
/// first cell (the blank rows between groups).
fn cells(text: &str, outer: bool) -> Option<Vec<&str>> {
    let t = text.trim();
    if t.starts_with("||") {
        return None;
    }
    let t = if outer {
        t.strip_prefix('|').unwrap_or(t)
    } else {
        t
    };
    let mut out: Vec<&str> = t.split('|').map(str::trim).collect();
    if out.len() < 2 {
        return None;
    }
    if out.last().is_some_and(|c| c.is_empty()) {
        out.pop();
    }
    Some(out)
}

/// True when a table's header row writes its outer pipes.
fn has_outer(header: &str) -> bool {
    header.trim_start().starts_with('|')
}

/// A column's name without a unit in brackets, and that unit
/// (`Mean [us]` when the summary style prints units in the header).
fn split_header(cell: &str) -> (&str, Option<&str>) {
    match cell.strip_suffix(']').and_then(|c| c.rsplit_once(" [")) {
        Some((name, unit)) => (name.trim(), Some(unit.trim())),
        None => (cell, None),
    }
}

/// The statistic of the time per operation a column states.
fn time_stat(name: &str) -> Option<Stat> {
    let stat = match name {
        "Mean" => Stat::Mean,
        "Median" => Stat::Median,
        "StdDev" => Stat::Stddev,
        "StdErr" => Stat::Stderr,
        "Min" => Stat::Min,
        "Max" => Stat::Max,
        "Q1" => Stat::percentile(25.0),
        "Q3" => Stat::percentile(75.0),
        _ => {
            let p = name.strip_prefix('P')?;
            if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            Stat::percentile(p.parse::<f64>().ok()?)
        }
    };
    Some(stat)
}

/// The header's cells when `text` is a summary table's header row.
fn header(text: &str) -> Option<Vec<&str>> {
    if !text.contains("Method") {
        return None;
    }
    let c = cells(text, has_outer(text))?;
    let has = |w: &str| c.iter().any(|x| split_header(x).0 == w);
    (has("Method") && (has("Mean") || has("Median"))).then_some(c)
}

/// True for a Markdown delimiter row of `width` cells (`---|--:|:--`).
fn is_delimiter(text: &str, width: usize) -> bool {
    cells(text, has_outer(text)).is_some_and(|c| {
        c.len() == width
            && c.iter()
                .all(|x| !x.is_empty() && x.chars().all(|ch| matches!(ch, '-' | ':')))
    })
}

/// An AsciiDoc table's opening or closing line.
fn is_asciidoc_fence(text: &str) -> bool {
    text.trim() == "|==="
}

/// What a column holds.
#[derive(Clone, Debug, PartialEq)]
enum Col {
    /// The benchmark's name.
    Method,
    /// The benchmark's class, joined to its method.
    Type,
    /// A parameter of the row.
    Param(String),
    /// A statistic of the time per operation.
    Time(Stat),
    /// Half of the confidence interval around the mean.
    Error,
    /// Another measured value under `metric`.
    Value(String),
    /// A comparison of rows, not read.
    Derived,
}

/// A cell's number and unit; `Ok(None)` for a cell that says there is no
/// value (`-`, `NA`, `?`, blank); `Err(())` for words.
fn value(cell: &str, header_unit: Option<&str>) -> std::result::Result<Option<(f64, String)>, ()> {
    let t = cell.trim();
    if matches!(t, "" | "-" | "NA" | "?" | "N/A") {
        return Ok(None);
    }
    let (n, unit) = match t.rsplit_once(' ') {
        Some((n, u)) if parse_number(n).is_some() => (n, u),
        _ => (t, header_unit.unwrap_or("")),
    };
    let v = parse_number(n).ok_or(())?;
    let unit = unit.replace(['μ', 'µ'], "u");
    Ok(Some((v, unit)))
}

/// The roles of a table's columns, from its header and its rows.
fn roles(head: &[&str], rows: &[Vec<&str>]) -> Vec<Col> {
    let first_stat = head
        .iter()
        .position(|h| time_stat(split_header(h).0).is_some())
        .unwrap_or(head.len());
    head.iter()
        .enumerate()
        .map(|(i, h)| {
            let (name, unit) = split_header(h);
            if let Some(stat) = time_stat(name) {
                return Col::Time(stat);
            }
            match name {
                "Method" => return Col::Method,
                "Type" => return Col::Type,
                "Error" => return Col::Error,
                "Ratio" | "RatioSD" | "Alloc Ratio" | "Rank" => return Col::Derived,
                _ => {}
            }
            let numeric = rows
                .iter()
                .all(|r| r.get(i).is_some_and(|c| value(c, unit).is_ok()));
            if i < first_stat || !numeric {
                Col::Param(name.to_string())
            } else {
                Col::Value(name.to_string())
            }
        })
        .collect()
}

/// The metric and unit of a value column other than the time.
fn metric_of(name: &str, unit: &str) -> (String, String) {
    match name {
        "Op/s" => ("throughput".into(), "op/s".into()),
        "Allocated" => ("allocated".into(), unit.into()),
        _ => (name.into(), unit.into()),
    }
}

/// A row's cells without the `^` (or blank) BenchmarkDotNet writes after
/// the closing pipe of a group's first row.
fn row_cells(text: &str, width: usize, outer: bool) -> Option<Vec<&str>> {
    let mut c = cells(text, outer)?;
    if c.len() == width + 1 && matches!(c[width], "^" | "") {
        c.pop();
    }
    (c.len() == width).then_some(c)
}

/// Reads one table: `head` at `rows[0]`'s header, its rows after.
fn read_rows(
    src: &Source,
    head: &[&str],
    rows: &[(u32, Vec<&str>)],
    out: &mut Vec<Observation>,
    skipped: &mut Vec<(u32, String)>,
) {
    let bare: Vec<Vec<&str>> = rows.iter().map(|(_, r)| r.clone()).collect();
    let roles = roles(head, &bare);
    for (n, r) in rows {
        let n = *n;
        let mut params = Params::default();
        let (mut method, mut class) = ("", "");
        for (role, cell) in roles.iter().zip(r) {
            match role {
                Col::Method => method = cell,
                Col::Type => class = cell,
                Col::Param(k) if !cell.is_empty() => params.set(k, cell),
                _ => {}
            }
        }
        let bench = if class.is_empty() {
            method.to_string()
        } else {
            format!("{class}.{method}")
        };
        let params = params.render();
        let at = |metric: &str, unit: &str| {
            Row::at(src, n)
                .benchmark(&bench)
                .params(&params)
                .metric(metric)
                .unit(unit)
        };
        let start = out.len();
        let mut mean: Option<(f64, String)> = None;
        let mut error: Option<(f64, String)> = None;
        for ((role, cell), h) in roles.iter().zip(r).zip(head) {
            let unit = split_header(h).1;
            let Some((v, u)) = value(cell, unit).ok().flatten() else {
                continue;
            };
            match role {
                Col::Time(stat) => {
                    if *stat == Stat::Mean {
                        mean = Some((v, u.clone()));
                    }
                    out.push(at("time", &u).stat(*stat, v));
                }
                Col::Error => error = Some((v, u)),
                Col::Value(name) => {
                    let (metric, unit) = metric_of(name, &u);
                    out.push(at(&metric, &unit).stat(Stat::Mean, v));
                }
                _ => {}
            }
        }
        if let (Some((m, mu)), Some((e, eu))) = (&mean, &error) {
            if mu == eu {
                out.push(at("time", mu).stat(Stat::CiLow, m - e));
                out.push(at("time", mu).stat(Stat::CiHigh, m + e));
            }
        }
        let timed = roles.iter().any(|c| matches!(c, Col::Time(_)))
            && out[start..].iter().all(|o| o.metric != "time");
        if timed {
            out.truncate(start);
            skipped.push((
                n,
                format!("`{bench}` has no time (`NA`: the benchmark failed or did not run)"),
            ));
        }
        // Words where a statistic stands are left out with the reason, not
        // read as nothing.
        for ((role, cell), h) in roles.iter().zip(r).zip(head) {
            if matches!(role, Col::Time(_) | Col::Error) && value(cell, split_header(h).1).is_err()
            {
                skipped.push((n, format!("`{cell}` under `{h}` is not a number")));
            }
        }
    }
}

impl Format for BenchmarkDotNetTable {
    fn name(&self) -> &'static str {
        "benchmarkdotnet-table"
    }

    fn description(&self) -> &'static str {
        "BenchmarkDotNet summary table (console, Markdown exports): `Method | … | Mean | Error | StdDev |` over `---|---:|`, values with their units"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let found = src.lines.windows(2).any(|w| {
            header(&w[0].text).is_some_and(|h| is_delimiter(&w[1].text, h.len()))
                || (is_asciidoc_fence(&w[0].text) && header(&w[1].text).is_some())
        });
        if found {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let lines = &src.lines;
        let mut i = 0;
        while i + 1 < lines.len() {
            let Some(head) = header(&lines[i].text) else {
                i += 1;
                continue;
            };
            let mut j = if is_delimiter(&lines[i + 1].text, head.len()) {
                consumed.extend([lines[i].number, lines[i + 1].number]);
                i + 2
            } else if i > 0 && is_asciidoc_fence(&lines[i - 1].text) {
                consumed.extend([lines[i - 1].number, lines[i].number]);
                i + 1
            } else {
                i += 1;
                continue;
            };
            let outer = has_outer(&lines[i].text);
            let mut rows = Vec::new();
            while let Some(r) = lines
                .get(j)
                .and_then(|l| row_cells(&l.text, head.len(), outer))
            {
                if r.iter().all(|c| c.is_empty()) {
                    consumed.push(lines[j].number);
                } else {
                    rows.push((lines[j].number, r));
                }
                j += 1;
            }
            read_rows(src, &head, &rows, &mut out, &mut skipped);
            if lines.get(j).is_some_and(|l| is_asciidoc_fence(&l.text)) {
                consumed.push(lines[j].number);
                j += 1;
            }
            i = j;
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no BenchmarkDotNet summary row",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    fn get<'a>(
        o: &'a [Observation],
        bench: &str,
        params: &str,
        metric: &str,
        stat: Stat,
    ) -> &'a Observation {
        o.iter()
            .find(|r| {
                r.benchmark == bench && r.params == params && r.metric == metric && r.stat == stat
            })
            .unwrap_or_else(|| panic!("{bench} {params} {metric} {stat}"))
    }

    #[test]
    fn a_table_without_outer_pipes_with_groups_and_marks_is_read_by_its_header() {
        let p = parse_file(
            &BenchmarkDotNetTable,
            "tests/data/harness/benchmarkdotnet/verify-method-baseline-params.txt",
        );
        let o = &p.observations;
        let ps = "Baseline=Yes,LogicalGroup=DistinctParamSet3-DefaultJob,Param=10";
        let mean = get(o, "Base", ps, "time", Stat::Mean);
        assert_eq!(
            (mean.value, mean.unit.as_str(), mean.line),
            (414.5, "ns", 16)
        );
        assert_eq!(get(o, "Base", ps, "time", Stat::Stddev).value, 8.8);
        assert_eq!(get(o, "Base", ps, "time", Stat::CiLow).value, 414.5 - 5.88);
        assert_eq!(get(o, "Base", ps, "time", Stat::CiHigh).value, 414.5 + 5.88);
        // Six rows of mean, stddev and the interval's two bounds; the
        // ratios and ranks are not read.
        assert_eq!(o.len(), 24);
        assert!(o.iter().all(|r| r.metric == "time"));
        // Header, delimiter and the blank row between the groups.
        assert_eq!(p.consumed, vec![10, 11, 15]);
    }

    #[test]
    fn jobs_before_the_statistics_are_params_and_other_numbers_are_metrics() {
        let text = "\
| Method | Job  | N  | Mean      | Error    | StdDev   | Ratio | Gen0   | Allocated |
|------- |----- |--- |----------:|---------:|---------:|------:|-------:|----------:|
| Sha256 | .NET | 10 | 58.42 μs  | 0.468 μs | 0.438 μs |  1.00 |      - |     112 B |
| Md5    | .NET | 10 | 20.47 μs  | 0.195 μs | 0.182 μs |  0.35 | 0.0305 |      80 B |
| Crc    | .NET | 10 |        NA |       NA |       NA |     ? |     NA |        NA |
";
        let src = Source::from_text("bdn.md", text);
        assert_eq!(BenchmarkDotNetTable.detect(&src), 95);
        let p = BenchmarkDotNetTable.parse_accounted(&src).unwrap();
        let o = &p.observations;
        let ps = "Job=.NET,N=10";
        let mean = get(o, "Md5", ps, "time", Stat::Mean);
        assert_eq!((mean.value, mean.unit.as_str()), (20.47, "us"));
        assert_eq!(get(o, "Md5", ps, "Gen0", Stat::Mean).value, 0.0305);
        let alloc = get(o, "Sha256", ps, "allocated", Stat::Mean);
        assert_eq!((alloc.value, alloc.unit.as_str()), (112.0, "B"));
        assert!(!o
            .iter()
            .any(|r| r.benchmark == "Sha256" && r.metric == "Gen0"));
        assert!(!o.iter().any(|r| r.benchmark == "Crc"));
        assert_eq!(p.skipped.len(), 1);
        assert_eq!(p.skipped[0].0, 5);
    }

    #[test]
    fn units_in_the_header_and_a_type_column() {
        let text = "\
| Type | Method | Mean [ns] | Error [ns] | Op/s |
|----- |------- |----------:|-----------:|-----:|
| Hash | Sha1   |  1,234.50 |      10.00 | 810044.6 |
";
        let src = Source::from_text("bdn.md", text);
        let p = BenchmarkDotNetTable.parse_accounted(&src).unwrap();
        let o = &p.observations;
        let mean = get(o, "Hash.Sha1", "", "time", Stat::Mean);
        assert_eq!((mean.value, mean.unit.as_str()), (1234.5, "ns"));
        assert_eq!(get(o, "Hash.Sha1", "", "time", Stat::CiLow).value, 1224.5);
        assert_eq!(
            get(o, "Hash.Sha1", "", "throughput", Stat::Mean).value,
            810044.6
        );
    }

    #[test]
    fn the_asciidoc_export_is_read_between_its_fences() {
        let p = parse_file(
            &BenchmarkDotNetTable,
            "tests/data/harness/benchmarkdotnet/verify-asciidoc-export.txt",
        );
        let o = &p.observations;
        let foo = get(o, "Foo", "", "time", Stat::Mean);
        assert_eq!((foo.value, foo.unit.as_str(), foo.line), (1.0, "ns", 17));
        assert_eq!(
            get(o, "Bar", "", "time", Stat::Percentile(67_000)).value,
            1.0
        );
        assert_eq!(get(o, "Bar", "", "CacheMisses", Stat::Mean).value, 7.0);
        // Mean, StdDev, P67, the interval around the mean, CacheMisses.
        assert_eq!(o.len(), 2 * 6);
    }

    #[test]
    fn tables_of_other_tools_are_not_taken() {
        for text in [
            "| Command | Mean [ms] | Min [ms] |\n|:---|---:|---:|\n| `a` | 1.0 | 0.9 |\n",
            "| Method | Mean |\n| Foo | 1 ns |\n",
            "Method | Mean\nFoo | 1 ns\n",
        ] {
            let src = Source::from_text("t.md", text);
            assert_eq!(BenchmarkDotNetTable.detect(&src), 0, "{text}");
        }
    }
}
