//! The kernel and system harness-log importers (perf, rt-tests, schbench,
//! will-it-scale, kernbench, pgbench, sysbench, fio, redis-benchmark, time,
//! LKP, mmtests, ministat) on real corpus files and on the verbatim examples
//! of the format reference, plus malformed and mutated input.

use assert_cmd::Command;
use patchperf::ingest::{Registry, Source};
use patchperf::model::{Observation, Stat};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

const CORPUS: &str = "tests/data/corpus";
const LOGS: &str = "tests/data/logs";
const HARNESS: &str = "tests/data/harness";

/// Corpus file-name prefix (`<harness>-`) → the importer that must read it.
const CORPUS_FORMATS: &[(&str, &str)] = &[
    ("hackbench-", "hackbench"),
    ("cyclictest-", "cyclictest"),
    ("cyclictest_live-", "cyclictest"),
    ("cyclictest_hist-", "cyclictest-hist"),
    ("cyclictest_json-", "cyclictest-json"),
    ("perf_bench_", "perf-bench"),
    ("perf_stat-", "perf-stat"),
    ("perf_stat_csv-", "perf-stat-csv"),
    ("perf_stat_json-", "perf-stat-json"),
    ("pgbench-", "pgbench"),
    ("sysbench_", "sysbench"),
    ("redis_csv-", "redis-csv"),
    ("redis_quiet-", "redis-quiet"),
    ("gnutime-", "gnu-time"),
    ("gnutime_posix-", "shell-time"),
    ("bashtime-", "shell-time"),
];

/// Every importer this file covers.
const LOG_FORMATS: &[&str] = &[
    "perf-bench",
    "perf-stat",
    "perf-stat-csv",
    "perf-stat-json",
    "hackbench",
    "cyclictest",
    "cyclictest-hist",
    "cyclictest-json",
    "pgbench",
    "sysbench",
    "redis-csv",
    "redis-quiet",
    "redis-text",
    "gnu-time",
    "shell-time",
    "schbench",
    "will-it-scale",
    "kernbench",
    "fio-json",
    "fio-terse",
    "fio",
    "lkp",
    "mmtests",
    "ministat",
];

/// Reads `dir/name`, checks that detection picks `format`, and parses it.
fn read_as(dir: &str, name: &str, format: &str) -> Vec<Observation> {
    let path = Path::new(dir).join(name);
    let src = Source::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let reg = Registry::builtin();
    let chosen = reg.detect(&src).map(|f| f.name()).unwrap_or("none");
    assert_eq!(chosen, format, "detection for {name}");
    reg.get(format)
        .unwrap()
        .parse(&src)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The single observation with this metric, stat and params.
fn one<'a>(obs: &'a [Observation], metric: &str, stat: Stat, params: &str) -> &'a Observation {
    let hits: Vec<&Observation> = obs
        .iter()
        .filter(|o| o.metric == metric && o.stat == stat && o.params == params)
        .collect();
    assert_eq!(hits.len(), 1, "{metric} {stat} {params}: {hits:?}");
    hits[0]
}

fn samples<'a>(obs: &'a [Observation], metric: &str) -> Vec<&'a Observation> {
    obs.iter()
        .filter(|o| o.metric == metric && o.stat == Stat::Sample)
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

// ---------------------------------------------------------------- detection

#[test]
fn detection_picks_the_log_importer_for_every_corpus_file() {
    let mut seen = 0;
    let mut names: Vec<String> = std::fs::read_dir(CORPUS)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in names {
        // The longest matching prefix decides (`cyclictest_hist-` over `cyclictest`).
        let Some((_, format)) = CORPUS_FORMATS
            .iter()
            .filter(|(p, _)| name.starts_with(p))
            .max_by_key(|(p, _)| p.len())
        else {
            continue;
        };
        let obs = read_as(CORPUS, &name, format);
        assert!(!obs.is_empty(), "{name}");
        assert!(
            obs.iter().all(|o| o.variant.is_empty()),
            "{name}: variant is the caller's"
        );
        assert!(obs.iter().all(|o| o.value.is_finite()));
        seen += 1;
    }
    assert_eq!(seen, 174, "corpus files of the log harnesses");
}

#[test]
fn detection_picks_the_right_importer_for_each_reference_fixture() {
    let expected = [
        ("perf_bench_sched_messaging-lkp.txt", "perf-bench"),
        ("perf_bench_futex_wake_parallel-lkp.txt", "perf-bench"),
        ("perf_bench_futex_lock_pi-constructed.txt", "perf-bench"),
        ("perf_bench_epoll_wait-constructed.txt", "perf-bench"),
        ("schbench-lkp.txt", "schbench"),
        ("will_it_scale-lkp.csv", "will-it-scale"),
        ("will_it_scale_binary-constructed.txt", "will-it-scale"),
        (
            "will_it_scale_binary_failed-constructed.txt",
            "will-it-scale",
        ),
        ("will_it_scale_failed-constructed.csv", "will-it-scale"),
        ("kernbench-lkp.txt", "kernbench"),
        ("fio-constructed.json", "fio-json"),
        ("fio_terse-constructed.txt", "fio-terse"),
        ("fio_text-howto.txt", "fio"),
        ("redis_text-constructed.txt", "redis-text"),
        ("lkp-stress_ng.txt", "lkp"),
        ("lkp-will_it_scale_mail.txt", "lkp"),
        ("mmtests-hackbench.txt", "mmtests"),
        ("mmtests-stream.txt", "mmtests"),
        ("mmtests-redis_grep.txt", "mmtests"),
        ("ministat-readme.txt", "ministat"),
        ("pgbench-pg16_manual.txt", "pgbench"),
        ("sysbench_cpu-master_constructed.txt", "sysbench"),
    ];
    for (name, format) in expected {
        assert!(!read_as(LOGS, name, format).is_empty(), "{name}");
    }
}

#[test]
fn formats_lists_every_log_importer() {
    let out = Command::cargo_bin("patchperf")
        .unwrap()
        .arg("formats")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for f in LOG_FORMATS {
        assert!(
            text.lines().any(|l| l.split_whitespace().next() == Some(f)),
            "{f} missing:\n{text}"
        );
    }
}

// -------------------------------------------------------------- perf bench

#[test]
fn perf_bench_futex_hash_threads_are_samples_and_averaged_is_mean_with_sem() {
    let obs = read_as(CORPUS, "perf_bench_futex_hash-baseline-1.txt", "perf-bench");
    let p = "futexes=1024,runtime=2s,scope=private,threads=2";
    assert!(obs
        .iter()
        .all(|o| o.benchmark == "perf bench futex hash" && o.params == p));
    let s: Vec<f64> = samples(&obs, "throughput")
        .iter()
        .map(|o| o.value)
        .collect();
    assert_eq!(s, vec![3650048.0, 3614208.0]);
    assert_eq!(samples(&obs, "throughput")[0].line, 4);
    let mean = one(&obs, "throughput", Stat::Mean, p);
    assert_eq!(
        (mean.value, mean.line, mean.unit.as_str()),
        (3632128.0, 7, "ops/s")
    );
    // perf's `+- 0.49%` is the relative standard error over n = 2 threads.
    let se = one(&obs, "throughput", Stat::Stderr, p).value;
    assert!(close(se, 3632128.0 * 0.0049), "{se}");
    assert_eq!(one(&obs, "throughput", Stat::N, p).value, 2.0);
    // The thread samples carry the spread: no SD is derived from the
    // rounded `+-` next to them.
    assert!(obs.iter().all(|o| o.stat != Stat::Stddev));
    // The mean of the thread samples is what perf averaged.
    assert!(close((s[0] + s[1]) / 2.0, 3632128.0));
}

#[test]
fn perf_bench_futex_wake_runs_are_samples_and_the_sem_recovers_their_sd() {
    let obs = read_as(CORPUS, "perf_bench_futex_wake-baseline-1.txt", "perf-bench");
    let p = "nwake=1,scope=private,threads=16";
    let s: Vec<f64> = samples(&obs, "latency").iter().map(|o| o.value).collect();
    assert_eq!(s.len(), 10);
    assert_eq!(s[0], 0.438);
    assert_eq!(s[9], 0.248);
    assert!(obs.iter().all(|o| o.unit == "ms"));
    assert_eq!(one(&obs, "latency", Stat::Mean, p).value, 0.3209);
    assert_eq!(one(&obs, "latency", Stat::N, p).value, 10.0);
    // perf's `+-5.62%` is the SEM: times √n it gives the samples' own SD.
    let m = s.iter().sum::<f64>() / 10.0;
    let sd = (s.iter().map(|v| (v - m).powi(2)).sum::<f64>() / 9.0).sqrt();
    let sem = one(&obs, "latency", Stat::Stderr, p).value;
    assert!(close(sem, 0.3209 * 0.0562));
    let recovered = sem * 10f64.sqrt();
    assert!(
        (recovered - sd).abs() / sd < 0.01,
        "SEM·√n {recovered} vs samples {sd}"
    );
    assert!(obs.iter().all(|o| o.stat != Stat::Stddev));
}

