//! The document-table reader end to end: `patchperf ingest FILE --out -` on
//! the data/ copies of the seed e-mails, on the original posts, and on bad input.

use assert_cmd::Command;
use std::io::Write;

/// One row of the CSV that `ingest --out -` writes.
#[derive(Debug, Clone, PartialEq)]
struct Row {
    line: u32,
    benchmark: String,
    params: String,
    variant: String,
    metric: String,
    unit: String,
    stat: String,
    value: f64,
    run: String,
}

/// Splits one CSV record, honouring double quotes.
fn split_csv(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    out.push(cur);
    out
}

fn ingest(path: &str) -> Vec<Row> {
    let out = Command::cargo_bin("patchperf")
        .unwrap()
        .args(["ingest", path, "--out", "-"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{path}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("format document"),
        "{path} was not read as a document: {stderr}"
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("source,line,benchmark,params,variant,metric,unit,stat,value,run")
    );
    lines
        .map(|l| {
            let f = split_csv(l);
            assert_eq!(f.len(), 10, "{l}");
            Row {
                line: f[1].parse().unwrap(),
                benchmark: f[2].clone(),
                params: f[3].clone(),
                variant: f[4].clone(),
                metric: f[5].clone(),
                unit: f[6].clone(),
                stat: f[7].clone(),
                value: f[8].parse().unwrap(),
                run: f[9].clone(),
            }
        })
        .collect()
}

fn pick(rows: &[Row], f: impl Fn(&Row) -> bool) -> Vec<&Row> {
    rows.iter().filter(|r| f(r)).collect()
}

fn sub<'a>(rows: &[&'a Row], f: impl Fn(&Row) -> bool) -> Vec<&'a Row> {
    rows.iter().copied().filter(|r| f(r)).collect()
}

/// The single value of `stat` for a variant containing `variant`.
fn one(rows: &[&Row], variant: &str, metric: &str, stat: &str) -> f64 {
    let v: Vec<&&Row> = rows
        .iter()
        .filter(|r| r.variant.contains(variant) && r.metric == metric && r.stat == stat)
        .collect();
    assert_eq!(v.len(), 1, "{variant} {metric} {stat}: {v:?}");
    v[0].value
}

/// Benchmarks in order of first appearance.
fn benchmarks(rows: &[Row]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in rows {
        if !out.contains(&r.benchmark) {
            out.push(r.benchmark.clone());
        }
    }
    out
}

#[test]
fn futex_plist_four_summary_blocks() {
    let rows = ingest("data/lkml/futex-plist-wakeup-2007.txt");
    assert_eq!(rows.len(), 20, "{rows:#?}");
    let cases = benchmarks(&rows);
    assert_eq!(
        cases.len(),
        2,
        "the two cases land in different benchmarks: {cases:?}"
    );
    for r in &rows {
        assert_eq!(r.metric, "latency");
        assert_eq!(r.unit, if r.stat == "n" { "" } else { "us" }, "{r:?}");
    }
    let case1 = pick(&rows, |r| r.benchmark == cases[0]);
    let case2 = pick(&rows, |r| r.benchmark == cases[1]);
    for case in [&case1, &case2] {
        for variant in ["simple list", "plist"] {
            let v = if variant == "plist" {
                "with plist"
            } else {
                variant
            };
            for stat in ["min", "max", "mean", "stddev"] {
                one(case, v, "latency", stat);
            }
            assert_eq!(one(case, v, "latency", "n"), 5000.0);
        }
    }
    assert_eq!(one(&case1, "simple list", "latency", "mean"), 6656.73);
    assert_eq!(one(&case1, "simple list", "latency", "stddev"), 539.35);
    assert_eq!(one(&case2, "with plist", "latency", "min"), 8289.0);
    assert_eq!(one(&case2, "with plist", "latency", "max"), 11752.0);
    assert_eq!(one(&case2, "with plist", "latency", "mean"), 9720.12);
    assert_eq!(one(&case2, "with plist", "latency", "stddev"), 426.45);
    // Each value keeps the line it was printed on.
    let min = sub(&case2, |r| {
        r.variant.contains("with plist") && r.stat == "min"
    });
    assert_eq!(min[0].line, 30);
}

