//! What a new user does first, end to end: two folders or two logs named
//! after kernels, compared with a gate. Variant names stay whole, the
//! baseline is taken as typed, and logs that name no benchmark still pair.

use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

/// Six `Time:` lines around `centre` (hackbench's own line, with nothing
/// else in the file to name the benchmark).
fn time_log(path: &Path, centre: f64) {
    let text: String = [-0.02, -0.01, 0.0, 0.005, 0.01, 0.02]
        .iter()
        .map(|d| format!("Time: {:.3}\n", centre + d))
        .collect();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// `compare ARGS --json -` run in `dir`: (exit code, document, stderr).
fn compare(dir: &Path, args: &[&str]) -> (i32, Value, String) {
    let out = Command::cargo_bin("patchperf")
        .unwrap()
        .current_dir(dir)
        .arg("compare")
        .args(args)
        .args(["--json", "-"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let doc = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}); stderr: {stderr}"));
    (out.status.code().unwrap(), doc, stderr)
}

/// (benchmark, baseline, variant, verdict) of each comparison.
fn pairs(doc: &Value) -> Vec<(String, String, String, String)> {
    doc["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let s = |k: &str| c[k].as_str().unwrap().to_string();
            (s("benchmark"), s("baseline"), s("variant"), s("verdict"))
        })
        .collect()
}

#[test]
fn kernel_folders_keep_their_names_and_the_baseline_is_taken_as_typed() {
    let dir = tempfile::tempdir().unwrap();
    for [base, new] in [
        ["v6.8", "v6.8-patched"],
        ["v6.8", "v6.9"],
        ["linux-6.8", "linux-6.8-sched"],
        ["6.8-rc1", "6.8-rc1+fix"],
    ] {
        let case = dir.path().join(format!("{base}_{new}"));
        time_log(&case.join(base).join("hackbench.log"), 1.0);
        time_log(&case.join(new).join("hackbench.log"), 1.3);
        // The later folder first: only --baseline makes `base` the baseline.
        let (code, doc, err) = compare(&case, &[new, base, "--baseline", base]);
        assert_eq!(code, 0, "{base} {new}: {err}");
        assert_eq!(
            pairs(&doc),
            [(
                "hackbench".to_string(),
                base.to_string(),
                new.to_string(),
                "regressed".to_string()
            )],
            "{base} {new}"
        );
        // The folder as typed with a slash names it too.
        let typed = format!("{base}/");
        let (code, doc, err) = compare(&case, &[new, base, "--baseline", &typed]);
        assert_eq!(code, 0, "{typed}: {err}");
        assert_eq!(pairs(&doc)[0].1, base);
    }
}

#[test]
fn two_logs_that_name_no_benchmark_pair_up_and_the_gate_trips() {
    let dir = tempfile::tempdir().unwrap();
    time_log(&dir.path().join("timeonly-a.log"), 1.0);
    time_log(&dir.path().join("timeonly-b.log"), 1.2);
    let (code, doc, err) = compare(
        dir.path(),
        &["timeonly-a.log", "timeonly-b.log", "--fail-on-regression"],
    );
    assert_eq!(code, 1, "the gate must trip on a 20% slowdown: {err}");
    let p = pairs(&doc);
    assert_eq!(p.len(), 1, "{doc}");
    assert_eq!(p[0].0, "timeonly", "named after what the files share");
    assert_eq!((p[0].1.as_str(), p[0].2.as_str()), ("a", "b"));
    assert_eq!(p[0].3, "regressed");

    // Names that share nothing: the values still meet.
    time_log(&dir.path().join("x/before.txt"), 1.0);
    time_log(&dir.path().join("y/after.txt"), 1.0);
    let (code, doc, err) = compare(dir.path(), &["x/before.txt", "y/after.txt"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(pairs(&doc).len(), 1, "{doc}");
    assert_eq!(pairs(&doc)[0].0, "unnamed");
}

#[test]
fn one_log_per_folder_and_replicate_logs_pair_up() {
    let dir = tempfile::tempdir().unwrap();
    time_log(&dir.path().join("v6.8/a.log"), 1.0);
    time_log(&dir.path().join("v6.8-patched/b.log"), 1.3);
    let (_, doc, err) = compare(dir.path(), &["v6.8", "v6.8-patched"]);
    assert_eq!(pairs(&doc).len(), 1, "{err}");

    for (side, centre) in [("base", 1.0), ("patch", 1.3)] {
        for i in 1..=3 {
            time_log(&dir.path().join(format!("r/hb-{side}-{i}.txt")), centre);
        }
    }
    let args: Vec<String> = ["base", "patch"]
        .iter()
        .flat_map(|s| (1..=3).map(move |i| format!("r/hb-{s}-{i}.txt")))
        .collect();
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let (_, doc, err) = compare(dir.path(), &refs);
    let c = &doc["comparisons"].as_array().unwrap();
    assert_eq!(c.len(), 1, "{err}");
    assert_eq!(c[0]["benchmark"], "hb");
    assert_eq!(c[0]["n_baseline"], 18, "three replicate files of six");
}

#[test]
fn folders_of_several_logs_keep_one_benchmark_per_file() {
    let dir = tempfile::tempdir().unwrap();
    for (side, centre) in [("old", 1.0), ("new", 1.3)] {
        time_log(&dir.path().join(side).join("pipe.log"), centre);
        time_log(&dir.path().join(side).join("sched.log"), centre * 2.0);
    }
    let (_, doc, err) = compare(dir.path(), &["old", "new"]);
    let mut names: Vec<String> = pairs(&doc).into_iter().map(|p| p.0).collect();
    names.sort();
    assert_eq!(names, ["pipe", "sched"], "{err}");
}

#[test]
fn a_history_of_logs_that_name_no_benchmark_is_one_series() {
    let dir = tempfile::tempdir().unwrap();
    let kernels = ["6.1", "6.2", "6.3", "6.4", "6.5", "6.6"];
    for (i, k) in kernels.iter().enumerate() {
        let centre = if i < 3 { 1.0 } else { 1.3 };
        time_log(&dir.path().join(format!("hackbench-{k}.log")), centre);
    }
    let args: Vec<String> = kernels
        .iter()
        .map(|k| format!("hackbench-{k}.log"))
        .collect();
    let out = Command::cargo_bin("patchperf")
        .unwrap()
        .current_dir(dir.path())
        .arg("history")
        .args(&args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("1 series over 6 points"),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("hackbench-6.3 → hackbench-6.4"), "{text}");
}

#[test]
fn a_gate_with_nothing_to_compare_fails_and_names_each_side_s_benchmarks() {
    let dir = tempfile::tempdir().unwrap();
    let go = |name: &str, bench: &str| {
        let text: String = (0..5)
            .map(|i| format!("Benchmark{bench}-8   \t 1000000\t  {} ns/op\n", 100 + i))
            .collect();
        std::fs::write(dir.path().join(name), format!("{text}PASS\n")).unwrap();
    };
    go("old.txt", "Encode");
    go("new.txt", "Decode");
    let out = Command::cargo_bin("patchperf")
        .unwrap()
        .current_dir(dir.path())
        .args(["compare", "old.txt", "new.txt", "--fail-on-regression"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("0 comparisons"), "{stderr}");
    // Each side's benchmarks, so the user sees why they never met.
    assert!(stderr.contains("`old`: Encode"), "{stderr}");
    assert!(stderr.contains("`new`: Decode"), "{stderr}");
}
