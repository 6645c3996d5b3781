//! `cargo bench --bench archive`: `ingest --into` of a tree of 2,000 run
//! logs (hackbench, 10 runs each, in 20 kernel folders), then the same
//! command again on the unchanged tree, then once more after one file
//! changed. Prints each time and the re-ingest's ratio to the first, set
//! against the 5% budget of the history issue.
//!
//! `ARCHIVE_BENCH_FILES=N` changes the number of files.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

const BUDGET: f64 = 0.05;

fn hackbench_log(seed: usize) -> String {
    let mut out = String::from(
        "Running in process mode with 10 groups using 40 file descriptors each (== 400 tasks)\n\
         Each sender will pass 100 messages of 100 bytes\n",
    );
    for r in 0..10 {
        // A deterministic spread of a few percent around 0.5 s.
        let jitter = ((seed * 31 + r * 17) % 97) as f64 / 97.0 - 0.5;
        out.push_str(&format!("Time: {:.3}\n", 0.5 * (1.0 + 0.04 * jitter)));
    }
    out
}

fn ingest_into(bin: &Path, tree: &Path, archive: &Path) -> (f64, String) {
    let t = Instant::now();
    let out = Command::new(bin)
        .args(["ingest"])
        .arg(tree)
        .arg("--into")
        .arg(archive)
        .output()
        .expect("patchperf runs");
    let secs = t.elapsed().as_secs_f64();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{err}");
    let summary = err
        .lines()
        .rev()
        .find(|l| l.contains("archive"))
        .unwrap_or("")
        .to_string();
    (secs, summary)
}

fn main() {
    let files: usize = std::env::var("ARCHIVE_BENCH_FILES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000);
    let bin = Path::new(env!("CARGO_BIN_EXE_patchperf"));
    let tmp = tempfile::tempdir().unwrap();
    let tree = tmp.path().join("runs");
    for i in 0..files {
        let kernel = tree.join(format!("6.{}", i % 20));
        std::fs::create_dir_all(&kernel).unwrap();
        std::fs::write(kernel.join(format!("hackbench-{i}.txt")), hackbench_log(i)).unwrap();
    }
    let archive = tmp.path().join("archive");
    let (first, s1) = ingest_into(bin, &tree, &archive);
    let (again, s2) = ingest_into(bin, &tree, &archive);
    std::fs::write(tree.join("6.0/hackbench-0.txt"), hackbench_log(99_999)).unwrap();
    let (one, s3) = ingest_into(bin, &tree, &archive);
    println!("archive first ingest of {files} files: {first:.3} s ({s1})");
    println!(
        "archive re-ingest, unchanged: {again:.3} s, {:.3} of the first ({:.0}% budget: {}) ({s2})",
        again / first,
        BUDGET * 100.0,
        if again / first <= BUDGET {
            "within"
        } else {
            "OVER"
        }
    );
    println!(
        "archive re-ingest, one file changed: {one:.3} s, {:.3} of the first ({s3})",
        one / first
    );
}
