//! A delimited table no importer knows: a header line, then rows of as
//! many fields split by commas, semicolons or tabs (`Percentage served,Time
//! in ms`, a nanobench `;` export, an old Criterion `raw.csv`). Each column
//! whose every filled cell is a number is a metric named by its header;
//! the text columns, joined, name the row's benchmark; each row is a run.

use super::bracket_unit;
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::shared::structured::split_csv;
use crate::ingest::{Line, Parsed, Source};

/// The fields of `line` split at `delim` (quoted as CSV quotes), trimmed.
fn fields(line: &str, delim: char) -> Vec<String> {
    split_csv(line, delim)
        .into_iter()
        .map(|f| f.trim().to_string())
        .collect()
}

/// The file read as a delimited table with a header, or `None` when it is
/// not one (fewer than two columns, a ragged row, no numeric column, or a
/// header that is itself all numbers). The header is the first line, or,
/// below a preamble (a monitor's banner and command line), the line above
/// the rows of numbers, with the row of group names above it when there
/// is one.
pub fn read(src: &Source, stem: &str) -> Option<Parsed> {
    let lines: Vec<&Line> = src
        .lines
        .iter()
        .filter(|l| !l.text.trim().is_empty())
        .collect();
    first_line_header(src, stem, &lines)
        .or_else(|| stacked(src, stem))
        .or_else(|| under_preamble(src, stem, &lines))
        .or_else(|| last_block(src, stem, &lines))
}

/// Tables stacked in one file, each under its own header and set apart
/// from the next by a blank line (pbench's `summary-result.csv`: a table
/// per kind of test): each block read as a table of its own. Every block
/// must be one, so that a banner over a table is left to the preamble's
/// reading.
fn stacked(src: &Source, stem: &str) -> Option<Parsed> {
    let mut blocks: Vec<Vec<&Line>> = vec![Vec::new()];
    for l in &src.lines {
        match (l.text.trim().is_empty(), blocks.last_mut()) {
            (true, Some(b)) if !b.is_empty() => blocks.push(Vec::new()),
            (false, Some(b)) => b.push(l),
            _ => {}
        }
    }
    blocks.retain(|b| !b.is_empty());
    if blocks.len() < 2 {
        return None;
    }
    let mut all = Parsed::default();
    for b in &blocks {
        let p = first_line_header(src, stem, b)?;
        all.observations.extend(p.observations);
        all.consumed.extend(p.consumed);
    }
    Some(all)
}

/// A table with text columns closing a file of other lines (SPECviewperf's
/// result CSV: a `Composites` section of one row, then the table of
/// viewsets): the trailing lines of the last line's field count, the first
/// of them the header, every cell a name. As under a preamble, the lines
/// above must be fewer than the rows, so that a log ending in a small
/// table is still read line by line.
fn last_block(src: &Source, stem: &str, lines: &[&Line]) -> Option<Parsed> {
    let last = lines.last()?;
    let delim = [',', ';', '\t']
        .into_iter()
        .find(|&d| fields(&last.text, d).len() >= 2)?;
    let width = fields(&last.text, delim).len();
    let mut first = lines.len();
    while first > 0 && fields(&lines[first - 1].text, delim).len() == width {
        first -= 1;
    }
    let header = fields(&lines.get(first)?.text, delim);
    let names = header
        .iter()
        .all(|h| !h.is_empty() && parse_number(h).is_none());
    let rows = &lines[first + 1..];
    if !names || rows.len() < 2 || first >= rows.len() {
        return None;
    }
    table(src, stem, &header, &[lines[first].number], rows, delim)
}

