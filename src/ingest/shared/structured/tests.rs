//! Tests of `structured`.

use super::*;

#[test]
fn csv_quotes_and_separators() {
    assert_eq!(
        split_csv(r#""a,b",1,"say ""hi""""#, ','),
        vec!["a,b", "1", r#"say "hi""#]
    );
    assert_eq!(split_csv("x\ty\t", '\t'), vec!["x", "y", ""]);
}

/// Every number the fast reader converts is bit for bit serde_json's.
#[test]
fn cursor_numbers_are_serde_json_numbers() {
    let mut texts: Vec<String> = [
        "0",
        "-0",
        "0.0",
        "-0.0",
        "1",
        "-1",
        "0.1",
        "0.100589308",
        "17.454963770044344",
        "9007199254740993",
        "9007199254740992.5",
        "123456789012345678901234",
        "1e3",
        "1E-7",
        "-2.5e+10",
        "0.0000000000000000000001",
        "4.0",
        "413033.5",
        "1797693134862315708145274237317043567981",
        "3.141592653589793238462643",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // A deterministic spread of decimals of every length.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let digits = (x % 19 + 1) as usize;
        let frac = (x >> 8) as usize % (digits + 1);
        let n = format!("{:019}", x % 10_000_000_000_000_000_000);
        let body = &n[19 - digits..];
        let body = body.trim_start_matches('0');
        let body = if body.is_empty() { "0" } else { body };
        let t = if frac == 0 || frac >= body.len() {
            body.to_string()
        } else {
            format!(
                "{}.{}",
                &body[..body.len() - frac],
                &body[body.len() - frac..]
            )
        };
        texts.push(if x & 1 == 1 { format!("-{t}") } else { t });
    }
    for t in &texts {
        let want: f64 = serde_json::from_str(t).unwrap();
        let doc = format!("[{t}]");
        let mut v = Vec::new();
        Cursor::new(&doc).numbers(&mut v).unwrap();
        assert_eq!(v[0].to_bits(), want.to_bits(), "{t}");
    }
}

/// What serde_json refuses, the fast reader refuses too.
#[test]
fn cursor_refuses_what_serde_refuses() {
    for bad in [
        "[01]", "[1.]", "[-]", "[1,]", "[1 2]", "[.5]", "[1e]", "[\"a\"]", "[nul]", "[1", "[+1]",
        "[1.5.3]", "[1e999]",
    ] {
        assert!(serde_json::from_str::<Vec<f64>>(bad).is_err(), "{bad}");
        let mut v = Vec::new();
        let mut c = Cursor::new(bad);
        let r = c.numbers(&mut v).and_then(|()| c.end());
        assert!(r.is_err(), "{bad}");
    }
    let mut c = Cursor::new(r#"{"a\u0062": [1, {"x": "y\"z"}], "n": -0, "s": "q"}"#);
    let mut seen = Vec::new();
    c.object(|c, k| {
        seen.push((k.to_string(), c.value_text()?.to_string()));
        Ok(())
    })
    .unwrap();
    assert_eq!(
        seen[0],
        ("ab".to_string(), r#"[1, {"x": "y\"z"}]"#.to_string())
    );
    assert_eq!(seen[1].1, "-0");
    assert_eq!(seen[2].1, "\"q\"");
    assert!(Cursor::new("[-0]")
        .array(|c| c.integer().map(|_| ()))
        .is_err());
}

/// `digit_run` counts the leading ASCII digits of any eight bytes and
/// reads their value.
#[test]
fn digit_runs_are_the_leading_digits() {
    let check = |bytes: [u8; 8]| {
        let n = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
        let want = bytes[..n]
            .iter()
            .fold(0u64, |v, d| v * 10 + u64::from(d - b'0'));
        assert_eq!(digit_run(u64::from_le_bytes(bytes)), (n, want), "{bytes:?}");
    };
    check(*b"12345678");
    check(*b"09197044");
    check(*b",\n      ");
    check(*b"8,0.0963");
    check([b'1', b'2', 0xFF, b'3', 0x8A, b'/', b':', 0]);
    proptest::proptest!(|(bytes in proptest::prelude::any::<[u8; 8]>())| check(bytes));
    // Digits and their neighbours ('/' and ':') in every position.
    proptest::proptest!(|(bytes in proptest::array::uniform8(b'/'..=b':'))| check(bytes));
}

/// The read of a number a word at a time gives what the reading a
/// digit at a time gives (value bits, end, or giving up), for numbers
/// of every shape followed by every kind of text.
#[test]
fn fast_numbers_are_the_general_reading() {
    let check = |text: &str| {
        let mut fast = Cursor::new(text);
        let mut general = Cursor::new(text);
        general.peek();
        match (fast.number(), general.any_number()) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.to_bits(), b.to_bits(), "{text}");
                assert_eq!(fast.pos, general.pos, "{text}");
            }
            (Err(Bail), Err(Bail)) => {}
            (a, b) => panic!("{text}: {a:?} against {b:?}"),
        }
    };
    proptest::proptest!(|(
        minus in proptest::prelude::any::<bool>(),
        int in "[0-9]{0,9}",
        frac in proptest::option::of("[0-9]{0,20}"),
        exp in proptest::option::of("[eE][+-]?[0-9]{0,3}"),
        after in "[],. x0-9eE\n]{0,20}",
    )| {
        let frac = frac.map(|f| format!(".{f}")).unwrap_or_default();
        let sign = if minus { "-" } else { "" };
        check(&format!("{sign}{int}{frac}{}{after}", exp.unwrap_or_default()));
    });
}

/// Samples as exports write them take the word-at-a-time path (the
/// speed of a million-sample file depends on it).
#[test]
fn samples_take_the_fast_path() {
    let b = b"0.100589308,0.096359518,0.099131920]";
    assert_eq!(plain_decimal(b, 0), Some((11, 0.100589308)));
    let b = b"0.09471128368,\n        0.09237347268\n      ],";
    assert_eq!(plain_decimal(b, 0), Some((13, 0.09471128368)));
    assert_eq!(
        plain_decimal(b"-413033.5, 1, 2, 3", 0),
        Some((9, -413033.5))
    );
    assert_eq!(plain_decimal(b"17, 1, 2, 3, 4", 0), Some((2, 17.0)));
    assert_eq!(plain_decimal(b"123456789, 1, 2", 0), Some((9, 123456789.0)));
    // Exponents, over 19 digits, a fraction at the end of the text: the
    // general path.
    assert_eq!(plain_decimal(b"1.5e-3, 1, 2, 3", 0), None);
    assert_eq!(plain_decimal(b"12345678901234567890, 1", 0), None);
    assert_eq!(plain_decimal(b"0.5]", 0), None);
}

#[test]
fn json_errors_carry_the_position() {
    let src = Source::from_text("r.json", "{\n  \"a\": [1,\n");
    let e = parse_json::<serde_json::Value>(&src, "test JSON").unwrap_err();
    let s = e.to_string();
    assert!(s.starts_with("r.json:3: malformed test JSON"), "{s}");
    assert!(s.contains("column"), "{s}");
}

proptest::proptest! {
    /// A line without quotes splits as `split_csv` splits it, empty and
    /// non-ASCII cells included; a line with one is left to it.
    #[test]
    fn unquoted_split_is_split_csv(
        parts in proptest::collection::vec(
            proptest::sample::select(vec![",", "\t", "a", " ", "µ", "1.5", "\""]),
            0..16,
        ),
        tab in proptest::bool::ANY,
    ) {
        let line = parts.concat();
        let sep = if tab { '\t' } else { ',' };
        let mut cells = Vec::new();
        if split_unquoted(&line, sep, &mut cells) {
            proptest::prop_assert!(!line.contains('"'));
            proptest::prop_assert_eq!(cells, split_csv(&line, sep));
        } else {
            proptest::prop_assert!(line.contains('"'));
        }
    }
}

proptest::proptest! {
    /// The numbered lines are `split('\n')`'s, numbered from `first`,
    /// CR removed and blank ones (Unicode spaces included) left out.
    #[test]
    fn numbered_lines_are_split_lines(
        parts in proptest::collection::vec(
            proptest::sample::select(vec!["\n", "\r", " ", "\t", "\u{a0}", "a", "µ", "\r\n", "\r\r\n"]),
            0..24,
        ),
        first in 0u32..5,
    ) {
        let text = parts.concat();
        let want: Vec<(u32, &str)> = text
            .split('\n')
            .enumerate()
            .map(|(i, l)| (first + i as u32, l.trim_end_matches('\r')))
            .filter(|(_, l)| !l.trim().is_empty())
            .collect();
        let got: Vec<(u32, &str)> = numbered_lines(&text, first).collect();
        proptest::prop_assert_eq!(got, want);
    }
}