#[test]
fn futex_wake_boxed_tables() {
    let rows = ingest("data/lkml/futex-wake-lockless-2013.txt");
    assert_eq!(rows.len(), 55, "{rows:#?}");
    let tables = benchmarks(&rows);
    assert_eq!(tables.len(), 2, "{tables:?}");
    let t1 = pick(&rows, |r| r.benchmark == tables[0]);
    let t2 = pick(&rows, |r| r.benchmark == tables[1]);
    let t1_512 = pick(&rows, |r| {
        r.benchmark == tables[0] && r.params == "threads=512"
    });
    assert_eq!(one(&t1_512, "baseline", "time", "mean"), 4.2410);
    assert_eq!(one(&t1_512, "baseline", "time", "stddev"), 0.9762);
    assert_eq!(one(&t1_512, "patched", "time", "mean"), 12.3660);
    assert_eq!(one(&t1_512, "patched", "time", "stddev"), 5.1020);
    assert_eq!(one(&t1_512, "patched", "time", "change_pct"), 191.58);
    assert!(t1_512
        .iter()
        .all(|r| r.unit == if r.stat == "change_pct" { "%" } else { "ms" }));
    let t2_32 = pick(&rows, |r| {
        r.benchmark == tables[1] && r.params == "threads=32"
    });
    assert_eq!(one(&t2_32, "atomicops", "time", "mean"), 0.1490);
    assert_eq!(one(&t2_32, "atomicops", "time", "stddev"), 0.1156);
    // All thread counts times all variants.
    for (t, variants) in [
        (&t1, vec!["baseline", "patched"]),
        (&t2, vec!["baseline", "barrier", "atomicops"]),
    ] {
        for threads in [512, 256, 128, 64, 32] {
            for v in &variants {
                let means = t
                    .iter()
                    .filter(|r| {
                        r.params == format!("threads={threads}")
                            && r.variant == *v
                            && r.stat == "mean"
                    })
                    .count();
                assert_eq!(means, 1, "threads={threads} {v}");
            }
        }
    }
}

