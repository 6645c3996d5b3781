//! Tests of `stream`: the cursor over a file gives what the cursor over
//! the whole text gives, wherever the windows cut the document.

use super::*;
use crate::ingest::Trickle;

/// Every token kind, read through `JsonCursor`: a list of what was read.
fn walk(c: &mut impl JsonCursor) -> Fast<Vec<String>> {
    let mut seen = Vec::new();
    c.object(|c, key| {
        seen.push(format!("key {key}"));
        match key {
            "nums" => {
                let mut v = Vec::new();
                c.numbers(&mut v)?;
                seen.push(format!(
                    "{:?}",
                    v.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
                ));
            }
            "codes" => c.array(|c| {
                let skipped = c.skip_copies(b"0,0,0,0,");
                let v = if c.null() { None } else { Some(c.integer()?) };
                seen.push(format!("skip {skipped} {v:?}"));
                Ok(())
            })?,
            "s" => seen.push(c.string()?.into_owned()),
            "n" => seen.push(format!("{}", c.number()?.to_bits())),
            _ => seen.push(c.value_text()?.to_string()),
        }
        Ok(())
    })?;
    c.end()?;
    Ok(seen)
}

fn streamed(doc: &[u8], step: usize, chunk: usize) -> Fast<Vec<String>> {
    let mut c =
        StreamCursor::with_chunk(Trickle { bytes: doc, step }, Some(doc.len() as u64), chunk);
    let got = walk(&mut c);
    assert!(got.is_err() || c.intact());
    got
}

/// Documents with every token the readers use (escapes, exponents, long
/// mantissas, whitespace runs, skipped values, runs of exit codes), read
/// with windows cut at every byte: the same readings as the whole text,
/// and the same refusals.
#[test]
fn windows_cut_anywhere_read_as_the_whole_text() {
    let docs = [
        r#"{"nums":[0.100589308,1e3,-2.5e+10,17.454963770044344,123456789012345678901234,0],"s":"a\"b\u0063","n":-0.0,"x":{"y":[1,{"z":null}],"w":"]"},"codes":[0,0,0,0,0,0,0,0,0,1,null,0,0,0,0,137]}"#,
        "\u{feff}{ \"nums\" : [ 1.5 ,\n        2.25,\n        3 ] , \"s\" : \"é ü\" , \"t\" : true }\n",
        r#"{"nums":[],"codes":[],"n":3.141592653589793238462643}"#,
        r#"{"nums":[1,2,],"n":1}"#,
        r#"{"nums":[1,2],"n":1} x"#,
        r#"{"codes":[0,0,0,0,-0]}"#,
        r#"{"s":"abc"#,
        r#"{"n":1.}"#,
        r#"{"x":[[[[1]]]],"n":01}"#,
    ];
    for doc in docs {
        let whole = walk(&mut Cursor::new(doc.trim_start_matches('\u{feff}')));
        for (step, chunk) in [(1, 1), (1, 7), (3, 64), (1 << 20, 1 << 20)] {
            let got = streamed(doc.as_bytes(), step, chunk);
            match (&whole, &got) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{doc} step {step}"),
                (Err(Bail), Err(Bail)) => {}
                _ => panic!("{doc} step {step}: {whole:?} vs {got:?}"),
            }
        }
    }
}

/// A document the whole-text reading would decode as Latin-1 or refuse
/// (a byte that is not UTF-8, a NUL, a character cut by the file's end)
/// is given up on, even where the bad byte lies after the document.
#[test]
fn text_that_is_not_utf8_is_given_up_on() {
    let mut latin1 = br#"{"s":"caf"#.to_vec();
    latin1.extend([0xe9, b'"', b'}']);
    let mut trailing_nul = br#"{"n":1}"#.to_vec();
    trailing_nul.extend([b'\n', 0]);
    let mut cut = br#"{"n":1} "#.to_vec();
    cut.extend([0xc3]);
    for doc in [latin1, trailing_nul, cut] {
        for step in [1, 5, 1 << 20] {
            assert!(streamed(&doc, step, 4).is_err(), "{doc:?}");
        }
    }
}

/// An array of numbers is sized from what is left of the document, once:
/// never grown while it is read.
#[test]
fn numbers_are_sized_once_from_the_document_left() {
    let doc: String = format!(
        "[{}]",
        (0..10_000)
            .map(|i| format!("0.{:06}", i * 37 % 1_000_000))
            .collect::<Vec<_>>()
            .join(",")
    );
    let mut c = StreamCursor::with_chunk(doc.as_bytes(), Some(doc.len() as u64), 4096);
    let mut v = Vec::new();
    c.numbers(&mut v).unwrap();
    assert_eq!(v.len(), 10_000);
    assert!(v.capacity() >= 10_000 && v.capacity() <= 10_000 + 1 + ROOM_AFTER_SAMPLES + 2);
}
