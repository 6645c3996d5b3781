//! Tests of `source`.

use super::*;

fn texts(s: &Source) -> Vec<(&str, u32, u8)> {
    s.lines
        .iter()
        .map(|l| (l.text.as_str(), l.number, l.quote_depth))
        .collect()
}

#[test]
fn strips_quote_prefixes_of_any_depth() {
    let s = Source::from_text("m", "> a\n> > b\n>> c\n> > > | 512 | 4.2 |\nplain\n>\n");
    assert_eq!(
        texts(&s),
        vec![
            ("a", 1, 1),
            ("b", 2, 2),
            ("c", 3, 2),
            ("| 512 | 4.2 |", 4, 3),
            ("plain", 5, 0),
            ("", 6, 1)
        ]
    );
}

#[test]
fn quoted_printable_soft_breaks_and_escapes() {
    let s = Source::from_text("m", "6656.73 =C2=B1 539.35\n>     140227  -21.1%  110582 =C4=85  3%  will-it-scale.52.threa=\nds\nnext\n");
    assert_eq!(s.lines[0].text, "6656.73 ± 539.35");
    assert_eq!(
        s.lines[1].text,
        "    140227  -21.1%  110582 ±  3%  will-it-scale.52.threads"
    );
    assert_eq!(s.lines[1].number, 2);
    assert_eq!(s.lines[2].text, "next");
    assert_eq!(s.lines[2].number, 4);
}

/// A banner a loop printed above a quoted-printable capture (`=== run 1
/// ===`) is a line of its own: its closing `==` is no encoder's soft
/// break, which would join it to the capture's first line.
#[test]
fn a_line_ending_in_two_equals_signs_is_no_soft_break() {
    let s = Source::from_text(
        "m",
        "=== run 1 ===\n> > [root@host ublk]# ~/git/fio/t/io_uring -p0 /dev/ublkb0\n\
         > > IOPS=3D188.54K, BW=3D736MiB/s, IOS/call=3D32/31\n> > a long li=\nne\n",
    );
    assert_eq!(s.lines[0].text, "=== run 1 ===");
    assert_eq!(s.lines[0].number, 1);
    assert_eq!(s.lines[2].text, "IOPS=188.54K, BW=736MiB/s, IOS/call=32/31");
    assert_eq!(s.lines[3].text, "a long line");
}

/// An ISO-8859-1 mail keeps its column gaps as `=A0 =A0` and breaks long
/// lines with `=`: decoded, the escapes are spaces and the lines whole.
#[test]
fn latin1_quoted_printable_no_break_spaces_are_column_gaps() {
    let s = Source::from_text(
        "m",
        "> Transactions per second: =A0 =A0 =A0 =A02.00 ( 0.00%) =A0=\n =A0 2.00 ( 0.00%)\n",
    );
    assert_eq!(
        s.lines[0].text,
        "Transactions per second:        2.00 ( 0.00%)     2.00 ( 0.00%)"
    );
    assert_eq!(s.lines.len(), 1);
    // The transfer-encoding header alone is enough to decode a body.
    let s = Source::from_text(
        "m",
        "Content-Transfer-Encoding: quoted-printable\n\nrate =A0 12.5=\n0\n",
    );
    assert_eq!(s.lines[2].text, "rate   12.50");
    // A literal no-break space is a space too.
    let s = Source::from_text("m", "a\u{a0}\u{a0}1.5\n");
    assert_eq!(s.lines[0].text, "a  1.5");
}

#[test]
fn plain_equals_signs_are_left_alone() {
    let s = Source::from_text("m", "Iterations=5000\nA=1B\n");
    assert_eq!(s.lines[0].text, "Iterations=5000");
    assert_eq!(s.lines[1].text, "A=1B");
}

#[test]
fn crlf_ansi_and_carriage_return_redraws() {
    let s = Source::from_text(
        "m",
        "a\r\n\u{1b}[1mbold\u{1b}[0m\r\nJobs: 1 [eta 5s]\rJobs: 1 [eta 0s]\rdone\n",
    );
    assert_eq!(texts(&s), vec![("a", 1, 0), ("bold", 2, 0), ("done", 3, 0)]);
}

#[test]
fn soft_breaks_an_archive_shows_undecoded_are_joined() {
    let text =
        ">>>>   base  patched  =\nrerun\n>>>>   LNICE(0)  00466  00277  =\n00257\n>>>> x = 1\n";
    let s = Source::from_text("m", text);
    let got: Vec<String> = s.lines.iter().map(|l| l.text.clone()).collect();
    assert_eq!(
        got,
        [
            "  base  patched  rerun",
            "  LNICE(0)  00466  00277  00257",
            "x = 1"
        ]
    );
    // One such line is no sign: a plain quoted `=` at a line's end stays.
    let s = Source::from_text("m", "> total =\n5\n");
    assert_eq!(s.lines.len(), 2);
}

