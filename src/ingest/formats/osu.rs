//! The OSU Micro-Benchmarks (osu_latency, osu_bw, osu_allreduce …, MPI,
//! OpenSHMEM, UPC, CUDA/ROCm builds): each test prints a title, `# OSU MPI
//! Allgather Latency Test v5.7.1` (`(Version 2.1)` in old releases), its
//! settings as `# Window creation: MPI_Win_allocate` or `# [ pairs: 4 ] [
//! window size: 64 ]` comment lines, then a table: a header of columns
//! parted by two spaces or more (`# Size  Avg Latency(us)  Min
//! Latency(us)  Iterations`; the barrier tests have no size, the
//! non-blocking ones no `#`), and a row of numbers per message size.
//!
//! Benchmark `OSU` and the title's words (`OSU MPI Allgather Latency`);
//! parameters the row's `size` (bytes) and the settings; metrics each
//! column's name in lower case (`avg latency`, `bandwidth`, `overlap`)
//! with the unit in its parentheses, or the column's name when it is a
//! unit alone (`MB/s`, `Messages/s`), each a sample of the run. The
//! `Iterations` column is a setting of the row and not read. A test printed
//! again in one file (a loop) is a further run. Lines of the MPI runtime
//! around the output (`[0] MPI startup(): …`, launcher warnings) are left
//! out with the reason; a title with no row of values under it is refused.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, lines_containing, num, Params};
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Observation;

lazy_re!(
    TITLE,
    r"^#\s*OSU\s+(.+?)\s+Test(?:\s+v\d[\w.]*|\s*\(Version [\d.]+\))?\s*$"
);
// `# [ pairs: 4 ] [ window size: 64 ]`.
lazy_re!(BRACKETED, r"\[\s*([^:\]]+?)\s*:\s*([^\]]+?)\s*\]");
// `# Window creation: MPI_Win_allocate`, `# Datatype: MPI_CHAR.`
lazy_re!(
    SETTING,
    r"^#\s*([A-Za-z][A-Za-z .-]*?)\s*:\s*(\S.*?)\.?\s*$"
);
// `# Send Buffer on DEVICE (D) and Receive Buffer on HOST (H)`.
lazy_re!(
    BUFFERS,
    r"^#\s*Send Buffer on (\w+).*Receive Buffer on (\w+)"
);
// Cells of a header: parted by a tab or two spaces or more.
lazy_re!(GAP, r"\t+|\s{2,}");
// A column's unit in parentheses: `Latency (us)`, `Avg Latency(us)`.
lazy_re!(UNIT, r"^(.*?)\s*\(([^()]+)\)$");
// osu_init's result: `nprocs: 1, min: 264 ms, max: 264 ms, avg: 264 ms`.
lazy_re!(PAIR, r"^\s*([a-z]+):\s*(\S+)\s*([A-Za-z]*)\s*$");
// A message of the MPI runtime or launcher, prefixed by rank or host:
// `[0] MPI startup(): …`, `[node:mpi_rank_0][dreg_register] …`.
lazy_re!(RUNTIME, r"^\[[^\]]*\]");

/// The OSU Micro-Benchmarks importer.
pub struct Osu;

/// One column of a test's table.
enum Column {
    /// The message size in bytes: the row's parameter.
    Size,
    /// A setting of the row (`Iterations`), not read.
    Setting,
    /// A measured value.
    Metric { name: String, unit: String },
}

impl Column {
    fn of(cell: &str) -> Column {
        let c = cell.trim();
        let lower = c.to_ascii_lowercase();
        if lower == "size" || lower == "size (bytes)" || lower == "bytes" {
            return Column::Size;
        }
        if lower == "iterations" {
            return Column::Setting;
        }
        if let Some(u) = UNIT.captures(c) {
            return Column::Metric {
                name: u[1].to_ascii_lowercase(),
                unit: u[2].to_string(),
            };
        }
        // A column named by its unit alone (osu_mbw_mr's `MB/s`,
        // `Messages/s`).
        if c.ends_with("/s") {
            return Column::Metric {
                name: lower,
                unit: c.to_string(),
            };
        }
        Column::Metric {
            name: lower,
            unit: String::new(),
        }
    }
}

/// The test being read: its title, settings and table header.
struct Test {
    benchmark: String,
    run: u32,
    params: Params,
    columns: Option<Vec<Column>>,
}

