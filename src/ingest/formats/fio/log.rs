//! fio's per-period and per-I/O logs (`--write_bw_log`, `--write_iops_log`,
//! `--write_lat_log`; `--write_hist_log` is [`super::hist_log`]'s): one line per entry,
//! `time (ms), value, direction, block size[, offset][, priority][, issue time]`, written
//! to files named `PREFIX_bw.N.log`, `PREFIX_iops.N.log`, `PREFIX_lat.N.log`,
//! `PREFIX_clat.N.log` and `PREFIX_slat.N.log` (N: the job's number).
//!
//! The name says what the values are: bandwidth in KiB/s, I/O count per
//! period, total, completion and submission latency in ns (fio 3 and later).
//! Each entry is one sample of its series (`dir=read|write|trim`, `bs=` when
//! the line states a block size): with `--log_avg_msec` an average over the
//! period, otherwise one I/O. The time and offset columns place a sample
//! and are not values of their own. The job is the benchmark (`PREFIX`,
//! and `job=N` among the params when N is not 1).
//!
//! With `--log_avg_msec` and `--log_window_value=both` (fio 3.37 and
//! later) each entry holds two values, the period's mean and its maximum
//! (`time, mean, max, direction, 0, …`): the second is read as
//! `METRIC max`. No column says which layout a file has; a file is read
//! as this one when every entry fits it (a second value at least the
//! first, a direction after it, block size 0 as windowed logs write it)
//! and some entry's second value is above 2, which no direction is.
//! `--log_window_value=max` (`--log_max_value=1`) writes the maximum in
//! the one value column, a layout no file tells from the mean's.

use crate::error::Result;
use crate::ingest::shared::logscan::{num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Pieces, Source};
use smallvec::SmallVec;

/// The fio log importer.
pub struct FioLog;

/// What a log holds, from its file name: (prefix, kind, job number).
fn name_parts(path: &str) -> Option<(&str, &'static str, &str)> {
    let file = path.rsplit(['/', '\\']).next()?;
    let stem = file.strip_suffix(".log")?;
    let (rest, job) = match stem.rsplit_once('.') {
        Some((r, j)) if !j.is_empty() && j.bytes().all(|b| b.is_ascii_digit()) => (r, j),
        _ => (stem, ""),
    };
    let (prefix, kind) = rest.rsplit_once('_')?;
    let kind = ["bw", "iops", "lat", "clat", "slat"]
        .into_iter()
        .find(|k| *k == kind)?;
    Some((prefix, kind, job))
}

/// Metric and unit of a kind of log.
fn metric_of(kind: &str) -> (&'static str, &'static str) {
    match kind {
        "bw" => ("bandwidth", "KiB/s"),
        "iops" => ("iops", ""),
        "lat" => ("latency", "ns"),
        "clat" => ("completion latency", "ns"),
        _ => ("submission latency", "ns"),
    }
}

/// The fields of an entry line: four to eight unsigned integers (kept on
/// the stack: a per-I/O log has millions of lines). With `--log_prio=1`
/// the I/O priority, after the block size, is hexadecimal (`0x0000`).
fn entry(t: &str) -> Option<SmallVec<[&str; 8]>> {
    let fields: SmallVec<[&str; 8]> = t.split(',').map(str::trim).take(9).collect();
    let decimal = |f: &str| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit());
    let priority = |f: &str| {
        f.strip_prefix("0x")
            .is_some_and(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()))
    };
    ((4..=8).contains(&fields.len())
        && fields
            .iter()
            .enumerate()
            .all(|(i, f)| decimal(f) || (i >= 4 && priority(f))))
    .then_some(fields)
}

/// Whether entries hold a window's mean and maximum
/// (`--log_window_value=both`; see the module documentation).
fn mean_and_max<'a>(entries: impl Iterator<Item = SmallVec<[&'a str; 8]>>) -> bool {
    let value = |f: &str| f.parse::<u64>().ok();
    let mut above_two = false;
    for f in entries {
        let fits = f.len() >= 6
            && matches!((value(f[1]), value(f[2])), (Some(a), Some(m)) if m >= a)
            && matches!(f[3], "0" | "1" | "2")
            && f[4] == "0";
        if !fits {
            return false;
        }
        above_two |= value(f[2]).is_some_and(|m| m > 2);
    }
    above_two
}

