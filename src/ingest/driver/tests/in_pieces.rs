//! Large files read in pieces give what they give read whole.

use super::*;
use crate::model::Batch;

/// A tidy table of about `rows` rows with what a reading in pieces
/// must carry over: blank lines, CRLF ends, quoted cells, names with
/// `>` (quote stripping), summaries among samples, rows that keep the
/// line numbers of the file they first came from.
fn tidy_table(rows: usize) -> String {
    let mut t =
        String::from("\n\u{feff}source,line,benchmark,params,variant,metric,unit,stat,value,run\n");
    for i in 0..rows {
        let bench = match i % 7 {
            0 => "\"pipe,read\"".to_string(),
            1 => "a->b".to_string(),
            _ => format!("bench{}", i % 23),
        };
        let variant = if i % 2 == 0 { "base" } else { "new" };
        let stat = if i % 101 == 0 { "mean" } else { "sample" };
        let line = if i % 3 == 0 {
            3_000_000_000u64 + i as u64
        } else {
            0
        };
        let end = if i % 5 == 0 { "\r\n" } else { "\n" };
        t.push_str(&format!(
            "log.txt,{line},{bench},n={},{variant},time,ms,{stat},{}.{},{end}",
            i % 4,
            100 + i % 17,
            i % 1000,
        ));
        if i % 997 == 0 {
            t.push_str("\n  \n");
        }
    }
    t
}

/// `stream` of `path` with pieces of `piece_bytes` (a window of one
/// piece per thread): its rows and reports, or its error.
fn read_with_pieces(
    path: &Path,
    opts: &IngestOptions,
    piece_bytes: u64,
) -> Result<(Vec<Observation>, Vec<FileReport>)> {
    let mut rows = Vec::new();
    let files = stream(
        &[path.to_path_buf()],
        &Registry::builtin(),
        opts,
        piece_bytes,
        Ok,
        |obs: Batch, _| {
            rows.extend(obs.into_observations());
            Ok(())
        },
    )?;
    Ok((rows, files))
}

#[test]
fn a_large_table_read_in_pieces_gives_what_it_gives_read_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("table.csv");
    std::fs::write(&path, tidy_table(40_000)).unwrap();
    let (rows, _) = same_in_pieces_as_whole(&path, "tidy-csv");
    assert!(rows.iter().any(|o| o.benchmark == "a->b"));
    // Without a `line` column, rows carry their lines in this file.
    let text: String = tidy_table(60_000)
        .split_inclusive('\n')
        .map(|l| match l.strip_prefix("log.txt,") {
            Some(rest) => rest.split_once(',').map_or(rest, |r| r.1),
            None => l.strip_prefix("\u{feff}source,line,").unwrap_or(l),
        })
        .collect();
    assert!(!text.contains("log.txt") && text.contains("\nbenchmark,params"));
    std::fs::write(&path, text).unwrap();
    let (rows, _) = same_in_pieces_as_whole(&path, "tidy-csv");
    assert_eq!(rows.last().map(|o| o.line), Some(60_000 + 2 + 2 * 61));
}

/// `path` read as one input, as a file too small to be cut is: its rows
/// and report.
fn read_whole(path: &Path, opts: &IngestOptions) -> Result<(Vec<Observation>, Vec<FileReport>)> {
    let size = std::fs::metadata(path).unwrap().len();
    let input = Input::File(path.to_path_buf(), size);
    let (mut rows, account) = super::super::read::read_one(&input, &Registry::builtin(), opts)?;
    super::super::runs::Variants::new(opts).apply(&mut rows);
    LocalRuns::count(&mut rows);
    let mut reports = Vec::new();
    account.add_to(&mut reports);
    Ok((rows.into_observations(), reports))
}

#[test]
fn a_pieced_file_is_read_by_the_format_detected_when_another_has_its_name() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("table.csv");
    std::fs::write(&path, tidy_table(40_000)).unwrap();
    let size = std::fs::metadata(&path).unwrap().len();
    // `--map` puts a mapped tidy reader, also called tidy-csv, first;
    // it does not claim a table without the mapped column.
    let mut registry = Registry::builtin();
    crate::ingest::add_user_formats(&mut registry, &["x=benchmark".into()], &[]).unwrap();
    let opts = IngestOptions::default();
    let (file, _) = pieces::plan(&path, size, &registry, &opts, 64 << 10)
        .unwrap()
        .unwrap();
    let read = pieces::format(&registry, &file).unwrap();
    let detected = detect::detect(&registry, &Source::read(&path).unwrap()).unwrap();
    assert!(std::ptr::addr_eq(read, detected));
    assert!(!std::ptr::addr_eq(read, registry.get("tidy-csv").unwrap()));
}

