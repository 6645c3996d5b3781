//! `patchperf compare` end to end: the acceptance cases of the statistics
//! issue on the seed tables (`data/lkml/`) and the hackbench corpus
//! (`tests/data/compare/`), the `--json` schema and the exit codes.

use assert_cmd::Command;
use serde_json::Value;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn lkml(name: &str) -> String {
    root().join("data/lkml").join(name).display().to_string()
}

fn compare(args: &[&str]) -> Command {
    let mut c = Command::cargo_bin("patchperf").unwrap();
    c.arg("compare").args(args).env("NO_COLOR", "1");
    c
}

/// Runs compare with `--json -` and returns (exit code, document).
fn json(args: &[&str]) -> (i32, Value) {
    let mut all = args.to_vec();
    all.extend(["--json", "-"]);
    let out = compare(&all).output().unwrap();
    let code = out.status.code().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {text}\nstderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (code, v)
}

fn comparisons(v: &Value) -> &Vec<Value> {
    v["comparisons"].as_array().unwrap()
}

fn find<'a>(v: &'a Value, bench_part: &str, params: &str, variant: &str) -> &'a Value {
    comparisons(v)
        .iter()
        .find(|c| {
            c["benchmark"].as_str().unwrap().contains(bench_part)
                && c["params"] == params
                && c["variant"] == variant
        })
        .unwrap_or_else(|| panic!("no comparison {bench_part} {params} {variant}"))
}

fn rel(a: f64, b: f64) -> f64 {
    ((a - b) / b).abs()
}

const COMPARISON_KEYS: [&str; 23] = [
    "benchmark",
    "params",
    "metric",
    "unit",
    "direction",
    "baseline",
    "variant",
    "n_baseline",
    "n_variant",
    "baseline_center",
    "variant_center",
    "center",
    "change_pct",
    "ci_low_pct",
    "ci_high_pct",
    "interval",
    "test",
    "p_value",
    "q_value",
    "effect_size",
    "min_detectable_pct",
    "n_needed",
    "verdict",
];

/// Checks a `--json` document against the documented schema: exact key
/// sets, types, enumerations, null where a value does not exist.
fn assert_schema(v: &Value) {
    let top: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(top, vec!["comparisons", "findings"]);
    for c in comparisons(v) {
        let o = c.as_object().unwrap();
        let mut keys: Vec<&str> = o.keys().map(|k| k.as_str()).collect();
        let mut want = COMPARISON_KEYS.to_vec();
        keys.sort();
        want.sort();
        assert_eq!(keys, want);
        for k in [
            "benchmark",
            "params",
            "metric",
            "unit",
            "baseline",
            "variant",
        ] {
            assert!(c[k].is_string(), "{k}");
        }
        assert!(["lower", "higher", "unknown"].contains(&c["direction"].as_str().unwrap()));
        assert!(["median", "mean"].contains(&c["center"].as_str().unwrap()));
        assert!(["mann-whitney", "welch", "welch-summary", "none"]
            .contains(&c["test"].as_str().unwrap()));
        assert!([
            "improved",
            "regressed",
            "changed",
            "unchanged",
            "inconclusive",
            "untestable"
        ]
        .contains(&c["verdict"].as_str().unwrap()));
        for k in ["n_baseline", "n_variant", "n_needed"] {
            assert!(c[k].is_null() || c[k].is_u64(), "{k}: {}", c[k]);
        }
        for k in [
            "baseline_center",
            "variant_center",
            "change_pct",
            "ci_low_pct",
            "ci_high_pct",
            "p_value",
            "q_value",
            "effect_size",
            "min_detectable_pct",
        ] {
            assert!(
                c[k].is_null() || c[k].is_f64() || c[k].is_i64(),
                "{k}: {}",
                c[k]
            );
        }
        // How the interval was computed, named exactly when there is one;
        // an exact interval only for medians.
        match c["interval"].as_str() {
            None => assert!(c["interval"].is_null() && c["ci_low_pct"].is_null()),
            Some(m) => {
                assert!(
                    ["exact", "resampled", "delta"].contains(&m),
                    "interval: {m}"
                );
                assert!(c["ci_low_pct"].is_number() && c["ci_high_pct"].is_number());
                if m == "exact" {
                    assert_eq!(c["center"], "median");
                }
            }
        }
        if c["test"] == "none" {
            assert!(c["p_value"].is_null() && c["q_value"].is_null());
            assert_eq!(c["verdict"], "untestable");
        } else {
            let p = c["p_value"].as_f64().unwrap();
            assert!(p > 0.0 && p <= 1.0, "p = 0 is never reported");
        }
    }
    for f in v["findings"].as_array().unwrap() {
        let mut keys: Vec<&str> = f.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        keys.sort();
        assert_eq!(
            keys,
            vec!["advice", "code", "evidence", "severity", "title"]
        );
        assert!(["error", "warning", "info"].contains(&f["severity"].as_str().unwrap()));
    }
}

