//! Units: a dimension and a scale, so that values can be converted before any
//! comparison and unconvertible mixes are refused rather than silently mixed.

use serde::{Deserialize, Serialize};
use smol_str::SmolStr;
use std::fmt;

/// The physical kind of a unit. Only units of the same dimension convert.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Dimension {
    /// Durations; base unit second.
    Time,
    /// Amounts of data; base unit byte.
    Bytes,
    /// Data per second; base unit byte/s.
    Bandwidth,
    /// Events per second (ops/s, tps, req/s); base unit 1/s.
    Rate,
    /// Percentages; base unit percent.
    Percent,
    /// CPU cycles.
    Cycles,
    /// Plain counts or unitless values.
    Count,
    /// Anything else: converts only to the identical spelling.
    Other(String),
}

/// A parsed unit: its normalised spelling, dimension and scale to the base unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// Normalised spelling, as stored in the `unit` column.
    pub spelling: String,
    /// What kind of quantity it measures.
    pub dimension: Dimension,
    /// Multiply a value in this unit by `scale` to get the base unit.
    pub scale: f64,
}

/// Multiplies `value` by `factor` as a person would shift the decimal point:
/// a power of ten moves the exponent of the value's shortest decimal form, so
/// 1346 ms becomes 1346000 us and 218.37 us 0.21837 ms, the very doubles those
/// texts parse to (a plain product or quotient rounds twice and is often one
/// unit in the last place off). A whole factor or the reciprocal of one
/// (1024, 1/60) multiplies or divides by that whole number; any other factor
/// multiplies as it is.
pub fn rescale(value: f64, factor: f64) -> f64 {
    const CLOSE: f64 = 1e-12;
    if factor == 1.0 || value == 0.0 || !value.is_finite() || factor <= 0.0 {
        return value * factor;
    }
    let decade = factor.log10().round();
    if (10f64.powf(decade) - factor).abs() <= factor * CLOSE {
        if let Some(shifted) = shift_decimal(value, decade as i32) {
            return shifted;
        }
    }
    if factor >= 1.0 {
        let whole = factor.round();
        if ((factor - whole) / whole).abs() < CLOSE {
            return value * whole;
        }
    } else {
        let inverse = 1.0 / factor;
        let whole = inverse.round();
        if ((inverse - whole) / whole).abs() < CLOSE {
            return value / whole;
        }
    }
    value * factor
}

/// `value` times 10^`by`, computed on its shortest decimal text.
fn shift_decimal(value: f64, by: i32) -> Option<f64> {
    let text = format!("{value:e}");
    let (mantissa, exponent) = text.split_once('e')?;
    let exponent: i32 = exponent.parse().ok()?;
    let shifted: f64 = format!("{mantissa}e{}", exponent.checked_add(by)?)
        .parse()
        .ok()?;
    shifted.is_finite().then_some(shifted)
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.spelling)
    }
}

const TIME: &[(&str, f64)] = &[
    ("ps", 1e-12),
    ("ns", 1e-9),
    ("us", 1e-6),
    ("ms", 1e-3),
    ("s", 1.0),
    ("min", 60.0),
    ("h", 3600.0),
];

const BYTES: &[(&str, f64)] = &[
    ("B", 1.0),
    // The SI spelling, the one `/proc/meminfo`, vmstat and most of the
    // kernel's debugfs counters print (`BdiDirtyThresh:  1346824 kB`).
    ("kB", 1e3),
    ("KB", 1e3),
    ("MB", 1e6),
    ("GB", 1e9),
    ("TB", 1e12),
    ("KiB", 1024.0),
    ("MiB", 1048576.0),
    ("GiB", 1073741824.0),
    ("TiB", 1099511627776.0),
    // iperf's and netperf's spelling, in powers of 1024 (`-f M` is
    // "MBytes", 2^20 bytes): what their reports print beside Mbits/sec.
    ("KBytes", 1024.0),
    ("MBytes", 1048576.0),
    ("GBytes", 1073741824.0),
    ("TBytes", 1099511627776.0),
];