/// A table whose first line is its header. Comment lines (`#`) may stand
/// above it, and the header may be the last of them (`#Tag,Interval_Start,…`,
/// `# hostname;interval;…`) when, its `#` taken off, it has as many
/// fields as the line below.
fn first_line_header(src: &Source, stem: &str, lines: &[&Line]) -> Option<Parsed> {
    let comments = lines
        .iter()
        .take_while(|l| l.text.trim_start().starts_with('#'))
        .count();
    let below = &lines[comments..];
    let commented = comments
        .checked_sub(1)
        .map(|k| lines[k].text.trim_start().trim_start_matches('#').trim())
        .filter(|h| {
            below.first().is_some_and(|first| {
                [',', ';', '\t'].into_iter().any(|d| {
                    let n = fields(h, d).len();
                    n >= 2 && n == fields(&first.text, d).len()
                })
            })
        });
    let (head, head_line, rows): (&str, u32, &[&Line]) = match commented {
        Some(h) => (h, lines[comments - 1].number, below),
        None => {
            let (head, rows) = below.split_first()?;
            (&head.text, head.number, rows)
        }
    };
    if rows.is_empty() {
        return None;
    }
    let delim = [',', ';', '\t']
        .into_iter()
        .find(|&d| fields(head, d).len() >= 2)?;
    let header = fields(head, delim);
    // A header names every column: a first line holding a number is a
    // data row, and a file without its header is no table read here. A
    // percentage names a percentile's column (Locust's `50%,66%,…,100%`, a
    // data frame's `25%,50%,75%`) when a word of the same line stands over
    // a number of the row below: a data row's words stand over words.
    let named = |h: &String| !h.is_empty() && parse_number(h).is_none();
    let percentile = |h: &String| h.ends_with('%') && h.as_bytes()[0].is_ascii_digit();
    let first_row = fields(&rows[0].text, delim);
    let words_over_numbers = header
        .iter()
        .zip(&first_row)
        .any(|(h, c)| named(h) && parse_number(c).is_some());
    let header_is_names = header
        .iter()
        .all(|h| named(h) || (words_over_numbers && percentile(h)));
    if !header_is_names {
        return None;
    }
    table(src, stem, &header, &[head_line], rows, delim)
}

/// A table under lines of another shape (dstat's `--output` CSV: its
/// banner, author, host and command line, then a row of group names
/// spanning empty cells, `"total cpu usage",,,,,,"load avg",,`, a row of
/// column names, `"usr","sys","idl",…`, and rows of numbers). The rows are
/// the trailing lines of the last line's field count whose cells are all
/// numbers or empty; the header the line above them, holding names (a
/// column may be named by a number, an interrupt's `12`); a line above it
/// of the same width with empty cells names groups, each the prefix of the
/// columns up to the next.
fn under_preamble(src: &Source, stem: &str, lines: &[&Line]) -> Option<Parsed> {
    let last = lines.last()?;
    let delim = [',', ';', '\t']
        .into_iter()
        .find(|&d| fields(&last.text, d).len() >= 2)?;
    let width = fields(&last.text, delim).len();
    let of_width = |l: &Line| {
        let f = fields(&l.text, delim);
        (f.len() == width).then_some(f)
    };
    // A `NaN` is a number not measured (a load level no request
    // reached): a missing cell, as in [`table`], so its row stays a row
    // and is not taken for the header above the others.
    let missing = |c: &str| c.is_empty() || c.eq_ignore_ascii_case("nan");
    let numbers = |f: &[String]| {
        f.iter().all(|c| missing(c) || parse_number(c).is_some()) && f.iter().any(|c| !missing(c))
    };
    let mut first = lines.len();
    while first > 0 && of_width(lines[first - 1]).is_some_and(|f| numbers(&f)) {
        first -= 1;
    }
    let header_at = first.checked_sub(1)?;
    let names = of_width(lines[header_at])?;
    if first == lines.len() || names.iter().any(String::is_empty) || numbers(&names) {
        return None;
    }
    let groups = header_at
        .checked_sub(1)
        .and_then(|k| of_width(lines[k]))
        .filter(|g| g.iter().any(String::is_empty) && !numbers(g));
    let header: Vec<String> = match &groups {
        None => names,
        Some(g) => {
            let mut group = String::new();
            names
                .iter()
                .zip(g)
                .map(|(name, cell)| {
                    if !cell.is_empty() {
                        group.clone_from(cell);
                    }
                    if group.is_empty() || group == *name {
                        name.clone()
                    } else {
                        format!("{group} {name}")
                    }
                })
                .collect()
        }
    };
    // The preamble is the frame of the table, not the file's matter: a
    // log of its own lines ending in a small table is read line by line.
    let preamble = header_at - usize::from(groups.is_some());
    if preamble >= lines.len() - first {
        return None;
    }
    let head_lines: Vec<u32> = (header_at - usize::from(groups.is_some())..first)
        .map(|k| lines[k].number)
        .collect();
    table(src, stem, &header, &head_lines, &lines[first..], delim)
}

