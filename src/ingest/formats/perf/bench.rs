//! `perf bench` output (tools/perf/bench): sched messaging and pipe, futex
//! hash / wake / wake-parallel / requeue / lock-pi, epoll wait, mem memcpy and
//! memset. Several runs concatenated in one file are read in order, each
//! `# Running '…' benchmark:` header starting a new run.
//!
//! What becomes what:
//! - `Total time: X [sec]` of sched messaging → `time` (s), one sample per run;
//! - sched pipe → `latency` (us/op) only: `Total time` and `ops/sec` are
//!   derived from the same measurement and would double-count it;
//! - futex hash, lock-pi, epoll wait: each `[thread k] … [ X ops/sec ]` line is
//!   a sample of per-thread `throughput`; `Averaged X operations/sec (+- y%)`
//!   is their stated mean with perf's `+-`, the relative *standard error*
//!   (n = threads), so stderr and n are emitted too (the SD, SEM·√n, only
//!   where no thread line is printed: the samples carry it otherwise). The
//!   threads of one invocation ran concurrently: they are not independent
//!   runs, which a reader of a comparison with few invocations should know;
//! - futex wake / requeue / wake-parallel: `[Run k]` lines are samples of
//!   `latency` (ms); the closing line is their stated mean, SEM and n (runs);
//! - mem: one benchmark per function (`function=`), `bandwidth` in GiB/s
//!   (perf's `GB/sec` is 1024³ bytes; other scales are converted), or
//!   `cycles/byte` with `-c`;
//! - the trailing `Futex hashing: …` line of newer kernels is configuration,
//!   never a result.
//!
//! `perf bench -f simple` prints bare numbers with no header; forced with
//! `--format perf-bench` they are read for the benchmark named in the file
//! name (`perf_bench_sched_pipe-…`), since nothing else says what they are.

use crate::error::Result;
use crate::ingest::shared::logscan::{
    any_with, drop_derived_sd, lazy_re, mean_with_sem, num, Params,
};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::rescale;
use crate::model::Observation;
use regex::Regex;
use std::sync::LazyLock;

// `perf bench <coll> <bench>` prints the quoted form; `perf bench all`
// announces each benchmark with `# Running sched/messaging benchmark...`.
lazy_re!(
    RUNNING,
    r"^# Running '?([\w-]+)/([\w-]+)'? benchmark(?::|\.\.\.)"
);
lazy_re!(
    MSG_HDR,
    r"^# (\d+) sender and receiver (processes|threads) per group"
);
lazy_re!(
    MSG_GROUPS,
    r"^# (\d+) groups == (\d+) (processes|threads) run"
);
lazy_re!(TOTAL_TIME, r"^\s*Total time:\s*([\d.]+) \[sec\]");
lazy_re!(
    PIPE_HDR,
    r"^# Executed (\d+) pipe operations between two (processes|threads)"
);
lazy_re!(USECS_OP, r"^\s*([\d.]+) usecs/op\s*$");
lazy_re!(OPS_SEC, r"^\s*\d+ ops/sec\s*$");
lazy_re!(
    HASH_SUMMARY,
    r"^Run summary \[PID \d+\]: (\d+) threads, each operating on (\d+) \[(\w+)\] futex(?:es)? for (\d+) secs"
);
lazy_re!(
    LOCKPI_SUMMARY,
    r"^Run summary \[PID \d+\]: (\d+) threads doing pi lock/unlock pairing for (\d+) secs"
);
lazy_re!(
    EPOLL_SUMMARY,
    r"^Run summary \[PID \d+\]: (\d+) threads monitoring( \(EPOLLONESHOT semantics\))? on (\d+) file-descriptors for (\d+) secs"
);
lazy_re!(
    WAKE_SUMMARY,
    r"^Run summary \[PID \d+\]: blocking on (\d+) threads \(at \[(\w+)\] futex [^)]*\), (?:(\d+) threads )?waking up (\d+) at a time"
);
lazy_re!(
    REQUEUE_SUMMARY,
    r"^Run summary \[PID \d+\]: Requeuing (\d+) threads \(from \[(\w+)\][^)]*\), (\d+) at a time"
);
lazy_re!(
    THREAD_OPS,
    r"^\[thread\s*(\d+)\].*\[\s*(\d+) ops/sec\s*\]\s*$"
);
lazy_re!(
    AVERAGED,
    r"^Averaged (\d+) operations/sec \(\+-\s*([\d.]+)%\), total secs = (\d+)"
);
lazy_re!(
    RUN_LAT,
    r"^\[Run (\d+)\]: (?:Wokeup|Requeued|Awoke and Requeued) \d+ of \d+ threads in ([\d.]+) ms"
);
lazy_re!(
    FINAL_LAT,
    r"^(?:Wokeup|Requeued|Awoke and Requeued) \d+ of \d+ threads in ([\d.]+) ms \(\+-\s*([\d.]+)%\)"
);
lazy_re!(
    RUN_PAR,
    r"^\[Run (\d+)\]: Avg per-thread latency \(waking (\d+)/(\d+) threads\) in ([\d.]+) ms"
);
lazy_re!(
    FINAL_PAR,
    r"^Avg per-thread latency \(waking (\d+)/(\d+) threads\) in ([\d.]+) ms \(\+-\s*([\d.]+)%\)"
);
lazy_re!(MEM_FUNC, r"^# function '([^']+)' \((.*)\)\s*$");
lazy_re!(MEM_SIZE, r"^# Copying (\S+) bytes \.\.\.");
lazy_re!(MEM_BPS, r"^\s*([\d.]+)d? (bytes|KB|MB|GB)/sec\s*$");
lazy_re!(MEM_CYCLES, r"^\s*([\d.]+) cycles/byte\s*$");
lazy_re!(FUTEX_HASHING, r"^Futex hashing:");
lazy_re!(BARE, r"^\s*(\d+(?:\.\d+)?)\s*$");

