//! The blocks stress-ng prints beside its metrics table: `--perf`'s
//! counters under a `<stressor>:` line, the tables some stressors
//! print of their own (the hash stressor's `hash: <method> <hashes/sec>
//! <chi squared>` rows under a header of the same prefix), and the cyclic
//! stressor's latency summary (`cyclic:   mean: 18648.37 ns, mode: 16022
//! ns`, `min: …, max: …, std.dev. …`, then `25.00%:  16416 ns` lines),
//! and `--times`' CPU time of the whole run (`1.57s system time ( 39.21%)`),
//! and the per-stressor blocks of `--rapl` (` core  6.11 W`, the harmonic
//! mean power of a RAPL domain over the instances) and `--c-states`
//! (` C1E  0.01%`, the residency of an idle state), one `name value unit`
//! line each under the `<stressor>:` line.

use crate::ingest::shared::logscan::lazy_re;
use crate::model::Stat;

lazy_re!(
    TIMES,
    r"^(\d+(?:\.\d+)?)s\s+([a-zA-Z][a-zA-Z ]*?)\s*(?:\(\s*[\d.]+%\s*\))?$"
);

/// One line of `--times`' block (`169.44s system time (  8.82%)`): the
/// seconds and what they are (`system time`). The share of the available
/// CPU time in brackets is the ratio of two of the block's values, so it
/// is not kept.
pub(super) fn cpu_time(text: &str) -> Option<(f64, String)> {
    let c = TIMES.captures(text.trim())?;
    Some((c[1].parse().ok()?, c[2].to_string()))
}

lazy_re!(
    PERF,
    r"^(\d+)\s+([A-Za-z][A-Za-z0-9 ./()-]*?)\s+([\d.]+) ?([KMB]?)/sec$"
);

/// One `--perf` counter: its count, event name (lowercase) and rate per
/// second (`45.003 K/sec` is 45003; stress-ng's `B` is a billion).
pub(super) fn perf_counter(text: &str) -> Option<(f64, String, f64)> {
    let c = PERF.captures(text.trim())?;
    let count: f64 = c[1].parse().ok()?;
    let rate: f64 = c[3].parse().ok()?;
    let scale = match &c[4] {
        "K" => 1e3,
        "M" => 1e6,
        "B" => 1e9,
        _ => 1.0,
    };
    Some((
        count,
        c[2].trim().to_ascii_lowercase(),
        crate::model::rescale(rate, scale),
    ))
}

lazy_re!(
    NAMED,
    r"^([A-Za-z][A-Za-z0-9_.-]*)\s+(\d+(?:\.\d+)?)\s*(%|[A-Za-z]+(?:/[A-Za-z]+)?)$"
);

/// One `name value unit` line of a block under a `<stressor>:` line
/// (`--rapl`'s ` pkg-0  8.20 W`, `--c-states`' ` C0  99.98%`): the name
/// as printed (as the `-Y` file keys it), the value and its unit.
pub(super) fn named_value(text: &str) -> Option<(String, f64, String)> {
    let c = NAMED.captures(text.trim())?;
    Some((c[1].to_string(), c[2].parse().ok()?, c[3].to_string()))
}

/// The column names of a stressor's own table from its header (`hash
/// hashes/sec chi squared` heading two value columns): the words after
/// the first, the surplus joined into the last name.
pub(super) fn own_columns(header: &str, values: usize) -> Option<Vec<String>> {
    let words: Vec<&str> = header.split_whitespace().skip(1).collect();
    if values == 0 || words.len() < values {
        return None;
    }
    let mut names: Vec<String> = words[..values - 1].iter().map(|w| w.to_string()).collect();
    names.push(words[values - 1..].join(" "));
    Some(names)
}

/// The unit a column name states (`hashes/sec` is `hashes/s`), or none.
pub(super) fn column_unit(name: &str) -> String {
    match name.strip_suffix("/sec") {
        Some(what) if !what.is_empty() => format!("{what}/s"),
        _ => String::new(),
    }
}

