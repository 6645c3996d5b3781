//! dd and lmbench's lmdd: the transfer summary each copy ends with.
//!
//! - GNU coreutils: `67108864 bytes (67 MB, 64 MiB) copied, 0.04 s, 1.7
//!   GB/s` (older releases `(67 MB)`, small copies `100 bytes copied`),
//!   after `64+0 records in` and `64+0 records out`;
//! - BusyBox and toybox: `… copied, 0.061793 seconds, 4.0GB/s`, `0.9 K/s`;
//! - BSD and macOS: `268435456 bytes transferred in 0.116 secs (2310399346
//!   bytes/sec)`;
//! - lmdd: `268.4355 MB in 0.0157 secs, 17069.5317 MB/sec`.
//!
//! Benchmark `dd` (or `lmdd`); parameters the amount copied and, in a
//! terminal log, the operands of the `dd` command above the summary
//! (`bs`, `count`, `if`, `of`, `oflag`, `iflag`, `conv`); metrics `time`
//! (s) and `throughput` in the unit printed, each a `sample`; a log of
//! several copies gives a run each. The rate is the one printed (GNU dd
//! rounds it to two or three digits, so `time` is the finer figure).
//! `status=progress` reports during the copy are left out with the reason.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(
    SUMMARY,
    r"^(\d+) bytes(?: \([^)]*\))? (?:copied,|transferred in) ([\d.]+) s(?:ecs?|econds?)?,? \(?([\d.]+) ?([kKMGTP]i?B/s|[KMGT]/s|B/s|bytes/sec)\)?$"
);
lazy_re!(LMDD, r"^([\d.]+) MB in ([\d.]+) secs?, ([\d.]+) MB/sec$");
lazy_re!(RECORDS, r"^\d+\+\d+ records (in|out)$");
// A dd command in a terminal log, after any prompt.
lazy_re!(COMMAND, r"(?:^|[\s$#>/])l?m?dd\s+((?:\w+=\S+\s*)+)$");
lazy_re!(OPERAND, r"(\w+)=(\S+)");

/// The dd importer.
pub struct Dd;

/// Which kind of line of a dd log `t` is.
enum Kind<'t> {
    /// A transfer summary: bytes (or MB for lmdd), seconds, rate, unit.
    Summary(&'static str, [&'t str; 4]),
    /// `N+M records in|out`.
    Records,
    /// `dd if=… of=… bs=…`.
    Command(&'t str),
}

fn kind(t: &str) -> Option<Kind<'_>> {
    if let Some(c) = SUMMARY.captures(t) {
        let g = |i| c.get(i).map_or("", |m| m.as_str());
        return Some(Kind::Summary("dd", [g(1), g(2), g(3), g(4)]));
    }
    if let Some(c) = LMDD.captures(t) {
        let g = |i| c.get(i).map_or("", |m| m.as_str());
        return Some(Kind::Summary("lmdd", [g(1), g(2), g(3), "MB/s"]));
    }
    if RECORDS.is_match(t) {
        return Some(Kind::Records);
    }
    COMMAND
        .captures(t)
        .map(|c| Kind::Command(c.get(1).map_or("", |m| m.as_str())))
}

/// Whether `line` counts records (`64+0 records in`).
fn counts(line: Option<&crate::ingest::Line>) -> bool {
    line.is_some_and(|l| RECORDS.is_match(l.text.trim()))
}

