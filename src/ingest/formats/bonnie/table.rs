//! bonnie++'s human report, read where no CSV result line restates it (a
//! mail that pastes the tables, bonnie++ 1.03, whose CSV line has another
//! layout). Two tables, each under three header lines:
//!
//! ```text
//! Version  1.03       ------Sequential Output------ --Sequential Input- --Random-
//!                     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--
//! Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP
//! proliant         2G 30641  71 28554   8 16580   3 29447  61 50313   5 185.9   0
//!                     ------Sequential Create------ --------Random Create--------
//!                     -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--
//!               files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP
//!                  16 28156 100 +++++ +++ 25285  99 24020  93 +++++ +++ 22937  99
//! ```
//!
//! A result row is the machine's name (which a pasted row may lack), the
//! file size or file count, then six rate and CPU pairs; bonnie++ 1.9x and
//! 2.x add a `Latency` row of six times and scale rates (`853k`, `1.2m`).
//! The tests, units and names are the CSV line's ([`super::TESTS`]): rates
//! in KiB/s, seeks per second, files per second, each test's `cpu` (%) and
//! `latency` (µs), with the file size as parameter `size`. `+++++ +++`
//! (too fast to time) gives no value. bonnie++ 1.03's CSV line after a
//! table says the same again and is left out with that reason.

use super::{micros, TESTS};
use crate::error::Result;
use crate::ingest::shared::logscan::{any_with, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{rescale, Observation};

lazy_re!(
    OUTPUT_HEAD,
    r"-+Sequential Output-+\s+-+Sequential Input-+\s+-+Random-+"
);
lazy_re!(CREATE_HEAD, r"-+Sequential Create-+\s+-+Random Create-+");
lazy_re!(SIZE, r"^\d+(?:\.\d+)?[KMGTkmgt](?::\S+)?$");
lazy_re!(FILES, r"^\d+(?:[:/][\d/:]+)?$");
lazy_re!(CSV_1_9, r"^\s*1\.9\d,[\d.]+\w*,");

/// The bonnie++ human-report importer.
pub struct BonnieTable;

/// Which of the two tables a row belongs to: the first six tests, or the
/// last six (the file tests).
#[derive(Clone, Copy, PartialEq)]
enum Block {
    Output,
    Create,
}

impl Format for BonnieTable {
    fn name(&self) -> &'static str {
        "bonnie++-table"
    }

    fn description(&self) -> &'static str {
        "bonnie++'s human report without its CSV line: the Sequential Output and Sequential Create tables (1.03 to 2.x, with or without the machine column), their Latency rows"
    }

    fn detect(&self, src: &Source) -> Confidence {
        // Every input is offered to every detector: literal searches, and
        // the patterns only on the lines they find.
        let table = any_with(src, "Sequential Output", &OUTPUT_HEAD)
            || any_with(src, "Sequential Create", &CREATE_HEAD);
        if !table {
            return 0;
        }
        // A CSV result line of 1.9x restates the tables: that reader's file.
        if any_with(src, "1.9", &CSV_1_9) {
            0
        } else {
            95
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut r = Reader::default();
        let lines = &src.lines;
        let mut i = 0;
        while i < lines.len() {
            let t = &lines[i].text;
            let block = if OUTPUT_HEAD.is_match(t) {
                Some(Block::Output)
            } else if CREATE_HEAD.is_match(t) {
                Some(Block::Create)
            } else {
                None
            };
            let Some(block) = block else {
                if is_1_03_csv(t) {
                    r.skipped.push((
                        lines[i].number,
                        "bonnie++ 1.03's CSV line, restating the table above".into(),
                    ));
                }
                i += 1;
                continue;
            };
            // The header's two lines below: the tests' names, then the units.
            let head = lines.len().min(i + 3);
            r.consumed.extend(lines[i..head].iter().map(|l| l.number));
            i = head;
            while i < lines.len() && r.row(src, block, lines[i].number, &lines[i].text)? {
                i += 1;
            }
        }
        Parsed::found(
            src,
            r.out,
            r.consumed,
            r.skipped,
            "no bonnie++ result row under a `Sequential Output` or `Sequential Create` header",
        )
    }
}

#[derive(Default)]
struct Reader {
    /// The file size of the last Sequential Output row: the file tests'
    /// rows carry it too, as the CSV line's do.
    size: String,
    out: Vec<Observation>,
    consumed: Vec<u32>,
    skipped: Vec<(u32, String)>,
}

