//! The netperf reader: every test a banner opens, in whichever output the
//! run asked for: the classic stacked table (with `-v 2`'s extra tables),
//! and the omni selectors as `-k` keyval lines, `-o` CSV or `-O` columns.
//!
//! Benchmark the test (`TCP_STREAM`, `TCP_RR`, `UDP_STREAM`, `omni` …);
//! parameters the sizes the output states (socket, message, request and
//! response sizes, the remote ones prefixed `remote_`); metrics every
//! result column (`throughput` in Mbit/s or as `-f` asked, `transaction
//! rate` in trans/s, `cpu util local`, `service demand remote`, UDP's
//! `messages okay`, the omni latencies in µs …), each a `sample` of the
//! run; the second row of a UDP stream table is the receiver's, its
//! metrics suffixed `remote`. A file of several tests (a shell loop) gives
//! one run per banner. The elapsed time is read, not a value; interim
//! results (`-D`), the `-v 2` histogram and alignment settings are left
//! out with the reason.

use super::banner::{self, Banner};
use super::columns::{canonical_unit, heads, metric_name, name_and_unit, param_key, under, words};
use crate::error::Result;
use crate::ingest::shared::lkp_wrapper;
use crate::ingest::shared::logscan::{lazy_re, lines_containing, num, Params};
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Observation;

lazy_re!(KEYVAL, r"^([A-Z][A-Z0-9_]*)=(.*)$");
// A netperf command line: at a line's start or after a prompt, with flags.
lazy_re!(COMMAND, r"^(?:\S*[$#]\s*)?(?:\S*/)?netperf(?:\s+-\S+.*)?$");
lazy_re!(TEST_FLAG, r"\s-t\s*(\S+)");
// The last line of a classic header: sizes in bytes, the time in seconds.
lazy_re!(UNITS_ROW, r"^\s*bytes\s+[Bb]ytes\s+(?:.*\s)?secs\.");
// The second line of a wrapped banner: `10.0.0.2 () port 0 AF_INET : …`.
lazy_re!(WRAPPED, r"^\S+ \(.*?\) port \d+ ");
lazy_re!(
    HISTOGRAM,
    r"^(Histogram of|(UNIT|TEN|HUNDRED)_(USEC|MSEC|SEC)\s*:|>?100_SECS:|HIST_TOTAL:)"
);

/// The netperf importer.
pub struct Netperf;

/// What one test (one banner) gave so far.
struct Run {
    test: String,
    /// The heading above the test in a mail (`GRO enabled:`).
    variant: Option<String>,
    params: Params,
    values: Vec<(u32, String, String, f64)>,
}

impl Run {
    fn new(b: Banner, variant: Option<String>) -> Run {
        Run {
            test: b.test,
            variant,
            params: Params::default(),
            values: Vec::new(),
        }
    }

    fn flush(self, src: &Source, out: &mut Vec<Observation>) {
        let params = self.params.render();
        for (line, metric, unit, value) in self.values {
            let mut o = Row::at(src, line)
                .benchmark(&self.test)
                .params(&params)
                .metric(&metric)
                .unit(&unit)
                .sample(value);
            if let Some(v) = &self.variant {
                o.variant = v.as_str().into();
            }
            out.push(o);
        }
    }
}

