//! The language and tool benchmark importers (Criterion, hyperfine, Google
//! Benchmark, pyperf, Go, benchstat, Bencher Metric Format), the generic
//! tidy CSV/JSON importers and user-defined extractors: concrete values from
//! real corpus files, detection, malformed input and mutated input.

use assert_cmd::Command;
use patchperf::ingest::{Extractor, Format, Registry, Source};
use patchperf::model::{Direction, Observation, Stat};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

const CORPUS: &str = "tests/data/corpus";
const FIXTURES: &str = "tests/data/structured";

/// Every importer this file covers.
const STRUCTURED_FORMATS: &[&str] = &[
    "hyperfine-json",
    "hyperfine-csv",
    "hyperfine-markdown",
    "hyperfine-console",
    "criterion-console",
    "bencher",
    "cargo-criterion-json",
    "critcmp",
    "gbench-json",
    "gbench-csv",
    "gbench-console",
    "go-bench",
    "go-test-json",
    "benchstat",
    "benchstat-csv",
    "bmf",
    "pyperf-json",
    "pyperf-text",
    "tidy-csv",
    "tidy-json",
];

/// Corpus file-name prefix and extension → the importer detection must pick.
const CORPUS_FORMATS: &[(&str, &str, &str)] = &[
    ("criterion-", "txt", "criterion-console"),
    ("hyperfine", "json", "hyperfine-json"),
    ("hyperfine", "csv", "hyperfine-csv"),
    ("hyperfine", "md", "hyperfine-markdown"),
    ("hyperfine", "txt", "hyperfine-console"),
    ("gbench-", "json", "gbench-json"),
    ("gbench_csv-", "csv", "gbench-csv"),
    ("gbench_console-", "txt", "gbench-console"),
    ("pyperf", "json", "pyperf-json"),
    ("pyperf", "txt", "pyperf-text"),
    ("go-", "txt", "go-bench"),
];

fn corpus(name: &str) -> PathBuf {
    Path::new(CORPUS).join(name)
}

fn fixture(name: &str) -> PathBuf {
    Path::new(FIXTURES).join(name)
}

fn parse_with(format: &str, path: &Path) -> Vec<Observation> {
    let reg = Registry::builtin();
    let f = reg
        .get(format)
        .unwrap_or_else(|| panic!("format {format} is registered"));
    let src = Source::read(path).unwrap();
    f.parse(&src)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn parse_dir(path: &Path) -> Vec<Observation> {
    let reg = Registry::builtin();
    let f = reg.detect_dir(path).expect("a directory format");
    assert_eq!(f.name(), "criterion-dir");
    f.parse_dir(path).unwrap()
}

/// Values of one (benchmark, params, variant, metric, stat) series, in order.
fn series(
    obs: &[Observation],
    bench: &str,
    params: &str,
    variant: &str,
    metric: &str,
    stat: Stat,
) -> Vec<f64> {
    obs.iter()
        .filter(|o| {
            o.benchmark == bench
                && o.params == params
                && o.variant == variant
                && o.metric == metric
                && o.stat == stat
        })
        .map(|o| o.value)
        .collect()
}

fn one(
    obs: &[Observation],
    bench: &str,
    params: &str,
    variant: &str,
    metric: &str,
    stat: Stat,
) -> f64 {
    let v = series(obs, bench, params, variant, metric, stat);
    assert_eq!(
        v.len(),
        1,
        "{bench} {params} {variant} {metric} {stat}: {v:?}"
    );
    v[0]
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() <= 1e-9 * b.abs().max(1e-12), "{a} != {b}");
}

fn patchperf() -> Command {
    Command::cargo_bin("patchperf").unwrap()
}

// ---------------------------------------------------------------- detection

#[test]
fn detection_picks_the_structured_importer_for_every_corpus_file() {
    let reg = Registry::builtin();
    let mut checked = 0;
    for entry in std::fs::read_dir(CORPUS).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if name.starts_with("criterion_tree-") {
            assert_eq!(
                reg.detect_dir(&path).map(|f| f.name()),
                Some("criterion-dir"),
                "{name}"
            );
            checked += 1;
            continue;
        }
        let Some(&(_, _, expected)) = CORPUS_FORMATS
            .iter()
            .find(|(prefix, e, _)| name.starts_with(prefix) && *e == ext)
        else {
            continue;
        };
        let src = Source::read(&path).unwrap();
        assert_eq!(reg.detect(&src).map(|f| f.name()), Some(expected), "{name}");
        checked += 1;
    }
    // criterion 2 + trees 2 + hyperfine 42 + gbench 12 + pyperf 11 + go 4
    assert_eq!(checked, 73, "corpus files checked");
    // A folder that merely contains Criterion trees is not one itself.
    assert!(reg.detect_dir(Path::new(CORPUS)).is_none());
}

#[test]
fn detection_of_the_fixture_formats() {
    let reg = Registry::builtin();
    for (file, expected) in [
        ("benchstat-v2.txt", "benchstat"),
        ("benchstat-v2.csv", "benchstat-csv"),
        ("bmf-example.json", "bmf"),
        ("go-test-baseline-1.json", "go-test-json"),
        ("criterion-bencher-patched-1.txt", "bencher"),
        ("libtest-bench.txt", "bencher"),
        ("cargo-criterion.jsonl", "cargo-criterion-json"),
        ("critcmp-base.json", "critcmp"),
    ] {
        let src = Source::read(&fixture(file)).unwrap();
        assert_eq!(reg.detect(&src).map(|f| f.name()), Some(expected), "{file}");
    }
    assert_eq!(
        reg.detect_dir(&fixture("criterion_old")).map(|f| f.name()),
        Some("criterion-dir")
    );
}

#[test]
fn formats_lists_every_structured_importer() {
    let out = patchperf().arg("formats").output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    for f in STRUCTURED_FORMATS.iter().chain(&["criterion-dir"]) {
        assert!(
            text.lines().any(|l| l.starts_with(&format!("{f} "))),
            "{f} missing from `formats`"
        );
    }
}

// ---------------------------------------------------------------- hyperfine