#[test]
fn seed_003_without_n_is_untestable_with_the_n_that_would_do() {
    let (code, v) = json(&[&lkml("futex-wake-lockless-2013.txt")]);
    assert_eq!(code, 0);
    assert_schema(&v);
    let cs = comparisons(&v);
    assert_eq!(cs.len(), 15);
    for c in cs {
        assert_eq!(c["verdict"], "untestable");
        assert_eq!(c["test"], "none");
        assert!(c["n_needed"].as_u64().unwrap() >= 2, "{c}");
    }
    // Table 1, 512 threads: 4.2410 ± 0.9762 vs 12.3660 ± 5.1020 would be
    // significant from 4 runs per side; 256 threads of table 2 (atomicops,
    // +3.6%) only from hundreds.
    let c = find(&v, "first run", "threads=512", "patched");
    assert_eq!(c["n_needed"], 4);
    assert!((c["change_pct"].as_f64().unwrap() - 191.58).abs() < 0.01);
    assert!(
        find(&v, "rerun", "threads=256", "atomicops")["n_needed"]
            .as_u64()
            .unwrap()
            > 300
    );
    let codes: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap())
        .collect();
    assert!(codes.contains(&"n-unknown"), "{codes:?}");

    let out = compare(&[&lkml("futex-wake-lockless-2013.txt")])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("untestable (n≥4)"), "{text}");
    assert!(
        text.contains("untestable: for the observed difference to reach p < 0.05"),
        "{text}"
    );
    assert!(text.contains("n unknown: no test possible"), "{text}");
}

#[test]
fn seed_003_with_assumed_n_matches_scipy() {
    let (code, v) = json(&[&lkml("futex-wake-lockless-2013.txt"), "--assume-n", "10"]);
    assert_eq!(code, 0);
    assert_schema(&v);
    // scipy.stats.ttest_ind_from_stats(..., 10, ..., 10, equal_var=False)
    let table1 = [
        ("threads=512", 0.0006451226683334455),
        ("threads=256", 0.001318096407430594),
        ("threads=128", 2.7701644613634e-06),
        ("threads=64", 5.48420636432145e-09),
        ("threads=32", 0.0004657542437081709),
    ];
    for (params, p) in table1 {
        let c = find(&v, "first run", params, "patched");
        assert_eq!(c["verdict"], "regressed", "{params}");
        assert_eq!(c["test"], "welch-summary");
        assert_eq!(c["center"], "mean");
        assert_eq!(c["n_baseline"], 10);
        assert!(
            rel(c["p_value"].as_f64().unwrap(), p) < 1e-9,
            "{params}: {} vs {p}",
            c["p_value"]
        );
        assert!(c["ci_low_pct"].as_f64().unwrap() > 0.0);
    }
}

