//! A delimited table no importer knows: a header line, then rows of as
//! many fields split by commas, semicolons or tabs (`Percentage served,Time
//! in ms`, a nanobench `;` export, an old Criterion `raw.csv`). Each column
//! whose every filled cell is a number is a metric named by its header;
//! the text columns, joined, name the row's benchmark; each row is a run.

use super::bracket_unit;
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::shared::structured::split_csv;
use crate::ingest::{Parsed, Source};

/// The fields of `line` split at `delim` (quoted as CSV quotes), trimmed.
fn fields(line: &str, delim: char) -> Vec<String> {
    split_csv(line, delim)
        .into_iter()
        .map(|f| f.trim().to_string())
        .collect()
}

/// The file read as a delimited table with a header, or `None` when it is
/// not one (fewer than two columns, a ragged row, no numeric column, or a
/// header that is itself all numbers).
pub fn read(src: &Source, stem: &str) -> Option<Parsed> {
    let lines: Vec<_> = src
        .lines
        .iter()
        .filter(|l| !l.text.trim().is_empty())
        .collect();
    let (head, rows) = lines.split_first()?;
    if rows.is_empty() {
        return None;
    }
    let delim = [',', ';', '\t']
        .into_iter()
        .find(|&d| fields(&head.text, d).len() >= 2)?;
    let header = fields(&head.text, delim);
    let table: Vec<Vec<String>> = rows.iter().map(|l| fields(&l.text, delim)).collect();
    if table.iter().any(|r| r.len() != header.len()) {
        return None;
    }
    let numeric: Vec<bool> = (0..header.len())
        .map(|k| {
            let mut any = false;
            let all = table.iter().all(|r| {
                let c = &r[k];
                any |= !c.is_empty();
                c.is_empty() || parse_number(c).is_some()
            });
            all && any
        })
        .collect();
    // A header names every column: a first line holding a number is a
    // data row, and a file without its header is no table read here.
    let header_is_names = header
        .iter()
        .all(|h| !h.is_empty() && parse_number(h).is_none());
    if !numeric.iter().any(|&n| n) || !header_is_names {
        return None;
    }
    let mut out = Vec::new();
    let mut runs: hashbrown::HashMap<String, u32> = hashbrown::HashMap::new();
    for (l, r) in rows.iter().zip(&table) {
        let names: Vec<&str> = r
            .iter()
            .zip(&numeric)
            .filter(|(c, &num)| !num && !c.is_empty())
            .map(|(c, _)| c.as_str())
            .collect();
        let bench = if names.is_empty() {
            stem.to_string()
        } else {
            names.join(" ")
        };
        let run = runs.entry(bench.clone()).or_insert(0);
        for (k, c) in r.iter().enumerate().filter(|(k, _)| numeric[*k]) {
            let Some(v) = parse_number(c) else { continue };
            let (metric, unit) = bracket_unit(&header[k]).unwrap_or((header[k].as_str(), ""));
            let o = Row::at(src, l.number)
                .benchmark(&bench)
                .metric(metric)
                .unit(unit)
                .sample(v);
            out.push(o.with_run(*run));
        }
        *run += 1;
    }
    (!out.is_empty()).then(|| out.into())
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
    fn ragged_numberless_and_headerless_files_are_no_table() {
        assert!(rows("a.csv", "a,b\n1,2\n3\n").is_empty());
        assert!(rows("a.csv", "a,b\nx,y\n").is_empty());
        assert!(rows("a.csv", "1,2\n3,4\n").is_empty());
        assert!(rows("a.csv", "x,2\ny,4\n").is_empty());
        assert!(rows("a.csv", "a,b\n").is_empty());
    }
}
