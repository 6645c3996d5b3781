//! fio terse output (`--minimal`, `--output-format=terse`): one
//! `;`-separated line per job, field 1 the terse version (2–5), then (v3+)
//! the fio version, job name, group id, error, and one block of fields per
//! direction: read and write, plus trim from v4; 41 fields each, 47 in v5
//! (bandwidth and IOPS sample statistics appended). fio 1.x wrote version
//! 2 with blocks of 20 fields (I/O, bandwidth, runtime, then slat, clat
//! and lat min/max/mean/stdev and the bandwidth statistics: no IOPS, no
//! percentiles), 78 fields in all. Terse latencies are always µs and
//! bandwidth KiB/s.
//!
//! Per job (`job=`) and direction that did I/O (`rw=`): `iops`, `bw`
//! (KiB/s), `clat mean`, `lat mean` (µs) and `clat p50/p90/p99/p99.9` where
//! those percentiles are among the printed `P%=value` fields.

use crate::error::Result;
use crate::ingest::shared::logscan::{last_line, num, Params};
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

/// The fio terse importer.
pub struct FioTerse;

/// The fields of one direction in fio 1.x's terse version 2.
const EARLY_BLOCK: usize = 20;

/// Version, index of the job name, and the size of one direction block.
fn layout(fields: &[&str]) -> Option<(u32, usize, usize)> {
    let version: u32 = fields.first()?.trim().parse().ok()?;
    if !(2..=5).contains(&version) {
        return None;
    }
    let name_at = if fields.get(1)?.starts_with("fio-") {
        2
    } else {
        1
    };
    let dirs = if version >= 4 { 3 } else { 2 };
    // fio 1.x's version 2: the aggregate bandwidth share (`50.27%`) ends
    // the bandwidth statistics at the 18th field of the read block.
    let early = version == 2
        && fields.len() < name_at + 3 + dirs * 41
        && fields.len() >= name_at + 3 + dirs * EARLY_BLOCK
        && fields[name_at + 3 + 17].ends_with('%');
    if early {
        return Some((version, name_at, EARLY_BLOCK));
    }
    let block = if version == 5 { 47 } else { 41 };
    // groupid and error follow the name, then the direction blocks.
    (fields.len() >= name_at + 3 + dirs * block).then_some((version, name_at, block))
}

/// False when the trimmed line `t` cannot be a terse line: [`layout`]
/// needs a first field that parses as a `u32` (a digit or `+` first) and
/// well over one `;`.
fn may_be_terse(t: &str) -> bool {
    matches!(t.as_bytes().first(), Some(b'0'..=b'9' | b'+'))
        && memchr::memchr(b';', t.as_bytes()).is_some()
}

/// The detection score from every non-blank line split at `;`: at least
/// half of them must be job lines.
fn score_by_splitting(src: &Source) -> Confidence {
    let lines: Vec<&str> = src
        .lines
        .iter()
        .map(|l| l.text.trim())
        .filter(|t| !t.is_empty())
        .collect();
    let terse = lines
        .iter()
        .filter(|t| layout(&t.split(';').collect::<Vec<_>>()).is_some())
        .count();
    if terse > 0 && terse * 2 >= lines.len() {
        90
    } else {
        0
    }
}

