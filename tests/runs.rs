//! Several runs in one file stay separate (issue 20, item 3).
//!
//! Users capture benchmarks with shell loops (`for i in $(seq 5); do …;
//! done > log`, `tee -a`), with or without a line between the runs. For
//! every real file of a line-log format in `tests/data/harness/`, the file
//! is concatenated two and three times, plain and behind each kind of
//! separator a loop prints, and read again: its rows must be exactly the
//! single reading's, once per copy, each copy's on its own run (no sample
//! or stated figure of one copy merges with another's), nothing refused
//! and nothing newly left out but the separators, which are accounted.

use patchperf::ingest::{ingest, IngestOptions, Registry};
use patchperf::model::{Observation, Stat};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

const HARNESS: &str = "tests/data/harness";

/// How a format takes part in the property.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    /// A log of lines: the property must hold on every file.
    Lines,
    /// One document (JSON, XML, YAML, a file a tool writes once): two of
    /// them glued together are no real capture. The reason says which.
    Document(&'static str),
    /// A line log the property does not hold for yet: the reason says why.
    /// The test fails once it holds, so that the line is removed.
    // No format is open today; kept for the next one found.
    #[allow(dead_code)]
    Open(&'static str),
}

use Kind::{Document, Lines, Open};

/// Every format that reads a file of `tests/data/harness/`, and how it takes
/// part. A format missing here fails the test.
const TABLE: &[(&str, Kind)] = &[
    ("7zip-bench", Lines),
    ("ab", Lines),
    (
        "ab-gnuplot",
        Document("a file -g writes once per run, header first"),
    ),
    (
        "ab-percentiles",
        Document("a CSV file -e writes once per run"),
    ),
    ("aim9", Lines),
    ("asv-console", Lines),
    (
        "asv-results",
        Document("one JSON results file per machine and commit"),
    ),
    ("benchmark-js", Lines),
    ("benchmarkdotnet-json", Document("JSON report file")),
    ("benchmarkdotnet-table", Lines),
    (
        "openmetrics",
        Document("one exposition of an endpoint's metrics"),
    ),
    ("benchstat", Lines),
    ("benchstat-csv", Document("a CSV table of one comparison")),
    ("bonnie++", Lines),
    (
        "cargo-criterion-json",
        Document("the harness file is one message over several lines, as the book prints it"),
    ),
    ("catch2", Lines),
    ("coremark", Lines),
    (
        "criterion-file",
        Document("JSON or CSV files of one benchmark's run folder"),
    ),
    ("cryptsetup", Lines),
    ("cyclictest", Lines),
    ("cyclictest-hist", Lines),
    ("cyclictest-json", Document("the JSON file --json writes")),
    ("cyclictest-verbose", Lines),
    ("dbench", Lines),
    ("dnsperf", Lines),
    (
        "document",
        Document("a mail or a report read as a whole, not a log of runs"),
    ),
    ("dart-benchmark", Lines),
    ("dd", Lines),
    ("ebizzy", Lines),
    ("fio", Lines),
    ("fio-group", Lines),
    (
        "fio-hist-log",
        Document("a log file fio writes once per job"),
    ),
    ("fio-json", Document("one JSON document per run")),
    ("fio-log", Document("a log file fio writes once per job")),
    ("fio-t-io_uring", Lines),
    ("fio-terse", Lines),
    ("fsmark", Lines),
    ("fxmark", Lines),
    ("gbench-console", Lines),
    ("gbench-csv", Lines),
    ("gbench-json", Document("one JSON document per run")),
    ("generic", Lines),
    ("git-perf", Lines),
    ("glmark2", Lines),
    ("gungraun", Lines),
    ("hackbench", Lines),
    (
        "hdr-percentiles",
        Document("one distribution, its header on the first line"),
    ),
    ("hammerdb", Lines),
    ("hdparm", Lines),
    (
        "hyperfine-asciidoc",
        Document("an export file written once per run"),
    ),
    ("hyperfine-console", Lines),
    ("hyperfine-json", Document("one JSON document per run")),
    (
        "hyperfine-markdown",
        Document("an export file written once per run"),
    ),
    ("iai", Lines),
    ("imb", Lines),
    ("ioping", Lines),
    ("iperf2", Lines),
    (
        "jmeter-csv",
        Document("a results file JMeter writes once per test plan, header first"),
    ),
    ("jmeter-summariser", Lines),
    ("jmeter-xml", Document("one XML document per test plan")),
    ("iperf2-csv", Lines),
    ("iperf3", Lines),
    ("iperf3-json", Document("one JSON document per run")),
    ("jitter", Lines),
    ("jmh-json", Document("one JSON document per run")),
    ("kbuild", Lines),
    ("kunit", Lines),
    ("lmbench", Lines),
    ("lmbench-summary", Lines),
    ("nanobench", Lines),
    ("nonius", Lines),
    ("mbw", Lines),
    ("memtier", Lines),
    ("memtier-json", Document("one JSON document per run")),
    ("netperf", Lines),
    ("netpipe", Lines),
    (
        "netpipe-out",
        Document("np.out, a file NPtcp writes once per run"),
    ),
    ("npb", Lines),
    ("nuttcp", Lines),
    ("openssl-speed", Lines),
    ("oslat", Lines),
    ("osu", Lines),
    ("perf-bench", Lines),
    ("perf-bench-more", Lines),
    ("perf-stat", Lines),
    ("perf-stat-csv-modes", Lines),
    ("perf-stat-json", Lines),
    ("perf-stat-json-metric-only", Lines),
    ("perf-stat-metric-only", Lines),
    ("pgbench", Lines),
    (
        "pgbench-log",
        Document("a log file pgbench writes once per thread and run"),
    ),
    ("phoronix", Document("the XML result file")),
    ("phoronix-console", Lines),
    ("phoronix-csv", Document("a CSV export of a result file")),
    ("phoronix-json", Document("a JSON export of a result file")),
    ("phoronix-text", Document("a text export of a result file")),
    ("phpbench", Lines),
    ("picobench", Lines),
    ("pi-stress", Lines),
    ("postmark", Lines),
    ("pyperf-dump", Lines),
    ("pyperf-json", Document("one JSON document per run")),
    ("pyperf-text", Lines),
    ("pytest-benchmark", Document("one JSON document per run")),
    ("qperf", Lines),
    ("rcuscale", Lines),
    ("redis-text", Lines),
    ("refscale", Lines),
    ("ruby-benchmark", Lines),
    ("pybench", Lines),
    ("k6-text", Lines),
    ("console-time", Lines),
    ("benchmarkdotnet-plain", Lines),
    (
        "nanobench-json",
        Document("the JSON template rendered once"),
    ),
    (
        "vitest-bench",
        Document("the JSON file --outputJson writes"),
    ),
    ("k6-summary", Document("the summary one run writes")),
    ("k6-json", Document("the stream of points one run writes")),
    (
        "k6-csv",
        Document("the CSV file --out csv writes once per run, header first"),
    ),
    ("rt-app", Lines),
    ("rt-ipc", Lines),
    ("rt-ipc-json", Document("the JSON file --json writes")),
    ("rt-migrate-test", Lines),
    ("schbench", Lines),
    ("siege", Lines),
    ("siege-log", Lines),
    ("simoop", Lines),
    ("sockperf", Lines),
    ("stream", Lines),
    ("stress-ng", Lines),
    ("stress-ng-yaml", Document("the YAML file -Y writes")),
    ("sysbench", Lines),
    ("sysstat", Lines),
    ("sysstat-sadf", Lines),
    ("sysstat-sadf-raw", Lines),
    (
        "sysstat-sadf-xml",
        Document("one XML document per sar data file"),
    ),
    ("tinymembench", Lines),
    ("unixbench", Lines),
    ("uperf", Lines),
    ("vm-scalability", Lines),
    ("wrk", Lines),
    ("ycsb", Lines),
];

/// Files of a line-log format that are one document all the same, and why.
/// Besides these, a file that opens as JSON or XML (`{`, `[`, `<`) is one.
const DOCUMENT_FILES: &[(&str, &str)] = &[(
    "unknown/pkb-pcp-dstat-output.csv",
    "dstat's --output file: one header, then rows",
)];

/// What a shell loop prints before each run, `{}` standing for the run's
/// number; `None` for runs glued together (`tee -a`, `> log` of a loop).
const SEPARATORS: &[(&str, Option<&str>)] = &[
    ("plain", None),
    ("blank", Some("")),
    ("banner", Some("=== run {} ===")),
    ("echo", Some("{}")),
    // A prompt names the command typed: the same before each run, and read
    // alike alone (a reader may take it for the command line).
    ("prompt", Some("$ ./run-bench.sh --quick")),
    ("date", Some("Sun Dec  6 20:1{}:48 UTC 2026")),
];

/// What reading one file gave.
struct Reading {
    format: String,
    rows: Vec<Observation>,
    skipped: Vec<u32>,
    unread: Vec<u32>,
}

fn read(path: &Path) -> Result<Reading, String> {
    let got = ingest(
        &[path.to_path_buf()],
        &Registry::builtin(),
        &IngestOptions::default(),
    )
    .map_err(|e| e.to_string())?;
    let report = &got.files[0];
    let mut rows = got.dataset.to_observations();
    rows.sort_by_key(|o| o.line);
    Ok(Reading {
        format: report.format.clone().unwrap_or_default(),
        rows,
        skipped: report.skipped.iter().map(|s| s.0).collect(),
        unread: report.unread_numeric.clone(),
    })
}

/// A row's names and value, the line left out.
fn named(o: &Observation) -> (String, String, String, String, String, Stat, u64) {
    (
        o.benchmark.to_string(),
        o.params.to_string(),
        o.variant.to_string(),
        o.metric.to_string(),
        o.unit.to_string(),
        o.stat,
        o.value.to_bits(),
    )
}

/// How many samples are distinct: a sample by its names and run. Stated
/// figures (a mean, a percentile) carry no run: the analysis keeps a block
/// that states them again as a part of its own (see
/// `restated_summaries_of_one_file_are_kept_per_run_and_checked`), so
/// here they are held to the per-copy equality alone.
fn distinct(rows: &[Observation]) -> usize {
    rows.iter()
        .filter(|o| o.stat == Stat::Sample)
        .map(|o| {
            (
                o.benchmark.to_string(),
                o.params.to_string(),
                o.variant.to_string(),
                o.metric.to_string(),
                o.stat,
                o.run,
            )
        })
        .collect::<HashSet<_>>()
        .len()
}

/// Reads `copies` copies of `text` behind `sep` and checks them against the
/// single reading; the first fault found.
fn check(
    dir: &Path,
    name: &std::ffi::OsStr,
    text: &str,
    single: &Reading,
    sep: Option<&str>,
    copies: usize,
) -> Result<(), String> {
    let lines = text.lines().count() as u32;
    let mut glued = String::new();
    let mut starts = Vec::new();
    let mut sep_lines = Vec::new();
    let mut at = 1u32;
    for i in 1..=copies {
        if let Some(s) = sep {
            glued.push_str(&s.replace("{}", &i.to_string()));
            glued.push('\n');
            sep_lines.push(at);
            at += 1;
        }
        starts.push(at);
        glued.push_str(text);
        at += lines;
    }
    // Named as the file: readers that name values after their file do so alike.
    let sub = dir.join(format!("x{copies}"));
    std::fs::create_dir_all(&sub).unwrap();
    let path = sub.join(name);
    std::fs::write(&path, &glued).unwrap();
    let got = read(&path).map_err(|e| format!("refused: {e}"))?;
    if got.format != single.format {
        return Err(format!("read as {:?}", got.format));
    }
    let copy_of = |line: u32| starts.iter().rposition(|&s| s <= line && line < s + lines);
    // Each copy's rows, lines made relative to the copy.
    let mut per_copy: Vec<Vec<(u32, _)>> = vec![Vec::new(); copies];
    for o in &got.rows {
        match copy_of(o.line) {
            Some(c) => per_copy[c].push((o.line + 1 - starts[c], named(o))),
            None => return Err(format!("a value on line {} (a separator)", o.line)),
        }
    }
    let want: Vec<(u32, _)> = single.rows.iter().map(|o| (o.line, named(o))).collect();
    for (c, rows) in per_copy.iter().enumerate() {
        if rows.len() != want.len() {
            return Err(format!(
                "copy {} gave {} rows, the file alone {}",
                c + 1,
                rows.len(),
                want.len()
            ));
        }
        if let Some((g, w)) = rows.iter().zip(&want).find(|(g, w)| g != w) {
            return Err(format!("copy {}: {g:?} where alone {w:?}", c + 1));
        }
    }
    if distinct(&got.rows) != copies * distinct(&single.rows) {
        return Err(format!(
            "{} distinct samples of {} rows, {} alone: copies merged",
            distinct(&got.rows),
            got.rows.len(),
            distinct(&single.rows)
        ));
    }
    // Left out and not read: each copy's as alone, plus the separators
    // that hold a digit, and nothing else.
    let shifted =
        |alone: &[u32], start: u32| -> Vec<u32> { alone.iter().map(|l| l + start - 1).collect() };
    let mut want_out: Vec<u32> = starts
        .iter()
        .flat_map(|&s| {
            let mut v = shifted(&single.skipped, s);
            v.extend(shifted(&single.unread, s));
            v
        })
        .collect();
    let numeric_seps: Vec<u32> = match sep {
        Some(s) if s.chars().any(|c| c.is_ascii_digit()) || s.contains("{}") => sep_lines.clone(),
        _ => Vec::new(),
    };
    want_out.extend(&numeric_seps);
    want_out.sort_unstable();
    want_out.dedup();
    let mut got_out: Vec<u32> = got.skipped.iter().chain(&got.unread).copied().collect();
    got_out.sort_unstable();
    got_out.dedup();
    if got_out != want_out {
        let extra: Vec<_> = got_out.iter().filter(|l| !want_out.contains(l)).collect();
        let missing: Vec<_> = want_out.iter().filter(|l| !got_out.contains(l)).collect();
        return Err(format!(
            "lines left out or unread: extra {extra:?}, not accounted {missing:?}"
        ));
    }
    Ok(())
}

fn files() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = glob::glob(&format!("{HARNESS}/**/*"))
        .unwrap()
        .map(Result::unwrap)
        .filter(|p| p.is_file() && p.file_name().is_some_and(|n| n != "README.md"))
        .collect();
    out.sort();
    out
}