impl Unit {
    /// Normalises the spelling of a unit as written by a harness: `µs`, `usec`
    /// and `microseconds` all become `us`; `[sec]` becomes `s`; surrounding
    /// brackets and whitespace go. Unknown spellings are kept as written.
    /// Returns a [`SmolStr`]: it runs once per observation read, and unit
    /// spellings are short enough to need no heap allocation.
    pub fn normalize_spelling(raw: &str) -> SmolStr {
        let t = raw
            .trim()
            .trim_start_matches(['(', '['])
            .trim_end_matches([')', ']'])
            .trim();
        // `kBps`, `MBps`: bytes a second written without the slash (bits,
        // `Mbps`, are another quantity and keep their spelling).
        let t = match t.strip_suffix("ps") {
            Some(bytes) if bytes.ends_with('B') && bytes.len() <= 3 => {
                return smol_str::format_smolstr!("{bytes}/s");
            }
            _ => t,
        };
        let (head, per) = match t.split_once('/') {
            Some((h, p)) if !h.is_empty() => (h, Some(p)),
            _ => (t, None),
        };
        let head_norm = match head {
            "µs" | "μs" | "usec" | "usecs" | "microsecond" | "microseconds" => "us",
            "nsec" | "nsecs" | "nanosecond" | "nanoseconds" => "ns",
            "msec" | "msecs" | "millisecond" | "milliseconds" => "ms",
            "sec" | "secs" | "second" | "seconds" => "s",
            "mins" | "minute" | "minutes" => "min",
            "bytes" | "byte" => "B",
            "percent" => "%",
            other => other,
        };
        match per {
            Some(p) => {
                let p = match p {
                    "sec" | "second" | "secs" => "s",
                    other => other,
                };
                smol_str::format_smolstr!("{head_norm}/{p}")
            }
            None => SmolStr::new(head_norm),
        }
    }

    /// Parses a unit spelling (any form accepted by [`Unit::normalize_spelling`]).
    /// Never fails: unknown units get [`Dimension::Other`].
    pub fn parse(raw: &str) -> Unit {
        let spelling = Unit::normalize_spelling(raw).to_string();
        let (dimension, scale) = Unit::classify(&spelling);
        Unit {
            spelling,
            dimension,
            scale,
        }
    }

    fn classify(s: &str) -> (Dimension, f64) {
        if s.is_empty() || matches!(s, "count" | "ops" | "x" | "times" | "iterations") {
            return (Dimension::Count, 1.0);
        }
        // A scale letter alone is how tables print thousands of IOPS or
        // operations (`155K`); the count is the same whether a reader kept
        // the letter as the unit or multiplied it out.
        match s {
            "K" | "k" => return (Dimension::Count, 1e3),
            "M" => return (Dimension::Count, 1e6),
            "G" => return (Dimension::Count, 1e9),
            _ => {}
        }
        if s == "%" {
            return (Dimension::Percent, 1.0);
        }
        if s == "cycles" || s == "cycles/op" {
            return (Dimension::Cycles, 1.0);
        }
        if let Some(&(_, f)) = TIME.iter().find(|(u, _)| *u == s) {
            return (Dimension::Time, f);
        }
        if let Some(&(_, f)) = BYTES.iter().find(|(u, _)| *u == s) {
            return (Dimension::Bytes, f);
        }
        if let Some((head, per)) = s.split_once('/') {
            // `ns/op`, `us/op`, `usecs/op`: time per operation, still a duration.
            if matches!(per, "op" | "iter" | "call") {
                if let Some(&(_, f)) = TIME.iter().find(|(u, _)| *u == head) {
                    return (Dimension::Time, f);
                }
                if let Some(&(_, f)) = BYTES.iter().find(|(u, _)| *u == head) {
                    return (Dimension::Bytes, f);
                }
                return (Dimension::Other(s.to_string()), 1.0);
            }
            if per == "s" {
                if let Some(&(_, f)) = BYTES.iter().find(|(u, _)| *u == head) {
                    return (Dimension::Bandwidth, f);
                }
                return (Dimension::Rate, rate_prefix(head).0);
            }
        }
        if matches!(s, "tps" | "qps" | "rps" | "Hz") {
            return (Dimension::Rate, 1.0);
        }
        // `iops` among them.
        if let Some((k, _)) = per_second_word(s) {
            return (Dimension::Rate, k);
        }
        (Dimension::Other(s.to_string()), 1.0)
    }