#[test]
fn moving_the_cursor_over_a_line_leaves_it() {
    // cyclicdeadline's last line only moves the cursor up and down again.
    let text = "T: 0 C: 1\n\u{1b}[1AT: 0 C: 2\n\u{1b}[1A\u{1b}[3B";
    let s = Source::from_text("m", text);
    let kept: Vec<_> = texts(&s).into_iter().filter(|t| !t.0.is_empty()).collect();
    assert_eq!(kept, vec![("T: 0 C: 2", 2, 0)]);
}

#[test]
fn cursor_up_redraws_keep_the_last_frame() {
    let text = "hdr\nT: 0 Min: 5\nT: 1 Min: 6\n\u{1b}[2AT: 0 Min: 3\nT: 1 Min: 4\n";
    let s = Source::from_text("m", text);
    assert_eq!(
        texts(&s),
        vec![("hdr", 1, 0), ("T: 0 Min: 3", 4, 0), ("T: 1 Min: 4", 5, 0)]
    );
}

#[test]
fn refuses_empty_and_binary_and_truncated_gzip() {
    let e = Source::from_bytes("x.txt", b"").unwrap_err().to_string();
    assert!(e.contains("x.txt") && e.contains("empty"), "{e}");
    let e = Source::from_bytes("x.bin", b"ab\ncd\0ef")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("x.bin:2:"), "{e}");
    let mut gz = Vec::new();
    {
        use std::io::Write;
        let mut w = flate2::write::GzEncoder::new(&mut gz, flate2::Compression::default());
        w.write_all(b"Time: 2.978\n".repeat(100).as_slice())
            .unwrap();
    }
    let ok = Source::from_bytes("x.gz", &gz).unwrap();
    assert_eq!(ok.lines.len(), 100);
    let e = Source::from_bytes("x.gz", &gz[..gz.len() / 2])
        .unwrap_err()
        .to_string();
    assert!(e.contains("x.gz") && e.contains("gzip"), "{e}");
}

#[test]
fn head_keeps_the_first_lines_and_their_raw_text() {
    let s = Source::from_text("m", "> a\n> b\n> c\n");
    let h = s.head(2, 1000).unwrap();
    assert_eq!(texts(&h), vec![("a", 1, 1), ("b", 2, 1)]);
    assert_eq!(h.raw, "> a\n> b\n");
    assert!(s.head(3, 1000).is_none());
    // One long line (JSON on one line) is cut by bytes, at a char boundary.
    let s = Source::from_text("j", "{\"k\": \"µµµµ\"}\n");
    let h = s.head(10, 9).unwrap();
    assert_eq!(h.lines[0].text, "{\"k\": \"µ");
    assert_eq!(h.raw, "{\"k\": \"µ");
}

#[test]
fn head_stops_where_the_byte_limit_falls_on_a_line_break() {
    // `ab\n` three times is 9 bytes: at a limit of 5 the second line
    // (with its break, 6 bytes) ends past it, and the third starts there.
    let s = Source::from_text("m", "ab\nab\nab\n");
    let h = s.head(10, 5).unwrap();
    assert_eq!(texts(&h), vec![("ab", 1, 0), ("ab", 2, 0)]);
    assert_eq!(h.raw, "ab\nab");
}

/// The one-pass path gives what the general path gives, and is taken
/// exactly when the general path would find nothing to undo.
fn same_as_general(text: &str) {
    let lines: Vec<(String, u32)> = text
        .split('\n')
        .enumerate()
        .map(|(i, l)| (strip_line_end(l).to_string(), i as u32 + 1))
        .collect();
    assert_eq!(
        text_is_quoted_printable(text),
        looks_quoted_printable(&lines),
        "{text:?}"
    );
    let escape = lines
        .iter()
        .any(|(l, _)| l.contains('\u{1b}') || l.contains('\r'));
    assert_eq!(has_terminal_control(text), escape, "{text:?}");
    for json_like in [false, true] {
        if !escape && !looks_quoted_printable(&lines) {
            assert_eq!(
                plain_lines(text, json_like),
                general_lines(text, json_like),
                "{text:?}"
            );
        }
    }
}

