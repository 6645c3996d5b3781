//! The `perf bench` collections the main importer ([`crate::ingest::formats::perf::bench`])
//! does not read, with or without their `# Running '…' benchmark:` header:
//! - syscall (`# Executed 10000000 getppid() calls`, `usecs/op`, `ops/sec`),
//!   one benchmark per call (`syscall all` runs getppid as `basic`, then
//!   getpgid, fork and execve; LKP keeps them without their `# Running`
//!   headers), and with `-f simple` the bare total time in seconds under
//!   its `# Running syscall/<name> benchmark...` header;
//! - internals (synthesize, kallsyms-parse, inject-build-id) and mem
//!   find_bit: `Average <what> took: X unit (+- Y unit)` lines, a mean and
//!   its standard error (perf's `+-`), find_bit's under `N operations B bits
//!   set of S bits` records; the `Average` lines after a `took:` line are
//!   that measurement's (`Average num. events`, `Average time per event`
//!   under `synthesis` and again under `data synthesis`) and are named by it
//!   (`data synthesis time per event`); synthesize's banner (`Computing
//!   performance of … perf event synthesis`) names it without a header;
//! - numa: `main, 2.002, secs, runtime-max/thread` CSV-like result lines;
//! - epoll ctl: per-thread `[ add: N ops; mod: N ops; del: N ops ]` samples
//!   and their `Averaged N ADD operations (+- x%)` means;
//! - breakpoint: `Total time`, `usecs/op`, `usecs/op/cpu`;
//! - uprobe: `Total time: 1,053,963 usecs` and `1,053.963 usecs/op`, written
//!   with thousands separators, each run after the first followed by its
//!   difference `to baseline` (and `to previous`), which is derived and not
//!   read; with `-f simple` the bare total time in microseconds;
//! - mem memcpy/memset with `-f simple`: `# function '…'` then the bare
//!   bandwidth in bytes/s.
//!
//! Benchmark `perf bench <collection> <bench>`; every value is a `sample`
//! of the run unless perf states it as an average (`mean` and `stderr`).

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Stat;

lazy_re!(
    RUNNING,
    r"^# Running '?([\w-]+)/([\w-]+)'? benchmark(?::|\.\.\.)"
);
lazy_re!(SYSCALL, r"^# Executed (\d+) (\w+)\(\) calls");
lazy_re!(
    AVERAGE,
    r"^\s*Average ([\w .#_-]+?):?\s+(?:took:\s+)?([\d.]+)(?: (\w+))?(?: \(\+-\s*([\d.]+)(?: \w+)?\))?\s*$"
);
lazy_re!(FIND_BIT, r"^(\d+) operations (\d+) bits set of (\d+) bits");
lazy_re!(
    SYNTHESIZE_BANNER,
    r"^Computing performance of (?:single|multi) threaded perf event synthesis"
);
lazy_re!(NUMA, r"^\s*(\w+),\s+(-?[\d.]+), ([\w%/]+),\s+(\S+)\s*$");
lazy_re!(
    EPOLL_THREAD,
    r"^\[thread\s*(\d+)\].*\[ add: (\d+) ops; mod: (\d+) ops; del: (\d+) ops \]"
);
lazy_re!(
    EPOLL_AVG,
    r"^Averaged (\d+) (ADD|MOD|DEL) operations \(\+-\s*([\d.]+)%\)"
);
lazy_re!(TOTAL_TIME, r"^\s*Total time:\s*([\d.]+) \[sec\]");
lazy_re!(PER_OP, r"^\s*([\d.]+) (usecs/op(?:/cpu)?|ops/sec)\s*$");
// uprobe's lines: `%'` numbers and the differences to earlier runs.
lazy_re!(
    GROUPED_TOTAL,
    r"^\s*Total time:\s*(\d{1,3}(?:,\d{3})*|\d+) usecs((?:\s+[+-]?[\d,]+ to (?:baseline|previous))*)\s*$"
);
lazy_re!(
    GROUPED_PER_OP,
    r"^\s*(\d{1,3}(?:,\d{3})*\.\d+|\d+\.\d+) usecs/op((?:\s+[+-]?[\d,.]+ usecs/op to (?:baseline|previous))*)\s*$"
);
lazy_re!(
    UPROBE_EXECUTED,
    r"^# Executed (\d{1,3}(?:,\d{3})*|\d+) (\S+) calls"
);
lazy_re!(MEM_FUNC, r"^# function '([^']+)' \(.*\)\s*$");
lazy_re!(BARE, r"^\s*(\d+(?:\.\d+)?)\s*$");

/// The importer of the remaining perf bench collections.
pub struct PerfBenchMore;