/// The rows under `header` (read from the lines `head_lines`, which are
/// consumed): a metric per numeric column, the text columns joined as the
/// benchmark, each row a run.
fn table(
    src: &Source,
    stem: &str,
    header: &[String],
    head_lines: &[u32],
    rows: &[&Line],
    delim: char,
) -> Option<Parsed> {
    let mut table: Vec<Vec<String>> = rows.iter().map(|l| fields(&l.text, delim)).collect();
    // A row one field longer than the header, led by a `key=value` tag
    // (an HdrHistogram log's `Tag=A,0.127,1.007,…` under a legend that
    // names no tag column): the tag is the row's parameter.
    let tags: Vec<Option<String>> = table
        .iter_mut()
        .map(|r| (r.len() == header.len() + 1 && is_tag(&r[0])).then(|| r.remove(0)))
        .collect();
    if table.iter().any(|r| r.len() != header.len()) {
        return None;
    }
    let numeric: Vec<bool> = (0..header.len())
        .map(|k| {
            let mut any = false;
            // `NaN` is a number not measured: a missing cell, as an empty one.
            let all = table.iter().all(|r| {
                let c = &r[k];
                let missing = c.is_empty() || c.eq_ignore_ascii_case("nan");
                any |= !missing;
                missing || cell_number(c).is_some()
            });
            all && any
        })
        .collect();
    let metrics = metric_names(header);
    if !numeric.iter().any(|&n| n) {
        return None;
    }
    // A column of time stamps or encoded payloads tells rows apart; it
    // names none of them.
    let naming: Vec<bool> = (0..header.len())
        .map(|k| {
            !numeric[k]
                && !table
                    .iter()
                    .all(|r| r[k].is_empty() || is_time_stamp(&r[k]) || is_blob(&r[k]))
        })
        .collect();
    let mut out = Vec::new();
    let mut runs: hashbrown::HashMap<String, u32> = hashbrown::HashMap::new();
    for ((l, r), tag) in rows.iter().zip(&table).zip(&tags) {
        let names: Vec<&str> = r
            .iter()
            .zip(&naming)
            .filter(|(c, &name)| name && !c.is_empty())
            .map(|(c, _)| c.as_str())
            .collect();
        let bench = if names.is_empty() {
            stem.to_string()
        } else {
            names.join(" ")
        };
        let tag = tag.as_deref().unwrap_or("");
        let run = runs.entry(format!("{bench}\n{tag}")).or_insert(0);
        for (k, c) in r.iter().enumerate().filter(|(k, _)| numeric[*k]) {
            let Some((v, percent)) = cell_number(c) else {
                continue;
            };
            let (metric, unit) = bracket_unit(&metrics[k]).unwrap_or((metrics[k].as_str(), ""));
            let unit = if percent { "%" } else { unit };
            let o = Row::at(src, l.number)
                .benchmark(&bench)
                .params(tag)
                .metric(metric)
                .unit(unit)
                .sample(v);
            out.push(o.with_run(*run));
        }
        *run += 1;
    }
    (!out.is_empty()).then(|| Parsed {
        observations: out,
        consumed: head_lines.to_vec(),
        ..Parsed::default()
    })
}

/// A `key=value` cell naming its row (`Tag=A`): a word, `=`, a value
/// without spaces.
/// A cell's number, and whether it is written as a percentage (`0.0000%`).
fn cell_number(cell: &str) -> Option<(f64, bool)> {
    match cell.strip_suffix('%') {
        Some(p) => parse_number(p).map(|v| (v, true)),
        None => parse_number(cell).map(|v| (v, false)),
    }
}

/// The metric of each column: its header, or, for a name the header gives
/// several columns (pbench's `stddevpct` after each figure), the name of
/// the column before it and its own (`trans_sec stddevpct`), so that the
/// columns stay apart.
fn metric_names(header: &[String]) -> Vec<String> {
    (0..header.len())
        .map(|k| {
            let h = &header[k];
            if k > 0 && header.iter().filter(|o| *o == h).count() > 1 {
                format!("{} {h}", header[k - 1])
            } else {
                h.clone()
            }
        })
        .collect()
}

fn is_tag(cell: &str) -> bool {
    cell.split_once('=').is_some_and(|(k, v)| {
        !k.is_empty()
            && k.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            && k.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
            && !v.is_empty()
            && !v.contains(char::is_whitespace)
    })
}

/// A date with an optional time of day, fraction and zone
/// (`2023-04-07 00:55:33.422461033+00:00`, `2019-04-18 13:20:19 UTC`,
/// nvidia-smi's `2024/03/15 13:57:59.791`).
fn is_time_stamp(cell: &str) -> bool {
    let b = cell.as_bytes();
    let date = b.len() >= 10
        && matches!(b[4], b'-' | b'/')
        && b[7] == b[4]
        && b[..10]
            .iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    date && (b.len() == 10 || matches!(b[10], b' ' | b'T') && b.len() >= 16 && b[13] == b':')
}