#[test]
fn large_files_among_small_ones_are_cut_in_order() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.csv"), tidy_table(40_000)).unwrap();
    std::fs::write(dir.path().join("b.csv"), tidy_table(50)).unwrap();
    std::fs::write(dir.path().join("c.csv"), tidy_table(45_000)).unwrap();
    let opts = IngestOptions::default();
    let whole = read_with_pieces(dir.path(), &opts, 1 << 30).unwrap();
    let pieced = read_with_pieces(dir.path(), &opts, 64 << 10).unwrap();
    assert_eq!(pieced, whole);
    let rows: Vec<usize> = whole.1.iter().map(|f| f.rows).collect();
    assert_eq!(rows, [40_000, 50, 45_000]);
    // Runs count on across the files and their pieces.
    let last = pieced
        .0
        .iter()
        .rev()
        .find(|o| o.benchmark == "bench2")
        .unwrap();
    let same_key = pieced.0.iter().filter(|o| {
        o.stat.is_sample()
            && (&o.benchmark, &o.params, &o.variant, &o.metric)
                == (&last.benchmark, &last.params, &last.variant, &last.metric)
    });
    assert_eq!(last.run, Some(same_key.count() as u32 - 1));
}

#[test]
fn large_json_lines_read_in_pieces_give_what_they_give_read_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("table.jsonl");
    let mut text = String::new();
    for i in 0..40_000 {
        // Rows without a `line` key carry their line in this file.
        let line = if i % 3 == 0 {
            String::new()
        } else {
            format!("\"line\":{},", 7 * i)
        };
        text.push_str(&format!(
            "{{\"source\":\"log.txt\",{line}\"benchmark\":\"b{}>c\",\"params\":\"\",\"variant\":\"{}\",\"metric\":\"time\",\"unit\":\"ms\",\"stat\":\"sample\",\"value\":{}.5,\"run\":null}}\n",
            i % 13,
            if i % 2 == 0 { "base" } else { "new" },
            100 + i % 9
        ));
        if i % 1000 == 0 {
            text.push('\n');
        }
    }
    std::fs::write(&path, &text).unwrap();
    let (rows, files) = same_in_pieces_as_whole(&path, "tidy-json");
    assert_eq!(files[0].rows, 40_000);
    assert!(rows.iter().any(|o| o.line == 7 * 39_998));
    // A broken line late in the file: the same error, on its line.
    let bad = "{\"benchmark\": \"x\", \"value\": 1,\n";
    same_error_late_in_pieces_as_whole(&path, &text, bad);
    // A JSON document (an array) is read whole.
    let array = format!(
        "[{}]",
        text.trim_end().replace("}\n", "},\n").replace("\n\n", "\n")
    );
    std::fs::write(&path, array.trim_end_matches(",\n]").to_string() + "]").unwrap();
    let size = std::fs::metadata(&path).unwrap().len();
    let opts = IngestOptions::default();
    assert!(
        pieces::plan(&path, size, &Registry::builtin(), &opts, 64 << 10)
            .unwrap()
            .is_none()
    );
}

/// A mail of long tables in several layouts (underlined, without a
/// rule, quoted, with `±` spreads), prose and headings between them.
fn long_mail() -> String {
    let mut t = String::from("Subject: [PATCH] mm: batch the frees\n\nNumbers below.\n\n");
    for round in 0..3 {
        t.push_str(&format!(
            "Results of round {round}, lower is better (usec):\n\n"
        ));
        t.push_str("benchmark            base      patched   change\n");
        t.push_str("----------------- --------- --------- --------\n");
        for i in 0..9_000 {
            let (b, p) = (100.0 + (i % 37) as f64 / 8.0, 99.0 + (i % 29) as f64 / 4.0);
            t.push_str(&format!(
                "case-{round}-{i:<10} {b:>9.2} {p:>9.2} {:>+7.2}%\n",
                (p - b) / b * 100.0
            ));
        }
        t.push_str("\nhackbench -g N, 10 runs each (seconds)\n\n");
        t.push_str("groups      before      after\n");
        for g in 0..6_000 {
            t.push_str(&format!(
                "{:<6} {:>11.3} {:>10.3}\n",
                g + 1,
                1.0 + g as f64 / 1e3,
                0.9 + g as f64 / 1e3
            ));
        }
        t.push_str("\nOn the other machine:\n\n> threads   before          after\n");
        for k in 0..6_000 {
            t.push_str(&format!(
                "> {:<7} {:>6.1} ± {:<5.1} {:>6.1} ± {:.1}\n",
                k + 1,
                50.0 + (k % 7) as f64,
                1.5,
                48.0 + (k % 5) as f64,
                1.25
            ));
        }
        t.push_str("\nThanks,\nsomeone\n\n");
    }
    t
}

