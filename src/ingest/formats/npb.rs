//! The NAS Parallel Benchmarks (NPB: BT, CG, EP, FT, IS, LU, MG, SP, the
//! multi-zone BT-MZ and the others, serial, OpenMP and MPI builds): the
//! block each program prints when done, ` CG Benchmark Completed.` over
//! `Name = value` lines (` Class = S`, ` Time in seconds = 0.27`,
//! ` Mop/s total = 247.40`).
//!
//! Benchmark: the program's name from the block's first line. Parameters:
//! the class, the size (`1400`, `64x 64x 64` written `64x64x64`), the
//! iterations and the counts of threads and processes (`Threads`, `Total
//! threads`, `Total processes`, `Compiled procs`: each as named), and
//! `verified=no` when the program's own check failed (so that its time
//! never pairs with a verified one). Metrics: `time` (s) and each `Mop/s`
//! line (`Mop/s total`, `Mop/s/thread`, `Mop/s/process`, in Mop/s), a
//! `sample` per block; a file of several runs gives each its own. The
//! operation type, version, compile date and options are context.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, lines_containing, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(
    COMPLETED,
    r"^\s*([A-Z][A-Z0-9-]*) Benchmark Completed\.?\s*$"
);
lazy_re!(FIELD, r"^\s*([A-Za-z][A-Za-z /]*?)\s*=\s*(.*?)\s*$");

/// The NPB importer.
pub struct Npb;

/// What a field of the block is: a parameter (its key), a metric (name
/// and unit), or context.
enum Field {
    Param(String),
    Metric(String, &'static str),
    Verification,
    Context,
}

fn field(name: &str) -> Field {
    match name {
        "Class" | "Size" | "Iterations" => Field::Param(name.to_lowercase()),
        "Time in seconds" => Field::Metric("time".to_string(), "s"),
        "Verification" => Field::Verification,
        n if n.starts_with("Mop/s") => Field::Metric(n.to_string(), "Mop/s"),
        // Threads, Total threads, Avail threads, Total processes, Compiled procs.
        n if n.ends_with("threads") || n.ends_with("Threads") || n.contains("proc") => {
            Field::Param(n.to_lowercase().replace(' ', "_"))
        }
        _ => Field::Context,
    }
}

impl Format for Npb {
    fn name(&self) -> &'static str {
        "npb"
    }

    fn description(&self) -> &'static str {
        "NAS Parallel Benchmarks: ` CG Benchmark Completed.` blocks (class, size, iterations, \
         threads; `Time in seconds`, `Mop/s total`)"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if lines_containing(src, "Benchmark Completed").any(|l| COMPLETED.is_match(l))
            && lines_containing(src, "Mop/s").next().is_some()
        {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let mut i = 0;
        let lines = &src.lines;
        while i < lines.len() {
            let Some(c) = COMPLETED.captures(&lines[i].text) else {
                i += 1;
                continue;
            };
            let bench = c[1].to_string();
            consumed.push(lines[i].number);
            let mut params = Params::default();
            let mut metrics: Vec<(u32, String, &str, f64)> = Vec::new();
            let mut verified = true;
            i += 1;
            // The block runs to its first line that is no `Name = value`
            // (the blank line before `Compile options:`).
            while let Some(f) = lines.get(i).and_then(|l| FIELD.captures(&l.text)) {
                let n = lines[i].number;
                let value = &f[2];
                match field(&f[1]) {
                    Field::Param(key) => {
                        params.set(&key, value.replace(' ', ""));
                        consumed.push(n);
                    }
                    Field::Metric(name, unit) => {
                        metrics.push((n, name, unit, num(src, n, value, &f[1])?));
                    }
                    Field::Verification => {
                        verified = value != "UNSUCCESSFUL";
                        consumed.push(n);
                    }
                    Field::Context => consumed.push(n),
                }
                i += 1;
            }
            if !verified {
                params.set("verified", "no");
            }
            // The build's settings under `Compile options:`, past a blank
            // line, are context.
            let mut k = i;
            while lines.get(k).is_some_and(|l| l.text.trim().is_empty()) {
                k += 1;
            }
            if lines
                .get(k)
                .is_some_and(|l| l.text.trim() == "Compile options:")
            {
                consumed.push(lines[k].number);
                k += 1;
                while let Some(l) = lines.get(k).filter(|l| l.text.contains('=')) {
                    consumed.push(l.number);
                    k += 1;
                }
                i = k;
            }
            if metrics.is_empty() {
                skipped.push((
                    consumed[consumed.len() - 1],
                    format!("the {bench} block states no time or Mop/s"),
                ));
            }
            let params = params.render();
            for (n, metric, unit, v) in metrics {
                out.push(
                    Row::at(src, n)
                        .benchmark(&bench)
                        .params(&params)
                        .metric(&metric)
                        .unit(unit)
                        .sample(v),
                );
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no `… Benchmark Completed` block with a time or Mop/s",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;
    use crate::ingest::row_lines as rows;

    #[test]
    fn each_completed_block_is_a_run_of_its_program() {
        let p = parse_file(&Npb, "tests/data/harness/npb/ep-S-threads-1-2.txt");
        let params = |t: u32| format!("EP|class=S,iterations=0,size=25,threads={t}");
        assert_eq!(
            rows(&p),
            [
                format!("29 {}|time|s=3.63", params(1)),
                format!("30 {}|Mop/s total|Mop/s=9.24", params(1)),
                format!("72 {}|time|s=3.5", params(2)),
                format!("73 {}|Mop/s total|Mop/s=9.58", params(2)),
            ]
        );
        // Every line of the block and of the compile options is context.
        assert!((24..=43)
            .filter(|n| ![29, 30, 35].contains(n))
            .all(|n| p.consumed.contains(&n)));
        // Two programs in one file are two benchmarks.
        let p = parse_file(&Npb, "tests/data/harness/npb/cg-is-S-two-programs.txt");
        let r = rows(&p);
        assert_eq!(r.len(), 4);
        assert_eq!(
            r[1],
            "35 CG|class=S,iterations=15,size=1400,threads=2|Mop/s total|Mop/s=247.4"
        );
        assert!(r[2].starts_with("63 IS|class=S,iterations=10,size=65536,threads=2|time|s="));
    }

    #[test]
    fn threads_processes_and_a_failed_check_are_parameters() {
        let text = "\n BT-MZ Benchmark Completed.\n Class           =                        C\n \
                    Size            =            480x  320x 28\n Iterations      =                      200\n \
                    Time in seconds =                     7.67\n Total processes =                       36\n \
                    Total threads   =                       72\n Mop/s total     =                316523.02\n \
                    Mop/s/thread    =                  4396.15\n Operation type  =           floating point\n \
                    Verification    =             UNSUCCESSFUL\n";
        let p = Npb
            .parse_accounted(&Source::from_text("bt.txt", text))
            .unwrap();
        let r = rows(&p);
        let params = "class=C,iterations=200,size=480x320x28,total_processes=36,total_threads=72,verified=no";
        assert_eq!(r[0], format!("6 BT-MZ|{params}|time|s=7.67"));
        assert_eq!(
            r[2],
            format!("10 BT-MZ|{params}|Mop/s/thread|Mop/s=4396.15")
        );
    }

    #[test]
    fn a_bad_number_names_its_line() {
        let text = " EP Benchmark Completed.\n Class = S\n Mop/s total = fast\n";
        let e = Npb
            .parse_accounted(&Source::from_text("ep.txt", text))
            .unwrap_err();
        assert!(e.to_string().contains(":3"), "{e}");
    }
}