#[test]
fn lock_prefix_summary_and_raw_samples() {
    let rows = ingest("data/lkml/lock-prefix-up-2008.txt");
    assert_eq!(rows.len(), 52, "{rows:#?}");
    let make = pick(&rows, |r| r.benchmark == "make -j1 kernel/");
    let hb = pick(&rows, |r| r.benchmark == "hackbench 50");
    assert_eq!(one(&make, "no lock prefix", "time", "mean"), 33.94);
    assert_eq!(one(&make, "no lock prefix", "time", "stddev"), 0.07);
    assert_eq!(one(&make, "with lock prefix", "time", "mean"), 34.91);
    assert_eq!(one(&make, "with lock prefix", "time", "stddev"), 0.27);
    assert_eq!(one(&make, "with lock prefix", "time", "change_pct"), 2.8);
    let hb_summary = sub(&hb, |r| r.line < 20);
    assert_eq!(one(&hb_summary, "no lock prefix", "time", "mean"), 2.99);
    assert_eq!(one(&hb_summary, "with lock prefix", "time", "mean"), 3.74);
    assert_eq!(one(&hb_summary, "with lock prefix", "time", "stddev"), 0.01);
    assert!(make
        .iter()
        .filter(|r| r.stat != "change_pct")
        .all(|r| r.unit == "s"));
    // Raw samples: the posted detail has four `time` blocks per kernel.
    for (variant, first) in [("no lock prefix", 34.067), ("with lock prefix", 35.326)] {
        for metric in ["real", "user", "sys"] {
            let s = sub(&make, |r| {
                r.variant == variant && r.metric == metric && r.stat == "sample"
            });
            assert_eq!(s.len(), 4, "{variant} {metric}");
            assert!(s.iter().all(|r| r.unit == "s"));
        }
        let real = sub(&make, |r| {
            r.variant == variant && r.metric == "real" && r.stat == "sample"
        });
        assert_eq!((real[0].value, real[0].run.as_str()), (first, "0"));
        assert_eq!(real[3].run, "3");
        let t = sub(&hb, |r| {
            r.variant == variant && r.metric == "time" && r.stat == "sample"
        });
        assert_eq!(t.len(), 5, "{variant}");
    }
    let hb_no: Vec<f64> = sub(&hb, |r| r.variant == "no lock prefix" && r.stat == "sample")
        .iter()
        .map(|r| r.value)
        .collect();
    assert_eq!(hb_no, [2.978, 2.982, 3.010, 2.984, 2.982]);
    let hb_with = sub(&hb, |r| {
        r.variant == "with lock prefix" && r.stat == "sample"
    });
    assert_eq!(hb_with[0].value, 3.733);
    // `avg :` / `std. dev. :` state the summary of the block above them.
    assert_eq!(one(&make, "no lock prefix", "real", "mean"), 33.94);
    assert_eq!(one(&make, "with lock prefix", "real", "stddev"), 0.27);
    // hackbench: the summary table and the block's own `avg :` line both
    // state a mean of the same samples.
    for (variant, mean) in [("no lock prefix", 2.99), ("with lock prefix", 3.74)] {
        let stated: Vec<f64> = sub(&hb, |r| r.variant == variant && r.stat == "mean")
            .iter()
            .map(|r| r.value)
            .collect();
        assert_eq!(stated, [mean, mean], "{variant}");
    }
}

#[test]
fn tty_groups_key_value_samples_and_latency_blocks() {
    let all = ingest("data/lkml/tty-autogroup-2010.txt");
    // Each line's `>5484.43us:  41` (runs over a threshold that differs per
    // line) is no column of the key-value layout: its number is left to the
    // fallback, one marked row per line, apart from the layout's rows.
    let (guessed, rows): (Vec<Row>, Vec<Row>) =
        all.into_iter().partition(|r| r.params == "read=fallback");
    assert_eq!(guessed.len(), 10, "{guessed:#?}");
    assert_eq!(rows.len(), 66, "{rows:#?}");
    let pert = pick(&rows, |r| r.benchmark == "pert");
    assert_eq!(pert.len(), 60);
    let variants: Vec<&str> = {
        let mut v: Vec<&str> = pert.iter().map(|r| r.variant.as_str()).collect();
        v.dedup();
        v
    };
    assert_eq!(variants.len(), 2, "{variants:?}");
    for metric in ["pert/s", "min", "max", "avg", "sum/s", "overhead"] {
        for v in &variants {
            let n = pert
                .iter()
                .filter(|r| r.variant == *v && r.metric == metric && r.stat == "sample")
                .count();
            assert_eq!(n, 5, "{v} {metric}");
        }
    }
    let first_avg = pick(&rows, |r| {
        r.metric == "avg" && r.run == "0" && r.variant == variants[0]
    });
    assert_eq!(
        (first_avg[0].value, first_avg[0].unit.as_str()),
        (2193.81, "us")
    );
    let first_over = pick(&rows, |r| {
        r.metric == "overhead" && r.run == "0" && r.variant == variants[0]
    });
    assert_eq!(
        (first_over[0].value, first_over[0].unit.as_str()),
        (50.24, "%")
    );
    // The unmarked `min` shares the unit the caret line gives `max` and `avg`.
    assert!(pert
        .iter()
        .filter(|r| ["min", "max", "avg"].contains(&r.metric.as_str()))
        .all(|r| r.unit == "us"));
    let wl = pick(&rows, |r| r.benchmark == "wakeup-latency");
    assert_eq!(one(&wl, "without", "maximum latency", "sample"), 42963.2);
    assert_eq!(one(&wl, "without", "average latency", "sample"), 9077.0);
    let with: Vec<&&Row> = wl.iter().filter(|r| r.variant == "with").collect();
    let max: Vec<f64> = with
        .iter()
        .filter(|r| r.metric == "maximum latency")
        .map(|r| r.value)
        .collect();
    let avg: Vec<f64> = with
        .iter()
        .filter(|r| r.metric == "average latency")
        .map(|r| r.value)
        .collect();
    assert_eq!((max, avg), (vec![4160.7], vec![149.4]));
    assert!(wl
        .iter()
        .filter(|r| r.metric.ends_with("latency"))
        .all(|r| r.unit == "us"));
}