lazy_re!(CYCLIC_PART, r"^([a-z.]+):?\s+([\d.]+)(?:\s*(ns|us|ms))?$");
lazy_re!(CYCLIC_PCT, r"^([\d.]+)%:\s+([\d.]+)\s*(ns|us|ms)$");
lazy_re!(CYCLIC_HEAD, r"^sched \S+: .*?(\d+) samples$");

/// What one line of the cyclic stressor's latency block holds: the
/// statistics of the latency it measured, or the heading of the block
/// (`Some(empty)`). `mode` is no statistic the table has a place for: it
/// is its own metric, `latency mode`. `None` for any other line.
pub(super) fn cyclic_latency(text: &str) -> Option<Vec<(&'static str, Stat, f64, String)>> {
    let t = text.trim();
    if t == "latency percentiles:" {
        return Some(Vec::new());
    }
    if let Some(c) = CYCLIC_HEAD.captures(t) {
        let n: f64 = c[1].parse().ok()?;
        return Some(vec![("latency", Stat::N, n, String::new())]);
    }
    if let Some(c) = CYCLIC_PCT.captures(t) {
        let p: f64 = c[1].parse().ok()?;
        let v: f64 = c[2].parse().ok()?;
        return Some(vec![("latency", Stat::percentile(p), v, c[3].to_string())]);
    }
    let mut out = Vec::new();
    for part in t.split(',') {
        let c = CYCLIC_PART.captures(part.trim())?;
        let v: f64 = c[2].parse().ok()?;
        // `std.dev.` is printed without a unit: that of the mean beside it.
        let unit = c.get(3).map_or("ns", |u| u.as_str()).to_string();
        let (metric, stat) = match &c[1] {
            "mean" => ("latency", Stat::Mean),
            "min" => ("latency", Stat::Min),
            "max" => ("latency", Stat::Max),
            "std.dev." | "std.dev" => ("latency", Stat::Stddev),
            "mode" => ("latency mode", Stat::Sample),
            _ => return None,
        };
        out.push((metric, stat, v, unit));
    }
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perf_counters_and_own_tables() {
        assert_eq!(
            perf_counter("     90210 Page Faults Total             45.003 K/sec"),
            Some((90210.0, "page faults total".into(), 45003.0))
        );
        assert_eq!(
            perf_counter("  0 Page Faults Major              0.000 /sec "),
            Some((0.0, "page faults major".into(), 0.0))
        );
        assert_eq!(perf_counter("hash: adler32 5419734.35 0.99"), None);
        assert_eq!(
            own_columns("hash      hashes/sec chi squared", 2),
            Some(vec!["hashes/sec".to_string(), "chi squared".to_string()])
        );
        assert_eq!(column_unit("hashes/sec"), "hashes/s");
        assert_eq!(column_unit("chi squared"), "");
    }

    #[test]
    fn rapl_and_c_state_lines() {
        assert_eq!(
            named_value(" pkg-0                    8.20 W"),
            Some(("pkg-0".into(), 8.2, "W".into()))
        );
        assert_eq!(
            named_value(" C1E     0.01%"),
            Some(("C1E".into(), 0.01, "%".into()))
        );
        // A count with a note, or a phrase, is no such line.
        assert_eq!(named_value(" C3   0.00% (inaccurate)"), None);
        assert_eq!(named_value("passed: 8: cpu (8)"), None);
    }

    #[test]
    fn cyclic_latency_lines() {
        let v = cyclic_latency("  min: 8025 ns, max: 254589 ns, std.dev. 7515.50").unwrap();
        assert_eq!(v.len(), 3);
        assert_eq!(v[2], ("latency", Stat::Stddev, 7515.5, "ns".to_string()));
        let v = cyclic_latency("  99.99%:     254589 ns").unwrap();
        assert_eq!(v[0].1, Stat::percentile(99.99));
        assert_eq!(cyclic_latency("latency percentiles:"), Some(Vec::new()));
        assert_eq!(cyclic_latency("using buffer size of 4096K"), None);
    }
}