#[test]
fn hyperfine_json_times_are_samples_in_seconds() {
    let obs = parse_with("hyperfine-json", &corpus("hyperfine-baseline-1.json"));
    let gzip = "gzip -6 -c /srv/bench/b2.txt";
    let times = series(&obs, gzip, "", "", "time", Stat::Sample);
    assert_eq!(times.len(), 10);
    assert_eq!(times[0], 0.09552191168);
    assert_eq!(
        obs.iter().find(|o| o.stat == Stat::Sample).unwrap().unit,
        "s"
    );
    assert_eq!(one(&obs, gzip, "", "", "time", Stat::Mean), 0.09592326908);
    assert_eq!(
        one(&obs, gzip, "", "", "time", Stat::Stddev),
        0.005196700420014333
    );
    assert_eq!(one(&obs, gzip, "", "", "user", Stat::Mean), 0.09197044);
    assert_eq!(
        series(
            &obs,
            "bzip2 -9 -c /srv/bench/b2.txt",
            "",
            "",
            "time",
            Stat::Sample
        )
        .len(),
        10
    );
    assert!(
        obs.iter().all(|o| o.metric != "failed_runs"),
        "all runs exited 0"
    );
}

#[test]
fn hyperfine_parameter_scan_becomes_one_benchmark_with_params() {
    let obs = parse_with("hyperfine-json", &corpus("hyperfine_scan-baseline-1.json"));
    let template = "xz -1 -T{threads} -c /srv/bench/b4.txt";
    for t in 1..=4 {
        let p = format!("threads={t}");
        assert_eq!(
            series(&obs, template, &p, "", "time", Stat::Sample).len(),
            5,
            "{p}"
        );
    }
    assert_eq!(
        one(&obs, template, "threads=1", "", "time", Stat::Mean),
        1.7466450232200004
    );
    // The CSV export of the same run carries the parameter as a column.
    let csv = parse_with("hyperfine-csv", &corpus("hyperfine_scan-baseline-1.csv"));
    assert_eq!(
        one(&csv, template, "threads=2", "", "time", Stat::Mean),
        1.51521574842
    );
}

#[test]
fn hyperfine_non_zero_exit_codes_are_counted() {
    let obs = parse_with("hyperfine-json", &corpus("hyperfine_fail-baseline-1.json"));
    let failed = one(
        &obs,
        "grep -q zzzzzz /srv/bench/b2.txt",
        "",
        "",
        "failed_runs",
        Stat::Total,
    );
    assert_eq!(failed, 8.0);
    assert_eq!(
        series(
            &obs,
            "grep -q AAAA /srv/bench/b2.txt",
            "",
            "",
            "time",
            Stat::Sample
        )
        .len(),
        8
    );
}

#[test]
fn hyperfine_csv_markdown_and_console_summaries() {
    let gzip = "gzip -6 -c /srv/bench/b2.txt";
    let csv = parse_with("hyperfine-csv", &corpus("hyperfine-baseline-1.csv"));
    assert_eq!(one(&csv, gzip, "", "", "time", Stat::Median), 0.09576676668);
    assert_eq!(one(&csv, gzip, "", "", "system", Stat::Mean), 0.001774096);
    assert!(csv.iter().all(|o| o.stat != Stat::Sample));

    let md = parse_with("hyperfine-markdown", &corpus("hyperfine-baseline-1.md"));
    assert_eq!(one(&md, gzip, "", "", "time", Stat::Mean), 95.9);
    assert_eq!(one(&md, gzip, "", "", "time", Stat::Stddev), 5.2);
    assert_eq!(one(&md, gzip, "", "", "time", Stat::Max), 107.4);
    assert_eq!(md[0].unit, "ms");

    let con = parse_with("hyperfine-console", &corpus("hyperfine-baseline-1.txt"));
    assert_eq!(one(&con, gzip, "", "", "time", Stat::Mean), 95.9);
    assert_eq!(one(&con, gzip, "", "", "time", Stat::N), 10.0);
    assert_eq!(one(&con, gzip, "", "", "user", Stat::Mean), 92.0);
    assert_eq!(
        one(
            &con,
            "bzip2 -9 -c /srv/bench/b2.txt",
            "",
            "",
            "time",
            Stat::Min
        ),
        174.6
    );
    let line = con.iter().find(|o| o.stat == Stat::Min).unwrap().line;
    assert_eq!(line, 3, "values keep their line");
}

// ---------------------------------------------------------------- Criterion

#[test]
fn criterion_tree_samples_are_per_iteration_times() {
    let obs = parse_dir(&corpus("criterion_tree-patched-1"));
    let new = series(&obs, "sum_100k", "", "new", "time", Stat::Sample);
    assert_eq!(new.len(), 100);
    // sample.json: iters [29.0, …], times [472915.0, …] ns.
    close(new[0], 472915.0 / 29.0);
    assert_eq!(
        series(&obs, "sum_100k", "", "base", "time", Stat::Sample).len(),
        100
    );
    assert_eq!(
        series(&obs, "sort", "parameter=1000", "new", "time", Stat::Sample).len(),
        100
    );
    assert_eq!(
        one(&obs, "sum_100k", "", "new", "time", Stat::Mean),
        19099.034921801216
    );
    assert_eq!(
        one(&obs, "sum_100k", "", "new", "time", Stat::Stddev),
        3637.688291433661
    );
    // change/estimates.json holds fractions; stored in percent on `new`.
    close(
        one(&obs, "sum_100k", "", "new", "time", Stat::ChangePct),
        13.412484225015286,
    );
    assert!(series(&obs, "sum_100k", "", "base", "time", Stat::ChangePct).is_empty());
    let mut variants: Vec<&str> = obs.iter().map(|o| o.variant.as_str()).collect();
    variants.sort();
    variants.dedup();
    assert_eq!(variants, ["base", "new"]);
    assert!(obs.iter().all(|o| o.unit == "ns"));
    // The folder as given is the source of every value.
    assert!(obs
        .iter()
        .all(|o| o.source == format!("{CORPUS}/criterion_tree-patched-1")));
}

#[test]
fn criterion_old_schema_and_sample_pairs() {
    let obs = parse_dir(&fixture("criterion_old"));
    let s = series(
        &obs,
        "Fibonacci",
        "function=Iterative",
        "base",
        "time",
        Stat::Sample,
    );
    assert_eq!(s.len(), 3);
    close(s[0], 1128000.0 / 209454.0);
    assert_eq!(
        one(
            &obs,
            "Fibonacci",
            "function=Iterative",
            "base",
            "time",
            Stat::Mean
        ),
        4.72
    );
    assert_eq!(
        one(
            &obs,
            "Fibonacci",
            "function=Iterative",
            "base",
            "time",
            Stat::Stddev
        ),
        0.18
    );
    close(
        one(
            &obs,
            "Fibonacci",
            "function=Iterative",
            "new",
            "time",
            Stat::ChangePct,
        ),
        0.2615814736259159,
    );
}

