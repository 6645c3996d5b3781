//! Outputs as units: a report folder holds the old report or the new one,
//! whenever a run is killed; nothing is written outside the output or
//! through a planted symlink; two runs on one output never mix.

use assert_cmd::Command;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

const DIR: &str = "tests/data/reliability";

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("patchperf")
}

/// Every file under `dir` with its bytes, by relative path.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                out.insert(rel, std::fs::read(&p).unwrap_or_default());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn report(out: &Path, formats: &str) -> std::process::Command {
    let mut c = std::process::Command::new(bin());
    c.current_dir(DIR)
        .args(["report", "study_esc.toml", "--formats", formats, "--out"])
        .arg(out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    c
}

/// Names in `dir` other than `keep` (litter of temporaries and locks).
fn others(dir: &Path, keep: &str) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != keep)
        .collect()
}

#[test]
fn a_killed_report_leaves_the_old_report_or_the_new_one() {
    let root = tempfile::tempdir().unwrap();
    let (old_dir, new_dir) = (root.path().join("old"), root.path().join("new"));
    assert!(report(&old_dir, "md,txt").status().unwrap().success());
    let started = std::time::Instant::now();
    assert!(report(&new_dir, "html,md,txt,json")
        .status()
        .unwrap()
        .success());
    let full = started.elapsed();
    let (old, new) = (snapshot(&old_dir), snapshot(&new_dir));
    assert_ne!(old, new);

    let out = root.path().join("work");
    for k in 0..12u32 {
        let _ = std::fs::remove_dir_all(&out);
        assert!(report(&out, "md,txt").status().unwrap().success());
        let mut child = report(&out, "html,md,txt,json").spawn().unwrap();
        // Points spread over the whole run, from start-up to the swap.
        std::thread::sleep(full.mul_f64(f64::from(k) / 11.0));
        let _ = child.kill();
        let _ = child.wait();
        let now = snapshot(&out);
        assert!(now == old || now == new, "kill {k}: a mix of two reports");
    }
    // The next run removes whatever the killed ones left beside the folder.
    assert!(report(&out, "html,md,txt,json").status().unwrap().success());
    assert_eq!(snapshot(&out), new);
    assert!(
        others(root.path(), "work")
            .iter()
            .all(|n| n == "old" || n == "new"),
        "{:?}",
        others(root.path(), "work")
    );
}

#[cfg(unix)]
#[test]
fn a_planted_charts_symlink_is_replaced_not_followed() {
    let root = tempfile::tempdir().unwrap();
    let target = root.path().join("elsewhere");
    std::fs::create_dir(&target).unwrap();
    std::fs::write(target.join("unrelated.svg"), "keep me").unwrap();
    let out = root.path().join("r");
    std::fs::create_dir(&out).unwrap();
    std::os::unix::fs::symlink(&target, out.join("charts")).unwrap();
    assert!(report(&out, "html,md").status().unwrap().success());
    assert_eq!(
        others(&target, ""),
        ["unrelated.svg"],
        "nothing written there"
    );
    assert_eq!(
        std::fs::read(target.join("unrelated.svg")).unwrap(),
        b"keep me"
    );
    let charts = std::fs::symlink_metadata(out.join("charts")).unwrap();
    assert!(charts.is_dir() && !charts.file_type().is_symlink());
}

#[test]
fn a_study_cannot_send_its_report_outside_its_folder() {
    let root = tempfile::tempdir().unwrap();
    let study = root.path().join("s.toml");
    let text = std::fs::read_to_string(Path::new(DIR).join("study_esc.toml")).unwrap();
    let inputs = std::fs::canonicalize(DIR).unwrap();
    let text = text.replace("\"esc_", &format!("\"{}/esc_", inputs.display()));
    for dir in ["../../escaped", "/tmp/patchperf-escaped-report"] {
        std::fs::write(&study, format!("{text}\n[output]\ndir = \"{dir}\"\n")).unwrap();
        let o = Command::cargo_bin("patchperf")
            .unwrap()
            .current_dir(root.path())
            .args(["report", "s.toml", "--formats", "md"])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{dir}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("explicit --out"));
    }
    assert!(!Path::new("/tmp/patchperf-escaped-report").exists());
}

#[cfg(unix)]
#[test]
fn ingest_never_writes_through_a_planted_symlink() {
    let root = tempfile::tempdir().unwrap();
    let victim = root.path().join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    let out = root.path().join("t.csv");
    for planted in [".t.csv.partial", ".t.csv.lock"] {
        let link = root.path().join(planted);
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        let _ = Command::cargo_bin("patchperf")
            .unwrap()
            .current_dir(DIR)
            .args(["ingest", "go_crcrlf.txt", "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"precious", "{planted}");
        std::fs::remove_file(&link).unwrap();
    }
}

#[test]
fn two_ingests_to_one_table_never_mix() {
    let root = tempfile::tempdir().unwrap();
    // Two inputs of different sizes, each large enough to take a while.
    let (a, b) = (root.path().join("a.txt"), root.path().join("b.txt"));
    let lines = |n: usize, v: &str| {
        (0..n)
            .map(|i| format!("BenchmarkX-8 1000 {v}{} ns/op\n", i % 10))
            .collect::<String>()
    };
    std::fs::write(&a, lines(300_000, "1")).unwrap();
    std::fs::write(&b, lines(120_000, "2")).unwrap();
    let out = root.path().join("t.csv");
    let run = |input: &Path| {
        let mut c = std::process::Command::new(bin());
        c.arg("ingest")
            .arg(input)
            .arg("--out")
            .arg(&out)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped());
        c.spawn().unwrap()
    };
    let (ca, cb) = (run(&a), run(&b));
    let (oa, ob) = (
        ca.wait_with_output().unwrap(),
        cb.wait_with_output().unwrap(),
    );
    let ok = [oa.status.success(), ob.status.success()];
    assert!(ok.iter().any(|&s| s), "at least one run writes the table");
    for o in [&oa, &ob] {
        if !o.status.success() {
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(err.contains("another patchperf run"), "{err}");
        }
    }
    let rows = std::fs::read_to_string(&out).unwrap().lines().count() - 1;
    assert!(rows == 300_000 || rows == 120_000, "{rows} rows: a mix");
    std::thread::sleep(Duration::from_millis(10));
    assert_eq!(
        others(root.path(), "t.csv").len(),
        2,
        "only the inputs are left"
    );
}