    /// True when values in `self` and `other` can be converted into each other.
    pub fn convertible(&self, other: &Unit) -> bool {
        match (&self.dimension, &other.dimension) {
            (Dimension::Other(_), _) | (_, Dimension::Other(_)) => self.spelling == other.spelling,
            // Rates of different things (tps vs req/s) are not the same quantity,
            // but a stated `K/s` vs `/s` of one thing is; require same event name.
            (Dimension::Rate, Dimension::Rate) => {
                rate_event(&self.spelling) == rate_event(&other.spelling)
            }
            // `2794K` in an IOPS column and `2794000 iops` are one value:
            // a scale letter alone counts whatever the rate counts.
            (Dimension::Count, Dimension::Rate) => {
                scale_letter(&self.spelling) && counts_operations(&other.spelling)
            }
            (Dimension::Rate, Dimension::Count) => {
                scale_letter(&other.spelling) && counts_operations(&self.spelling)
            }
            (a, b) => a == b,
        }
    }

    /// Converts `value` from `self` into `to`; `None` when not convertible.
    pub fn convert(&self, value: f64, to: &Unit) -> Option<f64> {
        if !self.convertible(to) {
            return None;
        }
        Some(rescale(value, self.scale / to.scale))
    }

    /// Picks a readable unit of the same dimension for `value` (e.g. 0.0123 s →
    /// 12.3 ms) and returns the scaled value and that unit's spelling. Units
    /// without a ladder are returned as they are.
    pub fn readable(&self, value: f64) -> (f64, String) {
        // Time or bytes per event (`ns/op`, `B/op`): the numerator scales
        // and the event stays (1.377e6 ns/op → 1.377 ms/op).
        if let Some((head, per)) = self.spelling.split_once('/') {
            let num = Unit::parse(head);
            let per_time = Unit::parse(per).dimension == Dimension::Time;
            if matches!(num.dimension, Dimension::Time | Dimension::Bytes)
                && !per_time
                && !per.is_empty()
                && !head.is_empty()
            {
                let (v, u) = num.readable(value);
                return (v, format!("{u}/{per}"));
            }
        }
        let ladder: &[(&str, f64)] = match self.dimension {
            Dimension::Time if !self.spelling.contains('/') => TIME,
            Dimension::Bytes if !self.spelling.contains('/') => BYTES,
            _ => return (value, self.spelling.clone()),
        };
        let base = value * self.scale;
        let decimal = !self.spelling.contains('i') && !self.spelling.contains("Bytes");
        let mut best = (value, self.spelling.clone());
        for (u, f) in ladder {
            // iperf's `MBytes` is read, never written.
            if matches!(*u, "ps" | "min" | "h")
                || u.ends_with("Bytes")
                || (self.dimension == Dimension::Bytes && decimal == u.contains('i'))
            {
                continue;
            }
            let v = base / f;
            if v.abs() >= 1.0 || base == 0.0 {
                best = (v, u.to_string());
                if base == 0.0 {
                    break;
                }
            }
        }
        best
    }
}

/// A count per second written as one word ending in `ps`, perhaps after
/// an SI prefix: `pps`, `Mpps` (packets), `Gbps`, `Mbps` (bits), `IOPS`,
/// `KIOPS`, `fps`, `cps`. Gives the prefix's factor and the counted thing;
/// only these counted things, so that no other word ending in `ps` is taken
/// for a rate.
fn per_second_word(s: &str) -> Option<(f64, &str)> {
    let head = s.strip_suffix("ps").or_else(|| s.strip_suffix("PS"))?;
    let mut chars = head.chars();
    let (k, event) = match chars.next().and_then(si_prefix) {
        Some(k) if head.len() > 1 => (k, chars.as_str()),
        _ => (1.0, head),
    };
    matches!(event, "p" | "b" | "io" | "IO" | "f" | "c").then_some((k, event))
}