/// Copies one benchmark of the real patched tree into a fresh `criterion/`
/// folder, for tests that change it.
fn copy_sum_100k(dir: &Path) -> PathBuf {
    let root = dir.join("criterion");
    for variant in ["base", "new", "change"] {
        let from = corpus("criterion_tree-patched-1/criterion/sum_100k").join(variant);
        let to = root.join("sum_100k").join(variant);
        std::fs::create_dir_all(&to).unwrap();
        for e in std::fs::read_dir(&from).unwrap() {
            let e = e.unwrap().path();
            std::fs::copy(&e, to.join(e.file_name().unwrap())).unwrap();
        }
    }
    root
}

#[test]
fn a_folder_holding_a_criterion_tree_and_other_logs_reads_them_all() {
    // The tree stands for its parent only when the parent holds nothing
    // else (or is cargo's target folder): a data folder's other logs are read.
    let dir = tempfile::tempdir().unwrap();
    copy_sum_100k(dir.path());
    let reg = Registry::builtin();
    assert_eq!(
        reg.detect_dir(dir.path()).map(|f| f.name()),
        Some("criterion-dir")
    );
    std::fs::write(
        dir.path().join("hackbench.txt"),
        "Running in process mode with 10 groups using 40 file descriptors each (== 400 tasks)\n\
         Each sender will pass 100 messages of 100 bytes\nTime: 0.5\n",
    )
    .unwrap();
    assert!(reg.detect_dir(dir.path()).is_none());
    let out = patchperf()
        .args(["ingest", "-v"])
        .arg(dir.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("format criterion-dir") && err.contains("format hackbench"),
        "{err}"
    );
    std::fs::create_dir(dir.path().join("release")).unwrap();
    std::fs::remove_file(dir.path().join("hackbench.txt")).unwrap();
    assert_eq!(
        reg.detect_dir(dir.path()).map(|f| f.name()),
        Some("criterion-dir")
    );
}

#[test]
fn criterion_throughput_gives_rate_samples() {
    let dir = tempfile::tempdir().unwrap();
    let root = copy_sum_100k(dir.path());
    let bench = root.join("sum_100k/new/benchmark.json");
    let text = std::fs::read_to_string(&bench).unwrap();
    std::fs::write(
        &bench,
        text.replace("\"throughput\":null", "\"throughput\":{\"Bytes\":800000}"),
    )
    .unwrap();
    let obs = parse_dir(&root);
    let thrpt = series(&obs, "sum_100k", "", "new", "thrpt", Stat::Sample);
    assert_eq!(thrpt.len(), 100);
    close(thrpt[0], 800000.0 / (472915.0 / 29.0 * 1e-9));
    assert!(obs
        .iter()
        .filter(|o| o.metric == "thrpt")
        .all(|o| o.unit == "B/s"));
    assert!(series(&obs, "sum_100k", "", "base", "thrpt", Stat::Sample).is_empty());
}

#[test]
fn compare_reads_a_criterion_tree_alone_base_against_new() {
    let out = patchperf()
        .args(["compare", &format!("{CORPUS}/criterion_tree-patched-1")])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.code().is_some_and(|c| c == 0 || c == 1),
        "{text}"
    );
    assert!(
        text.contains("sum_100k") && text.contains("base") && text.contains("new"),
        "{text}"
    );
}

#[test]
fn criterion_console_time_triplets_and_changes() {
    let obs = parse_with("criterion-console", &corpus("criterion-patched-1.txt"));
    assert_eq!(one(&obs, "sum_100k", "", "", "time", Stat::Mean), 19.387);
    assert_eq!(one(&obs, "sum_100k", "", "", "time", Stat::CiLow), 18.389);
    assert_eq!(one(&obs, "sum_100k", "", "", "time", Stat::CiHigh), 20.423);
    assert_eq!(
        one(&obs, "sum_100k", "", "", "time", Stat::ChangePct),
        13.412
    );
    assert_eq!(one(&obs, "sum_100k", "", "", "time", Stat::N), 100.0);
    assert_eq!(
        one(&obs, "hash_4k", "", "", "time", Stat::ChangePct),
        -22.577
    );
    assert_eq!(
        one(&obs, "sort", "parameter=10000", "", "time", Stat::Mean),
        619.91
    );
    assert!(
        obs.iter()
            .filter(|o| o.benchmark == "sum_100k")
            .all(|o| o.unit == "us"),
        "µs normalised"
    );

    // Long ids stand alone above `time:`; throughput changes come in a block.
    let text = "execute/memory_vec_add/v1\n                        time:   [7.9111 ms 7.9149 ms 7.9200 ms]\n\
                                    thrpt:  [126.26 MiB/s 126.34 MiB/s 126.40 MiB/s]\n\
                                    change:\n                        time:   [-0.1041% +0.0076% +0.1570%] (p = 0.93 > 0.05)\n\
                                    thrpt:  [-0.1567% -0.0076% +0.1042%]\n";
    let src = Source::from_text("c.txt", text);
    let obs = Registry::builtin()
        .get("criterion-console")
        .unwrap()
        .parse(&src)
        .unwrap();
    let p = "function=memory_vec_add,parameter=v1";
    assert_eq!(one(&obs, "execute", p, "", "time", Stat::Mean), 7.9149);
    assert_eq!(one(&obs, "execute", p, "", "thrpt", Stat::Mean), 126.34);
    assert_eq!(one(&obs, "execute", p, "", "time", Stat::ChangePct), 0.0076);
    assert_eq!(
        one(&obs, "execute", p, "", "thrpt", Stat::ChangePct),
        -0.0076
    );
}

#[test]
fn bencher_lines_from_criterion_and_libtest() {
    let obs = parse_with("bencher", &fixture("criterion-bencher-patched-1.txt"));
    assert_eq!(one(&obs, "sum_100k", "", "", "time", Stat::Median), 18268.0);
    assert_eq!(one(&obs, "sum_100k", "", "", "time", Stat::Stddev), 3638.0);
    assert_eq!(
        one(&obs, "sort", "parameter=10000", "", "time", Stat::Median),
        616922.0
    );
    // libtest's +/- is max − min, not an SD: not stored.
    let lib = parse_with("bencher", &fixture("libtest-bench.txt"));
    assert_eq!(
        one(&lib, "tests::bench_parse", "", "", "time", Stat::Median),
        12345.0
    );
    assert!(lib.iter().all(|o| o.stat != Stat::Stddev));
    assert_eq!(
        one(&lib, "tests::bench_render", "", "", "thrpt", Stat::Median),
        1037.0
    );
}

