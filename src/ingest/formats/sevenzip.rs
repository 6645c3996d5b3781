//! 7-Zip's built-in benchmark, `7z b` (also `7za b`, p7zip's and 7-Zip's
//! own builds): a banner (version, CPU, `RAM size:   24105 MB (LP),  # CPU
//! hardware threads:   2`, `# Benchmark threads:      2`), the CPU
//! frequency estimates, then the table of LZMA compression and
//! decompression, one row per dictionary size and pass:
//!
//! ```text
//! Dict     Speed Usage    R/U Rating  |      Speed Usage    R/U Rating
//!          KiB/s     %   MIPS   MIPS  |      KiB/s     %   MIPS   MIPS
//! 18:      11290    98  10215  10059  |      55142    97   4600   4459
//! Avr:     11290    98  10215  10059  |      55142    97   4600   4459
//! Tot:              98   7408   7259
//! ```
//!
//! Benchmark `7z b`; parameters `threads` (benchmark threads) and `ram`
//! (the RAM size it reports, in MB), and on a dictionary row `dict` (as
//! printed: the base-2 logarithm of the dictionary size, 18 is 256 KiB).
//! Metrics `compress speed` / `decompress speed` (KiB/s), `… usage` (%, CPU
//! use over one thread's), `… R/U` (MIPS per 100 % usage) and `… rating`
//! (MIPS), each a `sample`: a dictionary row is one pass (`7z b 3` gives
//! three), the `Avr:` row is the run's average over its passes and
//! dictionary sizes (without `dict`), and `Tot:` gives `total usage`,
//! `total R/U` and `total rating`, the run's headline figures, averaged
//! over compression and decompression. The averages are samples of the
//! run, not statistics of this file's rows: several runs' files then
//! compare them run against run.
//!
//! `-mm=*` prints a table per method instead (`LZMA:x1  32168  99  12011
//! 11859  592  584`, the decompression row below it indented; columns
//! Speed, Usage, R/U, Rating, E/U, Effec): parameter `method`, the same
//! metrics and `… E/U` and `… effec` (%). Its `CPU` calibration rows, the
//! frequency estimates and `-bt`'s process times are left out with the
//! reason.

