//! `key=value` lines: several settings or results on one line, separated
//! by commas or spaces (`IOPS=59.08M, BW=28.84GiB/s, IOS/call=31/31`),
//! and the headings that name a block of them.

use crate::ingest::shared::logscan::lazy_re;
use crate::ingest::shared::numbers::parse_number;

lazy_re!(PAIR, r"^([A-Za-z_][A-Za-z0-9_./-]*)=(\S+)$");
lazy_re!(
    VALUE,
    r"^([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)([A-Za-zµ%][A-Za-zµ%/0-9^]*|/[A-Za-zµ][A-Za-zµ%/0-9^]*)?$"
);

/// The `key`, number and unit of each pair of a line made of `key=value`
/// pairs only (two or more, or one whose value carries a unit), values
/// that are no single number (`31/31`) left out; `None` for any other
/// line.
pub fn pairs(text: &str) -> Option<Vec<(&str, f64, &str)>> {
    let tokens: Vec<&str> = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .collect();
    if tokens.is_empty() {
        return None;
    }
    let mut out = Vec::new();
    for t in &tokens {
        let c = PAIR.captures(t)?;
        let (key, value) = (c.get(1)?.as_str(), c.get(2)?.as_str());
        let Some(v) = VALUE.captures(value) else {
            continue;
        };
        let number = parse_number(v.get(1)?.as_str())?;
        out.push((key, number, v.get(2).map_or("", |u| u.as_str())));
    }
    let one_with_unit = tokens.len() == 1 && out.first().is_some_and(|(_, _, u)| !u.is_empty());
    (!out.is_empty() && (tokens.len() >= 2 || one_with_unit)).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_with_units_and_ratios() {
        assert_eq!(
            pairs("IOPS=59.08M, BW=28.84GiB/s, IOS/call=31/31"),
            Some(vec![("IOPS", 59.08, "M"), ("BW", 28.84, "GiB/s")])
        );
        assert_eq!(pairs("lat=12us"), Some(vec![("lat", 12.0, "us")]));
        assert_eq!(
            pairs("threads=4 ops=1200"),
            Some(vec![("threads", 4.0, ""), ("ops", 1200.0, "")])
        );
        // A lone setting, prose, and code are not pairs.
        assert_eq!(pairs("CONFIG_HZ=250"), None);
        assert_eq!(pairs("we set x=3 here"), None);
    }
}
