//! bonnie++: its CSV result line ([`csv`]) and, where a mail pastes the
//! human report without that line, the report's tables ([`table`]).

pub(in crate::ingest) mod csv;
pub(in crate::ingest) mod table;

use crate::model::rescale;

/// The tests of a result line: name, the field of its rate (its CPU %
/// follows), the field of its latency, and the rate's unit.
pub(super) const TESTS: [(&str, usize, usize, &str); 12] = [
    ("seq output char", 9, 38, "KiB/s"),
    ("seq output block", 11, 39, "KiB/s"),
    ("rewrite", 13, 40, "KiB/s"),
    ("seq input char", 15, 41, "KiB/s"),
    ("seq input block", 17, 42, "KiB/s"),
    ("random seeks", 19, 43, "/s"),
    ("seq create", 26, 44, "files/s"),
    ("seq stat", 28, 45, "files/s"),
    ("seq delete", 30, 46, "files/s"),
    ("random create", 32, 47, "files/s"),
    ("random stat", 34, 48, "files/s"),
    ("random delete", 36, 49, "files/s"),
];

/// A latency cell (`11003us`, `1346ms`) in µs.
pub(super) fn micros(cell: &str) -> Option<f64> {
    let (digits, scale) = if let Some(d) = cell.strip_suffix("us") {
        (d, 1.0)
    } else if let Some(d) = cell.strip_suffix("ms") {
        (d, 1e3)
    } else if let Some(d) = cell.strip_suffix('s') {
        (d, 1e6)
    } else {
        return None;
    };
    digits.parse::<f64>().ok().map(|v| rescale(v, scale))
}