impl Format for Netperf {
    fn name(&self) -> &'static str {
        "netperf"
    }

    fn description(&self) -> &'static str {
        "netperf: `TCP STREAM TEST from … to …` banners, then the stacked column table, \
         or omni -k KEY=VALUE, -o CSV, -O columns"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let banners = lines_containing(src, " TEST from ").any(banner::is_banner);
        // A table pasted without its banner still has netperf's units row.
        if banners || lines_containing(src, "secs.").any(|l| UNITS_ROW.is_match(l)) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut consumed = Vec::new();
        let mut skipped = Vec::new();
        let mut run: Option<Run> = None;
        // The block of non-blank lines being read (a stacked header), the
        // line above it (a heading in a mail), and whether a blank line
        // came since the block's last line.
        let mut header: Vec<(u32, &str)> = Vec::new();
        let mut above: Option<(u32, &str)> = None;
        let mut gap = false;
        // Whether the run has read a table with the classic units row.
        let mut main_table = false;
        let lines = &src.lines;
        let mut i = 0;
        while i < lines.len() {
            let l = &lines[i];
            let t = l.text.trim_end();
            i += 1;
            if t.trim().is_empty() {
                gap = true;
                continue;
            }
            // The commands LKP logged around the output (the netperf runs,
            // `wait`) are no part of any test's table. Only those: its
            // other lines look like `-k` output's `KEY=value`.
            if lkp_wrapper::is_logged_command(t) {
                skipped.push((
                    l.number,
                    "LKP wrapper: a command it logged behind a timestamp, not output".into(),
                ));
                continue;
            }
            // A banner, or in a mail the command line, opens a test; the
            // line right above it is its heading.
            let opened = banner::parse(t).or_else(|| {
                COMMAND.is_match(t.trim()).then(|| Banner {
                    test: TEST_FLAG
                        .captures(t)
                        .map_or("TCP_STREAM", |c| c.get(1).map_or("", |m| m.as_str()))
                        .to_string(),
                    host: None,
                })
            });
            if let Some(b) = opened {
                let heading = if gap { None } else { header.last().copied() }.or(above.take());
                if let Some(r) = run.take() {
                    r.flush(src, &mut out);
                }
                run = Some(Run::new(b, heading_of(heading, &mut consumed)));
                (header, above, gap, main_table) = (Vec::new(), None, false, false);
                consumed.push(l.number);
                // A banner wrapped after its `to`: the remote host and the
                // rest of it on the next line.
                if t.ends_with(" to") && i < lines.len() && WRAPPED.is_match(&lines[i].text) {
                    consumed.push(lines[i].number);
                    i += 1;
                }
                continue;
            }
            if !is_row(t) {
                if gap && !header.is_empty() {
                    above = header.last().copied();
                    header.clear();
                }
                gap = false;
                if UNITS_ROW.is_match(t) && (run.is_none() || main_table) {
                    // A table pasted without banner or command, or a second
                    // test's table under the first's.
                    let test = run
                        .as_ref()
                        .map_or("netperf".to_string(), |r| r.test.clone());
                    if let Some(r) = run.take() {
                        r.flush(src, &mut out);
                    }
                    let heading = above.take();
                    run = Some(Run::new(
                        Banner { test, host: None },
                        heading_of(heading, &mut consumed),
                    ));
                    main_table = false;
                }
                let Some(r) = run.as_mut() else {
                    header.push((l.number, t));
                    continue;
                };
                if t.starts_with("Interim result:") {
                    skipped.push((
                        l.number,
                        "interim result within the run (-D demo mode)".into(),
                    ));
                } else if HISTOGRAM.is_match(t) {
                    skipped.push((
                        l.number,
                        "the -v 2 response-time histogram (bucket counts)".into(),
                    ));
                } else if t.starts_with("!!!") {
                    consumed.push(l.number);
                } else if let Some(c) = KEYVAL.captures(t) {
                    keyval(src, l.number, &c[1], &c[2], r, lines)?;
                    consumed.push(l.number);
                } else {
                    header.push((l.number, t));
                }
                continue;
            }
            gap = false;
            let Some(r) = run.as_mut() else { continue };
            // A row of values under the header above it, and the rows
            // right after it (a remote side).
            let mut rows = vec![(l.number, t)];
            while i < lines.len() && is_row(lines[i].text.trim_end()) {
                rows.push((lines[i].number, lines[i].text.trim_end()));
                i += 1;
            }
            if let (true, [(n, row)]) = (header.is_empty(), rows.as_slice()) {
                if let Some(v) = parse_number(row.trim()) {
                    // `-v 0` prints the banner and the test's figure of
                    // merit alone.
                    let v = if v.is_finite() {
                        v
                    } else {
                        num(src, *n, row, "result")?
                    };
                    let (metric, unit) = headline(&r.test);
                    r.values.push((*n, metric.into(), unit.into(), v));
                    consumed.push(*n);
                    continue;
                }
            }
            let head: Vec<&str> = header.iter().map(|(_, h)| *h).collect();
            main_table |= head.last().is_some_and(|h| UNITS_ROW.is_match(h));
            let wrapped = unwrap_csv_header(&head, rows[0].1);
            let read = if head.len() == 1 && head[0].contains(',') {
                csv_table(src, head[0], &rows, r)?
            } else if let Some(joined) = wrapped {
                csv_table(src, &joined, &rows, r)?
            } else {
                table(src, &head, &rows, r)?
            };
            consumed.extend(header.iter().map(|(n, _)| *n));
            for (n, _) in &rows {
                if read {
                    consumed.push(*n);
                } else {
                    skipped.push((
                        *n,
                        "buffer alignment, offsets and transfer counts, not a result".into(),
                    ));
                }
            }
            header.clear();
        }
        if let Some(r) = run.take() {
            r.flush(src, &mut out);
        }
        // A failed test prints its banner and then why.
        let why = src
            .lines
            .iter()
            .rev()
            .map(|l| l.text.trim())
            .find(|t| !t.is_empty() && !banner::is_banner(t))
            .map_or(String::new(), |t| format!(": netperf said `{t}`"));
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            format!("a netperf banner but no result row (the test failed?){why}"),
        )
    }
}

