//! The BPF selftests' `bench` tool and its run scripts.
//!
//! - `./bench NAME` prints one line per second, `Iter   3 (  9.239us):
//!   hits    5.148M/s (  5.148M/prod), drops 0.000M/s, total operations
//!   5.148M/s`, then `Summary: hits    5.092 ± 0.228M/s (  5.092M/prod),
//!   drops    0.000 ±0.000M/s, …`, the mean and standard deviation of the
//!   iterations after the warm-up;
//! - the `run_bench_*.sh` scripts print one summary per benchmark: `htab
//!   lookup (1  thread)   5.062 ± 0.004M/s (drops 0.002 ± 0.000M/s mem
//!   8.125 MiB)`, the label then the hit rate.
//!
//! Benchmark: the script's label, or `bench` and the name on the command
//! line (`./bench trig-kprobe`) or in `Benchmark 'NAME' started.` above
//! the iterations; metrics the items of
//! a line (`hits`, `drops`, `total operations`, `mem`, `latency`), each
//! iteration a `sample` (with its run), a summary a `mean` and a `stddev`
//! (n is not printed). The warm-up iterations, which the summary leaves
//! out, are left out with the reason: as many as make the later ones'
//! mean the summary's (one, the tool's default, without a summary). The
//! per-producer rate in brackets restates the rate per producer thread and
//! is not read. The bracket after an iteration's index is its `drift`:
//! how far the iteration's length missed one second (`(delta_ns - 1e9) /
//! 1000`, us), a sample of the iteration like its rates. A line a quote
//! cut short (`hits 62.462M/s (62.462M/prod), [...]`) gives the items
//! before the cut.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};

lazy_re!(
    ITER,
    r"^Iter\s+(\d+)\s+\(\s*(-?[\d.]+)\s*([a-zµ]*s)\):\s+(.+)$"
);
lazy_re!(SUMMARY, r"^Summary:\s+(.+)$");
// A script's summary line: a label, then the rate with its spread.
lazy_re!(
    SCRIPT,
    r"^(\S.*?):?\s+(-?[\d.]+)\s*±\s*([\d.]+)\s*([KMG]?/s)\s*(?:\((.*)\))?\s*$"
);
// One item of a line: a name, a value, an optional `± sd`, a unit.
lazy_re!(
    ITEM,
    r"([A-Za-z_][A-Za-z_ ]*?)\s+(-?[\d.]+)\s*(?:±\s*([\d.]+))?\s*([KMG]?/s|[KMG]i?B|[a-z]+/op|ns|us|ms|%)?(?:\s|,|$)"
);
// `./bench -w1 -d6 trig-kprobe` at a line's start or after a prompt; the
// tool's own `Benchmark 'NAME' started.` names the same.
lazy_re!(
    COMMAND,
    r"^(?:\S*[$#]\s*)?(?:sudo\s+)?(?:\S*/)?bench\s+(?:-\S+\s+(?:\d\S*\s+)?)*([a-z][\w-]*)"
);
lazy_re!(STARTED, r"^Benchmark '([^']+)' started");

/// What a line of a bench log is to detection: an iteration report, a
/// summary with its spread, a script's summary line, or anything else.
enum LineKind {
    Iter,
    Summary,
    Script,
    Other,
}

fn line_kind(t: &str) -> LineKind {
    if t.starts_with("Iter") && ITER.is_match(t) {
        LineKind::Iter
    } else if t.starts_with("Summary:") && t.contains('±') {
        LineKind::Summary
    } else if t.contains('±') && SCRIPT.is_match(t) {
        LineKind::Script
    } else {
        LineKind::Other
    }
}

/// The bench importer.
pub struct BpfBench;

/// One item of a line: name, value, the `± spread` if given, unit.
type Item = (String, f64, Option<f64>, String);

/// Iterations not yet written: line, iteration, items.
type Pending = Vec<(u32, u32, Vec<Item>)>;

