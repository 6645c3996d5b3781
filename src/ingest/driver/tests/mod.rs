//! Tests of the driver: accounting, streaming, pieces and run numbering.

use super::account::has_digit;
use super::detect::WIDE_PROBE_BYTES;
use super::inputs::{DirInput, Input, DIR_PART_BYTES};
use super::runs::{digest, LocalRuns};
use super::stream::{batches, windows, ReadInput, BATCH_ROWS};
use super::*;
use crate::error::Error;
use crate::ingest::Source;
use crate::model::Batch;
use crate::model::{Observation, SmolStr};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;

mod in_pieces;
mod loop_runs;
mod streamed;

#[test]
fn every_byte_value_is_a_digit_or_not_in_every_position() {
    for byte in 0..=255u8 {
        for at in 0..12 {
            let mut b = vec![b'-'; 12];
            b[at] = byte;
            assert_eq!(has_digit(&b), byte.is_ascii_digit(), "{byte:#x} at {at}");
        }
    }
}

proptest! {
    #[test]
    fn has_digit_agrees_with_a_byte_scan(b in proptest::collection::vec(any::<u8>(), 0..40)) {
        prop_assert_eq!(has_digit(&b), b.iter().any(u8::is_ascii_digit));
    }
}

/// More inputs than a window, so that windows and their overlap with
/// the sink are exercised.
fn hackbench_inputs(dir: &Path, files: usize) -> Vec<PathBuf> {
    (0..files)
        .map(|i| {
            let p = dir.join(format!("run{i:02}.txt"));
            let text = format!(
                "Running in process mode with 10 groups using 40 file descriptors each (== 400 tasks)\n\
                 Each sender will pass 100 messages of 100 bytes\nTime: {}.{i:03}\n\
                 Running in process mode with 10 groups using 40 file descriptors each (== 400 tasks)\n\
                 Each sender will pass 100 messages of 100 bytes\nTime: {}.5\n",
                i + 1,
                i + 2
            );
            std::fs::write(&p, text).unwrap();
            p
        })
        .collect()
}

#[test]
fn batches_join_small_inputs_in_order_and_keep_large_ones_whole() {
    let input = |n: usize, tag: usize| ReadInput {
        obs: Batch::from(
            (0..n)
                .map(|i| Observation::sample("b", "m", "s", (tag * 1_000_000 + i) as f64))
                .collect::<Vec<_>>(),
        ),
        runs: LocalRuns::default(),
        bytes: 1 << tag,
    };
    let sizes = [3, 2, BATCH_ROWS, 1, BATCH_ROWS - 1, 4, 0];
    let read: Vec<ReadInput> = sizes
        .iter()
        .enumerate()
        .map(|(t, &n)| input(n, t))
        .collect();
    let out = batches(read);
    let lens: Vec<usize> = out.iter().map(|(rows, _)| rows.len()).collect();
    assert_eq!(lens, [5, BATCH_ROWS, BATCH_ROWS, 4]);
    // Each batch counts its inputs' bytes: inputs 0+1, 2, 3+4, 5+6.
    let bytes: Vec<u64> = out.iter().map(|(_, b)| *b).collect();
    assert_eq!(bytes, [1 + 2, 4, 8 + 16, 32 + 64]);
    // Every row once, in input order.
    let values: Vec<f64> = out
        .iter()
        .flat_map(|(rows, _)| rows.rows.iter())
        .map(|o| o.value)
        .collect();
    let expected: Vec<f64> = sizes
        .iter()
        .enumerate()
        .flat_map(|(t, &n)| (0..n).map(move |i| (t * 1_000_000 + i) as f64))
        .collect();
    assert_eq!(values, expected);
    assert!(batches(Vec::new()).is_empty());
}