#[test]
fn cargo_criterion_messages() {
    let obs = parse_with("cargo-criterion-json", &fixture("cargo-criterion.jsonl"));
    let s = series(&obs, "norm", "", "", "time", Stat::Sample);
    assert_eq!(s, vec![124200.0 / 30.0, 9937100.0 / 3000.0]);
    assert_eq!(one(&obs, "norm", "", "", "time", Stat::Mean), 3419.49);
    close(one(&obs, "norm", "", "", "time", Stat::ChangePct), 1.43);
    assert!(
        obs.iter().all(|o| o.line == 1),
        "the group-complete line adds nothing"
    );
}

#[test]
fn critcmp_exports_name_their_baseline() {
    let obs = parse_with("critcmp", &fixture("critcmp-new.json"));
    assert_eq!(
        one(&obs, "sum_100k", "", "new", "time", Stat::Mean),
        19099.034921801216
    );
    assert_eq!(
        one(&obs, "sum_100k", "", "new", "time", Stat::Stddev),
        3637.688291433661
    );
    assert_eq!(
        one(&obs, "sort", "parameter=1000", "new", "time", Stat::Median),
        30550.65550154321
    );
    let out = patchperf()
        .args([
            "compare",
            &format!("{FIXTURES}/critcmp-base.json"),
            &format!("{FIXTURES}/critcmp-new.json"),
        ])
        .output()
        .unwrap();
    assert!(out.status.code().is_some_and(|c| c == 0 || c == 1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("sum_100k"));
}

// ---------------------------------------------------------------- Google Benchmark

#[test]
fn gbench_json_repetitions_aggregates_and_complexity() {
    let obs = parse_with("gbench-json", &corpus("gbench-baseline-1.json"));
    let real = series(
        &obs,
        "BM_StringCopy",
        "arg0=64",
        "",
        "real_time",
        Stat::Sample,
    );
    assert_eq!(real.len(), 5);
    assert_eq!(real[0], 1.7454963770044344e+01);
    assert_eq!(
        series(
            &obs,
            "BM_StringCopy",
            "arg0=64",
            "",
            "cpu_time",
            Stat::Sample
        )[0],
        1.5405417253855916e+01
    );
    close(
        series(
            &obs,
            "BM_StringCopy",
            "arg0=64",
            "",
            "bytes_per_second",
            Stat::Sample,
        )[0],
        4.1543827697351756e+09,
    );
    // `_cv` is a fraction in the file, percent here; aggregate iterations are n.
    close(
        one(&obs, "BM_StringCopy", "arg0=64", "", "real_time", Stat::Cv),
        6.7298341954532256,
    );
    assert_eq!(
        one(&obs, "BM_StringCopy", "arg0=64", "", "real_time", Stat::N),
        5.0
    );
    // User counters and the time unit of each benchmark.
    let inserts = series(
        &obs,
        "BM_MapInsert",
        "arg0=1000",
        "",
        "inserts",
        Stat::Sample,
    );
    // serde_json parses floats to within one ulp.
    close(inserts[0], 12306244.950298065);
    assert!(obs
        .iter()
        .filter(|o| o.benchmark == "BM_MapInsert" && o.metric == "real_time")
        .all(|o| o.unit == "us"));
    // The complexity fit stays apart from the per-size benchmarks.
    assert_eq!(
        one(
            &obs,
            "BM_VectorSort",
            "",
            "",
            "bigo_cpu_coefficient",
            Stat::Mean
        ),
        3.8319227339100808
    );
    close(
        one(&obs, "BM_VectorSort", "", "", "bigo_rms", Stat::Mean),
        7.436492222352616,
    );
    assert!(series(&obs, "BM_VectorSort", "", "", "real_time", Stat::Sample).is_empty());
}

#[test]
fn gbench_context_is_environment_evidence() {
    let src = Source::read(&corpus("gbench-baseline-1.json")).unwrap();
    let ctx = patchperf::ingest::gbench_context(&src).unwrap();
    assert_eq!(ctx["library_build_type"], "debug");
    assert_eq!(ctx["cpu_scaling_enabled"], "false");
    assert_eq!(ctx["num_cpus"], "2");
}

#[test]
fn gbench_csv_skips_context_lines_and_broken_cv_rows() {
    let obs = parse_with("gbench-csv", &corpus("gbench_csv-baseline-1.csv"));
    let real = series(
        &obs,
        "BM_StringCopy",
        "arg0=64",
        "",
        "real_time",
        Stat::Sample,
    );
    assert_eq!(real, vec![20.0762, 15.5029, 15.1631]);
    assert_eq!(
        one(
            &obs,
            "BM_StringCopy",
            "arg0=64",
            "",
            "real_time",
            Stat::Mean
        ),
        16.9141
    );
    assert_eq!(
        one(&obs, "BM_StringCopy", "arg0=64", "", "real_time", Stat::N),
        3.0
    );
    assert!(
        obs.iter().all(|o| o.stat != Stat::Cv),
        "1.7 CSV cv rows are garbage"
    );
    assert_eq!(
        one(
            &obs,
            "BM_VectorSort",
            "",
            "",
            "bigo_real_coefficient",
            Stat::Mean
        ),
        4.27792
    );
    assert!(
        obs.iter().all(|o| o.benchmark != "BM_MapInsert"),
        "the run aborted before it"
    );
}

#[test]
fn gbench_console_scales_counters_back() {
    let obs = parse_with("gbench-console", &corpus("gbench_console-baseline-1.txt"));
    assert_eq!(
        series(
            &obs,
            "BM_StringCopy",
            "arg0=64",
            "",
            "real_time",
            Stat::Sample
        ),
        vec![28.5, 26.7, 26.7]
    );
    let bps = series(
        &obs,
        "BM_StringCopy",
        "arg0=64",
        "",
        "bytes_per_second",
        Stat::Sample,
    );
    close(bps[0], 2.14574 * 1024f64.powi(3));
    let ips = series(
        &obs,
        "BM_VectorSort",
        "arg0=64",
        "",
        "items_per_second",
        Stat::Sample,
    );
    close(ips[0], 125.043e6);
    assert_eq!(
        one(&obs, "BM_StringCopy", "arg0=64", "", "real_time", Stat::Cv),
        3.72
    );
    assert_eq!(
        one(
            &obs,
            "BM_MapInsert",
            "arg0=1000",
            "",
            "real_time",
            Stat::Mean
        ),
        59.1
    );
}

// ---------------------------------------------------------------- pyperf

#[test]
fn pyperf_json_values_without_warmups() {
    let obs = parse_with("pyperf-json", &corpus("pyperf-baseline-1.json"));
    let v = series(&obs, "timeit", "", "", "time", Stat::Sample);
    // 11 runs: one calibration run without values, ten with two values each.
    assert_eq!(v.len(), 20);
    assert_eq!(v[0], 5.200162353509452e-06);
    assert_eq!(obs[0].unit, "s");
    let meta = patchperf::ingest::pyperf_metadata(
        &Source::read(&corpus("pyperf-baseline-1.json")).unwrap(),
    )
    .unwrap();
    assert!(
        meta["timeit"].contains_key("cpu_count"),
        "{:?}",
        meta["timeit"].keys()
    );
}

#[test]
fn pyperf_json_gz_is_read() {
    use std::io::Write;
    let raw = std::fs::read(corpus("pyperf-patched-1.json")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let gz = dir.path().join("pyperf-patched-1.json.gz");
    let mut enc = flate2::write::GzEncoder::new(
        std::fs::File::create(&gz).unwrap(),
        flate2::Compression::default(),
    );
    enc.write_all(&raw).unwrap();
    enc.finish().unwrap();
    let src = Source::read(&gz).unwrap();
    let reg = Registry::builtin();
    assert_eq!(reg.detect(&src).map(|f| f.name()), Some("pyperf-json"));
    let obs = reg.get("pyperf-json").unwrap().parse(&src).unwrap();
    let plain = parse_with("pyperf-json", &corpus("pyperf-patched-1.json"));
    assert_eq!(obs.len(), plain.len());
    assert_eq!(obs[0].value, plain[0].value);
}

#[test]
fn pyperf_text_outputs() {
    let table = parse_with("pyperf-text", &corpus("pyperf_compare-patched-1.txt"));
    assert_eq!(
        one(
            &table,
            "timeit",
            "",
            "pyperf-baseline-1",
            "time",
            Stat::Mean
        ),
        5.53
    );
    close(
        one(
            &table,
            "timeit",
            "",
            "pyperf-patched-1",
            "time",
            Stat::ChangePct,
        ),
        85.0,
    );
    let line = parse_with("pyperf-text", &corpus("pyperf_compare-patched-2.txt"));
    assert_eq!(
        one(
            &line,
            "pyperf",
            "",
            "pyperf-patched-2",
            "time",
            Stat::Stddev
        ),
        0.6
    );
    close(
        one(
            &line,
            "pyperf",
            "",
            "pyperf-patched-2",
            "time",
            Stat::ChangePct,
        ),
        96.0,
    );
    let stats = parse_with("pyperf-text", &corpus("pyperf_stats-patched-1.txt"));
    assert_eq!(one(&stats, "pyperf", "", "", "time", Stat::N), 20.0);
    assert_eq!(
        one(&stats, "pyperf", "", "", "time", Stat::percentile(95.0)),
        11.6
    );
    assert_eq!(one(&stats, "pyperf", "", "", "time", Stat::Median), 10.1);
    let run = parse_with("pyperf-text", &corpus("pyperf-baseline-1.txt"));
    assert_eq!(one(&run, "pyperf", "", "", "time", Stat::Mean), 5.53);
}

// ---------------------------------------------------------------- Go and benchstat

#[test]
fn go_bench_every_value_unit_pair_is_a_sample() {
    let obs = parse_with("go-bench", &corpus("go-baseline-1.txt"));
    let ns = series(&obs, "Sort", "n=100,procs=2", "", "time/op", Stat::Sample);
    assert_eq!(ns.len(), 6);
    assert_eq!(ns[0], 5158.0);
    assert_eq!(obs[0].unit, "ns/op");
    assert_eq!(
        series(
            &obs,
            "Sort",
            "n=100,procs=2",
            "",
            "alloc-bytes/op",
            Stat::Sample
        ),
        vec![24.0; 6]
    );
    assert_eq!(
        series(&obs, "JoinNums", "procs=2", "", "throughput", Stat::Sample)[0],
        77.29
    );
    assert_eq!(
        series(&obs, "FillMap", "procs=2", "", "allocs/op", Stat::Sample).len(),
        6
    );
    assert_eq!(obs.len(), 78);
    assert_eq!(obs[0].line, 5);
}

#[test]
fn go_unit_lines_state_direction_and_notes_label_variants() {
    let text = "Unit text-bytes assume=exact better=lower\nUnit score better=higher\n\nnote: before\n\n\
                BenchmarkSize 1 100 text-bytes 7 score\n\nnote: after\n\nBenchmarkSize 1 105 text-bytes 9 score\n";
    let src = Source::from_text("units.txt", text);
    let obs = Registry::builtin()
        .get("go-bench")
        .unwrap()
        .parse(&src)
        .unwrap();
    assert_eq!(
        one(&obs, "Size", "", "before", "text-bytes", Stat::Sample),
        100.0
    );
    assert_eq!(one(&obs, "Size", "", "after", "score", Stat::Sample), 9.0);
    let dirs = patchperf::ingest::go_stated_directions(&src);
    assert_eq!(
        dirs,
        vec![
            ("text-bytes".to_string(), Direction::Lower),
            ("score".to_string(), Direction::Higher)
        ]
    );
}

#[test]
fn go_test_json_events_rejoin_split_result_lines() {
    let json = parse_with("go-test-json", &fixture("go-test-baseline-1.json"));
    let text = parse_with("go-bench", &corpus("go-baseline-1.txt"));
    let strip = |o: &Observation| {
        (
            o.benchmark.clone(),
            o.params.clone(),
            o.metric.clone(),
            o.value,
        )
    };
    assert_eq!(
        json.iter().map(strip).collect::<Vec<_>>(),
        text.iter().map(strip).collect::<Vec<_>>()
    );
}

#[test]
fn benchstat_text_and_csv_state_medians_cis_and_changes() {
    for (format, file) in [
        ("benchstat", "benchstat-v2.txt"),
        ("benchstat-csv", "benchstat-v2.csv"),
    ] {
        let obs = parse_with(format, &fixture(file));
        let p = "format=json,procs=48";
        close(
            one(&obs, "Encode", p, "old.txt", "time/op", Stat::Median),
            1.718e-6,
        );
        // The text rounds to four digits; the CSV keeps full precision.
        let new_median = if format == "benchstat" {
            1.423e-6
        } else {
            1.4225000000000001e-6
        };
        close(
            one(&obs, "Encode", p, "new.txt", "time/op", Stat::Median),
            new_median,
        );
        assert_eq!(
            one(&obs, "Encode", p, "new.txt", "time/op", Stat::ChangePct),
            -17.2,
            "{format}"
        );
        assert_eq!(one(&obs, "Encode", p, "new.txt", "time/op", Stat::N), 10.0);
        close(
            one(&obs, "Encode", p, "old.txt", "time/op", Stat::CiHigh),
            1.718e-6 * 1.01,
        );
        // `~` states no change; geomean rows are not benchmarks.
        assert!(series(
            &obs,
            "Encode",
            "format=gob,procs=48",
            "new.txt",
            "time/op",
            Stat::ChangePct
        )
        .is_empty());
        assert!(obs.iter().all(|o| o.benchmark != "geomean"));
        assert!(obs.iter().all(|o| o.unit == "s/op"));
    }
}

#[test]
fn bmf_values_and_bounds() {
    let obs = parse_with("bmf", &fixture("bmf-example.json"));
    assert_eq!(
        one(&obs, "benchmark_name", "", "", "latency", Stat::Mean),
        88.0
    );
    assert_eq!(
        one(&obs, "benchmark_name", "", "", "latency", Stat::CiLow),
        87.42
    );
    assert_eq!(
        one(&obs, "benchmark_name", "", "", "throughput", Stat::CiHigh),
        6.30
    );
    assert_eq!(
        one(&obs, "my_binary", "", "", "file-size", Stat::Mean),
        42.0
    );
    assert_eq!(
        obs.iter().find(|o| o.metric == "latency").unwrap().unit,
        "ns"
    );
}

// ---------------------------------------------------------------- generic tidy tables

#[test]
fn tidy_tables_round_trip_through_ingest_out() {
    let dir = tempfile::tempdir().unwrap();
    for ext in ["csv", "json", "jsonl"] {
        let first = dir.path().join(format!("a.{ext}"));
        let second = dir.path().join(format!("b.{ext}"));
        patchperf()
            .args([
                "ingest",
                &format!("{CORPUS}/go-baseline-1.txt"),
                &format!("{CORPUS}/hyperfine-baseline-1.json"),
            ])
            .arg("--out")
            .arg(&first)
            .assert()
            .success();
        let out = patchperf()
            .arg("ingest")
            .arg(&first)
            .arg("--out")
            .arg(&second)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(if ext == "csv" {
                "format tidy-csv"
            } else {
                "format tidy-json"
            }),
            "{stderr}"
        );
        assert_eq!(
            std::fs::read(&first).unwrap(),
            std::fs::read(&second).unwrap(),
            "{ext}"
        );
    }
}

#[test]
fn map_flag_reads_other_headers() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("wide.tsv");
    std::fs::write(
        &f,
        "name\tthreads\twall_ms\tkernel\nfutex\t4\t1.5\t6.1\nfutex\t8\t2,500.25\t6.1\n",
    )
    .unwrap();
    let out = patchperf()
        .arg("ingest")
        .arg(&f)
        .args(["--map", "name=benchmark", "--map", "threads=params.threads"])
        .args([
            "--map",
            "wall_ms=value.wall:ms,kernel=variant",
            "--out",
            "-",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 2);
    assert!(
        rows[1].ends_with(",3,futex,threads=8,6.1,wall,ms,sample,2500.25,0"),
        "{}",
        rows[1]
    );
    // Without the mapping the tidy importer does not claim the file.
    let out = patchperf().arg("ingest").arg(&f).output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("tidy-csv"));
    // A mapping to an unknown field is a usage error.
    patchperf()
        .arg("ingest")
        .arg(&f)
        .args(["--map", "name=bench"])
        .assert()
        .code(2);
}