#[test]
fn wakeup_buddy_label_value_list_with_changes() {
    let rows = ingest("data/lkml/wakeup-buddy-pgbench-2013.txt");
    assert_eq!(rows.len(), 11, "{rows:#?}");
    let all: Vec<&Row> = rows.iter().collect();
    let expect = [
        ("original", 43404.0, None),
        ("wakeup-buddy", 63024.0, Some(45.20)),
        ("1s-limit", 62359.0, Some(43.67)),
        ("100ms-limit", 57547.0, Some(32.58)),
        ("10ms-limit", 52258.0, Some(20.40)),
        ("1ms-limit", 46535.0, Some(7.21)),
    ];
    for (variant, tps, change) in expect {
        let v: Vec<&&Row> = all.iter().filter(|r| r.variant == variant).collect();
        let t: Vec<&&&Row> = v
            .iter()
            .filter(|r| r.metric == "tps" && r.stat == "sample")
            .collect();
        assert_eq!(t.len(), 1, "{variant}");
        assert_eq!((t[0].value, t[0].unit.as_str()), (tps, "tps"));
        let c: Vec<f64> = v
            .iter()
            .filter(|r| r.stat == "change_pct")
            .map(|r| r.value)
            .collect();
        assert_eq!(c, change.into_iter().collect::<Vec<_>>(), "{variant}");
    }
    assert_eq!(benchmarks(&rows).len(), 1);
}

