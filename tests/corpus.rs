//! Detection over the whole real-output corpus: every tool output is read by
//! the importer written for it, yields values, and nothing that is not a
//! benchmark output is guessed at.

use patchperf::ingest::{ingest, IngestOptions, Registry, Source};
use std::path::{Path, PathBuf};

const CORPUS: &str = "tests/data/corpus";

/// The importer expected for a corpus entry, from its harness prefix
/// (`<harness>-<variant>-<n>.<ext>`). `None`: not a benchmark output.
fn expected(name: &str) -> Option<&'static str> {
    let harness = name.split('-').next().unwrap_or(name);
    let ext = name.rsplit('.').next().unwrap_or("");
    Some(match (harness, ext) {
        ("bashtime", _) | ("gnutime_posix", _) => "shell-time",
        ("gnutime", _) => "gnu-time",
        ("criterion", _) => "criterion-console",
        ("criterion_tree", _) => "criterion-dir",
        ("cyclictest" | "cyclictest_live", _) => "cyclictest",
        ("cyclictest_hist", _) => "cyclictest-hist",
        ("cyclictest_json", _) => "cyclictest-json",
        ("gbench", _) => "gbench-json",
        ("gbench_console", _) => "gbench-console",
        ("gbench_csv", _) => "gbench-csv",
        ("go", _) => "go-bench",
        ("hackbench", _) => "hackbench",
        ("hyperfine" | "hyperfine_scan" | "hyperfine_fail", "json") => "hyperfine-json",
        ("hyperfine" | "hyperfine_scan" | "hyperfine_fail", "csv") => "hyperfine-csv",
        ("hyperfine" | "hyperfine_scan" | "hyperfine_fail", "md") => "hyperfine-markdown",
        ("hyperfine" | "hyperfine_scan" | "hyperfine_fail", "txt") => "hyperfine-console",
        (h, _) if h.starts_with("perf_bench") => "perf-bench",
        ("perf_stat", _) => "perf-stat",
        ("perf_stat_csv", _) => "perf-stat-csv",
        ("perf_stat_json", _) => "perf-stat-json",
        ("pgbench", _) => "pgbench",
        ("pyperf", "json") => "pyperf-json",
        ("pyperf" | "pyperf_compare" | "pyperf_stats", _) => "pyperf-text",
        ("redis_csv", _) => "redis-csv",
        ("redis_quiet", _) => "redis-quiet",
        (h, _) if h.starts_with("sysbench") => "sysbench",
        // Context files, kernel configs and environment captures: read by
        // `patchperf check`, not by `ingest`.
        ("criterion_patch" | "gbench_source" | "kconfig" | "env", _) => return None,
        _ => panic!("corpus entry {name} has no expectation: add one"),
    })
}