// ---------------------------------------------------------------- extractors

fn extract(toml: &str, seed: &str) -> Vec<Observation> {
    let x = Extractor::load(Path::new(&format!("examples/extractors/{toml}"))).unwrap();
    let src = Source::read(Path::new(&format!("tests/data/seeds/{seed}"))).unwrap();
    assert_eq!(x.detect(&src), 99, "{toml} claims {seed}");
    x.parse(&src).unwrap()
}

#[test]
fn futex_wakeup_extractor_on_the_seed_table() {
    let obs = extract("futex-wakeup.toml", "000_dcac3b90abb307ba.txt");
    let other = "policy=SCHED_OTHER";
    let fifo = "policy=SCHED_FIFO";
    assert_eq!(
        one(
            &obs,
            "futex-wakeup",
            other,
            "simple list",
            "latency",
            Stat::Mean
        ),
        6656.73
    );
    assert_eq!(
        one(
            &obs,
            "futex-wakeup",
            other,
            "simple list",
            "latency",
            Stat::Stddev
        ),
        539.35
    );
    assert_eq!(
        one(&obs, "futex-wakeup", other, "plist", "latency", Stat::Min),
        3684.0
    );
    assert_eq!(
        one(&obs, "futex-wakeup", fifo, "plist", "latency", Stat::Mean),
        9720.12
    );
    assert_eq!(
        one(
            &obs,
            "futex-wakeup",
            fifo,
            "simple list",
            "latency",
            Stat::N
        ),
        5000.0
    );
    assert_eq!(obs.len(), 20);
    assert!(obs.iter().all(|o| o.unit == "us"));
}