/// A heading line as a variant (`GRO enabled:` -> `GRO enabled`), the
/// line then read.
fn heading_of(line: Option<(u32, &str)>, consumed: &mut Vec<u32>) -> Option<String> {
    let (n, h) = line?;
    let h = h.trim().trim_end_matches(':').trim();
    if !crate::ingest::shared::text::is_heading(h)
        || UNITS_ROW.is_match(h)
        || crate::ingest::shared::lkp_wrapper::is_logged_command(h)
    {
        return None;
    }
    consumed.push(n);
    Some(h.to_string())
}

/// The one figure `-v 0` prints for a test, named as its full table names
/// it: a stream's throughput (in netperf's default 10^6 bits/s), a
/// request/response test's transaction rate.
fn headline(test: &str) -> (&'static str, &'static str) {
    if test.contains("RR") {
        ("transaction rate", "trans/s")
    } else if test.contains("STREAM") || test.contains("MAERTS") || test.contains("SENDFILE") {
        ("throughput", "Mbit/s")
    } else {
        ("result", "")
    }
}

/// An `-o` CSV header wrapped over several lines (a terminal's or a
/// file's line length cut it, mid-name or after a comma), joined again:
/// only when every line holds a comma and the joined header has as many
/// fields as the row under it.
fn unwrap_csv_header(head: &[&str], row: &str) -> Option<String> {
    if head.len() < 2 || !head.iter().all(|h| h.contains(',')) {
        return None;
    }
    let mut joined = String::new();
    for h in head {
        let h = h.trim();
        if !joined.is_empty() && !joined.ends_with(',') && !h.starts_with(',') {
            joined.push(' ');
        }
        joined.push_str(h);
    }
    (joined.split(',').count() == row.split(',').count()).then_some(joined)
}

/// Whether `t` is a row of values: it starts with a number.
fn is_row(t: &str) -> bool {
    let first = t.split([' ', '\t', ',']).find(|w| !w.is_empty());
    first.is_some_and(|w| parse_number(w).is_some())
}

/// Reads a stacked table's rows into `run`; false when no column held a
/// result (the `-v 2` alignment settings).
fn table(src: &Source, header: &[&str], rows: &[(u32, &str)], run: &mut Run) -> Result<bool> {
    let header: Vec<&str> = header
        .iter()
        .copied()
        .filter(|h| !h.trim_start().starts_with("Local /Remote"))
        .collect();
    let mut any = false;
    let Some((_, first)) = rows.first() else {
        return Ok(false);
    };
    let cols = heads(&header, first);
    let mut named: Vec<(String, String)> = cols.iter().map(|h| name_and_unit(h)).collect();
    continue_split_columns(&mut named);
    let has_units = named.iter().any(|(_, u)| !u.is_empty());
    let first_values = words(first);
    for (k, (n, row)) in rows.iter().enumerate() {
        let values = words(row);
        let column = under(first, row);
        let remote = if k == 0 { "" } else { " remote" };
        for (c, (_, _, text)) in values.iter().enumerate() {
            let (name, unit) = &named[column[c]];
            if is_setting(name) {
                continue;
            }
            let Some(v) = parse_number(text) else {
                continue;
            };
            let (name, unit) = if has_units {
                (name.clone(), canonical_unit(unit, name))
            } else {
                let units_of = named
                    .iter()
                    .zip(&first_values)
                    .find(|((n, _), _)| n.strip_suffix(" Units").is_some_and(|base| base == name));
                let u = units_of.map_or(String::new(), |(_, (_, _, u))| canonical_unit(u, name));
                omni_name_unit(name, u)
            };
            if name.is_empty() || name.ends_with(" Units") {
                continue;
            }
            let metric = format!("{}{remote}", metric_name(&name).to_ascii_lowercase());
            // `-v 2`'s second table states the transaction rate again.
            if run.values.iter().any(|(_, m, _, _)| *m == metric) {
                any = true;
                continue;
            }
            match unit.as_str() {
                // Sizes are the test's settings. `-v 2`'s byte and call
                // counts (`Bytes Xfered`, `Sends`) follow from the time and
                // the rate, and its header does not line up with them.
                "B" if name.to_ascii_lowercase().contains("size") => {
                    let side = if k == 0 { "" } else { "remote_" };
                    run.params.set(&format!("{side}{}", param_key(&name)), text);
                    any = true;
                }
                "B" => {}
                "s" => {}
                "" if has_units => {}
                "#" => {
                    run.values.push((*n, metric, String::new(), v));
                    any = true;
                }
                _ => {
                    let v = if v.is_finite() {
                        v
                    } else {
                        num(src, *n, text, &name)?
                    };
                    run.values.push((*n, metric, unit, v));
                    any = true;
                }
            }
        }
    }
    Ok(any)
}