impl Reader {
    /// Reads line `n` as a row of `block`'s table; false when it is none
    /// (the table has ended).
    fn row(&mut self, src: &Source, block: Block, n: u32, text: &str) -> Result<bool> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let tests = match block {
            Block::Output => &TESTS[..6],
            Block::Create => &TESTS[6..],
        };
        if words.first() == Some(&"Latency") && words.len() == 7 {
            for ((name, ..), cell) in tests.iter().zip(&words[1..]) {
                if let Some(us) = micros(cell) {
                    self.push(src, n, &format!("{name} latency"), "us", us);
                }
            }
            return Ok(true);
        }
        let key = |w: &str| match block {
            Block::Output => SIZE.is_match(w),
            Block::Create => FILES.is_match(w),
        };
        // The machine's name, when the row has one, comes first.
        let at = match words.iter().position(|w| key(w)) {
            Some(at) if at <= 1 && words.len() == at + 13 => at,
            _ => return Ok(false),
        };
        if block == Block::Output {
            self.size = words[at].split(':').next().unwrap_or("").to_string();
        }
        for ((name, _, _, unit), pair) in tests.iter().zip(words[at + 1..].chunks(2)) {
            if pair[0].starts_with('+') {
                continue;
            }
            let rate = rate(src, n, pair[0], unit, name)?;
            self.push(src, n, name, unit, rate);
            let cpu = num(src, n, pair[1], &format!("{name} %CP"))?;
            self.push(src, n, &format!("{name} cpu"), "%", cpu);
        }
        Ok(true)
    }

    fn push(&mut self, src: &Source, n: u32, metric: &str, unit: &str, v: f64) {
        let mut p = Params::default();
        if !self.size.is_empty() {
            p.set("size", &self.size);
        }
        self.out.push(
            Row::at(src, n)
                .benchmark("bonnie++")
                .params(&p.render())
                .metric(metric)
                .unit(unit)
                .sample(v),
        );
    }
}

/// A rate cell: a number, in 1.9x and later with a scale letter (`853k`,
/// `1.2m`, `1.0g`: KiB, MiB, GiB a second) that the K/sec unit absorbs.
fn rate(src: &Source, n: u32, cell: &str, unit: &str, name: &str) -> Result<f64> {
    let scale = match cell.chars().last() {
        Some('k') if unit == "KiB/s" => 1.0,
        Some('m') if unit == "KiB/s" => 1024.0,
        Some('g') if unit == "KiB/s" => 1024.0 * 1024.0,
        _ => return num(src, n, cell, name),
    };
    let v = num(src, n, &cell[..cell.len() - 1], name)?;
    Ok(rescale(v, scale))
}