fn entries() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(CORPUS)
        .expect("corpus copy")
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().and_then(|n| n.to_str()) != Some("SOURCES.md"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_corpus_entry_is_detected_as_its_harness() {
    let registry = Registry::builtin();
    let mut checked = 0;
    for path in entries() {
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let want = expected(&name);
        let got = if path.is_dir() {
            registry.detect_dir(&path).map(|f| f.name())
        } else {
            let src = Source::read(&path).unwrap_or_else(|e| panic!("{e}"));
            registry.detect(&src).map(|f| f.name())
        };
        assert_eq!(got, want, "{name}");
        checked += 1;
    }
    assert!(checked >= 250, "only {checked} corpus entries");
}

#[test]
fn every_benchmark_output_yields_values_and_accounts_for_itself() {
    let registry = Registry::builtin();
    for path in entries() {
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if expected(&name).is_none() {
            continue;
        }
        let got = ingest(
            std::slice::from_ref(&path),
            &registry,
            &IngestOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!got.dataset.is_empty(), "{name}: no values");
        for f in &got.files {
            assert!(f.format.is_some(), "{name}: {} not recognised", f.path);
            // A directory read as a whole reports its rows under the folder;
            // each row names the file inside it that held the value.
            assert_eq!(
                f.rows,
                got.dataset
                    .rows()
                    .filter(|o| o.source == f.path || o.source.starts_with(&format!("{}/", f.path)))
                    .count(),
                "{name}: rows reported for {} differ from rows produced",
                f.path
            );
        }
    }
}

#[test]
fn non_outputs_are_reported_unrecognised_with_a_hint() {
    let registry = Registry::builtin();
    for name in [
        "criterion_patch-patched-1.diff",
        "gbench_source-baseline-1.cc",
    ] {
        let path = Path::new(CORPUS).join(name);
        let got = ingest(&[path], &registry, &IngestOptions::default()).unwrap();
        assert!(got.dataset.is_empty(), "{name} produced values");
        let note = got.files[0].note.as_deref().unwrap_or("");
        assert!(
            note.contains("--format") && note.contains("--extractor"),
            "{name}: {note}"
        );
    }
}

#[test]
fn configs_and_environment_captures_are_named_as_context() {
    let registry = Registry::builtin();
    for (name, kind) in [
        ("kconfig-amd64.config", "kernel config"),
        ("kconfig-rt.config", "kernel config"),
        ("env-uname.txt", "uname -a"),
        ("env-lscpu.txt", "lscpu"),
        ("env-cmdline.txt", "kernel command line"),
        ("env-version.txt", "kernel version"),
        ("env-cpufreq.txt", "cpufreq"),
        ("env-tainted.txt", "taint"),
    ] {
        let path = Path::new(CORPUS).join(name);
        let got = ingest(&[path], &registry, &IngestOptions::default()).unwrap();
        assert!(got.dataset.is_empty(), "{name} produced values");
        let note = got.files[0].note.as_deref().unwrap_or("");
        assert!(
            note.starts_with(kind) && note.contains("context"),
            "{name}: {note}"
        );
    }
}

/// Every benchmark output accounts for each numeric-looking line: a value,
/// context the importer read, or a line left out with a stated reason.
/// Lines nobody looked at are allowed only for the files listed here, with
/// exactly those lines, so that new noise or a newly dropped value fails.
#[test]
fn benchmark_outputs_leave_no_numeric_line_unaccounted() {
    // (file, its unread lines, why they are genuinely unread information).
    // Empty today: every line the corpus outputs print is read, used as
    // context or skipped with a reason. Add an entry only for information
    // no importer models, never for a value an importer should have read.
    const ALLOWED: &[(&str, &[u32], &str)] = &[];
    let registry = Registry::builtin();
    let mut checked = 0;
    let mut skipped_total = 0;
    for path in entries() {
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if expected(&name).is_none() || path.is_dir() {
            continue;
        }
        let got = ingest(
            std::slice::from_ref(&path),
            &registry,
            &IngestOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let f = &got.files[0];
        let allowed: &[u32] = ALLOWED
            .iter()
            .find(|(n, _, _)| *n == name)
            .map_or(&[], |(_, lines, _)| lines);
        assert_eq!(
            f.unread_numeric, allowed,
            "{name}: numeric lines nobody read"
        );
        for (line, why) in &f.skipped {
            assert!(
                why.len() > 10,
                "{name}:{line}: a skipped line needs a reason, got `{why}`"
            );
        }
        skipped_total += f.skipped.len();
        checked += 1;
    }
    assert!(checked >= 240, "only {checked} outputs checked");
    assert!(skipped_total > 0);
    // perf stat's missing counters are listed, with perf's own word for them.
    for name in [
        "perf_stat-baseline-1.txt",
        "perf_stat_csv-baseline-1.csv",
        "perf_stat_json-baseline-1.json",
    ] {
        let got = ingest(
            &[Path::new(CORPUS).join(name)],
            &registry,
            &IngestOptions::default(),
        )
        .unwrap();
        let reasons: Vec<&str> = got.files[0]
            .skipped
            .iter()
            .map(|(_, w)| w.as_str())
            .collect();
        assert_eq!(reasons.len(), 4, "{name}: {reasons:?}");
        assert!(
            reasons[0].starts_with("cycles <not supported>"),
            "{name}: {reasons:?}"
        );
    }
}

/// Every harness in the corpus with a baseline and a patched output compares
/// end to end: one variant per side, named `baseline` and `patched` from the
/// file names, every comparison with a verdict.
#[test]
fn every_harness_compares_baseline_with_patched() {
    use patchperf::analysis::Settings;
    use patchperf::pipeline::{load_and_analyze, LoadOptions};
    use std::collections::BTreeMap;
    let mut pairs: BTreeMap<String, (Option<PathBuf>, Option<PathBuf>)> = BTreeMap::new();
    for path in entries() {
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if expected(&name).is_none() {
            continue;
        }
        // `<harness>-<variant>-1.<ext>`: the first run of each side.
        let Some((harness, rest)) = name.split_once('-') else {
            continue;
        };
        // A Criterion tree holds its own baselines (`base`, `new`) and is
        // compared alone (tests/importers_structured.rs).
        if harness == "criterion_tree" {
            continue;
        }
        let ext = name.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
        let key = format!("{harness}.{ext}");
        let slot = pairs.entry(key).or_default();
        if rest.starts_with("baseline-1") {
            slot.0 = Some(path.clone());
        } else if rest.starts_with("patched-1") {
            slot.1 = Some(path.clone());
        }
    }
    let settings = Settings {
        resamples: 500,
        ..Settings::default()
    };
    let mut compared = 0;
    for (key, pair) in pairs {
        let (Some(base), Some(patched)) = pair else {
            continue;
        };
        let (_, analysis) =
            load_and_analyze(&[base, patched], &LoadOptions::default(), None, &settings)
                .unwrap_or_else(|e| panic!("{key}: {e}"));
        assert!(!analysis.comparisons.is_empty(), "{key}: nothing compared");
        for c in &analysis.comparisons {
            assert_eq!(
                (c.baseline.as_str(), c.variant.as_str()),
                ("baseline", "patched"),
                "{key}"
            );
            // A relative change exists only against a non-zero baseline.
            assert!(
                c.change_pct.is_finite() || c.baseline_center == 0.0,
                "{key}: {} {}",
                c.benchmark,
                c.metric
            );
        }
        compared += 1;
    }
    assert!(compared >= 30, "only {compared} harness outputs compared");
}

/// `ingest --out` writes as it reads (a window of inputs at a time): the
/// whole corpus in one call gives the same table as the library's `ingest`,
/// in input order, and the per-file lines still add up to the total.
#[test]
fn streamed_ingest_of_the_whole_corpus_writes_every_row_once() {
    use polars::prelude::*;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("corpus.parquet");
    let run = assert_cmd::Command::cargo_bin("patchperf")
        .unwrap()
        .args(["ingest", "--verbose", CORPUS, "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let stderr = String::from_utf8_lossy(&run.stderr);
    let per_file: usize = stderr
        .lines()
        .filter_map(|l| {
            l.split_once(", ")?
                .1
                .split(' ')
                .next()?
                .parse::<usize>()
                .ok()
        })
        .sum();
    let expected = ingest(
        &[PathBuf::from(CORPUS)],
        &Registry::builtin(),
        &IngestOptions::default(),
    )
    .unwrap();
    let df = ParquetReader::new(std::fs::File::open(&out).unwrap())
        .finish()
        .unwrap();
    assert_eq!(df.height(), expected.dataset.len());
    assert_eq!(per_file, expected.dataset.len(), "{stderr}");
    assert!(stderr.contains(&format!("patchperf: {} rows from", df.height())));
    let values: Vec<f64> = df
        .column("value")
        .unwrap()
        .f64()
        .unwrap()
        .into_no_null_iter()
        .collect();
    let want: Vec<f64> = expected.dataset.rows().map(|o| o.value).collect();
    assert_eq!(values, want);
    let runs = df.column("run").unwrap().u32().unwrap();
    let want_runs: Vec<Option<u32>> = expected.dataset.rows().map(|o| o.run).collect();
    assert_eq!(runs.iter().collect::<Vec<_>>(), want_runs);
}

/// A malformed input met late aborts the streamed write: exit 2 naming the
/// file, and the table written before is left as it was (no partial file).
#[test]
fn a_late_malformed_input_leaves_the_previous_table_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in");
    std::fs::create_dir(&inputs).unwrap();
    for i in 0..12 {
        std::fs::copy(
            Path::new(CORPUS).join("hackbench-baseline-1.txt"),
            inputs.join(format!("a{i:02}.txt")),
        )
        .unwrap();
    }
    std::fs::write(
        inputs.join("z-cut.json"),
        "{\"results\": [{\"command\": \"x\", \"mean\": ",
    )
    .unwrap();
    let out = dir.path().join("table.csv");
    std::fs::write(&out, "older table\n").unwrap();
    let run = assert_cmd::Command::cargo_bin("patchperf")
        .unwrap()
        .args(["ingest", "--format", "hyperfine-json"])
        .arg(inputs.join("z-cut.json"))
        .args(["--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let run = assert_cmd::Command::cargo_bin("patchperf")
        .unwrap()
        .arg("ingest")
        .arg(&inputs)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("z-cut.json"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "older table\n");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        2,
        "no partial file left"
    );
}