/// Whether `t` (a line of a test, `#` taken off) is a table header: cells
/// of names, none a number, at least one a unit in parentheses or a rate.
fn header(t: &str) -> Option<Vec<Column>> {
    let cells: Vec<&str> = GAP.split(t.trim()).filter(|c| !c.is_empty()).collect();
    let names = cells.iter().all(|c| parse_number(c).is_none()) && !t.contains(':');
    let measured = cells
        .iter()
        .any(|c| UNIT.is_match(c.trim()) || c.trim().ends_with("/s"));
    (names && measured).then(|| cells.into_iter().map(Column::of).collect())
}

/// The snake-case parameter key of a setting's words.
fn key(words: &str) -> String {
    words
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect::<Vec<_>>()
        .join("_")
}

/// A test's result printed as `key: value [unit]` pairs on one line, not
/// as a table (osu_init): a count with no unit is a parameter of the
/// others.
fn pairs(src: &Source, n: u32, t: &str, test: &Test) -> Result<Option<Vec<Observation>>> {
    let cells: Option<Vec<_>> = t.split(',').map(|c| PAIR.captures(c)).collect();
    let Some(cells) = cells.filter(|c| c.len() >= 2) else {
        return Ok(None);
    };
    let mut params = test.params.clone();
    for c in cells.iter().filter(|c| c[3].is_empty()) {
        params.set(&c[1], &c[2]);
    }
    let params = params.render();
    let mut out = Vec::new();
    for c in cells.iter().filter(|c| !c[3].is_empty()) {
        let v = num(src, n, &c[2], &c[1])?;
        let mut o = Row::at(src, n)
            .benchmark(&test.benchmark)
            .params(&params)
            .metric(&c[1])
            .unit(&c[3])
            .sample(v);
        o.run = Some(test.run);
        out.push(o);
    }
    Ok((!out.is_empty()).then_some(out))
}

