//! The benchmark suite's comparison with the committed run
//! (`benches/suite/baseline.rs`), tested here because bench targets do not
//! run tests.

#[path = "../benches/suite/baseline.rs"]
mod baseline;

use baseline::{changes, committed, Figure};

const RESULTS: &str = "# Benchmark results

Some text, and a table that is not a run:

| figure | ratio means |
|---|---|

## Run (HEAD abc1234, a session)

```
# patchperf benchmark suite: 500 MB per ingest input
# name value unit ratio
ingest.go.throughput 300.000 MB/s 24.00
ingest.go.floor_wc_l 7000.000 MB/s -
ingest.go.peak_rss 200.000 MiB 0.40
small.compare_criterion_tree.best_of_20 5.000 ms 0.25
small.peer_critcmp.best_of_20 2.500 ms 2.00
report.500_comparisons.all_formats 3.000 s 0.30
```

## Earlier runs

### Run (HEAD 0000000, older)

```
ingest.go.throughput 1.000 MB/s 1.00
```
";

fn fig(name: &str, value: f64, unit: &str) -> Figure {
    Figure {
        name: name.into(),
        value,
        unit: unit.into(),
    }
}

#[test]
fn figure_lines_are_read_and_other_lines_are_not() {
    assert_eq!(
        Figure::parse("ingest.go.throughput 300.000 MB/s 24.00"),
        Some(fig("ingest.go.throughput", 300.0, "MB/s"))
    );
    assert_eq!(
        Figure::parse("ingest.go.floor_wc_l 7000.000 MB/s -"),
        Some(fig("ingest.go.floor_wc_l", 7000.0, "MB/s"))
    );
    for not_a_figure in [
        "# name value unit ratio",
        "# load average at the start: 1.2 1.3 1.1",
        "",
        "ingest.go.throughput 300.000 MB/s",
        "ingest.go.throughput 300.000 MB/s 24.00 extra",
        "ingest.go.throughput NaN MB/s 1.00",
        "ingest.go.throughput fast MB/s 1.00",
    ] {
        assert_eq!(Figure::parse(not_a_figure), None, "{not_a_figure:?}");
    }
}

#[test]
fn the_committed_run_is_the_first_run_block() {
    let (heading, figures) = committed(RESULTS).unwrap();
    assert_eq!(heading, "Run (HEAD abc1234, a session)");
    assert_eq!(figures.len(), 6);
    assert_eq!(figures[0], fig("ingest.go.throughput", 300.0, "MB/s"));
    assert_eq!(
        figures[5],
        fig("report.500_comparisons.all_formats", 3.0, "s")
    );
    assert!(committed("# Benchmark results\n\nno runs yet\n").is_none());
}

#[test]
fn moves_beyond_the_noise_are_named_by_which_way_is_better() {
    let (_, before) = committed(RESULTS).unwrap();
    let now = vec![
        // Throughput down by a third: worse.
        fig("ingest.go.throughput", 200.0, "MB/s"),
        // A floor is not patchperf's figure: it moved, whichever way.
        fig("ingest.go.floor_wc_l", 3000.0, "MB/s"),
        // Memory down by half: better.
        fig("ingest.go.peak_rss", 100.0, "MiB"),
        // Within the noise: not listed.
        fig("small.compare_criterion_tree.best_of_20", 5.5, "ms"),
        // A peer's time is context too.
        fig("small.peer_critcmp.best_of_20", 4.0, "ms"),
        // Another unit: not compared.
        fig("report.500_comparisons.all_formats", 9000.0, "ms"),
        // Not in the committed run: not compared.
        fig("ingest.new_kind.throughput", 1.0, "MB/s"),
    ];
    let lines = changes(&now, &before, 20.0);
    assert_eq!(
        lines,
        vec![
            "# WORSE: ingest.go.throughput 300.000 -> 200.000 MB/s (-33.3%)",
            "# moved (not patchperf's figure): ingest.go.floor_wc_l 7000.000 -> 3000.000 MB/s (-57.1%)",
            "# better: ingest.go.peak_rss 200.000 -> 100.000 MiB (-50.0%)",
            "# moved (not patchperf's figure): small.peer_critcmp.best_of_20 2.500 -> 4.000 ms (+60.0%)",
            "# 5 figures compared with the committed run: 1 worse and 1 better by more than 20%",
        ]
    );
}

/// The file the suite compares with keeps a run it can read.
#[test]
fn the_committed_results_file_has_a_run_to_compare_with() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/RESULTS.md");
    let text = std::fs::read_to_string(path).unwrap();
    let (heading, figures) = committed(&text).unwrap();
    assert!(heading.starts_with("Run (HEAD "), "{heading}");
    assert!(figures.len() >= 40, "{} figures", figures.len());
    assert!(figures
        .iter()
        .any(|f| f.name == "small.peer_critcmp.best_of_20"));
}
