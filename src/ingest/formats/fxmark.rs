//! fxmark (file-system scalability microbenchmarks) result logs: per
//! configuration a `## media:fs:workload:cores:io` title, a `# ncpu secs
//! works works/sec real.sec … guest.util` column header and a line of as
//! many numbers.
//!
//! Benchmark `fxmark`; the title's parts are the parameters (`media`,
//! `fs`, `workload`, `ncpu`, `io`), so that one workload at one core count
//! on two kernels lines up; each column but `ncpu` is a metric, its unit
//! from its name (`secs` and `*.sec` seconds, `works/sec` per second,
//! `*.util` percent). A `-nan` (a run that did no work) is left out with
//! the reason.

use crate::error::Result;
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::canonical_params;

/// The fxmark importer.
pub struct Fxmark;

/// The parameters a `media:fs:workload:cores:io` title names; `None` when
/// the line is no such title.
fn title_params(t: &str) -> Option<String> {
    let name = t.strip_prefix("## ")?.trim();
    let parts: Vec<&str> = name.split(':').collect();
    let [media, fs, workload, cores, io] = parts.as_slice() else {
        return None;
    };
    if !cores.bytes().all(|b| b.is_ascii_digit()) || cores.is_empty() {
        return None;
    }
    let p = [
        ("media", *media),
        ("fs", *fs),
        ("workload", *workload),
        ("ncpu", *cores),
        ("io", *io),
    ];
    Some(canonical_params(&p))
}

/// The unit fxmark's column name implies.
fn unit_of(column: &str) -> &'static str {
    if column == "secs" || column.ends_with(".sec") {
        "s"
    } else if column.ends_with("/sec") {
        "/s"
    } else if column.ends_with(".util") {
        "%"
    } else {
        ""
    }
}

impl Format for Fxmark {
    fn name(&self) -> &'static str {
        "fxmark"
    }

    fn description(&self) -> &'static str {
        "fxmark result logs: `## media:fs:workload:cores:io`, a `# ncpu secs works works/sec …` header and its line of numbers"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let lines = || src.lines.iter().take(2_000).map(|l| l.text.trim_end());
        let header = lines().any(|t| t.starts_with("# ncpu secs works works/sec"));
        if header && lines().any(|t| title_params(t).is_some()) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut consumed = Vec::new();
        let mut skipped = Vec::new();
        let mut params: Option<String> = None;
        let mut columns: Vec<&str> = Vec::new();
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            if t.is_empty() {
                continue;
            }
            if let Some(p) = title_params(t) {
                params = Some(p);
                columns.clear();
                consumed.push(n);
                continue;
            }
            if let Some(h) = t.strip_prefix("# ") {
                columns = h.split_whitespace().collect();
                consumed.push(n);
                continue;
            }
            if t.starts_with('#') {
                // `### NUM_TEST_CONF  = 7`: how many configurations ran.
                consumed.push(n);
                continue;
            }
            let cells: Vec<&str> = t.split_whitespace().collect();
            let Some(p) = params.as_deref() else {
                continue;
            };
            if columns.is_empty() || cells.len() != columns.len() {
                continue;
            }
            let mut nan = false;
            for (c, v) in columns.iter().zip(&cells) {
                if *c == "ncpu" {
                    continue;
                }
                match parse_number(v) {
                    Some(x) if x.is_finite() => out.push(
                        Row::at(src, n)
                            .benchmark("fxmark")
                            .params(p)
                            .metric(c)
                            .unit(unit_of(c))
                            .sample(x),
                    ),
                    _ => nan = true,
                }
            }
            if nan {
                skipped.push((
                    n,
                    "a value fxmark printed as not a number (`-nan`: the run did no work)"
                        .to_string(),
                ));
            }
        }
        Parsed::found(src, out, consumed, skipped, "no fxmark result line found")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_column_is_a_metric_of_the_titled_configuration() {
        let src = Source::from_text(
            "fxmark.log",
            "## ssd:f2fs:MWUL:2:bufferedio\n# ncpu secs works works/sec user.util\n\n\
             2 0.055294 10063.000000 181992.458426 33.3333\n\n### NUM_TEST_CONF  = 7\n",
        );
        assert_eq!(Fxmark.detect(&src), 95);
        let rows = Fxmark.parse(&src).unwrap();
        let got: Vec<(&str, &str, f64)> = rows
            .iter()
            .map(|o| (o.metric.as_str(), o.unit.as_str(), o.value))
            .collect();
        assert_eq!(
            got,
            [
                ("secs", "s", 0.055294),
                ("works", "", 10063.0),
                ("works/sec", "/s", 181992.458426),
                ("user.util", "%", 33.3333),
            ]
        );
        assert_eq!(
            rows[0].params,
            "fs=f2fs,io=bufferedio,media=ssd,ncpu=2,workload=MWUL"
        );
    }
}