/// The `perf bench` importer.
pub struct PerfBench;

/// Which benchmark a block of output belongs to.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Messaging,
    Pipe,
    Hash,
    LockPi,
    Epoll,
    Wake,
    WakeParallel,
    Requeue,
    Memcpy,
    Memset,
    Unknown,
}

impl Kind {
    fn from_header(collection: &str, bench: &str) -> Kind {
        match (collection, bench) {
            ("sched", "messaging") => Kind::Messaging,
            ("sched", "pipe") => Kind::Pipe,
            ("futex", "hash") => Kind::Hash,
            ("futex", "lock-pi") => Kind::LockPi,
            ("futex", "wake") => Kind::Wake,
            ("futex", "wake-parallel") => Kind::WakeParallel,
            ("futex", "requeue") => Kind::Requeue,
            ("epoll", "wait") => Kind::Epoll,
            ("mem", "memcpy") => Kind::Memcpy,
            ("mem", "memset") => Kind::Memset,
            _ => Kind::Unknown,
        }
    }

    /// Guesses the benchmark of `-f simple` output from the file name.
    fn from_file_name(name: &str) -> Kind {
        let n = name.to_ascii_lowercase().replace('-', "_");
        let table = [
            ("sched_messaging", Kind::Messaging),
            ("messaging", Kind::Messaging),
            ("sched_pipe", Kind::Pipe),
            ("mem_memcpy", Kind::Memcpy),
            ("memcpy", Kind::Memcpy),
            ("mem_memset", Kind::Memset),
            ("memset", Kind::Memset),
        ];
        table
            .iter()
            .find(|(k, _)| n.contains(k))
            .map(|(_, kind)| *kind)
            .unwrap_or(Kind::Unknown)
    }

    fn benchmark(self) -> &'static str {
        match self {
            Kind::Messaging => "perf bench sched messaging",
            Kind::Pipe => "perf bench sched pipe",
            Kind::Hash => "perf bench futex hash",
            Kind::LockPi => "perf bench futex lock-pi",
            Kind::Epoll => "perf bench epoll wait",
            Kind::Wake => "perf bench futex wake",
            Kind::WakeParallel => "perf bench futex wake-parallel",
            Kind::Requeue => "perf bench futex requeue",
            Kind::Memcpy => "perf bench mem memcpy",
            Kind::Memset => "perf bench mem memset",
            Kind::Unknown => "perf bench",
        }
    }
}

/// Reading state of one run (one benchmark header and what follows).
struct Run {
    kind: Kind,
    params: Params,
    /// Samples of the current run, for n of the closing summary line.
    samples: usize,
    /// Line of the header, for truncation errors.
    start: u32,
    /// Whether the run produced its result.
    done: bool,
}