#[test]
fn the_plain_path_agrees_with_the_general_one() {
    for text in [
        "",
        "\n",
        "a\n\n",
        "a\r\nb\r",
        "a\r\r\nb",
        "x=20\r\ny",
        "x=20\r",
        "x=20\r\r",
        "=20\n===",
        "=20\n\n===",
        "a =\n=20\n \nx=1\n",
        "          min=1, max=20\n          min=16000, max=16000\n",
        "x=2",
        "n=10-2\nA=1B\n",
        "> a\n   > b\n    > c\n",
        "5 ą 3%\n> 5 ą 3\n",
        "563556 A+-  1%  aim9\n> 11836 \\261  7%\n9.34 Â± 4%\n",
    ] {
        same_as_general(text);
    }
}

#[test]
fn plus_minus_mangled_by_mail_and_archives_is_plus_minus_again() {
    let src = Source::from_text(
        "m.txt",
        "    563556 A+-  1%     -12.5%     493033 A+-  5%  aim9.creat-clo.ops_per_sec\n\
         11836 \\261  7%\n9.34 Â± 4%\n5 ą 3%\nA+- alone, and Grade A+- 3 stay\n",
    );
    let texts: Vec<&str> = src.lines.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "    563556 ±  1%     -12.5%     493033 ±  5%  aim9.creat-clo.ops_per_sec",
            "11836 ±  7%",
            "9.34 ± 4%",
            "5 ± 3%",
            "A+- alone, and Grade A+- 3 stay",
        ]
    );
}

/// The second table of a part-n post, sent as raw quoted-printable with
/// no quote marks: each row broken by a soft break, and no other sign of
/// the encoding in the text.
#[test]
fn unquoted_soft_breaks_are_joined_when_every_one_is_an_encoders() {
    let text = "\
#workers      stock                     CNA / speedup               =
CNA+patch / speedup
 18   262932.282 (12638.248)   249653.081 (11822.940) / 0.949  =
265189.104 (9271.447) / 1.009
 36   277315.640 (11100.324)   260177.335 (7186.451) / 0.938   =
274691.250 (10329.523) / 0.991
";
    let s = Source::from_text("m", text);
    let got: Vec<&str> = s.lines.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(got.len(), 3);
    assert!(got[0].ends_with("CNA / speedup               CNA+patch / speedup"));
    assert!(got[1].ends_with("/ 0.949  265189.104 (9271.447) / 1.009"));
    same_as_general(text);
    // A statement a log wrapped after its `=` is too short to have been
    // broken by an encoder, and a line holding another bare `=` was never
    // encoded: both stay.
    for plain in [
        "\tret =\n\t\tfoo(bar);\n\tval =\n\t\tbaz(qux);\n",
        "run 1: iters=5000 total time spent in the measured loop, in seconds =\n12.5 s\nrun 2: iters=5000 total time spent in the measured loop, in seconds =\n12.7 s\n",
    ] {
        assert_eq!(Source::from_text("m", plain).lines.len(), 4, "{plain}");
    }
}

/// Texts of up to 40 tokens drawn from `alphabet`.
fn texts_of(alphabet: Vec<&'static str>) -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::strategy::Strategy;
    proptest::collection::vec(proptest::sample::select(alphabet), 0..40)
        .prop_map(|parts| parts.concat())
}

proptest::proptest! {
    #[test]
    fn the_plain_path_agrees_on_any_text(
        text in texts_of(vec![
            "=", "3", "D", "2", "0", "9", "A", "\r", "\n", "\u{1b}", ">", " ",
            "\t", "ą", "a", "1", "%",
        ])
    ) {
        same_as_general(&text);
    }
}

#[test]
fn head_cuts_the_raw_text_where_it_did() {
    // Lines past the byte limit, lines within it, one long line.
    let text = "ab\n".repeat(50) + &"x".repeat(300) + "\n";
    let s = Source::from_text("m", &text);
    for (lines, bytes) in [
        (10, 1000),
        (10, 5),
        (60, 1000),
        (60, 100),
        (1, 2),
        (51, 500),
    ] {
        let Some(h) = s.head(lines, bytes) else {
            continue;
        };
        let line_end = memchr::memchr_iter(b'\n', s.raw.as_bytes())
            .nth(lines - 1)
            .map_or(s.raw.len(), |i| i + 1);
        assert_eq!(h.raw, s.raw[..line_end.min(bytes)], "{lines} {bytes}");
    }
}

#[test]
fn latin1_mail_is_decoded() {
    let s = Source::from_bytes("m", b"6656.73 \xb1 539.35\n").unwrap();
    assert_eq!(s.lines[0].text, "6656.73 ± 539.35");
}

