//! Conventions every command shares: `--color` with NO_COLOR/FORCE_COLOR,
//! `--quiet`, and an ingest accounting that stays one screen for many
//! inputs without hiding a loss.

use assert_cmd::Command;

fn patchperf() -> Command {
    let mut c = Command::cargo_bin("patchperf").unwrap();
    for k in ["NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "CI"] {
        c.env_remove(k);
    }
    c
}

fn escapes(c: &mut Command) -> usize {
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout.iter().filter(|&&b| b == 0x1b).count()
}

const CONFIG: &str = "tests/data/kconfig/fedora36-5.17-x86_64-debug.config";
const BASE: &str = "data/hackbench/baseline";
const PATCHED: &str = "data/hackbench/patched";

#[test]
fn color_follows_the_flag_and_the_environment_on_every_command() {
    // Not a terminal: no colour by default, colour when forced.
    assert_eq!(escapes(patchperf().args(["check", CONFIG])), 0);
    assert!(escapes(patchperf().args(["check", CONFIG]).env("FORCE_COLOR", "1")) > 0);
    assert!(escapes(patchperf().args(["check", CONFIG, "--color", "always"])) > 0);
    assert!(escapes(patchperf().args(["--color=always", "compare", BASE, PATCHED])) > 0);
    assert!(
        escapes(
            patchperf()
                .args(["compare", BASE, PATCHED])
                .env("CLICOLOR_FORCE", "1")
        ) > 0
    );
    // NO_COLOR beats FORCE_COLOR under auto; an explicit never beats both.
    assert_eq!(
        escapes(
            patchperf()
                .args(["compare", BASE, PATCHED])
                .env("NO_COLOR", "1")
                .env("FORCE_COLOR", "1")
        ),
        0
    );
    assert_eq!(
        escapes(
            patchperf()
                .args(["check", CONFIG, "--color", "never"])
                .env("FORCE_COLOR", "1")
        ),
        0
    );
}

/// Twelve inputs, two of them lossy: by default the ten clean ones are
/// summed up in the closing line and the two lossy ones keep their lines;
/// `--verbose` lists all; `--quiet` keeps only a line counting the losses.
#[test]
fn ingest_accounting_for_many_inputs_folds_clean_files_but_never_losses() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..10 {
        std::fs::write(
            dir.path().join(format!("clean{i:02}.txt")),
            "Time: 1.5\nTime: 1.6\n",
        )
        .unwrap();
    }
    std::fs::write(dir.path().join("lossy.txt"), "Time: 1.5\n12 34 zz 5 6 @@\n").unwrap();
    std::fs::write(
        dir.path().join("notes.txt"),
        "nothing measured here, only words\n",
    )
    .unwrap();
    let run = |extra: &[&str]| {
        let out = patchperf()
            .arg("ingest")
            .arg(dir.path())
            .args(extra)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let default = run(&[]);
    let lines: Vec<&str> = default.lines().collect();
    assert!(lines.len() < 8, "{default}");
    assert!(
        default.contains("read without loss not listed"),
        "{default}"
    );
    assert!(default.contains("notes.txt"), "{default}");
    assert!(!default.contains("clean03.txt"), "{default}");

    let verbose = run(&["--verbose"]);
    assert!(
        verbose.contains("clean03.txt") && verbose.contains("clean09.txt"),
        "{verbose}"
    );

    let quiet = run(&["--quiet"]);
    assert_eq!(quiet.lines().count(), 1, "{quiet}");
    assert!(quiet.contains("run without --quiet"), "{quiet}");
}

#[test]
fn quiet_ingest_of_clean_inputs_prints_nothing() {
    let out = patchperf()
        .args(["ingest", "-q", BASE, "--out", "-"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!out.stdout.is_empty());
}

/// The library reports reading progress to an installed observer: every
/// byte it planned to read, once (in-process; the only test here that
/// reads in this process, since the observer is process-wide).
#[test]
fn reading_progress_reaches_the_observer() {
    use patchperf::ingest::progress::{observe, Observer};
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;

    #[derive(Default)]
    struct Count(AtomicU64, AtomicU64);
    impl Observer for Count {
        fn planned(&self, bytes: u64) {
            self.0.fetch_add(bytes, Ordering::Relaxed);
        }
        fn read(&self, bytes: u64) {
            self.1.fetch_add(bytes, Ordering::Relaxed);
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let text = "Time: 1.25\nTime: 1.5\n";
    for i in 0..5 {
        std::fs::write(dir.path().join(format!("{i}.txt")), text).unwrap();
    }
    let count = Arc::new(Count::default());
    let guard = observe(count.clone());
    let registry = patchperf::ingest::Registry::builtin();
    let ing =
        patchperf::ingest::ingest(&[dir.path().to_path_buf()], &registry, &Default::default())
            .unwrap();
    drop(guard);
    assert_eq!(ing.dataset.len(), 10);
    let planned = count.0.load(Ordering::Relaxed);
    assert_eq!(planned, 5 * text.len() as u64);
    assert_eq!(count.1.load(Ordering::Relaxed), planned);
}
