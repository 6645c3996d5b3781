//! `key: value` pairs, and whether a pair is a measurement or an
//! attribute.

use super::known_unit;
use super::Pair;
use crate::ingest::shared::numbers::parse_number;
use crate::model::Unit;

/// `key: value[unit]` pairs covering the whole line (`Time: 2.978`,
/// `pert/s: 229 >5484.43us: 41 min: 0.15 …`, `Iterations=5000`).
pub fn pairs(text: &str) -> Option<Vec<Pair>> {
    // The first key decides most lines (prose, table rows): checked on the
    // text itself before it is split into characters.
    let sep = memchr::memchr2(b':', b'=', text.as_bytes())?;
    if !valid_key(text[..sep].trim()) {
        return None;
    }
    // Spans are character columns; in ASCII text (nearly every line) those
    // are bytes, and the text needs no copy into characters.
    if text.is_ascii() {
        pairs_in(text.as_bytes(), |a, b| text[a..b].to_string())
    } else {
        let c: Vec<char> = text.chars().collect();
        pairs_in(&c, |a, b| c[a..b].iter().collect())
    }
}

/// A character of a line: a `char`, or a byte of an ASCII line (which is
/// the same character).
pub(super) trait Sym: Copy {
    fn ch(self) -> char;
}

/// [`pairs`] over the characters `c` of a line; `sub(a, b)` is the text of
/// characters `a..b`.
pub(super) fn pairs_in<T: Sym>(c: &[T], sub: impl Fn(usize, usize) -> String) -> Option<Vec<Pair>> {
    let n = c.len();
    let mut i = 0;
    let mut out = Vec::new();
    let skip_ws = |i: &mut usize| {
        while *i < n && c[*i].ch().is_whitespace() {
            *i += 1;
        }
    };
    skip_ws(&mut i);
    while i < n {
        let kstart = i;
        while i < n && c[i].ch() != ':' && c[i].ch() != '=' {
            i += 1;
        }
        if i == n {
            return None;
        }
        let key: String = sub(kstart, i).trim().to_string();
        if !valid_key(&key) {
            return None;
        }
        i += 1;
        skip_ws(&mut i);
        // `~1.7Mpps`: a value stated as approximate is still the value.
        if i + 1 < n && c[i].ch() == '~' && c[i + 1].ch().is_ascii_digit() {
            i += 1;
        }
        let (value, unit, (vstart, vend), next) = value_at(c, i, &sub)?;
        i = next;
        // `Run time (s): 10.000256`: the unit the key states is the bare
        // value's, and the key is named without it.
        let (key, unit) = match unit_suffix(&key) {
            Some((base, u)) if unit.is_empty() => (base.to_string(), u.to_string()),
            _ => (key, unit),
        };
        let first = out.len();
        let has_unit = !unit.is_empty();
        out.push(Pair {
            key: key.clone(),
            value,
            unit: Unit::normalize_spelling(&unit).to_string(),
            span: (vstart, vend),
        });
        // More values with units of their own after one key (`tx: 0 bps
        // 0 pps rx: …`): each named by the key and what its unit counts.
        if has_unit {
            while let Some((value, unit, span, next)) = unit_value(c, i, &sub) {
                out.push(Pair {
                    key: key.clone(),
                    value,
                    unit,
                    span,
                });
                i = next;
                skip_ws(&mut i);
            }
            if out.len() - first > 1 {
                for p in &mut out[first..] {
                    p.key = format!("{key} {}", unprefixed(&p.unit));
                }
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

/// A value with a unit of its own (glued or after a space) starting at
/// `i`, with its span and where reading goes on; `None` when what is there
/// is anything else, the next key among it.
fn unit_value<T: Sym>(
    c: &[T],
    i: usize,
    sub: &impl Fn(usize, usize) -> String,
) -> Option<(f64, String, (usize, usize), usize)> {
    let digit = i < c.len() && (c[i].ch().is_ascii_digit() || c[i].ch() == '.');
    let (value, unit, span, next) = value_at(c, i, sub).filter(|_| digit)?;
    (!unit.is_empty()).then(|| {
        (
            value,
            Unit::normalize_spelling(&unit).to_string(),
            span,
            next,
        )
    })
}

/// The value starting at `i` (a sign, digits with `.` and `,`) and its
/// unit, glued or after a space unless that word is the next key: the
/// value, the unit as written, the value's span and where reading goes on
/// (past the spaces after it). `None` when no value stands there, or a
/// word glued to it is no unit.
fn value_at<T: Sym>(
    c: &[T],
    mut i: usize,
    sub: &impl Fn(usize, usize) -> String,
) -> Option<(f64, String, (usize, usize), usize)> {
    let n = c.len();
    let skip_ws = |i: &mut usize| {
        while *i < n && c[*i].ch().is_whitespace() {
            *i += 1;
        }
    };
    let vstart = i;
    if i < n && (c[i].ch() == '+' || c[i].ch() == '-') {
        i += 1;
    }
    let dstart = i;
    while i < n && (c[i].ch().is_ascii_digit() || c[i].ch() == '.' || c[i].ch() == ',') {
        i += 1;
    }
    if i == dstart || !c[dstart].ch().is_ascii_digit() && c[dstart].ch() != '.' {
        return None;
    }
    let num = sub(vstart, i);
    let value = parse_number(&num)?;
    let ustart = i;
    while i < n && (c[i].ch().is_alphabetic() || c[i].ch() == '%' || c[i].ch() == '/') {
        i += 1;
    }
    let mut unit = sub(ustart, i);
    if i < n && !c[i].ch().is_whitespace() {
        return None;
    }
    if !unit.is_empty() && !known_unit(&unit) {
        return None;
    }
    let mut vend = i;
    skip_ws(&mut i);
    if unit.is_empty() && i < n {
        // A unit after a space, unless that word is the next key.
        let tstart = i;
        let mut j = i;
        while j < n && !c[j].ch().is_whitespace() && c[j].ch() != ':' && c[j].ch() != '=' {
            j += 1;
        }
        let next_is_sep = j < n && (c[j].ch() == ':' || c[j].ch() == '=');
        if !next_is_sep {
            let tok = sub(tstart, j);
            if known_unit(&tok) {
                unit = tok;
                vend = j;
                i = j;
                skip_ws(&mut i);
            }
        }
    }
    Some((value, unit, (vstart, vend), i))
}

/// A unit without its SI prefix (`Mbps` → `bps`, `Kpps` → `pps`, `MiB/s`
/// → `B/s`), so that values of one key name the same series from line to
/// line whatever prefix each was printed with.
fn unprefixed(unit: &str) -> &str {
    for skip in [2, 1] {
        let Some(rest) = unit.get(skip..) else {
            continue;
        };
        let prefix = &unit[..skip];
        let si = matches!(
            prefix,
            "k" | "K" | "M" | "G" | "T" | "Ki" | "Mi" | "Gi" | "Ti"
        );
        if si
            && !rest.is_empty()
            && known_unit(rest)
            && Unit::parse(rest).convertible(&Unit::parse(unit))
        {
            return rest;
        }
    }
    unit
}

/// A load generator's record line, `key=value` items separated by commas
/// (`IOPS=254820, BW=124MiB/s, IOS/call=1/1, inflight=(1 1)`), which
/// [`pairs`] refuses for its commas and its values that are no number: the
/// numeric items with a unit [`known_unit`] knows, or a bare scale letter
/// (`59.08M`, kept as written). Two items at least, and one of them a
/// measurement; kernel options (`CONFIG_HZ=250 CONFIG_NR_CPUS=64`) are no
/// results.
pub fn records(text: &str) -> Option<Vec<Pair>> {
    let (items, kv) = crate::ingest::shared::keyvals::record(text)?;
    if items < 2 || kv.iter().any(|k| k.key.starts_with("CONFIG_")) {
        return None;
    }
    let column = |byte: usize| {
        if text.is_ascii() {
            byte
        } else {
            text[..byte].chars().count()
        }
    };
    let out: Vec<Pair> = kv
        .into_iter()
        .filter(|k| k.unit.is_empty() || known_unit(k.unit) || is_scale(k.unit))
        .map(|k| Pair {
            key: k.key.to_string(),
            value: k.value,
            unit: Unit::normalize_spelling(k.unit).to_string(),
            span: (column(k.span.0), column(k.span.1)),
        })
        .collect();
    out.iter().any(is_measurement).then_some(out)
}

/// A count's scale letter written after the number (`1.85M IOPS`).
fn is_scale(u: &str) -> bool {
    matches!(u, "k" | "K" | "M" | "G")
}

/// True when a lone `key: value` line is a measurement rather than an
/// attribute (`CPU family: 6`, `Model: 106`): it has a unit, names a
/// measurement, or states a summary (`avg`, `Iterations`).
pub fn is_measurement(p: &Pair) -> bool {
    let k = p.key.to_lowercase();
    !p.unit.is_empty()
        || MEASURE_WORDS.iter().any(|w| k.contains(w))
        || k.parse::<crate::model::Stat>().is_ok()
}

/// A key ending in its unit between parentheses (`Run time (s)`,
/// `Latency StdDev (s)`, `Throughput (MB/s)`): the key before it and the
/// unit. Only a known unit set apart by a space: `Setup (fast)` keeps its
/// parentheses, and `CPU(s)` (lscpu's plural) is no key in seconds.
pub(super) fn unit_suffix(key: &str) -> Option<(&str, &str)> {
    let (base, unit) = key.strip_suffix(')')?.rsplit_once('(')?;
    if !base.ends_with(char::is_whitespace) {
        return None;
    }
    let (base, unit) = (base.trim_end(), unit.trim());
    let bare = !unit.contains(['(', ')', ',', ' ']) && !base.contains(['(', ')']);
    (!base.is_empty() && bare && known_unit(unit)).then_some((base, unit))
}

pub(super) fn valid_key(key: &str) -> bool {
    let key = unit_suffix(key).map_or(key, |(base, _)| base);
    // Every line holding `:` or `=` has its first key tested (a Go log's
    // `Benchmark…/n=10` result lines included): ASCII keys, nearly all of
    // them, are settled in one pass over their bytes.
    if key.is_ascii() {
        return valid_ascii_key(key.as_bytes());
    }
    valid_key_chars(key)
}

/// [`valid_key`] of an ASCII key, in one pass: a key of ASCII has one
/// character per byte, and its whitespace is what `char::is_whitespace`
/// calls whitespace among ASCII characters (vertical tab included).
pub(super) fn valid_ascii_key(key: &[u8]) -> bool {
    const LONGEST: usize = 32;
    const LONGEST_BUCKET: usize = 16;
    let bucket_start = key.first() == Some(&b'>');
    if key.is_empty() || key.len() > LONGEST {
        return false;
    }
    let (mut words, mut in_word, mut space, mut excluded) = (0, false, false, false);
    for &b in key {
        let ws = matches!(b, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r');
        words += usize::from(!ws && !in_word);
        in_word = !ws;
        space |= b == b' ';
        excluded |= matches!(
            b,
            b',' | b'<' | b'>' | b'(' | b')' | b'[' | b']' | b'"' | b'\''
        );
    }
    // At most 32 bytes: a window scan costs less than a searcher's set-up.
    let config = key.windows(7).any(|w| w == b"CONFIG_");
    let plain = words <= 4 && !excluded && !config;
    let bucket = bucket_start && key.len() <= LONGEST_BUCKET && !space;
    plain || bucket
}

/// [`valid_key`] of any key, character by character.
pub(super) fn valid_key_chars(key: &str) -> bool {
    let plain = !key.is_empty()
        && key.chars().count() <= 32
        && key.split_whitespace().count() <= 4
        && !key.contains([',', '<', '>', '(', ')', '[', ']', '"', '\''])
        // Kernel .config lines are settings, not measurements.
        && !key.contains("CONFIG_");
    // `>5484.43us:` is a histogram-bucket key: the line is read, the key is not.
    let bucket = key.starts_with('>') && key.chars().count() <= 16 && !key.contains(' ');
    plain || bucket
}

impl Sym for u8 {
    fn ch(self) -> char {
        char::from(self)
    }
}

impl Sym for char {
    fn ch(self) -> char {
        self
    }
}

/// Key words that name a measurement.
pub(super) const MEASURE_WORDS: &[&str] = &[
    "time",
    "latency",
    "duration",
    "throughput",
    "bandwidth",
    "tps",
    "ops",
    "rate",
    "score",
    "elapsed",
    "runtime",
    "speed",
    "iops",
    "cycles",
    "overhead",
    "/s",
    "per sec",
    "wall",
    "real",
    "user",
    "sys",
];