/// (metric, stat, unit, params, value) of every row, sorted: what must not
/// differ between an original post and its data/ copy.
fn numbers(rows: &[Row]) -> Vec<(String, String, String, String, String)> {
    let mut v: Vec<_> = rows
        .iter()
        .map(|r| {
            (
                r.metric.clone(),
                r.stat.clone(),
                r.unit.clone(),
                r.params.clone(),
                format!("{}", r.value),
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn original_posts_give_the_same_numbers_as_the_data_copies() {
    for (seed, copy) in [
        ("000_dcac3b90abb307ba.txt", "futex-plist-wakeup-2007.txt"),
        ("001_f96703dd2cb80e16.txt", "tty-autogroup-2010.txt"),
        ("002_6f28fe6b5f1b8f87.txt", "lock-prefix-up-2008.txt"),
        ("003_7b9931ba401181b8.txt", "futex-wake-lockless-2013.txt"),
        ("004_d8a0120ce946b433.txt", "wakeup-buddy-pgbench-2013.txt"),
    ] {
        let a = ingest(&format!("tests/data/seeds/{seed}"));
        let b = ingest(&format!("data/lkml/{copy}"));
        assert_eq!(numbers(&a), numbers(&b), "{seed} vs {copy}");
        // Block structure survives too: as many benchmarks and variants.
        let count = |rows: &[Row], f: fn(&Row) -> String| {
            let mut v: Vec<String> = rows.iter().map(f).collect();
            v.sort();
            v.dedup();
            v.len()
        };
        assert_eq!(
            count(&a, |r| r.benchmark.clone()),
            count(&b, |r| r.benchmark.clone()),
            "{seed}"
        );
        // The copy of 002 names its two detail sections after the summary
        // table's columns, so its samples share the table's two variants.
        let variants = if seed.starts_with("002") {
            2
        } else {
            count(&a, |r| r.variant.clone())
        };
        assert_eq!(variants, count(&b, |r| r.variant.clone()), "{seed}");
    }
}

#[test]
fn original_posts_in_the_shared_folder_when_present() {
    let dir = std::path::Path::new("../shared/seeds");
    let Ok(entries) = std::fs::read_dir(dir) else {
        eprintln!("../shared/seeds absent: skipped");
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        let shared = ingest(&e.path().to_string_lossy());
        let ours = ingest(&format!("tests/data/seeds/{name}"));
        assert_eq!(numbers(&shared), numbers(&ours), "{name}");
    }
}

/// Runs `ingest` on a file with the given bytes; returns (exit code, stderr).
fn fails(name: &str, bytes: &[u8]) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::File::create(&path)
        .unwrap()
        .write_all(bytes)
        .unwrap();
    let out = Command::cargo_bin("patchperf")
        .unwrap()
        .args([
            "ingest",
            &path.to_string_lossy(),
            "--format",
            "document",
            "--out",
            "-",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!stderr.contains("panicked"), "{stderr}");
    (
        out.status.code().unwrap_or(-1),
        stderr,
        path.to_string_lossy().to_string(),
    )
}

#[test]
fn empty_and_binary_files_are_refused_with_exit_2() {
    let (code, err, path) = fails("empty.txt", b"");
    assert_eq!(code, 2);
    assert!(err.contains(&path) && err.contains("empty"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let (code, err, path) = fails("junk.bin", b"\x7fELF\x02\x01\x01\0\0\0\0\n\x03\0>\0");
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!("{path}:1")) && err.contains("binary"),
        "{err}"
    );
}

#[test]
fn ragged_rows_name_file_and_line() {
    let boxed = "futex-wake:\n+---------+----------+--------+\n| threads | baseline | stddev |\n+---------+----------+--------+\n| 512 | 4.2410 | 0.9762 |\n| 256 | 2.7750 |\n+---------+----------+--------+\n";
    let (code, err, path) = fails("boxed.txt", boxed.as_bytes());
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!("{path}:6")) && err.contains("columns"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let aligned = "Summary\n\n              base (s)   patched (s)   other (s)\nmake          33.94      34.91         35.0\nhackbench     2.99       3.74\n";
    let (code, err, path) = fails("aligned.txt", aligned.as_bytes());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&format!("{path}:5")), "{err}");
}

#[test]
fn truncated_gzip_is_refused() {
    let mut gz = Vec::new();
    {
        let mut w = flate2::write::GzEncoder::new(&mut gz, flate2::Compression::default());
        w.write_all(
            std::fs::read("data/lkml/lock-prefix-up-2008.txt")
                .unwrap()
                .as_slice(),
        )
        .unwrap();
    }
    let (code, err, path) = fails("mail.txt.gz", &gz[..gz.len() / 2]);
    assert_eq!(code, 2);
    assert!(err.contains(&path) && err.contains("gzip"), "{err}");
    // The whole archive reads like the plain file.
    let (code, _, _) = fails("ok.txt.gz", &gz);
    assert_eq!(code, 0);
}

#[test]
fn prose_without_tables_is_reported_not_invented() {
    let prose =
        "Date: Wed, 10 Jan 2007 12:47:21 +0100\nMessage-ID: <45A4D249.8080904@example.net>\n\
                 Tested on 2.6.20-rc4, see https://example.org/x/2013/11/26 for details.\n\
                 The run took about 5 minutes on 4 CPUs.\n";
    let (code, err, _) = fails("prose.txt", prose.as_bytes());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no table found"), "{err}");
}

/// Every value read is printed on the line it is attributed to: no value is
/// invented from prose, and line numbers are those of the original file.
#[test]
fn every_value_stands_on_its_line() {
    let files = [
        "data/lkml/futex-plist-wakeup-2007.txt",
        "data/lkml/tty-autogroup-2010.txt",
        "data/lkml/lock-prefix-up-2008.txt",
        "data/lkml/futex-wake-lockless-2013.txt",
        "data/lkml/wakeup-buddy-pgbench-2013.txt",
        "tests/data/seeds/000_dcac3b90abb307ba.txt",
        "tests/data/seeds/001_f96703dd2cb80e16.txt",
        "tests/data/seeds/002_6f28fe6b5f1b8f87.txt",
        "tests/data/seeds/003_7b9931ba401181b8.txt",
        "tests/data/seeds/004_d8a0120ce946b433.txt",
    ];
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for r in ingest(file) {
            let line = lines[r.line as usize - 1];
            assert!(
                line.contains(&format!("{}", r.value)),
                "{file}:{}: {} not on `{line}`",
                r.line,
                r.value
            );
        }
    }
}

/// The same mail quoted once more and sent with CRLF line ends reads the same.
#[test]
fn requoted_crlf_mail_reads_the_same() {
    let text = std::fs::read_to_string("data/lkml/futex-wake-lockless-2013.txt").unwrap();
    let requoted: String = text.lines().map(|l| format!("> {l}\r\n")).collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("reply.txt");
    std::fs::write(&path, requoted).unwrap();
    let a = ingest("data/lkml/futex-wake-lockless-2013.txt");
    let b = ingest(&path.to_string_lossy());
    assert_eq!(numbers(&a), numbers(&b));
    let lines = |rows: &[Row]| rows.iter().map(|r| r.line).collect::<Vec<_>>();
    assert_eq!(lines(&a), lines(&b));
}

/// A sentence that states the command, the run count and the unit above a
/// table keyed by its first column: each key is a comparison of the mean
/// of 10 runs with its spread, in seconds, lower being better.
#[test]
fn the_sentence_above_a_table_names_its_command_runs_and_unit() {
    let mut f = tempfile::Builder::new().suffix(".txt").tempfile().unwrap();
    write!(
        f,
        "Subject: [PATCH] sched: x\n\n\
         Here are the numbers, 10 runs each, hackbench -g N -l 1000 (seconds)\n\n\
         \x20 N     base             patched\n\
         \x20 1     0.512 ± 0.010    0.498 ± 0.012\n\
         \x20 4     1.730 ± 0.020    1.655 ± 0.031\n\
         \x20 8     3.402 ± 0.045    3.301 ± 0.040\n\nThanks\n"
    )
    .unwrap();
    let path = f.path().to_str().unwrap().to_string();
    let rows = ingest(&path);
    assert!(
        rows.iter().all(|r| r.benchmark == "hackbench -g N -l 1000"),
        "{rows:#?}"
    );
    let n = pick(&rows, |r| r.stat == "n");
    assert_eq!(n.len(), 6, "{rows:#?}");
    assert!(n.iter().all(|r| r.value == 10.0 && r.metric == "time"));
    let means = pick(&rows, |r| r.stat == "mean");
    assert_eq!(means.len(), 6);
    assert!(means.iter().all(|r| r.unit == "s" && r.metric == "time"));
    let keys: Vec<&str> = means.iter().map(|r| r.params.as_str()).collect();
    assert_eq!(keys, ["n=1", "n=1", "n=4", "n=4", "n=8", "n=8"]);
    let out = Command::cargo_bin("patchperf")
        .unwrap()
        .args(["compare", &path])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("time (s, lower is better)"), "{text}");
    assert!(text.contains("3 improved"), "{text}");
}

