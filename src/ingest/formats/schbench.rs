//! schbench (all output on stderr). Percentile blocks repeat every reporting
//! interval and the **last** block of each kind holds the totals of the run,
//! so only the last `Wakeup Latencies`, `Request Latencies` (or old
//! `Latency percentiles`) block is read, plus the last `average rps:`.
//! `average rps:` ends a run: a file of several runs (a shell loop, several
//! instances one after another) gives each run's totals, one run each.
//!
//! Metrics, each a `sample` of the run (µs): `wakeup latency p50/p90/p99/
//! p99.9`, `wakeup latency min/max`, the same for `request latency`, old
//! `latency pNN`, and `rps` from `average rps:`. The `(N samples)` column
//! counts events per bucket, not replicates, and is not read. The `RPS
//! percentiles` block is a distribution of one-second rates inside the run
//! and is summarised by `average rps` instead.

use crate::error::Result;
use crate::ingest::shared::lkp_wrapper;
use crate::ingest::shared::logscan::{any_with, lazy_re, num};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(
    BLOCK,
    r"^(Wakeup Latencies|Request Latencies|RPS|Latency) percentiles \((\w+)\)"
);
lazy_re!(PCT, r"^\s*\*?\s*(\d+(?:\.\d+)?)th:\s+(\d+)");
lazy_re!(
    PCT_COLUMNS,
    r"^\s*\*?\s*(\d+(?:\.\d+)?)th:((?:\s+\d+)+)\s*$"
);
lazy_re!(MINMAX, r"^\s*min=(\d+), max=(\d+)");
lazy_re!(AVG_RPS, r"^average rps: ([\d.]+)");
lazy_re!(CURRENT_RPS, r"^current rps: [\d.]+");
lazy_re!(
    SCHED_DELAY,
    r"^sched delay: message \d+ \(usec\) worker \d+ \(usec\)"
);
// A schbench command line, after any prompt.
lazy_re!(COMMAND, r"(?:^|[\s/$#>])schbench\s+-");

/// The schbench importer.
pub struct Schbench;

/// One percentile block: name, and its (metric suffix, value, line,
/// column) rows; `columns` names the columns of a table pasted with one
/// column per kernel (`base  base+patch` above the percentile rows).
struct Block {
    kind: String,
    rows: Vec<(String, String, u32, Option<String>)>,
    columns: Vec<String>,
}

impl Format for Schbench {
    fn name(&self) -> &'static str {
        "schbench"
    }

    fn description(&self) -> &'static str {
        "schbench (stderr): `Wakeup|Request Latencies percentiles (usec)` blocks, last one wins; `average rps:`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let latency = src.lines.iter().any(|l| {
            let t = l.text.as_str();
            t.starts_with("Wakeup Latencies percentiles")
                || t.starts_with("Request Latencies percentiles")
                || t.starts_with("Latency percentiles (usec)")
        });
        if latency {
            95
        } else if any_with(src, "average rps: ", &AVG_RPS) {
            60
        } else {
            0
        }
    }

    /// Block headers are `consumed`; rows of earlier interval reports, of
    /// the `RPS percentiles` block and `current rps:` lines are `skipped`
    /// with the reason.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let lines = &src.lines;
        let mut ends: Vec<usize> = lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.text.starts_with("average rps: "))
            .map(|(i, _)| i + 1)
            .collect();
        // In a mail each run's blocks stand under a heading or a command
        // line of their own (`Without patch:`, `~/schbench -t 2 -m 2`, its
        // percentiles, then `With patch:` …): such lines above a block end
        // the run before it. A heading is set apart by a blank line;
        // schbench's own lines (`warmup done, zeroing stats`, `sched
        // delay: …`, `current rps:`) follow on without one.
        let mut seen_values = false;
        let mut headed = false;
        for (b, l) in lines.iter().enumerate() {
            seen_values |= PCT.is_match(&l.text);
            if !seen_values || !BLOCK.is_match(l.text.trim_start()) {
                continue;
            }
            let Some(j) = (0..b).rev().find(|&j| !lines[j].text.trim().is_empty()) else {
                continue;
            };
            let text = &lines[j].text;
            let apart = j == 0 || lines[j - 1].text.trim().is_empty();
            if !is_heading(text) || !(apart || COMMAND.is_match(text)) {
                continue;
            }
            // The heading over a command line opens the run with it.
            let mut k = j;
            while k > 0 && is_heading(&lines[k - 1].text) {
                k -= 1;
            }
            if !ends.contains(&k) {
                ends.push(k);
                (seen_values, headed) = (false, true);
            }
        }
        ends.sort_unstable();
        if ends.len() < 2 && !headed {
            return parse_run(src);
        }
        let mut all = Parsed::default();
        let mut from = 0;
        for to in ends.iter().copied().chain([src.lines.len()]) {
            let lines = src.lines[from..to].to_vec();
            from = to;
            let has_values = lines
                .iter()
                .any(|l| PCT.is_match(&l.text) || AVG_RPS.is_match(&l.text));
            if !has_values {
                // What follows the last run (a last `sched delay:` line)
                // or precedes the first (LKP's wrapper) is accounted.
                all.skipped.extend(
                    lines.iter().filter_map(|l| {
                        frame_reason(&l.text).map(|why| (l.number, why.to_string()))
                    }),
                );
                continue;
            }
            let run = parse_run(&Source::from_lines(&src.path, lines))?;
            all.observations.extend(run.observations);
            all.consumed.extend(run.consumed);
            all.skipped.extend(run.skipped);
        }
        Ok(all)
    }
}