impl Format for FioTerse {
    fn name(&self) -> &'static str {
        "fio-terse"
    }

    fn description(&self) -> &'static str {
        "fio --minimal / terse: `3;fio-3.x;job;…` lines of about 130 `;`-separated fields"
    }

    fn detect(&self, src: &Source) -> Confidence {
        // Half the non-blank lines must be terse lines, whose first field
        // is the version: a cheap look at first bytes rules out other
        // text before any line is split.
        let mut nonblank = 0usize;
        let mut candidates = 0usize;
        for l in &src.lines {
            let t = l.text.trim();
            if t.is_empty() {
                continue;
            }
            nonblank += 1;
            candidates += usize::from(may_be_terse(t));
        }
        if candidates == 0 || candidates * 2 < nonblank {
            return 0;
        }
        score_by_splitting(src)
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        for l in &src.lines {
            let t = l.text.trim();
            let n = l.number;
            let f: Vec<&str> = t.split(';').collect();
            let Some((version, name_at, block)) = layout(&f) else {
                if t.starts_with(|c: char| ('2'..='5').contains(&c)) && t.get(1..2) == Some(";") {
                    return Err(src.error(
                        Some(n),
                        format!("fio terse line has too few fields ({})", f.len()),
                    ));
                }
                continue;
            };
            let job = f[name_at];
            let dirs: &[&str] = if version >= 4 {
                &["read", "write", "trim"]
            } else {
                &["read", "write"]
            };
            for (k, dir) in dirs.iter().enumerate() {
                let b = name_at + 3 + k * block;
                let kb = num(src, n, f[b], "io KiB")?;
                // fio 1.x printed no IOPS: its third field is the runtime.
                let early = block == EARLY_BLOCK;
                let iops = if early {
                    0.0
                } else {
                    num(src, n, f[b + 2], "iops")?
                };
                if kb <= 0.0 && iops <= 0.0 {
                    continue;
                }
                let mut p = Params::default();
                p.set("job", job);
                p.set("rw", dir);
                let params = p.render();
                let mut push = |metric: &str, unit: &str, v: f64| {
                    out.push(
                        Row::at(src, n)
                            .benchmark("fio")
                            .params(&params)
                            .metric(metric)
                            .unit(unit)
                            .sample(v),
                    );
                };
                if early {
                    push("bw", "KiB/s", num(src, n, f[b + 1], "bw")?);
                    push("clat mean", "us", num(src, n, f[b + 9], "clat mean")?);
                    push("lat mean", "us", num(src, n, f[b + 13], "lat mean")?);
                    continue;
                }
                push("iops", "iops", iops);
                push("bw", "KiB/s", num(src, n, f[b + 1], "bw")?);
                push("clat mean", "us", num(src, n, f[b + 10], "clat mean")?);
                push("lat mean", "us", num(src, n, f[b + 34], "lat mean")?);
                for cell in &f[b + 12..b + 32] {
                    let Some((pct, v)) = cell.split_once("%=") else {
                        continue;
                    };
                    let metric = match parse_number(pct) {
                        Some(p) if (p - 50.0).abs() < 1e-9 => "clat p50",
                        Some(p) if (p - 90.0).abs() < 1e-9 => "clat p90",
                        Some(p) if (p - 99.0).abs() < 1e-9 => "clat p99",
                        Some(p) if (p - 99.9).abs() < 1e-9 => "clat p99.9",
                        _ => continue,
                    };
                    push(metric, "us", num(src, n, v, metric)?);
                }
            }
        }
        if out.is_empty() {
            return Err(src.error(last_line(src), "no fio terse job line that did I/O found"));
        }
        Ok(out.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_terse_output_passes_the_first_byte_test() {
        let path = "tests/data/logs/fio_terse-constructed.txt";
        let src = Source::read(std::path::Path::new(path)).unwrap();
        assert_eq!(FioTerse.detect(&src), 90);
    }

    #[test]
    fn fio_1_terse_version_2_has_no_iops_nor_percentiles() {
        let p =
            crate::ingest::parse_file(&FioTerse, "tests/data/harness/fio/howto-terse-v2-fio1.txt");
        let got: Vec<(String, String, f64)> = p
            .observations
            .iter()
            .map(|o| (o.params.to_string(), o.metric.to_string(), o.value))
            .collect();
        let row = |rw: &str, m: &str, v: f64| (format!("job=card0,rw={rw}"), m.to_string(), v);
        assert_eq!(
            got,
            vec![
                row("read", "bw", 121836.0),
                row("read", "clat mean", 3495.446807),
                row("read", "lat mean", 3523.635629),
                row("write", "bw", 122104.0),
                row("write", "clat mean", 5032.488518),
                row("write", "lat mean", 5061.839412),
            ]
        );
    }

    #[test]
    fn detection_gives_the_score_splitting_every_line_gives() {
        crate::ingest::assert_detection_agrees(&FioTerse, score_by_splitting);
        let line = |first: &str| format!("{first};fio-3.1;job;0;0{}\n", ";1".repeat(130));
        for text in [
            line("3"),
            line("+3") + "text\n",
            line("03") + "a\nb\n",
            line("x3"),
            line(" 3 "),
        ] {
            let src = Source::from_text("x", &text);
            assert_eq!(FioTerse.detect(&src), score_by_splitting(&src), "{text:?}");
        }
    }
}
