//! fio's default human-readable output: per job
//! `name: (groupid=0, jobs=1): err= 0: …`, then per direction
//! `  read: IOPS=88, BW=623KiB/s (638kB/s)(…)`, `clat (usec): min=…, avg=…`,
//! `lat (usec): …` and a `clat percentiles (usec):` block of `|  50.00th=[  416],`
//! cells. fio picks the latency unit per job (`nsec`, `usec`, `msec`) and
//! abbreviates large numbers (`IOPS=198k`, `BW=772MiB/s`), so values are
//! converted: latencies to µs, bandwidth to KiB/s.
//!
//! fio 2.x's `read : io=…, bw=611058KB/s, iops=152764` lines are read the
//! same way (its K, M, G being powers of 1024).
//!
//! Per job (`job=`) and direction (`rw=`), each a `sample` of the run: `iops`,
//! `bw`, `slat mean`, `clat mean`, `lat mean`, `clat p50/p90/p99/p99.9`. With
//! `group_reporting` the job line names the group's first job. The
//! percentile block is `clat` by default, `lat` with `--lat_percentiles=1`
//! and `slat` with `--slat_percentiles=1`, each read under its own name
//! (`lat p99`). Of fio's default list of 17 only those four are read; a list
//! given with `--percentile_list` (`| 50.0th=[ 91], 99.5th=[ 3982]`) is read
//! whole, each percentile named by its value.
//!
//! With `--status-interval=N` fio prints the job's whole report every N
//! seconds while it runs, each one the running totals since the start
//! (the same `pid=`, a growing runtime), and its usual final report at the
//! end. Only that last report is the job's result: an earlier report of
//! the same job (name, group and pid, with no new `Starting N processes`
//! banner between, which a loop of separate fio runs would print) is left
//! out as interim, or it would count as another run of the job.
//!
//! The `Disk stats (read/write):` block, the kernel's counts for each
//! disk over the run (`vda: ios=16734/8181, merge=0/0, ticks=627/7615,
//! in_queue=8243, util=35.31%`, newer fio adding `sectors=`, an md
//! device its members' `aggrios=` …), is read too: benchmark `fio`,
//! `disk=` the device, each field a metric `disk KEY` as printed, a
//! `read/write` pair split by `rw=`; ticks and queue time in ms (the
//! kernel's), utilisation in %, the rest counts.