/// Whether `t` is a heading line a writer put above a run's blocks: text
/// that is none of schbench's own lines.
fn is_heading(t: &str) -> bool {
    let t = t.trim();
    !t.is_empty()
        && t.chars().any(char::is_alphabetic)
        && !BLOCK.is_match(t)
        && !PCT.is_match(t)
        && !MINMAX.is_match(t)
        && !AVG_RPS.is_match(t)
        && !CURRENT_RPS.is_match(t)
        && !SCHED_DELAY.is_match(t)
}

/// Why `t` gives no value of the run although it holds numbers: a line
/// of LKP's wrapper, or an older schbench's scheduling delays of one
/// reporting interval; `None` for any other line.
fn frame_reason(t: &str) -> Option<&'static str> {
    if SCHED_DELAY.is_match(t) {
        Some("scheduling delays of one reporting interval (older schbench), not the run's totals")
    } else {
        lkp_wrapper::reason(t, "schbench")
    }
}

/// Whether `t` names the columns of a pasted percentile table: two or
/// more words, none of them a number, no `key:`.
fn is_column_header(t: &str) -> bool {
    let words: Vec<&str> = t.split_whitespace().collect();
    words.len() >= 2
        && !t.contains(':')
        && words
            .iter()
            .all(|w| crate::ingest::shared::numbers::parse_number(w).is_none())
}

/// Reads one run of schbench: its last block of each kind and its
/// `average rps`.
fn parse_run(src: &Source) -> Result<Parsed> {
    {
        let mut consumed = Vec::new();
        let mut skipped: Vec<(u32, String)> = Vec::new();
        // Every block row seen: (line, kind of its block).
        let mut seen: Vec<(u32, String)> = Vec::new();
        // Last complete block per kind.
        let mut last: Vec<Block> = Vec::new();
        let mut current: Option<Block> = None;
        let mut rps: Option<(String, u32)> = None;
        let close = |current: &mut Option<Block>, last: &mut Vec<Block>| {
            if let Some(b) = current.take() {
                last.retain(|x| x.kind != b.kind);
                last.push(b);
            }
        };
        for l in &src.lines {
            let t = l.text.as_str();
            if let Some(c) = BLOCK.captures(t) {
                close(&mut current, &mut last);
                let kind = match &c[1] {
                    "Wakeup Latencies" => "wakeup latency",
                    "Request Latencies" => "request latency",
                    "RPS" => "rps",
                    _ => "latency",
                };
                current = Some(Block {
                    kind: kind.to_string(),
                    rows: Vec::new(),
                    columns: Vec::new(),
                });
                consumed.push(l.number);
            } else if let Some(b) = current
                .as_mut()
                .filter(|b| b.rows.is_empty() && is_column_header(t))
            {
                b.columns = t.split_whitespace().map(str::to_string).collect();
                consumed.push(l.number);
            } else if let Some(c) = PCT.captures(t) {
                match current.as_mut() {
                    Some(b) => {
                        seen.push((l.number, b.kind.clone()));
                        let stat = format!("p{}", trim_pct(&c[1]));
                        let values: Vec<String> = PCT_COLUMNS
                            .captures(t)
                            .map(|m| m[2].split_whitespace().map(str::to_string).collect())
                            .unwrap_or_default();
                        if !b.columns.is_empty() && values.len() == b.columns.len() {
                            for (v, column) in values.into_iter().zip(b.columns.clone()) {
                                b.rows.push((stat.clone(), v, l.number, Some(column)));
                            }
                        } else {
                            b.rows.push((stat, c[2].to_string(), l.number, None))
                        }
                    }
                    // A block's title lost (a line cut or overwritten by a
                    // carriage return): its lines are accounted, and the
                    // rest of the file still read.
                    None => skipped.push((
                        l.number,
                        "a percentile line outside a percentiles block".to_string(),
                    )),
                }
            } else if let Some(c) = MINMAX.captures(t) {
                if let Some(b) = current.as_mut() {
                    seen.push((l.number, b.kind.clone()));
                    b.rows
                        .push(("min".into(), c[1].to_string(), l.number, None));
                    b.rows
                        .push(("max".into(), c[2].to_string(), l.number, None));
                } else {
                    let why = "a min/max line outside a percentiles block";
                    skipped.push((l.number, why.to_string()));
                }
                close(&mut current, &mut last);
            } else if let Some(c) = AVG_RPS.captures(t) {
                close(&mut current, &mut last);
                rps = Some((c[1].to_string(), l.number));
            } else if let Some(why) = frame_reason(t) {
                close(&mut current, &mut last);
                skipped.push((l.number, why.to_string()));
            } else if CURRENT_RPS.is_match(t) {
                close(&mut current, &mut last);
                let why = "rate of one reporting interval; the run's `average rps` is read";
                skipped.push((l.number, why.to_string()));
            } else if !t.starts_with('\t') && !t.starts_with(' ') {
                close(&mut current, &mut last);
            }
        }
        close(&mut current, &mut last);
        let read: Vec<u32> = last
            .iter()
            .filter(|b| b.kind != "rps")
            .flat_map(|b| b.rows.iter().map(|r| r.2))
            .collect();
        for (line, kind) in seen {
            if read.contains(&line) {
                continue;
            }
            let why = if kind == "rps" {
                "distribution of one-second rates, summarised by `average rps`"
            } else {
                "an interval report; the last block of its kind holds the run's totals"
            };
            skipped.push((line, why.to_string()));
        }
        skipped.sort_by_key(|s| s.0);
        let mut out = Vec::new();
        for b in last.iter().filter(|b| b.kind != "rps") {
            for (stat, v, line, column) in &b.rows {
                let metric = format!("{} {stat}", b.kind);
                let v = num(src, *line, v, &metric)?;
                let mut o = Row::at(src, *line)
                    .benchmark("schbench")
                    .metric(&metric)
                    .unit("us")
                    .sample(v);
                if let Some(c) = column {
                    o.variant = c.as_str().into();
                }
                out.push(o);
            }
        }
        if let Some((v, line)) = rps {
            let v = num(src, line, &v, "average rps")?;
            out.push(
                Row::at(src, line)
                    .benchmark("schbench")
                    .metric("rps")
                    .unit("req/s")
                    .sample(v),
            );
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no schbench percentile block or `average rps:` found",
        )
    }
}