proptest::proptest! {
    /// Runs are numbered per key in row order, whichever way the keys
    /// interleave: groups and metrics changing in any order, groups
    /// with more metrics than are found by a scan, shared and
    /// separately allocated names, summaries in between.
    #[test]
    fn local_runs_number_each_key_from_zero(
        picks in proptest::collection::vec((0u8..4, 0u8..120, 0u8..4), 0..600),
        cut in 0u8..5,
    ) {
        let long = SmolStr::new("a-benchmark-name-longer-than-the-inline-limit");
        let rows: Vec<Observation> = picks
            .iter()
            .map(|&(group, metric, kind)| {
                let stat = if kind == 0 {
                    crate::model::Stat::Mean
                } else {
                    crate::model::Stat::Sample
                };
                let mut o = Observation::new("b", "m", "s", stat, 1.0);
                o.benchmark = if group % 3 == 0 {
                    long.clone()
                } else {
                    SmolStr::new(format!("b{}", group % 3))
                };
                o.variant = SmolStr::new(if group < 2 { "base" } else { "new" });
                o.params = SmolStr::new(if kind == 3 { "n=1" } else { "" });
                // A few metrics often, many now and then.
                let m = if metric < 40 { metric % 3 } else { metric };
                o.metric = SmolStr::new(format!("m{m}"));
                o
            })
            .collect();
        // Some rows stored by column, the rest as observations.
        let (stored, loose) = rows.split_at(rows.len() * cut as usize / 4);
        let mut data = Batch {
            columns: crate::model::Dataset::new(stored.to_vec()),
            rows: loose.to_vec(),
        };
        let runs = LocalRuns::count(&mut data);
        type Key = (String, String, String, String);
        let key = |o: &Observation| -> Key {
            (
                o.benchmark.to_string(),
                o.params.to_string(),
                o.variant.to_string(),
                o.metric.to_string(),
            )
        };
        let mut seen: std::collections::HashMap<Key, u32> = Default::default();
        let mut keys: std::collections::HashMap<Key, u32> = Default::default();
        let series = data.columns.series_count();
        proptest::prop_assert_eq!(runs.key_of.len(), series + data.rows.len());
        let units = data
            .columns
            .series()
            .map(|s| s.rows().map(|r| r.to_observation()).collect::<Vec<_>>())
            .chain(data.rows.iter().map(|o| vec![o.clone()]));
        for (unit, k) in units.zip(&runs.key_of) {
            for o in unit {
                if o.stat.is_sample() {
                    let n = seen.entry(key(&o)).or_insert(0);
                    proptest::prop_assert_eq!(o.run, Some(*n));
                    let index = keys.entry(key(&o)).or_insert(*k);
                    proptest::prop_assert_eq!(*index, *k);
                    *n += 1;
                } else {
                    proptest::prop_assert_eq!(*k, u32::MAX);
                }
            }
        }
        let total: u32 = runs.counts.iter().sum();
        proptest::prop_assert_eq!(total as usize, seen.values().sum::<u32>() as usize);
        proptest::prop_assert_eq!(runs.counts.len(), seen.len());
        proptest::prop_assert_eq!(runs.digests.len(), seen.len());
        for ((b, p, v, m), &i) in &keys {
            proptest::prop_assert_eq!(runs.digests[i as usize], digest([b, p, v, m]));
        }
    }
}

#[test]
fn streaming_gives_the_rows_of_ingest_in_input_order_with_runs_across_files() {
    let dir = tempfile::tempdir().unwrap();
    let paths = hackbench_inputs(dir.path(), 4 * rayon::current_num_threads() + 3);
    let registry = Registry::builtin();
    let opts = IngestOptions {
        default_variant: Some("base".into()),
        ..Default::default()
    };
    let whole = ingest(&[dir.path().to_path_buf()], &registry, &opts).unwrap();
    let mut streamed = Vec::new();
    let mut batches = 0;
    let mut progresses = Vec::new();
    // Windows of one input per thread: many windows, each overlapping
    // the next one's reading.
    let files = stream(
        &[dir.path().to_path_buf()],
        &registry,
        &opts,
        1,
        Ok,
        |obs, progress| {
            batches += 1;
            streamed.extend(obs.into_observations());
            progresses.push(progress);
            Ok(())
        },
    )
    .unwrap();
    // Each batch knows how far the inputs are read up to its own,
    // the last all of them.
    let total: u64 = paths
        .iter()
        .map(|p| std::fs::metadata(p).unwrap().len())
        .sum();
    assert!(progresses.windows(2).all(|w| w[0].done <= w[1].done));
    assert!(progresses.iter().all(|p| p.total == total && p.done > 0));
    assert_eq!(progresses.last().map(|p| p.done), Some(total));
    // Small inputs' rows travel together, a window (an input per reader
    // the budget affords) at a time.
    let readers = super::budget::readers(rayon::current_num_threads(), total);
    assert_eq!(batches, paths.len().div_ceil(readers), "{batches}");
    assert_eq!(files, whole.files);
    assert_eq!(streamed, whole.dataset.to_observations());
    let runs: Vec<Option<u32>> = streamed.iter().map(|o| o.run).collect();
    let expected: Vec<Option<u32>> = (0..2 * paths.len() as u32).map(Some).collect();
    assert_eq!(runs, expected, "runs count on across files in input order");
    assert!(streamed.iter().all(|o| o.variant == "base"));
    assert_eq!(streamed[1].source, paths[0].display().to_string());
    assert_eq!(streamed[2].source, paths[1].display().to_string());
    assert!((streamed[2].value - 2.001).abs() < 1e-12);
}