/// The benchmarks a `# Running` header names that this importer reads.
fn ours(collection: &str, bench: &str) -> bool {
    matches!(
        collection,
        "syscall" | "internals" | "numa" | "breakpoint" | "uprobe"
    ) || (collection, bench) == ("mem", "find_bit")
        || (collection, bench) == ("epoll", "ctl")
}

/// The syscall benchmark a `# Executed N <call>() calls` line belongs to.
fn syscall_bench(call: &str) -> &str {
    match call {
        "getppid" => "basic",
        other => other,
    }
}

impl Format for PerfBenchMore {
    fn name(&self) -> &'static str {
        "perf-bench-more"
    }

    fn description(&self) -> &'static str {
        "perf bench syscall, internals, numa, breakpoint, mem find_bit, epoll ctl, and mem with \
         -f simple: `# Executed N getppid() calls`, `Average … took:`, `main, X, secs, …` lines"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let header = crate::ingest::shared::logscan::lines_containing(src, "# Running ")
            .find_map(|l| RUNNING.captures(l).map(|c| ours(&c[1], &c[2])));
        match header {
            // Beats the main importer's 95 for the collections it lacks.
            Some(true) => return 96,
            Some(false) => return 0,
            None => {}
        }
        let executed = crate::ingest::shared::logscan::any_with(src, "# Executed ", &SYSCALL);
        // `# Executed N getppid() calls` over a `usecs/op` line is perf's
        // alone; it beats the document reader's 95 for a table with sample
        // lines (`Total time: 1.234 [sec]`), which is how it looks.
        if executed && crate::ingest::shared::logscan::any_with(src, "usecs/op", &PER_OP) {
            return 96;
        }
        if executed || crate::ingest::shared::logscan::any_with(src, " operations (+-", &EPOLL_AVG)
        {
            return 90;
        }
        let simple_mem = crate::ingest::shared::logscan::any_with(src, "# function '", &MEM_FUNC)
            && !crate::ingest::shared::logscan::has(src, "# Copying ")
            && src.lines.iter().any(|l| BARE.is_match(&l.text));
        if simple_mem {
            return 85;
        }
        if crate::ingest::shared::logscan::any_with(src, " took: ", &AVERAGE) {
            return 60;
        }
        0
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut consumed = Vec::new();
        let mut bench = String::from("perf bench");
        let mut params = Params::default();
        let mut function = String::new();
        // The measurement the `Average` lines below a `took:` line belong to.
        let mut took = String::new();
        for l in &src.lines {
            let n = l.number;
            let t = l.text.trim_end();
            let mut push = |bench: &str, params: &Params, metric: &str, unit: &str, stat, v| {
                out.push(
                    Row::at(src, n)
                        .benchmark(bench)
                        .params(&params.render())
                        .metric(metric)
                        .unit(unit)
                        .stat(stat, v),
                );
            };
            if let Some(c) = RUNNING.captures(t) {
                bench = format!("perf bench {} {}", &c[1], &c[2]);
                params = Params::default();
                took.clear();
                consumed.push(n);
            } else if SYNTHESIZE_BANNER.is_match(t) {
                bench = "perf bench internals synthesize".into();
                took.clear();
                consumed.push(n);
            } else if let Some(c) = SYSCALL.captures(t) {
                // Each call is its own benchmark, header or not.
                bench = format!("perf bench syscall {}", syscall_bench(&c[2]));
                params = Params::default();
                params.set("loops", &c[1]);
                consumed.push(n);
            } else if let Some(c) = UPROBE_EXECUTED
                .captures(t)
                .filter(|_| bench.starts_with("perf bench uprobe"))
            {
                params = Params::default();
                params.set("loops", c[1].replace(',', ""));
                consumed.push(n);
            } else if let Some(c) = FIND_BIT.captures(t) {
                bench = "perf bench mem find_bit".into();
                params = Params::default();
                params.set("operations", &c[1]);
                params.set("bits_set", &c[2]);
                params.set("bits", &c[3]);
                consumed.push(n);
            } else if let Some(c) = MEM_FUNC.captures(t) {
                function = c[1].to_string();
                consumed.push(n);
            } else if let Some(c) = BARE.captures(t) {
                if function.is_empty() && bench.starts_with("perf bench syscall ") {
                    // `-f simple`: the total time, as `%lu.%03lu` seconds.
                    let v = num(src, n, &c[1], "total time")?;
                    push(&bench, &params, "total time", "s", Stat::Sample, v);
                    continue;
                }
                if function.is_empty() && bench.starts_with("perf bench uprobe ") {
                    // `-f simple`: the total time in microseconds.
                    let v = num(src, n, &c[1], "total time")?;
                    push(&bench, &params, "total time", "us", Stat::Sample, v);
                    continue;
                }
                if function.is_empty() {
                    continue;
                }
                let kind = if src.file_name().contains("memset") || bench.contains("memset") {
                    "memset"
                } else {
                    "memcpy"
                };
                let mut p = params.clone();
                p.set("function", &function);
                let v = num(src, n, &c[1], "bandwidth")?;
                push(
                    &format!("perf bench mem {kind}"),
                    &p,
                    "bandwidth",
                    "B/s",
                    Stat::Sample,
                    v,
                );
            } else if let Some(c) = GROUPED_TOTAL.captures(t) {
                let v = num(src, n, &c[1].replace(',', ""), "total time")?;
                push(&bench, &params, "total time", "us", Stat::Sample, v);
            } else if let Some(c) = GROUPED_PER_OP.captures(t) {
                let v = num(src, n, &c[1].replace(',', ""), "usecs/op")?;
                push(&bench, &params, "usecs/op", "us/op", Stat::Sample, v);
            } else if let Some(c) = TOTAL_TIME.captures(t) {
                let v = num(src, n, &c[1], "total time")?;
                push(&bench, &params, "total time", "s", Stat::Sample, v);
            } else if let Some(c) = PER_OP.captures(t) {
                let v = num(src, n, &c[1], &c[2])?;
                let unit = if &c[2] == "ops/sec" { "ops/s" } else { "us/op" };
                push(&bench, &params, &c[2], unit, Stat::Sample, v);
            } else if let Some(c) = EPOLL_THREAD.captures(t) {
                let mut p = params.clone();
                p.set("thread", &c[1]);
                for (i, op) in [(2, "ADD"), (3, "MOD"), (4, "DEL")] {
                    let v = num(src, n, &c[i], op)?;
                    push(
                        &bench,
                        &p,
                        &format!("{op} operations"),
                        "ops",
                        Stat::Sample,
                        v,
                    );
                }
            } else if let Some(c) = EPOLL_AVG.captures(t) {
                let mean = num(src, n, &c[1], "average")?;
                let rel = num(src, n, &c[3], "+-")?;
                let metric = format!("{} operations", &c[2]);
                push(&bench, &params, &metric, "ops", Stat::Mean, mean);
                push(
                    &bench,
                    &params,
                    &metric,
                    "ops",
                    Stat::Stderr,
                    mean * rel / 100.0,
                );
            } else if let Some(c) = NUMA.captures(t) {
                let v = num(src, n, &c[2], &c[4])?;
                let mut p = params.clone();
                p.set("test", &c[1]);
                push(&bench, &p, &c[4], &c[3], Stat::Sample, v);
            } else if let Some(c) = AVERAGE.captures(t) {
                let named = c[1].trim().trim_end_matches(" took");
                let what = if t.contains(" took:") {
                    took = named.to_string();
                    took.clone()
                } else if took.is_empty() {
                    named.to_string()
                } else {
                    format!("{took} {named}")
                };
                let what = what.as_str();
                let unit = c.get(3).map_or("", |m| m.as_str());
                let mean = num(src, n, &c[2], what)?;
                match c.get(4) {
                    Some(se) => {
                        let se = num(src, n, se.as_str(), what)?;
                        push(&bench, &params, what, unit, Stat::Mean, mean);
                        push(&bench, &params, what, unit, Stat::Stderr, se);
                    }
                    None => push(&bench, &params, what, unit, Stat::Sample, mean),
                }
            } else if t.starts_with("Run summary") || t.starts_with("# ") {
                consumed.push(n);
            }
        }
        if out.is_empty() {
            return Err(src.error(
                crate::ingest::shared::logscan::last_line(src),
                "no perf bench result line found (`usecs/op`, `Average … took:`, `main, …`)",
            ));
        }
        Ok(Parsed {
            observations: out,
            consumed,
            skipped: Vec::new(),
            ..Parsed::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(path: &str) -> Parsed {
        crate::ingest::parse_file(
            &PerfBenchMore,
            &format!("tests/data/harness/perf-bench/{path}"),
        )
    }

    fn rows(p: &Parsed) -> Vec<(String, String, Stat, f64)> {
        p.observations
            .iter()
            .map(|o| {
                (
                    o.benchmark.to_string(),
                    o.metric.to_string(),
                    o.stat,
                    o.value,
                )
            })
            .collect()
    }

    #[test]
    fn headerless_syscall_gives_usecs_per_op_and_ops_per_sec() {
        let p = read("syscall-all.txt");
        let b = "perf bench syscall basic".to_string();
        assert_eq!(
            rows(&p),
            vec![
                (b.clone(), "total time".into(), Stat::Sample, 0.702),
                (b.clone(), "usecs/op".into(), Stat::Sample, 0.070219),
                (b, "ops/sec".into(), Stat::Sample, 14241159.0),
            ]
        );
        assert_eq!(p.observations[0].params, "loops=10000000");
        // Without any header line at all.
        let src = Source::from_text(
            "x.txt",
            "# Executed 200000 getppid() calls\n     Total time: 0.022 [sec]\n\n       0.110670 usecs/op\n        9035872 ops/sec\n",
        );
        let p = PerfBenchMore.parse_accounted(&src).unwrap();
        assert_eq!(PerfBenchMore.detect(&src), 96);
        assert_eq!(p.observations[1].value, 0.11067);
        assert_eq!(p.observations[2].value, 9035872.0);
    }

    #[test]
    fn each_syscall_is_its_own_benchmark_without_headers() {
        // LKP's log of `perf bench syscall all`: no `# Running` lines.
        let src = Source::read(std::path::Path::new(
            "tests/data/harness/perf-bench/lkp-syscall-all-headerless.txt",
        ))
        .unwrap();
        assert_eq!(PerfBenchMore.detect(&src), 96);
        let p = read("lkp-syscall-all-headerless.txt");
        let get = |b: &str, m: &str| -> Vec<(f64, String)> {
            p.observations
                .iter()
                .filter(|o| o.benchmark == format!("perf bench syscall {b}") && o.metric == m)
                .map(|o| (o.value, o.params.to_string()))
                .collect()
        };
        let l7 = "loops=10000000".to_string();
        let l4 = "loops=10000".to_string();
        assert_eq!(get("basic", "total time"), vec![(1.234, l7.clone())]);
        assert_eq!(get("basic", "usecs/op"), vec![(0.1234, l7.clone())]);
        assert_eq!(get("basic", "ops/sec"), vec![(8103727.0, l7.clone())]);
        assert_eq!(get("getpgid", "total time"), vec![(1.456, l7.clone())]);
        assert_eq!(get("getpgid", "usecs/op"), vec![(0.1456, l7.clone())]);
        assert_eq!(get("getpgid", "ops/sec"), vec![(6868131.0, l7)]);
        assert_eq!(get("fork", "total time"), vec![(0.789, l4.clone())]);
        assert_eq!(get("fork", "usecs/op"), vec![(78.9, l4.clone())]);
        assert_eq!(get("fork", "ops/sec"), vec![(12674.0, l4.clone())]);
        assert_eq!(get("execve", "total time"), vec![(1.567, l4.clone())]);
        assert_eq!(get("execve", "usecs/op"), vec![(156.7, l4.clone())]);
        assert_eq!(get("execve", "ops/sec"), vec![(6382.0, l4)]);
        assert_eq!(p.observations.len(), 12);
        let units: Vec<&str> = p.observations[..3]
            .iter()
            .map(|o| o.unit.as_str())
            .collect();
        assert_eq!(units, ["s", "us/op", "ops/s"]);
    }

    #[test]
    fn simple_syscall_is_the_total_time_in_seconds() {
        let p = read("simple-syscall-all.txt");
        assert_eq!(
            rows(&p),
            vec![(
                "perf bench syscall basic".to_string(),
                "total time".to_string(),
                Stat::Sample,
                0.696
            )]
        );
        assert_eq!(p.observations[0].unit, "s");
    }

    #[test]
    fn internals_averages_are_means_with_their_error() {
        let p = read("internals-inject-build-id.txt");
        assert_eq!(p.observations.len(), 12);
        let o = &p.observations[0];
        assert_eq!(
            (
                o.benchmark.as_str(),
                o.metric.as_str(),
                o.unit.as_str(),
                o.value
            ),
            (
                "perf bench internals inject-build-id",
                "build-id injection",
                "ms",
                8.028
            )
        );
        assert_eq!(p.observations[1].stat, Stat::Stderr);
        assert_eq!(p.observations[1].value, 0.207);
        let p = read("internals-synthesize.txt");
        let per_event: Vec<(&str, f64)> = p
            .observations
            .iter()
            .filter(|o| o.metric.ends_with("time per event"))
            .map(|o| (o.metric.as_str(), o.value))
            .collect();
        assert_eq!(
            per_event,
            [
                ("synthesis time per event", 2.746),
                ("data synthesis time per event", 0.453)
            ]
        );
        // `-f simple` drops the header; the banner still names the bench.
        let p = crate::ingest::parse_file(
            &PerfBenchMore,
            "tests/data/harness/perf-bench/simple-internals-synthesize.txt",
        );
        let got: Vec<(&str, &str, Stat, f64)> = p
            .observations
            .iter()
            .map(|o| (o.benchmark.as_str(), o.metric.as_str(), o.stat, o.value))
            .collect();
        let b = "perf bench internals synthesize";
        assert_eq!(
            got[5..],
            [
                (b, "data synthesis", Stat::Mean, 82.704),
                (b, "data synthesis", Stat::Stderr, 2.046),
                (b, "data synthesis num. events", Stat::Mean, 175.0),
                (b, "data synthesis num. events", Stat::Stderr, 0.0),
                (b, "data synthesis time per event", Stat::Sample, 0.473),
            ]
        );
    }

    #[test]
    fn find_bit_records_are_parameters() {
        let p = read("mem-find_bit.txt");
        let first = &p.observations[0];
        assert_eq!(first.params, "bits=1,bits_set=1,operations=100000");
        assert_eq!(
            (first.metric.as_str(), first.value),
            ("for_each_set_bit", 458.4)
        );
        assert_eq!(p.observations.len(), 10 * 2 * 2);
    }

    #[test]
    fn numa_epoll_ctl_and_breakpoint() {
        let p = read("numa-mem.txt");
        assert_eq!(p.observations.len(), 9);
        assert_eq!(p.observations[7].metric, "thread-speed");
        assert_eq!(p.observations[7].value, 6.409);
        let p = read("epoll-ctl.txt");
        assert_eq!(p.observations.len(), 6 + 6);
        assert_eq!(p.observations[6].value, 263616.0);
        let p = read("breakpoint-thread.txt");
        assert_eq!(p.observations.len(), 3);
        assert_eq!(p.observations[2].metric, "usecs/op/cpu");
    }

    #[test]
    fn simple_mem_reads_bytes_per_second_per_function() {
        let p = read("simple-mem-memcpy.txt");
        assert_eq!(p.observations.len(), 4);
        assert_eq!(p.observations[0].params, "function=default");
        assert_eq!(
            p.observations[0].value,
            "34813280212.483398".parse::<f64>().unwrap()
        );
        let p = read("simple-mem-memset.txt");
        assert_eq!(p.observations[3].benchmark, "perf bench mem memset");
    }

    #[test]
    fn uprobe_numbers_with_thousands_separators_and_differences_to_baseline() {
        let p = read("uprobe-all-thousands.txt");
        let b = |x: &str| format!("perf bench uprobe {x}");
        assert_eq!(
            rows(&p),
            vec![
                (b("baseline"), "total time".into(), Stat::Sample, 1053963.0),
                (b("baseline"), "usecs/op".into(), Stat::Sample, 1053.963),
                (b("empty"), "total time".into(), Stat::Sample, 1056293.0),
                (b("empty"), "usecs/op".into(), Stat::Sample, 1056.293),
                (
                    b("trace_printk"),
                    "total time".into(),
                    Stat::Sample,
                    1056977.0
                ),
                (b("trace_printk"), "usecs/op".into(), Stat::Sample, 1056.977),
            ]
        );
        assert!(p.observations.iter().all(|o| &*o.params == "loops=1000"));
        assert_eq!(p.observations[0].unit, "us");
        assert_eq!(p.observations[1].unit, "us/op");
        // Its header names the collection: it is this reader's, not the
        // main perf bench importer's (which refused it).
        let src = crate::ingest::Source::read(std::path::Path::new(
            "tests/data/harness/perf-bench/uprobe-baseline-quoted-header.txt",
        ))
        .unwrap();
        assert_eq!(PerfBenchMore.detect(&src), 96);
        let q = read("uprobe-baseline-quoted-header.txt");
        assert_eq!(
            rows(&q),
            vec![
                (b("baseline"), "total time".into(), Stat::Sample, 1050383.0),
                (b("baseline"), "usecs/op".into(), Stat::Sample, 1050.383),
            ]
        );
    }

    #[test]
    fn uprobe_simple_format_is_the_total_in_microseconds() {
        let src = crate::ingest::Source::from_text(
            "uprobe.txt",
            "# Running 'uprobe/baseline' benchmark:\n1053963\n",
        );
        let p = PerfBenchMore.parse_accounted(&src).unwrap();
        assert_eq!(
            rows(&p),
            vec![(
                "perf bench uprobe baseline".into(),
                "total time".into(),
                Stat::Sample,
                1053963.0
            )]
        );
        assert_eq!(p.observations[0].unit, "us");
    }
}