impl Run {
    fn new(kind: Kind, start: u32) -> Run {
        Run {
            kind,
            params: Params::default(),
            samples: 0,
            start,
            done: false,
        }
    }
}

/// The literals of [`PerfBench::detect`]'s signatures: no signature
/// matches a line without one of them.
const LITERALS: [&str; 9] = [
    "# Running ",
    " sender and receiver ",
    "# Executed ",
    "Run summary [PID ",
    "Averaged ",
    " threads in ",
    "Avg per-thread latency (waking ",
    "# function '",
    "# Copying ",
];

/// Any of [`LITERALS`], found in one pass.
static ANY_LITERAL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&LITERALS.map(regex::escape).join("|")).expect("static regex"));

/// The detection score, given whether a signature (a literal that every
/// match of its regex contains, and the regex) matches some line. A regex
/// is compiled only for input that has its literal.
fn score(matches: impl Fn(&str, &LazyLock<Regex>) -> bool) -> Confidence {
    if matches("# Running ", &RUNNING) {
        return 95;
    }
    let strong: [(&str, &LazyLock<Regex>); 11] = [
        (" sender and receiver ", &MSG_HDR),
        ("# Executed ", &PIPE_HDR),
        ("Run summary [PID ", &HASH_SUMMARY),
        ("Run summary [PID ", &LOCKPI_SUMMARY),
        ("Run summary [PID ", &EPOLL_SUMMARY),
        ("Run summary [PID ", &WAKE_SUMMARY),
        ("Run summary [PID ", &REQUEUE_SUMMARY),
        ("Averaged ", &AVERAGED),
        (" threads in ", &FINAL_LAT),
        ("Avg per-thread latency (waking ", &FINAL_PAR),
        ("Avg per-thread latency (waking ", &RUN_PAR),
    ];
    if strong.iter().any(|(lit, re)| matches(lit, re)) {
        return 85;
    }
    if matches("# function '", &MEM_FUNC) && matches("# Copying ", &MEM_SIZE) {
        return 85;
    }
    0
}

