//! Intel MPI Benchmarks (IMB-MPI1, IMB-RMA, IMB-EXT …): after the suite's
//! banner and settings, each benchmark opens with `# Benchmarking
//! PingPong` between rules, its process layout (`# #processes = 2`, or with
//! `-multi`, `# ( 2 groups of 2 processes each running simultaneous )`),
//! then a header of whitespace-parted columns, `#bytes #repetitions
//! t_min[usec] t_max[usec] t_avg[usec] Mbytes/sec` (no `#bytes` for
//! Barrier), and a row per message size; with `-show_tail yes` each row is
//! followed by a bracketed list of its latency percentiles.
//!
//! Benchmark `IMB` and the name as printed (`IMB Multi-Allgather`);
//! parameters the row's `bytes` and the process layout (`processes`,
//! `groups`); metrics each column's name (`t_min`, `t_avg`, `t`) in the
//! unit in its brackets (`usec` as µs) or the column's name when it is a
//! rate (`Mbytes/sec`, `Msg/sec`), each a sample of the run; the
//! repetition count is a setting and not read. A benchmark printed again
//! with the same layout is a further run. The tail lists are left out with
//! the reason; the banner, settings and `Invalid benchmark name` warnings
//! are the frame.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, lines_containing, num, Params};
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Observation;

lazy_re!(BENCHMARKING, r"^#\s*Benchmarking\s+(\S+)\s*$");
lazy_re!(PROCESSES, r"^#\s*#processes\s*=\s*(\d+)");
lazy_re!(
    GROUPS,
    r"^#\s*\(\s*(\d+) groups? of (\d+) process(?:es)? each running simultaneous"
);
lazy_re!(HEADER, r"^\s*(?:#bytes\s+)?#repetitions\s");
lazy_re!(TAIL, r"^\s*\[\s*[\d.]+(?:,\s*[\d.]+)*\s*\]\s*$");
lazy_re!(BRACKETED, r"^(.+?)\[([^\]]+)\]$");

/// The Intel MPI Benchmarks importer.
pub struct Imb;

/// What a header column holds.
enum Column {
    Bytes,
    Setting,
    Metric(String, String),
}

fn column(name: &str) -> Column {
    match name {
        "#bytes" => Column::Bytes,
        "#repetitions" => Column::Setting,
        _ => match BRACKETED.captures(name) {
            Some(c) => {
                let unit = if &c[2] == "usec" { "us" } else { &c[2] };
                Column::Metric(c[1].to_string(), unit.to_string())
            }
            None => Column::Metric(name.to_ascii_lowercase(), name.to_string()),
        },
    }
}

impl Format for Imb {
    fn name(&self) -> &'static str {
        "imb"
    }

    fn description(&self) -> &'static str {
        "Intel MPI Benchmarks: `# Benchmarking PingPong` blocks, `#bytes #repetitions t_min[usec] … Mbytes/sec` tables"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let titled = lines_containing(src, "Benchmarking").any(|l| BENCHMARKING.is_match(l.trim()));
        if titled && lines_containing(src, "#repetitions").any(|l| HEADER.is_match(l)) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out: Vec<Observation> = Vec::new();
        let mut skipped: Vec<(u32, String)> = Vec::new();
        let mut bench = String::new();
        let mut layout = Params::default();
        let mut columns: Vec<Column> = Vec::new();
        let mut run = 0;
        let mut seen: Vec<(String, u32)> = Vec::new();
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            if let Some(c) = BENCHMARKING.captures(t) {
                bench = format!("IMB {}", &c[1]);
                (layout, columns) = (Params::default(), Vec::new());
            } else if let Some(c) = PROCESSES.captures(t) {
                layout.set("processes", &c[1]);
            } else if let Some(c) = GROUPS.captures(t) {
                layout.set("groups", &c[1]);
                layout.set("processes", &c[2]);
            } else if HEADER.is_match(t) && !bench.is_empty() {
                columns = t.split_whitespace().map(column).collect();
                let key = format!("{bench} {}", layout.render());
                run = match seen.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, r)) => {
                        *r += 1;
                        *r
                    }
                    None => {
                        seen.push((key, 0));
                        0
                    }
                };
            } else if TAIL.is_match(t) {
                skipped.push((
                    n,
                    "the row's latency percentiles (-show_tail); its min, max and average are read"
                        .into(),
                ));
            } else if !columns.is_empty() {
                let cells: Vec<&str> = t.split_whitespace().collect();
                if cells.is_empty() || cells.iter().any(|c| parse_number(c).is_none()) {
                    continue;
                }
                if cells.len() != columns.len() {
                    skipped.push((
                        n,
                        format!(
                            "{} cells under a header of {} columns: not a row of the table",
                            cells.len(),
                            columns.len()
                        ),
                    ));
                    continue;
                }
                let mut params = layout.clone();
                for (col, cell) in columns.iter().zip(&cells) {
                    if let Column::Bytes = col {
                        params.set("bytes", cell);
                    }
                }
                let params = params.render();
                for (col, cell) in columns.iter().zip(&cells) {
                    let Column::Metric(metric, unit) = col else {
                        continue;
                    };
                    let v = num(src, n, cell, metric)?;
                    let mut o = Row::at(src, n)
                        .benchmark(&bench)
                        .params(&params)
                        .metric(metric)
                        .unit(unit)
                        .sample(v);
                    o.run = Some(run);
                    out.push(o);
                }
            }
        }
        let consumed = Parsed::frame_lines(src, &out, &skipped);
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no row under an IMB `#bytes #repetitions …` header (the benchmark printed no result)",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    const DIR: &str = "tests/data/harness/imb";

    fn rows(p: &Parsed) -> Vec<crate::ingest::testing::RowView> {
        crate::ingest::testing::views(&p.observations)
    }

    use crate::ingest::testing::row;

    #[test]
    fn pingpong_rows_per_size_and_their_tails_left_out() {
        let p = parse_file(&Imb, &format!("{DIR}/pkb-pingpong-show-tail.txt"));
        let r = rows(&p);
        assert_eq!(r.len(), 8);
        assert_eq!(
            r[0],
            row("IMB PingPong", "bytes=0,processes=2", "t_min", "us", 1.17)
        );
        assert_eq!(
            r[7],
            row(
                "IMB PingPong",
                "bytes=1024,processes=2",
                "mbytes/sec",
                "Mbytes/s",
                569.96
            )
        );
        assert!(p.skipped_reason(36).contains("show_tail"));
    }

    #[test]
    fn multi_mode_groups_and_barrier_without_size() {
        let p = parse_file(&Imb, &format!("{DIR}/pkb-barrier-multi.txt"));
        let r = rows(&p);
        assert_eq!(
            r[0],
            row(
                "IMB Multi-Barrier",
                "groups=2,processes=2",
                "t_min",
                "us",
                80.75
            )
        );
        assert_eq!(
            r[5],
            row("IMB Barrier", "processes=4", "t_avg", "us", 91.24)
        );
        assert_eq!(r.len(), 6);
        let p = parse_file(&Imb, &format!("{DIR}/pkb-rma-one-put-all.txt"));
        assert_eq!(
            rows(&p)[3],
            row(
                "IMB One_put_all",
                "bytes=1,processes=2",
                "mbytes/sec",
                "Mbytes/s",
                0.10
            )
        );
    }
}
