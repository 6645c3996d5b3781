//! fio's group summary: the lines under `Run status group N (all jobs):`,
//! which mails often paste alone, one per run, to compare two kernels:
//!
//! - fio 3: `READ: bw=16.5GiB/s (17.7GB/s), 16.5GiB/s-16.5GiB/s
//!   (17.7GB/s-17.7GB/s), io=1987GiB (2133GB), run=120422-120422msec`,
//!   or cut after the jobs' range;
//! - fio 2: `READ: io=3200.0MB, aggrb=28992KB/s, minb=7248KB/s,
//!   maxb=7273KB/s, mint=112623msec, maxt=113021msec`.
//!
//! A line a mail client wrapped after one of its commas is joined with the
//! line that completes it (`io=…, run=…`), and groups a tool collected
//! into one line after other text, each closed by `;`, are read one by one.
//!
//! Benchmark `fio`, parameters `rw=` the direction and `group=` the
//! number of the `Run status group` line above, when there is one; each
//! value a `sample` named as fio names it: fio 2's `io`, `aggrb` (the
//! group's aggregate bandwidth), `minb`, `maxb` (its slowest and fastest
//! job), `mint`, `maxt` (run times, ms); fio 3's `bw` (in the unit printed
//! first), `io` and `run` (the longest job's run time, ms), with `bw min`,
//! `bw max` when they add to the total (one job prints its bandwidth three
//! times) and `run min` when the jobs' run times differ. A file with fio's per-job reports is the normal-output reader's:
//! there the group lines summarise jobs already read.

use crate::error::Result;
use crate::ingest::shared::logscan::{any_with, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Observation;

lazy_re!(
    FIO3,
    r"^\s*(READ|WRITE|TRIM|MIXED): bw=([\d.]+)([KMGTP]?i?B/s)\s*\([^)]*\),\s*([\d.]+)([KMGTP]?i?B/s)-([\d.]+)([KMGTP]?i?B/s)\s*\([^)]*\)(?:,\s*io=([\d.]+)([KMGTP]?i?B)\s*\([^)]*\),\s*run=(\d+)-(\d+)msec)?\s*$"
);
lazy_re!(
    FIO2,
    r"^\s*(READ|WRITE|TRIM|MIXED): io=([\d.]+)([KMGTP]?i?B), aggrb=([\d.]+)([KMGTP]?i?B/s), minb=([\d.]+)([KMGTP]?i?B/s), maxb=([\d.]+)([KMGTP]?i?B/s), mint=(\d+)msec, maxt=(\d+)msec\s*$"
);
// The start of a group line: what detection and joining look for.
lazy_re!(START, r"^\s*(?:READ|WRITE|TRIM|MIXED): (?:bw|io)=");
// A group line after other text on its line.
lazy_re!(INLINE, r"\b(?:READ|WRITE|TRIM|MIXED): (?:bw|io)=");
lazy_re!(GROUP, r"^\s*Run status group (\d+) \(all jobs\):\s*$");
// A job's report of the normal output, which makes the file the
// normal-output reader's.
lazy_re!(JOB, r"\(groupid=\d+, jobs=\d+\): err=");

/// The fio group-summary importer.
pub struct FioGroup;

impl Format for FioGroup {
    fn name(&self) -> &'static str {
        "fio-group"
    }

    fn description(&self) -> &'static str {
        "fio's group summary lines without the jobs' reports: `READ: bw=…, …, io=…, run=…msec` (fio 3) or `READ: io=…, aggrb=…, …, maxt=…msec` (fio 2), wrapped lines joined"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if any_with(src, "(groupid=", &JOB) {
            return 0;
        }
        // Every input is offered to every detector: a literal search first,
        // the lines and their joins only where a group line may be.
        let maybe = any_with(src, ": bw=", &INLINE) || any_with(src, ": io=", &INLINE);
        if maybe && group_lines(src).next().is_some() {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut consumed = Vec::new();
        // The group each line sits under: its heading line, fio's own.
        let mut group: Vec<(u32, String)> = Vec::new();
        for l in &src.lines {
            if let Some(c) = GROUP.captures(&l.text) {
                group.push((l.number, c[1].to_string()));
                consumed.push(l.number);
            }
        }
        for (lines, text) in group_lines(src) {
            let under = group
                .iter()
                .rev()
                .find(|(n, _)| *n < lines[0] && lines[0] - n <= 4)
                .map(|(_, g)| g.as_str());
            read_line(src, lines[0], under, &text, &mut out)?;
            consumed.extend_from_slice(&lines[1..]);
        }
        Parsed::found(
            src,
            out,
            consumed,
            Vec::new(),
            "no fio group line (`READ: bw=…, io=…, run=…msec` or `READ: io=…, aggrb=…`) found",
        )
    }
}