#[test]
fn perf_bench_requeue_sched_and_mem() {
    let obs = read_as(
        CORPUS,
        "perf_bench_futex_requeue-baseline-1.txt",
        "perf-bench",
    );
    assert_eq!(samples(&obs, "latency").len(), 10);
    assert_eq!(
        one(
            &obs,
            "latency",
            Stat::Mean,
            "nrequeue=1,scope=private,threads=8"
        )
        .value,
        0.0096
    );

    let obs = read_as(
        CORPUS,
        "perf_bench_sched_messaging-baseline-1.txt",
        "perf-bench",
    );
    assert_eq!(obs.len(), 1);
    let o = &obs[0];
    assert_eq!(
        (o.benchmark.as_str(), o.params.as_str()),
        (
            "perf bench sched messaging",
            "fds=20,groups=5,mode=processes"
        )
    );
    assert_eq!(
        (o.metric.as_str(), o.unit.as_str(), o.value, o.line),
        ("time", "s", 0.608, 5)
    );

    let obs = read_as(
        CORPUS,
        "perf_bench_sched_messaging_threads-baseline-1.txt",
        "perf-bench",
    );
    assert_eq!(
        (obs[0].params.as_str(), obs[0].value),
        ("fds=20,groups=4,mode=threads", 0.295)
    );

    // Pipe: one primary metric only (ops/sec and Total time are derived).
    let obs = read_as(CORPUS, "perf_bench_sched_pipe-baseline-1.txt", "perf-bench");
    assert_eq!(obs.len(), 1);
    assert_eq!(
        (obs[0].metric.as_str(), obs[0].unit.as_str(), obs[0].value),
        ("latency", "us/op", 38.1612)
    );
    assert_eq!(obs[0].params, "loops=50000,mode=processes");

    let obs = read_as(CORPUS, "perf_bench_mem_memcpy-baseline-1.txt", "perf-bench");
    assert_eq!(obs.len(), 4);
    let d = one(&obs, "bandwidth", Stat::Sample, "function=default,size=4MB");
    assert_eq!(
        (d.benchmark.as_str(), d.unit.as_str(), d.value, d.line),
        ("perf bench mem memcpy", "GiB/s", 11.756606, 5)
    );
    let obs = read_as(CORPUS, "perf_bench_mem_memset-baseline-1.txt", "perf-bench");
    assert_eq!(
        one(
            &obs,
            "bandwidth",
            Stat::Sample,
            "function=x86-64-stosb,size=16MB"
        )
        .value,
        18.507551
    );
}

#[test]
fn perf_bench_reference_examples_lock_pi_epoll_wake_parallel() {
    let obs = read_as(LOGS, "perf_bench_futex_wake_parallel-lkp.txt", "perf-bench");
    let p = "nwake=1,scope=shared,threads=8,wakers=8";
    assert!(obs
        .iter()
        .all(|o| o.benchmark == "perf bench futex wake-parallel"));
    assert_eq!(one(&obs, "latency", Stat::Sample, p).value, 0.0054);
    assert_eq!(one(&obs, "latency", Stat::Mean, p).value, 0.0112);
    assert!(close(
        one(&obs, "latency", Stat::Stderr, p).value,
        0.0112 * 0.2172
    ));

    let obs = read_as(
        LOGS,
        "perf_bench_futex_lock_pi-constructed.txt",
        "perf-bench",
    );
    let p = "runtime=10s,threads=4";
    assert_eq!(samples(&obs, "throughput").len(), 4);
    assert_eq!(one(&obs, "throughput", Stat::Mean, p).value, 100096.0);
    assert_eq!(one(&obs, "throughput", Stat::N, p).value, 4.0);

    let obs = read_as(LOGS, "perf_bench_epoll_wait-constructed.txt", "perf-bench");
    let p = "fds=64,oneshot=yes,runtime=8s,threads=2";
    // Zero-padded `%04ld` thread throughput.
    assert_eq!(samples(&obs, "throughput")[0].value, 512.0);
    assert_eq!(one(&obs, "throughput", Stat::Mean, p).value, 500.0);

    let obs = read_as(LOGS, "perf_bench_futex_hash-lkp.txt", "perf-bench");
    assert_eq!(
        one(
            &obs,
            "throughput",
            Stat::Mean,
            "futexes=1024,runtime=300s,scope=shared,threads=8"
        )
        .value,
        491926.0
    );
}

#[test]
fn perf_bench_concatenated_runs_trailing_futex_hashing_and_simple_format() {
    let run =
        std::fs::read_to_string(Path::new(CORPUS).join("perf_bench_futex_hash-baseline-1.txt"))
            .unwrap();
    let run2 =
        std::fs::read_to_string(Path::new(CORPUS).join("perf_bench_futex_hash-baseline-2.txt"))
            .unwrap();
    // A newer kernel's closing line is configuration, not the result.
    let text = format!("{run}Futex hashing: 16 hash buckets\n{run2}Futex hashing: global hash\n");
    let src = Source::from_text("two-runs.txt", &text);
    let obs = Registry::builtin()
        .get("perf-bench")
        .unwrap()
        .parse(&src)
        .unwrap();
    assert_eq!(samples(&obs, "throughput").len(), 4);
    assert_eq!(obs.iter().filter(|o| o.stat == Stat::Mean).count(), 2);
    assert!(obs.iter().all(|o| o.value != 16.0));

    // `perf bench all` announces each benchmark in its own words first.
    let text = "# Running sched/messaging benchmark...\n# Running 'sched/messaging' benchmark:\n# 20 sender and receiver processes per group\n# 10 groups == 400 processes run\n\n     Total time: 0.055 [sec]\n\n# Running sched/pipe benchmark...\n# Running 'sched/pipe' benchmark:\n# Executed 1000000 pipe operations between two processes\n\n     Total time: 6.083 [sec]\n\n       6.083230 usecs/op\n         164386 ops/sec\n";
    let obs = Registry::builtin()
        .get("perf-bench")
        .unwrap()
        .parse(&Source::from_text("all.txt", text))
        .unwrap();
    let got: Vec<(&str, f64)> = obs
        .iter()
        .map(|o| (o.benchmark.as_str(), o.value))
        .collect();
    assert_eq!(
        got,
        vec![
            ("perf bench sched messaging", 0.055),
            ("perf bench sched pipe", 6.08323)
        ]
    );

    // `perf bench -f simple`: bare numbers, the benchmark named by the file.
    let src = Source::from_text("perf_bench_sched_pipe-simple-1.txt", "1.908\n1.874\n");
    let obs = Registry::builtin()
        .get("perf-bench")
        .unwrap()
        .parse(&src)
        .unwrap();
    assert_eq!(obs.len(), 2);
    assert_eq!(
        (
            obs[0].benchmark.as_str(),
            obs[0].metric.as_str(),
            obs[0].value
        ),
        ("perf bench sched pipe", "time", 1.908)
    );
    let src = Source::from_text("numbers.txt", "1.908\n");
    let err = Registry::builtin()
        .get("perf-bench")
        .unwrap()
        .parse(&src)
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("numbers.txt:1:"), "{err}");
}

// --------------------------------------------------------------- perf stat

#[test]
fn perf_stat_text_means_with_sem_and_not_supported_counters_skipped() {
    let obs = read_as(CORPUS, "perf_stat-baseline-1.txt", "perf-stat");
    let bench = "sh -c gzip -6 -c /srv/bench/b2.txt > /dev/null";
    assert!(obs.iter().all(|o| o.benchmark == bench));
    let tc = one(&obs, "task-clock", Stat::Mean, "");
    assert_eq!((tc.value, tc.unit.as_str(), tc.line), (88.92, "ms", 4));
    assert!(close(
        one(&obs, "task-clock", Stat::Stderr, "").value,
        88.92 * 0.1101
    ));
    assert!(close(
        one(&obs, "task-clock", Stat::Stddev, "").value,
        88.92 * 0.1101 * 5f64.sqrt()
    ));
    assert_eq!(one(&obs, "task-clock", Stat::N, "").value, 5.0);
    // perf omits a zero `+-`.
    assert_eq!(one(&obs, "cpu-migrations", Stat::Stderr, "").value, 0.0);
    assert_eq!(one(&obs, "page-faults", Stat::Mean, "").value, 242.0);
    let el = one(&obs, "time elapsed", Stat::Mean, "");
    assert_eq!((el.value, el.unit.as_str(), el.line), (0.1175, "s", 13));
    assert_eq!(one(&obs, "time elapsed", Stat::Stderr, "").value, 0.0139);
    for missing in ["cycles", "instructions", "branches", "branch-misses"] {
        assert!(
            obs.iter().all(|o| o.metric != missing),
            "{missing} is <not supported>"
        );
    }
    assert_eq!(obs.len(), 5 * 4);
}