#[test]
fn pert_and_wakeup_latency_extractors_on_the_seed_mail() {
    let obs = extract("pert.toml", "001_f96703dd2cb80e16.txt");
    let with = series(&obs, "pert", "", "with", "perturbation-avg", Stat::Sample);
    assert_eq!(with, vec![2193.81, 2248.56, 2381.70, 2282.17, 2324.11]);
    let without = series(&obs, "pert", "", "without", "overhead", Stat::Sample);
    assert_eq!(without, vec![90.24, 91.99, 92.20, 91.12, 92.22]);
    assert_eq!(
        series(&obs, "pert", "", "without", "perturbations", Stat::Sample)[0],
        31.0
    );

    let obs = extract("wakeup-latency.toml", "001_f96703dd2cb80e16.txt");
    assert_eq!(
        one(&obs, "wakeup-latency", "", "without", "latency", Stat::Max),
        42963.2
    );
    assert_eq!(
        one(&obs, "wakeup-latency", "", "with", "latency", Stat::Mean),
        149.4
    );
    assert_eq!(
        one(
            &obs,
            "wakeup-latency",
            "",
            "with",
            "missed-timer-events",
            Stat::Total
        ),
        0.0
    );
    assert!(
        obs.iter()
            .filter(|o| o.metric == "latency")
            .all(|o| o.unit == "us"),
        "µs normalised"
    );
}