use crate::error::Result;
use crate::ingest::shared::logscan::{has, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(RAM, r"RAM size:\s+(\d+) MB");
lazy_re!(THREADS, r"# Benchmark threads:\s+(\d+)");
lazy_re!(DICT_ROW, r"^(\d+|Avr):((?:\s+\d+){4})\s+\|((?:\s+\d+){4})$");
lazy_re!(TOT_ROW, r"^Tot:((?:\s+\d+){3})$");
lazy_re!(METHOD_ROW, r"^([A-Za-z][\w:.-]*)((?:\s+\d+){3,6})$");
lazy_re!(METHOD_CONT, r"^\s+((?:\d+\s+){3,5}\d+)$");

/// The 7-Zip benchmark importer.
pub struct SevenZip;

/// The columns of one direction of the dictionary table.
const COLUMNS: [(&str, &str); 4] = [
    ("speed", "KiB/s"),
    ("usage", "%"),
    ("R/U", "MIPS"),
    ("rating", "MIPS"),
];

/// The columns of the `-mm=*` method table.
const METHOD_COLUMNS: [(&str, &str); 6] = [
    ("speed", "KiB/s"),
    ("usage", "%"),
    ("R/U", "MIPS"),
    ("rating", "MIPS"),
    ("E/U", "%"),
    ("effec", "%"),
];

impl Format for SevenZip {
    fn name(&self) -> &'static str {
        "7zip-bench"
    }

    fn description(&self) -> &'static str {
        "7-Zip `7z b`: compress/decompress speed, usage, R/U and rating per dictionary size, Avr and Tot (and -mm=* per method)"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let banner = src
            .lines
            .iter()
            .take(5)
            .any(|l| l.text.starts_with("7-Zip"));
        let table = src.lines.iter().any(|l| {
            let t = l.text.trim();
            (t.starts_with("Dict ") || t.starts_with("Method ")) && t.contains("R/U Rating")
        });
        match (banner, table) {
            (_, true) if has(src, "KiB/s") => 95,
            (true, false) if has(src, "RAM size:") => 60,
            _ => 0,
        }
    }

    /// Banner, headers and separators are `consumed`; the frequency
    /// estimates, `-mm=*`'s `CPU` rows and `-bt`'s times are `skipped`.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut consumed = Vec::new();
        let mut skipped = Vec::new();
        let mut ram: Option<String> = None;
        let mut threads: Option<String> = None;
        // The method whose decompression row may follow.
        let mut method: Option<String> = None;
        let mut in_methods = false;
        // Before the table: the banner.
        let mut banner = true;
        for l in &src.lines {
            let n = l.number;
            let raw = l.text.trim_end();
            let t = raw.trim();
            if t.is_empty() {
                continue;
            }
            let mut base = Params::default();
            if let Some(k) = &threads {
                base.set("threads", k);
            }
            if let Some(r) = &ram {
                base.set("ram", format!("{r}MB"));
            }
            if let Some(c) = RAM.captures(t) {
                ram = Some(c[1].to_string());
                consumed.push(n);
                continue;
            }
            if let Some(c) = THREADS.captures(t) {
                threads = Some(c[1].to_string());
                consumed.push(n);
                continue;
            }
            if let Some(c) = DICT_ROW.captures(t) {
                let mut params = base;
                if &c[1] != "Avr" {
                    params.set("dict", &c[1]);
                }
                let rendered = params.render();
                for (dir, cells) in [("compress", &c[2]), ("decompress", &c[3])] {
                    let cells: Vec<&str> = cells.split_whitespace().collect();
                    push_cells(src, n, &rendered, dir, &cells, &COLUMNS, &mut out)?;
                }
                continue;
            }
            if let Some(c) = TOT_ROW.captures(t) {
                let cells: Vec<&str> = c[1].split_whitespace().collect();
                push_cells(
                    src,
                    n,
                    &base.render(),
                    "total",
                    &cells,
                    &COLUMNS[1..],
                    &mut out,
                )?;
                continue;
            }
            if t.starts_with("Dict ") && t.contains("R/U") {
                banner = false;
            }
            if t.starts_with("Method ") && t.contains("R/U") {
                banner = false;
                in_methods = true;
                consumed.push(n);
                continue;
            }
            if in_methods {
                let cont = METHOD_CONT.captures(raw).filter(|_| raw.starts_with(' '));
                if let (Some(c), Some(name)) = (cont, &method) {
                    let cells: Vec<&str> = c[1].split_whitespace().collect();
                    if cells.len() == METHOD_COLUMNS.len() {
                        push_method(src, n, &base, name, "decompress", &cells, &mut out)?;
                        method = None;
                        continue;
                    }
                }
                if let Some(c) = METHOD_ROW.captures(t) {
                    let cells: Vec<&str> = c[2].split_whitespace().collect();
                    if &c[1] == "CPU" {
                        skipped.push((
                            n,
                            "-mm=*'s CPU calibration row (the clock it measures), not a method's result"
                                .into(),
                        ));
                        continue;
                    }
                    if cells.len() == METHOD_COLUMNS.len() {
                        push_method(src, n, &base, &c[1], "compress", &cells, &mut out)?;
                        method = Some(c[1].to_string());
                        continue;
                    }
                }
                method = None;
            }
            if t == "Break signaled" {
                skipped.push((
                    n,
                    "7-Zip was interrupted here: the rows after it were not run".into(),
                ));
            } else if t.contains("CPU Freq") {
                skipped.push((
                    n,
                    "CPU frequency estimate made before the benchmark, not its result".into(),
                ));
            } else if t.contains(" Time =") && t.ends_with('%') {
                skipped.push((
                    n,
                    "-bt's process times of the whole benchmark run, not a rating".into(),
                ));
            } else if banner
                || t.starts_with("Dict ")
                || t.starts_with("KiB/s")
                || t.starts_with("---")
                || !t.bytes().any(|b| b.is_ascii_digit())
            {
                // The banner (version, compiler, kernel, CPU name, the
                // options echoed as ` d18 mt2`, RAM usage), headers and
                // separators.
                consumed.push(n);
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no 7-Zip benchmark row found (`18:  11290  98 …` under `Dict  Speed Usage  R/U Rating`)",
        )
    }
}

/// The rows of one line of the `-mm=*` method table.
fn push_method(
    src: &Source,
    n: u32,
    base: &Params,
    method: &str,
    dir: &str,
    cells: &[&str],
    out: &mut Vec<crate::model::Observation>,
) -> Result<()> {
    let mut params = base.clone();
    params.set("method", method);
    push_cells(src, n, &params.render(), dir, cells, &METHOD_COLUMNS, out)
}