#[test]
fn perf_stat_without_repeats_gives_samples() {
    let text = "\n Performance counter stats for 'make -j2':\n\n          2,205.43 msec task-clock                #    1.912 CPUs utilized\n     5,205,202,243      cycles                    #    2.360 GHz                      (83.21%)\n\n       1.153472919 seconds time elapsed\n\n       2.004180000 seconds user\n       0.201803000 seconds sys\n";
    let src = Source::from_text("stat.txt", text);
    let obs = Registry::builtin()
        .get("perf-stat")
        .unwrap()
        .parse(&src)
        .unwrap();
    assert!(obs
        .iter()
        .all(|o| o.stat == Stat::Sample && o.benchmark == "make -j2"));
    assert_eq!(one(&obs, "task-clock", Stat::Sample, "").value, 2205.43);
    assert_eq!(one(&obs, "cycles", Stat::Sample, "").value, 5205202243.0);
    assert_eq!(
        one(&obs, "time elapsed", Stat::Sample, "").value,
        1.153472919
    );
    assert_eq!(one(&obs, "time user", Stat::Sample, "").value, 2.00418);
}

#[test]
fn perf_stat_table_runs_are_samples_of_the_wall_time() {
    // `perf stat --null -r 5 --table` (layout of perf-stat.txt).
    let text = "\n Performance counter stats for './perf bench sched pipe' (5 runs):\n\n             # Table of individual measurements:\n             5.189 (-0.293) #\n             5.189 (-0.293) #\n             5.626 (+0.144) ##\n             5.788 (+0.306) #\n             5.616 (+0.134) #\n\n             # Final result:\n             5.482 +- 0.130 seconds time elapsed  ( +-  2.37% )\n\n";
    let src = Source::from_text("table.txt", text);
    let obs = Registry::builtin()
        .get("perf-stat")
        .unwrap()
        .parse(&src)
        .unwrap();
    let runs: Vec<f64> = samples(&obs, "time elapsed")
        .iter()
        .map(|o| o.value)
        .collect();
    assert_eq!(runs, vec![5.189, 5.189, 5.626, 5.788, 5.616]);
    assert_eq!(one(&obs, "time elapsed", Stat::Mean, "").value, 5.482);
    assert_eq!(one(&obs, "time elapsed", Stat::Stderr, "").value, 0.130);
    assert_eq!(one(&obs, "time elapsed", Stat::N, "").value, 5.0);
    assert!(
        obs.iter().all(|o| o.stat != Stat::Stddev),
        "the runs carry the spread"
    );
}

#[test]
fn perf_stat_interval_mode_gives_one_sample_per_interval() {
    let text = "#           time             counts unit events\n     1.001034137           1,001.23 msec cpu-clock                 #    1.000 CPUs utilized\n     1.001034137                 12      context-switches          #   11.985 /sec\n     1.001034137      <not supported>      cycles\n     2.002340000           1,000.98 msec cpu-clock                 #    1.000 CPUs utilized\n     2.002340000                 10      context-switches          #    9.990 /sec\n";
    let src = Source::from_text("interval.txt", text);
    assert_eq!(
        Registry::builtin().detect(&src).map(|f| f.name()),
        Some("perf-stat")
    );
    let obs = Registry::builtin()
        .get("perf-stat")
        .unwrap()
        .parse(&src)
        .unwrap();
    let cpu: Vec<f64> = samples(&obs, "cpu-clock").iter().map(|o| o.value).collect();
    assert_eq!(cpu, vec![1001.23, 1000.98]);
    assert_eq!(samples(&obs, "context-switches").len(), 2);
    assert_eq!(obs.len(), 4);
}

#[test]
fn perf_stat_csv_and_json_read_by_content() {
    let obs = read_as(CORPUS, "perf_stat_csv-baseline-1.csv", "perf-stat-csv");
    let tc = one(&obs, "task-clock", Stat::Mean, "");
    assert_eq!((tc.value, tc.unit.as_str(), tc.line), (116.99, "ms", 1));
    assert!(close(
        one(&obs, "task-clock", Stat::Stderr, "").value,
        116.99 * 0.0179
    ));
    assert_eq!(one(&obs, "context-switches", Stat::Mean, "").value, 8.0);
    assert_eq!(obs.len(), 8, "4 counted events × mean and stderr");
    // Without -r the variance field is absent and values are samples.
    let src = Source::from_text("x.csv", "2205.43,msec,task-clock,2205430000,100.00,1.912,CPUs utilized\n<not counted>,,cycles,0,0.00,,\n");
    let obs = Registry::builtin()
        .get("perf-stat-csv")
        .unwrap()
        .parse(&src)
        .unwrap();
    assert_eq!(obs.len(), 1);
    assert_eq!((obs[0].stat, obs[0].value), (Stat::Sample, 2205.43));

    let obs = read_as(CORPUS, "perf_stat_json-baseline-1.json", "perf-stat-json");
    let tc = one(&obs, "task-clock", Stat::Mean, "");
    assert_eq!((tc.value, tc.line), (116.598351, 1));
    assert!(close(
        one(&obs, "task-clock", Stat::Stderr, "").value,
        116.598351 * 0.0043
    ));
    assert_eq!(one(&obs, "page-faults", Stat::Mean, "").value, 246.0);
    assert!(obs.iter().all(|o| o.metric != "cycles"));
}

// ---------------------------------------------------------------- rt-tests

#[test]
fn hackbench_time_is_one_sample_per_run_with_header_params() {
    let obs = read_as(CORPUS, "hackbench-baseline-1.txt", "hackbench");
    assert_eq!(obs.len(), 1);
    let o = &obs[0];
    assert_eq!(
        (o.benchmark.as_str(), o.metric.as_str(), o.unit.as_str()),
        ("hackbench", "time", "s")
    );
    assert_eq!((o.value, o.line, o.stat), (0.460, 3, Stat::Sample));
    assert_eq!(
        o.params,
        "datasize=100,fds=40,groups=4,loops=200,mode=process"
    );
    // Ten invocations of one side.
    let mut all = Vec::new();
    for k in 1..=10 {
        all.extend(read_as(
            CORPUS,
            &format!("hackbench-patched-{k}.txt"),
            "hackbench",
        ));
    }
    assert_eq!(all.len(), 10);
    assert!(all.iter().all(|o| o.params == obs[0].params));
    // The pre-rt-tests program, several runs appended to one log.
    let text = "Running with 10*40 (== 400) tasks.\nTime: 0.412\nRunning with 10*40 (== 400) tasks.\nTime: 0.398\n";
    let src = Source::from_text("old.txt", text);
    assert_eq!(
        Registry::builtin().detect(&src).map(|f| f.name()),
        Some("hackbench")
    );
    let obs = Registry::builtin()
        .get("hackbench")
        .unwrap()
        .parse(&src)
        .unwrap();
    let v: Vec<(f64, u32, &str)> = obs
        .iter()
        .map(|o| (o.value, o.line, o.params.as_str()))
        .collect();
    assert_eq!(
        v,
        vec![
            (0.412, 2, "fds=40,groups=10"),
            (0.398, 4, "fds=40,groups=10")
        ]
    );
}

#[test]
fn cyclictest_quiet_live_histogram_and_json() {
    let obs = read_as(CORPUS, "cyclictest-baseline-1.txt", "cyclictest");
    assert_eq!(obs.len(), 6);
    let max0 = one(&obs, "latency max", Stat::Sample, "thread=0");
    assert_eq!(
        (max0.value, max0.unit.as_str(), max0.line),
        (2532.0, "us", 2)
    );
    assert_eq!(
        one(&obs, "latency max", Stat::Sample, "thread=1").value,
        4169.0
    );
    assert_eq!(
        one(&obs, "latency avg", Stat::Sample, "thread=1").value,
        37.0
    );
    assert_eq!(
        one(&obs, "latency min", Stat::Sample, "thread=0").value,
        7.0
    );

    // Live output: only the last redraw counts, never the initial Min:1000000.
    let obs = read_as(CORPUS, "cyclictest_live-baseline-1.txt", "cyclictest");
    assert_eq!(obs.len(), 6);
    let max0 = one(&obs, "latency max", Stat::Sample, "thread=0");
    assert_eq!((max0.value, max0.line), (6510.0, 1180));
    assert_eq!(
        one(&obs, "latency min", Stat::Sample, "thread=1").value,
        14.0
    );
    assert!(obs.iter().all(|o| o.value < 1_000_000.0));

    let obs = read_as(CORPUS, "cyclictest_hist-baseline-1.txt", "cyclictest-hist");
    assert_eq!(
        one(&obs, "latency max", Stat::Sample, "thread=1").value,
        6264.0
    );
    assert_eq!(
        one(&obs, "latency avg", Stat::Sample, "thread=0").value,
        20.0
    );
    // Percentiles recomputed here from the raw bucket rows (nearest rank,
    // overflows counted above the range).
    let text =
        std::fs::read_to_string(Path::new(CORPUS).join("cyclictest_hist-baseline-1.txt")).unwrap();
    let buckets: Vec<(f64, u64)> = text
        .lines()
        .filter(|l| l.len() > 6 && l.as_bytes()[..6].iter().all(u8::is_ascii_digit))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w[0].parse().unwrap(), w[1].parse().unwrap())
        })
        .collect();
    let total: u64 = buckets.iter().map(|b| b.1).sum::<u64>() + 13;
    for (p, metric) in [
        (50.0, "latency p50"),
        (99.0, "latency p99"),
        (99.9, "latency p99.9"),
    ] {
        let rank = (p / 100.0 * total as f64).ceil() as u64;
        let mut cum = 0;
        let want = buckets.iter().find(|b| {
            cum += b.1;
            cum >= rank
        });
        assert_eq!(
            one(&obs, metric, Stat::Sample, "thread=0").value,
            want.unwrap().0,
            "{metric}"
        );
    }
    assert_eq!(
        one(&obs, "latency p99", Stat::Sample, "thread=0").value,
        40.0
    );

    let obs = read_as(CORPUS, "cyclictest_json-baseline-1.json", "cyclictest-json");
    assert_eq!(obs.len(), 6);
    assert_eq!(
        one(&obs, "latency max", Stat::Sample, "thread=0").value,
        16541.0
    );
    assert_eq!(
        one(&obs, "latency avg", Stat::Sample, "thread=1").value,
        58.32
    );
}