impl Format for Dd {
    fn name(&self) -> &'static str {
        "dd"
    }

    fn description(&self) -> &'static str {
        "dd (GNU, BusyBox, BSD) and lmbench's lmdd: the `N bytes … copied, T s, R MB/s` transfer summary of each copy, with the dd command's operands"
    }

    /// Claimed when most of the text is dd's: a mail that quotes one dd
    /// run among other tables is the document reader's.
    fn detect(&self, src: &Source) -> Confidence {
        // A summary holds `bytes` (dd) or ` MB in ` (lmdd): a text with
        // neither is no dd log, told without running the patterns on it.
        let may_summarise = |t: &str| t.contains("bytes") || t.contains(" MB in ");
        if !src.lines.iter().any(|l| may_summarise(&l.text)) {
            return 0;
        }
        let (mut ours, mut summaries, mut lines) = (0usize, 0usize, 0usize);
        for l in src.lines.iter().filter(|l| !l.text.trim().is_empty()) {
            lines += 1;
            match kind(l.text.trim()) {
                Some(Kind::Summary(..)) => {
                    summaries += 1;
                    ours += 1;
                }
                Some(_) => ours += 1,
                None => {}
            }
        }
        if summaries > 0 && ours * 2 >= lines {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let mut command = Params::default();
        let mut before = None;
        for (i, l) in src.lines.iter().enumerate() {
            let n = l.number;
            if l.text.trim().is_empty() {
                continue;
            }
            let above = before.replace(l);
            match kind(l.text.trim()) {
                Some(Kind::Summary(bench, [amount, secs, rate, unit])) => {
                    // `status=progress` redraws one line (the source keeps
                    // its last redraw) before the copy's record counts and
                    // its summary: a report the counts follow, rather than
                    // come before.
                    let below = src.lines[i + 1..]
                        .iter()
                        .find(|l| !l.text.trim().is_empty());
                    if counts(below) && !counts(above) {
                        let why = "progress reports during the copy (status=progress)";
                        skipped.push((n, why.into()));
                        continue;
                    }
                    let time = num(src, n, secs, "time")?;
                    let rate = num(src, n, rate, "throughput")?;
                    let mut params = command.clone();
                    params.set(if bench == "lmdd" { "MB" } else { "bytes" }, amount);
                    let params = params.render();
                    let unit = match unit {
                        "bytes/sec" => "B/s",
                        "K/s" => "KiB/s",
                        "M/s" => "MiB/s",
                        "G/s" => "GiB/s",
                        u => u,
                    };
                    for (metric, unit, v) in [("time", "s", time), ("throughput", unit, rate)] {
                        out.push(
                            Row::at(src, n)
                                .benchmark(bench)
                                .params(&params)
                                .metric(metric)
                                .unit(unit)
                                .sample(v),
                        );
                    }
                }
                Some(Kind::Records) => consumed.push(n),
                Some(Kind::Command(operands)) => {
                    command = Params::default();
                    for c in OPERAND.captures_iter(operands) {
                        let key = &c[1];
                        if matches!(
                            key,
                            "bs" | "ibs"
                                | "obs"
                                | "count"
                                | "if"
                                | "of"
                                | "iflag"
                                | "oflag"
                                | "conv"
                                | "skip"
                                | "seek"
                        ) {
                            command.set(key, &c[2]);
                        }
                    }
                    consumed.push(n);
                }
                None => {}
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no dd transfer summary (`N bytes … copied, T s, R MB/s`)",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str) -> Vec<crate::ingest::testing::RowView> {
        crate::ingest::testing::rows_of(&Dd, "dd.txt", text)
    }

    #[test]
    fn every_dd_s_summary_gives_time_and_rate() {
        let gnu = rows("64+0 records in\n64+0 records out\n67108864 bytes (67 MB, 64 MiB) copied, 0.0400114 s, 1.7 GB/s\n");
        assert_eq!(gnu.len(), 2);
        assert_eq!(gnu[0].2, "time");
        assert_eq!(gnu[0].4, 0.0400114);
        assert_eq!((gnu[1].3.as_str(), gnu[1].4), ("GB/s", 1.7));
        assert_eq!(gnu[1].1, "bytes=67108864");
        let old = rows("16777216 bytes (17 MB) copied, 0.0153106 s, 1.1 GB/s\n");
        assert_eq!(old[1].4, 1.1);
        let busybox = rows("268435456 bytes (256.0MB) copied, 0.061793 seconds, 4.0GB/s\n");
        assert_eq!((busybox[0].4, busybox[1].3.as_str()), (0.061793, "GB/s"));
        let toybox = rows("1 bytes (1 B) copied, 0.001 s, 0.9 K/s\n");
        assert_eq!(toybox[1].3, "KiB/s");
        let bsd = rows("268435456 bytes transferred in 0.116185 secs (2310399346 bytes/sec)\n");
        assert_eq!((bsd[1].3.as_str(), bsd[1].4), ("B/s", 2310399346.0));
        let lmdd = rows("268.4355 MB in 0.0157 secs, 17069.5317 MB/sec\n");
        assert_eq!(lmdd[0].0, "lmdd");
        assert_eq!((lmdd[1].3.as_str(), lmdd[1].4), ("MB/s", 17069.5317));
        assert_eq!(lmdd[1].1, "MB=268.4355");
    }

    #[test]
    fn a_terminal_log_names_each_copy_by_its_operands_and_skips_progress() {
        let text = "root@host:/ dd if=/dev/zero of=/mnt/f bs=1M count=64 oflag=direct\n\
             \r33554432 bytes (34 MB, 32 MiB) copied, 1 s, 33 MB/s\r\n\
             64+0 records in\n64+0 records out\n\
             67108864 bytes (67 MB, 64 MiB) copied, 2.01 s, 33.4 MB/s\n\
             root@host:/ dd if=/mnt/f of=/dev/null bs=4k\n\
             16384+0 records in\n16384+0 records out\n\
             67108864 bytes (67 MB, 64 MiB) copied, 0.5 s, 134 MB/s\n";
        let src = Source::from_text("dd.txt", text);
        let p = Dd.parse_accounted(&src).unwrap();
        assert_eq!(p.observations.len(), 4);
        assert_eq!(
            p.observations[0].params.as_str(),
            "bs=1M,bytes=67108864,count=64,if=/dev/zero,of=/mnt/f,oflag=direct"
        );
        assert_eq!(p.observations[3].value, 134.0);
        assert_eq!(p.skipped.len(), 1);
        assert_eq!(p.skipped[0].0, 2);
        assert_eq!(Dd.detect(&src), 95);
    }

    #[test]
    fn a_mail_quoting_one_dd_line_is_not_claimed() {
        let text = "Hi,\n\nthis patch speeds up direct writes.\n\n\
             before: 67108864 bytes (67 MB, 64 MiB) copied, 2.01 s, 33.4 MB/s\n\
             The table below shows more.\n\n  a  1  2\n  b  3  4\n";
        assert_eq!(Dd.detect(&Source::from_text("mail.txt", text)), 0);
    }
}
