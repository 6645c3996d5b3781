//! fio's `t/io_uring`, the polled-IO peak test block maintainers paste
//! into mails: a line a second (`IOPS=2794K, BW=1364MiB/s, IOS/call=31/30,
//! inflight=(124)`; older builds `IOPS=2453184, IOS/call=32/31, inflight=128
//! (128)`, newer ones `IOPS=2.62M, BW=3.15GiB/s, IOS/call=32/31`), then
//! `Maximum IOPS=…` when stopped, and with `-t1` each submitter's latency
//! percentiles (`1.0000th=[  1234]`).
//!
//! Benchmark `t/io_uring`; parameters the command line's options by name
//! (`-b512` is `bs=512`, `-d128` `depth=128`, `-n2` `threads=2`, …) and its
//! files, or, with no command line above the run, the settings banner
//! (`polled=1, fixedbufs=1, register_files=1, buffered=0, QD=128`). Each
//! second's `iops` (scaled as printed: `K`, `M`), `bw`, `ios/call`,
//! `reaps/call`, `inflight` (the total, or the one file's; with several
//! files each file's as `inflight file N` too) and `cache hit` are samples
//! of the run; `Maximum IOPS` is
//! the `max` of `iops`; percentiles are stats of `latency` with param
//! `thread` (the submitter's order). A run starts at each command line or
//! settings banner; the runs of a mail are told apart by their options,
//! and by the headings above them (`Baseline kernel:`), which the mail
//! reader makes their variants.

use crate::error::Result;
use crate::ingest::shared::logscan::{any_with, lazy_re, num, Params};
use crate::ingest::shared::numbers::scale_suffix;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{rescale, Observation, Stat};

lazy_re!(
    RATE,
    r"^IOPS=([\d.]+)([KM]?), (?:BW=([\d.]+)([KMGT]iB)/s, )?IOS/call=(-?\d+)/(-?\d+)(?:, inflight=(\d+)? ?\(([\d ]*|head=\d+ tail=\d+)\))?(?:, Cachehit=([\d.]+)%)?\s*$"
);
lazy_re!(MAXIMUM, r"^Maximum IOPS=([\d.]+)([KM]?)\s*$");
// The program as a word of a command line: `t/io_uring`, `./io_uring`,
// `~/git/fio/t/io_uring`, or a build of it under a longer name
// (`t/io_uring-vblk`), followed by an option.
lazy_re!(COMMAND, r"(?:^|[\s#$])(?:\S*/)?io_uring[\w.-]*\s+(-.*)$");
lazy_re!(
    BANNER,
    r"^#?\s*polled=(\d+), fixedbufs=([\d/]+), (?:register_files=(\d+), )?buffered=(\d+),? QD=(\d+)"
);
lazy_re!(FILE_ADDED, r"^Added file (\S+) \(submitter \d+\)\s*$");
lazy_re!(
    SUBMITTER,
    r"^submitter=\d+, tid=\d+(?:, file=(\S+?),.*)?\s*$"
);
lazy_re!(
    OWN,
    r"^(?:Engine=\S+, sq_ring=|\^?C?Exiting on |\d+: Latency percentiles:)"
);
lazy_re!(PERCENTILES, r"^percentiles \(([\w ]+)\):\s*$");
lazy_re!(PERCENTILE, r"([\d.]+)th=\[\s*(\d+)\]");
// A line of settings alone (`QD=2, Batch=1`): a heading naming the run below.
lazy_re!(
    SETTINGS,
    r"^[A-Za-z_]\w*=[\w.]+(?:,?\s+[A-Za-z_]\w*=[\w.]+)*:?$"
);

/// The t/io_uring importer.
pub struct FioIoUring;