/// The layout of a log's entries, from its first lines.
fn layout(src: &Source) -> bool {
    mean_and_max(
        src.lines
            .iter()
            .map(|l| l.text.trim())
            .filter(|t| !t.is_empty())
            .take(50)
            .map_while(entry),
    )
}

impl Format for FioLog {
    fn name(&self) -> &'static str {
        "fio-log"
    }

    fn description(&self) -> &'static str {
        "fio --write_bw_log/--write_iops_log/--write_lat_log files (NAME_bw.1.log …): \
         `time, value, direction, block size[, offset]` lines"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if name_parts(&src.path).is_none() {
            return 0;
        }
        let lines: Vec<&str> = src
            .lines
            .iter()
            .map(|l| l.text.trim())
            .filter(|t| !t.is_empty())
            .take(50)
            .collect();
        let entries = lines.iter().filter(|t| entry(t).is_some()).count();
        if entries > 0 && entries == lines.len() {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        self.parse_as(src, layout(src))
    }

    /// Every entry stands alone: a log of millions of I/Os is read in pieces.
    fn pieces(&self, _head: &Source) -> Option<Pieces> {
        Some(Pieces {
            header_lines: 0,
            ..Default::default()
        })
    }

    /// A piece is read in the layout of the file's first lines.
    fn parse_piece(&self, head: &Source, body: &Source) -> Result<Parsed> {
        self.parse_as(body, layout(head))
    }
}