/// A column headed by one word and no unit, beside one with a unit, is
/// the second half of a split column: `-v 2`'s `Throughput 10^6bits/s` over
/// `Outbound  Inbound` is two throughputs in the same unit.
fn continue_split_columns(named: &mut [(String, String)]) {
    for k in 1..named.len() {
        let (prev, this) = (&named[k - 1], &named[k]);
        let one_word = !this.0.is_empty() && !this.0.contains(' ');
        if one_word && this.1.is_empty() && !prev.1.is_empty() && prev.0.contains(' ') {
            let base = prev.0.rsplit_once(' ').map_or("", |(b, _)| b);
            named[k] = (format!("{base} {}", this.0), prev.1.clone());
        }
    }
}

/// Whether a column of `-v 2`'s extra table is a setting (buffer
/// alignment and offset), not a result.
fn is_setting(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.contains("alignment")
        || lower.contains("offset")
        || (!lower.is_empty()
            && lower
                .split_whitespace()
                .all(|w| matches!(w, "local" | "remote" | "send" | "recv")))
}

/// Reads omni `-o` output: a CSV header of selector names over rows of
/// values.
fn csv_table(src: &Source, header: &str, rows: &[(u32, &str)], run: &mut Run) -> Result<bool> {
    let names: Vec<&str> = header.split(',').map(str::trim).collect();
    for (n, row) in rows {
        let cells: Vec<&str> = row.split(',').map(str::trim).collect();
        if cells.len() != names.len() {
            return Err(src.error(
                Some(*n),
                format!("{} values under a header of {}", cells.len(), names.len()),
            ));
        }
        for (name, cell) in names.iter().zip(&cells) {
            let Some(v) = parse_number(cell) else {
                continue;
            };
            let units_of = names
                .iter()
                .position(|m| m.strip_suffix(" Units") == Some(name));
            let u = units_of.map_or(String::new(), |p| canonical_unit(cells[p], name));
            let (metric, unit) = omni_name_unit(name, u);
            if metric.is_empty() || metric.contains("confidence") {
                continue;
            }
            if unit == "B" {
                run.params.set(&param_key(name), cell);
            } else {
                run.values.push((*n, metric, unit, v));
            }
        }
    }
    Ok(true)
}

/// An omni selector's metric name and unit: a unit word closing the name
/// (`Mean Latency Microseconds`, `Transaction Rate Tran/s`, `(%)`), or the
/// unit its `… Units` selector gave.
fn omni_name_unit(name: &str, unit: String) -> (String, String) {
    let mut words: Vec<&str> = name.split_whitespace().collect();
    let unit = match words.last().copied() {
        Some("Microseconds") => "us".to_string(),
        Some("Milliseconds") => "ms".to_string(),
        Some("Seconds") => "s".to_string(),
        Some("Tran/s") | Some("Trans/s") => "trans/s".to_string(),
        Some("(%)") => "%".to_string(),
        Some("Bytes") | Some("bytes") => "B".to_string(),
        _ => return (metric_name(name).to_ascii_lowercase(), unit),
    };
    words.pop();
    (metric_name(&words.join(" ")).to_ascii_lowercase(), unit)
}