#[test]
fn seed_003_table_2_alone_after_bh() {
    let (_, v) = json(&[
        &lkml("futex-wake-lockless-2013.txt"),
        "--assume-n",
        "10",
        "--filter",
        "benchmark~rerun",
    ]);
    assert_schema(&v);
    // SciPy: ttest_ind_from_stats(equal_var=False) per row, then
    // false_discovery_control over these ten.
    let want = [
        (
            "threads=512",
            "barrier",
            0.0014408385908743352,
            0.014408385908743352,
        ),
        (
            "threads=512",
            "atomicops",
            0.051368373997556005,
            0.10273674799511201,
        ),
        (
            "threads=256",
            "barrier",
            0.4472335039073156,
            0.5590418798841444,
        ),
        (
            "threads=256",
            "atomicops",
            0.8007694557014484,
            0.8007694557014484,
        ),
        (
            "threads=128",
            "barrier",
            0.04230081469312657,
            0.10273674799511201,
        ),
        (
            "threads=128",
            "atomicops",
            0.026334857492850663,
            0.0877828583095022,
        ),
        (
            "threads=64",
            "barrier",
            0.5078040627377589,
            0.5642267363752878,
        ),
        (
            "threads=64",
            "atomicops",
            0.0033549949081937277,
            0.01677497454096864,
        ),
        (
            "threads=32",
            "barrier",
            0.14717281524275405,
            0.2452880254045901,
        ),
        (
            "threads=32",
            "atomicops",
            0.38117999753814574,
            0.5445428536259225,
        ),
    ];
    assert_eq!(comparisons(&v).len(), 10);
    for (params, variant, p, q) in want {
        let c = find(&v, "rerun", params, variant);
        assert!(
            rel(c["p_value"].as_f64().unwrap(), p) < 1e-9,
            "{params} {variant}"
        );
        assert!(
            rel(c["q_value"].as_f64().unwrap(), q) < 1e-9,
            "{params} {variant}"
        );
        let verdict = c["verdict"].as_str().unwrap();
        match (params, variant) {
            ("threads=512", "barrier") => {
                assert_eq!(verdict, "regressed");
                assert!((c["change_pct"].as_f64().unwrap() - 55.5).abs() < 0.05);
            }
            ("threads=64", "atomicops") => {
                assert_eq!(verdict, "improved");
                assert!((c["change_pct"].as_f64().unwrap() + 49.0).abs() < 0.05);
            }
            _ => assert!(
                ["unchanged", "inconclusive"].contains(&verdict),
                "{params} {variant}: {verdict}"
            ),
        }
    }
}

#[test]
fn seed_000_underflow_is_a_bound_and_the_gate_follows_the_threshold() {
    let file = lkml("futex-plist-wakeup-2007.txt");
    let (code, v) = json(&[&file]);
    assert_eq!(code, 0, "no gate without --fail-on-regression");
    assert_schema(&v);
    let fifo = find(&v, "SCHED_FIFO", "", "with plist");
    assert_eq!(fifo["baseline"], "with simple list");
    assert_eq!(fifo["verdict"], "regressed");
    assert_eq!(fifo["n_baseline"], 5000);
    assert!((fifo["change_pct"].as_f64().unwrap() - 46.0).abs() < 0.05);
    // SciPy underflows to 0 here; patchperf stores the bound 1e-300.
    assert_eq!(fifo["p_value"].as_f64().unwrap(), 1e-300);
    let other = find(&v, "SCHED_OTHER", "", "with plist");
    assert_eq!(other["verdict"], "regressed");
    assert!((other["change_pct"].as_f64().unwrap() - 1.97).abs() < 0.005);
    // scipy: ttest_ind_from_stats(6656.73, 539.35, 5000, 6787.97, 479.41, 5000, False)
    assert!(rel(other["p_value"].as_f64().unwrap(), 1.5110389309826166e-37) < 1e-9);

    let out = compare(&[&file]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let row = text
        .lines()
        .find(|l| l.contains("+46.0%"))
        .expect("SCHED_FIFO row");
    assert!(
        row.contains("< 1e-300"),
        "p shown as a bound, never a bare 0: {row}"
    );

    let gate = |t: &str| {
        compare(&[
            &file,
            "--filter",
            "benchmark~SCHED_OTHER",
            "--fail-on-regression",
            "--threshold",
            t,
        ])
        .output()
        .unwrap()
        .status
        .code()
        .unwrap()
    };
    assert_eq!(gate("2%"), 0, "+1.97% is below a 2% gate");
    assert_eq!(gate("2"), 0);
    assert_eq!(gate("1%"), 1);
    // Both cases: +46% trips a 2% gate.
    compare(&[&file, "--fail-on-regression", "--threshold", "2%"])
        .assert()
        .code(1);
}

#[test]
fn seed_002_uses_the_raw_samples_and_verifies_the_stated_summary() {
    let (code, v) = json(&[&lkml("lock-prefix-up-2008.txt")]);
    assert_eq!(code, 0);
    assert_schema(&v);
    let c = find(&v, "hackbench 50", "", "with lock prefix");
    assert_eq!(c["test"], "mann-whitney");
    assert_eq!(c["center"], "median");
    assert_eq!(
        (c["n_baseline"].as_u64(), c["n_variant"].as_u64()),
        (Some(5), Some(5))
    );
    // Fully separated 5 vs 5: exact p = 2 / C(10, 5).
    assert!(rel(c["p_value"].as_f64().unwrap(), 0.007936507936507936) < 1e-12);
    assert_eq!(c["effect_size"].as_f64(), Some(1.0));
    assert_eq!(c["verdict"], "regressed");
    let findings = v["findings"].as_array().unwrap();
    let verified = findings
        .iter()
        .find(|f| {
            f["code"] == "stated-summary-verified"
                && f["title"].as_str().unwrap().contains("make -j1 kernel/")
                && f["title"].as_str().unwrap().contains("no lock prefix")
        })
        .expect("the stated 33.94 +/- 0.07 is checked against the samples");
    let ev = verified["evidence"].as_str().unwrap();
    assert!(
        ev.contains("mean stated 33.94") && ev.contains("stddev stated 0.07"),
        "{ev}"
    );
    // The other side states 0.27 s where its four runs spread 0.63 s.
    assert!(findings
        .iter()
        .any(|f| f["code"] == "stated-summary-mismatch"
            && f["evidence"]
                .as_str()
                .unwrap()
                .contains("stddev stated 0.27")));
}

#[test]
fn seed_004_single_values_are_untestable_with_the_stated_changes() {
    let (code, v) = json(&[&lkml("wakeup-buddy-pgbench-2013.txt")]);
    assert_eq!(code, 0);
    assert_schema(&v);
    let want = [
        ("wakeup-buddy", 45.20),
        ("1s-limit", 43.67),
        ("100ms-limit", 32.58),
        ("10ms-limit", 20.40),
        ("1ms-limit", 7.21),
    ];
    assert_eq!(comparisons(&v).len(), 5);
    for (variant, pct) in want {
        let c = find(&v, "pgbench", "", variant);
        assert_eq!(c["baseline"], "original");
        assert_eq!(c["verdict"], "untestable");
        assert_eq!(c["direction"], "higher");
        assert!(
            (c["change_pct"].as_f64().unwrap() - pct).abs() < 0.01,
            "{variant}: {}",
            c["change_pct"]
        );
    }
    assert!(v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["code"] == "single-sample"));
}