/// The items of a line without its bracketed per-producer rates.
fn items(text: &str) -> Vec<Item> {
    let mut plain = String::with_capacity(text.len());
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    bracket_items(&plain)
}

/// The items of `text` as they stand (`drops 0.002 ± 0.000M/s mem 8.125
/// MiB`, or a line's once its brackets are gone).
fn bracket_items(text: &str) -> Vec<Item> {
    ITEM.captures_iter(text)
        .filter_map(|c| {
            let name = c[1].trim().trim_start_matches(',').trim().to_string();
            let v = c[2].parse().ok()?;
            let sd = c.get(3).and_then(|m| m.as_str().parse().ok());
            let unit = c.get(4).map_or("", |m| m.as_str()).to_string();
            (!name.is_empty()).then_some((name, v, sd, unit))
        })
        .collect()
}

impl Format for BpfBench {
    fn name(&self) -> &'static str {
        "bpf-bench"
    }

    fn description(&self) -> &'static str {
        "the BPF selftests' bench: `Iter N (…us): hits 5.1M/s …` lines and `Summary: hits 5.09 ± 0.23M/s`, and the run scripts' `label  5.062 ± 0.004M/s (drops …)` lines"
    }

    /// The tool's own lines are telling; a script's summary lines look
    /// like any `label  value ± spread` table, and claim a file only when
    /// it holds no other row of numbers (a table the document reader is
    /// to read).
    fn detect(&self, src: &Source) -> Confidence {
        let kinds = || src.lines.iter().map(|l| line_kind(l.text.trim()));
        let (mut iters, mut summaries, mut script) = (0, 0, 0);
        for k in kinds() {
            match k {
                LineKind::Iter => iters += 1,
                LineKind::Summary => summaries += 1,
                LineKind::Script => script += 1,
                LineKind::Other => {}
            }
        }
        if iters >= 2 || summaries >= 1 && iters >= 1 {
            return 95;
        }
        // Lines of two numbers or more only rule out a script's summaries:
        // counted when there are some, every word of a text parsed else.
        let numbers = |t: &str| {
            t.split_whitespace()
                .filter(|w| crate::ingest::shared::numbers::parse_number(w).is_some())
                .count()
        };
        let other = || {
            src.lines
                .iter()
                .map(|l| l.text.trim())
                .any(|t| matches!(line_kind(t), LineKind::Other) && numbers(t) >= 2)
        };
        if script >= 2 && !other() {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let mut bench = "bench".to_string();
        // The iterations since the last summary: (line, index, items).
        let mut pending: Pending = Vec::new();
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            if let Some(c) = ITER.captures(t) {
                let k = c[1].parse().unwrap_or(0);
                let mut its = items(&c[4]);
                let drift = num(src, n, &c[2], "iteration drift")?;
                its.push(("drift".into(), drift, None, c[3].to_string()));
                pending.push((n, k, its));
            } else if let Some(c) = SUMMARY.captures(t) {
                let stated = items(&c[1]);
                flush(
                    src,
                    &bench,
                    &mut pending,
                    Some(&stated),
                    &mut out,
                    &mut skipped,
                );
                for (name, v, sd, unit) in stated {
                    let row = || Row::at(src, n).benchmark(&bench).metric(&name).unit(&unit);
                    out.push(row().stat(Stat::Mean, v));
                    if let Some(sd) = sd {
                        out.push(row().stat(Stat::Stddev, sd));
                    }
                }
            } else if let Some(c) = SCRIPT.captures(t).filter(|_| t.contains('±')) {
                let label = c[1].split_whitespace().collect::<Vec<_>>().join(" ");
                let v = num(src, n, &c[2], "rate")?;
                let sd = num(src, n, &c[3], "spread")?;
                let row = |metric: &str, unit: &str| {
                    Row::at(src, n).benchmark(&label).metric(metric).unit(unit)
                };
                out.push(row("hits", &c[4]).stat(Stat::Mean, v));
                out.push(row("hits", &c[4]).stat(Stat::Stddev, sd));
                for (name, v, sd, unit) in
                    c.get(5).map_or(Vec::new(), |m| bracket_items(m.as_str()))
                {
                    out.push(row(&name, &unit).stat(Stat::Mean, v));
                    if let Some(sd) = sd {
                        out.push(row(&name, &unit).stat(Stat::Stddev, sd));
                    }
                }
            } else if let Some(c) = COMMAND.captures(t).or_else(|| STARTED.captures(t)) {
                flush(src, &bench, &mut pending, None, &mut out, &mut skipped);
                bench = format!("bench {}", &c[1]);
                consumed.push(n);
            }
        }
        flush(src, &bench, &mut pending, None, &mut out, &mut skipped);
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no `Iter N (…): hits …`, `Summary:` or `label  X ± Y M/s` line",
        )
    }
}

