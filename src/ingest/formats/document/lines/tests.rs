//! Tests of the line classifier.

use super::boxes::{find_bar, is_border};
use super::cells::cell_texts;
use super::pairs::{pairs, valid_ascii_key, valid_key_chars};
use super::values::{
    all_cells_row, data_row, plain_last_cell, plain_number, short_decimal, value_cell,
};
use super::*;

#[test]
fn a_row_is_judged_by_its_last_cell_first() {
    let go = "BenchmarkGen0/n=10-2 \t  200000\t      1012 ns/op\t      24 B/op\t       1 allocs/op";
    assert_eq!(plain_last_cell(go), Some("1 allocs/op"));
    assert_eq!(plain_last_cell("a b  c d \t"), Some("c d"));
    assert_eq!(plain_last_cell("x  140227 ±  3%"), None);
    assert_eq!(plain_last_cell("x  1 +- 2"), None);
    assert_eq!(plain_last_cell("   "), None);
    assert_eq!(data_row(go), None);
    let row = data_row("hackbench 50   1.234   1.301").unwrap();
    assert_eq!(row.label, "hackbench 50");
    assert_eq!(row.cells.len(), 2);
}

#[test]
fn ascii_keys_are_judged_as_character_by_character() {
    for key in [
        "",
        "time",
        "BenchmarkGen0/n",
        ">5484.43us",
        "> 5484",
        ">12345678901234567",
        "a b c d",
        "a b c d e",
        "a\x0bb\x0bc\x0bd\x0be",
        "CONFIG_HZ",
        "x CONFIG_",
        "CONFIG",
        "avg (ms)",
        "1234567890123456789012345678901",
        "12345678901234567890123456789012",
        "123456789012345678901234567890123",
        "\ttime\t",
        "it's",
        "[0]",
    ] {
        assert_eq!(
            valid_ascii_key(key.as_bytes()),
            valid_key_chars(key),
            "{key:?}"
        );
    }
}

proptest::proptest! {
    #[test]
    fn ascii_keys_agree_with_the_character_test(
        key in "[ -~\t\n\x0b\x0c\r]{0,40}|(>|CONFIG_| |[a-z]{1,6}|[,<>()\\[\\]\"'])*"
    ) {
        proptest::prop_assert_eq!(valid_ascii_key(key.as_bytes()), valid_key_chars(&key));
    }
}

proptest::proptest! {
    /// The shortcut never changes what a line is: rows and their cells
    /// are those of reading every cell.
    #[test]
    fn the_last_cell_shortcut_agrees_with_reading_every_cell(
        text in "[a-z0-9 ./%:=+\\[\\]\t-]{0,40}|[a-z0-9 .]{0,12}  [0-9.]{1,6}( [a-z%/]{1,4})?"
    ) {
        proptest::prop_assert_eq!(data_row(&text), all_cells_row(&text));
        if let Some(last) = plain_last_cell(&text) {
            let cells = cell_texts(&text);
            proptest::prop_assert_eq!(cells.last().map(|(_, t)| t.as_ref()), Some(last));
        }
    }
}

#[test]
fn pairs_of_a_sample_line() {
    let p = pairs("pert/s:      229 >5484.43us:       41 min:  0.15 max:12069.42 avg:2193.81 sum/s:502382us overhead:50.24%").unwrap();
    let keys: Vec<&str> = p.iter().map(|p| p.key.as_str()).collect();
    assert_eq!(
        keys,
        [
            "pert/s",
            ">5484.43us",
            "min",
            "max",
            "avg",
            "sum/s",
            "overhead"
        ]
    );
    assert_eq!(p[4].value, 2193.81);
    assert_eq!(p[5].unit, "us");
    assert_eq!(p[6].unit, "%");
}