#[test]
fn one_latin1_line_leaves_the_utf8_lines_alone() {
    let bytes = b"Subject: caf\xe9 numbers\nbase 10.5 \xc2\xb1 0.2\r\npatched 11 \xc2\xb1 0.3\n";
    let s = Source::from_bytes("m", bytes).unwrap();
    let got: Vec<&str> = s.lines.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(
        got,
        [
            "Subject: café numbers",
            "base 10.5 ± 0.2",
            "patched 11 ± 0.3"
        ]
    );
}

#[test]
fn carriage_returns_before_the_break_end_the_line() {
    for text in ["a 1\r\r\nb 2\r\r\n", "a 1\r\r\r\nb 2\n"] {
        let s = Source::from_text("t", text);
        let got: Vec<(&str, u32)> = s
            .lines
            .iter()
            .map(|l| (l.text.as_str(), l.number))
            .collect();
        assert_eq!(got, [("a 1", 1), ("b 2", 2)], "{text:?}");
    }
    // A carriage return inside a line is still a redraw.
    let s = Source::from_text("t", "50%\r100%\r\r\n");
    assert_eq!(s.lines[0].text, "100%");
}

proptest::proptest! {
    /// A line prepared on its own is the line the whole plain text
    /// gives, whatever the other lines hold (quotes, `ą`, CRLF).
    #[test]
    fn a_plain_line_alone_is_prepared_as_in_its_text(
        text in texts_of(vec![
            "a", "1", " ", ">", "> ", "    >", "ą", "\r", "\n", "\r\n", "{", "pkg: x",
        ]),
        json_like in proptest::bool::ANY,
    ) {
        proptest::prop_assume!(is_plain(&text));
        let whole = plain_lines(&text, json_like);
        let body = text.strip_suffix('\n').unwrap_or(&text);
        let alone: Vec<Line> = body
            .split('\n')
            .enumerate()
            .map(|(i, l)| {
                let (text, quote_depth) = plain_line(l, json_like);
                Line { text: text.into_owned(), number: i as u32 + 1, quote_depth }
            })
            .collect();
        proptest::prop_assert_eq!(alone, whole);
    }
}

#[test]
fn fio_depth_distributions_are_not_quoted_printable() {
    // `>=64=103.1%` holds `=64=10`, which is no escape: ASCII bytes.
    let text = "  IO depths    : 1=0.1%, 2=0.1%, 32=0.1%, >=64=103.1%\n    clat (usec): min=7, max=165751, avg=156398.72, stdev=4691.03\n";
    let src = Source::from_text("mail.txt", text);
    assert!(
        src.lines[1].text.contains("max=165751"),
        "{:?}",
        src.lines[1].text
    );
    assert!(src.lines[1].text.contains("stdev=4691.03"));
    // A real escape pair of a UTF-8 character still decodes.
    let qp = Source::from_text("mail.txt", "caf=C3=A9 time =3D 1.5\n");
    assert_eq!(qp.lines[0].text, "caf\u{e9} time = 1.5");
}

#[test]
fn a_value_of_twenty_after_an_equals_sign_is_no_encoded_space() {
    // `max=20` ends the line as an encoded trailing space would, but the
    // `=1,` before it is no escape: the text is plain, and `max=16000`
    // keeps its digits.
    let src = Source::from_text(
        "s.txt",
        "          min=1, max=20\n          min=16000, max=16000\n",
    );
    let texts: Vec<&str> = src.lines.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(
        texts,
        ["          min=1, max=20", "          min=16000, max=16000"]
    );
}

#[test]
fn a_gauge_line_of_hex_looking_values_beside_a_plain_one_is_plain() {
    // k6's gauges: `vus_max` ends in `max=20` and holds no other `=`
    // than ones before two hex digits, but `min=1 ` on the line above, in
    // the same paragraph, is no escape: an encoder escapes every `=`.
    let text = "    vus.....................................: 1      min=1           max=20\r\n    vus_max.................................: 20     min=20          max=20\r\n";
    let src = Source::from_text("k6.txt", text);
    assert!(src.lines[1].text.ends_with("min=20          max=20"));
    // Alone, the line is still taken for an encoded trailing space.
    let alone = Source::from_text("qp.txt", "vus_max: 20     min=20          max=20\n");
    assert!(alone.lines[0].text.ends_with("max "));
}