/// Prose with a few lines of values and no table no importer claims: read
/// as a document, and the accounting says so, instead of nothing.
#[test]
fn unrecognised_prose_with_lines_of_values_is_read_as_a_document() {
    let mut f = tempfile::Builder::new().suffix(".txt").tempfile().unwrap();
    write!(
        f,
        "I tried the counter both ways on the big box: as a per-cpu counter and as a plain \
         atomic, and the file system benchmark gave these figures for each of them.\n\n\
         with the per-cpu counter:\n        Speed 188.4 MB/sec 16 procs\n        Speed 226.2 MB/sec 32 procs\n\
         with the atomic:\n        Speed 194.4 MB/sec 16 procs\n        Speed 237.3 MB/sec 32 procs\n"
    )
    .unwrap();
    let path = f.path().to_str().unwrap().to_string();
    let out = Command::cargo_bin("patchperf")
        .unwrap()
        .args(["ingest", &path, "--out", "-"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    // Its sentences make it a document outright, or the fallback for an
    // unrecognised file reads it as one; either way the note names it.
    assert!(
        err.contains("format document") || err.contains("read as a document"),
        "{err}"
    );
    let rows = ingest(&path);
    for v in [188.4, 226.2, 194.4, 237.3] {
        assert!(rows.iter().any(|r| r.value == v), "{v}: {rows:#?}");
    }
    // A log of values without sentences is no dead end either: read as a
    // document, and said so.
    let mut g = tempfile::Builder::new().suffix(".txt").tempfile().unwrap();
    write!(g, "name  first  second\nalpha: 1 2\nbeta: 4 5\n").unwrap();
    let out = Command::cargo_bin("patchperf")
        .unwrap()
        .args(["ingest", g.path().to_str().unwrap(), "--out", "-"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("tables and lines of values were read as a document"),
        "{err}"
    );
    let rows = ingest(g.path().to_str().unwrap());
    assert_eq!(rows.len(), 4, "{rows:#?}");
    // One line of values and nothing else is an error message's version
    // number, not a reading.
    let mut h = tempfile::Builder::new().suffix(".txt").tempfile().unwrap();
    write!(
        h,
        "This is SomeBench, Version 2.3\nerror: connection refused\n"
    )
    .unwrap();
    let out = Command::cargo_bin("patchperf")
        .unwrap()
        .args(["ingest", h.path().to_str().unwrap(), "--out", "-"])
        .output()
        .unwrap();
    assert!(!out.status.success());
}

/// A header underlined column by column, and a title underlined whole: the
/// underline is no header row, the title names the block.
#[test]
fn underlines_under_headers_and_titles() {
    let mut f = tempfile::Builder::new().suffix(".txt").tempfile().unwrap();
    write!(
        f,
        "The patched kernel was measured against the base one with the numbers below.\n\n\
         threads   base   patched\n\
         -------   ----   -------\n\
         1         10.5   11.2\n\
         2         20.1   22.3\n\n\
         \x20   strlen/strnlen\n\
         \x20   ==============\n\
         \x20   strlen-1             0.453 ± 0.002M/s (drops 0.000 ± 0.000M/s)\n\
         \x20   strnlen-1            0.470 ± 0.006M/s (drops 0.000 ± 0.000M/s)\n"
    )
    .unwrap();
    let rows = ingest(f.path().to_str().unwrap());
    let table: Vec<(&str, &str, f64)> = rows
        .iter()
        .filter(|r| r.line <= 6)
        .map(|r| (r.params.as_str(), r.variant.as_str(), r.value))
        .collect();
    assert_eq!(
        table,
        [
            ("threads=1", "base", 10.5),
            ("threads=1", "patched", 11.2),
            ("threads=2", "base", 20.1),
            ("threads=2", "patched", 22.3)
        ]
    );
    let mean = rows
        .iter()
        .find(|r| r.line == 10 && r.stat == "mean")
        .expect("strlen-1 row");
    assert_eq!((mean.benchmark.as_str(), mean.value), ("strlen-1", 0.453));
    assert_eq!(mean.unit.as_str(), "M/s");
    assert!(!mean.variant.contains("=="), "{mean:?}");
}
