//! fs_mark: under its `#` banner (the command line, `Version 3.3, 32
//! thread(s) …`, `Files info: size 8192 bytes, written with an IO size of
//! 16384 bytes per write`) a table headed `FSUse%  Count  Size  Files/sec
//! App Overhead`, one line per loop, with `-v` six more `OP (Min/Avg/Max)`
//! column groups; then, in version 3.3, `Average Files/sec:` and `p50`,
//! `p90`, `p99 Files/sec:` over the loops.
//!
//! Benchmark `fs_mark`, parameters `threads`, `file_size`, `write_size`
//! and, from the command line, `files` (`-n`) and `sync` (`-S`); per loop a
//! `sample` of `files` (files/s) and `app overhead` (us), with `-v` of
//! `creat min`, `creat avg`, `creat max` … (us). The summary lines give
//! `files` as a mean and percentiles.

use crate::error::Result;
use crate::ingest::shared::lkp_wrapper;
use crate::ingest::shared::logscan::{lazy_re, lines_containing, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};

lazy_re!(
    HEADER,
    r"^FSUse%\s+Count\s+Size\s+Files/sec\s+App Overhead\b"
);
lazy_re!(OP_GROUP, r"([A-Z]+) \(Min/Avg/Max\)");
lazy_re!(THREADS, r"^#\s*Version \S+, (\d+) thread\(s\)");
lazy_re!(
    FILES_INFO,
    r"^#\s*Files info: size (\d+) bytes, written with an IO size of (\d+) bytes"
);
lazy_re!(FLAG, r"\s-([nS])\s+(\d+)\b");
lazy_re!(SUMMARY, r"^(Average|p50|p90|p99) Files/sec:\s+(\S+)\s*$");

/// The fs_mark importer.
pub struct Fsmark;

impl Format for Fsmark {
    fn name(&self) -> &'static str {
        "fsmark"
    }

    fn description(&self) -> &'static str {
        "fs_mark: its `FSUse% Count Size Files/sec App Overhead` table (also with -v), the banner's settings and the `Average Files/sec` summary"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if lines_containing(src, "FSUse%").any(|l| HEADER.is_match(l.trim())) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut p = Reader::default();
        for l in &src.lines {
            p.line(src, l.number, l.text.trim())?;
        }
        Parsed::found(
            src,
            p.out,
            p.consumed,
            p.skipped,
            "no fs_mark table (`FSUse%  Count  Size  Files/sec  App Overhead` and a line per loop)",
        )
    }
}

/// What has been read so far: a new banner starts a new run's settings.
#[derive(Default)]
struct Reader {
    params: Params,
    /// The `-v` operation columns of the current table; `None` outside one.
    ops: Option<Vec<String>>,
    out: Vec<Observation>,
    consumed: Vec<u32>,
    skipped: Vec<(u32, String)>,
}

impl Reader {
    fn line(&mut self, src: &Source, n: u32, t: &str) -> Result<()> {
        if HEADER.is_match(t) {
            let ops = OP_GROUP.captures_iter(t).map(|c| c[1].to_lowercase());
            self.ops = Some(ops.collect());
            self.consumed.push(n);
        } else if let Some(c) = SUMMARY.captures(t) {
            // fs_mark sorts the loops' rates fastest first before indexing,
            // so its `p90` is the rate 90% of loops reached: the 10th
            // percentile of the rate.
            let stat = match &c[1] {
                "Average" => Stat::Mean,
                "p50" => Stat::Median,
                "p90" => Stat::percentile(10.0),
                _ => Stat::percentile(1.0),
            };
            let v = num(src, n, &c[2], &format!("{} Files/sec", &c[1]))?;
            self.out
                .push(self.row(src, n, "files", "files/s").stat(stat, v));
            self.ops = None;
        } else if t.starts_with('#') {
            self.banner(t);
            self.consumed.push(n);
        } else if let Some(ops) = &self.ops {
            if t.is_empty() {
                return Ok(());
            }
            let ops = ops.clone();
            self.table_row(src, n, t, &ops)?;
        } else if let Some(why) = lkp_wrapper::reason(t, "fs_mark") {
            self.skipped.push((n, why.to_string()));
        }
        Ok(())
    }