use crate::error::Result;
use crate::ingest::shared::logscan::{any_with, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::rescale;
use std::collections::HashMap;

lazy_re!(
    JOB,
    r"^(\S.*?): \(groupid=(\d+), jobs=(\d+)\): err=\s*(\d+)(?:: pid=(\d+))?"
);
// What fio prints once as it starts (after its `fio-3.33` line): a new
// run, whose reports are not interim ones of the run before.
lazy_re!(
    STARTING,
    r"^Starting \d+ (?:process|processes|thread|threads)\b"
);
lazy_re!(
    DIR,
    r"^\s+(read|write|trim|mixed)\s*: IOPS=([\d.]+)([kKmM]?), BW=([\d.]+)([KMGT]?i?B)/s"
);
// fio 2.x: `read : io=4096.0MB, bw=611058KB/s, iops=152764, runt=  6864msec`,
// where K, M and G are powers of 1024 whatever the spelling.
lazy_re!(
    DIR2,
    r"^\s+(read|write|trim|mixed)\s*: io=[\d.]+[KMGTP]?B, bw=([\d.]+)([KMGTP]?)B/s, iops=([\d.]+)([kKmM]?)"
);
lazy_re!(
    LAT,
    r"^\s+(slat|clat|lat) \((nsec|usec|msec)\):.*\bavg=\s*([\d.]+)"
);
lazy_re!(
    PCT_HEADER,
    r"^\s+(slat|clat|lat) percentiles \((nsec|usec|msec)\):"
);
lazy_re!(PCT_CELL, r"(\d+\.\d+)th=\[\s*(\d+)\]");
lazy_re!(RUN_STATUS, r"^Run status group \d+");
lazy_re!(DISK, r"^\s+(\S+): (ios=\d+/\d+, .*)$");

/// A disk field: its key and its one value or read/write pair, as printed.
type DiskField<'a> = (&'a str, Vec<&'a str>);

/// One disk's line of the `Disk stats (read/write):` block: the device
/// and its fields, each key with one value (`in_queue=8243`,
/// `util=35.31%`) or a read/write pair (`ios=16734/8181`); none for
/// another line or a field of another shape.
fn disk_fields(t: &str) -> Option<(&str, Vec<DiskField<'_>>)> {
    let c = DISK.captures(t)?;
    let fields = c.get(2)?.as_str().split(", ").map(|cell| {
        let (key, value) = cell.trim().split_once('=')?;
        let values: Vec<&str> = value.trim_end_matches('%').split('/').collect();
        let number = |v: &&str| !v.is_empty() && v.parse::<f64>().is_ok();
        (matches!(values.len(), 1 | 2) && values.iter().all(number)).then_some((key, values))
    });
    Some((c.get(1)?.as_str(), fields.collect::<Option<Vec<_>>>()?))
}

/// The rows of one disk's line.
fn disk_rows(src: &Source, n: u32, t: &str) -> Result<Option<Vec<crate::model::Observation>>> {
    let Some((device, fields)) = disk_fields(t) else {
        return Ok(None);
    };
    let mut out = Vec::new();
    for (key, values) in fields {
        let paired = values.len() == 2;
        for (v, dir) in values.iter().zip(["read", "write"]) {
            let v = num(src, n, v, &format!("disk {key}"))?;
            out.push(super::disk::row(
                src,
                n,
                device,
                paired.then_some(dir),
                key,
                v,
            ));
        }
    }
    Ok(Some(out))
}

/// fio's default `percentile_list`: the block it prints when none is given.
const DEFAULT_LIST: [f64; 17] = [
    1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95,
    99.99,
];
/// The percentiles read from a default block; the rest of it would only
/// multiply rows. A list given with `--percentile_list` is read whole: its
/// user chose each of them.
const HEADLINE: [f64; 4] = [50.0, 90.0, 99.0, 99.9];

/// The percentiles of the `|  50.00th=[  416],` lines at the start of `rest`.
fn block_percentiles(rest: &[crate::ingest::Line]) -> Vec<f64> {
    rest.iter()
        .take_while(|l| l.text.trim_start().starts_with('|'))
        .flat_map(|l| {
            PCT_CELL
                .captures_iter(&l.text)
                .filter_map(|c| c[1].parse::<f64>().ok())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Whether a block lists exactly fio's default percentiles.
fn is_default_list(qs: &[f64]) -> bool {
    qs.len() == DEFAULT_LIST.len() && qs.iter().zip(DEFAULT_LIST).all(|(a, b)| *a == b)
}

/// The fio normal-output importer.
pub struct FioText;

/// The job lines of `--status-interval` interim reports, each with the line
/// of the later report of the same job that supersedes it (see the module
/// documentation). A report without a `pid=` is never taken as interim.
fn interim_reports(src: &Source) -> HashMap<u32, u32> {
    let mut interim = HashMap::new();
    let mut last: HashMap<(String, String, String), u32> = HashMap::new();
    for l in &src.lines {
        let t = l.text.as_str();
        if STARTING.is_match(t) {
            last.clear();
            continue;
        }
        let Some(c) = JOB.captures(t) else { continue };
        let Some(pid) = c.get(5) else { continue };
        let key = (
            c[1].trim().to_string(),
            c[2].to_string(),
            pid.as_str().to_string(),
        );
        if let Some(before) = last.insert(key, l.number) {
            interim.insert(before, l.number);
        }
    }
    // A report superseded by one that is itself interim names the last.
    let ends: Vec<(u32, u32)> = interim.iter().map(|(&k, &v)| (k, v)).collect();
    for (from, mut to) in ends {
        while let Some(&next) = interim.get(&to) {
            to = next;
        }
        interim.insert(from, to);
    }
    interim
}

/// Factor from a fio latency unit to µs.
fn to_us(unit: &str) -> f64 {
    match unit {
        "nsec" => 1e-3,
        "msec" => 1e3,
        _ => 1.0,
    }
}

/// Factor from a fio bandwidth unit (`KiB`, `MB` …, per second) to KiB/s.
fn to_kib(unit: &str) -> Option<f64> {
    let base = if unit.contains('i') || unit == "B" {
        1024.0
    } else {
        1000.0
    };
    let exp = match unit.chars().next()? {
        'B' => 0,
        'K' => 1,
        'M' => 2,
        'G' => 3,
        'T' => 4,
        _ => return None,
    };
    Some(f64::powi(base, exp) / 1024.0)
}

impl Format for FioText {
    fn name(&self) -> &'static str {
        "fio"
    }

    fn description(&self) -> &'static str {
        "fio normal output: `name: (groupid=0, jobs=1): err= 0:` + `read: IOPS=…, BW=…` + `Run status group`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if !any_with(src, "(groupid=", &JOB) {
            return 0;
        }
        if any_with(src, "IOPS=", &DIR) || any_with(src, "iops=", &DIR2) {
            90
        } else if any_with(src, "Run status group ", &RUN_STATUS) {
            60
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let interim = interim_reports(src);
        let mut skipped: Vec<(u32, String)> = Vec::new();
        // The final report's line while inside an interim one.
        let mut superseded_by: Option<u32> = None;
        let mut job: Option<String> = None;
        let mut dir: Option<String> = None;
        // The open percentile block: its latency kind, unit factor and
        // whether it lists fio's default percentiles.
        let mut pct: Option<(String, f64, bool)> = None;
        // Inside a `Disk stats (read/write):` block.
        let mut disks = false;
        for (i, l) in src.lines.iter().enumerate() {
            let t = l.text.as_str();
            let n = l.number;
            let params = |dir: &str, job: &str| {
                let mut p = Params::default();
                p.set("job", job);
                p.set("rw", dir);
                p.render()
            };
            if let Some(c) = JOB.captures(t) {
                job = Some(c[1].trim().to_string());
                dir = None;
                pct = None;
                superseded_by = interim.get(&n).copied();
            }
            if let Some(last) = superseded_by {
                if !t.trim().is_empty() {
                    skipped.push((
                        n,
                        format!(
                            "an interim fio --status-interval report (running totals); \
                             the job's final report at line {last} is its result"
                        ),
                    ));
                }
                continue;
            }
            if JOB.is_match(t) {
                disks = false;
                continue;
            }
            if t.starts_with("Disk stats (") {
                disks = true;
                continue;
            }
            if disks {
                if let Some(rows) = disk_rows(src, n, t)? {
                    out.extend(rows);
                    continue;
                }
                disks = false;
            }
            let Some(jobname) = job.as_deref() else {
                continue;
            };
            let current = DIR.captures(t).map(|c| {
                let factor = to_kib(&c[5]);
                (
                    c[1].to_string(),
                    c[2].to_string(),
                    c[3].to_string(),
                    c[4].to_string(),
                    factor,
                )
            });
            let older = || {
                DIR2.captures(t).map(|c| {
                    let exp = "KMGTP".find(&c[3]).map_or(0, |i| i as i32 + 1);
                    let factor = Some(f64::powi(1024.0, exp) / 1024.0);
                    (
                        c[1].to_string(),
                        c[4].to_string(),
                        c[5].to_string(),
                        c[2].to_string(),
                        factor,
                    )
                })
            };
            if let Some((d, iops, suffix, bw, factor)) = current.or_else(older) {
                let p = params(&d, jobname);
                let scale = match suffix.as_str() {
                    "k" | "K" => 1e3,
                    "m" | "M" => 1e6,
                    _ => 1.0,
                };
                let iops = rescale(num(src, n, &iops, "IOPS")?, scale);
                let factor = factor.ok_or_else(|| {
                    src.error(Some(n), format!("unknown bandwidth unit in `{}`", t.trim()))
                })?;
                let bw = rescale(num(src, n, &bw, "BW")?, factor);
                out.push(
                    Row::at(src, n)
                        .benchmark("fio")
                        .params(&p)
                        .metric("iops")
                        .unit("iops")
                        .sample(iops),
                );
                out.push(
                    Row::at(src, n)
                        .benchmark("fio")
                        .params(&p)
                        .metric("bw")
                        .unit("KiB/s")
                        .sample(bw),
                );
                dir = Some(d);
                pct = None;
                continue;
            }
            let Some(d) = dir.as_deref() else { continue };
            let p = params(d, jobname);
            if let Some(c) = LAT.captures(t) {
                let v = rescale(num(src, n, &c[3], "avg")?, to_us(&c[2]));
                out.push(
                    Row::at(src, n)
                        .benchmark("fio")
                        .params(&p)
                        .metric(&format!("{} mean", &c[1]))
                        .unit("us")
                        .sample(v),
                );
            } else if let Some(c) = PCT_HEADER.captures(t) {
                let default = is_default_list(&block_percentiles(&src.lines[i + 1..]));
                pct = Some((c[1].to_string(), to_us(&c[2]), default));
            } else if t.trim_start().starts_with('|') {
                let Some((kind, factor, default)) = pct.as_ref() else {
                    continue;
                };
                for c in PCT_CELL.captures_iter(t) {
                    let q: f64 = num(src, n, &c[1], "percentile")?;
                    if *default && !HEADLINE.contains(&q) {
                        continue;
                    }
                    let metric = format!("{kind} p{q}");
                    let v = rescale(num(src, n, &c[2], &metric)?, *factor);
                    out.push(
                        Row::at(src, n)
                            .benchmark("fio")
                            .params(&p)
                            .metric(&metric)
                            .unit("us")
                            .sample(v),
                    );
                }
            } else {
                pct = None;
            }
        }
        Parsed::found(
            src,
            out,
            Vec::new(),
            skipped,
            "no fio job result (`read: IOPS=…`) found",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    #[test]
    fn status_interval_reports_before_the_last_are_interim() {
        let p = parse_file(
            &FioText,
            "tests/data/harness/fio/normal-status-interval.txt",
        );
        // The final report (line 90) alone: one job, one direction.
        let got: Vec<(u32, &str, f64)> = p
            .observations
            .iter()
            .filter(|o| !o.metric.starts_with("disk "))
            .map(|o| (o.line, o.metric.as_str(), o.value))
            .collect();
        assert_eq!(
            got,
            [
                (90, "iops", 8400.0),
                (90, "bw", 33587.2),
                (91, "clat mean", 118.31),
                (92, "lat mean", 118.35),
                (95, "clat p50", 72.0),
                (96, "clat p90", 83.0),
                (97, "clat p99", 1369.0),
                (97, "clat p99.9", 7111.0),
            ]
        );
        let (disk, job): (Vec<_>, Vec<_>) = p
            .observations
            .iter()
            .partition(|o| o.metric.starts_with("disk "));
        assert!(job.iter().all(|o| o.params == "job=rr,rw=read"));
        // The final report's disk line alone; the interim ones' are left out.
        assert!(!disk.is_empty() && disk.iter().all(|o| o.line == 115));
        // The three interim reports (lines 6, 33, 61) are left out whole,
        // each line saying which report is the result.
        let starts: Vec<u32> = p
            .skipped
            .iter()
            .filter(|(n, _)| [6, 33, 61].contains(n))
            .map(|(n, _)| *n)
            .collect();
        assert_eq!(starts, [6, 33, 61]);
        assert!(p.skipped.iter().all(|(n, why)| *n < 89
            && why.contains("interim fio --status-interval report")
            && why.ends_with("final report at line 89 is its result")));
        assert!(p.skipped.iter().any(|(n, _)| *n == 62));
    }

    #[test]
    fn disk_stats_are_read_per_device_and_direction() {
        // fio 3.42: `vda: ios=14103/6695, sectors=112824/106536, …`.
        let path = "tests/data/harness/fio/normal-randrw-disk-sectors-3.42.txt";
        let p = parse_file(&FioText, path);
        let disk: Vec<(&str, &str, f64, &str)> = p
            .observations
            .iter()
            .filter(|o| o.metric.starts_with("disk "))
            .map(|o| {
                let (m, u) = (o.metric.as_str(), o.unit.as_str());
                (o.params.as_str(), m, o.value, u)
            })
            .collect();
        assert_eq!(
            disk,
            [
                ("disk=vda,rw=read", "disk ios", 14103.0, ""),
                ("disk=vda,rw=write", "disk ios", 6695.0, ""),
                ("disk=vda,rw=read", "disk sectors", 112824.0, ""),
                ("disk=vda,rw=write", "disk sectors", 106536.0, ""),
                ("disk=vda,rw=read", "disk merge", 0.0, ""),
                ("disk=vda,rw=write", "disk merge", 0.0, ""),
                ("disk=vda,rw=read", "disk ticks", 525.0, "ms"),
                ("disk=vda,rw=write", "disk ticks", 5426.0, "ms"),
                ("disk=vda", "disk in_queue", 5951.0, "ms"),
                ("disk=vda", "disk util", 22.63, "%"),
            ]
        );
        // fio 3.33's line, without sectors; the job's rows are unchanged.
        let p = parse_file(&FioText, "tests/data/harness/fio/normal-randread.txt");
        let util = p.observations.iter().find(|o| o.metric == "disk util");
        assert_eq!(util.map(|o| (o.line, o.value)), Some((32, 61.38)));
        assert_eq!(
            p.observations.iter().filter(|o| o.metric == "iops").count(),
            1
        );
        // An md device's members' aggregate is read under its own keys.
        let md = "  md0: ios=10/20, merge=0/0, ticks=0/0, in_queue=0, util=0.00%, \
                  aggrios=5/10, aggrmerge=0/0, aggrticks=1/2, aggrin_queue=3, aggrutil=1.50%";
        let fields = disk_fields(md).map(|(d, f)| (d, f.len()));
        assert_eq!(fields, Some(("md0", 10)));
        assert!(disk_fields("  vda: ios=1/2, util=high").is_none());
    }

    #[test]
    fn separate_runs_of_a_loop_stay_runs() {
        // Each run of a loop starts with its own banner and pid.
        let p = parse_file(
            &FioText,
            "tests/data/harness/fio/v2-randread-libaio-5runs.txt",
        );
        assert!(p.skipped.is_empty());
        let iops = p.observations.iter().filter(|o| o.metric == "iops").count();
        assert_eq!(iops, 5);
    }
}
