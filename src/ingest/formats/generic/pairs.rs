//! `key=value` lines: several settings or results on one line, separated
//! by commas or spaces (`IOPS=59.08M, BW=28.84GiB/s, IOS/call=31/31`),
//! and the headings that name a block of them.

use crate::ingest::shared::keyvals::record;

/// The `key`, number and unit of each pair of a line made of `key=value`
/// pairs only (two or more, or one whose value carries a unit), values
/// that are no single number (`31/31`, `(1 1)`) left out; `None` for any
/// other line.
pub fn pairs(text: &str) -> Option<Vec<(&str, f64, &str)>> {
    let (items, kv) = record(text)?;
    let one_with_unit = items == 1 && kv.first().is_some_and(|k| !k.unit.is_empty());
    (!kv.is_empty() && (items >= 2 || one_with_unit))
        .then(|| kv.into_iter().map(|k| (k.key, k.value, k.unit)).collect())
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
            pairs("IOPS=254820, BW=124MiB/s, IOS/call=1/1, inflight=(1 1)"),
            Some(vec![("IOPS", 254820.0, ""), ("BW", 124.0, "MiB/s")])
        );
        assert_eq!(
            pairs("threads=4 ops=1200"),
            Some(vec![("threads", 4.0, ""), ("ops", 1200.0, "")])
        );
        // A lone setting, prose, and code are not pairs.
        assert_eq!(pairs("CONFIG_HZ=250"), None);
        assert_eq!(pairs("we set x=3 here"), None);
    }
}