#[test]
fn pairs_with_spaced_units_and_equals() {
    let p = pairs("maximum latency: 42963.2 µs").unwrap();
    assert_eq!(
        (p[0].key.as_str(), p[0].value, p[0].unit.as_str()),
        ("maximum latency", 42963.2, "us")
    );
    let p = pairs("Iterations=5000").unwrap();
    assert_eq!(p[0].value, 5000.0);
    let p = pairs("std. dev. : 0.07s").unwrap();
    assert_eq!((p[0].key.as_str(), p[0].unit.as_str()), ("std. dev.", "s"));
    let p = pairs("a: 5 b: 6").unwrap();
    assert_eq!(p.len(), 2);
    // dnsperf's statistics (kubernetes/perf-tests, dns/fixtures/raw.txt):
    // the unit in parentheses closing the key is the bare value's.
    let p = pairs("  Run time (s):         10.000256").unwrap();
    assert_eq!(
        (p[0].key.as_str(), p[0].value, p[0].unit.as_str()),
        ("Run time", 10.000256, "s")
    );
    let p = pairs("  Latency StdDev (s):   0.000892").unwrap();
    assert_eq!(
        (p[0].key.as_str(), p[0].unit.as_str()),
        ("Latency StdDev", "s")
    );
    // Words in parentheses are no unit: the key stays no key.
    assert!(pairs("Setup (fast): 3").is_none());
    assert!(pairs("a (b) (s): 3").is_none());
    // A plural written `(s)` against its word is no unit (lscpu's lines).
    assert!(pairs("CPU(s):                                  2").is_none());
    assert!(pairs("Socket(s):                               1").is_none());
}

#[test]
fn several_values_with_units_after_one_key_are_each_named_by_what_they_count() {
    // A traffic meter's line: bits and packets a second, sent and received.
    let p = pairs("tx: 0 bps 0 pps rx: 397.4 Mbps 827.9 Kpps").unwrap();
    let got: Vec<(&str, f64, &str)> = p
        .iter()
        .map(|p| (p.key.as_str(), p.value, p.unit.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("tx bps", 0.0, "bps"),
            ("tx pps", 0.0, "pps"),
            ("rx bps", 397.4, "Mbps"),
            ("rx pps", 827.9, "Kpps")
        ]
    );
    // One value a key keeps the key alone.
    let p = pairs("rx: 397.4 Mbps tx: 2 Mbps").unwrap();
    assert_eq!((p[0].key.as_str(), p[1].key.as_str()), ("rx", "tx"));
}

#[test]
fn prose_and_headers_are_not_pairs() {
    for l in [
        "Date:\tWed, 10 Jan 2007 12:47:21 +0100",
        "Message-ID: <45A4D249.8080904@bull.net>",
        "On Tue, 2013-11-26 at 11:25 -0800, someone wrote:",
        "  Last update: 2013-11-26 22:41    [W:0.078 / U:0.224 seconds]",
        "First case: all threads are SCHED_OTHER",
        "Subject: Re: [PATCH 2.6.20-rc4 1/4] futex priority based wakeup",
        "OpenPGP key fingerprint: 8CD5 52C3 8E3C 4140 715F  BA06 3F25 A8FE 3BAE 9A68",
    ] {
        assert_eq!(pairs(l), None, "{l}");
        assert!(!matches!(classify(l), Kind::Row(_)), "{l}");
    }
}

#[test]
fn cells_with_units_and_remarks() {
    let (c, u) = value_cell("5.53 us").unwrap();
    assert_eq!((c.value, u.as_deref()), (5.53, Some("us")));
    let (c, u) = value_cell("10.2 us +- 0.5 us").unwrap();
    assert_eq!(
        (c.value, c.spread, u.as_deref()),
        (10.2, Some(0.5), Some("us"))
    );
    let (c, u) = value_cell("10.2 us: 1.85x slower").unwrap();
    assert_eq!((c.value, u.as_deref()), (10.2, Some("us")));
    let (c, u) = value_cell("12ms").unwrap();
    assert_eq!((c.value, u.as_deref()), (12.0, Some("ms")));
    let (c, u) = value_cell("2.8 %").unwrap();
    assert_eq!((c.value, c.is_pct, u), (2.8, true, None));
    // The unit glued to the spread applies to the value as well.
    let (c, u) = value_cell("0.453 ± 0.002M/s (drops 0.000 ± 0.000M/s)").unwrap();
    assert_eq!(
        (c.value, c.spread, u.as_deref()),
        (0.453, Some(0.002), Some("M/s"))
    );
    // A sign set apart from its number, and a scale letter on a count.
    let (c, _) = value_cell("+ 4.5%").unwrap();
    assert_eq!((c.value, c.is_pct), (4.5, true));
    assert_eq!(value_cell("- 12").unwrap().0.value, -12.0);
    assert_eq!(value_cell("155K").unwrap().0.value, 155_000.0);
    assert_eq!(value_cell("1.5M").unwrap().0.value, 1_500_000.0);
    assert_eq!(value_cell("+ x"), None);
    assert_eq!(value_cell("abc"), None);
    // A percent sign before its number, as netperf prints a variance.
    let (c, _) = value_cell("%1.31").unwrap();
    assert_eq!((c.value, c.is_pct), (1.31, true));
    assert_eq!(value_cell("%x1"), None);
    assert_eq!(value_cell("2.6.20-rc4"), None);
    assert_eq!(value_cell("x86_64"), None);
}

