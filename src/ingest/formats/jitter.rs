//! The Linux jitter test program (`jitter`, "Linux Jitter testing
//! program"): a banner describing the columns, then one row per display
//! update under `Inst_Min Inst_Max Inst_jitter last_Exec Abs_min Abs_max
//! tmp Interval Sample No`, timings in CPU core cycles.
//!
//! Benchmark `jitter`, parameter `loops` (the banner's `execute a dummy
//! function N times`); per row, metrics `instantaneous min`,
//! `instantaneous max`, `instantaneous jitter` and `last exec` (cycles),
//! each a `sample` of the row's update interval. `Abs_min` and `Abs_max`
//! run over every update so far: the last row's are read once, as
//! `absolute min` and `absolute max`. `tmp` (the dummy function's
//! checksum), `Interval` (the update interval's length) and the sample
//! number measure nothing. The banner is context.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(
    HEADER,
    r"^\s*Inst_Min\s+Inst_Max\s+Inst_jitter\s+last_Exec\s+Abs_min\s+Abs_max\b"
);
lazy_re!(ROW, r"^\s*\d+(?:\s+\d+){8}\s*$");
lazy_re!(LOOPS, r"execute a dummy function (\d+) times");

/// The jitter importer.
pub struct Jitter;

/// The columns read on every row, with their metrics.
const PER_ROW: [(usize, &str); 4] = [
    (0, "instantaneous min"),
    (1, "instantaneous max"),
    (2, "instantaneous jitter"),
    (3, "last exec"),
];

impl Format for Jitter {
    fn name(&self) -> &'static str {
        "jitter"
    }

    fn description(&self) -> &'static str {
        "Linux jitter test program: the `Inst_Min Inst_Max Inst_jitter …` table, in CPU cycles"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if crate::ingest::shared::logscan::any_with(src, "Inst_jitter", &HEADER) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed) = (Vec::new(), Vec::new());
        let mut params = Params::default();
        let mut in_table = false;
        // The last row of the table under way, for its running extremes.
        let mut last: Option<(u32, Vec<String>)> = None;
        // The cells of a row named by `columns`, each a sample in cycles.
        let push = |n: u32,
                    cells: &[String],
                    columns: &[(usize, &str)],
                    params: &Params,
                    out: &mut Vec<_>|
         -> Result<()> {
            for &(i, metric) in columns {
                let v = num(src, n, &cells[i], metric)?;
                out.push(
                    Row::at(src, n)
                        .benchmark("jitter")
                        .params(&params.render())
                        .metric(metric)
                        .unit("cycles")
                        .sample(v),
                );
            }
            Ok(())
        };
        let close = |last: &mut Option<(u32, Vec<String>)>,
                     params: &Params,
                     out: &mut Vec<_>|
         -> Result<()> {
            match last.take() {
                Some((n, cells)) => push(
                    n,
                    &cells,
                    &[(4, "absolute min"), (5, "absolute max")],
                    params,
                    out,
                ),
                None => Ok(()),
            }
        };
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim_end());
            if HEADER.is_match(t) {
                close(&mut last, &params, &mut out)?;
                in_table = true;
                consumed.push(n);
            } else if in_table && ROW.is_match(t) {
                let cells: Vec<String> = t.split_whitespace().map(str::to_string).collect();
                push(n, &cells, &PER_ROW, &params, &mut out)?;
                last = Some((n, cells));
            } else if !t.trim().is_empty() {
                // The banner of the next run, or anything after a table.
                close(&mut last, &params, &mut out)?;
                in_table = false;
                if let Some(c) = LOOPS.captures(t) {
                    params.set("loops", &c[1]);
                }
                consumed.push(n);
            }
        }
        close(&mut last, &params, &mut out)?;
        Parsed::found(
            src,
            out,
            consumed,
            Vec::new(),
            "no row under jitter's `Inst_Min Inst_Max Inst_jitter …` header",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    #[test]
    fn each_update_s_timings_and_the_last_row_s_extremes() {
        let p = parse_file(&Jitter, "tests/data/harness/jitter/lkp-01.txt");
        assert_eq!(p.observations.len(), 10 * 4 + 2);
        let values = |m: &str| -> Vec<f64> {
            p.observations
                .iter()
                .filter(|o| o.metric == m)
                .map(|o| o.value)
                .collect()
        };
        let jitter = values("instantaneous jitter");
        assert_eq!(jitter.len(), 10);
        assert_eq!((jitter[0], jitter[9]), (117360.0, 115140.0));
        assert_eq!(values("last exec")[1], 86520.0);
        assert_eq!(values("instantaneous max")[7], 208900.0);
        assert_eq!(values("absolute min"), [86480.0]);
        assert_eq!(values("absolute max"), [208900.0]);
        let o = &p.observations[0];
        assert_eq!(
            (o.benchmark.as_str(), o.params.as_str(), o.unit.as_str()),
            ("jitter", "loops=80000", "cycles")
        );
        assert!(p.skipped.is_empty());
    }
}
