//! `ingest --into DIR` and reading the archive back: what an unchanged,
//! changed or removed input does, that the archive reads as the inputs
//! read, and that `compare` and `history` take it as an input.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn patchperf() -> Command {
    Command::cargo_bin("patchperf").unwrap()
}

/// Runs patchperf, asserting success; returns (stdout, stderr).
fn ok(args: &[&str]) -> (String, String) {
    let out = patchperf().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{args:?}: {err}");
    (String::from_utf8_lossy(&out.stdout).into_owned(), err)
}

/// The history example's twelve points, copied where the test may change them.
fn points(dir: &Path) -> Vec<PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/history-xz/data");
    let mut out = Vec::new();
    for e in std::fs::read_dir(src).unwrap() {
        let p = e.unwrap().path();
        let to = dir.join(p.file_name().unwrap());
        std::fs::copy(&p, &to).unwrap();
        out.push(to);
    }
    out.sort();
    out
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Sorted CSV rows without the header.
fn rows(csv: &str) -> Vec<String> {
    let mut r: Vec<String> = csv.lines().skip(1).map(str::to_string).collect();
    r.sort();
    r
}

fn parts(archive: &Path) -> usize {
    walk(archive)
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "parquet"))
        .count()
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn an_archive_reads_back_as_its_inputs_and_history_sees_the_same_series() {
    let tmp = tempfile::tempdir().unwrap();
    let inputs = points(tmp.path());
    let archive = tmp.path().join("archive");
    let mut args = vec!["ingest"];
    args.extend(inputs.iter().map(|p| s(p)));
    args.extend(["--into", s(&archive)]);
    let (_, err) = ok(&args);
    assert!(err.contains("12 new and 0 changed inputs read"), "{err}");
    assert_eq!(parts(&archive), 12);
    assert!(archive.join("variant=6.8-rc1").is_dir());

    // Every row comes back, with the file's name as its variant and runs
    // numbered as a plain ingest numbers them.
    let (back, _) = ok(&["ingest", s(&archive), "--out", "-"]);
    let mut direct = Vec::new();
    for p in &inputs {
        let stem = p.file_stem().unwrap().to_str().unwrap();
        let (csv, _) = ok(&["ingest", s(p), "--variant", stem, "--out", "-"]);
        direct.extend(rows(&csv));
    }
    direct.sort();
    assert_eq!(rows(&back), direct);
    assert_eq!(direct.len(), 156);

    // history on the archive is history on the files.
    let mut files = vec!["history", "--order", "version", "--json", "-"];
    files.extend(inputs.iter().map(|p| s(p)));
    let (from_files, _) = ok(&files);
    let (from_archive, _) = ok(&["history", s(&archive), "--order", "version", "--json", "-"]);
    assert_eq!(from_archive, from_files);
    assert!(from_archive.contains("\"regressed\""), "{from_archive}");
}

#[test]
fn unchanged_inputs_are_not_read_changed_ones_replace_their_rows_removed_ones_are_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let inputs = points(tmp.path());
    let archive = tmp.path().join("a");
    let into = |extra: &[&str]| {
        let mut args = vec!["ingest", s(tmp.path()), "--into", s(&archive)];
        args.extend(extra);
        ok(&args).1
    };
    // The folder is one argument: its name is every value's variant.
    let first = into(&[]);
    assert!(first.contains("12 new"), "{first}");
    let again = into(&[]);
    assert!(
        again.contains("0 new and 0 changed inputs read, 12 unchanged and not read"),
        "{again}"
    );
    assert!(!again.contains("format hyperfine-json"), "{again}");

    // A run fewer in one file: its rows are replaced, its old part removed.
    let changed = &inputs[0];
    let text = std::fs::read_to_string(changed).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut json = json;
    json["results"][0]["times"].as_array_mut().unwrap().pop();
    std::fs::write(changed, serde_json::to_string(&json).unwrap()).unwrap();
    let third = into(&[]);
    assert!(
        third.contains("0 new and 1 changed input read, 11 unchanged"),
        "{third}"
    );
    assert!(third.contains("155 rows in all"), "{third}");
    assert_eq!(parts(&archive), 12, "the replaced part is gone");

    // A removed file is reported; its rows stay until --prune.
    std::fs::remove_file(&inputs[1]).unwrap();
    let fourth = into(&[]);
    assert!(fourth.contains("no longer exists (rows kept"), "{fourth}");
    assert!(fourth.contains("1 gone; 155 rows"), "{fourth}");
    let pruned = into(&["--prune"]);
    assert!(pruned.contains("rows dropped"), "{pruned}");
    assert!(!pruned.contains("155 rows in all"), "{pruned}");
    assert_eq!(parts(&archive), 11);
    let (back, _) = ok(&["ingest", s(&archive), "--out", "-"]);
    assert_eq!(rows(&back).len(), 155 - 13);
    let after = into(&[]);
    assert!(after.contains("0 gone"), "{after}");
}

#[test]
fn variants_keep_their_spelling_and_filters_reach_the_parts() {
    let tmp = tempfile::tempdir().unwrap();
    let inputs = points(tmp.path());
    let archive = tmp.path().join("a");
    for (p, v) in inputs.iter().zip(["6.10", "with plist", "a/b", "6.1"]) {
        ok(&["ingest", s(p), "--variant", v, "--into", s(&archive)]);
    }
    let (back, _) = ok(&["ingest", s(&archive), "--out", "-"]);
    for v in [",6.10,", ",with plist,", ",a/b,", ",6.1,"] {
        assert!(back.contains(v), "{v} in {back}");
    }
    let (cmp, _) = ok(&[
        "compare",
        s(&archive),
        "--baseline",
        "6.10",
        "--filter",
        "metric=time",
        "--json",
        "-",
    ]);
    let j: serde_json::Value = serde_json::from_str(&cmp).unwrap();
    let comparisons = j["comparisons"].as_array().unwrap();
    assert_eq!(comparisons.len(), 3, "{cmp}");
    assert!(comparisons.iter().all(|c| c["metric"] == "time"), "{cmp}");
    let (h, _) = ok(&[
        "history",
        s(&archive),
        "--filter",
        "variant!=a/b",
        "--json",
        "-",
    ]);
    let j: serde_json::Value = serde_json::from_str(&h).unwrap();
    let pts = j["series"][0]["points"].as_array().unwrap();
    let names: Vec<&str> = pts.iter().map(|p| p["variant"].as_str().unwrap()).collect();
    assert_eq!(names, ["6.10", "with plist", "6.1"], "{h}");
}

#[test]
fn a_folder_with_other_files_is_not_made_an_archive() {
    let tmp = tempfile::tempdir().unwrap();
    let inputs = points(tmp.path());
    let out = patchperf()
        .args(["ingest", s(&inputs[0]), "--into", s(tmp.path())])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not an archive"), "{err}");
    // A manifest that is not JSON: named with its line, exit 2.
    let archive = tmp.path().join("a");
    ok(&["ingest", s(&inputs[0]), "--into", s(&archive)]);
    std::fs::write(
        archive.join("manifest.json"),
        "{\"patchperf_archive\": 1,\n ]",
    )
    .unwrap();
    let out = patchperf()
        .args(["ingest", s(&archive), "--out", "-"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("manifest.json") && err.contains("line 2"),
        "{err}"
    );
}
