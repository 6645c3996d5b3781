//! Files of several runs of one tool, as a shell loop leaves them
//! ([`super::super::loop_runs`]).

use super::*;

/// Ingests `text` as a file named `name`: its rows, and its report.
fn ingest_text(name: &str, text: &str) -> (Vec<Observation>, FileReport) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    let got = ingest(&[path], &Registry::builtin(), &IngestOptions::default()).unwrap();
    (got.dataset.to_observations(), got.files[0].clone())
}

#[test]
fn a_second_run_s_csv_header_opens_a_run_instead_of_being_refused() {
    // Google Benchmark's CSV, run twice by a loop that echoes the count.
    let run = "name,iterations,real_time,cpu_time,time_unit,bytes_per_second,items_per_second,label,error_occurred,error_message,\"elements\",\"rate\"\n\
               \"BM_Sum/64\",551723,145.185,25.7191,ns,,2.48842e+09,,,,64,2.48842e+09\n\
               \"BM_Sum/64\",551723,167.347,25.9134,ns,,2.46976e+09,,,,64,2.46976e+09\n";
    let text = format!("1\n{run}2\n{run}");
    let (rows, report) = ingest_text("reps.csv", &text);
    assert_eq!(report.format.as_deref(), Some("gbench-csv"));
    let real: Vec<(u32, Option<u32>)> = rows
        .iter()
        .filter(|o| o.metric == "real_time")
        .map(|o| (o.line, o.run))
        .collect();
    assert_eq!(
        real,
        [(3, Some(0)), (4, Some(1)), (7, Some(2)), (8, Some(3))]
    );
    // The loop's counters are accounted, not read.
    let skipped: Vec<u32> = report.skipped.iter().map(|s| s.0).collect();
    assert!(skipped.contains(&1) && skipped.contains(&5), "{skipped:?}");
}

#[test]
fn runs_that_each_read_generically_stay_runs_of_the_tool() {
    // `perf bench -f simple` twice, a date before each run: the whole
    // file read as a document took the dates for values.
    let text = "Sun Dec  6 20:11:48 UTC 2026\n0.173\nSun Dec  6 20:12:48 UTC 2026\n0.181\n";
    let (rows, report) = ingest_text("simple-sched-pipe.txt", text);
    assert_eq!(report.format.as_deref(), Some("generic"));
    let got: Vec<(u32, f64)> = rows.iter().map(|o| (o.line, o.value)).collect();
    assert_eq!(got, [(2, 0.173), (4, 0.181)]);
    let skipped: Vec<u32> = report.skipped.iter().map(|s| s.0).collect();
    assert_eq!(skipped, [1, 3]);
}

#[test]
fn banners_before_runs_no_longer_turn_detection_to_the_document_reader() {
    let run = "tcp_bw:\n    bw  =  1.74 GB/sec\n";
    let (rows, report) = ingest_text("qperf.txt", run);
    assert_eq!(report.format.as_deref(), Some("qperf"));
    assert_eq!(rows.len(), 1);
    // Two runs, a banner before each: the banners turned detection to
    // the document reader, which read them as values.
    let text = format!("=== run 1 ===\n{run}=== run 2 ===\n{run}");
    let (rows, report) = ingest_text("qperf.txt", &text);
    assert_eq!(report.format.as_deref(), Some("qperf"));
    let got: Vec<(u32, Option<u32>)> = rows.iter().map(|o| (o.line, o.run)).collect();
    assert_eq!(got, [(3, Some(0)), (6, Some(1))]);
}

#[test]
fn a_loop_s_counter_read_by_the_tool_s_importer_is_skipped_run_by_run() {
    // `perf bench syscall basic` twice, `echo $i` before each: read whole,
    // the second counter was taken for a figure of the first run.
    let run = "# Running 'syscall/basic' benchmark:\n# Executed 200000 getppid() calls\n     \
               Total time: 0.022 [sec]\n\n       0.110670 usecs/op\n        9035872 ops/sec\n";
    let (rows, report) = ingest_text("syscall-basic.txt", &format!("1\n{run}2\n{run}"));
    assert_eq!(report.format.as_deref(), Some("perf-bench-more"));
    assert!(rows.iter().all(|o| o.line != 1 && o.line != 8), "{rows:?}");
    let usecs: Vec<(u32, Option<u32>)> = rows
        .iter()
        .filter(|o| o.value == 0.110670)
        .map(|o| (o.line, o.run))
        .collect();
    assert_eq!(usecs, [(6, Some(0)), (13, Some(1))]);
    let skipped: Vec<u32> = report.skipped.iter().map(|s| s.0).collect();
    assert!(skipped.contains(&1) && skipped.contains(&8), "{skipped:?}");
}