impl Format for PerfBench {
    fn name(&self) -> &'static str {
        "perf-bench"
    }

    fn description(&self) -> &'static str {
        "perf bench sched/futex/epoll/mem text output: `# Running 'sched/pipe' benchmark:` header, \
         or futex `Run summary [PID n]:` / `Averaged … operations/sec`, `Wokeup … threads in`, \
         `# function '…'` + `# Copying … bytes` lines"
    }

    fn detect(&self, src: &Source) -> Confidence {
        // Every signature needs its literal on one line, and no literal
        // holds a line break: one search of the joined lines per literal
        // tells which signatures can match at all, instead of a search of
        // every line per signature.
        let copy;
        let text = match src.joined() {
            Some(t) => t,
            None => {
                copy = src.text();
                &copy
            }
        };
        // Most text has none of them: one multi-literal scan says so.
        if !ANY_LITERAL.is_match(text) {
            return 0;
        }
        let present =
            |literal: &str| memchr::memmem::find(text.as_bytes(), literal.as_bytes()).is_some();
        score(|literal, re| present(literal) && any_with(src, literal, re))
    }

    /// Header and parameter lines are `consumed`; the derived sched pipe
    /// figures and the `Futex hashing:` configuration line are `skipped`.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut consumed = Vec::new();
        let mut skipped = Vec::new();
        let first = src.lines.first().map(|l| l.number).unwrap_or(1);
        let mut run = Run::new(Kind::Unknown, first);
        for l in &src.lines {
            let t = l.text.as_str();
            let n = l.number;
            if let Some(c) = RUNNING.captures(t) {
                let kind = Kind::from_header(&c[1], &c[2]);
                // The same benchmark announced twice in a row (both header
                // forms) is one run.
                if kind != run.kind || run.done {
                    finish(src, &run)?;
                    run = Run::new(kind, n);
                }
                consumed.push(n);
                continue;
            }
            if FUTEX_HASHING.is_match(t) {
                skipped.push((n, "futex hash table configuration, not a result".into()));
                continue;
            }
            if OPS_SEC.is_match(t) {
                skipped.push((n, "ops/sec is the reciprocal of usecs/op (read)".into()));
                continue;
            }
            // A recognised line that gave no value and was not skipped is
            // context (a header or parameter line).
            let mut matched = true;
            let (values_before, skipped_before) = (out.len(), skipped.len());
            if let Some(c) = MSG_HDR.captures(t) {
                run.kind = Kind::Messaging;
                run.params.set("fds", &c[1]);
                run.params.set("mode", &c[2]);
            } else if let Some(c) = MSG_GROUPS.captures(t) {
                run.kind = Kind::Messaging;
                run.params.set("groups", &c[1]);
                run.params.set("mode", &c[3]);
            } else if let Some(c) = TOTAL_TIME.captures(t) {
                // Sched pipe prints it too; there the per-op latency is read.
                if run.kind != Kind::Pipe {
                    let v = num(src, n, &c[1], "total time")?;
                    run.kind = if run.kind == Kind::Unknown {
                        Kind::Messaging
                    } else {
                        run.kind
                    };
                    push_sample(&mut out, src, &mut run, n, "time", "s", v);
                } else {
                    skipped.push((n, "total time of all pipe operations, usecs/op read".into()));
                }
            } else if let Some(c) = PIPE_HDR.captures(t) {
                run.kind = Kind::Pipe;
                run.params.set("loops", &c[1]);
                run.params.set("mode", &c[2]);
            } else if let Some(c) = USECS_OP.captures(t) {
                run.kind = Kind::Pipe;
                let v = num(src, n, &c[1], "usecs/op")?;
                push_sample(&mut out, src, &mut run, n, "latency", "us/op", v);
            } else if let Some(c) = HASH_SUMMARY.captures(t) {
                run.kind = Kind::Hash;
                run.params.set("threads", &c[1]);
                run.params.set("futexes", &c[2]);
                run.params.set("scope", &c[3]);
                run.params.set("runtime", format!("{}s", &c[4]));
            } else if let Some(c) = LOCKPI_SUMMARY.captures(t) {
                run.kind = Kind::LockPi;
                run.params.set("threads", &c[1]);
                run.params.set("runtime", format!("{}s", &c[2]));
            } else if let Some(c) = EPOLL_SUMMARY.captures(t) {
                run.kind = Kind::Epoll;
                run.params.set("threads", &c[1]);
                if c.get(2).is_some() {
                    run.params.set("oneshot", "yes");
                }
                run.params.set("fds", &c[3]);
                run.params.set("runtime", format!("{}s", &c[4]));
            } else if let Some(c) = WAKE_SUMMARY.captures(t) {
                run.params.set("threads", &c[1]);
                run.params.set("scope", &c[2]);
                run.params.set("nwake", &c[4]);
                if let Some(w) = c.get(3) {
                    run.kind = Kind::WakeParallel;
                    run.params.set("wakers", w.as_str());
                } else if run.kind != Kind::WakeParallel {
                    run.kind = Kind::Wake;
                }
            } else if let Some(c) = REQUEUE_SUMMARY.captures(t) {
                run.kind = Kind::Requeue;
                run.params.set("threads", &c[1]);
                run.params.set("scope", &c[2]);
                run.params.set("nrequeue", &c[3]);
            } else if let Some(c) = THREAD_OPS.captures(t) {
                let v = num(src, n, &c[2], "thread ops/sec")?;
                let unit = "ops/s";
                push_sample(&mut out, src, &mut run, n, "throughput", unit, v);
            } else if let Some(c) = AVERAGED.captures(t) {
                let mean = num(src, n, &c[1], "averaged operations/sec")?;
                let pct = num(src, n, &c[2], "relative error")?;
                let threads = run.params.get("threads").and_then(|s| s.parse().ok());
                let n_rep = threads.or((run.samples > 0).then_some(run.samples));
                let bench = run.kind.benchmark();
                let params = run.params.render();
                let sem = mean * pct / 100.0;
                let start = out.len();
                mean_with_sem(
                    &mut out,
                    src,
                    n,
                    bench,
                    &params,
                    "throughput",
                    "ops/s",
                    mean,
                    Some(sem),
                    n_rep,
                );
                drop_derived_sd(&mut out, start, run.samples);
                run.done = true;
            } else if let Some(c) = RUN_LAT.captures(t) {
                if run.kind == Kind::Unknown {
                    run.kind = if t.contains("Wokeup") {
                        Kind::Wake
                    } else {
                        Kind::Requeue
                    };
                }
                if t.contains("Awoke and Requeued") {
                    run.params.set("pi", "yes");
                }
                let v = num(src, n, &c[2], "run latency")?;
                push_sample(&mut out, src, &mut run, n, "latency", "ms", v);
            } else if let Some(c) = FINAL_LAT.captures(t) {
                if run.kind == Kind::Unknown {
                    run.kind = if t.contains("Wokeup") {
                        Kind::Wake
                    } else {
                        Kind::Requeue
                    };
                }
                summary_line(&mut out, src, &mut run, n, &c[1], &c[2])?;
            } else if let Some(c) = RUN_PAR.captures(t) {
                run.kind = Kind::WakeParallel;
                run.params.set("threads", &c[3]);
                let v = num(src, n, &c[4], "run latency")?;
                push_sample(&mut out, src, &mut run, n, "latency", "ms", v);
            } else if let Some(c) = FINAL_PAR.captures(t) {
                run.kind = Kind::WakeParallel;
                run.params.set("threads", &c[2]);
                summary_line(&mut out, src, &mut run, n, &c[3], &c[4])?;
            } else if let Some(c) = MEM_FUNC.captures(t) {
                if run.kind == Kind::Unknown {
                    run.kind = if c[2].contains("memset") {
                        Kind::Memset
                    } else {
                        Kind::Memcpy
                    };
                }
                run.params.set("function", &c[1]);
            } else if let Some(c) = MEM_SIZE.captures(t) {
                run.params.set("size", &c[1]);
            } else if let Some(c) = MEM_BPS.captures(t) {
                let v = num(src, n, &c[1], "bandwidth")?;
                let scale = match &c[2] {
                    "bytes" => 1.0 / (1u64 << 30) as f64,
                    "KB" => 1.0 / (1u64 << 20) as f64,
                    "MB" => 1.0 / 1024.0,
                    _ => 1.0,
                };
                push_sample(
                    &mut out,
                    src,
                    &mut run,
                    n,
                    "bandwidth",
                    "GiB/s",
                    rescale(v, scale),
                );
            } else if let Some(c) = MEM_CYCLES.captures(t) {
                let v = num(src, n, &c[1], "cycles/byte")?;
                push_sample(&mut out, src, &mut run, n, "cycles/byte", "cycles/byte", v);
            } else if let Some(c) = BARE.captures(t) {
                simple_value(&mut out, src, &mut run, n, &c[1])?;
            } else {
                matched = false;
            }
            if matched && out.len() == values_before && skipped.len() == skipped_before {
                consumed.push(n);
            }
        }
        finish(src, &run)?;
        if out.is_empty() {
            return Err(src.error(
                crate::ingest::shared::logscan::last_line(src),
                "no perf bench result line (`Total time:`, `usecs/op`, `Averaged …`, `… threads in … ms`, `GB/sec`) found",
            ));
        }
        Ok(Parsed {
            observations: out,
            consumed,
            skipped,
            ..Parsed::default()
        })
    }
}

