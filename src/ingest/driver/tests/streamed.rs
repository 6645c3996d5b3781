//! Large JSON documents read from disk ([`super::super::streamed`]).

use super::super::account::Account;
use super::super::read::read_one;
use super::super::streamed::{read_streamed, STREAM_BYTES};
use super::*;

/// The report an account gives, whatever part it is.
fn report(account: Account) -> FileReport {
    match account {
        Account::Report(r) | Account::More(r) => r,
    }
}

/// Every hyperfine export of the corpus and the harness tests, read from
/// disk as a large one is: the rows and the report of the file read
/// whole, under `ingest` as under `--format`.
#[test]
fn a_document_read_from_disk_gives_the_rows_and_report_of_the_whole_text() {
    let root = env!("CARGO_MANIFEST_DIR");
    let files: Vec<PathBuf> = [
        "tests/data/corpus/hyperfine*.json",
        "tests/data/harness/hyperfine/*.json",
    ]
    .iter()
    .flat_map(|g| glob::glob(&format!("{root}/{g}")).unwrap().flatten())
    .collect();
    assert!(files.len() >= 12);
    let registry = Registry::builtin();
    let forced = IngestOptions {
        format: Some("hyperfine-json".into()),
        ..Default::default()
    };
    for opts in [IngestOptions::default(), forced] {
        for f in &files {
            let size = std::fs::metadata(f).unwrap().len();
            let (rows, account) = read_streamed(f, size, 0, &registry, &opts)
                .unwrap()
                .expect("read from disk");
            let (whole_rows, whole_account) =
                read_one(&Input::File(f.clone(), size), &registry, &opts).unwrap();
            assert_eq!(rows, whole_rows, "{f:?}");
            assert_eq!(report(account), report(whole_account), "{f:?}");
        }
    }
    // Small files, and files of other formats, are read whole.
    let f = &files[0];
    let size = std::fs::metadata(f).unwrap().len();
    let opts = IngestOptions::default();
    assert!(read_streamed(f, size, STREAM_BYTES, &registry, &opts)
        .unwrap()
        .is_none());
    let csv = PathBuf::from(format!("{root}/tests/data/corpus/hyperfine-baseline-1.csv"));
    assert!(read_streamed(&csv, 1, 0, &registry, &opts)
        .unwrap()
        .is_none());
}

/// A pretty-printed export larger than [`STREAM_BYTES`] with a sample
/// that is no number on one line deep inside: `ingest` names that line,
/// as it does for the document read whole.
#[test]
fn an_error_in_the_middle_of_a_large_document_names_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.json");
    let samples = (STREAM_BYTES / 16) as usize;
    let bad = samples / 2;
    let mut text = String::from(
        "{\n  \"results\": [\n    {\n      \"command\": \"sleep\",\n      \"mean\": 0.1,\n      \"times\": [\n",
    );
    for i in 0..samples {
        let sep = if i + 1 < samples { "," } else { "" };
        let v = if i == bad { "0.1x" } else { "0.100000" };
        text.push_str(&format!("        {v}{sep}\n"));
    }
    text.push_str("      ]\n    }\n  ]\n}\n");
    std::fs::write(&path, &text).unwrap();
    assert!(text.len() as u64 > STREAM_BYTES);
    // Lines 1-6 open the document; the samples follow, one a line.
    let line = 7 + bad as u32;
    let err = ingest(
        std::slice::from_ref(&path),
        &Registry::builtin(),
        &IngestOptions::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("big.json"), "{err}");
    assert!(err.contains(&format!("line {line},")), "{err}");
    // Mended, the same file is read from disk, every sample of it.
    std::fs::write(&path, text.replace("0.1x", "0.125")).unwrap();
    let read = ingest(&[path], &Registry::builtin(), &IngestOptions::default()).unwrap();
    assert_eq!(read.files[0].format.as_deref(), Some("hyperfine-json"));
    let values: Vec<f64> = read.dataset.rows().map(|r| r.value).collect();
    assert_eq!(values.len(), samples + 2);
    assert_eq!(values[bad], 0.125);
}