#[test]
fn a_large_mail_read_in_pieces_gives_what_it_gives_read_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mail.txt");
    std::fs::write(&path, long_mail()).unwrap();
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(size > 2 * WIDE_PROBE_BYTES as u64, "{size}");
    let registry = Registry::builtin();
    let opts = IngestOptions::default();
    let small = 64 << 10;
    let (file, cut) = pieces::plan(&path, size, &registry, &opts, small)
        .unwrap()
        .expect("a plain mail is cut");
    assert_eq!(pieces::format(&registry, &file).unwrap().name(), "document");
    assert!(cut.len() > 20, "{}", cut.len());
    assert!(cut[1..].iter().all(|p| !p.carry.is_empty()));
    let whole = read_whole(&path, &opts).unwrap();
    let pieced = read_with_pieces(&path, &opts, small as u64).unwrap();
    assert_eq!(
        whole.0.len(),
        // The hackbench table states its runs: a count per value.
        3 * (9_000 * 3 + 6_000 * 2 * 2 + 6_000 * 4),
        "{}",
        whole.0.len()
    );
    assert_eq!(pieced.0.len(), whole.0.len());
    for (p, w) in pieced.0.iter().zip(&whole.0) {
        assert_eq!(p, w);
    }
    assert_eq!(pieced.1, whole.1);
}

/// Reads `path` whole and in pieces, checks both give the same rows and
/// reports, and returns them.
fn same_in_pieces_as_whole(path: &Path, format: &str) -> (Vec<Observation>, Vec<FileReport>) {
    let path = path.to_path_buf();
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(size > 2 * WIDE_PROBE_BYTES as u64, "{size}");
    let registry = Registry::builtin();
    let opts = IngestOptions {
        default_variant: Some("v".into()),
        ..Default::default()
    };
    let small = 64 << 10;
    let (file, cut) = pieces::plan(&path, size, &registry, &opts, small)
        .unwrap()
        .expect("a plain tidy table is cut");
    assert!(cut.len() > 20, "{}", cut.len());
    assert_eq!(pieces::format(&registry, &file).unwrap().name(), format);
    // Whole: pieces larger than the file, even shrunk to the rows'
    // memory (see `pieces_are_sized_by_the_memory_of_the_rows_they_give`).
    let whole = read_with_pieces(&path, &opts, 1 << 30).unwrap();
    assert!(pieces::plan(&path, size, &registry, &opts, 1 << 30)
        .unwrap()
        .is_none());
    let pieced = read_with_pieces(&path, &opts, small as u64).unwrap();
    assert_eq!(pieced.1, whole.1);
    assert_eq!(pieced.0.len(), whole.0.len());
    assert_eq!(pieced.0, whole.0);
    // Runs count on across pieces.
    let runs = pieced.0.iter().filter(|o| o.run.is_some()).count();
    assert!(runs > 39_000, "{runs}");
    // Forced, the format is not detected but the cut is the same.
    let forced = IngestOptions {
        format: Some(format.into()),
        ..opts.clone()
    };
    assert_eq!(
        read_with_pieces(&path, &forced, small as u64).unwrap(),
        whole
    );
    whole
}