/// The group lines of `src`, each with the numbers of the lines it was
/// made of (one, or two when a mail client wrapped it).
fn group_lines(src: &Source) -> impl Iterator<Item = (Vec<u32>, String)> + '_ {
    let lines = &src.lines;
    lines.iter().enumerate().flat_map(move |(i, l)| {
        let whole = |t: &str| FIO3.is_match(t) || FIO2.is_match(t);
        if START.is_match(&l.text) {
            if whole(&l.text) {
                return vec![(vec![l.number], l.text.clone())];
            }
            let joined = lines.get(i + 1).and_then(|next| {
                let joined = format!("{} {}", l.text.trim_end(), next.text.trim());
                (l.text.trim_end().ends_with(',') && whole(&joined))
                    .then(|| (vec![l.number, next.number], joined))
            });
            return joined.into_iter().collect();
        }
        // Several groups on one line after other text, each closed by a
        // `;` (a tool that collected fio's summary into one field).
        let Some(at) = INLINE.find(&l.text).map(|m| m.start()) else {
            return Vec::new();
        };
        l.text[at..]
            .split(';')
            .map(str::trim)
            .filter(|part| whole(part))
            .map(|part| (vec![l.number], part.to_string()))
            .collect()
    })
}

fn read_line(
    src: &Source,
    n: u32,
    group: Option<&str>,
    text: &str,
    out: &mut Vec<Observation>,
) -> Result<()> {
    let row = |dir: &str, metric: &str, unit: &str, v: f64| {
        let mut p = Params::default();
        p.set("rw", dir.to_lowercase());
        if let Some(g) = group {
            p.set("group", g);
        }
        Row::at(src, n)
            .benchmark("fio")
            .params(&p.render())
            .metric(metric)
            .unit(unit)
            .sample(v)
    };
    let mut push = |metric: &str, text: &str, unit: &str, dir: &str| -> Result<()> {
        out.push(row(dir, metric, unit, num(src, n, text, metric)?));
        Ok(())
    };
    if let Some(c) = FIO3.captures(text) {
        let d = &c[1];
        push("bw", &c[2], &c[3], d)?;
        // One job prints its bandwidth three times; several jobs give
        // their slowest and fastest, equal or not, beside the total.
        if (&c[4], &c[5]) != (&c[6], &c[7]) || (&c[4], &c[5]) != (&c[2], &c[3]) {
            push("bw min", &c[4], &c[5], d)?;
            push("bw max", &c[6], &c[7], d)?;
        }
        // A line cut after the jobs' range (posts trim the rest) has no
        // `io=` nor `run=`.
        if let (Some(io), Some(run_min), Some(run)) = (c.get(8), c.get(10), c.get(11)) {
            push("io", io.as_str(), &c[9], d)?;
            if run_min.as_str() != run.as_str() {
                push("run min", run_min.as_str(), "ms", d)?;
            }
            push("run", run.as_str(), "ms", d)?;
        }
    } else if let Some(c) = FIO2.captures(text) {
        let d = &c[1];
        push("io", &c[2], &c[3], d)?;
        push("aggrb", &c[4], &c[5], d)?;
        push("minb", &c[6], &c[7], d)?;
        push("maxb", &c[8], &c[9], d)?;
        push("mint", &c[10], "ms", d)?;
        push("maxt", &c[11], "ms", d)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str) -> Vec<(u32, String, String, f64, String)> {
        let src = Source::from_text("fio.txt", text);
        assert_eq!(FioGroup.detect(&src), 95);
        FioGroup
            .parse_accounted(&src)
            .unwrap()
            .observations
            .iter()
            .map(|o| {
                (
                    o.line,
                    o.params.to_string(),
                    o.metric.to_string(),
                    o.value,
                    o.unit.to_string(),
                )
            })
            .collect()
    }

    #[test]
    fn fio3_lines_and_a_line_wrapped_by_a_mail_client() {
        // Real lines: a run's summary pasted whole, and one wrapped after
        // its second comma as a cover letter posted it.
        let r = rows(
            "Without Relaxed Ordering:\n\
READ: bw=16.5GiB/s (17.7GB/s), 16.5GiB/s-16.5GiB/s (17.7GB/s-17.7GB/s),\n\
io=1987GiB (2133GB), run=120422-120422msec\n\n\
  WRITE: bw=6132KiB/s (6279kB/s), 6132KiB/s-6132KiB/s (6279kB/s-6279kB/s), io=255MiB (268MB), run=42633-42633msec\n",
        );
        let s = |x: &str| x.to_string();
        assert_eq!(
            r,
            [
                (2, s("rw=read"), s("bw"), 16.5, s("GiB/s")),
                (2, s("rw=read"), s("io"), 1987.0, s("GiB")),
                (2, s("rw=read"), s("run"), 120422.0, s("ms")),
                (5, s("rw=write"), s("bw"), 6132.0, s("KiB/s")),
                (5, s("rw=write"), s("io"), 255.0, s("MiB")),
                (5, s("rw=write"), s("run"), 42633.0, s("ms")),
            ]
        );
    }

    #[test]
    fn a_fio3_line_cut_after_the_jobs_range_gives_its_bandwidths() {
        // Four runs' summaries as a post quoted them, tab-indented.
        let r = rows(
            "\tWRITE: bw=451MiB/s (473MB/s), 113MiB/s-113MiB/s (118MB/s-118MB/s)\n\
             \tWRITE: bw=455MiB/s (478MB/s), 114MiB/s-114MiB/s (119MB/s-120MB/s)\n",
        );
        let m: Vec<(&str, f64)> = r.iter().map(|x| (x.2.as_str(), x.3)).collect();
        assert_eq!(
            m,
            [
                ("bw", 451.0),
                ("bw min", 113.0),
                ("bw max", 113.0),
                ("bw", 455.0),
                ("bw min", 114.0),
                ("bw max", 114.0)
            ]
        );
        assert_eq!(r[0].4, "MiB/s");
    }

    #[test]
    fn fio2_lines_under_their_group_keep_fios_names() {
        let r = rows(
            "Run status group 1 (all jobs):\n  WRITE: io=3200.0MB, aggrb=13095KB/s, minb=3273KB/s, maxb=3284KB/s, mint=249447msec, maxt=250214msec\n",
        );
        let s = |x: &str| x.to_string();
        let p = s("group=1,rw=write");
        assert_eq!(
            r,
            [
                (2, p.clone(), s("io"), 3200.0, s("MB")),
                (2, p.clone(), s("aggrb"), 13095.0, s("KB/s")),
                (2, p.clone(), s("minb"), 3273.0, s("KB/s")),
                (2, p.clone(), s("maxb"), 3284.0, s("KB/s")),
                (2, p.clone(), s("mint"), 249447.0, s("ms")),
                (2, p, s("maxt"), 250214.0, s("ms")),
            ]
        );
    }

    #[test]
    fn fio3_jobs_that_differ_give_their_range() {
        let r = rows(
            "   READ: bw=227MiB/s (239MB/s), 110MiB/s-117MiB/s (116MB/s-123MB/s), io=29.0GiB (32.2GB), run=134000-134968msec\n",
        );
        let m: Vec<(&str, f64)> = r.iter().map(|x| (x.2.as_str(), x.3)).collect();
        assert_eq!(
            m,
            [
                ("bw", 227.0),
                ("bw min", 110.0),
                ("bw max", 117.0),
                ("io", 29.0),
                ("run min", 134000.0),
                ("run", 134968.0)
            ]
        );
    }

    #[test]
    fn the_normal_output_is_not_this_readers() {
        let src = Source::from_text(
            "fio.txt",
            "job1: (groupid=0, jobs=1): err= 0: pid=1: Mon Jan  1\n\
  read: IOPS=88, BW=623KiB/s (638kB/s)(36.5MiB/60001msec)\n\
Run status group 0 (all jobs):\n\
   READ: bw=623KiB/s (638kB/s), 623KiB/s-623KiB/s (638kB/s-638kB/s), io=36.5MiB (38.3MB), run=60001-60001msec\n",
        );
        assert_eq!(FioGroup.detect(&src), 0);
    }

    #[test]
    fn a_cut_line_is_not_read() {
        let src = Source::from_text(
            "fio.txt",
            "READ: bw=16.5GiB/s (17.7GB/s),\nsomething else\n",
        );
        assert_eq!(FioGroup.detect(&src), 0);
        assert!(FioGroup.parse_accounted(&src).is_err());
    }

    #[test]
    fn a_real_two_job_run_and_a_one_job_run() {
        let p =
            crate::ingest::parse_file(&FioGroup, "tests/data/harness/fio/group-lines-two-runs.txt");
        let m: Vec<(String, &str, f64, &str)> = p
            .observations
            .iter()
            .map(|o| {
                (
                    o.params.to_string(),
                    o.metric.as_str(),
                    o.value,
                    o.unit.as_str(),
                )
            })
            .collect();
        let r = "group=0,rw=read".to_string();
        let w = "group=0,rw=write".to_string();
        assert_eq!(
            m,
            [
                (r.clone(), "bw", 1231.0, "MiB/s"),
                (r.clone(), "bw min", 615.0, "MiB/s"),
                (r.clone(), "bw max", 681.0, "MiB/s"),
                (r.clone(), "io", 64.0, "MiB"),
                (r.clone(), "run min", 47.0, "ms"),
                (r, "run", 52.0, "ms"),
                (w.clone(), "bw", 1600.0, "MiB/s"),
                (w.clone(), "io", 16.0, "MiB"),
                (w, "run", 10.0, "ms"),
            ]
        );
        assert_eq!(p.consumed, [1, 4]);
    }

    #[test]
    fn groups_collected_on_one_line_after_other_text() {
        // A deployment template's output cell, as its README shows it.
        let r = rows("testresult       String                     READ: io=2051.2MB, aggrb=78853KB/s, minb=19713KB/s, maxb=20024KB/s, mint=26222msec, maxt=26636msec; WRITE: io=2044.9MB, aggrb=78613KB/s, minb=19653KB/s, maxb=19963KB/s, mint=26222msec, maxt=26636msec;\n");
        let got: Vec<(&str, &str, f64)> = r
            .iter()
            .filter(|x| x.2 == "aggrb")
            .map(|x| (x.1.as_str(), x.2.as_str(), x.3))
            .collect();
        assert_eq!(
            got,
            [
                ("rw=read", "aggrb", 78853.0),
                ("rw=write", "aggrb", 78613.0)
            ]
        );
        assert_eq!(r.len(), 12);
    }
}