// ------------------------------------------------------ scheduler harnesses

#[test]
fn schbench_last_block_wins() {
    let verbatim = std::fs::read_to_string(Path::new(LOGS).join("schbench-lkp.txt")).unwrap();
    let obs = read_as(LOGS, "schbench-lkp.txt", "schbench");
    assert_eq!(one(&obs, "wakeup latency p99", Stat::Sample, "").value, 8.0);
    assert_eq!(
        one(&obs, "wakeup latency p99.9", Stat::Sample, "").value,
        13.0
    );
    assert_eq!(
        one(&obs, "wakeup latency max", Stat::Sample, "").value,
        119.0
    );
    assert_eq!(
        one(&obs, "request latency p50", Stat::Sample, "").value,
        6008.0
    );
    assert_eq!(one(&obs, "rps", Stat::Sample, "").value, 17108.70);
    // An earlier interval's block is superseded by the one that follows.
    let earlier = "Wakeup Latencies percentiles (usec) runtime 5 (s) (40000 total samples)\n\t  50.0th: 4          (0 samples)\n\t* 99.0th: 99         (20 samples)\n\t  min=1, max=999\n";
    let src = Source::from_text("schbench.txt", &format!("{earlier}{verbatim}"));
    let obs = Registry::builtin()
        .get("schbench")
        .unwrap()
        .parse(&src)
        .unwrap();
    assert_eq!(one(&obs, "wakeup latency p99", Stat::Sample, "").value, 8.0);
    assert_eq!(
        one(&obs, "wakeup latency max", Stat::Sample, "").value,
        119.0
    );
}

#[test]
fn will_it_scale_csv_and_binary_and_kernbench() {
    let obs = read_as(LOGS, "will_it_scale-lkp.csv", "will-it-scale");
    // The tasks=0 idle row and the mode that was not run give nothing.
    assert_eq!(obs.len(), 2);
    assert_eq!(
        one(&obs, "processes", Stat::Sample, "tasks=104").value,
        1200363.0
    );
    assert!(close(
        one(&obs, "per_process_ops", Stat::Sample, "tasks=104").value,
        1200363.0 / 104.0
    ));

    let obs = read_as(
        LOGS,
        "will_it_scale_binary-constructed.txt",
        "will-it-scale",
    );
    assert_eq!(
        samples(&obs, "interval ops/s").len(),
        3,
        "warm-up seconds are not measurements"
    );
    assert_eq!(one(&obs, "ops/s", Stat::Sample, "").value, 403981.0);
    assert_eq!(obs[0].benchmark, "will-it-scale Separate file open/close");

    let obs = read_as(LOGS, "kernbench-lkp.txt", "kernbench");
    let p = "jobs=8,load=optimal";
    assert_eq!(one(&obs, "elapsed time", Stat::Mean, p).value, 28.094);
    assert_eq!(one(&obs, "elapsed time", Stat::Stddev, p).value, 0.182565);
    assert_eq!(one(&obs, "cpu", Stat::Mean, p).unit, "%");
    assert!(
        obs.iter().all(|o| o.stat != Stat::N),
        "n is not on the average line"
    );
    // With the per-run lines in the log, n is counted from them.
    let text = format!(
        "Optimal load -j 8 run number 1...\nOptimal load -j 8 run number 2...\nOptimal load -j 8 run number 3...\n{}",
        std::fs::read_to_string(Path::new(LOGS).join("kernbench-lkp.txt")).unwrap()
    );
    let obs = Registry::builtin()
        .get("kernbench")
        .unwrap()
        .parse(&Source::from_text("k.txt", &text))
        .unwrap();
    assert_eq!(one(&obs, "elapsed time", Stat::N, p).value, 3.0);
    // A single run prints no deviation: one sample.
    let src = Source::from_text(
        "k1.txt",
        "Average Optimal load -j 4 Run (std deviation):\nElapsed Time 7.770000\n",
    );
    let obs = Registry::builtin()
        .get("kernbench")
        .unwrap()
        .parse(&src)
        .unwrap();
    assert_eq!((obs[0].stat, obs[0].value), (Stat::Sample, 7.77));
    // A change the poster appended to a line, spaces inside the sign.
    let src = Source::from_text(
        "k2.txt",
        "Average Optimal load -j 24 Run (std deviation):\n\
         Elapsed Time 424.486 (16.7365) ( + 2 % vs base)\n\
         Sleeps 728156 (138808) ( - 1.4 % vs base )\n",
    );
    let obs = Registry::builtin()
        .get("kernbench")
        .unwrap()
        .parse(&src)
        .unwrap();
    let p = "jobs=24,load=optimal";
    assert_eq!(one(&obs, "elapsed time", Stat::Mean, p).value, 424.486);
    assert_eq!(one(&obs, "elapsed time", Stat::ChangePct, p).value, 2.0);
    assert_eq!(one(&obs, "sleeps", Stat::ChangePct, p).value, -1.4);
    assert_eq!(one(&obs, "sleeps", Stat::Stddev, p).value, 138808.0);
}

// ---------------------------------------------------- application benchmarks

#[test]
fn pgbench_tps_latency_and_progress() {
    let obs = read_as(CORPUS, "pgbench-baseline-1.txt", "pgbench");
    let p = "clients=4,mode=simple,scale=5,script=tpcb-like,threads=2";
    let tps = one(&obs, "tps", Stat::Sample, p);
    assert_eq!(
        (
            tps.value,
            tps.line,
            tps.unit.as_str(),
            tps.benchmark.as_str()
        ),
        (908.816533, 14, "tps", "pgbench")
    );
    assert_eq!(one(&obs, "latency avg", Stat::Sample, p).value, 4.401);
    assert_eq!(one(&obs, "connection time", Stat::Sample, p).value, 13.732);
    assert_eq!(one(&obs, "failures", Stat::Sample, p).value, 0.0);
    assert!(
        obs.iter().all(|o| o.metric != "latency stddev"),
        "not printed with -T"
    );

    let obs = read_as(LOGS, "pgbench-pg16_manual.txt", "pgbench");
    let p = "clients=10,mode=simple,scale=10,script=tpcb-like,threads=1,transactions=1000";
    assert_eq!(one(&obs, "tps", Stat::Sample, p).value, 896.967014);
    assert_eq!(one(&obs, "latency stddev", Stat::Sample, p).value, 7.351);

    // PG ≤ 13: *excluding* is the comparable tps; progress lines come before
    // the header yet carry the run's parameters.
    let obs = read_as(LOGS, "pgbench-pg13_progress-constructed.txt", "pgbench");
    let p = "clients=4,mode=prepared,scale=10,script=select-only,threads=4";
    assert_eq!(one(&obs, "tps", Stat::Sample, p).value, 903.415420);
    assert_eq!(
        one(&obs, "tps incl. connections", Stat::Sample, p).value,
        902.880136
    );
    let prog = samples(&obs, "progress tps");
    assert_eq!(
        prog.iter().map(|o| o.value).collect::<Vec<_>>(),
        vec![896.2, 910.4]
    );
    assert!(prog.iter().all(|o| o.params == p));
}

#[test]
fn sysbench_tests_and_versions() {
    let obs = read_as(CORPUS, "sysbench_cpu-baseline-1.txt", "sysbench");
    let p = "max_prime=10000,threads=1";
    assert!(obs.iter().all(|o| o.benchmark == "sysbench cpu"));
    let eps = one(&obs, "events/s", Stat::Sample, p);
    assert_eq!((eps.value, eps.line), (2671.01, 15));
    assert_eq!(one(&obs, "total time", Stat::Sample, p).value, 5.0005);
    assert_eq!(one(&obs, "latency p95", Stat::Sample, p).value, 0.38);
    assert_eq!(one(&obs, "latency max", Stat::Sample, p).unit, "ms");

    let obs = read_as(CORPUS, "sysbench_memory-baseline-1.txt", "sysbench");
    let p = "block_size=1024KiB,operation=write,scope=global,threads=1,total_size=20480MiB";
    assert_eq!(one(&obs, "bandwidth", Stat::Sample, p).value, 13428.78);
    assert_eq!(one(&obs, "operations/s", Stat::Sample, p).value, 13428.78);
    assert_eq!(one(&obs, "total time", Stat::Sample, p).value, 1.5233);

    let obs = read_as(CORPUS, "sysbench_mutex-baseline-1.txt", "sysbench");
    assert!(obs.iter().all(|o| o.benchmark == "sysbench mutex"));
    assert_eq!(
        one(&obs, "total time", Stat::Sample, "threads=2").value,
        0.3061
    );
    let obs = read_as(CORPUS, "sysbench_threads-baseline-1.txt", "sysbench");
    assert!(obs.iter().all(|o| o.benchmark == "sysbench threads"));
    assert_eq!(
        one(&obs, "events", Stat::Sample, "threads=4").value,
        45087.0
    );

    let obs = read_as(LOGS, "sysbench_cpu-master_constructed.txt", "sysbench");
    let p = "max_prime=10000,threads=2";
    assert_eq!(one(&obs, "events/s", Stat::Sample, p).value, 5311.4423);
    assert_eq!(one(&obs, "total time", Stat::Sample, p).value, 10.0002);
}