#[test]
fn attributes_are_not_measurements() {
    let one = |l: &str| pairs(l).unwrap().remove(0);
    assert!(!is_measurement(&one("CPU family: 6")));
    assert!(!is_measurement(&one("BogoMIPS: 5586.87")));
    assert!(is_measurement(&one("Time: 2.978")));
    assert!(is_measurement(&one("maximum latency: 42963.2 µs")));
    assert!(is_measurement(&one("avg : 2.99")));
    assert!(is_measurement(&one("Iterations=5000")));
    assert_eq!(pairs("CONFIG_HZ=250"), None);
}

#[test]
fn fast_decimals_round_like_str_parse() {
    // Deterministic spread of lengths, dot positions and digits,
    // including mantissas at and past the exact range.
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..200_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let len = 1 + (x % 19) as usize;
        let mut s: String = (0..len)
            .map(|i| char::from(b'0' + ((x >> (i * 3)) % 10) as u8))
            .collect();
        let dot = ((x >> 40) % (len as u64 + 2)) as usize;
        if dot <= len {
            s.insert(dot, '.');
        }
        if (x >> 50) & 1 == 1 {
            s.insert(0, '-');
        }
        let want = s.parse::<f64>().ok().filter(|v| v.is_finite());
        let got = plain_number(&s).map(|c| c.value);
        assert_eq!(got.map(f64::to_bits), want.map(f64::to_bits), "{s}");
    }
    for s in [
        "0.1",
        "5.1803",
        "-0",
        "-0.0",
        ".5",
        "5.",
        "123456789012345",
        "0.000000000000001",
    ] {
        assert_eq!(
            plain_number(s).map(|c| c.value.to_bits()),
            s.parse::<f64>().ok().map(f64::to_bits),
            "{s}"
        );
    }
    assert_eq!(plain_number("."), None);
    assert_eq!(plain_number("1.2.3"), None);
    assert_eq!(plain_number("-"), None);
}

proptest::proptest! {
    /// Boxed cells are the row split at each bar and trimmed.
    #[test]
    fn box_cells_are_split_and_trimmed(
        parts in proptest::collection::vec(
            proptest::sample::select(vec![
                "|", " ", "\t", "5", "a b", "µ", "\u{a0}", "\u{3000}", "x", "  ", "}",
                "\u{7f}", "0.5180", "\u{fc}",
            ]),
            0..24,
        )
    ) {
        let row = parts.concat();
        proptest::prop_assert_eq!(find_bar(row.as_bytes()), row.find('|'));
        let cells: Vec<&str> = BoxCells(&row).iter().collect();
        proptest::prop_assert_eq!(BoxCells(&row).count(), cells.len());
        let want: Vec<&str> = row.split('|').map(str::trim).collect();
        proptest::prop_assert_eq!(cells, want, "{:?}", row);
    }
}

/// [`is_border`] as it was written before its eight-dash step.
fn is_border_bytewise(t: &str) -> bool {
    let b = t.as_bytes();
    if !matches!(b.first(), Some(b'+' | b'|')) {
        return false;
    }
    let mut dashes = 0;
    for &c in b {
        match c {
            b'-' | b'=' => dashes += 1,
            b'+' | b'|' | b':' | b' ' => {}
            _ => return false,
        }
    }
    dashes >= 3
}