/// The name of a t/io_uring option letter, from its usage text; `None`
/// for the run's length and the clock rate, which set no workload.
fn option(letter: char) -> Option<&'static str> {
    Some(match letter {
        'd' => "depth",
        's' => "submit_batch",
        'c' => "complete_batch",
        'b' => "bs",
        'p' => "polled",
        'B' => "fixedbufs",
        'D' => "dma_map",
        'F' => "register_files",
        'n' => "threads",
        'O' => "odirect",
        'N' => "nop",
        't' => "latency_stats",
        'R' => "random",
        'a' => "aio",
        'S' => "sync",
        'X' => "registered_ring",
        'P' => "numa_placement",
        'V' => "vectored",
        'e' => "restriction",
        'u' => "passthrough",
        'r' | 'T' => return None,
        _ => "",
    })
}

/// The parameters a command line's arguments set: `-b512` or `-b 512`,
/// and the files after the options.
fn command_params(args: &str) -> Params {
    let mut params = Params::default();
    let mut files: Vec<&str> = Vec::new();
    let mut words = args.split_whitespace().filter(|w| *w != "\\" && *w != "--");
    while let Some(w) = words.next() {
        let Some(opt) = w.strip_prefix('-') else {
            files.push(w);
            continue;
        };
        let mut chars = opt.chars();
        let Some(letter) = chars.next() else { continue };
        let inline = chars.as_str();
        let value = if inline.is_empty() {
            words.next().unwrap_or_default()
        } else {
            inline
        };
        match option(letter) {
            Some("") => params.set(&letter.to_string(), value),
            Some(name) => params.set(name, value),
            None => {}
        }
    }
    if !files.is_empty() {
        params.set("file", files.join(" "));
    }
    params
}

/// Thousands or millions as t/io_uring prints a large count (`1.23M`),
/// with the scale letters every table reader shares.
fn scaled(v: f64, suffix: &str) -> f64 {
    scale_suffix(suffix).map_or(v, |factor| rescale(v, factor))
}

/// A run being read: its parameters, the sample count so far, the last
/// line of a rate, and the submitters whose percentiles came.
#[derive(Default, Clone)]
struct Run {
    /// The options of the last command line, which later runs share.
    command: Params,
    params: Params,
    from_command: bool,
    samples: u32,
    last_rate: Option<u32>,
    threads: u32,
    unit: String,
}

impl Run {
    /// The rows of one rate line, the run's next sample.
    fn rate(
        &mut self,
        src: &Source,
        n: u32,
        c: &regex::Captures,
        out: &mut Vec<Observation>,
    ) -> Result<()> {
        let k = self.samples;
        self.samples += 1;
        self.last_rate = Some(n);
        let iops = scaled(num(src, n, &c[1], "IOPS")?, &c[2]);
        out.push(self.row(src, n, "iops", "iops").sample(iops).with_run(k));
        if let (Some(bw), Some(unit)) = (c.get(3), c.get(4)) {
            let bw = num(src, n, bw.as_str(), "BW")?;
            out.push(
                self.row(src, n, "bw", &format!("{}/s", unit.as_str()))
                    .sample(bw)
                    .with_run(k),
            );
        }
        // `-1/-1`: no submission call in that second.
        if !c[5].starts_with('-') {
            for (metric, at) in [("ios/call", 5), ("reaps/call", 6)] {
                let v = num(src, n, &c[at], metric)?;
                out.push(self.row(src, n, metric, "").sample(v).with_run(k));
            }
        }
        // In flight: the total, and each file's when it has several.
        let files: Vec<&str> = c
            .get(8)
            .map_or(Vec::new(), |m| m.as_str().split_whitespace().collect());
        let files: Vec<&str> = files.into_iter().filter(|f| !f.contains('=')).collect();
        if let Some(total) = c.get(7) {
            let v = num(src, n, total.as_str(), "inflight")?;
            out.push(self.row(src, n, "inflight", "").sample(v).with_run(k));
        } else if let [one] = files.as_slice() {
            let v = num(src, n, one, "inflight")?;
            out.push(self.row(src, n, "inflight", "").sample(v).with_run(k));
        }
        if files.len() > 1 {
            for (f, text) in files.iter().enumerate() {
                let v = num(src, n, text, "inflight")?;
                let metric = format!("inflight file {}", f + 1);
                out.push(self.row(src, n, &metric, "").sample(v).with_run(k));
            }
        }
        if let Some(hit) = c.get(9) {
            let v = num(src, n, hit.as_str(), "Cachehit")?;
            out.push(self.row(src, n, "cache hit", "%").sample(v).with_run(k));
        }
        Ok(())
    }
    fn row(&self, src: &Source, n: u32, metric: &str, unit: &str) -> Row {
        row(src, n, &self.params.render(), metric, unit)
    }
}