#[test]
fn repeated_runs_of_every_line_log_stay_separate() {
    let table: BTreeMap<&str, Kind> = TABLE.iter().copied().collect();
    let dir = std::env::temp_dir().join(format!("patchperf-runs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let detail = std::env::var_os("RUNS_DETAIL").is_some();
    // One format alone, while working on its reader.
    let only = std::env::var("RUNS_ONLY").ok();
    // Per format: files tried, and the faults found.
    let mut seen: BTreeMap<String, (usize, Vec<String>)> = BTreeMap::new();
    let mut unlisted = Vec::new();
    for path in files() {
        let Ok(single) = read(&path) else { continue };
        if single.rows.is_empty() || single.format.is_empty() {
            continue;
        }
        let Some(kind) = table.get(single.format.as_str()) else {
            unlisted.push(format!("{} ({})", single.format, path.display()));
            continue;
        };
        if matches!(kind, Document(_)) {
            continue;
        }
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let Ok(mut text) = String::from_utf8(bytes) else {
            continue;
        };
        if !text.ends_with('\n') {
            text.push('\n');
        }
        let rel = path.strip_prefix(HARNESS).unwrap_or(&path).to_path_buf();
        let opens = text.trim_start().chars().next();
        if matches!(opens, Some('{' | '[' | '<'))
            && single.format != "perf-stat-json"
            && single.format != "perf-stat-json-metric-only"
            || DOCUMENT_FILES.iter().any(|(f, _)| rel == Path::new(f))
        {
            continue;
        }
        if only.as_deref().is_some_and(|o| o != single.format) {
            continue;
        }
        let entry = seen.entry(single.format.clone()).or_default();
        entry.0 += 1;
        for (name, sep) in SEPARATORS {
            let prompted;
            let alone = match sep {
                Some(s) if !s.contains("{}") && !s.is_empty() => {
                    let sub = dir.join("x1");
                    std::fs::create_dir_all(&sub).unwrap();
                    let p = sub.join(path.file_name().unwrap());
                    std::fs::write(&p, format!("{s}\n{text}")).unwrap();
                    match read(&p) {
                        Ok(mut r) => {
                            // Lines as in the file without it.
                            r.rows
                                .iter_mut()
                                .for_each(|o| o.line = o.line.saturating_sub(1));
                            r.skipped = r
                                .skipped
                                .iter()
                                .filter(|&&l| l > 1)
                                .map(|l| l - 1)
                                .collect();
                            r.unread = r.unread.iter().filter(|&&l| l > 1).map(|l| l - 1).collect();
                            prompted = r;
                            &prompted
                        }
                        Err(e) => {
                            entry
                                .1
                                .push(format!("{} [{name} x1]: refused: {e}", rel.display()));
                            continue;
                        }
                    }
                }
                _ => &single,
            };
            for copies in [2, 3] {
                if let Err(e) = check(&dir, path.file_name().unwrap(), &text, alone, *sep, copies) {
                    entry
                        .1
                        .push(format!("{} [{name} x{copies}]: {e}", rel.display()));
                    break;
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    let mut faults = Vec::new();
    let (mut pass, mut fail) = (0, 0);
    for (format, (files, errs)) in &seen {
        let kind = table[format.as_str()];
        let held = errs.is_empty();
        if held {
            pass += 1;
        } else {
            fail += 1;
        }
        println!(
            "{format:24} {files:3} files  {}",
            if held {
                "holds".into()
            } else {
                format!("{} faults", errs.len())
            }
        );
        if detail {
            for e in errs {
                println!("    {e}");
            }
        }
        match (kind, held) {
            (Lines, false) => faults.push(format!("{format}: {}", errs[0])),
            (Open(_), true) => faults.push(format!("{format}: holds now, drop its Open line")),
            _ => {}
        }
    }
    println!("line-log formats: {pass} hold, {fail} do not");
    assert!(
        unlisted.is_empty(),
        "formats missing from TABLE: {unlisted:?}"
    );
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

/// Real captures of several runs in one file, made by shell loops (see the
/// harness README): file, and the runs each of its series must have.
const LOOPS: &[(&str, u32)] = &[
    ("cyclictest/cyclictest-hist-date-loop2.txt", 2),
    ("rt-tests/hackbench-loop3.txt", 3),
    ("perf-bench/perf-bench-pipe-banner-loop3.txt", 3),
    ("dd/gnu-loop3.txt", 3),
    ("ab/loop3.txt", 3),
    ("lmbench/lmdd-write-bs64k-loop3.txt", 3),
    ("netperf/tcp_rr-v0-loop5.txt", 5),
    // One run per thread count: two settings, one run each.
    ("sysbench/sysbench-cpu-echo-threads.txt", 1),
    ("sysbench/cpu-loop-threads.txt", 1),
];

#[test]
fn real_loop_captures_give_each_run_its_own_samples() {
    for (file, runs) in LOOPS {
        let path = Path::new(HARNESS).join(file);
        let got = read(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        // Per series of samples: its runs, in order.
        let mut series: BTreeMap<(String, String, String), Vec<u32>> = BTreeMap::new();
        for o in got.rows.iter().filter(|o| o.stat == Stat::Sample) {
            let key = (
                o.benchmark.to_string(),
                o.params.to_string(),
                o.metric.to_string(),
            );
            series.entry(key).or_default().push(o.run.unwrap());
        }
        assert!(!series.is_empty(), "{file}: no samples");
        let want: Vec<u32> = (0..*runs).collect();
        for (key, got) in &series {
            assert_eq!(got, &want, "{file}: {key:?}");
        }
        // The loop's own lines (a counter, a banner, a date) are listed,
        // never read.
        let text = std::fs::read_to_string(&path).unwrap();
        for (line, n) in text.lines().zip(1u32..) {
            let t = line.trim();
            let loop_line =
                t.starts_with("===") || t.parse::<u32>().is_ok() || t.ends_with(" UTC 2026");
            if loop_line {
                assert!(got.rows.iter().all(|o| o.line != n), "{file}:{n} read");
                assert!(
                    got.unread.contains(&n) || got.skipped.contains(&n),
                    "{file}:{n} not accounted"
                );
            }
        }
    }
}

/// A loop's log of two hyperfine invocations (a date before each): each
/// invocation's stated summary is a part of its own, none lost to the
/// other, and two that disagree beyond their stated spread are flagged
/// like a stated summary its samples contradict.
#[test]
fn restated_summaries_of_one_file_are_kept_per_run_and_checked() {
    use patchperf::analysis::{analyze, Settings};
    let text =
        std::fs::read_to_string(Path::new(HARNESS).join("hyperfine/console-basic.txt")).unwrap();
    let dir = std::env::temp_dir().join(format!("patchperf-restated-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let twice = |first: &str, second: &str| {
        format!("Sun Dec  6 20:11:48 UTC 2026\n{first}Sun Dec  6 20:12:48 UTC 2026\n{second}")
    };
    // The second run of `sleep 0.01` states 19.9 ms ± 2.1 ms: 5.6 ms from
    // the first's 14.3 ms, more than either's σ.
    let slower = text.replacen("14.3 ms ±   2.1 ms", "19.9 ms ±   2.1 ms", 1);
    assert_ne!(slower, text);
    let base = dir.join("base.txt");
    let new = dir.join("new.txt");
    std::fs::write(&base, twice(&text, &text)).unwrap();
    std::fs::write(&new, twice(&text, &slower)).unwrap();
    let mut data = patchperf::model::Dataset::default();
    for (path, variant) in [(&base, "base"), (&new, "new")] {
        let opts = IngestOptions {
            variant: Some(variant.into()),
            ..IngestOptions::default()
        };
        let got = ingest(std::slice::from_ref(path), &Registry::builtin(), &opts).unwrap();
        assert_eq!(got.files[0].format.as_deref(), Some("hyperfine-console"));
        data.append(got.dataset);
    }
    let settings = Settings {
        baseline: Some("base".into()),
        ..Settings::default()
    };
    let analysis = analyze(&data, &settings).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let flagged: Vec<_> = analysis
        .findings
        .iter()
        .filter(|f| f.code == "stated-summary-mismatch")
        .collect();
    assert_eq!(flagged.len(), 1, "{flagged:#?}");
    let f = flagged[0];
    assert!(
        f.title.contains("sleep 0.01") && f.title.contains("`new`"),
        "{}",
        f.title
    );
    // Both runs' figures, each with its line: the first run's (line 3) is
    // not lost to the second's (line 15).
    assert!(
        f.evidence.contains("14.3 ms") && f.evidence.contains("new.txt:3"),
        "{}",
        f.evidence
    );
    assert!(
        f.evidence.contains("19.9 ms") && f.evidence.contains("new.txt:15"),
        "{}",
        f.evidence
    );
}