#[test]
fn fio_json_snapshots_runs_and_terse() {
    let obs = read_as(LOGS, "fio-constructed.json", "fio-json");
    let p = "job=randread,rw=read";
    // Two --status-interval snapshots of one run: the last one only.
    assert_eq!(one(&obs, "iops", Stat::Sample, p).value, 12800.0);
    assert_eq!(one(&obs, "bw", Stat::Sample, p).unit, "KiB/s");
    let c = one(&obs, "clat p99", Stat::Sample, p);
    assert_eq!((c.value, c.unit.as_str()), (152576.0, "ns"));
    assert_eq!(one(&obs, "clat mean", Stat::Sample, p).value, 78456.125);
    assert!(
        obs.iter().all(|o| o.params == p),
        "the write side did no I/O"
    );

    let obs = read_as(LOGS, "fio-two_runs-constructed.json", "fio-json");
    let iops: Vec<f64> = samples(&obs, "iops").iter().map(|o| o.value).collect();
    assert_eq!(iops, vec![12800.0, 12000.0]);

    let obs = read_as(LOGS, "fio_terse-constructed.txt", "fio-terse");
    assert_eq!(one(&obs, "iops", Stat::Sample, p).value, 25600.0);
    let c = one(&obs, "clat p99", Stat::Sample, p);
    assert_eq!((c.value, c.unit.as_str(), c.line), (150.0, "us", 1));
    assert_eq!(one(&obs, "clat p99.9", Stat::Sample, p).value, 650.0);
}

#[test]
fn fio_normal_output_units_are_converted() {
    let obs: Vec<_> = read_as(LOGS, "fio_text-howto.txt", "fio")
        .into_iter()
        .filter(|o| !o.metric.starts_with("disk "))
        .collect();
    let p = "job=Client1,rw=write";
    assert!(
        obs.iter().all(|o| o.params == p),
        "the run-status summary is not a job"
    );
    assert_eq!(one(&obs, "iops", Stat::Sample, p).value, 88.0);
    let bw = one(&obs, "bw", Stat::Sample, p);
    assert_eq!((bw.value, bw.unit.as_str(), bw.line), (623.0, "KiB/s", 2));
    assert_eq!(one(&obs, "clat mean", Stat::Sample, p).value, 4019.02);
    assert_eq!(one(&obs, "lat mean", Stat::Sample, p).value, 4027.34);
    assert_eq!(one(&obs, "clat p50", Stat::Sample, p).value, 416.0);
    let p99 = one(&obs, "clat p99", Stat::Sample, p);
    assert_eq!(
        (p99.value, p99.unit.as_str(), p99.line),
        (43779.0, "us", 10)
    );
    assert_eq!(one(&obs, "clat p99.9", Stat::Sample, p).value, 68682.0);
    // Auto-scaled units: nanoseconds and IOPS/BW suffixes.
    let text = "j: (groupid=0, jobs=1): err= 0: pid=1\n  read: IOPS=198k, BW=772MiB/s (810MB/s)(7720MiB/10001msec)\n    clat (nsec): min=1000, max=90000, avg=4500.50, stdev=10.00\n";
    let obs = Registry::builtin()
        .get("fio")
        .unwrap()
        .parse(&Source::from_text("f.txt", text))
        .unwrap();
    let p = "job=j,rw=read";
    assert_eq!(one(&obs, "iops", Stat::Sample, p).value, 198000.0);
    assert_eq!(one(&obs, "bw", Stat::Sample, p).value, 772.0 * 1024.0);
    assert!(close(one(&obs, "clat mean", Stat::Sample, p).value, 4.5005));
}

/// fio 2.x wrote `read : io=…, bw=611058KB/s, iops=…` (KB being KiB) before 3.0's
/// `IOPS=…, BW=…`; five runs in one log are five runs of the job.
#[test]
fn fio_2_normal_output_is_read() {
    let obs = read_as(HARNESS, "fio/v2-randread-libaio-5runs.txt", "fio");
    let p = "job=randread,rw=read";
    // The n-th value of a metric is the n-th run's (the driver numbers the runs).
    let at = |metric: &str, run: usize| {
        let o: Vec<_> = obs
            .iter()
            .filter(|o| o.metric == metric && o.params == p)
            .collect();
        assert_eq!(o.len(), 5, "{metric}: {o:?}");
        o[run].clone()
    };
    let iops = at("iops", 0);
    assert_eq!((iops.value, iops.line), (152764.0, 15));
    let bw = at("bw", 0);
    assert_eq!((bw.value, bw.unit.as_str()), (611058.0, "KiB/s"));
    assert_eq!(at("slat mean", 0).value, 3.72);
    assert_eq!(at("clat mean", 0).value, 825.75);
    assert_eq!(at("lat mean", 0).value, 829.81);
    let p99 = at("clat p99", 0);
    assert_eq!((p99.value, p99.unit.as_str()), (3216.0, "us"));
    assert_eq!(at("clat p99.9", 0).value, 10688.0);
    let second = at("iops", 1);
    assert_eq!((second.value, second.line), (125562.0, 47));
}

#[test]
fn redis_benchmark_csv_and_quiet() {
    let obs = read_as(CORPUS, "redis_csv-baseline-1.csv", "redis-csv");
    assert_eq!(obs.len(), 6 * 7);
    let set = one(&obs, "rps", Stat::Sample, "test=SET");
    assert_eq!(
        (set.value, set.unit.as_str(), set.line),
        (80971.66, "req/s", 2)
    );
    assert_eq!(
        one(&obs, "latency p99", Stat::Sample, "test=GET").value,
        6.223
    );
    assert_eq!(
        one(
            &obs,
            "latency max",
            Stat::Sample,
            "test=LRANGE_100 (first 100 elements)"
        )
        .value,
        6.999
    );

    // The CR-redrawn progress before each result is gone.
    let obs = read_as(CORPUS, "redis_quiet-baseline-1.txt", "redis-quiet");
    assert_eq!(obs.len(), 10);
    let set = one(&obs, "rps", Stat::Sample, "test=SET");
    assert_eq!((set.value, set.line), (531914.94, 1));
    assert_eq!(
        one(&obs, "latency p50", Stat::Sample, "test=SADD").value,
        0.303
    );
}

#[test]
fn gnu_time_posix_and_bash_time() {
    let obs = read_as(CORPUS, "gnutime-baseline-1.txt", "gnu-time");
    assert!(obs.iter().all(|o| o.benchmark == "make -j2"));
    let real = one(&obs, "real", Stat::Sample, "");
    assert_eq!((real.value, real.unit.as_str(), real.line), (2.40, "s", 5));
    assert_eq!(one(&obs, "user", Stat::Sample, "").value, 2.20);
    assert_eq!(one(&obs, "max rss", Stat::Sample, "").value, 38968.0);
    let src = Source::from_text("t.txt", "\tCommand being timed: \"x\"\n\tElapsed (wall clock) time (h:mm:ss or m:ss): 1:02:03.50\n\tExit status: 0\n");
    let obs = Registry::builtin()
        .get("gnu-time")
        .unwrap()
        .parse(&src)
        .unwrap();
    assert_eq!(obs[0].value, 3723.5);

    let obs = read_as(CORPUS, "gnutime_posix-baseline-1.txt", "shell-time");
    assert_eq!(one(&obs, "real", Stat::Sample, "").value, 3.28);
    let obs = read_as(CORPUS, "bashtime-baseline-1.txt", "shell-time");
    let real: Vec<f64> = samples(&obs, "real").iter().map(|o| o.value).collect();
    assert_eq!(real, vec![2.023, 2.569, 2.156, 2.269, 2.135]);
    assert_eq!(samples(&obs, "sys").len(), 5);
    let src = Source::from_text("b.txt", "real\t1m34.067s\nuser\t0m2.000s\nsys\t0m0.500s\n");
    let obs = Registry::builtin()
        .get("shell-time")
        .unwrap()
        .parse(&src)
        .unwrap();
    assert!(close(obs[0].value, 94.067));
}

// ------------------------------------------------------------ pasted tables