#[test]
fn a_large_go_log_read_in_pieces_gives_what_it_gives_read_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("go.txt");
    // Two packages with benchmarks of the same name (names qualified),
    // notes naming variants, quoted lines, and a `Unit` line at the end
    // that states a direction for every value before it.
    let mut text = String::from("goos: linux\ngoarch: amd64\n");
    for i in 0..40_000 {
        if i % 5000 == 0 {
            let pkg = if i % 10_000 == 0 {
                "example.com/a"
            } else {
                "example.com/b"
            };
            text.push_str(&format!("pkg: {pkg}\ncpu: generated\n"));
        }
        if i % 7000 == 0 {
            text.push_str(&format!("note: run{}\n", i / 7000));
        }
        if i % 9001 == 0 {
            text.push_str("> pkg: example.com/quoted\n> BenchmarkQuoted-8 \t 10 \t 7 ns/op\n");
        }
        text.push_str(&format!(
            "BenchmarkX/n={}-8 \t 1000 \t {} ns/op \t 24 B/op \t 1 allocs/op\n",
            i % 3,
            100 + i % 7
        ));
        if i % 8000 == 0 {
            text.push_str("PASS\nok  \texample.com/a\t1.000s\n");
        }
    }
    text.push_str("Unit B/op better=higher\n");
    std::fs::write(&path, &text).unwrap();
    let (rows, files) = same_in_pieces_as_whole(&path, "go-bench");
    assert_eq!(rows.len(), 3 * 40_000 + 5);
    assert!(rows.iter().any(|o| o.benchmark == "example.com/b.X"));
    assert!(rows
        .iter()
        .any(|o| o.benchmark == "example.com/quoted.Quoted"));
    assert_eq!(rows.last().map(|o| o.variant.as_str()), Some("run5"));
    let bytes = rows.iter().filter(|o| o.metric == "alloc-bytes/op");
    assert!(bytes.clone().count() > 0);
    assert!(bytes
        .into_iter()
        .all(|o| o.direction == Some(crate::model::Direction::Higher)));
    assert!(!files[0].skipped.is_empty());
}

#[test]
fn a_bad_row_late_in_a_table_read_in_pieces_is_the_same_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("table.csv");
    // A row missing its value near the end.
    let bad = "log.txt,0,late,,base,time,ms,sample,,\n";
    same_error_late_in_pieces_as_whole(&path, &tidy_table(40_000), bad);
}

/// Writes `text` to `path` with `bad` inserted as a line near its end,
/// and checks that reading it whole and in pieces fail alike, naming
/// that line.
fn same_error_late_in_pieces_as_whole(path: &Path, text: &str, bad: &str) {
    let mut text = text.to_string();
    let at = text.len() - 3000;
    let at = at + text[at..].find('\n').unwrap() + 1;
    text.insert_str(at, bad);
    std::fs::write(path, &text).unwrap();
    let opts = IngestOptions::default();
    let whole = read_with_pieces(path, &opts, 1 << 30)
        .unwrap_err()
        .to_string();
    let pieced = read_with_pieces(path, &opts, 64 << 10)
        .unwrap_err()
        .to_string();
    assert_eq!(pieced, whole);
    let line = text[..at].matches('\n').count() + 1;
    assert!(
        whole.contains(&format!(":{line}:")),
        "{whole} (line {line})"
    );
}

#[test]
fn a_mail_of_a_few_megabytes_is_cut_in_the_document_reader_s_small_pieces() {
    // Read whole, a 15 MB mail held 1.1 GB: the document reader holds
    // much per byte, so a mail is cut in its own pieces, far smaller than
    // the driver's.
    let dir = tempfile::tempdir().unwrap();
    let registry = Registry::builtin();
    let opts = IngestOptions::default();
    let mail = dir.path().join("mail.txt");
    std::fs::write(&mail, long_mail()).unwrap();
    let size = std::fs::metadata(&mail).unwrap().len();
    let driver = super::super::stream::WINDOW_BYTES_PER_THREAD as usize;
    assert!(size < 4 * driver as u64, "{size}");
    let (_, cut) = pieces::plan(&mail, size, &registry, &opts, driver)
        .unwrap()
        .expect("cut in small pieces");
    assert!(cut.len() >= size as usize / (128 << 10), "{}", cut.len());
}