proptest::proptest! {
    #[test]
    fn borders_are_told_as_byte_by_byte(
        parts in proptest::collection::vec(
            proptest::sample::select(vec![
                "+", "|", "-", "--------", "=", ":", " ", "x", "-------", "5",
            ]),
            0..14,
        )
    ) {
        let t = parts.concat();
        proptest::prop_assert_eq!(is_border(&t), is_border_bytewise(&t), "{:?}", t);
    }

    /// Remembering prose changes no line's kind, whatever repeats.
    #[test]
    fn the_classifier_classifies_as_classify(
        picks in proptest::collection::vec(0usize..12, 0..40)
    ) {
        let lines = [
            "Results on machine 0 of the test rack:",
            "",
            "+-----+------+",
            "| threads | time (ms) |",
            "| 512 | 5.1803 |",
            "hackbench 50   1.234   1.301",
            "Time: 2.978",
            "real 0m34.067s",
            "   ^^^^^usecs",
            "with plist:",
            "  baseline  patched",
            "Results on machine 0 of the test rack:",
        ];
        let mut c = Classifier::default();
        for i in picks {
            proptest::prop_assert_eq!(c.classify(lines[i]), classify(lines[i]));
        }
    }
}

#[test]
fn short_decimals_read_as_the_float_parser_reads_them() {
    for t in [
        "0",
        "-0",
        "-0.0",
        "5.",
        ".5",
        "-.5",
        "5.1803",
        "0.1",
        "0.3",
        "123456789012345",
        "12345678.9012345",
        ".000000000000001",
        "999999999999999",
        "00012.50",
    ] {
        let fast = short_decimal(t).unwrap();
        let slow = crate::ingest::shared::numbers::parse_f64(t).unwrap();
        assert_eq!(fast.to_bits(), slow.to_bits(), "{t}");
    }
    // Sixteen digits, two points, no digit, other characters: the long way.
    for t in [
        "1234567890123456",
        "1.2.3",
        ".",
        "-",
        "",
        "1e5",
        "+1",
        "1,5",
        " 1",
    ] {
        assert_eq!(short_decimal(t), None, "{t}");
    }
}

proptest::proptest! {
    /// Any decimal the shortcut reads has the bits `parse_f64` gives.
    #[test]
    fn the_short_decimal_is_the_parsed_one(
        t in "-?[0-9]{0,9}\\.?[0-9]{0,9}|-?[0-9]{1,15}|-?[0-9]{0,15}\\.[0-9]{0,15}"
    ) {
        if let Some(fast) = short_decimal(&t) {
            let slow = crate::ingest::shared::numbers::parse_f64(&t);
            proptest::prop_assert_eq!(Some(fast.to_bits()), slow.map(f64::to_bits), "{}", t);
        }
    }
}

#[test]
fn is_value_is_value_cell() {
    for t in [
        "",
        "0",
        "512",
        "123456789012345",
        "1234567890123456",
        "1e5",
        "x",
        "5 us",
        "-3",
        "1.5",
        "9999999999999999999",
        " 12 ",
    ] {
        assert_eq!(is_value(t), value_cell(t).is_some(), "{t:?}");
    }
}

#[test]
fn time_lines() {
    assert_eq!(
        classify("real\t0m34.067s"),
        Kind::Time("real".into(), 34.067)
    );
    assert_eq!(duration_seconds("1h2m3.5s"), Some(3723.5));
    assert_eq!(duration_seconds("3s4"), None);
}