#[test]
fn lkp_tables_means_sd_and_stated_changes() {
    let obs = read_as(LOGS, "lkp-stress_ng.txt", "lkp");
    let p = "nr_threads=100%,test=pipeherd,testtime=60s";
    assert!(obs
        .iter()
        .all(|o| o.benchmark == "stress-ng" && o.params == p));
    let by = |metric: &str, variant: &str, stat: Stat| -> Vec<f64> {
        obs.iter()
            .filter(|o| o.metric == metric && o.variant == variant && o.stat == stat)
            .map(|o| o.value)
            .collect()
    };
    assert_eq!(
        by("cpuidle..usage", "f2ffc48de2017c69", Stat::Mean),
        vec![138055.0]
    );
    assert!(close(
        by("cpuidle..usage", "f2ffc48de2017c69", Stat::Stddev)[0],
        138055.0 * 0.18
    ));
    // The `± 18%` itself, as the document reader states a percent spread.
    assert_eq!(
        by("cpuidle..usage", "f2ffc48de2017c69", Stat::Cv),
        vec![18.0]
    );
    assert_eq!(
        by(
            "cpuidle..usage",
            "ee5eda8ea59546af2e8f192c060",
            Stat::ChangePct
        ),
        vec![33.4]
    );
    // No ± printed means ≤ 2 %, not zero: no stddev is stated.
    assert!(by("vmstat.procs.r", "f2ffc48de2017c69", Stat::Stddev).is_empty());
    // For a %-metric the change column is an absolute difference.
    assert!(by(
        "perf-stat.i.branch-miss-rate%",
        "ee5eda8ea59546af2e8f192c060",
        Stat::ChangePct
    )
    .is_empty());
    assert_eq!(
        by(
            "perf-stat.i.branch-miss-rate%",
            "ee5eda8ea59546af2e8f192c060",
            Stat::Mean
        ),
        vec![0.41]
    );
    assert_eq!(
        by(
            "stress-ng.pipeherd.ops",
            "ee5eda8ea59546af2e8f192c060",
            Stat::Mean
        ),
        vec![2.937e9]
    );
    // The base column comes first.
    assert_eq!(obs[0].variant, "f2ffc48de2017c69"); // the header's spelling, longer than the commit list's

    let obs = read_as(LOGS, "lkp-will_it_scale_mail.txt", "lkp");
    let ops: Vec<&Observation> = obs
        .iter()
        .filter(|o| o.metric == "will-it-scale.per_process_ops")
        .collect();
    assert_eq!(ops.len(), 3);
    assert_eq!(
        (ops[0].variant.as_str(), ops[0].value),
        ("ec81deb6b769dc1b", 129489.0)
    );
    assert_eq!(
        (ops[2].variant.as_str(), ops[2].stat, ops[2].value),
        ("6e553c6bcb7746abad29ce63e0c", Stat::ChangePct, 94.7)
    );
    assert_eq!(ops[0].params, "mode=process,nr_task=100%,test=brk2");
    assert_eq!(ops[0].line, 36);
}

#[test]
fn lkp_failure_blocks_are_not_performance() {
    // Layout of lib/compare.rb: a `fail:runs` block between the column ids
    // and the `%stddev` block (numbers constructed).
    let text = "f2ffc48de2017c69 ee5eda8ea59546af2e8f192c060\n---------------- ---------------------------\n       fail:runs  %reproduction    fail:runs\n           |             |             |\n          1:6          -17%            :6     dmesg.WARNING:at_ip_fsnotify\n         %stddev     %change         %stddev\n             \\          |                \\\n      3930            +7.8%       4235 ±  3%  vmstat.procs.r\n";
    let src = Source::from_text("fail.txt", text);
    let obs = Registry::builtin().get("lkp").unwrap().parse(&src).unwrap();
    assert!(obs.iter().all(|o| o.metric == "vmstat.procs.r"));
    let variants: Vec<&str> = obs.iter().map(|o| o.variant.as_str()).collect();
    assert_eq!(
        variants,
        vec![
            "f2ffc48de2017c69",
            "ee5eda8ea59546af2e8f192c060",
            "ee5eda8ea59546af2e8f192c060",
            "ee5eda8ea59546af2e8f192c060",
            "ee5eda8ea59546af2e8f192c060"
        ]
    );
}

#[test]
fn lkp_row_quoted_in_a_reply_with_mail_damage() {
    // The damaged row is verbatim from a reply on the list: `> ` quoting,
    // `±` turned into `=C4=85`, the stat name cut by a soft line break.
    let mail = "> ec81deb6b769dc1b 6e553c6bcb7746abad29ce63e0c\n> ---------------- ---------------------------\n>          %stddev     %change         %stddev\n>              \\          |                \\\n>     140227           -21.1%     110582 =C4=85  3%  will-it-scale.52.threa=\nds\n";
    let src = Source::from_text("reply.eml", mail);
    assert_eq!(
        Registry::builtin().detect(&src).map(|f| f.name()),
        Some("lkp")
    );
    let obs = Registry::builtin().get("lkp").unwrap().parse(&src).unwrap();
    assert!(obs
        .iter()
        .all(|o| o.metric == "will-it-scale.52.threads" && o.line == 5));
    let get = |variant: &str, stat: Stat| {
        obs.iter()
            .find(|o| o.variant == variant && o.stat == stat)
            .map(|o| o.value)
    };
    assert_eq!(get("ec81deb6b769dc1b", Stat::Mean), Some(140227.0));
    assert_eq!(
        get("6e553c6bcb7746abad29ce63e0c", Stat::Mean),
        Some(110582.0)
    );
    assert!(close(
        get("6e553c6bcb7746abad29ce63e0c", Stat::Stddev).unwrap(),
        110582.0 * 0.03
    ));
    assert_eq!(
        get("6e553c6bcb7746abad29ce63e0c", Stat::ChangePct),
        Some(-21.1)
    );
}

#[test]
fn mmtests_kernel_names_of_several_words_under_a_label_cell() {
    let src = Source::from_text(
        "m.txt",
        "kernel                good                   good + series\n\
         Hmean     64        1846.16 (   0.00%)     1795.84 *  -2.73%*\n\
         Hmean     128       3583.91 (   0.00%)     3448.49 *  -3.78%*\n",
    );
    let obs = Registry::builtin()
        .get("mmtests")
        .unwrap()
        .parse(&src)
        .unwrap();
    let get = |variant: &str, op: &str| {
        obs.iter()
            .find(|o| {
                o.variant == variant && o.params == format!("op={op}") && o.stat == Stat::Mean
            })
            .map(|o| o.value)
    };
    assert_eq!(get("good", "64"), Some(1846.16));
    assert_eq!(get("good + series", "128"), Some(3448.49));
}

#[test]
fn mmtests_tables_direction_and_sign_convention() {
    let obs = read_as(LOGS, "mmtests-hackbench.txt", "mmtests");
    let base = "5.15.0-rc3 vanilla";
    let new = "5.15.0-rc3 sched-wakeeflips-v1r1";
    assert!(obs
        .iter()
        .all(|o| o.benchmark == "hackbench-process-pipes" && o.metric == "time"));
    let get = |op: &str, variant: &str, stat: Stat| {
        obs.iter()
            .find(|o| o.params == format!("op={op}") && o.variant == variant && o.stat == stat)
            .map(|o| o.value)
    };
    assert_eq!(get("48", base, Stat::Mean), Some(1.3977));
    assert_eq!(get("48", new, Stat::Mean), Some(1.2400));
    // `*  11.28%*` is "11.28 % better" of a time: the time went down.
    assert_eq!(get("48", new, Stat::ChangePct), Some(-11.28));
    assert!(((1.2400_f64 / 1.3977 - 1.0) * 100.0 + 11.28).abs() < 0.01);

    let obs = read_as(LOGS, "mmtests-tput.txt", "mmtests");
    // Hmean: higher is better, the stated + is a raw increase.
    let ch = obs
        .iter()
        .find(|o| o.stat == Stat::ChangePct && o.params == "op=tput-1")
        .unwrap();
    assert_eq!((ch.metric.as_str(), ch.value), ("throughput", 7.84));

    let obs = read_as(LOGS, "mmtests-kernbench.txt", "mmtests");
    assert_eq!(obs[0].benchmark, "multi subtest kernbench");
    let sd: Vec<f64> = obs
        .iter()
        .filter(|o| o.stat == Stat::Stddev)
        .map(|o| o.value)
        .collect();
    assert_eq!(sd, vec![3.32, 4.68]);
    assert_eq!(
        obs.iter().filter(|o| o.stat == Stat::ChangePct).count(),
        1,
        "only the mean row states a change"
    );

    // `nan` cells (a statistic of no data) are skipped, not an error.
    let text = "                      BASE        NEW\nAmean     1      0.00 (   0.00%)      0.00 (    nan%)\nCoeffVar  1       nan (   0.00%)       nan (    nan%)\nAmean     2      1.50 (   0.00%)      1.20 *  20.00%*\n";
    let obs = Registry::builtin()
        .get("mmtests")
        .unwrap()
        .parse(&Source::from_text("nan.txt", text))
        .unwrap();
    assert_eq!(obs.iter().filter(|o| o.stat == Stat::Cv).count(), 0);
    assert_eq!(
        obs.iter()
            .filter(|o| o.stat == Stat::ChangePct)
            .map(|o| o.value)
            .collect::<Vec<_>>(),
        vec![-20.0]
    );

    let obs = read_as(LOGS, "mmtests-stream.txt", "mmtests");
    assert_eq!(obs.len(), 2);
    assert_eq!(
        (
            obs[1].variant.as_str(),
            obs[1].metric.as_str(),
            obs[1].value
        ),
        ("TEST_RUN_BUSY", "MB/sec", 15234.88)
    );

    let src = Source::read(&PathBuf::from(LOGS).join("mmtests-monitor.txt")).unwrap();
    let obs = Registry::builtin()
        .get("mmtests")
        .unwrap()
        .parse(&src)
        .unwrap();
    let user: Vec<(&str, f64)> = obs
        .iter()
        .filter(|o| o.metric == "duration user")
        .map(|o| (o.variant.as_str(), o.value))
        .collect();
    assert_eq!(user, vec![("BASELINE", 632.09), ("BUSY", 934.45)]);
}