fn hackbench_args() -> Vec<String> {
    let dir = root().join("tests/data/compare");
    // In the order a shell expands `hackbench-baseline-*.txt` (1, 10, 2, …).
    let mut base: Vec<String> = (1..=10)
        .map(|i| format!("hackbench-baseline-{i}.txt"))
        .collect();
    base.sort();
    let mut patched: Vec<String> = (1..=10)
        .map(|i| format!("hackbench-patched-{i}.txt"))
        .collect();
    patched.sort();
    base.into_iter()
        .chain(patched)
        .map(|f| dir.join(f).display().to_string())
        .collect()
}

#[test]
fn hackbench_corpus_ten_runs_per_side() {
    // The corpus's "patched" side ran with a CPU hog, but on this 2-vCPU
    // guest the hog barely moves hackbench's median (-7%) while run-to-run
    // noise is 20–30%: Mann-Whitney p = 0.85 (SciPy), no significant change.
    let args = hackbench_args();
    let refs: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
    let (code, v) = json(&refs);
    assert_eq!(code, 0);
    assert_schema(&v);
    let cs = comparisons(&v);
    assert_eq!(cs.len(), 1);
    let c = &cs[0];
    assert_eq!(c["baseline"], "baseline");
    assert_eq!(c["variant"], "patched");
    assert_eq!(
        (c["n_baseline"].as_u64(), c["n_variant"].as_u64()),
        (Some(10), Some(10))
    );
    assert_eq!(c["test"], "mann-whitney");
    assert!(rel(c["p_value"].as_f64().unwrap(), 0.8501067391385259) < 1e-9);
    assert!((c["baseline_center"].as_f64().unwrap() - 0.6645).abs() < 1e-12);
    assert!((c["variant_center"].as_f64().unwrap() - 0.617).abs() < 1e-12);
    assert_eq!(c["verdict"], "inconclusive");
    assert!(c["n_needed"].as_u64().unwrap() > 100);

    // A quoted glob per side gives the same comparison.
    let dir = root().join("tests/data/compare");
    let (_, g) = json(&[
        &dir.join("hackbench-baseline-*.txt").display().to_string(),
        &dir.join("hackbench-patched-*.txt").display().to_string(),
    ]);
    assert_eq!(comparisons(&g)[0]["variant"], "patched");
    assert_eq!(comparisons(&g)[0]["p_value"], c["p_value"]);
    // The interval of medians of ten runs is the exact bootstrap one: no
    // seed changes it.
    let (_, again) = json(&refs);
    assert_eq!(again["comparisons"][0]["ci_low_pct"], c["ci_low_pct"]);
    let mut seeded = refs.clone();
    seeded.extend(["--seed", "42"]);
    let (_, other) = json(&seeded);
    assert_eq!(other["comparisons"][0]["ci_low_pct"], c["ci_low_pct"]);
    // Means are resampled: seeded, the same run gives the same CI, another
    // seed another.
    let mut means = refs.clone();
    means.extend(["--test", "welch"]);
    let (_, m) = json(&means);
    let (_, m_again) = json(&means);
    assert_eq!(
        m_again["comparisons"][0]["ci_low_pct"],
        m["comparisons"][0]["ci_low_pct"]
    );
    means.extend(["--seed", "42"]);
    let (_, m_other) = json(&means);
    assert_ne!(
        m_other["comparisons"][0]["ci_low_pct"],
        m["comparisons"][0]["ci_low_pct"]
    );
}