/// One sample per cell of line `n`, named `{prefix} {column}` in the
/// column's unit.
fn push_cells(
    src: &Source,
    n: u32,
    params: &str,
    prefix: &str,
    cells: &[&str],
    columns: &[(&str, &str)],
    out: &mut Vec<crate::model::Observation>,
) -> Result<()> {
    for (w, (metric, unit)) in cells.iter().zip(columns) {
        let metric = format!("{prefix} {metric}");
        out.push(
            Row::at(src, n)
                .benchmark("7z b")
                .params(params)
                .metric(&metric)
                .unit(unit)
                .sample(num(src, n, w, &metric)?),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Observation;

    fn read(file: &str) -> Parsed {
        crate::ingest::parse_file(&SevenZip, &format!("tests/data/harness/7zip/{file}"))
    }

    fn rows<'a>(p: &'a Parsed, params: &str, metric: &str) -> Vec<(f64, &'a str)> {
        p.observations
            .iter()
            .filter(|o: &&Observation| o.params == params && o.metric == metric)
            .map(|o| (o.value, o.unit.as_str()))
            .collect()
    }

    #[test]
    fn one_dictionary_row_its_average_and_the_total() {
        let p = read("7z-b-md18.txt");
        let d = "dict=18,ram=24105MB,threads=2";
        assert_eq!(rows(&p, d, "compress speed"), vec![(11290.0, "KiB/s")]);
        assert_eq!(rows(&p, d, "compress usage"), vec![(98.0, "%")]);
        assert_eq!(rows(&p, d, "compress R/U"), vec![(10215.0, "MIPS")]);
        assert_eq!(rows(&p, d, "compress rating"), vec![(10059.0, "MIPS")]);
        assert_eq!(rows(&p, d, "decompress speed"), vec![(55142.0, "KiB/s")]);
        assert_eq!(rows(&p, d, "decompress usage"), vec![(97.0, "%")]);
        assert_eq!(rows(&p, d, "decompress R/U"), vec![(4600.0, "MIPS")]);
        assert_eq!(rows(&p, d, "decompress rating"), vec![(4459.0, "MIPS")]);
        let run = "ram=24105MB,threads=2";
        assert_eq!(rows(&p, run, "decompress rating"), vec![(4459.0, "MIPS")]);
        assert_eq!(rows(&p, run, "total usage"), vec![(98.0, "%")]);
        assert_eq!(rows(&p, run, "total R/U"), vec![(7408.0, "MIPS")]);
        assert_eq!(rows(&p, run, "total rating"), vec![(7259.0, "MIPS")]);
        assert_eq!(p.observations.len(), 8 + 8 + 3);
        // The three frequency lines.
        assert_eq!(p.skipped.len(), 3, "{:?}", p.skipped);
    }

    #[test]
    fn passes_are_samples_and_threads_a_parameter() {
        let p = read("7z-b-3passes.txt");
        let d = "dict=18,ram=24105MB,threads=2";
        let speeds: Vec<f64> = rows(&p, d, "compress speed").iter().map(|r| r.0).collect();
        assert_eq!(speeds, vec![10576.0, 11186.0, 10742.0]);
        let avr = rows(&p, "ram=24105MB,threads=2", "decompress speed");
        assert_eq!(avr, vec![(54886.0, "KiB/s")]);
        assert_eq!(
            rows(&p, "ram=24105MB,threads=2", "total rating"),
            vec![(7046.0, "MIPS")]
        );
        let p = read("7za-b-mmt1-md18.txt");
        assert_eq!(
            rows(&p, "dict=18,ram=24105MB,threads=1", "compress rating"),
            vec![(8843.0, "MIPS")]
        );
    }

    #[test]
    fn process_times_and_the_method_table() {
        let p = read("7z-b-bt.txt");
        assert_eq!(
            rows(&p, "ram=24105MB,threads=2", "total rating"),
            vec![(6951.0, "MIPS")]
        );
        let times = p.skipped.iter().filter(|(_, w)| w.contains("-bt")).count();
        assert_eq!(times, 4);
        let p = read("7z-b-mmall-interrupted.txt");
        let x1 = "method=LZMA:x1,ram=24105MB,threads=2";
        assert_eq!(rows(&p, x1, "compress speed"), vec![(32168.0, "KiB/s")]);
        assert_eq!(rows(&p, x1, "compress effec"), vec![(584.0, "%")]);
        assert_eq!(rows(&p, x1, "decompress speed"), vec![(55823.0, "KiB/s")]);
        assert_eq!(rows(&p, x1, "decompress E/U"), vec![(221.0, "%")]);
        // Interrupted after compressing with LZMA:x5:mt1: no decompression.
        let x5 = "method=LZMA:x5:mt1,ram=24105MB,threads=2";
        assert_eq!(rows(&p, x5, "compress rating"), vec![(12299.0, "MIPS")]);
        assert!(rows(&p, x5, "decompress rating").is_empty());
        assert_eq!(p.observations.len(), 6 * 5);
        let cpu = p
            .skipped
            .iter()
            .filter(|(_, w)| w.contains("calibration"))
            .count();
        assert_eq!(cpu, 3);
        assert!(p
            .skipped
            .iter()
            .any(|(n, w)| *n == 34 && w.contains("interrupted")));
    }
}