fn push_sample(
    out: &mut Vec<Observation>,
    src: &Source,
    run: &mut Run,
    line: u32,
    metric: &str,
    unit: &str,
    v: f64,
) {
    let bench = run.kind.benchmark();
    out.push(
        Row::at(src, line)
            .benchmark(bench)
            .params(&run.params.render())
            .metric(metric)
            .unit(unit)
            .sample(v),
    );
    run.samples += 1;
    run.done = true;
}

/// The closing `… in X ms (+-y%)` line of wake/requeue/wake-parallel: the mean
/// of the `[Run k]` samples above it and its relative SEM.
fn summary_line(
    out: &mut Vec<Observation>,
    src: &Source,
    run: &mut Run,
    line: u32,
    mean: &str,
    pct: &str,
) -> Result<()> {
    let mean = num(src, line, mean, "mean latency")?;
    let pct = num(src, line, pct, "relative error")?;
    let n = (run.samples > 0).then_some(run.samples);
    let params = run.params.render();
    let sem = mean * pct / 100.0;
    let start = out.len();
    mean_with_sem(
        out,
        src,
        line,
        run.kind.benchmark(),
        &params,
        "latency",
        "ms",
        mean,
        Some(sem),
        n,
    );
    drop_derived_sd(out, start, run.samples);
    run.done = true;
    run.samples = 0;
    Ok(())
}