#[test]
fn text_output_is_a_table_with_a_summary_and_no_colour_off_a_terminal() {
    let args = hackbench_args();
    let refs: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
    let out = compare(&refs).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    // Findings (if any) come first, then the table.
    let table = text
        .find("hackbench · time (ms, lower is better)")
        .unwrap_or_else(|| panic!("{text}"));
    if let Some(first_finding) = ["error:", "warning:", "info:"]
        .iter()
        .filter_map(|l| text.find(l))
        .min()
    {
        assert!(
            first_finding < table,
            "findings must precede the table: {text}"
        );
    }
    assert!(text.contains("inconclusive"));
    assert!(text.contains(
        "1 comparison: 0 regressed, 0 improved, 0 unchanged, 1 inconclusive, 0 untestable"
    ));
    assert!(
        text.contains("geomean of variant/baseline ratios 0.9285 (-7.1%)"),
        "{text}"
    );
    assert!(
        !text.contains('\x1b'),
        "no escape codes when NO_COLOR is set / not a TTY"
    );
    let mut always = refs.clone();
    always.extend(["--color", "always"]);
    let coloured = String::from_utf8(compare(&always).output().unwrap().stdout).unwrap();
    assert!(coloured.contains('\x1b'));
}

#[test]
fn json_goes_to_a_file_and_the_table_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.json");
    let out = compare(&[
        &lkml("lock-prefix-up-2008.txt"),
        "--json",
        &path.display().to_string(),
    ])
    .output()
    .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains("hackbench 50"));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_schema(&v);
}

#[test]
fn options_change_the_test_and_the_correction() {
    let file = lkml("lock-prefix-up-2008.txt");
    let (_, v) = json(&[&file, "--test", "welch", "--correction", "none"]);
    let c = find(&v, "hackbench 50", "", "with lock prefix");
    assert_eq!(c["test"], "welch");
    assert_eq!(c["center"], "mean");
    assert_eq!(c["p_value"], c["q_value"]);
    let (_, h) = json(&[
        &file,
        "--correction",
        "holm",
        "--baseline",
        "with lock prefix",
    ]);
    let c = find(&h, "hackbench 50", "", "no lock prefix");
    assert_eq!(c["baseline"], "with lock prefix");
    assert_eq!(c["verdict"], "improved");
    assert!(c["q_value"].as_f64().unwrap() >= c["p_value"].as_f64().unwrap());
}