/// bonnie++ 1.03's CSV line (`proliant,2G,30641,71,…`): a name, a size,
/// then the 24 cells of the two tables and the file count.
fn is_1_03_csv(t: &str) -> bool {
    let f: Vec<&str> = t.trim().split(',').collect();
    f.len() >= 27
        && SIZE.is_match(f[1])
        && f[2..].iter().all(|c| {
            c.is_empty() || c.starts_with('+') || c.parse::<f64>().is_ok() || FILES.is_match(c)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str) -> Parsed {
        let src = Source::from_text("bonnie.txt", text);
        assert_eq!(BonnieTable.detect(&src), 95);
        BonnieTable.parse_accounted(&src).unwrap()
    }

    fn get(p: &Parsed, m: &str) -> Vec<(f64, String, String)> {
        p.observations
            .iter()
            .filter(|o| o.metric == m)
            .map(|o| (o.value, o.unit.to_string(), o.params.to_string()))
            .collect()
    }

    #[test]
    fn version_1_03_tables_and_their_csv_line() {
        // A 2005 mail's paste, byte for byte.
        let p = rows(
            "Version  1.03       ------Sequential Output------ --Sequential Input- --Random-\n\
                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n\
Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n\
proliant         2G 30641  71 28554   8 16580   3 29447  61 50313   5 185.9   0\n\
                    ------Sequential Create------ --------Random Create--------\n\
                    -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n\
              files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n\
                 16 28156 100 +++++ +++ 25285  99 24020  93 +++++ +++ 22937  99\n\
proliant,2G,30641,71,28554,8,16580,3,29447,61,50313,5,185.9,0,16,28156,100,+++++,+++,25285,99,24020,93,+++++,+++,22937,99\n",
        );
        let s = |x: &str| x.to_string();
        assert_eq!(
            get(&p, "seq output char"),
            [(30641.0, s("KiB/s"), s("size=2G"))]
        );
        assert_eq!(get(&p, "random seeks"), [(185.9, s("/s"), s("size=2G"))]);
        assert_eq!(get(&p, "random seeks cpu"), [(0.0, s("%"), s("size=2G"))]);
        assert_eq!(
            get(&p, "seq create"),
            [(28156.0, s("files/s"), s("size=2G"))]
        );
        assert!(get(&p, "seq stat").is_empty(), "+++++ is no value");
        assert_eq!(get(&p, "random delete cpu")[0].0, 99.0);
        assert_eq!(p.observations.len(), 12 + 8);
        assert_eq!(p.skipped.len(), 1);
        assert_eq!(p.skipped[0].0, 9);
    }

    #[test]
    fn rows_without_the_machine_and_with_latencies_and_scaled_rates() {
        // A pasted row without its machine column (a 2019 cover letter)…
        let p = rows(
            "     ------Sequential Output------ --Sequential Input- --Random-\n\
     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n\
Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP /sec %CP\n\
  4G 93865  99 312837  96 194487  23 102808  97 415501 21 +++++ +++\n",
        );
        assert_eq!(get(&p, "seq input block")[0].0, 415501.0);
        assert!(get(&p, "random seeks").is_empty());
        // …and bonnie++ 2.00a's tables, whose CSV line was cut off.
        let p = rows(
            "Version 2.00a       ------Sequential Output------ --Sequential Input- --Random-\n\
                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n\
Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n\
vm              64M  853k  66 +++++ +++ +++++ +++ 1917k  88 +++++ +++ +++++ +++\n\
Latency             43946us    4096us    3270us   10945us    4221us   10607us\n",
        );
        let s = |x: &str| x.to_string();
        assert_eq!(
            get(&p, "seq output char"),
            [(853.0, s("KiB/s"), s("size=64M"))]
        );
        assert_eq!(get(&p, "seq input char")[0].0, 1917.0);
        assert_eq!(get(&p, "seq output block latency")[0].0, 4096.0);
        assert_eq!(get(&p, "random seeks latency")[0].0, 10607.0);
    }

    #[test]
    fn file_counts_with_sizes_and_scaled_rates() {
        // bonnie++ 2.00a as a 2023 mail pasted it (`-n 20:20`, rates in k/m/g).
        let p = rows(
            "   Version 2.00a       ------Sequential Output------ --Sequential Input- --Random-\n\
                       -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n\
   Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n\
   debian0          8G  376k  99  1.1g  98  939m  92 1527k  99  3.2g  99  9060 256\n\
   Latency             24920us     207us     680ms    5594us     171us    2891us\n\
   Version 2.00a       ------Sequential Create------ --------Random Create--------\n\
   debian0             -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n\
                 files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n\
                 20/20 20480  96 +++++ +++ 20480  95 20480  99 +++++ +++ 20480  97\n\
   Latency              8708us     137us    5128us    6743us      60us   19712us\n",
        );
        let v = |m: &str| get(&p, m)[0].0;
        assert_eq!(v("seq output char"), 376.0);
        assert_eq!(v("seq output block"), 1.1 * 1024.0 * 1024.0);
        assert_eq!(v("rewrite"), 939.0 * 1024.0);
        assert_eq!(v("rewrite latency"), 680_000.0);
        assert_eq!(v("seq create"), 20480.0);
        assert_eq!(get(&p, "seq create")[0].2, "size=8G");
        assert_eq!(v("random delete latency"), 19712.0);
        assert_eq!(p.observations.len(), 12 + 6 + 8 + 6);
    }

    #[test]
    fn a_file_with_a_csv_result_line_is_the_csv_readers() {
        let src = Source::from_text(
            "b.txt",
            "Version 2.00a       ------Sequential Output------ --Sequential Input- --Random-\n\
1.98,2.00a,vm,1,1796347231,64M,,8192,5,853,66\n",
        );
        assert_eq!(BonnieTable.detect(&src), 0);
    }
}
