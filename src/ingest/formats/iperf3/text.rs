//! iperf3's client report on the terminal: per-interval lines `[  5]
//! 0.00-1.00 sec 2.22 GBytes 19.1 Gbits/sec …`, then the summary lines
//! ending in `sender` and `receiver` (with `-P N`, `[SUM]` lines total the
//! streams).
//!
//! Benchmark `iperf3 tcp` / `iperf3 udp`, parameters `streams` and
//! `reverse` (as `-J` gives them), and `direction` (`tx`, `rx`) for the
//! streams of a `--bidir` run; metrics `sender bitrate`, `receiver
//! bitrate` (bit/s, so that `Gbits/sec`, `Mbits/sec` and `-f M`'s
//! `MBytes/sec` runs compare), `sender transfer`, `receiver transfer` (MiB),
//! `retransmits` (TCP), `jitter` (ms), `lost` (%), `receiver lost
//! datagrams` and `receiver datagrams` (UDP receiver), `sender datagrams`
//! (UDP sender, when it counted), `cpu
//! host` and `cpu remote` (%, `-V`'s CPU Utilization line), each a
//! `sample` of the run. A file of several runs (a shell loop) gives one run
//! per summary. Each interval line is a sample of the run's time series,
//! as `perf stat -I`'s intervals are: `interval bitrate` and `interval
//! transfer`, with a TCP sender's `interval retransmits` and `cwnd` (MiB),
//! a UDP sender's `interval datagrams`, and a UDP receiver's `interval
//! jitter`, `interval lost` (%), `interval lost datagrams` and `interval
//! datagrams`.
//! They are named apart from the summaries, which state the whole test,
//! so that neither is compared as the other. Per-stream lines under a
//! `[SUM]` are within-run detail, left out with the reason. A `--bidir` run connects
//! one set of streams for each direction: `streams` counts one set, as
//! `-J`'s `num_streams` does.
//!
//! `--get-server-output` appends, under `Server output:`, the server's own
//! report of the same test, its `receiver` line the server's view of the
//! client's `receiver` line: it is left out with the reason (up to `iperf
//! Done.` or the next run's `Connecting to host`), not read as another run.
//!
//! The server's own log (`iperf3 -s`) holds one test after another, each
//! opened by `Server listening on 5201 (test #N)`: each test is read as a
//! client's run is, with its own protocol, streams and `[SUM]` lines, its
//! summary lines named by the role the server played (`receiver` when the
//! client sent).