#[test]
fn rows_and_cells() {
    let Kind::Row(r) =
        classify("make -j1 kernel/      33.94 +/- 0.07         34.91 +/- 0.27      2.8 %")
    else {
        panic!()
    };
    assert_eq!(r.label, "make -j1 kernel/");
    assert_eq!(r.cells.len(), 3);
    assert_eq!(r.cells[2].1.value, 2.8);
    let Kind::Row(r) = classify("                  3869     7400  6656.73      539.35") else {
        panic!()
    };
    assert_eq!((r.label.as_str(), r.cells.len()), ("", 4));
    let Kind::Row(r) = classify("wakeup-buddy\t\t63024\t\t+45.20%") else {
        panic!()
    };
    assert_eq!((r.label.as_str(), r.cells.len()), ("wakeup-buddy", 2));
    assert_eq!(classify("hackbench 50"), Kind::Text);
    assert_eq!(
        classify("Here are the average latencies after 5000 measures."),
        Kind::Text
    );
}

#[test]
fn boxes_and_carets() {
    assert_eq!(classify("+---------+-----+"), Kind::Border);
    let Kind::BoxRow(cells) = classify("| 512 | 4.2410 |") else {
        panic!()
    };
    assert_eq!(cells.iter().collect::<Vec<_>>(), ["512", "4.2410"]);
    let Kind::BoxRow(cells) = classify("|a||  b  |") else {
        panic!()
    };
    assert_eq!(cells.iter().collect::<Vec<_>>(), ["a", "", "b"]);
    let Kind::Carets(c) = classify("      ^^^^^usecs   ^^^^^usecs      ^^the competition") else {
        panic!()
    };
    assert_eq!(
        c,
        vec![(6, 11, "us".to_string()), (19, 24, "us".to_string())]
    );
}

#[test]
fn before_and_after_lines() {
    let Kind::Change(c) = classify("  Packet rate: 17.55 Mpps -> 19.23 Mpps") else {
        panic!("not a change line")
    };
    assert_eq!(
        (
            c.label.as_str(),
            c.before,
            c.after,
            c.unit.as_str(),
            c.names
        ),
        ("Packet rate", 17.55, 19.23, "Mpps", None)
    );
    let Kind::Change(c) = classify("    old: 554 IOPS → new: 535 IOPS  (~-3.4%)") else {
        panic!("not a change line")
    };
    assert_eq!(c.names, Some(("old".into(), "new".into())));
    assert_eq!((c.label.as_str(), c.before, c.after), ("", 554.0, 535.0));
    let Kind::Change(c) = classify("avg clat: 57.7 ms → 59.8 ms") else {
        panic!("not a change line")
    };
    assert_eq!((c.before, c.after, c.unit.as_str()), (57.7, 59.8, "ms"));
    let Kind::Change(c) = classify("Instructions per packet: 420 => 360, 14% fewer") else {
        panic!("not a change line")
    };
    assert_eq!((c.before, c.after), (420.0, 360.0));
    // Rates in two prefixes of one unit: the after value in the before's.
    let Kind::Change(c) = classify("XDP_DROP: 863Kpps -> 1.3Mpps") else {
        panic!("not a change line")
    };
    assert_eq!(
        (c.before, c.after, c.unit.as_str()),
        (863.0, 1300.0, "Kpps")
    );
    // Chains, prose around the arrow, units that differ and spreads: no.
    for l in [
        "1 -> 2 -> 3",
        "the rate went from fast -> slow",
        "2 ms -> 3 s",
        "5.1 ± 0.2 -> 6.0",
        "commit abc123 -> def456",
        "->",
    ] {
        assert!(!matches!(classify(l), Kind::Change(_)), "{l}");
    }
}

#[test]
fn a_heading_with_an_arrow_names_the_two_sides() {
    use super::heading_sides;
    assert_eq!(
        heading_sides("64B:      skb-mode -> native-mode"),
        Some(("64B".into(), "skb-mode".into(), "native-mode".into()))
    );
    assert_eq!(
        heading_sides("v6.8 → v6.9"),
        Some((String::new(), "v6.8".into(), "v6.9".into()))
    );
    for h in [
        "Single core performance comparison with skb-mode",
        "5 -> 6",
        "the rate went from what it was before the patch -> to this",
        "a -> b -> c",
    ] {
        assert_eq!(heading_sides(h), None, "{h}");
    }
}