/// An encoded payload: a long run of base64 characters (an HdrHistogram
/// log's compressed histogram).
fn is_blob(cell: &str) -> bool {
    cell.len() >= 40
        && cell
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'='))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(name: &str, text: &str) -> Vec<(String, String, String, f64, Option<u32>)> {
        read(&Source::from_text(name, text), "stem")
            .map(|p| {
                p.observations
                    .into_iter()
                    .map(|o| {
                        let (b, m, u) = (
                            o.benchmark.to_string(),
                            o.metric.to_string(),
                            o.unit.to_string(),
                        );
                        (b, m, u, o.value, o.run)
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    #[test]
    fn percentages_in_a_header_over_numbers_name_percentile_columns() {
        // Locust's `--csv` statistics (from jenkinsci/performance-plugin,
        // `src/test/resources/test_results_stats.csv`, cut to two rows of
        // its four and five of its percentiles), blank lines between rows
        // as that file has them.
        let text =
            "Type,Name,Request Count,Failure Count,Median Response Time,50%,66%,99.9%,100%\n\n\
            POST,big,638,10,400.0,480,510,630,630\n\n\
            POST,huge,72,0,800.0,420,470,700,700\n";
        let r = rows("locust_stats.csv", text);
        assert_eq!(r.len(), 14);
        assert_eq!(
            r[0],
            (
                "POST big".into(),
                "Request Count".into(),
                "".into(),
                638.0,
                Some(0)
            )
        );
        assert!(r.contains(&(
            "POST huge".into(),
            "99.9%".into(),
            "".into(),
            700.0,
            Some(0)
        )));
        // A file of rows without a header: its words stand over words.
        let r = rows("no_header.csv", "a,12%,13%\nb,14%,15%\n");
        assert!(r.is_empty(), "{r:?}");
    }

    #[test]
    fn header_columns_name_metrics_and_text_columns_the_benchmark() {
        // ApacheBench's `-e` percentile export.
        let r = rows("ab.csv", "Percentage served,Time in ms\n0,4.0\n50,5.0\n");
        assert_eq!(r.len(), 4);
        assert_eq!(
            r[3],
            ("stem".into(), "Time in ms".into(), "".into(), 5.0, Some(1))
        );
        // nanobench's `;` export with quoted fields.
        let r = rows(
            "n.csv",
            "\"title\";\"name\";\"unit\";\"elapsed\"\n\"RNG\";\"mt19937\";\"op\";2.5e-08\n\"RNG\";\"knuth_b\";\"op\";3.2e-08\n",
        );
        assert_eq!(r.len(), 2);
        assert_eq!(
            r[1],
            (
                "RNG knuth_b op".into(),
                "elapsed".into(),
                "".into(),
                3.2e-8,
                Some(0)
            )
        );
        // A bracketed unit in the header is the column's unit; empty cells are skipped.
        let r = rows(
            "c.csv",
            "group,value,time [ns]\nfib,,34227102.0\nfib,,65933632.0\n",
        );
        assert_eq!(
            r[1],
            (
                "fib".into(),
                "time".into(),
                "ns".into(),
                65933632.0,
                Some(1)
            )
        );
    }

    #[test]
    fn a_header_under_a_preamble_takes_its_group_names() {
        // pcp-dstat's --output CSV (lines of a real file, cut to 8 columns).
        let text = "\"pcp-dstat 5.0.3 CSV Output\"\n\
            \"Host:\",\"pkb-d43f64f0-0\",,,,\"User:\",\"perfkit\"\n\
            \n\
            \"epoch\",\"total cpu usage\",,,\"interrupts\",,,\"memory usage\"\n\
            \"epoch\",\"usr\",\"sys\",\"idl\",\"12\",\"25\",\"30\",\"used\"\n\
            1475708693.291,6.400,5.216,86.808,0.058,3481.518,10.190,2632093696.0\n\
            1475708694.292,0.0,0.0,100.0,0.0,4.0,0.0,2630492160.0\n\
            1475708695.292,0.0,0.0,100.0,0.0,0.0,0.0,2630492160.0\n";
        let r = rows("dstat.csv", text);
        assert_eq!(r.len(), 24);
        assert_eq!(r[0].1, "epoch");
        assert_eq!(
            r[1],
            (
                "stem".into(),
                "total cpu usage usr".into(),
                "".into(),
                6.4,
                Some(0)
            )
        );
        assert_eq!(r[5].1, "interrupts 25");
        assert_eq!(
            r[15],
            (
                "stem".into(),
                "memory usage used".into(),
                "".into(),
                2630492160.0,
                Some(1)
            )
        );
        // Without a group row, the names alone; a preamble over rows
        // without a header of names is no table.
        let r = rows("p.csv", "banner\n\na,b\n1,2\n3,4\n");
        assert_eq!(r[3].1, "b");
        assert!(rows("p.csv", "banner\n1,2\n3,4\n").is_empty());
        assert!(rows("p.csv", "a: 1\nb: 2\nc: 3\nx,y\n1,2\n").is_empty());
    }

    #[test]
    fn a_table_with_text_columns_closing_a_file_is_read_under_its_header() {
        // SPECviewperf's result CSV (VirtualClient's unit-test example, cut).
        let text = "Composites\n3dsmax-07,35.46\n\n\
            viewset,index,name,weight,fps\n\
            3dsmax-07,1,3dsmax_Arch_Shaded,9.52,50.87\n\
            3dsmax-07,2,3dsmax_Arch_Graphite,9.52,42.35\n\
            3dsmax-07,3,3dsmax_Space_Wireframe,9.52,147.76\n";
        let r = rows("3dsmaxResultCSV.csv", text);
        assert_eq!(r.len(), 9);
        assert_eq!(
            r[2],
            (
                "3dsmax-07 3dsmax_Arch_Shaded".into(),
                "fps".into(),
                "".into(),
                50.87,
                Some(0)
            )
        );
        // More lines above than rows: a log with a small table at its end.
        let log = "a: 1\nb: 2\nc: 3\nname,x\nfoo,1\nbar,2\n";
        assert!(rows("log.txt", log).is_empty());
        // A header holding a number is a row.
        assert!(rows("t.csv", "top\nx,1\ny,2\nz,3\n").is_empty());
    }

    #[test]
    fn a_row_of_nan_under_a_preamble_is_a_row_not_the_header() {
        // SPECjbb2015's response-time curve (VirtualClient's unit-test
        // example, cut): at the first load level nothing was measured.
        let text = "\n===================================\n\
            Domain Marker;critical-jOPS;1628.0\n\
            Domain Marker;max-jOPS;4103.0\n\
            jOPS;min;median;90-th percentile;95-th percentile;99-th percentile;max\n\
            0.0;NaN;NaN;NaN;NaN;NaN;NaN\n\
            42.0;400.0;800.0;1100.0;1200.0;1500.0;3900.0\n\
            84.0;400.0;900.0;1200.0;1400.0;1800.0;105000.0\n\
            126.0;400.0;1000.0;1400.0;1600.0;2000.0;7200.0\n\
            167.0;400.0;1000.0;1600.0;1800.0;2300.0;91000.0\n";
        let r = rows("rt.txt", text);
        assert_eq!(r.len(), 1 + 4 * 7);
        assert_eq!(
            r[0],
            ("stem".into(), "jOPS".into(), "".into(), 0.0, Some(0))
        );
        assert_eq!(
            r[3],
            ("stem".into(), "median".into(), "".into(), 800.0, Some(1))
        );
        assert_eq!(r[14].1, "max");
        assert_eq!(r[14].3, 105000.0);
    }

    #[test]
    fn a_header_among_comment_lines_and_columns_that_only_tell_rows_apart() {
        // Otava's test data (a histogram-statistics log): the header is the
        // last comment line, the text column names the rows.
        let text = "#logging stats for session scenario_20220407_172524_360\n\
            #[Histogram log format version 1.0]\n\
            #[TimeUnit: NANOSECONDS]\n\
            #Tag,Interval_Start,Interval_Length,count,min,p50,max\n\
            Tag=initialize.tokenfiller,2.616,2.385,2028,1012224,1068031,15114239\n\
            Tag=initialize.tokenfiller,5.001,2.000,2002,1008640,1064959,2129919\n";
        let r = rows("histostat.csv", text);
        assert_eq!(r.len(), 12);
        assert_eq!(
            r[5],
            (
                "Tag=initialize.tokenfiller".into(),
                "max".into(),
                "".into(),
                15114239.0,
                Some(0)
            )
        );
        // Conbench's test data: time stamps tell rows apart and name none;
        // a `NaN` is a missing value, not a word.
        let text = "# taken from real world benchmark data with two\n\
            # \"obvious\" outliers.\n\
            time,svs\n\
            2023-04-10 00:34:55.724803925+00:00,45.61756\n\
            2023-04-11 00:43:45.687037945+00:00,NaN\n\
            2023-04-11 07:19:02.033335924+00:00,44.38074\n";
        let r = rows("outlier_A.csv", text);
        assert_eq!(r.len(), 2);
        assert_eq!(
            r[1],
            ("stem".into(), "svs".into(), "".into(), 44.38074, Some(2))
        );
        // nvidia-smi's time stamps, dated with slashes, name no row either
        // (VirtualClient's monitor example, cut).
        let text = "timestamp, index, name, power.draw.average [W]\n\
            2024/03/15 13:57:59.791, 0, NVIDIA H100 80GB HBM3, 70.89\n\
            2024/03/15 13:58:00.791, 0, NVIDIA H100 80GB HBM3, 71.02\n";
        let r = rows("query-gpu.csv", text);
        assert_eq!(r.len(), 4);
        assert_eq!(
            r[3],
            (
                "NVIDIA H100 80GB HBM3".into(),
                "power.draw.average".into(),
                "W".into(),
                71.02,
                Some(1)
            )
        );
        // An HdrHistogram interval log: the compressed histogram is no name.
        let text = "#[Histogram log format version 1.1]\n\
            \"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n\
            0.133,1.005,2.802,HISTIgAAAFd42pNpmazIwMAYxgABTBDKT4GBgdnNYMcCBvsPUBkeBkYGZqA8MwMbAzsDC5DFBCTZgJCDQY1BjkGLQZRBlUEPCB8zWD\n\
            1.138,0.998,0.475,HISTIgAAAE542pNpmazIwMBgxQABTBDKT4GBgdnNYMcCBvsPDDDACMQsQJKRgYOBlYEZCFmAkB3IB/HkGJQYJBi4gXIyDPGMTAxzGK\n";
        let r = rows("j.hlog", text);
        assert_eq!(r.len(), 6);
        assert_eq!(
            r[5],
            (
                "stem".into(),
                "Interval_Max".into(),
                "".into(),
                0.475,
                Some(1)
            )
        );
    }

    #[test]
    fn a_tag_leading_each_row_is_its_parameter() {
        // HdrHistogram's tagged interval log (log format 1.2): `Tag=A`
        // before the four fields its legend names.
        let path = "tests/data/harness/unknown/hdrhistogram-tagged-non-monotonic.hlog";
        let text = std::fs::read_to_string(path).unwrap();
        let p = read(&Source::from_text("t.hlog", &text), "stem").unwrap();
        let max: Vec<(u32, &str, f64, Option<u32>)> = p
            .observations
            .iter()
            .filter(|o| o.metric == "Interval_Max")
            .map(|o| (o.line, o.params.as_str(), o.value, o.run))
            .collect();
        assert_eq!(
            max,
            [
                (3, "Tag=A", 0.426, Some(0)),
                (4, "Tag=A", 0.426, Some(1)),
                (5, "Tag=B", 2.769, Some(0)),
                (6, "Tag=B", 0.442, Some(1)),
                (7, "Tag=C", 0.442, Some(0)),
                (8, "Tag=C", 0.459, Some(1)),
            ]
        );
        // Untagged rows among tagged ones keep no parameter; a first cell
        // that is no `key=value` leaves the row ragged.
        let text = "a,b\nTag=x,1,2\n3,4\n";
        let p = read(&Source::from_text("t.csv", text), "stem").unwrap();
        let params: Vec<&str> = p.observations.iter().map(|o| o.params.as_str()).collect();
        assert_eq!(params, ["Tag=x", "Tag=x", "", ""]);
        assert!(rows("t.csv", "a,b\nx y,1,2\n").is_empty());
    }

    #[test]
    fn ragged_numberless_and_headerless_files_are_no_table() {
        assert!(rows("a.csv", "a,b\n1,2\n3\n").is_empty());
        assert!(rows("a.csv", "a,b\nx,y\n").is_empty());
        assert!(rows("a.csv", "1,2\n3,4\n").is_empty());
        assert!(rows("a.csv", "x,2\ny,4\n").is_empty());
        assert!(rows("a.csv", "a,b\n").is_empty());
    }
}