use crate::error::Result;
use crate::ingest::shared::logscan::{has, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::rescale;
use crate::model::Observation;

lazy_re!(
    REPORT,
    r"^\[\s*(\d+|SUM)\](?:\[(TX|RX)-[CS]\])?\s+[\d.]+-[\d.]+\s+sec\s+([\d.]+) (\w?)Bytes\s+([\d.]+) (\w?)(bits|Bytes)/sec(.*)$"
);
// A UDP report's jitter, then its datagrams lost of those sent
// (`48550/249650 (19%)`); a summary line names its role after them.
lazy_re!(
    UDP_TAIL,
    r"^\s+([\d.]+) ms\s+(\d+)/(\d+) \(([\d.e+-]+)%\)\s*(sender|receiver)?\s*$"
);

// A UDP sender's interval: the datagrams it sent.
lazy_re!(INTERVAL_UDP_SENT, r"^\s+(\d+)\s*$");

lazy_re!(INTERVAL_TCP_TAIL, r"^\s+(\d+)\s+([\d.]+) (\w?)Bytes\s*$");

lazy_re!(
    CPU,
    r"^CPU Utilization: local/(?:sender|receiver) ([\d.]+)% \([^)]*\), remote/(?:sender|receiver) ([\d.]+)% \([^)]*\)$"
);

lazy_re!(
    VERBOSE_CONTEXT,
    r"^(?:iperf \d+\.\d+\S*|Linux \S+ \S+ .*|Control connection MSS \d+|Time: .*|\s*Cookie: \S+|\s*TCP MSS: \d+.*|Starting Test: protocol: .*|Test Complete\. Summary Results:|(?:snd|rcv)_tcp_congestion \S+)$"
);

/// The datagram counts of a UDP report read by [`UDP_TAIL`]: a receiver's
/// (or a receiving interval's) loss as a share, as a count and the
/// datagrams sent, named after `role` (`interval`, `receiver`).
fn push_datagrams(
    push: &mut impl FnMut(&str, &str, f64),
    src: &Source,
    n: u32,
    u: &regex::Captures,
    role: &str,
) -> Result<()> {
    if role == "interval" {
        push("interval lost", "%", num(src, n, &u[4], "lost")?);
    }
    push(
        &format!("{role} lost datagrams"),
        "",
        num(src, n, &u[2], "lost datagrams")?,
    );
    push(
        &format!("{role} datagrams"),
        "",
        num(src, n, &u[3], "datagrams")?,
    );
    Ok(())
}

/// The iperf3 text importer.
pub struct Iperf3Text;

/// Bits per second in one `k`/`M`/`G` bit.
fn scale(prefix: &str) -> f64 {
    match prefix {
        "K" | "k" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        _ => 1.0,
    }
}

/// Bytes in one `K`/`M`/`G` byte: iperf3 counts bytes in powers of 1024.
fn bytes(prefix: &str) -> f64 {
    match prefix {
        "K" | "k" => 1024.0,
        "M" => 1048576.0,
        "G" => 1073741824.0,
        "T" => 1099511627776.0,
        _ => 1.0,
    }
}

/// What `--timestamps` or `-T title` puts before every line (`Wed Dec  2
/// 05:18:32 2026 `, `mytitle:  `) as it stands before `[ ID]` on its first
/// line; empty when nothing does. Both prefixes have one width on every
/// line.
fn line_prefix(src: &Source) -> &str {
    src.lines
        .iter()
        .find_map(|l| l.text.find("[ ID] Interval").map(|at| &l.text[..at]))
        .filter(|before| !before.trim().is_empty())
        .unwrap_or("")
}

/// The shape of a line prefix, the same on every line that has one: a
/// title (`mytitle:  `) or a time stamp of any day (`Wed Dec  2 05:18:32
/// 2026 `, `1733116712.123456 `), its letters, digits and spaces alike.
fn prefix_shape(p: &str) -> String {
    p.chars()
        .map(|c| {
            if c.is_alphanumeric() || c == ' ' {
                'x'
            } else {
                c
            }
        })
        .collect()
}

/// Whether a line opens a test: a client's `Connecting to host`, a
/// server's `Server listening on 5201 (test #2)`.
fn opens_test(t: &str) -> bool {
    t.starts_with("Connecting to host") || t.starts_with("Server listening on")
}

/// What the lines of one test say about all of its reports.
#[derive(Clone, Copy, Default)]
struct Test {
    /// UDP: its headers name `Jitter` or `Total Datagrams`.
    udp: bool,
    /// Several streams, totalled on `[SUM]` lines.
    summed: bool,
    /// `--bidir`: the streams of both directions connect, half each way.
    ways: usize,
}

/// Each line's test: a file may hold several (a client's loop, a server's
/// log of every test it served), each of its own protocol and streams.
fn tests(src: &Source, prefix: usize) -> Vec<Test> {
    let mut of_line = Vec::with_capacity(src.lines.len());
    let mut start = 0;
    let close = |of_line: &mut Vec<Test>, start: usize, end: usize| {
        let lines = &src.lines[start..end];
        let any = |p: &dyn Fn(&str) -> bool| lines.iter().any(|l| p(&l.text));
        let test = Test {
            udp: any(&|t| t.contains("Total Datagrams") || t.contains("Jitter")),
            summed: any(&|t| t.contains("[SUM]")),
            ways: if any(&|t| t.contains("][TX-") || t.contains("][RX-")) {
                2
            } else {
                1
            },
        };
        of_line.extend(std::iter::repeat_n(test, end - start));
    };
    // The server output a client asked for is part of the client's test:
    // the server's `Server listening` in it opens none.
    let mut asked = false;
    for (i, l) in src.lines.iter().enumerate() {
        let t = l.text.get(prefix..).unwrap_or("").trim();
        if t == "Server output:" {
            asked = true;
        } else if opens_test(t) && !(asked && t.starts_with("Server listening on")) {
            if i > start {
                close(&mut of_line, start, i);
                start = i;
            }
            asked = false;
        }
    }
    close(&mut of_line, start, src.lines.len());
    of_line
}

impl Format for Iperf3Text {
    fn name(&self) -> &'static str {
        "iperf3"
    }

    fn description(&self) -> &'static str {
        "iperf3 client text: `[ ID] Interval  Transfer  Bitrate` and the `… sender` / `… receiver` summary"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let header = has(src, "[ ID] Interval");
        let summary = crate::ingest::shared::logscan::lines_containing(src, "bits/sec")
            .any(|l| l.trim_end().ends_with("receiver") && REPORT.is_match(l));
        match (header, summary) {
            (true, true) => 95,
            (false, true) => 70,
            (true, false) => 30,
            _ => 0,
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let prefix_text = line_prefix(src);
        let prefix = prefix_text.len();
        let shape = prefix_shape(prefix_text);
        let tests = tests(src, prefix);
        let mut out: Vec<Observation> = Vec::new();
        let mut consumed = Vec::new();
        let mut skipped = Vec::new();
        let mut streams: Vec<String> = Vec::new();
        let mut reverse = "0";
        let mut server_output = false;
        for (i, l) in src.lines.iter().enumerate() {
            let n = l.number;
            let t = l.text.get(prefix..).unwrap_or("").trim_end();
            let Test { udp, summed, ways } = tests[i];
            let bench = if udp { "iperf3 udp" } else { "iperf3 tcp" };
            if t == "Server output:" {
                server_output = true;
            } else if t.starts_with("iperf Done.") || t.starts_with("Connecting to host") {
                server_output = false;
            }
            if server_output {
                skipped.push((
                    n,
                    "the server's own report of the same test (--get-server-output), not another run"
                        .into(),
                ));
                continue;
            }
            // A header, rule or `iperf Done.` under a timestamp: read past.
            // A line without the prefix is none of them: a loop's `=== run
            // 2 ===` or counter between runs is left to be listed.
            let digit = |s: &str| s.bytes().any(|b| b.is_ascii_digit());
            let prefixed = || {
                l.text
                    .get(..prefix)
                    .is_some_and(|p| prefix_shape(p) == shape)
            };
            if prefix > 0 && !digit(t) && (prefixed() || !digit(&l.text)) {
                consumed.push(n);
                continue;
            }
            if t.starts_with("Reverse mode") {
                reverse = "1";
                consumed.push(n);
                continue;
            }
            if t.starts_with("Accepted connection from") {
                consumed.push(n);
                continue;
            }
            if opens_test(t) || t.contains(" connected to ") {
                consumed.push(n);
                // The next run of a loop connects anew, and a server
                // listens anew for each test.
                if opens_test(t) {
                    streams.clear();
                    reverse = "0";
                }
                if t.contains(" connected to ") {
                    streams.push(t.to_string());
                }
                continue;
            }
            // `-V`'s account of the host and the test: context.
            if VERBOSE_CONTEXT.is_match(t) {
                consumed.push(n);
                continue;
            }
            // `-V`: the CPU use of both ends, after the summary.
            if let Some(c) = CPU.captures(t) {
                let mut p = Params::default();
                p.set("reverse", reverse);
                p.set("streams", (streams.len() / ways).max(1).to_string());
                for (metric, at) in [("cpu host", 1), ("cpu remote", 2)] {
                    out.push(
                        Row::at(src, n)
                            .benchmark(bench)
                            .params(&p.render())
                            .metric(metric)
                            .unit("%")
                            .sample(num(src, n, &c[at], metric)?),
                    );
                }
                continue;
            }
            let Some(c) = REPORT.captures(t) else {
                continue;
            };
            let role = if t.ends_with("sender") {
                "sender"
            } else if t.ends_with("receiver") {
                "receiver"
            } else {
                "interval"
            };
            if summed && &c[1] != "SUM" {
                skipped.push((n, "one stream of several; its [SUM] line is read".into()));
                continue;
            }
            let mut p = Params::default();
            p.set("reverse", reverse);
            p.set("streams", (streams.len() / ways).max(1).to_string());
            // `--bidir`: each stream is tagged with the way it runs.
            if let Some(way) = c.get(2) {
                p.set("direction", way.as_str().to_ascii_lowercase());
            }
            let params = p.render();
            let rate = num(src, n, &c[5], "bitrate")?;
            // `-f K|M|G` prints bytes per second in powers of 1024.
            let rate = match &c[7] {
                "Bytes" => rate * 8.0 * bytes(&c[6]),
                _ => rescale(rate, scale(&c[6])),
            };
            let transfer = rescale(
                num(src, n, &c[3], "transfer")? * bytes(&c[4]),
                1.0 / 1048576.0,
            );
            let mut push = |metric: &str, unit: &str, v: f64| {
                out.push(
                    Row::at(src, n)
                        .benchmark(bench)
                        .params(&params)
                        .metric(metric)
                        .unit(unit)
                        .sample(v),
                );
            };
            push(&format!("{role} bitrate"), "bit/s", rate);
            push(&format!("{role} transfer"), "MiB", transfer);
            let tail = &c[8];
            if role == "interval" {
                // A TCP sender's interval ends in its retransmits and
                // congestion window (`0   3.12 MBytes`).
                if udp {
                    if let Some(u) = UDP_TAIL.captures(tail) {
                        push("interval jitter", "ms", num(src, n, &u[1], "jitter")?);
                        push_datagrams(&mut push, src, n, &u, "interval")?;
                    } else if let Some(w) = INTERVAL_UDP_SENT.captures(tail) {
                        push("interval datagrams", "", num(src, n, &w[1], "datagrams")?);
                    }
                } else if let Some(w) = INTERVAL_TCP_TAIL.captures(tail) {
                    push(
                        "interval retransmits",
                        "",
                        num(src, n, &w[1], "retransmits")?,
                    );
                    let cwnd = num(src, n, &w[2], "cwnd")? * bytes(&w[3]);
                    push("cwnd", "MiB", rescale(cwnd, 1.0 / 1048576.0));
                }
                continue;
            }
            if let Some(u) = UDP_TAIL.captures(tail) {
                if role == "receiver" {
                    push("jitter", "ms", num(src, n, &u[1], "jitter")?);
                    push("lost", "%", num(src, n, &u[4], "lost")?);
                    push_datagrams(&mut push, src, n, &u, "receiver")?;
                } else if &u[3] != "0" {
                    // The sender's count of what it sent; a sender that
                    // did not count (the server's side of `-R`) prints
                    // `0/0`, which is no count.
                    push("sender datagrams", "", num(src, n, &u[3], "datagrams")?);
                }
            } else if role == "sender" && !udp {
                let words: Vec<&str> = tail.split_whitespace().collect();
                if words.len() == 2 {
                    push("retransmits", "", num(src, n, words[0], "retransmits")?);
                }
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no iperf3 sender/receiver summary found",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Stat;

    fn read(path: &str) -> Parsed {
        crate::ingest::parse_file(&Iperf3Text, path)
    }

    /// Whether a row is one of an interval line's (the run's time series).
    fn of_interval(o: &Observation) -> bool {
        o.metric.starts_with("interval ") || o.metric == "cwnd"
    }

    /// The metric and value of the rows of the summary lines.
    fn values(p: &Parsed) -> Vec<(&str, f64)> {
        p.observations
            .iter()
            .filter(|o| !of_interval(o))
            .map(|o| (o.metric.as_str(), o.value))
            .collect()
    }

    #[test]
    fn tcp_summary_in_bits_per_second() {
        let p = read("tests/data/harness/iperf3/tcp-text.txt");
        assert_eq!(
            values(&p),
            vec![
                ("sender bitrate", 19.2e9),
                ("sender transfer", 4577.28),
                ("retransmits", 19.0),
                ("receiver bitrate", 19.2e9),
                ("receiver transfer", 4577.28)
            ]
        );
        assert_eq!(p.observations[0].params, "reverse=0,streams=1");
        assert!(p.skipped.is_empty());
    }

    #[test]
    fn interval_lines_are_samples_of_the_run_s_time_series() {
        let p = read("tests/data/harness/iperf3/tcp-text.txt");
        let intervals: Vec<(&str, f64, u32)> = p
            .observations
            .iter()
            .filter(|o| of_interval(o))
            .map(|o| (o.metric.as_str(), o.value, o.line))
            .collect();
        assert_eq!(
            intervals,
            vec![
                ("interval bitrate", 19.1e9, 4),
                ("interval transfer", 2.22 * 1024.0, 4),
                ("interval retransmits", 7.0, 4),
                ("cwnd", 1023.0 / 1024.0, 4),
                ("interval bitrate", 19.3e9, 5),
                ("interval transfer", 2.25 * 1024.0, 5),
                ("interval retransmits", 12.0, 5),
                ("cwnd", 1023.0 / 1024.0, 5),
            ]
        );
        assert!(p.observations.iter().all(|o| o.stat == Stat::Sample));
        // A receiver's intervals (reverse mode) have no retransmits.
        let p = read("tests/data/harness/iperf3/tcp-P2-reverse.txt");
        let metrics: Vec<&str> = p
            .observations
            .iter()
            .filter(|o| of_interval(o))
            .map(|o| o.metric.as_str())
            .collect();
        assert_eq!(
            metrics,
            [
                "interval bitrate",
                "interval transfer",
                "interval bitrate",
                "interval transfer"
            ]
        );
    }

    #[test]
    fn udp_receiver_gives_jitter_and_loss() {
        let p = read("tests/data/harness/iperf3/udp-text.txt");
        assert_eq!(
            values(&p),
            vec![
                ("sender bitrate", 100e6),
                ("sender transfer", 23.8),
                ("sender datagrams", 763.0),
                ("receiver bitrate", 100e6),
                ("receiver transfer", 23.8),
                ("jitter", 0.016),
                ("lost", 0.0),
                ("receiver lost datagrams", 0.0),
                ("receiver datagrams", 763.0)
            ]
        );
        assert_eq!(p.observations[0].benchmark, "iperf3 udp");
        // A sending client's intervals count the datagrams it sent.
        let sent: Vec<f64> = p
            .observations
            .iter()
            .filter(|o| o.metric == "interval datagrams")
            .map(|o| o.value)
            .collect();
        assert_eq!(sent, vec![382.0, 381.0]);
    }

    #[test]
    fn udp_receiving_intervals_give_jitter_and_datagrams_lost() {
        // `-u -R`: the client receives, each interval with its loss; the
        // server's sender line counts nothing (`0/0`).
        let text = "Connecting to host 192.168.2.1, port 5201\n\
            Reverse mode, remote host 192.168.2.1 is sending\n\
            [  5] local 192.168.2.18 port 47851 connected to 192.168.2.1 port 5201\n\
            [ ID] Interval           Transfer     Bitrate         Jitter    Lost/Total Datagrams\n\
            [  5]   0.00-1.00   sec  10.7 MBytes  90.0 Mbits/sec  0.003 ms  48550/249650 (19%)  \n\
            - - - - - - - - - - - - - - - - - - - - - - - - -\n\
            [ ID] Interval           Transfer     Bitrate         Jitter    Lost/Total Datagrams\n\
            [  5]   0.00-10.00  sec   135 MBytes   114 Mbits/sec  0.000 ms  0/0 (0%)  sender\n\
            [  5]   0.00-10.00  sec   112 MBytes  94.3 Mbits/sec  0.006 ms  428302/2534538 (17%)  receiver\n";
        let p = Iperf3Text
            .parse_accounted(&Source::from_text("udp.txt", text))
            .unwrap();
        let rows: Vec<(&str, f64)> = p
            .observations
            .iter()
            .filter(|o| o.metric.contains("datagrams") || o.metric.contains("jitter"))
            .map(|o| (o.metric.as_str(), o.value))
            .collect();
        assert_eq!(
            rows,
            vec![
                ("interval jitter", 0.003),
                ("interval lost datagrams", 48550.0),
                ("interval datagrams", 249650.0),
                ("jitter", 0.006),
                ("receiver lost datagrams", 428302.0),
                ("receiver datagrams", 2534538.0)
            ]
        );
    }

    #[test]
    fn bidirectional_runs_and_byte_rates() {
        let text = "Connecting to host 127.0.0.1, port 5201\n\
            [ ID][Role] Interval           Transfer     Bitrate         Retr\n\
            [  5][TX-C]   0.00-2.00   sec  2.68 GBytes  11.5 Gbits/sec   71             sender\n\
            [  7][RX-C]   0.00-2.00   sec  2.51 GBytes  10.8 Gbits/sec                  receiver\n\
            [  5]   0.00-3.00   sec  6.02 GBytes  2056 MBytes/sec   37             sender\n";
        let p = Iperf3Text
            .parse_accounted(&Source::from_text("bidir.txt", text))
            .unwrap();
        let tx = &p.observations[0];
        assert_eq!((tx.metric.as_str(), tx.value), ("sender bitrate", 11.5e9));
        assert!(tx.params.contains("direction=tx"));
        assert!(p.observations[3].params.contains("direction=rx"));
        // `-f M`: MBytes/sec are 2^20 bytes a second.
        let bytes = &p.observations[5];
        assert_eq!(bytes.value, 2056.0 * 8.0 * 1048576.0);
        assert_eq!(p.observations[6].value, 6.02 * 1024.0);
    }

    #[test]
    fn parallel_streams_read_their_sum() {
        let p = read("tests/data/harness/iperf3/tcp-P2-reverse.txt");
        assert_eq!(
            values(&p),
            vec![
                ("sender bitrate", 20.4e9),
                ("sender transfer", 4864.0),
                ("retransmits", 5.0),
                ("receiver bitrate", 20.4e9),
                ("receiver transfer", 4864.0)
            ]
        );
        assert_eq!(p.observations[0].params, "reverse=1,streams=2");
    }

    #[test]
    fn bidir_streams_count_one_direction() {
        let p = read("tests/data/harness/iperf3/tcp-bidir-t2.txt");
        let rx: Vec<(&str, f64)> = p
            .observations
            .iter()
            .filter(|o| o.params == "direction=rx,reverse=0,streams=1" && !of_interval(o))
            .map(|o| (o.metric.as_str(), o.value))
            .collect();
        assert_eq!(
            rx,
            vec![
                ("sender bitrate", 10.8e9),
                ("sender transfer", 2570.24),
                ("retransmits", 55.0),
                ("receiver bitrate", 10.8e9),
                ("receiver transfer", 2570.24)
            ]
        );
        assert_eq!(
            p.observations.iter().filter(|o| !of_interval(o)).count(),
            10
        );
    }

    #[test]
    fn a_server_log_reads_each_test_with_its_own_protocol_and_streams() {
        let p = read("tests/data/harness/iperf3/server-log-13-tests.txt");
        let at = |line: u32| -> Vec<(&str, &str, &str, f64)> {
            p.observations
                .iter()
                .filter(|o| o.line == line)
                .map(|o| {
                    (
                        o.benchmark.as_str(),
                        o.params.as_str(),
                        o.metric.as_str(),
                        o.value,
                    )
                })
                .collect()
        };
        // Test 1, UDP --bidir: the server receives on one stream, sends on
        // the other.
        assert_eq!(
            at(12)[2],
            (
                "iperf3 udp",
                "direction=rx,reverse=0,streams=1",
                "jitter",
                0.151
            )
        );
        // Test 3, TCP -R: the server sent, with its retransmits.
        assert_eq!(
            at(33)[2],
            ("iperf3 tcp", "reverse=0,streams=1", "retransmits", 8.0)
        );
        // Test 4, TCP -P 2: the [SUM] line alone, two streams.
        assert_eq!(
            at(52)[0],
            (
                "iperf3 tcp",
                "reverse=0,streams=2",
                "receiver bitrate",
                1.76e9
            )
        );
        // Test 6, UDP -P 2.
        assert_eq!(
            at(90)[3],
            ("iperf3 udp", "reverse=0,streams=2", "lost", 0.0)
        );
        // Six plain TCP tests: six runs of one series, named alike.
        let lines: Vec<u32> = p
            .observations
            .iter()
            .filter(|o| o.metric == "receiver bitrate" && o.params == "reverse=0,streams=1")
            .filter(|o| o.benchmark == "iperf3 tcp")
            .map(|o| o.line)
            .collect();
        assert_eq!(lines, vec![101, 111, 121, 132, 142, 153]);
        // 38 rows of rates, times and shares, and the datagram counts of
        // the UDP tests' summaries.
        let summary = |o: &&Observation| !of_interval(o);
        assert_eq!(p.observations.iter().filter(summary).count(), 46);
        assert_eq!(
            p.observations
                .iter()
                .filter(summary)
                .filter(|o| o.metric.ends_with("datagrams"))
                .count(),
            8
        );
        // Each test's `Server listening` and `Accepted connection` lines
        // are read as context.
        assert!(p.consumed.contains(&2) && p.consumed.contains(&4));
    }

    #[test]
    fn the_server_output_section_is_the_same_test_left_out() {
        let p = read("tests/data/harness/iperf3/tcp-get-server-output.txt");
        assert_eq!(
            values(&p),
            vec![
                ("sender bitrate", 19.5e9),
                ("sender transfer", 4659.2),
                ("retransmits", 19.0),
                ("receiver bitrate", 19.5e9),
                ("receiver transfer", 4659.2)
            ]
        );
        assert!(p
            .observations
            .iter()
            .all(|o| o.params == "reverse=0,streams=1" && o.line <= 9));
        // Lines 11-25, `Server output:` to the blank lines before `iperf
        // Done.`, are the server's report, its receiver line 23 among them.
        let server: Vec<u32> = p
            .skipped
            .iter()
            .filter(|(_, why)| why.contains("--get-server-output"))
            .map(|(n, _)| *n)
            .collect();
        assert_eq!(server, (11..=25).collect::<Vec<u32>>());
    }
}