#[test]
fn pieces_are_sized_by_the_memory_of_the_rows_they_give() {
    // A row read line by line is an `Observation` whatever its text, so a
    // table of short lines holds several times its size in rows and is cut
    // in pieces whose rows take about as much as the driver's piece of
    // text; one of long lines keeps the driver's pieces, and is read whole
    // when smaller than one.
    let dir = tempfile::tempdir().unwrap();
    let registry = Registry::builtin();
    let opts = IngestOptions::default();
    let driver = super::super::stream::WINDOW_BYTES_PER_THREAD as usize;
    let row = std::mem::size_of::<Observation>();
    let short = dir.path().join("short.csv");
    std::fs::write(&short, tidy_table(60_000)).unwrap();
    let size = std::fs::metadata(&short).unwrap().len();
    assert!(
        size > 2 * WIDE_PROBE_BYTES as u64 && size < driver as u64,
        "{size}"
    );
    let (file, cut) = pieces::plan(&short, size, &registry, &opts, driver)
        .unwrap()
        .expect("short rows are cut below the driver's piece");
    assert!(cut.len() >= 2, "{}", cut.len());
    let text = std::fs::read(&short).unwrap();
    for p in &cut[1..cut.len() - 1] {
        let bytes = &text[p.bytes.start as usize..p.bytes.end as usize];
        let rows = memchr::memchr_iter(b'\n', bytes).count();
        let held = rows * row;
        assert!(held <= driver * 11 / 10 && held >= driver / 2, "{held}");
    }
    // A byte of such a piece counts for more in the driver's windows.
    let piece = cut[1].bytes.end - cut[1].bytes.start;
    assert!(file.weight >= 2 && file.weight * piece >= driver as u64);
    // The same table with long names: fewer rows than bytes of memory.
    let long = tidy_table(12_000).replace(",n=", &format!(",{}n=", "x".repeat(160)));
    let table = dir.path().join("long.csv");
    std::fs::write(&table, long).unwrap();
    let size = std::fs::metadata(&table).unwrap().len();
    assert!(
        size > 2 * WIDE_PROBE_BYTES as u64 && size < driver as u64,
        "{size}"
    );
    assert!(pieces::plan(&table, size, &registry, &opts, driver)
        .unwrap()
        .is_none());
    // Cut with the driver's pieces when it holds more than one.
    let (file, cut) = pieces::plan(&table, size, &registry, &opts, 256 << 10)
        .unwrap()
        .expect("cut in the driver's pieces");
    assert_eq!(file.weight, 1);
    assert!(cut[..cut.len() - 1]
        .iter()
        .all(|p| p.bytes.end - p.bytes.start >= 256 << 10));
}

#[test]
fn large_files_that_must_be_read_whole_are() {
    let dir = tempfile::tempdir().unwrap();
    let registry = Registry::builtin();
    let opts = IngestOptions::default();
    let small = 64 << 10;
    let table = tidy_table(40_000);
    // A late Latin-1 byte or quoted-printable sign: the whole file is
    // prepared differently, so it is read whole, with the same result.
    for (name, late) in [("latin1.csv", &b"\xe9"[..]), ("qp.csv", b"=3D")] {
        let path = dir.path().join(name);
        let mut bytes = table.clone().into_bytes();
        let at = bytes.len() - 100;
        let at = at + bytes[at..].iter().position(|&b| b == b',').unwrap();
        bytes.splice(at..at, late.iter().copied());
        std::fs::write(&path, &bytes).unwrap();
        let size = bytes.len() as u64;
        assert!(pieces::plan(&path, size, &registry, &opts, small)
            .unwrap()
            .is_none());
    }
    // Compressed: read whole.
    let gz = dir.path().join("table.csv.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut enc, table.as_bytes()).unwrap();
    let bytes = enc.finish().unwrap();
    std::fs::write(&gz, &bytes).unwrap();
    assert!(pieces::plan(&gz, 1 << 30, &registry, &opts, small)
        .unwrap()
        .is_none());
}

/// On a pool of more threads than a small input's memory affords, pieces
/// are read on a smaller pool of their own, and give the rows, in order,
/// and the reports of a reading on one thread.
#[test]
fn a_mail_read_on_fewer_threads_than_the_pool_has_gives_the_same_rows() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mail.txt");
    std::fs::write(&path, long_mail()).unwrap();
    let opts = IngestOptions::default();
    let on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let names = std::sync::Mutex::new(std::collections::BTreeSet::new());
        let mut rows = Vec::new();
        let files = pool.install(|| {
            stream(
                std::slice::from_ref(&path),
                &Registry::builtin(),
                &opts,
                64 << 10,
                |batch: Batch| {
                    let name = std::thread::current().name().map(str::to_string);
                    names.lock().unwrap().insert(name.unwrap_or_default());
                    Ok(batch)
                },
                |batch: Batch, _| {
                    rows.extend(batch.into_observations());
                    Ok(())
                },
            )
            .unwrap()
        });
        (rows, files, names.into_inner().unwrap())
    };
    let (one, one_files, _) = on(1);
    let (six, six_files, names) = on(6);
    // The mail is far under 100 MB: one reader, on a thread of its own.
    assert_eq!(super::super::budget::readers(6, 1 << 20), 1);
    assert_eq!(names.len(), 1, "{names:?}");
    assert!(
        names.iter().all(|n| n.starts_with("patchperf-read-")),
        "{names:?}"
    );
    assert!(one.len() > 1000, "{}", one.len());
    assert_eq!(six.len(), one.len());
    assert!(six.iter().zip(&one).all(|(a, b)| a == b));
    assert_eq!(six_files, one_files);
}