#[test]
fn ministat_sets_are_variants_with_full_summaries() {
    let obs = read_as(LOGS, "ministat-readme.txt", "ministat");
    let get = |variant: &str, stat: Stat| {
        obs.iter()
            .find(|o| o.variant == variant && o.stat == stat)
            .map(|o| o.value)
    };
    assert_eq!(get("_1", Stat::N), Some(5.0));
    assert_eq!(get("_1", Stat::Mean), Some(0.1354));
    assert_eq!(get("_1", Stat::Stddev), Some(0.0015165751));
    assert_eq!(get("_2", Stat::Median), Some(0.139));
    assert_eq!(get("_2", Stat::ChangePct), Some(2.95421));
    assert_eq!(get("_1", Stat::ChangePct), None);
}

// ----------------------------------------------------- compare end to end

/// `compare` of all baseline against all patched files of one corpus
/// harness: the comparison of `metric` (and `params`) and its sample counts.
fn compare_corpus(harness: &str, metric: &str, params: &str) -> (u64, u64, String) {
    let out = Command::cargo_bin("patchperf")
        .unwrap()
        .args(["compare", "--json", "-", "--resamples", "200"])
        .arg(format!("{CORPUS}/{harness}-baseline-*"))
        .arg(format!("{CORPUS}/{harness}-patched-*"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{harness}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let cmp = json["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["metric"] == metric && c["params"] == params)
        .unwrap_or_else(|| panic!("{harness}: no comparison of {metric} [{params}]"));
    (
        cmp["n_baseline"].as_u64().unwrap_or(0),
        cmp["n_variant"].as_u64().unwrap_or(0),
        cmp["verdict"].as_str().unwrap_or("").to_string(),
    )
}

#[test]
fn compare_runs_end_to_end_on_the_corpus_harnesses() {
    let cases: &[(&str, &str, &str, u64, u64)] = &[
        (
            "hackbench",
            "time",
            "datasize=100,fds=40,groups=4,loops=200,mode=process",
            10,
            10,
        ),
        (
            "perf_bench_futex_wake",
            "latency",
            "nwake=1,scope=private,threads=16",
            30,
            30,
        ),
        (
            "perf_bench_sched_pipe",
            "latency",
            "loops=50000,mode=processes",
            5,
            5,
        ),
        ("cyclictest", "latency max", "thread=0", 5, 5),
        (
            "pgbench",
            "tps",
            "clients=4,mode=simple,scale=5,script=tpcb-like,threads=2",
            3,
            3,
        ),
        (
            "sysbench_cpu",
            "events/s",
            "max_prime=10000,threads=1",
            5,
            5,
        ),
        ("redis_csv", "rps", "test=SET", 3, 3),
        ("gnutime", "real", "", 5, 5),
        ("bashtime", "real", "", 10, 10),
    ];
    for (harness, metric, params, nb, nv) in cases {
        let (b, v, verdict) = compare_corpus(harness, metric, params);
        assert_eq!((b, v), (*nb, *nv), "{harness} {metric}");
        assert!(!verdict.is_empty(), "{harness}");
    }
}

// -------------------------------------------------------------- bad input

fn ingest_cli(path: &Path) -> (i32, String) {
    let out = Command::cargo_bin("patchperf")
        .unwrap()
        .args(["ingest", "--out", "-"])
        .arg(path)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn ingest_cli_reads_a_corpus_file_to_csv() {
    let out = Command::cargo_bin("patchperf")
        .unwrap()
        .args([
            "ingest",
            "--out",
            "-",
            "tests/data/corpus/hackbench-baseline-1.txt",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let csv = String::from_utf8_lossy(&out.stdout);
    assert!(
        csv.contains("hackbench-baseline-1.txt,3,hackbench,"),
        "{csv}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("format hackbench"));
}

#[test]
fn truncated_and_malformed_logs_fail_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &str, &str)] = &[
        // A run whose result never came.
        ("hackbench-cut.txt", "Running in process mode with 4 groups using 40 file descriptors each (== 160 tasks)\nEach sender will pass 200 messages of 100 bytes\n", ":1:"),
        ("pgbench-cut.txt", "transaction type: <builtin: TPC-B (sort of)>\nscaling factor: 5\nnumber of clients: 4\n", ":1:"),
        ("perf-cut.txt", "# Running 'sched/pipe' benchmark:\n# Executed 50000 pipe operations between two processes\n\n     Total time: 1.908 [sec]\n", ":1:"),
        ("hist-cut.txt", "# /dev/cpu_dma_latency set to 0us\n# Histogram\n000000 000000\t000000\n000001 000003\n", ":4:"),
        ("lkp-cut.txt", "         %stddev     %change         %stddev\n             \\          |                \\  \n    138055 ± 18%     +33.4%\n", ":3:"),
        ("fio-cut.json", "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"a\", \"read\": {\"iops\": 1", ":1"),
        ("cyc-cut.json", "{\"file_version\": 1, \"thread\": {\"0\": {\"cycles\": 5, \"min\": \"x\"", ":1"),
        ("stat-cut.json", "{\"counter-value\" : \"116.598351\", \"unit\" : \"msec\", \"event\" : \"task-clock\"}\n{\"counter-value\" : \"1", ":2:"),
        ("sysbench-cut.txt", "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\n\nGeneral statistics:\n", ":3:"),
    ];
    for (name, text, loc) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let (code, err) = ingest_cli(&path);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(
            err.contains(&format!("{name}{loc}")),
            "{name}: expected `{loc}` in: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn binary_junk_and_wrong_forced_format_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.bin");
    std::fs::write(&junk, [0x7fu8, b'E', b'L', b'F', 0, 1, 2, 3, 0xff, 0xfe]).unwrap();
    for f in ["perf-bench", "hackbench", "lkp", "fio-json"] {
        let out = Command::cargo_bin("patchperf")
            .unwrap()
            .args(["ingest", "--format", f, "--out", "-"])
            .arg(&junk)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{f}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("junk.bin"));
    }
    // A real file of another harness, forced through the wrong importer.
    for f in LOG_FORMATS {
        let out = Command::cargo_bin("patchperf")
            .unwrap()
            .args([
                "ingest",
                "--format",
                f,
                "--out",
                "-",
                "tests/data/corpus/redis_csv-baseline-1.csv",
            ])
            .output()
            .unwrap();
        let code = out.status.code();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{f}: {err}");
        if *f != "redis-csv" {
            assert_eq!(code, Some(2), "{f}: {err}");
            assert!(err.contains("redis_csv-baseline-1.csv"), "{f}: {err}");
        }
    }
}

// ----------------------------------------------------------- mutation test

/// One file per importer and layout, the inputs the mutations start from.
fn seed_files() -> Vec<PathBuf> {
    let corpus = [
        "hackbench-baseline-1.txt",
        "cyclictest-baseline-1.txt",
        "cyclictest_hist-baseline-1.txt",
        "cyclictest_json-baseline-1.json",
        "perf_bench_futex_hash-baseline-1.txt",
        "perf_bench_futex_wake-baseline-1.txt",
        "perf_bench_mem_memcpy-baseline-1.txt",
        "perf_bench_sched_pipe-baseline-1.txt",
        "perf_stat-baseline-1.txt",
        "perf_stat_csv-baseline-1.csv",
        "perf_stat_json-baseline-1.json",
        "pgbench-baseline-1.txt",
        "sysbench_memory-baseline-1.txt",
        "redis_csv-baseline-1.csv",
        "redis_quiet-baseline-1.txt",
        "gnutime-baseline-1.txt",
        "bashtime-baseline-1.txt",
    ];
    let logs = [
        "schbench-lkp.txt",
        "will_it_scale-lkp.csv",
        "kernbench-lkp.txt",
        "fio-constructed.json",
        "fio_terse-constructed.txt",
        "fio_text-howto.txt",
        "redis_text-constructed.txt",
        "lkp-stress_ng.txt",
        "mmtests-hackbench.txt",
        "ministat-readme.txt",
    ];
    corpus
        .iter()
        .map(|n| Path::new(CORPUS).join(n))
        .chain(logs.iter().map(|n| Path::new(LOGS).join(n)))
        .collect()
}

#[derive(Debug, Clone)]
enum Mutation {
    Truncate(usize),
    Delete(usize, usize),
    Insert(usize, Vec<u8>),
    Replace(usize, u8),
    DuplicateLine(usize),
    /// The `.0`-th number (modulo their count) written as `.1`.
    Number(usize, &'static str),
    /// Every line break made CRLF (`true`) or a lone CR (`false`).
    LineEnds(bool),
}

/// What a number may become: no value, beyond f64, or at its edges.
const ODD_NUMBERS: [&str; 8] = [
    "NaN",
    "-nan",
    "inf",
    "1e309",
    "-0",
    "1e-400",
    "99999999999999999999",
    "",
];

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), 0usize..40).prop_map(|(a, n)| Mutation::Delete(a, n)),
        (
            any::<usize>(),
            proptest::collection::vec(
                prop_oneof![
                    Just(b'9'),
                    Just(b'.'),
                    Just(b'-'),
                    Just(b'%'),
                    Just(b'+'),
                    Just(b'\n'),
                    Just(b' '),
                    Just(b'{'),
                    Just(b'"'),
                    Just(b'\x1b'),
                    Just(b'\r'),
                    any::<u8>()
                ],
                1..12
            )
        )
            .prop_map(|(a, b)| Mutation::Insert(a, b)),
        (any::<usize>(), any::<u8>()).prop_map(|(a, b)| Mutation::Replace(a, b)),
        any::<usize>().prop_map(Mutation::DuplicateLine),
        (any::<usize>(), proptest::sample::select(&ODD_NUMBERS[..]))
            .prop_map(|(a, t)| Mutation::Number(a, t)),
        any::<bool>().prop_map(Mutation::LineEnds),
    ]
}