#[test]
fn names_that_would_run_together_without_their_lengths_have_their_own_digests() {
    let key = |a: &'static str, b: &'static str| [a, b, "", "m"];
    assert_ne!(digest(key("ab", "c")), digest(key("a", "bc")));
    assert_eq!(digest(key("ab", "c")), digest(key("ab", "c")));
}

#[test]
fn rows_expected_scale_the_rows_so_far_by_the_bytes_left() {
    let p = |done, total| Progress { done, total };
    assert_eq!(p(25, 100).rows_expected(1000), 4000);
    assert_eq!(p(30, 100).rows_expected(1000), 3334);
    // Nothing read yet, or everything: only the rows at hand.
    assert_eq!(p(0, 100).rows_expected(7), 7);
    assert_eq!(p(100, 100).rows_expected(7), 7);
    assert_eq!(p(0, 0).rows_expected(0), 0);
}

#[test]
fn windows_hold_a_few_large_files_or_many_small_ones() {
    let mb = 1u64 << 20;
    let files = |sizes: &[u64]| -> Vec<Input> {
        sizes
            .iter()
            .map(|&s| Input::File(PathBuf::from("f"), s))
            .collect()
    };
    let lens = |inputs: &[Input], threads| -> Vec<usize> {
        windows(inputs, threads, WINDOW_BYTES_PER_THREAD)
            .iter()
            .map(|w| w.len())
            .collect()
    };
    // Large files: one per thread at a time.
    assert_eq!(lens(&files(&[14 * mb; 5]), 2), vec![2, 2, 1]);
    // 1 MiB files: four per thread's budget.
    assert_eq!(lens(&files(&[mb; 20]), 2), vec![8, 8, 4]);
    // Tiny files all go together.
    assert_eq!(lens(&files(&[100; 1000]), 2), vec![1000]);
    // A folder's parts go 64 per thread, beside small files.
    let dir = Arc::new(DirInput {
        path: PathBuf::from("d"),
        format: "criterion-dir".into(),
    });
    let mut mixed = files(&[100, 100, 100]);
    mixed.splice(
        1..1,
        (0..300).map(|i| Input::Part {
            dir: dir.clone(),
            part: PathBuf::from(format!("d/{i}")),
            first: i == 0,
        }),
    );
    // The first window: a small file and 128 parts.
    assert_eq!(lens(&mixed, 2), vec![129, 128, 46]);
    assert!(windows(&[], 2, WINDOW_BYTES_PER_THREAD).is_empty());
}

#[test]
fn large_files_are_detected_from_their_first_mebibyte() {
    let registry = Registry::builtin();
    let run =
        "Running in process mode with 10 groups using 40 file descriptors each (== 400 tasks)\n\
               Each sender will pass 100 messages of 100 bytes\nTime: 1.5\n";
    let noise = |lines: usize| "a line of prose that no reader takes\n".repeat(lines);
    // Telling lines after the first probe but within the first MiB.
    let src = Source::from_text("late.txt", &format!("{}{}", noise(5000), run.repeat(2000)));
    assert_eq!(
        detect::detect(&registry, &src).map(|f| f.name()),
        Some("hackbench")
    );
    // Telling lines only after the first MiB: not looked at.
    let src = Source::from_text("later.txt", &format!("{}{}", noise(40_000), run));
    assert!(src.raw.len() > WIDE_PROBE_BYTES);
    assert!(detect::detect(&registry, &src).is_none());
    // Certain from the first lines: the first probe decides.
    let src = Source::from_text("early.txt", &format!("{}{}", run.repeat(10), noise(40_000)));
    assert_eq!(
        detect::detect(&registry, &src).map(|f| f.name()),
        Some("hackbench")
    );
}

#[test]
fn a_sink_error_stops_the_ingest() {
    let dir = tempfile::tempdir().unwrap();
    hackbench_inputs(dir.path(), 9);
    let mut seen = 0;
    let err = stream(
        &[dir.path().to_path_buf()],
        &Registry::builtin(),
        &IngestOptions::default(),
        1,
        Ok,
        |_, _| {
            seen += 1;
            if seen == 2 {
                Err(Error::Other("disk full".into()))
            } else {
                Ok(())
            }
        },
    )
    .unwrap_err();
    assert!(err.to_string().contains("disk full"), "{err}");
    assert_eq!(seen, 2);
}