/// A bare number: `perf bench -f simple` output.
fn simple_value(
    out: &mut Vec<Observation>,
    src: &Source,
    run: &mut Run,
    line: u32,
    text: &str,
) -> Result<()> {
    if run.kind == Kind::Unknown {
        run.kind = Kind::from_file_name(src.file_name());
    }
    let v = num(src, line, text, "value")?;
    match run.kind {
        Kind::Messaging | Kind::Pipe => push_sample(out, src, run, line, "time", "s", v),
        Kind::Memcpy | Kind::Memset => push_sample(out, src, run, line, "bandwidth", "GiB/s", v / (1u64 << 30) as f64),
        _ => {
            return Err(src.error(
                Some(line),
                "bare number without a benchmark header (`perf bench -f simple`?): name the file after \
                 the benchmark (e.g. perf_bench_sched_pipe-1.txt) so that its meaning is known",
            ))
        }
    }
    Ok(())
}

/// A run whose header was printed but whose result never came is a truncated
/// log: say so rather than silently reading fewer runs.
fn finish(src: &Source, run: &Run) -> Result<()> {
    if run.kind != Kind::Unknown && !run.done {
        return Err(src.error(
            Some(run.start),
            format!(
                "`{}` run has no result line (truncated output?)",
                run.kind.benchmark()
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accounted(path: &str, extra: &str) -> Parsed {
        let text = std::fs::read_to_string(path).unwrap() + extra;
        PerfBench
            .parse_accounted(&Source::from_text(path, &text))
            .unwrap()
    }

    #[test]
    fn derived_pipe_figures_are_skipped_and_headers_consumed() {
        let p = accounted("tests/data/corpus/perf_bench_sched_pipe-baseline-1.txt", "");
        let lines: Vec<u32> = p.skipped.iter().map(|(l, _)| *l).collect();
        assert_eq!(lines, vec![4, 7]);
        assert!(p.skipped[0].1.contains("total time"));
        assert!(p.skipped[1].1.contains("reciprocal of usecs/op"));
        assert_eq!(p.consumed, vec![1, 2]);
        assert_eq!(p.observations.len(), 1);
        assert_eq!(
            (p.observations[0].line, p.observations[0].value),
            (6, 38.1612)
        );
    }

    #[test]
    fn futex_hashing_line_is_configuration_not_a_result() {
        let path = "tests/data/corpus/perf_bench_futex_hash-baseline-1.txt";
        let base = accounted(path, "");
        let p = accounted(path, "Futex hashing: 512 hash buckets\n");
        assert_eq!(p.observations, base.observations);
        let (line, why) = p.skipped.last().unwrap();
        assert_eq!(
            *line,
            std::fs::read_to_string(path).unwrap().lines().count() as u32 + 1
        );
        assert!(why.contains("configuration"), "{why}");
    }

    /// Detection as it was before the joined-text search: every line
    /// searched for every signature's literal.
    fn detect_line_by_line(src: &Source) -> Confidence {
        score(|literal, re| any_with(src, literal, re))
    }

    #[test]
    fn real_outputs_are_still_recognised_after_the_literal_search() {
        for (path, score) in [
            ("tests/data/corpus/perf_bench_futex_hash-baseline-1.txt", 95),
            // No `# Running` header: recognised by a summary line.
            ("tests/data/logs/perf_bench_futex_requeue-lkp.txt", 85),
            ("tests/data/logs/perf_bench_futex_wake_parallel-lkp.txt", 85),
        ] {
            let src = Source::read(std::path::Path::new(path)).unwrap();
            assert_eq!(PerfBench.detect(&src), score, "{path}");
        }
    }

    #[test]
    fn detection_gives_the_score_a_search_per_line_gives() {
        let recognised = crate::ingest::assert_detection_agrees(&PerfBench, detect_line_by_line);
        assert!(recognised >= 10, "only {recognised} perf bench files");
        // A literal split over two lines is on no one line.
        let src = Source::from_text("x", "# Running\n 'sched/pipe' benchmark:\n");
        assert_eq!(PerfBench.detect(&src), 0);
    }

    #[test]
    fn each_literal_alone_passes_the_one_pass_scan() {
        for lit in LITERALS {
            assert!(ANY_LITERAL.is_match(&format!("x{lit}y")), "{lit}");
        }
        assert!(!ANY_LITERAL.is_match("# Runnin\nRun summary [PID\n"));
    }
}