/// The factor of a decimal prefix letter before a counted thing (`K`/`k`,
/// `M`, `G`, `T`): the one table of both spellings of rates, `Kpps` and
/// `Kops/s`.
fn si_prefix(letter: char) -> Option<f64> {
    match letter {
        'K' | 'k' => Some(1e3),
        'M' => Some(1e6),
        'G' => Some(1e9),
        'T' => Some(1e12),
        _ => None,
    }
}

/// Whether a unit is a scale letter alone (`K`, `M`, `G`).
fn scale_letter(spelling: &str) -> bool {
    matches!(spelling, "K" | "k" | "M" | "G")
}

/// Whether a rate counts operations, packets or frames (`iops`, `Kpps`,
/// `ops/s`, `tps`), not bits, whose thousands a bare `K` does not state.
fn counts_operations(spelling: &str) -> bool {
    rate_event(spelling) != "b"
}

/// The counted thing of a rate unit: `ops` for `ops/s`, `Kops` → `ops`.
fn rate_event(spelling: &str) -> String {
    if let Some((_, event)) = per_second_word(spelling) {
        return event.to_ascii_lowercase();
    }
    match spelling {
        "tps" => "transactions".into(),
        "qps" => "queries".into(),
        "rps" => "requests".into(),
        "Hz" => "".into(),
        s => {
            let head = rate_prefix(s.split('/').next().unwrap_or("")).1;
            // `Gbits/sec` and `Mbit/s` count one thing.
            match head {
                "bits" => "bit".to_string(),
                other => other.to_string(),
            }
        }
    }
}