#[test]
fn extractor_flag_and_toml_errors_with_file_and_line() {
    let out = patchperf()
        .args([
            "ingest",
            "--extractor",
            "examples/extractors/wakeup-latency.toml",
        ])
        .args(["tests/data/seeds/001_f96703dd2cb80e16.txt", "--out", "-"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("format wakeup-latency, 6 rows"), "{stderr}");

    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(
        &bad,
        "name = \"x\"\n\n[[rule]]\nregex = '^(?P<value>[\\d.]+'\n",
    )
    .unwrap();
    let out = patchperf()
        .args(["ingest", "--extractor"])
        .arg(&bad)
        .arg(format!("{CORPUS}/go-baseline-1.txt"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("{}:4: extractor: bad regex", bad.display())),
        "{stderr}"
    );
    std::fs::write(&bad, "name = \"x\"\n[[rule]]\nregex = 'a'\nvalu = 3\n").unwrap();
    let out = patchperf()
        .args(["ingest", "--extractor"])
        .arg(&bad)
        .arg("x")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.toml:4:"));
}

// ---------------------------------------------------------------- malformed input

/// Runs `ingest --format F` on `text` written to a file; asserts exit 2 and
/// that the error names the file and each of `needles`.
fn rejects(format: &str, name: &str, text: &str, needles: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join(name);
    std::fs::write(&f, text).unwrap();
    let out = patchperf()
        .arg("ingest")
        .arg(&f)
        .args(["--format", format])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{format} {name}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&f.display().to_string()),
        "{format}: {stderr}"
    );
    for n in needles {
        assert!(stderr.contains(n), "{format}: `{n}` not in {stderr}");
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn truncated_json_gives_file_line_and_column() {
    for (format, file) in [
        ("hyperfine-json", "hyperfine-baseline-1.json"),
        ("gbench-json", "gbench-baseline-1.json"),
        ("pyperf-json", "pyperf-baseline-1.json"),
    ] {
        let text = std::fs::read_to_string(corpus(file)).unwrap();
        let cut = &text[..text.len() / 2];
        // serde_json counts the line after a final newline.
        let lines = cut.split('\n').count();
        rejects(
            format,
            file,
            cut,
            &[&format!(":{lines}: malformed"), "column"],
        );
    }
    let text = std::fs::read_to_string(fixture("cargo-criterion.jsonl")).unwrap();
    rejects(
        "cargo-criterion-json",
        "c.jsonl",
        &text[..200],
        &[":1: malformed", "column"],
    );
    let text = std::fs::read_to_string(fixture("go-test-baseline-1.json")).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[3] = &lines[3][..20];
    rejects(
        "go-test-json",
        "g.json",
        &lines.join("\n"),
        &[":4: malformed", "column"],
    );
    rejects(
        "bmf",
        "b.json",
        "{\"x\": {\"latency\": {\"value\": 1.0}",
        &["malformed", "column"],
    );
    rejects(
        "tidy-json",
        "t.jsonl",
        "{\"benchmark\":\"a\",\"value\":1}\n{\"benchmark\":",
        &[":2: malformed"],
    );
}

#[test]
fn wrong_types_and_missing_fields_are_named() {
    rejects(
        "hyperfine-json",
        "h.json",
        "{\"results\":[{\"command\":\"x\",\"mean\":\"fast\"}]}",
        &[":1: malformed", "invalid type", "column"],
    );
    rejects(
        "hyperfine-json",
        "h.json",
        "{\"results\":[{\"mean\":1.0}]}",
        &["missing field `command`"],
    );
    rejects(
        "gbench-json",
        "g.json",
        "{\"context\":{},\n\"benchmarks\":[{\"name\":\"a\",\"real_time\":[1]}]}",
        &[":2: malformed", "invalid type"],
    );
    rejects(
        "pyperf-json",
        "p.json",
        "{\"benchmarks\":[{\"runs\":[{\"values\":[\"x\"]}]}]}",
        &["invalid type"],
    );
    rejects(
        "tidy-csv",
        "t.csv",
        "benchmark,value\na,1\nb,fast\n",
        &[":3:", "`fast` is not a number"],
    );
    rejects(
        "hyperfine-csv",
        "h.csv",
        "command,mean,stddev,median,user,system,min,max\nx,1,2\n",
        &[":2:", "expected 8 fields"],
    );
    rejects(
        "gbench-csv",
        "g.csv",
        "name,iterations,real_time,cpu_time,time_unit\n\"a\",1,x,1,ns\n",
        &[":2:", "real_time"],
    );
    // A Criterion tree with a truncated estimates file names that file.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("criterion");
    let run = root.join("b").join("new");
    std::fs::create_dir_all(&run).unwrap();
    std::fs::write(
        run.join("benchmark.json"),
        "{\"group_id\":\"b\",\"function_id\":null,\"value_str\":null}",
    )
    .unwrap();
    std::fs::write(
        run.join("estimates.json"),
        "{\"mean\":{\"confidence_interval\":",
    )
    .unwrap();
    let out = patchperf().arg("ingest").arg(&root).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("estimates.json:1: malformed Criterion estimates.json"),
        "{stderr}"
    );
}

// ---------------------------------------------------------------- mutations