    fn banner(&mut self, t: &str) {
        if t.contains("  -d  ") {
            // The echoed command line opens a run: its settings replace the last's.
            self.params = Params::default();
            for c in FLAG.captures_iter(t) {
                let key = if &c[1] == "n" { "files" } else { "sync" };
                self.params.set(key, &c[2]);
            }
        } else if let Some(c) = THREADS.captures(t) {
            self.params.set("threads", &c[1]);
        } else if let Some(c) = FILES_INFO.captures(t) {
            self.params.set("file_size", &c[1]);
            self.params.set("write_size", &c[2]);
        }
    }

    /// One loop: fill, files written so far and file size are the state of
    /// the run, not measurements; the rate and the times are.
    fn table_row(&mut self, src: &Source, n: u32, t: &str, ops: &[String]) -> Result<()> {
        let cells: Vec<&str> = t.split_whitespace().collect();
        let want = 5 + 3 * ops.len();
        if cells.len() != want {
            return Err(src.error(
                Some(n),
                format!(
                    "fs_mark loop line has {} cells, the header above it names {want}",
                    cells.len()
                ),
            ));
        }
        let rate = num(src, n, cells[3], "Files/sec")?;
        self.out
            .push(self.row(src, n, "files", "files/s").sample(rate));
        let overhead = num(src, n, cells[4], "App Overhead")?;
        self.out
            .push(self.row(src, n, "app overhead", "us").sample(overhead));
        for (op, group) in ops.iter().zip(cells[5..].chunks(3)) {
            for (what, cell) in ["min", "avg", "max"].iter().zip(group) {
                let metric = format!("{op} {what}");
                let v = num(src, n, cell, &metric)?;
                self.out.push(self.row(src, n, &metric, "us").sample(v));
            }
        }
        Ok(())
    }

    fn row(&self, src: &Source, n: u32, metric: &str, unit: &str) -> Row {
        Row::at(src, n)
            .benchmark("fs_mark")
            .params(&self.params.render())
            .metric(metric)
            .unit(unit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Parsed> {
        Fsmark.parse_accounted(&Source::from_text("fs_mark.txt", text))
    }

    const BANNER: &str = "\n#  ./fs_mark  -d  /mnt/t  -s  4096  -n  1000  -L  2  -S  0 \n\
#\tVersion 3.3, 1 thread(s) starting at Thu Jan  1 00:00:00 2026\n\
#\tFiles info: size 4096 bytes, written with an IO size of 16384 bytes per write\n";

    #[test]
    fn loops_are_samples_and_verbose_groups_are_their_own_metrics() {
        let text = format!(
            "{BANNER}\nFSUse%        Count         Size    Files/sec     App Overhead        CREAT (Min/Avg/Max)    WRITE (Min/Avg/Max)\n\
     0         1000         4096        910.5            10311       12       30      201        3        5       40\n\
     0         2000         4096        880.0            10100       11       31      199        2        5       38\n\
Average Files/sec:        895.0\n"
        );
        let p = read(&text).unwrap();
        let files: Vec<f64> = p
            .observations
            .iter()
            .filter(|o| o.metric == "files" && o.stat == Stat::Sample)
            .map(|o| o.value)
            .collect();
        assert_eq!(files, [910.5, 880.0]);
        let creat_max = p
            .observations
            .iter()
            .find(|o| o.metric == "creat max")
            .unwrap();
        assert_eq!((creat_max.value, creat_max.unit.as_str()), (201.0, "us"));
        assert_eq!(
            creat_max.params.as_str(),
            "file_size=4096,files=1000,sync=0,threads=1,write_size=16384"
        );
        let write_min = p.observations.iter().filter(|o| o.metric == "write min");
        assert_eq!(write_min.map(|o| o.value).collect::<Vec<_>>(), [3.0, 2.0]);
    }

    #[test]
    fn a_short_loop_line_names_its_line() {
        let text = format!(
            "{BANNER}\nFSUse%        Count         Size    Files/sec     App Overhead\n     0   1000   4096\n"
        );
        let e = read(&text).unwrap_err().to_string();
        assert!(e.contains("fs_mark.txt") && e.contains(":7"), "{e}");
        assert!(e.contains("3 cells"), "{e}");
    }
}
