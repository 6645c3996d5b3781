//! Tests of `dir`.

use super::*;
use crate::ingest::formats::criterion::samples::Sample;

fn samples(text: &str) -> Result<(Vec<f64>, Vec<f64>)> {
    read_samples(&Source::from_text("sample.json", text)).map(|s| (s.iters, s.times))
}

#[test]
fn files_are_read_whole_whatever_their_size() {
    let dir = tempfile::tempdir().unwrap();
    for size in [
        0,
        1,
        722,
        SCRATCH_LEN - 1,
        SCRATCH_LEN,
        SCRATCH_LEN + 1,
        3 * SCRATCH_LEN + 7,
    ] {
        let path = dir.path().join(format!("f{size}.json"));
        let bytes: Vec<u8> = (0..size).map(|i| (i * 7 % 251) as u8).collect();
        std::fs::write(&path, &bytes).unwrap();
        let read = read_if_file(&path).unwrap().expect("a regular file");
        assert_eq!(read.bytes, bytes, "size {size}");
        assert_eq!(read.path, path);
    }
    // A folder and a missing file are no file; neither is a folder
    // read after a large file filled the buffer.
    assert!(read_if_file(dir.path()).unwrap().is_none());
    assert!(read_if_file(&dir.path().join("absent.json"))
        .unwrap()
        .is_none());
    let small = dir.path().join("f1.json");
    assert_eq!(read_if_file(&small).unwrap().unwrap().bytes, vec![0u8]);
}

/// The bits serde_json gives for `text` and the plain scan gives, when
/// the scan takes it.
fn plain_agrees(text: &str) -> bool {
    let Some(plain) = samples_plain(text) else {
        return false;
    };
    let direct = samples_direct(text).unwrap();
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&plain.iters), bits(&direct.iters), "{text}");
    assert_eq!(bits(&plain.times), bits(&direct.times), "{text}");
    true
}

fn doc(iters: &str, times: &str) -> String {
    format!(r#"{{"sampling_mode":"Linear","iters":[{iters}],"times":[{times}]}}"#)
}

#[test]
fn plain_samples_are_the_bits_serde_gives() {
    // Every Criterion sample file among the test data.
    let mut seen = 0;
    let mut dirs = vec![std::path::PathBuf::from("tests/data")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.file_name().is_some_and(|n| n == "sample.json") {
                let text = std::fs::read_to_string(&p).unwrap();
                if text.starts_with(r#"{"sampling_mode""#) {
                    assert!(plain_agrees(&text), "{}", p.display());
                    seen += 1;
                }
            }
        }
    }
    assert!(seen >= 4, "{seen} sample files");
    // Decimals of every length the scan takes, and around its limits.
    let mut state = 7u64;
    let mut numbers: Vec<String> = (0..20_000)
        .map(|i| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let m = (state >> 11) >> (i % 53);
            let k = (state % 9) as usize;
            let digits = m.to_string();
            if k == 0 || k >= digits.len() {
                digits
            } else {
                format!(
                    "{}.{}",
                    &digits[..digits.len() - k],
                    &digits[digits.len() - k..]
                )
            }
        })
        .collect();
    numbers.extend(
        [
            "0",
            "0.5",
            "4.0",
            "4171.1",
            "9007199254740991",
            "900719925474099.1",
            "0.0000000000000000000001",
            "1.000000000000000",
        ]
        .map(String::from),
    );
    for chunk in numbers.chunks(100) {
        let list = chunk.join(",");
        assert!(plain_agrees(&doc(&list, &list)), "{list}");
    }
    assert!(plain_agrees(&doc("", "")));
    assert!(plain_agrees(&(doc("1", "2") + "\n")));
    // Left to serde_json: beyond 2^53, 23 fraction digits, other
    // number forms, spaces, other layouts, escapes.
    for (iters, times) in [
        ("9007199254740992", "1"),
        ("1", "0.00000000000000000000001"),
        ("05", "1"),
        ("1.", "1"),
        ("1e3", "1"),
        ("-1", "1"),
        ("1, 2", "1"),
        ("1", "2 "),
    ] {
        assert!(
            samples_plain(&doc(iters, times)).is_none(),
            "{iters} {times}"
        );
    }
    for text in [
        r#"{"iters":[1],"times":[2]}"#,
        r#"{"sampling_mode":"Lin\"ear","iters":[1],"times":[2]}"#,
        r#"{"sampling_mode":"Linear","times":[2],"iters":[1]}"#,
        r#"{"sampling_mode":"Linear","iters":[1],"times":[2],"x":1}"#,
        r#"{ "sampling_mode":"Linear","iters":[1],"times":[2]}"#,
        "[[1],[2]]",
    ] {
        assert!(samples_plain(text).is_none(), "{text}");
    }
}

#[test]
fn both_sample_forms_are_read_directly() {
    for text in [
        r#"{"sampling_mode":"Linear","iters":[1.0,2],"times":[10.5,2.1e1]}"#,
        "[[4.0,8.0],[40.0,88.0]]",
    ] {
        let direct = samples_direct(text).unwrap();
        let derived = match serde_json::from_str::<Sample>(text).unwrap() {
            Sample::Current { iters, times } => (iters, times),
            Sample::Old(pair) => pair,
        };
        assert_eq!((direct.iters, direct.times), derived);
    }
    for bad in [
        r#"{"iters":[1],"times":[2],"times":[3]}"#,
        "[[1],[2],[3]]",
        "[[1]]",
    ] {
        assert!(samples_direct(bad).is_err(), "{bad}");
    }
    let current = r#"{"sampling_mode":"Linear","iters":[1.0,2],"times":[10.5,21.0]}"#;
    assert_eq!(
        samples(current).unwrap(),
        (vec![1.0, 2.0], vec![10.5, 21.0])
    );
    let old = "[[4.0,8.0],[40.0,88.0]]";
    assert_eq!(samples(old).unwrap(), (vec![4.0, 8.0], vec![40.0, 88.0]));
}

#[test]
fn malformed_samples_are_reported_as_the_derived_reader_would() {
    for bad in [
        r#"{"iters":[1.0]}"#,
        r#"{"iters":[1.0],"times":[2.0],"iters":[3.0]}"#,
        "[[1.0],[2.0],[3.0]]",
        r#"{"iters":[1.0],"times":["x"]}"#,
        r#"{"iters":[1.0],"times":[2.0"#,
    ] {
        let e = samples(bad).unwrap_err().to_string();
        let src = Source::from_text("sample.json", bad);
        let derived = parse_json::<Sample>(&src, "Criterion sample.json")
            .err()
            .expect("the derived reader refuses it too")
            .to_string();
        assert_eq!(e, derived);
        assert!(
            e.starts_with("sample.json:1: malformed Criterion sample.json"),
            "{e}"
        );
    }
}