#[test]
fn a_malformed_run_late_in_a_tree_is_the_error_after_earlier_runs_went_out() {
    let dir = tempfile::tempdir().unwrap();
    let from = Path::new("tests/data/corpus/criterion_tree-patched-1/criterion/sum_100k");
    let root = dir.path().join("criterion");
    for b in 0..40 {
        for variant in ["base", "new"] {
            let to = root.join(format!("b{b:02}")).join(variant);
            std::fs::create_dir_all(&to).unwrap();
            for f in ["benchmark.json", "estimates.json", "sample.json"] {
                std::fs::copy(from.join(variant).join(f), to.join(f)).unwrap();
            }
        }
    }
    let bad = root.join("b37/new/sample.json");
    std::fs::write(&bad, r#"{"iters":[1.0],"times":[2.0"#).unwrap();
    let mut sunk = 0;
    // One run per thread per window: the bad run is in window 37.
    let err = stream(
        &[root],
        &Registry::builtin(),
        &IngestOptions::default(),
        DIR_PART_BYTES,
        Ok,
        |obs, _| {
            sunk += obs.len();
            Ok(())
        },
    )
    .unwrap_err();
    let want = format!("{}:1: malformed Criterion sample.json", bad.display());
    assert!(err.to_string().starts_with(&want), "{err}");
    // The runs before it were handed on (a tree is not held whole), not
    // the ones after it.
    assert!(sunk < 75 * 106, "{sunk}");
    if rayon::current_num_threads() < 30 {
        assert!(sunk >= 105 * 20, "{sunk}");
    }
}

#[test]
fn a_criterion_tree_streams_run_by_run_with_one_report() {
    let tree = PathBuf::from("tests/data/corpus/criterion_tree-patched-1");
    let hackbench = PathBuf::from("tests/data/corpus/hackbench-baseline-1.txt");
    let registry = Registry::builtin();
    let whole = registry
        .get("criterion-dir")
        .unwrap()
        .parse_dir(&tree)
        .unwrap();
    assert_eq!(whole.len(), 844);
    let mut streamed = Vec::new();
    let mut batches = Vec::new();
    // The tree twice around a file, one part per thread per window.
    let files = stream(
        &[tree.clone(), hackbench.clone(), tree.clone()],
        &registry,
        &IngestOptions::default(),
        DIR_PART_BYTES,
        Ok,
        |obs, _| {
            batches.push(obs.len());
            streamed.extend(obs.into_observations());
            Ok(())
        },
    )
    .unwrap();
    let summary: Vec<(&str, Option<&str>, usize)> = files
        .iter()
        .map(|f| (f.path.as_str(), f.format.as_deref(), f.rows))
        .collect();
    let tree_report = (tree.to_str().unwrap(), Some("criterion-dir"), 844);
    assert_eq!(summary[0], tree_report);
    assert_eq!(summary[1].1, Some("hackbench"));
    assert_eq!(summary[2], tree_report);
    assert_eq!(files.len(), 3);
    let n = summary[1].2;
    // 8 saved runs of at most 211 rows per tree: a window holds one
    // per thread (and the file), never a whole tree.
    let threads = rayon::current_num_threads();
    assert!(batches.len() >= 16usize.div_ceil(threads), "{batches:?}");
    assert!(
        batches.iter().all(|&b| b <= threads * 211 + n),
        "{batches:?}"
    );
    assert_eq!(streamed[..844], whole[..]);
    // The second reading of the tree numbers its samples on from the
    // first's: 100 per run key.
    let again = &streamed[844 + n..];
    assert_eq!(again.len(), 844);
    for (a, w) in again.iter().zip(&whole) {
        assert_eq!(a.run, w.run.map(|r| r + 100), "{a:?}");
        assert_eq!(
            (a.value, &a.benchmark, a.stat),
            (w.value, &w.benchmark, w.stat)
        );
    }
}

/// Every JSON file of the corpus, and JSON no format claims, is read with
/// its lines made only where a reader or the account needs them: the rows
/// and the report are those of the same text with `\r\n` line ends, whose
/// lines are always made (the line ends are stripped from them, and are
/// whitespace to JSON).
#[test]
fn json_read_without_its_lines_gives_the_rows_and_report_of_lines_made() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus");
    let mut docs: Vec<(String, String)> = std::fs::read_dir(&corpus)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    assert!(docs.len() > 20);
    // Values on lines of their own that no structured format reads, and
    // prose (the document reader joins a structured format on it).
    docs.push((
        "loose.json".into(),
        "{\"note\": \"x\",\n \"elapsed\": 12.5,\n \"rate\": 3.25\n}\n".into(),
    ));
    docs.push((
        "prose.json".into(),
        "{\"results\": [{\"command\": \"sleep 1\", \"mean\": 1.0, \"times\": [1.0, 1.1]}],\n\
         \"note\": \"we ran this on the quiet machine and the mean went down by a lot after the patch\",\n\
         \"more\": \"and the second run of the same command shows the same change in the mean again\"}\n"
            .into(),
    ));
    let registry = Registry::builtin();
    let opts = IngestOptions::default();
    let (lf, crlf) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    for (name, text) in docs {
        let text = text.replace("\r\n", "\n");
        let (a, b) = (lf.path().join(&name), crlf.path().join(&name));
        std::fs::write(&a, &text).unwrap();
        std::fs::write(&b, text.replace('\n', "\r\n")).unwrap();
        let read = |p: &Path| match ingest(&[p.to_path_buf()], &registry, &opts) {
            Ok(mut got) => {
                got.dataset
                    .heads_mut()
                    .for_each(|h| h.source = SmolStr::default());
                for f in &mut got.files {
                    f.path.clear();
                }
                Ok((got.dataset.to_observations(), got.files))
            }
            Err(e) => Err(e.to_string().replace(&p.display().to_string(), "")),
        };
        assert_eq!(read(&a), read(&b), "{name}");
    }
}