#[test]
fn bad_input_and_usage_exit_2() {
    let dir = root().join("tests/data/compare");
    // Units that cannot be converted: the error names file and line.
    compare(&[
        &dir.join("mixed-units-baseline.txt").display().to_string(),
        &dir.join("mixed-units-patched.txt").display().to_string(),
    ])
    .assert()
    .code(2)
    .stderr(predicates::str::contains("mixed-units-patched.txt:5:"))
    .stderr(predicates::str::contains("`MB`"));
    let file = lkml("lock-prefix-up-2008.txt");
    compare(&["/nonexistent/x.txt"]).assert().code(2);
    compare(&[&file, "--threshold", "lots"]).assert().code(2);
    compare(&[&file, "--filter", "threads"]).assert().code(2);
    compare(&[&file, "--filter", "benchmark~nothing-like-this"])
        .assert()
        .code(2);
    compare(&[&file, "--baseline", "nobody"]).assert().code(2);
    compare(&[&file, "--test", "chi2"]).assert().code(2);
    compare(&[&file, "--assume-n", "1"]).assert().code(2);
    // One variant alone has nothing to be compared with.
    compare(&[&dir.join("hackbench-baseline-1.txt").display().to_string()])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("only one variant"));
    let tmp = tempfile::tempdir().unwrap();
    let empty = tmp.path().join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    compare(&[&empty.display().to_string()]).assert().code(2);
}

#[test]
fn variants_can_be_renamed_and_selected() {
    let dir = root().join("tests/data/compare");
    let base = dir.join("hackbench-baseline-*.txt").display().to_string();
    let hog = dir.join("hackbench-patched-*.txt").display().to_string();
    let (_, v) = json(&[&base, &hog, "--variant-names", "idle,cpu-hog"]);
    assert_eq!(comparisons(&v)[0]["baseline"], "idle");
    assert_eq!(comparisons(&v)[0]["variant"], "cpu-hog");
    compare(&[&base, &hog, "--variant-names", "a,b,c"])
        .assert()
        .code(2);
    // A variant condition keeps the baseline it is compared with.
    let (_, t) = json(&[
        &lkml("futex-wake-lockless-2013.txt"),
        "--filter",
        "variant=barrier, threads>=256",
    ]);
    let cs = comparisons(&t);
    assert_eq!(cs.len(), 2);
    assert!(cs
        .iter()
        .all(|c| c["baseline"] == "baseline" && c["variant"] == "barrier"));
}