/// A JSON document read with its lines deferred gives, from its raw text,
/// the lines, head, text and first line that reading it whole gives, and
/// the same lines once they are made; text whose lines are not its raw
/// text's (line ends to strip, `±` to repair, no-break spaces, not JSON)
/// is read as before.
#[test]
fn deferred_lines_are_the_lines_read_whole() {
    let dir = tempfile::tempdir().unwrap();
    let big: String = (0..3000).map(|i| format!("  {i}.5,\n")).collect();
    let docs = [
        ("plain", format!("{{\"a\": [\n{big}  1]\n}}\n"), true),
        ("bom", "\u{feff}{\"a\": 1,\n\n\"b\": 2}".to_string(), true),
        ("array", "[1,\n2]\n\n".to_string(), true),
        (
            "one line",
            format!("{{\"t\":[{}0]}}", "0.25,".repeat(5000)),
            true,
        ),
        ("quoted", "{\"a\":\n> 1}\n".to_string(), true),
        ("crlf", "{\"a\":\r\n1}\r\n".to_string(), false),
        ("plusminus", "{\"a\": \"1 Â± 2\"}\n".to_string(), false),
        ("nbsp", "{\"a\": \"1\u{a0}2\"}\n".to_string(), false),
        ("not json", "a: 1\nb: 2\n".to_string(), false),
        ("redraw", "{\"a\":\n1\r2}\n".to_string(), false),
    ];
    for (what, doc, deferred) in docs {
        let path = dir.path().join("doc.json");
        std::fs::write(&path, &doc).unwrap();
        let whole = Source::read(&path).unwrap();
        let mut lazy = Source::read_deferred(&path).unwrap();
        assert_eq!(lazy.lines_deferred(), deferred, "{what}");
        assert_eq!(lazy.lines.is_empty(), deferred, "{what}");
        let got: Vec<Line> = lazy.line_texts().map(|l| l.to_line()).collect();
        assert_eq!(got, whole.lines, "{what}");
        assert_eq!(lazy.raw, whole.raw, "{what}");
        assert_eq!(lazy.text(), whole.text(), "{what}");
        assert_eq!(lazy.joined(), whole.joined(), "{what}");
        assert_eq!(lazy.first_line(), whole.first_line(), "{what}");
        for (lines, bytes) in [(2, 1 << 20), (4000, 64), (4000, 1 << 20)] {
            // A deferred source always gives its head, lines made.
            let head = lazy.head(lines, bytes).unwrap_or_else(|| {
                assert!(!deferred, "{what}");
                lazy.clone()
            });
            let want = whole.head(lines, bytes).unwrap_or_else(|| whole.clone());
            assert_eq!(head.lines, want.lines, "{what} {lines} {bytes}");
            assert_eq!(head.raw, want.raw, "{what} {lines} {bytes}");
        }
        lazy.ensure_lines();
        assert!(!lazy.lines_deferred());
        assert_eq!(lazy.lines, whole.lines, "{what}");
    }
}

/// A reply sent as raw quoted-printable in which the line ends are
/// encoded too (`=0A`), rows of a part-q post: each encoded line end is a
/// line break, and the quote marks after it are quotes.
#[test]
fn encoded_line_ends_of_a_quoted_printable_body_are_line_breaks() {
    let text = "\
> devicetype    configuration    MB/s    clat mea=
n    clat 99%=0A> ---------------------------------------------------------=
---------=0A> nvme base        1m,32,4     2259    59280        67634=0A> c=
rypt default    1m,32,4     2267    59050       182000=0A> crypt no_w_wq   =
 1m,32,4     1758    73954.54     84411=0A=

The reply adds more results.
";
    let s = Source::from_text("m", text);
    let got: Vec<(&str, u8)> = s
        .lines
        .iter()
        .map(|l| (l.text.as_str(), l.quote_depth))
        .collect();
    assert_eq!(
        got[0],
        (
            "devicetype    configuration    MB/s    clat mean    clat 99%",
            1
        )
    );
    assert_eq!(
        got[2],
        ("nvme base        1m,32,4     2259    59280        67634", 1)
    );
    assert_eq!(
        got[3],
        ("crypt default    1m,32,4     2267    59050       182000", 1)
    );
    assert_eq!(
        got[4],
        ("crypt no_w_wq    1m,32,4     1758    73954.54     84411", 1)
    );
    same_as_general(text);
    // A log of hex register values is no such body: `=0A` ends a value,
    // and no quote mark follows it.
    for plain in ["reg=0A val=0B\nreg=0A val=0C\n", "a=0A\n> b=0A\n"] {
        assert_eq!(
            Source::from_text("m", plain).lines[0].text,
            plain.lines().next().unwrap()
        );
        same_as_general(plain);
    }
}