/// A mail whose quoted harness lines make detection certain of a tool
/// whose importer refuses them (a torture run's outcome, no statistics):
/// the mail's own tables are read as a document and the report names the
/// refusal; the same lines without the mail's paragraphs stay refused.
#[test]
fn a_mail_refused_by_its_quoted_harness_is_read_as_a_document_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let outcome = "[12107.328368] spin_lock-torture:--- End of test: SUCCESS: acq_writer_lim=0 \
                   nreaders_stress=0 nwriters_stress=128 onoff_holdoff=0\n";
    let mail = format!(
        "A reply in a review thread that quotes a tester's small table of request rates, one \
         column per lock kind, before it answers with a torture run of its own.\n\
         The run below finished, and the reply reads no gap between the two lock kinds in \
         it, which it explains by the cost of the extra atomic operations.\n\n\
         > vzalloced shmem with     spinlock_t      rwlock_t      rwlock_t(with above change)\n\
         > Requests/sec              564961.29     442534.33     439733.31\n\n{outcome}"
    );
    let path = dir.path().join("mail.txt");
    std::fs::write(&path, mail).unwrap();
    let registry = Registry::builtin();
    let got = ingest(&[path], &registry, &IngestOptions::default()).unwrap();
    let values: Vec<f64> = got
        .dataset
        .to_observations()
        .iter()
        .map(|o| o.value)
        .collect();
    assert_eq!(values, [564961.29, 442534.33, 439733.31]);
    let report = &got.files[0];
    assert_eq!(report.format.as_deref(), Some("document"));
    let note = report.note.as_deref().unwrap_or("");
    assert!(
        note.starts_with("the torture importer refused this file (")
            && note.contains("`SUCCESS`")
            && note.contains("read as a document"),
        "{note}"
    );
    // A log of the tool's lines alone is no mail: its refusal stands.
    let log = dir.path().join("log.txt");
    std::fs::write(
        &log,
        format!("[ 9.5] spin_lock-torture:--- Start of test: nwriters_stress=4\n{outcome}"),
    )
    .unwrap();
    let err = ingest(&[log], &registry, &IngestOptions::default())
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(err.contains("does not measure"), "{err}");
}

/// A table of one row whose header names a column of error counts is a
/// reading, not a failed run's banner; an error line beside one value
/// still is one.
#[test]
fn a_header_naming_errors_over_one_row_is_no_failed_run() {
    // nvidia-smi --query-gpu CSV (VirtualClient's monitor example, cut to
    // its first and last columns).
    let text = "timestamp, index, name, power.draw.average [W], memory.used [MiB], \
                ecc.errors.corrected.volatile.total\n\
                2024/03/15 13:57:59.791, 0, NVIDIA H100 80GB HBM3, 70.89, 3, 20\n";
    let src = Source::from_text("query-gpu.csv", text);
    let (rows, _) = super::read::read_generically(&Registry::builtin(), &src)
        .unwrap()
        .expect("the table is read");
    let power = rows
        .into_observations()
        .into_iter()
        .find(|o| o.metric == "power.draw.average")
        .expect("a power row");
    assert_eq!((power.value, power.unit.as_str()), (70.89, "W"));
    let src = Source::from_text("log.txt", "SomeBench 2.3\nerror: connection refused\n");
    assert!(super::read::read_generically(&Registry::builtin(), &src)
        .unwrap()
        .is_none());
}