/// Reads an omni `-k` line `KEY=VALUE` into `run`: sizes become
/// parameters, other numbers metrics with the unit of their `KEY_UNITS`
/// line (latencies are in µs); text values are context.
fn keyval(
    src: &Source,
    line: u32,
    key: &str,
    value: &str,
    run: &mut Run,
    lines: &[crate::ingest::Line],
) -> Result<()> {
    let Some(v) = parse_number(value.trim()) else {
        return Ok(());
    };
    if !v.is_finite() {
        num(src, line, value, key)?;
    }
    if key.contains("SIZE") {
        run.params.set(&key.to_ascii_lowercase(), value.trim());
        return Ok(());
    }
    if key.contains("CONFIDENCE") {
        return Ok(());
    }
    let units_key = format!("{key}_UNITS=");
    let stated = lines
        .iter()
        .find_map(|l| l.text.trim_end().strip_prefix(units_key.as_str()));
    let metric = key.to_ascii_lowercase().replace('_', " ");
    let unit = match stated {
        Some(u) => canonical_unit(u, &metric),
        None if key.contains("LATENCY") => "us".into(),
        None => String::new(),
    };
    run.values.push((line, metric, unit, v));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;
    use crate::model::Stat;

    const DIR: &str = "tests/data/harness/netperf";

    /// (metric, unit, value) of every row, and the params of the first.
    fn read(file: &str) -> (Vec<(String, String, f64)>, String, Parsed) {
        let p = parse_file(&Netperf, &format!("{DIR}/{file}"));
        let rows = p
            .observations
            .iter()
            .map(|o| (o.metric.to_string(), o.unit.to_string(), o.value))
            .collect();
        let params = p.observations[0].params.to_string();
        (rows, params, p)
    }

    fn row(metric: &str, unit: &str, value: f64) -> (String, String, f64) {
        (metric.into(), unit.into(), value)
    }

    #[test]
    fn tcp_stream_gives_throughput_with_the_sizes_as_parameters() {
        let (rows, params, p) = read("tcp_stream-localhost-default.txt");
        assert_eq!(rows, [row("throughput", "Mbit/s", 2997.84)]);
        assert_eq!(
            params,
            "recv_socket_size=87380,send_message_size=16384,send_socket_size=16384"
        );
        assert_eq!(p.observations[0].benchmark, "TCP_STREAM");
        assert_eq!(p.observations[0].stat, Stat::Sample);
    }

    #[test]
    fn request_response_tests_give_the_rate_and_cpu_columns() {
        let (rows, params, _) = read("tcp_rr-default.txt");
        assert_eq!(rows, [row("transaction rate", "trans/s", 29150.15)]);
        assert!(params.contains("remote_socket_size_recv=87380"), "{params}");
        let (rows, _, p) = read("udp_rr-T1-cpu-c-C.txt");
        assert_eq!(p.observations[0].benchmark, "UDP_RR");
        assert_eq!(
            rows,
            [
                row("transaction rate", "trans/s", 15262.48),
                row("cpu util local", "%", 13.90),
                row("cpu util remote", "%", 16.11),
                row("service demand local", "us/trans", 18.221),
                row("service demand remote", "us/trans", 21.116),
            ]
        );
        let (rows, _, _) = read("tcp_crr-trailing-spaces.txt");
        assert_eq!(rows, [row("transaction rate", "trans/s", 76.17)]);
    }

    #[test]
    fn a_udp_stream_gives_the_sender_and_the_receiver() {
        let (rows, params, _) = read("udp_stream-m32768.txt");
        assert_eq!(
            rows,
            [
                row("messages okay", "", 105672.0),
                row("errors", "", 0.0),
                row("throughput", "Mbit/s", 2770.20),
                row("messages okay remote", "", 104844.0),
                row("throughput remote", "Mbit/s", 2748.50),
            ]
        );
        assert_eq!(
            params,
            "message_size=32768,remote_socket_size=135168,socket_size=124928"
        );
    }

    #[test]
    fn verbose_tables_histograms_and_interim_results_are_accounted() {
        let (rows, _, p) = read("tcp_rr-v2-histogram.txt");
        assert_eq!(rows, [row("transaction rate", "trans/s", 3538.82)]);
        assert!(p.skipped_reason(12).contains("alignment"));
        assert!(p.skipped_reason(14).contains("histogram"));
        assert!(p.skipped_reason(23).contains("histogram"));
        let (rows, _, _) = read("tcp_rr-v2-burst6-r32K-fm.txt");
        assert_eq!(rows[0], row("throughput", "Mbit/s", 1821.30));
        assert!(rows.contains(&row("round-trip latency", "us/trans", 2015.402)));
        assert!(rows.contains(&row("transaction rate", "trans/s", 3473.252)));
        let (rows, _, p) = read("tcp_stream-demo-D1.35-fM-interim.txt");
        assert_eq!(rows, [row("throughput", "MiB/s", 17.81)]);
        assert!(p.skipped_reason(2).contains("interim"));
        let (rows, _, p) = read("tcp_stream-confidence-i3-I99_5-warning.txt");
        assert_eq!(rows, [row("throughput", "Mbit/s", 40.23)]);
        assert!(p.consumed.contains(&6), "the warning is read");
    }

    #[test]
    fn omni_selectors_in_every_output_style() {
        for file in [
            "omni-rr-k-keyval.txt",
            "omni-rr-o-csv.txt",
            "omni-rr-O-human.txt",
        ] {
            let (rows, _, _) = read(file);
            assert_eq!(rows.len(), 1, "{file}");
            assert_eq!(
                (rows[0].0.as_str(), rows[0].1.as_str()),
                ("throughput", "trans/s")
            );
        }
        let (rows, _, p) = read("tcp_crr-o-latency-selectors.txt");
        assert_eq!(p.observations[0].benchmark, "TCP_CRR");
        assert_eq!(
            rows,
            [
                row("minimum latency", "us", 41.0),
                row("mean latency", "us", 56.63),
                row("maximum latency", "us", 848.0),
                row("stddev latency", "us", 11.14),
                row("transaction rate", "trans/s", 17730.719),
            ]
        );
    }

    #[test]
    fn a_wrapped_banner_and_csv_header_are_joined_again() {
        let (rows, _, p) = read("pkb-udp-rr-o-csv-wrapped-histogram.txt");
        assert_eq!(p.observations[0].benchmark, "UDP_RR");
        assert_eq!(
            rows,
            [
                row("throughput", "trans/s", 2217.06),
                row("50th percentile latency", "us", 442.0),
                row("90th percentile latency", "us", 487.0),
                row("99th percentile latency", "us", 589.0),
                row("stddev latency", "us", 81.26),
                row("minimum latency", "us", 361.0),
                row("maximum latency", "us", 9688.0),
            ]
        );
        assert!(p.consumed.contains(&2), "the banner's second line is read");
        assert!(p.skipped_reason(11).contains("histogram"));
        // A header of several lines whose fields do not add up is no CSV.
        assert_eq!(unwrap_csv_header(&["a,b", "c"], "1,2,3"), None);
        assert_eq!(
            unwrap_csv_header(&["Throughput,Mean", "Latency,Units"], "1,2,x").as_deref(),
            Some("Throughput,Mean Latency,Units")
        );
    }

    #[test]
    fn tests_of_a_shell_loop_stay_apart_and_a_failed_test_says_why() {
        let a = std::fs::read_to_string(format!("{DIR}/tcp_stream-localhost-default.txt")).unwrap();
        let b = std::fs::read_to_string(format!("{DIR}/tcp_rr-default.txt")).unwrap();
        let src = Source::from_text("loop.txt", &format!("{a}\n{b}\n{a}"));
        let p = Netperf.parse_accounted(&src).unwrap();
        let benches: Vec<&str> = p
            .observations
            .iter()
            .map(|o| o.benchmark.as_str())
            .collect();
        assert_eq!(benches, ["TCP_STREAM", "TCP_RR", "TCP_STREAM"]);
        let src = Source::read(std::path::Path::new(&format!(
            "{DIR}/udp_stream-msg-too-long-error.txt"
        )))
        .unwrap();
        let e = Netperf.parse_accounted(&src).unwrap_err().to_string();
        assert!(e.contains("Message too long"), "{e}");
    }

    #[test]
    fn tables_pasted_in_a_mail_without_banner_take_their_headings() {
        let p = parse_file(
            &Netperf,
            "tests/data/emails/2022b-net-mlx4-big-tcp-netperf-rr.txt",
        );
        let rates: Vec<(&str, f64)> = p
            .observations
            .iter()
            .filter(|o| o.metric == "transaction rate")
            .map(|o| (o.variant.as_str(), o.value))
            .collect();
        assert_eq!(
            rates,
            [
                ("Before: (not enabling bigger TSO/GRO packets)", 6591.45),
                ("After: (enabling bigger TSO/GRO packets)", 8383.95)
            ]
        );
        assert_eq!(p.observations[0].benchmark, "netperf");
        assert!(p.observations[0].params.contains("request_size=70000"));
        // A prose line naming netperf is not a command.
        assert!(!COMMAND.is_match("netperf header spans three lines (name, second word, unit)"));
        assert!(COMMAND.is_match("$ netperf -H 1.1.1.2 -t TCP_STREAM -l 5"));
        assert_eq!(
            &TEST_FLAG
                .captures("$ netperf -H 1.1.1.2 -t TCP_RR -l 5")
                .unwrap()[1],
            "TCP_RR"
        );
    }
}
