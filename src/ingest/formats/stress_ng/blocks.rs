//! The blocks stress-ng prints beside its metrics table: `--perf`'s
//! counters under a `<stressor>:` line, and the tables some stressors
//! print of their own (the hash stressor's `hash: <method> <hashes/sec>
//! <chi squared>` rows under a header of the same prefix).

use crate::ingest::shared::logscan::lazy_re;

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
}