/// Where the numbers of `bytes` are: runs of digits and points.
fn number_spans(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
                i += 1;
            }
            spans.push((start, i));
        } else {
            i += 1;
        }
    }
    spans
}

fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    let len = bytes.len().max(1);
    match m {
        Mutation::Truncate(at) => bytes.truncate(at % len),
        Mutation::Delete(at, n) => {
            let a = at % len;
            let b = (a + n).min(bytes.len());
            if a < b {
                bytes.drain(a..b);
            }
        }
        Mutation::Insert(at, ins) => {
            let a = (at % len).min(bytes.len());
            bytes.splice(a..a, ins.iter().copied());
        }
        Mutation::Replace(at, b) => {
            if !bytes.is_empty() {
                let a = at % bytes.len();
                bytes[a] = *b;
            }
        }
        Mutation::DuplicateLine(at) => {
            let text = bytes.clone();
            let lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
            let k = at % lines.len();
            let mut out = Vec::new();
            for (i, l) in lines.iter().enumerate() {
                out.extend_from_slice(l);
                out.push(b'\n');
                if i == k {
                    out.extend_from_slice(l);
                    out.push(b'\n');
                }
            }
            *bytes = out;
        }
        Mutation::Number(at, token) => {
            let spans = number_spans(bytes);
            if !spans.is_empty() {
                let (a, b) = spans[at % spans.len()];
                bytes.splice(a..b, token.bytes());
            }
        }
        Mutation::LineEnds(crlf) => {
            let end: &[u8] = if *crlf { b"\r\n" } else { b"\r" };
            let mut out = Vec::with_capacity(bytes.len() * 2);
            for &b in bytes.iter() {
                if b == b'\n' {
                    out.extend_from_slice(end);
                } else {
                    out.push(b);
                }
            }
            *bytes = out;
        }
    }
}

proptest! {
    // PROPTEST_CASES raises the count for a longer local run.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(300)
    ))]

    #[test]
    fn mutated_logs_never_panic_any_log_importer(
        file in 0usize..1000,
        muts in proptest::collection::vec(mutation(), 1..5),
    ) {
        let seeds = seed_files();
        let path = &seeds[file % seeds.len()];
        let mut bytes = std::fs::read(path).unwrap();
        for m in &muts {
            apply(&mut bytes, m);
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if let Ok(src) = Source::from_bytes(&name, &bytes) {
            let reg = Registry::builtin();
            for f in LOG_FORMATS {
                let format = reg.get(f).unwrap();
                let _ = format.detect(&src);
                match format.parse(&src) {
                    Ok(obs) => prop_assert!(obs.iter().all(|o| o.value.is_finite())),
                    Err(e) => prop_assert!(e.to_string().starts_with(&name), "{}", e),
                }
            }
        }
    }
}

/// The values read from each line, and the lines accounted as unread or
/// left out on purpose; `None` when the input is refused (a clear error).
/// `own_only`: only the values a line states itself (see below); else
/// every value found at the line, whatever stat it was read as (an edited
/// file read by another reader may call a percentile a spread, and keeps
/// the value all the same).
type LineValues = std::collections::BTreeMap<u32, Vec<u64>>;

/// What [`read_by_line`] gives: values by line, the lines accounted, and
/// the formats that read the file.
type ByLine = (
    LineValues,
    std::collections::BTreeSet<u32>,
    Vec<Option<String>>,
);

fn read_by_line(path: &Path, own_only: bool) -> Option<ByLine> {
    let ing = patchperf::ingest::ingest(
        &[path.to_path_buf()],
        &Registry::builtin(),
        &patchperf::ingest::IngestOptions::default(),
    )
    .ok()?;
    let mut values = LineValues::new();
    // The values a line states itself. A count of runs (how many `[Run k]`
    // lines were read), spreads derived with it (perf stat's `+- x%` under
    // `(5 runs)`) and percentiles of a histogram (found at the line of the
    // bin they fall in) depend on other lines by their nature.
    let own = |s: Stat| {
        !matches!(
            s,
            Stat::N | Stat::Stddev | Stat::Stderr | Stat::Cv | Stat::Percentile(_)
        )
    };
    for o in ing
        .dataset
        .rows()
        .filter(|o| o.line > 0 && (own(o.stat) || !own_only))
    {
        values.entry(o.line).or_default().push(o.value.to_bits());
    }
    let accounted = ing
        .files
        .iter()
        .flat_map(|f| {
            f.unread_numeric
                .iter()
                .copied()
                .chain(f.skipped.iter().map(|(l, _)| *l))
        })
        .collect();
    let formats = ing.files.iter().map(|f| f.format.clone()).collect();
    Some((values, accounted, formats))
}

/// The numbers a line writes out, as bit patterns: a reader that takes an
/// edited file over reads these, not what another reader derived from them
/// (will-it-scale's per-task rate is a ratio of two cells).
fn written_numbers(line: &[u8]) -> Vec<u64> {
    String::from_utf8_lossy(line)
        .split(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E')))
        .filter_map(|t| t.parse::<f64>().ok())
        .map(f64::to_bits)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(96)
    ))]

    /// Nothing is lost without a word: after an edit inside one line of a
    /// real log (no line break added or removed), every other line that
    /// gave values still gives them, or the accounting lists it, or the
    /// whole input is refused with an error. Names may change (an edited
    /// header renames what follows); values may not vanish silently.
    #[test]
    fn an_edit_in_one_line_loses_no_other_line_silently(
        file in 0usize..1000,
        line in any::<usize>(),
        at in any::<usize>(),
        edit in prop_oneof![
            proptest::collection::vec(
                prop_oneof![Just(b'x'), Just(b'9'), Just(b'-'), Just(b'\r'), Just(b'>'), Just(b'|'), Just(b'\t'), Just(0xe9u8)],
                1..4
            ),
            Just(Vec::new()),
        ],
    ) {
        let seeds = seed_files();
        let path = &seeds[file % seeds.len()];
        if path.extension().is_some_and(|e| e == "json") {
            return Ok(()); // structured: values have no lines
        }
        if path.to_string_lossy().contains("_hist") {
            // Every percentile of a histogram comes from all its bins.
            return Ok(());
        }
        let bytes = std::fs::read(path).unwrap();
        let Some((before, _, read_as)) = read_by_line(path, true) else { return Ok(()) };
        let starts: Vec<usize> = std::iter::once(0)
            .chain(bytes.iter().enumerate().filter(|(_, &b)| b == b'\n').map(|(i, _)| i + 1))
            .filter(|&i| i < bytes.len())
            .collect();
        let k = line % starts.len();
        let (s, e) = (starts[k], starts.get(k + 1).map_or(bytes.len(), |&n| n - 1));
        let pos = s + at % (e - s + 1);
        let mut mutated = bytes.clone();
        if edit.is_empty() {
            if pos < e {
                mutated.remove(pos);
            }
        } else {
            mutated.splice(pos..pos, edit.iter().copied());
        }
        let dir = tempfile::tempdir().unwrap();
        let copy = dir.path().join(path.file_name().unwrap());
        std::fs::write(&copy, &mutated).unwrap();
        let Some((after, accounted, now_read_as)) = read_by_line(&copy, false) else { return Ok(()) };
        let edited = k as u32 + 1;
        let taken_over = read_as != now_read_as;
        for (l, vals) in &before {
            if *l == edited || accounted.contains(l) {
                continue;
            }
            let mut vals = vals.clone();
            let i = *l as usize - 1;
            if taken_over && i < starts.len() {
                let (s, e) = (starts[i], starts.get(i + 1).map_or(bytes.len(), |&n| n - 1));
                let written = written_numbers(&bytes[s..e]);
                vals.retain(|v| written.contains(v));
            }
            let now = after.get(l);
            prop_assert!(
                now.is_some_and(|v| vals.iter().all(|x| v.contains(x))),
                "{}: line {l} lost {vals:?} (now {now:?}) after an edit in line {edited}",
                path.display()
            );
        }
    }
}