/// The iterations in `pending` as samples, the warm-up ones left out: as
/// many as make the mean of the rest agree with the first `stated`
/// summary item, else one.
fn flush(
    src: &Source,
    bench: &str,
    pending: &mut Pending,
    stated: Option<&[Item]>,
    out: &mut Vec<Observation>,
    skipped: &mut Vec<(u32, String)>,
) {
    if pending.is_empty() {
        return;
    }
    let warmup = stated
        .and_then(|s| s.first())
        .and_then(|(name, mean, _, _)| {
            (0..pending.len().min(4)).find(|&w| {
                let rest: Vec<f64> = pending[w..]
                    .iter()
                    .filter_map(|(_, _, it)| it.iter().find(|i| &i.0 == name).map(|i| i.1))
                    .collect();
                !rest.is_empty() && agrees(*mean, rest.iter().sum::<f64>() / rest.len() as f64)
            })
        })
        .unwrap_or(1.min(pending.len() - 1));
    for (i, (n, k, items)) in pending.drain(..).enumerate() {
        if i < warmup {
            skipped.push((
                n,
                "a warm-up iteration, which the summary leaves out".into(),
            ));
            continue;
        }
        for (name, v, _, unit) in items {
            let o = Row::at(src, n)
                .benchmark(bench)
                .metric(&name)
                .unit(&unit)
                .sample(v);
            out.push(o.with_run(k));
        }
    }
}