#[test]
fn a_first_value_glued_to_its_key_is_a_value_of_the_row() {
    let r = data_row("   LNICE(-19)    # Avg Latencies: 00572      00347      00502      00218")
        .unwrap();
    assert_eq!(r.label, "LNICE(-19) # Avg Latencies:");
    let values: Vec<f64> = r.cells.iter().map(|(_, c)| c.value).collect();
    assert_eq!(values, [572.0, 347.0, 502.0, 218.0]);
    // `key: value` with one value is a sample line, not a row.
    assert!(data_row("Throughput:  123.4").is_none());
}

#[test]
fn a_variance_column_with_the_percent_sign_first_stays_a_column() {
    // netperf's confidence summary: the row label is the test name alone,
    // and the headings above the two blocks name the builds.
    let text = "Before the fix\n      Mode Iterations   Variance    Average\n    UDP_RR         10      %1.31      46724\n    TCP_RR         10      %6.26      77188\n\nAfter the fix\n      Mode Iterations   Variance    Average\n    UDP_RR         10      %1.51      49097\n    TCP_RR         10      %5.58      78540\n";
    let src = crate::ingest::Source::from_text("t.txt", text);
    let rows = super::super::reader::read(&src).unwrap();
    let row = |value: f64| rows.iter().find(|o| o.value == value);
    // The row label is the test's name, not the name glued to the cells
    // before the variance.
    for (v, test) in [
        (46724.0, "UDP_RR"),
        (1.31, "UDP_RR"),
        (78540.0, "TCP_RR"),
        (5.58, "TCP_RR"),
    ] {
        assert_eq!(
            row(v).map(|o| o.benchmark.as_str()),
            Some(test),
            "{rows:#?}"
        );
    }
    assert_eq!(
        row(46724.0).map(|o| o.variant.as_str()),
        Some("Before the fix")
    );
    assert_eq!(
        row(78540.0).map(|o| o.variant.as_str()),
        Some("After the fix")
    );
}

#[test]
fn header_names_one_space_apart_over_their_columns_are_cells() {
    let header = "      Mode Iterations   Variance    Average";
    let rows = [
        "    UDP_RR         10      %1.31      46724",
        "   TCP_CRR         10      %0.10      20505",
    ];
    let cells = super::header_words(header, &rows).unwrap();
    let names: Vec<&str> = cells.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(names, ["Mode", "Iterations", "Variance", "Average"]);
    // Words that do not sit over the columns stay one cell.
    assert!(super::header_words("  Kernel version     Time", &["  6.8     1.5    2.5"]).is_none());
    // A header the gaps already split needs no words.
    assert!(super::header_words("  a    b", &["  x    1"]).is_none());
}

/// Rows of a part-q post (erofs image sizes): a label of eight words
/// that lists settings (`+` joins, digits) is a row label; a sentence of
/// as many words before its number is not.
#[test]
fn a_long_label_listing_settings_is_a_row_label() {
    let Kind::Row(r) = classify(" 32k pcluster + lz4hc,12 + fragment + dedupe\t376M") else {
        panic!()
    };
    assert_eq!(r.label, "32k pcluster + lz4hc,12 + fragment + dedupe");
    assert_eq!(r.cells.len(), 1);
    assert_eq!(
        classify("the image shrank on the larger trees by about\t376M"),
        Kind::Text
    );
}

/// A row of a pipe table whose label runs over several cells (unixbench
/// with digits in its names) stays the pipe reader's.
#[test]
fn a_pipe_row_is_no_long_settings_label() {
    assert!(!matches!(
        classify(" File Copy 4096 bufsize 8000 maxblocks |    419.9   |     1992.0    |     2733.7"),
        Kind::Row(ref r) if r.label.contains('|') && r.label.split_whitespace().count() > 6
    ));
}

/// A value of a part-q post counted per minute (`7029030180/minute`), and
/// others per hour: a unit a value carries, though no second is in it.
#[test]
fn rates_per_minute_or_hour_are_units() {
    for u in ["/minute", "ops/min", "runs/hour"] {
        assert!(known_unit(u), "{u}");
    }
    for u in ["/proc", "read/write", "min/avg"] {
        assert!(!known_unit(u), "{u}");
    }
}
