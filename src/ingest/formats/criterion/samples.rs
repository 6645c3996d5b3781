//! A Criterion `sample.json`: its two columns (iterations and total times
//! per sample), read in either of the forms Criterion has written, by the
//! cheapest reader that accepts the file.

use crate::error::Result;
use crate::ingest::shared::structured::parse_json;
use crate::ingest::Source;
use serde::Deserialize;

/// `sample.json`: current object form or the older `[[iters…],[times…]]`.
#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum Sample {
    Current { iters: Vec<f64>, times: Vec<f64> },
    Old((Vec<f64>, Vec<f64>)),
}

/// The two columns of a `sample.json`, whichever form it has.
pub(super) struct Samples {
    pub(super) iters: Vec<f64>,
    pub(super) times: Vec<f64>,
}

impl<'de> Deserialize<'de> for Samples {
    /// Reads either form straight from the parser. The derived untagged
    /// [`Sample`] buffers the whole document in serde's generic content
    /// tree first and then reads it again: most of the cost of a
    /// Criterion tree.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        use serde::de::{Error as _, IgnoredAny, MapAccess, SeqAccess, Visitor};
        struct Either;
        impl<'de> Visitor<'de> for Either {
            type Value = Samples;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("Criterion samples")
            }

            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<Samples, A::Error> {
                let (mut iters, mut times) = (None, None);
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    // The second column gets room for as many as the first.
                    let room = iters.as_ref().or(times.as_ref()).map_or(SAMPLES, Vec::len);
                    let slot = match key.as_ref() {
                        "iters" => &mut iters,
                        "times" => &mut times,
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                            continue;
                        }
                    };
                    if slot.is_some() {
                        return Err(A::Error::custom("duplicate field"));
                    }
                    *slot = Some(map.next_value_seed(Floats(room))?);
                }
                match (iters, times) {
                    (Some(iters), Some(times)) => Ok(Samples { iters, times }),
                    _ => Err(A::Error::custom("missing field")),
                }
            }

            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<Samples, A::Error> {
                let iters = seq.next_element_seed(Floats(SAMPLES))?;
                let room = iters.as_ref().map_or(SAMPLES, Vec::len);
                let times = seq.next_element_seed(Floats(room))?;
                match (iters, times, seq.next_element::<IgnoredAny>()?) {
                    (Some(iters), Some(times), None) => Ok(Samples { iters, times }),
                    _ => Err(A::Error::custom("invalid length")),
                }
            }
        }
        d.deserialize_any(Either)
    }
}

/// Criterion's default sample count: a column's room before it is read.
const SAMPLES: usize = 100;

/// A column of numbers read into a vector with room for this many from the
/// start (serde's own `Vec` grows from nothing: five regrowths and copies
/// per column of 100).
struct Floats(usize);

impl<'de> serde::de::DeserializeSeed<'de> for Floats {
    type Value = Vec<f64>;

    fn deserialize<D: serde::Deserializer<'de>>(
        self,
        d: D,
    ) -> std::result::Result<Vec<f64>, D::Error> {
        use serde::de::{SeqAccess, Visitor};
        struct Column(usize);
        impl<'de> Visitor<'de> for Column {
            type Value = Vec<f64>;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a sequence")
            }

            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<Vec<f64>, A::Error> {
                let mut v = Vec::with_capacity(self.0);
                while let Some(x) = seq.next_element()? {
                    v.push(x);
                }
                Ok(v)
            }
        }
        d.deserialize_seq(Column(self.0))
    }
}

/// The samples of a `sample.json`. Anything the direct reader refuses is
/// read again the derived way, so that a malformed file is reported
/// exactly as before (and a form only that accepts is still read).
pub(super) fn read_samples(src: &Source) -> Result<Samples> {
    if let Ok(s) = samples_direct(src.raw.trim_start_matches('\u{feff}')) {
        return Ok(s);
    }
    let sample: Sample = parse_json(src, "Criterion sample.json")?;
    Ok(match sample {
        Sample::Current { iters, times } => Samples { iters, times },
        Sample::Old((iters, times)) => Samples { iters, times },
    })
}

/// [`Samples`] read straight from the text. serde_json's own number
/// reading is cheaper than [`crate::ingest::shared::structured::Cursor`]'s for short
/// arrays of short decimals (263M against 297M instructions for the
/// 4,000 sample files of a 2,000-benchmark tree).
pub(super) fn samples_direct(text: &str) -> serde_json::Result<Samples> {
    serde_json::from_str::<Samples>(text)
}

/// [`Samples`] of a `sample.json` laid out exactly as Criterion writes it,
/// `{"sampling_mode":"…","iters":[…],"times":[…]}` with plain decimals,
/// read by a scan made for it; `None` for anything else (other layouts,
/// spaces, exponents, signs, long numbers), which [`samples_direct`] reads.
/// A plain decimal of significand m < 2⁵³ with k ≤ 22 fraction digits is
/// m / 10ᵏ, both exact in f64, so one division gives the correctly rounded
/// value, which is what serde_json computes too (as m, then m / 10ᵏ).
pub(super) fn samples_plain(text: &str) -> Option<Samples> {
    let rest = text.as_bytes().strip_prefix(b"{\"sampling_mode\":\"")?;
    let end = memchr::memchr2(b'"', b'\\', rest)?;
    let rest = rest[end..].strip_prefix(b"\",\"iters\":")?;
    let (iters, rest) = plain_numbers(rest, SAMPLES)?;
    let rest = rest.strip_prefix(b",\"times\":")?;
    let (times, rest) = plain_numbers(rest, iters.len())?;
    let rest = rest.strip_prefix(b"}")?;
    rest.iter()
        .all(|b| matches!(b, b' ' | b'\n' | b'\r' | b'\t'))
        .then_some(Samples { iters, times })
}

/// A JSON array of plain decimals (`12`, `4171.1`; no sign, exponent or
/// leading zero) at the start of `text`, and the text after it.
fn plain_numbers(text: &[u8], room: usize) -> Option<(Vec<f64>, &[u8])> {
    const POW10: [f64; 23] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ];
    const EXACT: u64 = 1 << 53;
    let mut rest = text.strip_prefix(b"[")?;
    let mut out = Vec::with_capacity(room);
    if let Some(after) = rest.strip_prefix(b"]") {
        return Some((out, after));
    }
    loop {
        let (mut m, mut i) = (0u64, 0);
        while let Some(&c) = rest.get(i).filter(|c| c.is_ascii_digit()) {
            m = m * 10 + (c - b'0') as u64;
            i += 1;
            if m >= EXACT {
                return None;
            }
        }
        // At least one digit, and no leading zero (which JSON forbids).
        if i == 0 || (i > 1 && rest[0] == b'0') {
            return None;
        }
        let mut k = 0;
        if rest.get(i) == Some(&b'.') {
            i += 1;
            while let Some(&c) = rest.get(i).filter(|c| c.is_ascii_digit()) {
                m = m * 10 + (c - b'0') as u64;
                i += 1;
                k += 1;
                if m >= EXACT || k >= POW10.len() {
                    return None;
                }
            }
            if k == 0 {
                return None;
            }
        }
        out.push(if k == 0 {
            m as f64
        } else {
            m as f64 / POW10[k]
        });
        match rest.get(i) {
            Some(b',') => rest = &rest[i + 1..],
            Some(b']') => return Some((out, &rest[i + 1..])),
            _ => return None,
        }
    }
}