impl Format for Osu {
    fn name(&self) -> &'static str {
        "osu"
    }

    fn description(&self) -> &'static str {
        "OSU Micro-Benchmarks: `# OSU MPI Latency Test v7.3` title, `# Size  Latency (us)` header, a row per message size"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if lines_containing(src, "OSU").any(|l| TITLE.is_match(l.trim())) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out: Vec<Observation> = Vec::new();
        let mut consumed = Vec::new();
        let mut skipped: Vec<(u32, String)> = Vec::new();
        let mut test: Option<Test> = None;
        // Titles seen per benchmark: a test printed again is a further run.
        let mut seen: Vec<(String, u32)> = Vec::new();
        let mut first_title = None;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            if t.is_empty() {
                continue;
            }
            if let Some(c) = TITLE.captures(t) {
                let benchmark = format!("OSU {}", &c[1]);
                let run = match seen.iter_mut().find(|(b, _)| *b == benchmark) {
                    Some((_, k)) => {
                        *k += 1;
                        *k
                    }
                    None => {
                        seen.push((benchmark.clone(), 0));
                        0
                    }
                };
                // Settings printed above the title (osu_latency_mt's
                // thread counts) belong to it.
                let params = test
                    .take()
                    .filter(|t| t.columns.is_none() && t.benchmark.is_empty())
                    .map_or_else(Params::default, |t| t.params);
                test = Some(Test {
                    benchmark,
                    run,
                    params,
                    columns: None,
                });
                first_title.get_or_insert(n);
                consumed.push(n);
                continue;
            }
            if RUNTIME.is_match(t) {
                skipped.push((
                    n,
                    "a message of the MPI runtime or launcher, not of the benchmark".into(),
                ));
                continue;
            }
            let cur = test.get_or_insert_with(|| Test {
                benchmark: String::new(),
                run: 0,
                params: Params::default(),
                columns: None,
            });
            let bare = t.trim_start_matches('#').trim();
            if let Some(cols) = header(bare) {
                cur.columns = Some(cols);
                consumed.push(n);
                continue;
            }
            if t.starts_with('#') {
                if let Some(c) = BUFFERS.captures(t) {
                    cur.params.set("send_buffer", c[1].to_ascii_lowercase());
                    cur.params.set("receive_buffer", c[2].to_ascii_lowercase());
                } else if BRACKETED.is_match(t) {
                    for c in BRACKETED.captures_iter(t) {
                        cur.params.set(&key(&c[1]), &c[2]);
                    }
                } else if let Some(c) = SETTING.captures(t) {
                    cur.params.set(&key(&c[1]), &c[2]);
                }
                // Other comments explain the columns (`# Overall = Coll.
                // Init + Compute + MPI_Test + MPI_Wait`).
                consumed.push(n);
                continue;
            }
            if cur.columns.is_none() && !cur.benchmark.is_empty() {
                if let Some(read) = pairs(src, n, t, cur)? {
                    out.extend(read);
                    continue;
                }
            }
            let (Some(cols), false) = (&cur.columns, cur.benchmark.is_empty()) else {
                continue;
            };
            let cells: Vec<&str> = t.split_whitespace().collect();
            if parse_number(cells[0]).is_none() {
                continue;
            }
            if cells.len() != cols.len() {
                skipped.push((
                    n,
                    format!(
                        "{} cells under a header of {} columns: not a row of the table",
                        cells.len(),
                        cols.len()
                    ),
                ));
                continue;
            }
            let mut params = cur.params.clone();
            for (col, cell) in cols.iter().zip(&cells) {
                if let Column::Size = col {
                    params.set("size", cell);
                }
            }
            let params = params.render();
            for (col, cell) in cols.iter().zip(&cells) {
                let Column::Metric { name, unit } = col else {
                    continue;
                };
                // A validation column (`Pass`) is no value.
                if parse_number(cell).is_none() {
                    continue;
                }
                let v = num(src, n, cell, name)?;
                let mut o = Row::at(src, n)
                    .benchmark(&cur.benchmark)
                    .params(&params)
                    .metric(name)
                    .unit(unit)
                    .sample(v);
                o.run = Some(cur.run);
                out.push(o);
            }
        }
        let why = match first_title {
            Some(n) => format!(
                "an OSU test's title (line {n}) but no row of values under a header: the test printed no result"
            ),
            None => "no `# OSU … Test` title".to_string(),
        };
        // Every other line (usage texts, osu_hello's greeting, launcher
        // output without a rank prefix) is the frame of the tests: read
        // as such, so that no reader of prose takes numbers from it.
        consumed.extend(Parsed::frame_lines(src, &out, &skipped));
        consumed.sort_unstable();
        consumed.dedup();
        Parsed::found(src, out, consumed, skipped, why)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    const DIR: &str = "tests/data/harness/osu";

    /// (params, metric, unit, value, run) of every row.
    fn rows(p: &Parsed) -> Vec<(String, String, String, f64, u32)> {
        p.observations
            .iter()
            .map(|o| {
                (
                    o.params.to_string(),
                    o.metric.to_string(),
                    o.unit.to_string(),
                    o.value,
                    o.run.unwrap_or(0),
                )
            })
            .collect()
    }

    fn row(
        params: &str,
        metric: &str,
        unit: &str,
        value: f64,
    ) -> (String, String, String, f64, u32) {
        (params.into(), metric.into(), unit.into(), value, 0)
    }

    #[test]
    fn a_collective_gives_each_column_per_size_and_leaves_the_runtime_out() {
        let p = parse_file(&Osu, &format!("{DIR}/pkb-allgather-intel-mpi.txt"));
        assert_eq!(p.observations[0].benchmark, "OSU MPI Allgather Latency");
        let r = rows(&p);
        assert_eq!(
            r[..3],
            [
                row("size=4", "avg latency", "us", 147.70),
                row("size=4", "min latency", "us", 62.36),
                row("size=4", "max latency", "us", 233.88),
            ]
        );
        assert_eq!(r[5], row("size=8", "max latency", "us", 79.20));
        // No row of the iteration counts, none of the MPI start-up lines.
        assert!(r.iter().all(|x| x.1 != "iterations"));
        assert_eq!(r.len(), 3 * 2);
        assert!(p.skipped_reason(1).contains("MPI runtime"));
    }

    #[test]
    fn settings_above_and_below_the_title_are_parameters() {
        let p = parse_file(&Osu, &format!("{DIR}/pkb-latency-mt.txt"));
        assert_eq!(
            p.observations[0].benchmark,
            "OSU MPI Multi-threaded Latency"
        );
        assert_eq!(
            rows(&p)[0],
            row(
                "number_of_receiver_threads=2,number_of_sender_threads=1,size=4",
                "latency",
                "us",
                40.51
            )
        );
        let p = parse_file(&Osu, &format!("{DIR}/pkb-mbw-mr.txt"));
        assert_eq!(
            rows(&p)[..2],
            [
                row("pairs=4,size=4,window_size=64", "mb/s", "MB/s", 126.43),
                row(
                    "pairs=4,size=4,window_size=64",
                    "messages/s",
                    "Messages/s",
                    31608531.76
                ),
            ]
        );
        let p = parse_file(&Osu, &format!("{DIR}/pkb-get-acc-latency.txt"));
        assert!(p.observations[0]
            .params
            .contains("synchronization=MPI_Win_lock/unlock,window_creation=MPI_Win_create"));
    }

    #[test]
    fn tables_without_size_or_hash_are_read() {
        // osu_ibarrier: a header without `#` and without a size column.
        let p = parse_file(&Osu, &format!("{DIR}/pkb-ibarrier.txt"));
        let r = rows(&p);
        assert_eq!(r[0], row("", "overall", "us", 89.72));
        assert_eq!(r[2], row("", "coll. init", "us", 5.67));
        assert_eq!(r[8], row("", "overlap", "%", 65.64));
        assert_eq!(r.len(), 9);
    }

    #[test]
    fn old_titles_tabs_repeats_and_failures() {
        let text =
            "# OSU MPI Latency Test (Version 2.1)\n# Size\t\tLatency (us)\n0\t\t0.64\n1\t\t0.67\n\
                    # OSU MPI Latency Test (Version 2.1)\n# Size\t\tLatency (us)\n0\t\t0.70\n";
        let p = Osu
            .parse_accounted(&Source::from_text("l.txt", text))
            .unwrap();
        let r = rows(&p);
        assert_eq!(p.observations[0].benchmark, "OSU MPI Latency");
        assert_eq!(r[1], row("size=1", "latency", "us", 0.67));
        assert_eq!(r[2].4, 1, "the second print of the test is run 1");
        // MVAPICH2's warnings between the rows (an install guide's
        // expected output of osu_allreduce -d cuda).
        let text = "# OSU MPI-CUDA Allreduce Latency Test v5.9\n# Size       Avg Latency(us)\n\
                    16                      1.60\n\
                    [a100-01.cluster:mpi_rank_0][dreg_register] [Performance Impact Warning]: Entries are being evicted from the InfiniBand registration cache.\n\
                    32                     13.30\n";
        let p = Osu
            .parse_accounted(&Source::from_text("g.txt", text))
            .unwrap();
        assert_eq!(
            p.observations[0].benchmark,
            "OSU MPI-CUDA Allreduce Latency"
        );
        assert_eq!(rows(&p)[1], row("size=32", "avg latency", "us", 13.30));
        assert!(p.skipped_reason(4).contains("runtime"));
        // osu_init prints its result as pairs on one line.
        let text = "# OSU MPI Init Test v5.7\nnprocs: 1, min: 264 ms, max: 264 ms, avg: 264 ms\n";
        let p = Osu
            .parse_accounted(&Source::from_text("i.txt", text))
            .unwrap();
        assert_eq!(rows(&p)[2], row("nprocs=1", "avg", "ms", 264.0));
        assert_eq!(rows(&p).len(), 3);
        // Among a file of usage texts, only osu_init's run holds values.
        let p = parse_file(&Osu, &format!("{DIR}/pkb-help-hello-init.txt"));
        assert_eq!(p.observations.len(), 3);
        assert_eq!(p.observations[0].benchmark, "OSU MPI Init");
        assert_eq!(p.observations[0].line, 508);
        // The usage lines are the frame, read as such: none is left for a
        // reader of prose to take `-m 128` from.
        assert!(p.consumed.contains(&23), "{:?}", &p.consumed[..5]);
        let failed = "# OSU MPI Bandwidth Test v5.7.1\nThis test requires exactly two processes\n";
        let e = Osu
            .parse_accounted(&Source::from_text("f.txt", failed))
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 1"), "{e}");
        assert!(Osu.detect(&Source::from_text("f.txt", failed)) >= 90);
        assert_eq!(
            Osu.detect(&Source::from_text(
                "h.txt",
                "# OSU results\nUsage: osu_bw\n"
            )),
            0
        );
    }
}