#[derive(Debug, Clone)]
enum Mutation {
    Truncate(usize),
    Insert(usize, Vec<u8>),
    Replace(usize, u8),
    Delete(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::Truncate),
        (
            any::<usize>(),
            proptest::collection::vec(
                prop_oneof![
                    Just(b'9'),
                    Just(b'.'),
                    Just(b'-'),
                    Just(b','),
                    Just(b'"'),
                    Just(b'{'),
                    Just(b'}'),
                    Just(b'['),
                    Just(b'\n'),
                    Just(b'|'),
                    any::<u8>()
                ],
                1..8
            )
        )
            .prop_map(|(a, b)| Mutation::Insert(a, b)),
        (any::<usize>(), any::<u8>()).prop_map(|(a, b)| Mutation::Replace(a, b)),
        (any::<usize>(), 1usize..64).prop_map(|(a, n)| Mutation::Delete(a, n)),
    ]
}

fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    let len = bytes.len().max(1);
    match m {
        Mutation::Truncate(at) => bytes.truncate(at % len),
        Mutation::Insert(at, b) => {
            let at = at % len;
            bytes.splice(at..at, b.iter().copied());
        }
        Mutation::Replace(at, b) => {
            if !bytes.is_empty() {
                let at = at % bytes.len();
                bytes[at] = *b;
            }
        }
        Mutation::Delete(at, n) => {
            if !bytes.is_empty() {
                let at = at % bytes.len();
                let end = (at + n).min(bytes.len());
                bytes.drain(at..end);
            }
        }
    }
}

/// The number of property cases: `default`, or `PROPTEST_CASES` for a
/// longer search.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Small real inputs of every structured format (big ones slow the search down).
fn mutation_inputs() -> Vec<Vec<u8>> {
    let files = [
        corpus("hyperfine-baseline-1.json"),
        corpus("hyperfine_scan-baseline-1.csv"),
        corpus("hyperfine-baseline-1.md"),
        corpus("hyperfine_fail-baseline-1.txt"),
        corpus("criterion-patched-1.txt"),
        corpus("gbench_console-baseline-1.txt"),
        corpus("gbench_csv-baseline-2.csv"),
        corpus("go-baseline-1.txt"),
        corpus("pyperf_compare-patched-2.txt"),
        corpus("pyperf_stats-patched-1.txt"),
        corpus("pyperf-patched-2.json"),
        fixture("benchstat-v2.txt"),
        fixture("benchstat-v2.csv"),
        fixture("bmf-example.json"),
        fixture("cargo-criterion.jsonl"),
        fixture("criterion-bencher-patched-1.txt"),
        corpus("criterion_tree-patched-1/criterion/sum_100k/new/estimates.json"),
    ];
    let mut v: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    // The first 60 lines of larger files keep their structure and stay quick.
    for f in [
        corpus("gbench-baseline-1.json"),
        fixture("go-test-baseline-1.json"),
    ] {
        let text = std::fs::read_to_string(f).unwrap();
        v.push(
            text.lines()
                .take(60)
                .collect::<Vec<_>>()
                .join("\n")
                .into_bytes(),
        );
    }
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(32), ..ProptestConfig::default() })]

    #[test]
    fn mutated_criterion_trees_never_panic(
        file in 0usize..5,
        muts in proptest::collection::vec(mutation(), 1..4),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let root = copy_sum_100k(dir.path());
        let target = [
            "sum_100k/new/estimates.json",
            "sum_100k/new/sample.json",
            "sum_100k/new/benchmark.json",
            "sum_100k/base/sample.json",
            "sum_100k/change/estimates.json",
        ][file];
        let path = root.join(target);
        let mut bytes = std::fs::read(&path).unwrap();
        for m in &muts {
            apply(&mut bytes, m);
        }
        std::fs::write(&path, &bytes).unwrap();
        let reg = Registry::builtin();
        let f = reg.get("criterion-dir").unwrap();
        if f.detect_dir(&root) > 0 {
            if let Err(e) = f.parse_dir(&root) {
                // Errors name the file that broke.
                prop_assert!(e.to_string().contains("sum_100k"), "{e}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(96), ..ProptestConfig::default() })]

    #[test]
    fn mutated_inputs_never_panic_any_structured_importer(
        which in any::<usize>(),
        muts in proptest::collection::vec(mutation(), 1..5),
    ) {
        let inputs = mutation_inputs();
        let mut bytes = inputs[which % inputs.len()].clone();
        for m in &muts {
            apply(&mut bytes, m);
        }
        let Ok(src) = Source::from_bytes("mutated", &bytes) else { return Ok(()) };
        let mut reg = Registry::builtin();
        for x in ["pert.toml", "wakeup-latency.toml", "futex-wakeup.toml"] {
            reg.push_front(Box::new(Extractor::load(Path::new(&format!("examples/extractors/{x}"))).unwrap()));
        }
        for name in STRUCTURED_FORMATS.iter().chain(&["pert", "wakeup-latency", "futex-wakeup"]) {
            let f = reg.get(name).unwrap();
            let _ = f.detect(&src);
            // Errors are fine; a panic fails the property.
            if let Ok(obs) = f.parse(&src) {
                prop_assert!(obs.iter().all(|o| !o.metric.is_empty()), "{name}");
            }
        }
    }
}

/// A Parquet table that `ingest` wrote reads back to the same rows, to
/// the last bit, and a Parquet file that is no tidy table is refused.
#[test]
fn parquet_tables_read_back_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let input = "tests/data/harness/hyperfine/json-two.json";
    let run = |args: &[&str]| {
        let out = Command::cargo_bin("patchperf")
            .unwrap()
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    };
    let parquet = dir.path().join("t.parquet");
    run(&["ingest", input, "--out", parquet.to_str().unwrap()]);
    let direct = run(&["ingest", input, "--out", "-"]).stdout;
    let out = run(&["ingest", parquet.to_str().unwrap(), "--out", "-"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("tidy-parquet"));
    assert!(!direct.is_empty());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(direct).unwrap()
    );

    // Parquet of other columns: an error naming the file, exit 2.
    let other = dir.path().join("other.parquet");
    {
        use polars::prelude::*;
        let mut df = df!("x" => [1.0f64, 2.0]).unwrap();
        let f = std::fs::File::create(&other).unwrap();
        ParquetWriter::new(f).finish(&mut df).unwrap();
    }
    let out = Command::cargo_bin("patchperf")
        .unwrap()
        .args(["ingest", other.to_str().unwrap(), "--out", "-"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("other.parquet") && err.contains("tidy"),
        "{err}"
    );
}
