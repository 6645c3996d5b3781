//! NetPIPE (NPtcp, NPmpi, …): one line per message size, `  N:   SIZE bytes
//! TIMES times -->  RATE Mbps in  TIME usec` in version 3 (every size in
//! bytes, rates in Mbps, times in µs), and in version 5 the same with
//! scaled units (`8.389 MB`, `Gbps`, `nsecs|usecs|msecs`) and a closing
//! `Completed with  max bandwidth RATE  TIME latency`. The time is half a
//! round trip, the rate the size over it; `TIMES` counts the round trips
//! the figure was timed over, not runs.
//!
//! Benchmark `netpipe`, parameter the message size (`size=4093B`, or as
//! version 5 writes it with the point's number, `point=123,size=8.389MB`); metrics `throughput` and
//! `latency`, one sample per size and run (`Now starting the main loop`
//! opens a run); the closing line's `max throughput` and `latency` have no
//! size.

use crate::error::Result;
use crate::ingest::shared::lkp_wrapper;
use crate::ingest::shared::logscan::{lazy_re, num};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Observation;

lazy_re!(
    POINT,
    r"^\s*(\d+):\s+([0-9.]+)\s*(bytes|B|KB|MB|GB)\s+\d+ times -->\s+([0-9.]+) ([KMG]bps)\s+in\s+([0-9.]+) (usecs?|nsecs?|msecs?|secs?)\s*$"
);
lazy_re!(
    COMPLETED,
    r"^Completed with\s+max bandwidth\s+([0-9.]+) ([KMG]bps)\s+([0-9.]+) (usecs?|nsecs?|msecs?)\s+latency\s*$"
);
lazy_re!(
    BUFFERS,
    r"^Send and receive buffers are \d+ and \d+ bytes\s*$"
);
lazy_re!(
    CLOCK,
    r"^Clock resolution ~\s+[0-9.]+ \w+\s+Clock accuracy ~"
);
lazy_re!(
    SETTINGS,
    r"^(Using a constant number of \d+ transmissions|Start testing with \d+ trials for each message size|Now starting the main loop|Sending output to \S+)\s*$"
);

/// The NetPIPE importer.
pub struct Netpipe;

impl Format for Netpipe {
    fn name(&self) -> &'static str {
        "netpipe"
    }

    fn description(&self) -> &'static str {
        "NetPIPE (NPtcp, NPmpi; versions 3 and 5): `N: SIZE bytes TIMES times --> RATE Mbps in TIME usec` per message size, and version 5's `Completed with max bandwidth` line"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let hits = src
            .lines
            .iter()
            .take(5000)
            .filter(|l| POINT.is_match(&l.text))
            .take(2)
            .count();
        if hits >= 2 {
            96
        } else if hits == 1 {
            70
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut consumed = Vec::new();
        let mut skipped = Vec::new();
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            if let Some(c) = POINT.captures(t) {
                let size = size_param(src, n, &c[1], &c[2], &c[3])?;
                let rate = num(src, n, &c[4], "NetPIPE rate")?;
                let time = num(src, n, &c[6], "NetPIPE time")?;
                out.push(row(src, n, &size, "throughput", &c[5]).sample(rate));
                out.push(row(src, n, &size, "latency", &c[7]).sample(time));
            } else if let Some(c) = COMPLETED.captures(t) {
                let rate = num(src, n, &c[1], "NetPIPE max bandwidth")?;
                let time = num(src, n, &c[3], "NetPIPE latency")?;
                out.push(row(src, n, "", "max throughput", &c[2]).sample(rate));
                out.push(row(src, n, "", "latency", &c[4]).sample(time));
            } else if BUFFERS.is_match(t) || SETTINGS.is_match(t) {
                consumed.push(n);
            } else if CLOCK.is_match(t) {
                skipped.push((
                    n,
                    "the timer's resolution and accuracy, not a result".to_string(),
                ));
            } else if lkp_wrapper::is_logged_command(t) {
                skipped.push((
                    n,
                    "LKP wrapper: a command it runs, behind a timestamp".to_string(),
                ));
            }
        }
        let out = number_runs(out);
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no NetPIPE line (`N: SIZE bytes TIMES times --> RATE Mbps in TIME usec`)",
        )
    }
}

/// The message size as a parameter: bytes as version 3 counts them, or the
/// scaled size version 5 prints with the number of its point, since the
/// rounding makes one size of three (`8.389 MB` is 2^23 - 3, 2^23 and
/// 2^23 + 3 bytes) and bytes made up from it would be wrong.
fn size_param(src: &Source, n: u32, point: &str, size: &str, unit: &str) -> Result<String> {
    num(src, n, size, "NetPIPE message size")?;
    Ok(match unit {
        "bytes" => format!("size={size}B"),
        _ => format!("point={point},size={size}{unit}"),
    })
}

fn row(src: &Source, n: u32, params: &str, metric: &str, unit: &str) -> Row {
    Row::at(src, n)
        .benchmark("netpipe")
        .params(params)
        .metric(metric)
        .unit(unit)
}

/// Each size appears once per run, so a size seen again opens the next
/// run: its rows are numbered by how often their size came before.
pub(super) fn number_runs(mut out: Vec<Observation>) -> Vec<Observation> {
    let mut seen: hashbrown::HashMap<(String, String), u32> = hashbrown::HashMap::new();
    for o in &mut out {
        let k = seen
            .entry((o.params.to_string(), o.metric.to_string()))
            .or_insert(0);
        o.run = Some(*k);
        *k += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::testing::{rows_of, RowView};

    /// A row of benchmark netpipe.
    fn row(params: &str, metric: &str, unit: &str, value: f64) -> RowView {
        crate::ingest::testing::row("netpipe", params, metric, unit, value)
    }

    #[test]
    fn version_five_keeps_its_scaled_sizes_and_units() {
        let text = "  1:       1  B      1000 times -->   71.619 Mbps  in  111.702 nsecs\n\
                    122:   8.389 MB      1000 times -->   66.191 Gbps  in    1.014 msecs\n\
                    Completed with        max bandwidth  311.403 Gbps      107.216 nsecs latency\n";
        let got = rows_of(&Netpipe, "np.txt", text);
        assert_eq!(got[0], row("point=1,size=1B", "throughput", "Mbps", 71.619));
        assert_eq!(got[1], row("point=1,size=1B", "latency", "ns", 111.702));
        assert_eq!(
            got[3],
            row("point=122,size=8.389MB", "latency", "ms", 1.014)
        );
        assert_eq!(got[4], row("", "max throughput", "Gbps", 311.403));
    }
}