impl FioLog {
    /// Reads the entries, each with one value or, with `both`, a window's
    /// mean and maximum.
    fn parse_as(&self, src: &Source, both: bool) -> Result<Parsed> {
        let Some((prefix, kind, job)) = name_parts(&src.path) else {
            return Err(src.error(
                None,
                "a fio log is named PREFIX_bw|iops|lat|clat|slat.N.log; \
                 this name says neither which log nor which job",
            ));
        };
        let (metric, unit) = metric_of(kind);
        let mut out = Vec::with_capacity(src.lines.len());
        // Params per (direction, block size): a handful of series.
        let mut series: Vec<((String, String), String)> = Vec::new();
        for l in &src.lines {
            let t = l.text.trim();
            if t.is_empty() {
                continue;
            }
            let Some(f) = entry(t).filter(|f| !both || f.len() >= 6) else {
                let layout = if both {
                    "time, mean, max, direction, block size, priority"
                } else {
                    "time, value, direction, block size"
                };
                return Err(src.error(
                    Some(l.number),
                    format!("not a fio log entry (`{layout}`): `{t}`"),
                ));
            };
            // The direction and block size follow the value(s).
            let (d, b) = if both { (3, 4) } else { (2, 3) };
            let key = (f[d].to_string(), f[b].to_string());
            let params = match series.iter().find(|(k, _)| *k == key) {
                Some((_, p)) => p.clone(),
                None => {
                    let mut p = Params::default();
                    let dir = match f[d] {
                        "0" => "read",
                        "1" => "write",
                        "2" => "trim",
                        other => other,
                    };
                    p.set("dir", dir);
                    if f[b] != "0" {
                        p.set("bs", f[b]);
                    }
                    if !job.is_empty() && job != "1" {
                        p.set("job", job);
                    }
                    let p = p.render();
                    series.push((key, p.clone()));
                    p
                }
            };
            let v = num(src, l.number, f[1], metric)?;
            out.push(
                Row::at(src, l.number)
                    .benchmark(prefix)
                    .params(&params)
                    .metric(metric)
                    .unit(unit)
                    .sample(v),
            );
            if both {
                let max_metric = format!("{metric} max");
                let m = num(src, l.number, f[2], &max_metric)?;
                out.push(
                    Row::at(src, l.number)
                        .benchmark(prefix)
                        .params(&params)
                        .metric(&max_metric)
                        .unit(unit)
                        .sample(m),
                );
            }
        }
        Parsed::found(src, out, Vec::new(), Vec::new(), "fio log without entries")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hexadecimal_priority_column_is_read_past() {
        // fio 3.33 `--write_lat_log=prio --log_prio=1 --log_offset=1`.
        let p = crate::ingest::parse_file(&FioLog, "tests/data/harness/fio/prio_clat.1.log");
        assert_eq!(p.observations.len(), 40);
        let first = &p.observations[0];
        assert_eq!(
            (first.value, first.params.as_str()),
            (201709.0, "bs=4096,dir=read")
        );
        assert!(entry("0, 5, 0, 4096, 0x").is_none());
        assert!(entry("0, 5, 0, 0x0000").is_none());
    }

    #[test]
    fn a_window_s_mean_and_maximum_are_two_metrics() {
        // fio 3.42 `--log_avg_msec=500 --log_window_value=both`.
        let p = crate::ingest::parse_file(&FioLog, "tests/data/harness/fio/wb_clat.1.log");
        let got: Vec<(u32, &str, &str, f64)> = p
            .observations
            .iter()
            .map(|o| (o.line, o.params.as_str(), o.metric.as_str(), o.value))
            .collect();
        assert_eq!(got.len(), 16);
        assert_eq!(
            got[..4],
            [
                (1, "dir=read", "completion latency", 117163.0),
                (1, "dir=read", "completion latency max", 19784654.0),
                (2, "dir=write", "completion latency", 4247.0),
                (2, "dir=write", "completion latency max", 40235.0),
            ]
        );
        assert_eq!(got[15], (8, "dir=write", "completion latency max", 72986.0));
        // The bandwidth log has both columns too, equal in every window.
        let bw = crate::ingest::parse_file(&FioLog, "tests/data/harness/fio/wb_bw.1.log");
        assert_eq!(bw.observations.len(), 16);
        assert_eq!(bw.observations[1].metric, "bandwidth max");
        assert_eq!(bw.observations[1].value, 24096.0);
        // A windowed log of one value, offsets on, is not taken for it:
        // its third column is a direction.
        let one = Source::from_text(
            "w_lat.1.log",
            "500, 117163, 0, 0, 0, 0\n500, 4247, 1, 0, 0, 0\n",
        );
        let obs = FioLog.parse(&one).unwrap();
        assert_eq!((obs.len(), obs[1].params.as_str()), (2, "dir=write"));
    }

    #[test]
    fn an_issue_time_column_is_read_past() {
        // fio 3.42 `--write_lat_log=it --log_offset=1 --log_issue_time=1`.
        let p = crate::ingest::parse_file(&FioLog, "tests/data/harness/fio/it_clat.1.log");
        assert_eq!(p.observations.len(), 40);
        let o = &p.observations[1];
        assert_eq!((o.value, o.params.as_str()), (198269.0, "bs=4096,dir=read"));
    }

    #[test]
    fn the_file_name_says_what_the_log_holds() {
        assert_eq!(name_parts("out/rr_bw.1.log"), Some(("rr", "bw", "1")));
        assert_eq!(
            name_parts("my_job_clat.12.log"),
            Some(("my_job", "clat", "12"))
        );
        assert_eq!(name_parts("x_iops.log"), Some(("x", "iops", "")));
        assert_eq!(name_parts("server.log"), None);
        assert_eq!(name_parts("rr_bw.1.txt"), None);
    }

    #[test]
    fn entries_are_samples_of_their_direction_and_block_size() {
        let src = Source::from_text(
            "w_lat.2.log",
            "0, 250190, 0, 4096, 1011712, 0\n1, 108370, 1, 4096, 12419072, 0\n2, 88721, 0, 4096, 0, 0\n",
        );
        assert_eq!(FioLog.detect(&src), 95);
        let obs = FioLog.parse(&src).unwrap();
        assert_eq!(obs.len(), 3);
        assert_eq!(obs[0].params, "bs=4096,dir=read,job=2");
        assert_eq!(obs[1].params, "bs=4096,dir=write,job=2");
        assert_eq!(
            (obs[2].metric.as_str(), obs[2].unit.as_str()),
            ("latency", "ns")
        );
        assert_eq!(obs[2].value, 88721.0);
        // A line that is no entry is an error naming it.
        let bad = Source::from_text("w_lat.2.log", "0, 1, 0, 4096\n5, oops, 0, 4096\n");
        let e = FioLog.parse(&bad).unwrap_err().to_string();
        assert!(e.contains(":2"), "{e}");
    }
}