/// Whether `stated` is `actual` to the digits it was printed with (its
/// shortest form: `5.092` is printed to thousandths).
fn agrees(stated: f64, actual: f64) -> bool {
    let text = format!("{stated}");
    let decimals = text.split_once('.').map_or(0, |(_, d)| d.len()) as i32;
    (stated - actual).abs() <= 0.5 * 10f64.powi(-decimals) + 1e-9
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterations_are_samples_after_the_warm_up_and_the_summary_is_stated() {
        let text = "$ sudo ./bench -w1 -d6 trig-kprobe\n\
            Iter   0 (325.719us): hits    5.105M/s (  5.105M/prod), drops 0.000M/s, total operations    5.105M/s\n\
            Iter   1 (-17.295us): hits    5.224M/s (  5.224M/prod), drops 0.000M/s, total operations    5.224M/s\n\
            Iter   2 (  5.504us): hits    4.630M/s (  4.630M/prod), drops 0.000M/s, total operations    4.630M/s\n\
            Iter   3 (  9.239us): hits    5.148M/s (  5.148M/prod), drops 0.000M/s, total operations    5.148M/s\n\
            Iter   4 ( 37.885us): hits    5.198M/s (  5.198M/prod), drops 0.000M/s, total operations    5.198M/s\n\
            Iter   5 (-53.282us): hits    5.167M/s (  5.167M/prod), drops 0.000M/s, total operations    5.167M/s\n\
            Iter   6 (-17.809us): hits    5.186M/s (  5.186M/prod), drops 0.000M/s, total operations    5.186M/s\n\
            Summary: hits    5.092 ± 0.228M/s (  5.092M/prod), drops    0.000 ±0.000M/s, total operations    5.092 ± 0.228M/s\n";
        let src = Source::from_text("bench.txt", text);
        assert_eq!(BpfBench.detect(&src), 95);
        let p = BpfBench.parse_accounted(&src).unwrap();
        let hits: Vec<f64> = p
            .observations
            .iter()
            .filter(|o| o.metric == "hits" && o.stat == Stat::Sample)
            .map(|o| o.value)
            .collect();
        assert_eq!(hits, [5.224, 4.630, 5.148, 5.198, 5.167, 5.186]);
        assert_eq!(p.skipped.len(), 1);
        assert!(p
            .observations
            .iter()
            .all(|o| o.benchmark == "bench trig-kprobe"));
        let mean = p
            .observations
            .iter()
            .find(|o| o.metric == "total operations" && o.stat == Stat::Mean)
            .unwrap();
        assert_eq!((mean.value, mean.unit.as_str()), (5.092, "M/s"));
        assert!(p.observations.iter().all(|o| !o.metric.contains("prod")));
    }

    #[test]
    fn iterations_cut_short_by_a_quote_give_their_rate_drift_and_index() {
        // The bot's quote of a commit message, each line cut after the
        // per-producer rate.
        let text = "> ./bench trig-kprobe-multi\n\
            > Setting up benchmark 'trig-kprobe-multi'...\n\
            > Benchmark 'trig-kprobe-multi' started.\n\
            > Iter   0 ( 95.485us): hits   62.462M/s ( 62.462M/prod), [...]\n\
            > Iter   1 (-80.054us): hits   62.486M/s ( 62.486M/prod), [...]\n\
            > Iter   2 ( 13.572us): hits   62.287M/s ( 62.287M/prod), [...]\n\
            > Summary: hits   62.338 ± 0.083M/s ( 62.338M/prod)\n";
        let p = BpfBench
            .parse_accounted(&Source::from_text("q.txt", text))
            .unwrap();
        let got: Vec<_> = p
            .observations
            .iter()
            .filter(|o| o.stat == Stat::Sample)
            .map(|o| (o.run, o.metric.as_str(), o.value, o.unit.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (Some(1), "hits", 62.486, "M/s"),
                (Some(1), "drift", -80.054, "us"),
                (Some(2), "hits", 62.287, "M/s"),
                (Some(2), "drift", 13.572, "us"),
            ]
        );
        // Iteration 0 is the warm-up the summary leaves out, drift and all.
        assert_eq!(p.skipped.len(), 1);
    }

    #[test]
    fn a_run_script_s_lines_give_each_benchmark_its_rate_and_extras() {
        let text = "htab lookup      (1  thread)    5.062 ± 0.004M/s (drops 0.002 ± 0.000M/s mem 8.125 MiB)\n\
                    no-private-stack-1:  2.152 ± 0.004M/s (drops 0.000 ± 0.000M/s)\n";
        let src = Source::from_text("run.txt", text);
        let obs = BpfBench.parse(&src).unwrap();
        let got: Vec<(&str, &str, Stat, f64, &str)> = obs
            .iter()
            .map(|o| {
                (
                    o.benchmark.as_str(),
                    o.metric.as_str(),
                    o.stat,
                    o.value,
                    o.unit.as_str(),
                )
            })
            .collect();
        assert!(got.contains(&("htab lookup (1 thread)", "hits", Stat::Mean, 5.062, "M/s")));
        assert!(got.contains(&("htab lookup (1 thread)", "hits", Stat::Stddev, 0.004, "M/s")));
        assert!(got.contains(&("htab lookup (1 thread)", "drops", Stat::Mean, 0.002, "M/s")));
        assert!(got.contains(&("htab lookup (1 thread)", "mem", Stat::Mean, 8.125, "MiB")));
        assert!(got.contains(&("no-private-stack-1", "hits", Stat::Mean, 2.152, "M/s")));
    }
}