#[test]
fn a_loop_of_loops_is_read_run_by_run_within_each_run() {
    // Two outer runs, each a loop of two: both levels' counters skipped.
    let run = "# Running 'syscall/basic' benchmark:\n# Executed 200000 getppid() calls\n     \
               Total time: 0.022 [sec]\n\n       0.110670 usecs/op\n        9035872 ops/sec\n";
    let inner = format!("1\n{run}2\n{run}");
    let text = format!("=== run 1 ===\n{inner}=== run 2 ===\n{inner}");
    let (rows, report) = ingest_text("syscall-basic.txt", &text);
    assert_eq!(report.format.as_deref(), Some("perf-bench-more"));
    let skipped: Vec<u32> = report.skipped.iter().map(|s| s.0).collect();
    for n in [1, 2, 9, 16, 17, 24] {
        assert!(skipped.contains(&n), "{n} in {skipped:?}");
        assert!(rows.iter().all(|o| o.line != n));
    }
    assert_eq!(rows.iter().filter(|o| o.value == 0.110670).count(), 4);
}

/// A real file of `tests/data/harness/` ingested: its rows, its report
/// and its text.
fn ingest_real(rel: &str) -> (Vec<Observation>, FileReport, String) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/harness")
        .join(rel);
    let text = std::fs::read_to_string(&path).unwrap();
    let got = ingest(&[path], &Registry::builtin(), &IngestOptions::default()).unwrap();
    (got.dataset.to_observations(), got.files[0].clone(), text)
}

/// The lines of `text` that are shell prompts.
fn prompt_lines(text: &str) -> Vec<u32> {
    text.lines()
        .zip(1u32..)
        .filter(|(l, _)| crate::ingest::shared::prompt::shell_prompt(l).is_some())
        .map(|(_, n)| n)
        .collect()
}

#[test]
fn runs_behind_prompts_of_different_commands_are_read_by_the_tool_s_importer() {
    // `$ mpstat -P ALL 1 2`, then `$ mpstat -P ALL 1 3`: the sysstat
    // importer refused the whole file (a prompt where a row was due).
    let (rows, report, text) = ingest_real("sysstat/mpstat-P-ALL-prompts.txt");
    assert_eq!(report.format.as_deref(), Some("sysstat"));
    let prompts = prompt_lines(&text);
    assert_eq!(prompts, [1, 19]);
    // Each run's intervals: the first CPU row of each run's first one.
    let usr = |line: u32| {
        rows.iter()
            .find(|o| o.line == line && o.metric == "%usr")
            .map(|o| o.value)
    };
    assert_eq!(usr(5), Some(91.50));
    assert_eq!(usr(23), Some(94.47));
    // The prompts are the runs' commands: no value, nothing unread.
    assert!(rows.iter().all(|o| !prompts.contains(&o.line)));
    assert!(
        report.unread_numeric.is_empty(),
        "{:?}",
        report.unread_numeric
    );
    assert!(report.skipped.iter().all(|s| !prompts.contains(&s.0)));
}

#[test]
fn a_prompt_above_each_run_is_the_command_not_an_unread_line() {
    // ioping's importer reads each run; the prompts, figures and all
    // (`-c 3 -i 0.1`), were listed as numeric-looking lines not read.
    let (rows, report, text) = ingest_real("ioping/c3-prompts-loop3.txt");
    assert_eq!(report.format.as_deref(), Some("ioping"));
    let prompts = prompt_lines(&text);
    assert_eq!(prompts, [1, 10, 19]);
    assert!(
        report.unread_numeric.is_empty(),
        "{:?}",
        report.unread_numeric
    );
    let runs: std::collections::BTreeSet<_> = rows
        .iter()
        .filter(|o| o.metric == "iops")
        .map(|o| o.run)
        .collect();
    assert_eq!(runs.len(), 3);
}

#[test]
fn a_prompt_that_hides_the_tool_is_read_past_and_named() {
    // `sar -d`'s table behind a prompt: detection took the file for a
    // document and the prompt for the first row's name.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/harness/sysstat/sar-dev.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let (rows, report) = ingest_text("sar-dev.txt", &format!("$ sar -d 1 3\n{text}"));
    assert_eq!(report.format.as_deref(), Some("sysstat"));
    assert!(rows.iter().all(|o| !o.benchmark.contains("sar")));
    assert!(rows.iter().all(|o| o.line > 1));
    let note = report.note.unwrap_or_default();
    assert!(
        note.contains("line 1") && note.contains("`sar -d 1 3`"),
        "{note}"
    );
    // The file alone gives the same rows, one line up.
    let (alone, _) = ingest_text("sar-dev.txt", &text);
    assert_eq!(alone.len(), rows.len());
}