/// The SI prefix of what a rate counts (`Kops`, `Mbits`, `Gbit`) as a
/// factor, and the counted thing. Only before things that are counted
/// this way: `Messages/s`, `Misses/sec` and `Gets/sec` are words, not
/// millions of `essages`.
fn rate_prefix(head: &str) -> (f64, &str) {
    let Some(factor) = head.chars().next().and_then(si_prefix) else {
        return (1.0, head);
    };
    let rest = &head[1..];
    let counted = matches!(
        rest,
        "bit"
            | "bits"
            | "b"
            | "op"
            | "ops"
            | "Ops"
            | "req"
            | "reqs"
            | "pkt"
            | "pkts"
            | "packets"
            | "msg"
            | "msgs"
            | "events"
            | "calls"
            | "iops"
            | "IOPS"
            | "frames"
            | "flows"
            | "conns"
            | "lookups"
            | "hashes"
            | "keys"
            | "rows"
            | "samples"
    );
    if counted {
        (factor, rest)
    } else {
        (1.0, head)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iperf_s_bytes_are_powers_of_1024_and_never_chosen_to_write() {
        let m = Unit::parse("MBytes");
        assert_eq!(m.convert(26.9, &Unit::parse("MiB")), Some(26.9));
        assert_eq!(
            Unit::parse("GBytes").convert(1.0, &Unit::parse("MBytes")),
            Some(1024.0)
        );
        assert_eq!(Unit::parse("MBytes/sec").dimension, Dimension::Bandwidth);
        assert_eq!(Unit::parse("B").readable(5e6), (5.0, "MB".to_string()));
        assert_eq!(m.readable(2048.0), (2.0, "GiB".to_string()));
    }

    #[test]
    fn bit_rates_convert_across_prefixes_and_words_keep_their_letters() {
        let g = Unit::parse("Gbits/sec");
        let m = Unit::parse("Mbit/s");
        assert_eq!(g.convert(46.5, &m), Some(46500.0));
        assert_eq!(
            Unit::parse("Kops/s").convert(2.0, &Unit::parse("ops/s")),
            Some(2000.0)
        );
        assert_eq!(
            Unit::parse("Tbits/s").convert(1.0, &Unit::parse("Gbit/s")),
            Some(1000.0)
        );
        // Words that begin with a prefix letter are what they count.
        for word in ["Messages/s", "Misses/sec", "Gets/sec", "Transactions/s"] {
            let u = Unit::parse(word);
            assert_eq!(u.scale, 1.0, "{word}");
            assert!(!u.convertible(&Unit::parse("ops/s")), "{word}");
        }
        assert!(!Unit::parse("Messages/s").convertible(&Unit::parse("essages/s")));
    }

    #[test]
    fn rescaling_by_powers_of_ten_matches_reading_the_shifted_text() {
        assert_eq!(rescale(1346.0, 1e3), 1346000.0);
        assert_eq!(rescale(218.37, 1e-3), "0.21837".parse::<f64>().unwrap());
        assert_eq!(rescale(1.1, 1e3), 1100.0);
        let ms = Unit::parse("ms");
        let us = Unit::parse("us");
        assert_eq!(ms.convert(1346.0, &us), Some(1346000.0));
        assert_eq!(us.convert(1346.0, &ms), Some(1.346));
        // Every value written with up to four decimals, both ways.
        for i in 0..20000u32 {
            let text = format!("{}.{:04}", i / 7, (i * 7919) % 10000);
            let v: f64 = text.parse().unwrap();
            assert_eq!(rescale(v, 1e3), format!("{text}e3").parse::<f64>().unwrap());
            assert_eq!(
                rescale(v, 1e-6),
                format!("{text}e-6").parse::<f64>().unwrap()
            );
        }
    }

    #[test]
    fn rescaling_by_other_factors_uses_the_whole_number_in_them() {
        assert_eq!(rescale(3.0, 1.0 / 1024.0), 3.0 / 1024.0);
        assert_eq!(rescale(90.0, 1.0 / 60.0), 1.5);
        assert_eq!(rescale(2.5, 60.0), 150.0);
        assert_eq!(rescale(2.0, 0.3), 2.0 * 0.3);
        assert!(rescale(f64::NAN, 1e3).is_nan());
        assert_eq!(rescale(f64::INFINITY, 1e-3), f64::INFINITY);
        assert_eq!(rescale(1e308, 1e3), f64::INFINITY);
        assert_eq!(rescale(-0.5, 1e-3), -0.0005);
    }

    #[test]
    fn per_second_words_are_rates_with_their_prefix() {
        let mpps = Unit::parse("Mpps");
        assert_eq!(mpps.dimension, Dimension::Rate);
        assert_eq!(mpps.convert(15.55, &Unit::parse("Kpps")), Some(15_550.0));
        assert_eq!(
            Unit::parse("Gbps").convert(1.0, &Unit::parse("Mbps")),
            Some(1000.0)
        );
        assert!(!Unit::parse("Mpps").convertible(&Unit::parse("Mbps")));
        assert_eq!(
            Unit::parse("Tbps").convert(1.5, &Unit::parse("Gbps")),
            Some(1500.0)
        );
        assert_eq!(
            Unit::parse("IOPS").convert(2.0, &Unit::parse("KIOPS")),
            Some(0.002)
        );
        // A scale letter alone counts what a rate of operations counts.
        assert_eq!(
            Unit::parse("K").convert(2794.0, &Unit::parse("iops")),
            Some(2_794_000.0)
        );
        assert_eq!(
            Unit::parse("iops").convert(2.62e6, &Unit::parse("M")),
            Some(2.62)
        );
        assert_eq!(
            Unit::parse("M").convert(1.5, &Unit::parse("Kops/s")),
            Some(1500.0)
        );
        assert!(!Unit::parse("K").convertible(&Unit::parse("Mbps")));
        assert!(!Unit::parse("").convertible(&Unit::parse("iops")));
        // Picoseconds stay time; other words ending in `ps` are not rates.
        assert_eq!(Unit::parse("ps").dimension, Dimension::Time);
        assert!(matches!(
            Unit::parse("steps").dimension,
            Dimension::Other(_)
        ));
        assert!(matches!(Unit::parse("laps").dimension, Dimension::Other(_)));
    }

    #[test]
    fn a_scale_letter_is_a_count_in_thousands_or_millions() {
        assert_eq!(
            Unit::parse("K").convert(93.0, &Unit::parse("")),
            Some(93_000.0)
        );
        assert_eq!(
            Unit::parse("k").convert(1.5, &Unit::parse("")),
            Some(1_500.0)
        );
        assert_eq!(
            Unit::parse("M").convert(59.08, &Unit::parse("K")),
            Some(59_080.0)
        );
        assert!(!Unit::parse("K").convertible(&Unit::parse("KB")));
    }

    #[test]
    fn spellings_normalise() {
        assert_eq!(Unit::normalize_spelling("µs"), "us");
        assert_eq!(Unit::normalize_spelling("μs"), "us");
        assert_eq!(Unit::normalize_spelling("usecs/op"), "us/op");
        assert_eq!(Unit::normalize_spelling("[sec]"), "s");
        assert_eq!(Unit::normalize_spelling("(ms)"), "ms");
        assert_eq!(Unit::normalize_spelling("MB/sec"), "MB/s");
        assert_eq!(Unit::normalize_spelling("furlongs"), "furlongs");
    }

    #[test]
    fn time_converts_across_scales() {
        let ms = Unit::parse("ms");
        let us = Unit::parse("µs");
        assert_eq!(ms.convert(1.5, &us), Some(1500.0));
        let v = Unit::parse("ns/op")
            .convert(2000.0, &Unit::parse("us/op"))
            .unwrap();
        assert!((v - 2.0).abs() < 1e-12);
        let ks = Unit::parse("KiB").convert(2.0, &Unit::parse("B")).unwrap();
        assert_eq!(ks, 2048.0);
    }

    #[test]
    fn mixes_that_cannot_convert_are_refused() {
        assert_eq!(Unit::parse("ms").convert(1.0, &Unit::parse("MB")), None);
        assert_eq!(Unit::parse("tps").convert(1.0, &Unit::parse("req/s")), None);
        assert_eq!(
            Unit::parse("furlongs").convert(1.0, &Unit::parse("s")),
            None
        );
        assert_eq!(
            Unit::parse("furlongs").convert(3.0, &Unit::parse("furlongs")),
            Some(3.0)
        );
        assert_eq!(
            Unit::parse("Kops/s").convert(1.0, &Unit::parse("ops/s")),
            Some(1000.0)
        );
        assert_eq!(
            Unit::parse("MB/s").convert(1.0, &Unit::parse("KB/s")),
            Some(1000.0)
        );
        // meminfo's and debugfs's spelling is a size, and per second a rate.
        assert_eq!(Unit::parse("kB").dimension, Dimension::Bytes);
        assert_eq!(
            Unit::parse("MB").convert(1.0, &Unit::parse("kB")),
            Some(1000.0)
        );
        assert_eq!(Unit::parse("kB/s").dimension, Dimension::Bandwidth);
        assert_eq!(Unit::normalize_spelling("kBps"), "kB/s");
        assert_eq!(Unit::normalize_spelling("MiBps"), "MiB/s");
        assert_eq!(Unit::normalize_spelling("Mbps"), "Mbps");
    }

    #[test]
    fn readable_picks_a_sensible_scale() {
        let (v, u) = Unit::parse("s").readable(0.0123);
        assert!((v - 12.3).abs() < 1e-9, "{v}");
        assert_eq!(u, "ms");
        let (v, u) = Unit::parse("us").readable(4_200_000.0);
        assert!((v - 4.2).abs() < 1e-9);
        assert_eq!(u, "s");
        let (v, u) = Unit::parse("ns/op").readable(1_377_000.0);
        assert_eq!(u, "ms/op");
        assert!((v - 1.377).abs() < 1e-12);
        let (_, u) = Unit::parse("B/op").readable(2048.0);
        assert_eq!(u, "KB/op");
        // A rate keeps its unit.
        let (_, u) = Unit::parse("MB/s").readable(2_000_000.0);
        assert_eq!(u, "MB/s");
        let (_, u) = Unit::parse("tps").readable(5.0);
        assert_eq!(u, "tps");
    }
}