/// `compare` reads user formats as `ingest` does: an extractor file names
/// the benchmark, its params and variants (seed 000's futex wake-up
/// summary blocks), and `--map` reads a CSV whose columns the user names.
#[test]
fn extractor_and_map_flags_read_user_formats() {
    let seed = root().join("tests/data/seeds/000_dcac3b90abb307ba.txt");
    let extractor = root().join("examples/extractors/futex-wakeup.toml");
    let (code, v) = json(&[
        "--extractor",
        extractor.to_str().unwrap(),
        seed.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert_eq!(comparisons(&v).len(), 2);
    let fifo = comparisons(&v)
        .iter()
        .find(|c| c["params"] == "policy=SCHED_FIFO")
        .expect("the extractor's policy param");
    assert_eq!(fifo["benchmark"], "futex-wakeup");
    assert_eq!(fifo["baseline"], "simple list");
    assert_eq!(fifo["variant"], "plist");
    assert_eq!(fifo["verdict"], "regressed");
    let pct = fifo["change_pct"].as_f64().unwrap();
    assert!((pct - 46.0168).abs() < 1e-3, "{pct}");

    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("boot.csv");
    std::fs::write(
        &csv,
        "kernel,bench,ms\nold,boot,10.1\nold,boot,10.3\nold,boot,10.2\nold,boot,10.4\nold,boot,10.2\n\
         new,boot,12.1\nnew,boot,12.3\nnew,boot,12.0\nnew,boot,12.2\nnew,boot,12.4\n",
    )
    .unwrap();
    let (code, v) = json(&[
        "--map",
        "kernel=variant",
        "--map",
        "bench=benchmark",
        "--map",
        "ms=value",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    let c = &comparisons(&v)[0];
    assert_eq!(
        (c["benchmark"].as_str(), c["variant"].as_str()),
        (Some("boot"), Some("new"))
    );
    assert!(
        (c["change_pct"].as_f64().unwrap() - 19.6078).abs() < 1e-3,
        "{c}"
    );

    // A broken extractor is a usage error naming the file, exit code 2.
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "name = \"x\"\n\n[[rule]]\nregex = '(?P<value>'\n").unwrap();
    let out = compare(&["--extractor", bad.to_str().unwrap(), seed.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.toml"));
}

/// Stated summaries hundreds of orders of magnitude apart: a p-value (not
/// null) in `--json`, and an e-mail text report that stays ASCII with the
/// spreads in scientific notation.
#[test]
fn extreme_magnitudes_give_a_p_value_and_a_legible_ascii_report() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("far.csv");
    let mut text =
        String::from("source,line,benchmark,params,variant,metric,unit,stat,value,run\n");
    for (line, variant, mean, sd) in [
        (1, "baseline", "1e-200", "1e-201"),
        (2, "patched", "1e200", "1e199"),
    ] {
        for (stat, v) in [("mean", mean), ("stddev", sd), ("n", "10")] {
            text.push_str(&format!("x,{line},far,,{variant},time,ms,{stat},{v},\n"));
        }
    }
    std::fs::write(&csv, text).unwrap();
    let (code, v) = json(&[csv.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_schema(&v);
    let c = &comparisons(&v)[0];
    let p = c["p_value"].as_f64().unwrap();
    assert!((p / 1.5522133898168318e-10 - 1.0).abs() < 1e-6, "{c}");
    assert_eq!(c["verdict"], "regressed");
    let txt = dir.path().join("far.txt");
    compare(&[csv.to_str().unwrap(), "--txt", txt.to_str().unwrap()])
        .assert()
        .success();
    let report = std::fs::read_to_string(&txt).unwrap();
    for l in report.lines() {
        assert!(l.is_ascii() && l.chars().count() <= 72, "{l:?}");
    }
    assert!(report.contains("1.000e199"), "{report}");
    assert!(!report.contains("0000000000"), "{report}");
}

/// Console values are shown in a readable unit: Go's ns/op of a
/// millisecond-long benchmark read as ms/op, every row of a table alike.
#[test]
fn console_values_are_scaled_to_a_readable_unit() {
    let dir = tempfile::tempdir().unwrap();
    let log = |ns: &[f64]| {
        let mut t = String::from("goos: linux\ngoarch: amd64\npkg: example.com/p\n");
        for v in ns {
            t.push_str(&format!("BenchmarkParse-2   \t     100\t   {v} ns/op\n"));
        }
        t.push_str("PASS\n");
        t
    };
    let base = dir.path().join("base.txt");
    let new = dir.path().join("new.txt");
    std::fs::write(
        &base,
        log(&[1377000.0, 1381000.0, 1379500.0, 1376200.0, 1380100.0]),
    )
    .unwrap();
    std::fs::write(
        &new,
        log(&[1301000.0, 1299500.0, 1302200.0, 1300100.0, 1298800.0]),
    )
    .unwrap();
    let out = compare(&[base.to_str().unwrap(), new.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("(ms/op, lower is better)"), "{text}");
    assert!(
        text.lines().any(|l| l.trim_end().ends_with(" 1.38")),
        "{text}"
    );
    assert!(!text.contains("e6"), "{text}");
}

/// The geomean of ratios is one per metric and variant pair: ratios of a
/// time and of a byte count are not averaged together.
#[test]
fn geomeans_are_per_metric_and_variant_pair() {
    let dir = tempfile::tempdir().unwrap();
    let log = |ns: &[f64], bytes: f64| {
        let mut t = String::from("goos: linux\ngoarch: amd64\npkg: example.com/p\n");
        for v in ns {
            t.push_str(&format!(
                "BenchmarkParse-2   \t     100\t   {v} ns/op\t  {bytes} B/op\t       3 allocs/op\n"
            ));
        }
        t.push_str("PASS\n");
        t
    };
    let base = dir.path().join("base.txt");
    let new = dir.path().join("new.txt");
    std::fs::write(&base, log(&[1000.0, 1010.0, 990.0, 1005.0, 995.0], 512.0)).unwrap();
    std::fs::write(&new, log(&[900.0, 910.0, 890.0, 905.0, 895.0], 1024.0)).unwrap();
    let out = compare(&[base.to_str().unwrap(), new.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let summary = text.lines().last().unwrap_or("");
    assert!(
        summary.contains("geomean of new/base time/op 0.9"),
        "{summary}"
    );
    assert!(
        summary.contains("geomean of new/base alloc-bytes/op 2.0000 (+100"),
        "{summary}"
    );
    assert!(!summary.contains("variant/baseline ratios"), "{summary}");
}