/// A row of the tool's benchmark with its parameters, rendered.
fn row(src: &Source, n: u32, params: &str, metric: &str, unit: &str) -> Row {
    Row::at(src, n)
        .benchmark("t/io_uring")
        .params(params)
        .metric(metric)
        .unit(unit)
}

impl Format for FioIoUring {
    fn name(&self) -> &'static str {
        "fio-t-io_uring"
    }

    fn description(&self) -> &'static str {
        "fio's t/io_uring peak test: `IOPS=…, BW=…, IOS/call=…` lines, `Maximum IOPS=…`, latency percentiles; options from its command line"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let rates = crate::ingest::shared::logscan::lines_containing(src, "IOS/call=")
            .filter(|l| RATE.is_match(l.trim()))
            .take(2)
            .count();
        let maximum = || any_with(src, "Maximum IOPS=", &MAXIMUM);
        let percentiles = || crate::ingest::shared::logscan::has(src, ": Latency percentiles:");
        match rates {
            2 => 95,
            1 if maximum() => 95,
            0 if maximum() && percentiles() => 95,
            _ => 0,
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out: Vec<Observation> = Vec::new();
        let (mut consumed, mut skipped) = (Vec::new(), Vec::new());
        let mut run = Run::default();
        // Whether a line other than a rate came since the last rate: a
        // heading or a remark between rate lines starts a new run of the
        // same options (the next build's).
        let mut gap = false;
        let mut i = 0;
        while i < src.lines.len() {
            let l = &src.lines[i];
            let (n, t) = (l.number, l.text.trim());
            i += 1;
            let rate = RATE.captures(t);
            if rate.is_none() && !t.is_empty() {
                gap = true;
            }
            if let Some(c) = COMMAND.captures(t) {
                // A command a shell or a mail client wrapped goes on after `\`.
                let mut args = c[1].to_string();
                while args.trim_end().ends_with('\\') && i < src.lines.len() {
                    args = format!(
                        "{} {}",
                        args.trim_end().trim_end_matches('\\'),
                        src.lines[i].text.trim()
                    );
                    consumed.push(src.lines[i].number);
                    i += 1;
                }
                let command = command_params(&args);
                run = Run {
                    params: command.clone(),
                    command,
                    from_command: true,
                    ..Run::default()
                };
                consumed.push(n);
            } else if let Some(c) = BANNER.captures(t) {
                if !run.from_command || run.last_rate.is_some() {
                    let mut params = Params::default();
                    params.set("polled", &c[1]);
                    params.set("fixedbufs", &c[2]);
                    if let Some(r) = c.get(3) {
                        params.set("register_files", r.as_str());
                    }
                    params.set("buffered", &c[4]);
                    params.set("depth", &c[5]);
                    run = Run {
                        params,
                        ..Run::default()
                    };
                }
                consumed.push(n);
            } else if FILE_ADDED.is_match(t) || SUBMITTER.is_match(t) || OWN.is_match(t) {
                consumed.push(n);
            } else if SETTINGS.is_match(t) {
                let mut params = run.command.clone();
                for pair in t.trim_end_matches(':').split([',', ' ']) {
                    if let Some((k, v)) = pair.split_once('=') {
                        params.set(k, v);
                    }
                }
                run = Run {
                    command: run.command.clone(),
                    params,
                    from_command: run.from_command,
                    ..Run::default()
                };
                consumed.push(n);
            } else if let Some(c) = rate {
                if gap && run.last_rate.is_some() {
                    run.samples = 0;
                }
                gap = false;
                run.rate(src, n, &c, &mut out)?;
            } else if let Some(c) = MAXIMUM.captures(t) {
                let v = scaled(num(src, n, &c[1], "Maximum IOPS")?, &c[2]);
                out.push(run.row(src, n, "iops", "iops").stat(Stat::Max, v));
                // The submitters' percentiles follow their run's maximum.
                run.threads = 0;
            } else if let Some(c) = PERCENTILES.captures(t) {
                run.unit = match &c[1] {
                    "nsec" => "ns",
                    "usec" => "us",
                    "msec" => "ms",
                    _ => "ticks",
                }
                .to_string();
                run.threads += 1;
                consumed.push(n);
            } else if t.starts_with('|') && PERCENTILE.is_match(t) && !run.unit.is_empty() {
                let mut params = run.params.clone();
                params.set("thread", run.threads.saturating_sub(1).to_string());
                let params = params.render();
                for c in PERCENTILE.captures_iter(t) {
                    let p = num(src, n, &c[1], "percentile")?;
                    let v = num(src, n, &c[2], "latency")?;
                    let latency = row(src, n, &params, "latency", &run.unit);
                    out.push(latency.stat(Stat::percentile(p), v));
                }
            } else if t.starts_with("IOPS=") {
                skipped.push((n, "a t/io_uring rate line of a form not known".to_string()));
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no t/io_uring rate line (`IOPS=…, IOS/call=…`) found",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::testing::parse_file;

    fn read(name: &str) -> Vec<Observation> {
        parse_file(
            &FioIoUring,
            &format!("tests/data/harness/fio-t-io_uring/{name}"),
        )
        .observations
    }

    fn values(rows: &[Observation], metric: &str, params_has: &str) -> Vec<f64> {
        rows.iter()
            .filter(|o| {
                o.metric == metric && o.stat == Stat::Sample && o.params.contains(params_has)
            })
            .map(|o| o.value)
            .collect()
    }

    #[test]
    fn each_run_is_named_by_its_command_lines_options() {
        let rows = read("passthru-fixedbufs-millions.txt");
        assert_eq!(
            values(&rows, "iops", "fixedbufs=0"),
            vec![2.62e6, 2.62e6, 2.62e6, 2.61e6]
        );
        assert_eq!(
            values(&rows, "bw", "fixedbufs=1"),
            vec![1546.0, 1546.0, 1546.0, 1544.0]
        );
        let r = rows
            .iter()
            .find(|o| o.value == 3.17e6 && o.stat == Stat::Max)
            .unwrap();
        assert!(
            r.params.contains("bs=512") && r.params.contains("passthrough=1"),
            "{}",
            r.params
        );
        assert!(r.params.contains("file=/dev/ng0n1"), "{}", r.params);
        assert_eq!(r.benchmark.as_str(), "t/io_uring");
        assert_eq!(
            values(&rows, "reaps/call", "fixedbufs=1"),
            vec![31.0, 31.0, 32.0, 32.0]
        );
    }

    #[test]
    fn a_wrapped_command_is_joined_and_its_runtime_is_no_parameter() {
        let rows = read("two-devices-wrapped-command.txt");
        let bw = rows.iter().find(|o| o.metric == "bw").unwrap();
        assert_eq!(bw.unit.as_str(), "GiB/s");
        assert!(
            bw.params.contains("threads=2") && bw.params.contains("depth=128"),
            "{}",
            bw.params
        );
        assert!(
            bw.params.contains("/dev/nvme1n1") && !bw.params.contains("runtime"),
            "{}",
            bw.params
        );
        assert_eq!(values(&rows, "iops", "").len(), 6);
    }

    #[test]
    fn the_older_form_without_bandwidth_restarts_its_runs_under_a_heading() {
        let rows = read("old-inflight-two-kernels.txt");
        let iops: Vec<(f64, Option<u32>)> = rows
            .iter()
            .filter(|o| o.metric == "iops")
            .map(|o| (o.value, o.run))
            .collect();
        assert_eq!(iops.len(), 10);
        assert_eq!(iops[5], (2304224.0, Some(0)));
        assert!(!rows.iter().any(|o| o.metric == "bw"));
        assert_eq!(values(&rows, "inflight", "")[..3], [128.0, 64.0, 96.0]);
    }

    #[test]
    fn a_renamed_build_of_the_tool_still_names_its_runs_by_their_options() {
        // Two runs of a modified build, the passthrough device and the
        // block device, each line led by the writer's own tag.
        let text = "(passthru) taskset -c 0 t/io_uring-vblk -b4096 -d8 -c4 -s4 -p0 -F1 -B0 -O0 -n1 -u1 /dev/vdcc0\n\
                    IOPS=189.80K, BW=741MiB/s, IOS/call=4/3\n\
                    IOPS=187.68K, BW=733MiB/s, IOS/call=4/3\n\
                    (block) taskset -c 0 t/io_uring-vblk -b4096 -d8 -c4 -s4 -p0 -F1 -B0 -O0 -n1 -u0 /dev/vdc\n\
                    IOPS=101.51K, BW=396MiB/s, IOS/call=4/3\n\
                    IOPS=100.01K, BW=390MiB/s, IOS/call=4/4\n";
        let rows = FioIoUring
            .parse(&Source::from_text("vblk.txt", text))
            .unwrap();
        assert_eq!(
            values(&rows, "iops", "passthrough=1"),
            vec![189.80e3, 187.68e3]
        );
        assert_eq!(
            values(&rows, "iops", "passthrough=0"),
            vec![101.51e3, 100.01e3]
        );
    }

    #[test]
    fn requests_in_flight_are_read_per_file_when_there_are_several() {
        let rows = read("two-submitters-inflight-per-file.txt");
        assert_eq!(
            values(&rows, "inflight file 1", ""),
            vec![77.0, 102.0, 102.0]
        );
        assert_eq!(
            values(&rows, "inflight file 2", ""),
            vec![32.0, 128.0, 32.0]
        );
        assert!(values(&rows, "inflight", "").is_empty());
        let p = &rows[0].params;
        assert!(
            p.contains("file=/dev/nvme1n1 /dev/nvme2n1") && p.contains("threads=2"),
            "{p}"
        );
    }

    #[test]
    fn latency_percentiles_follow_the_maximum_of_their_run() {
        let rows = read("latency-percentiles-queue-depths.txt");
        let p99: Vec<(f64, String)> = rows
            .iter()
            .filter(|o| o.stat == Stat::percentile(99.0))
            .map(|o| (o.value, o.params.to_string()))
            .collect();
        assert_eq!(p99.len(), 2);
        assert_eq!(p99[0].0, 4437.0);
        assert!(
            p99[1].1.contains("QD=2") && p99[1].1.contains("thread=0"),
            "{}",
            p99[1].1
        );
        let unit = rows
            .iter()
            .find(|o| o.metric == "latency")
            .unwrap()
            .unit
            .clone();
        assert_eq!(unit.as_str(), "ns");
        let max: Vec<f64> = rows
            .iter()
            .filter(|o| o.stat == Stat::Max)
            .map(|o| o.value)
            .collect();
        assert_eq!(max, vec![244e3, 483e3]);
    }

    #[test]
    fn an_undecoded_quoted_printable_body_reads_as_decoded() {
        let rows = read("ublk-quoted-printable.txt");
        assert_eq!(
            values(&rows, "iops", "ublkb1"),
            vec![608.26e3, 586.59e3, 599.62e3]
        );
        assert_eq!(values(&rows, "bw", "ublkb0"), vec![736.0, 734.0, 763.0]);
    }
}