/// `99.0` → `99`, `99.9000` → `99.9`, as percentile names are written.
fn trim_pct(p: &str) -> String {
    if p.contains('.') {
        p.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        p.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_runs_in_one_file_give_both() {
        let path = "tests/data/harness/schbench/two-instances-m1-m2.txt";
        let p = crate::ingest::parse_file(&Schbench, path);
        let rps: Vec<(u32, f64)> = p
            .observations
            .iter()
            .filter(|o| o.metric == "rps")
            .map(|o| (o.line, o.value))
            .collect();
        assert_eq!(rps, vec![(18, 81.33), (37, 85.33)]);
        let p99: Vec<u32> = p
            .observations
            .iter()
            .filter(|o| o.metric == "wakeup latency p99")
            .map(|o| o.line)
            .collect();
        assert_eq!(p99.len(), 2);
        assert!(p99[0] < 18 && p99[1] > 18);
    }

    #[test]
    fn interval_reports_and_the_rps_distribution_are_skipped() {
        let path = "tests/data/logs/schbench-lkp.txt";
        let p = crate::ingest::parse_file(&Schbench, path);
        assert!(p
            .skipped_reason(12)
            .starts_with("rate of one reporting interval"));
        assert!(p
            .skipped_reason(15)
            .starts_with("distribution of one-second rates"));
        assert!(p.consumed.contains(&2) && p.consumed.contains(&14));
        // `average rps` (line 19) is the value.
        assert!(p
            .observations
            .iter()
            .any(|o| o.metric == "rps" && o.line == 19));
    }

    /// A carriage return inside a block's first line (a terminal capture)
    /// leaves its lines without their block: they are accounted, and the
    /// blocks around them still read. Found by the mutation property test.
    #[test]
    fn lines_cut_from_their_block_are_accounted_and_the_rest_read() {
        let text = std::fs::read_to_string("tests/data/logs/schbench-lkp.txt").unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        lines[8].insert(40, '\r');
        let src = Source::from_text("cut.txt", &lines.join("\n"));
        let p = Schbench.parse_accounted(&src).unwrap();
        assert!(p.skipped_reason(10).contains("outside a percentiles block"));
        assert!(p.skipped_reason(11).contains("outside a percentiles block"));
        assert!(p
            .observations
            .iter()
            .any(|o| o.metric == "wakeup latency p99" && o.line == 5));
        assert!(p.observations.iter().any(|o| o.metric == "rps"));
    }

    #[test]
    fn a_pasted_table_of_three_kernels_gives_a_column_each() {
        let p = crate::ingest::parse_file(
            &Schbench,
            "tests/data/emails/2022b-sched-ttwu-pending-schbench-quoted.txt",
        );
        let p99: Vec<(&str, f64)> = p
            .observations
            .iter()
            .filter(|o| o.metric == "latency p99")
            .map(|o| (o.variant.as_str(), o.value))
            .collect();
        assert_eq!(
            p99,
            [
                ("base", 27.0),
                ("base+revert_f3dd3f674555", 31.0),
                ("base+this_patch", 24.0)
            ]
        );
    }
}
