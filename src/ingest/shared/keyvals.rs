//! `key=value` record lines: several results or settings on one line,
//! separated by commas or spaces, as load generators print them once a
//! second (`IOPS=254820, BW=124MiB/s, IOS/call=1/1, inflight=(1 1)`).
//!
//! A value is one token, or a parenthesised group that may hold spaces
//! (`(1 1)`). Values that are one number with an optional unit or scale
//! letter are returned; the others (ratios `1/1`, groups, words) are part
//! of the line but no measurement, and are left out.

use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::pattern::lazy_re;

lazy_re!(KEY, r"^[A-Za-z_][A-Za-z0-9_./-]*$");
lazy_re!(
    VALUE,
    r"^([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)([A-Za-zµ%][A-Za-zµ%/0-9^]*|/[A-Za-zµ][A-Za-zµ%/0-9^]*)?$"
);

/// One `key=value` item of a record line whose value is a number.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyValue<'a> {
    /// The key as written (`IOPS`, `BW`, `lat_ns`).
    pub key: &'a str,
    /// The number.
    pub value: f64,
    /// What follows the digits (`MiB/s`, `M`, `us`), or empty.
    pub unit: &'a str,
    /// Byte range of the value and its unit in the line.
    pub span: (usize, usize),
}

/// A record line split into its items: how many `key=value` items it
/// has, and those with a numeric value. `None` unless the whole line
/// (leading and trailing blanks aside) is made of such items.
pub fn record(text: &str) -> Option<(usize, Vec<KeyValue<'_>>)> {
    let b = text.as_bytes();
    let n = b.len();
    let mut i = 0;
    let mut items = 0;
    let mut out = Vec::new();
    let skip_sep = |i: &mut usize, comma: bool| {
        while *i < n && (b[*i].is_ascii_whitespace() || comma && b[*i] == b',') {
            *i += 1;
        }
    };
    skip_sep(&mut i, false);
    while i < n {
        let kstart = i;
        while i < n && b[i] != b'=' && !b[i].is_ascii_whitespace() && b[i] != b',' {
            i += 1;
        }
        if i == n || b[i] != b'=' || !KEY.is_match(&text[kstart..i]) {
            return None;
        }
        let key = &text[kstart..i];
        i += 1;
        let vstart = i;
        if i < n && b[i] == b'(' {
            // A group runs to its closing parenthesis.
            let close = text[i..].find(')')? + i;
            i = close + 1;
        } else {
            while i < n && !b[i].is_ascii_whitespace() && b[i] != b',' {
                i += 1;
            }
        }
        if i == vstart {
            return None;
        }
        // An item ends at a separator or the line's end, never inside a word.
        if i < n && !(b[i].is_ascii_whitespace() || b[i] == b',') {
            return None;
        }
        items += 1;
        let vend = i;
        // `inflight=128 (128)`: a parenthesised aside after a value (an
        // older t/io_uring's second in-flight count) belongs to its item,
        // not to a next one without a key.
        let mut j = i;
        while j < n && b[j] == b' ' {
            j += 1;
        }
        if j > i && j < n && b[j] == b'(' {
            let close = text[j..].find(')')? + j;
            if close + 1 < n && !(b[close + 1].is_ascii_whitespace() || b[close + 1] == b',') {
                return None;
            }
            i = close + 1;
        }
        if let Some(c) = VALUE.captures(&text[vstart..vend]) {
            if let Some(value) = parse_number(c.get(1).map_or("", |m| m.as_str())) {
                out.push(KeyValue {
                    key,
                    value,
                    unit: c.get(2).map_or("", |u| u.as_str()),
                    span: (vstart, vend),
                });
            }
        }
        skip_sep(&mut i, true);
    }
    (items > 0).then_some((items, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(text: &str) -> Option<Vec<(&str, f64, &str)>> {
        record(text).map(|(_, kv)| kv.iter().map(|k| (k.key, k.value, k.unit)).collect())
    }

    #[test]
    fn items_with_groups_ratios_and_units() {
        assert_eq!(
            numbers("IOPS=254820, BW=124MiB/s, IOS/call=1/1, inflight=(1 1)"),
            Some(vec![("IOPS", 254820.0, ""), ("BW", 124.0, "MiB/s")])
        );
        assert_eq!(
            record("IOPS=254820, BW=124MiB/s, IOS/call=1/1, inflight=(1 1)")
                .unwrap()
                .0,
            4
        );
        assert_eq!(
            numbers("IOPS=59.08M, BW=28.84GiB/s, IOS/call=31/31"),
            Some(vec![("IOPS", 59.08, "M"), ("BW", 28.84, "GiB/s")])
        );
        assert_eq!(
            numbers("  threads=4 ops=1200"),
            Some(vec![("threads", 4.0, ""), ("ops", 1200.0, "")])
        );
        assert_eq!(
            numbers("IOPS=2453184, IOS/call=32/31, inflight=128 (128)"),
            Some(vec![("IOPS", 2453184.0, ""), ("inflight", 128.0, "")])
        );
        assert_eq!(record("a=1 (x y), b=2").unwrap().0, 2);
        let (_, kv) = record("lat=12us").unwrap();
        assert_eq!(kv[0].span, (4, 8));
    }

    #[test]
    fn prose_commands_and_open_groups_are_no_records() {
        for l in [
            "we set x=3 here",
            "t/io_uring -b512 -d1 -s1 -c1 -p0 -F1 -B1 -n2 /dev/nvme1n1",
            "BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro quiet",
            "inflight=(1 1",
            "inflight=128 (128",
            "a=1 (2)x",
            "a=1b=2",
            "=3",
            "",
        ] {
            assert!(record(l).is_none_or(|(_, kv)| kv.is_empty()), "{l}");
        }
    }
}
