//! iperf 2: the client's and the server's text reports (with `-e`, `-i`,
//! `-P`, UDP's server report) and `-y C` CSV lines.

use crate::model::rescale;

pub(in crate::ingest) mod csv;
pub(in crate::ingest) mod text;

/// `value` in `unit` as iperf 2 prints a rate (`21.6 Gbits/sec`: powers
/// of 1000 for bits; `MBytes/sec` with `-f M`: powers of 1024), in Mbit/s.
pub(super) fn mbits(value: f64, unit: &str) -> Option<f64> {
    // Bytes scale by a power of two first, exactly; then the decimal step.
    let (bits, decade) = match unit {
        "bits/sec" => (1.0, 1e-6),
        "Kbits/sec" => (1.0, 1e-3),
        "Mbits/sec" => (1.0, 1.0),
        "Gbits/sec" => (1.0, 1e3),
        "Tbits/sec" => (1.0, 1e6),
        "Bytes/sec" => (8.0, 1e-6),
        "KBytes/sec" => (8.0 * 1024.0, 1e-6),
        "MBytes/sec" => (8.0 * 1048576.0, 1e-6),
        "GBytes/sec" => (8.0 * 1073741824.0, 1e-6),
        _ => return None,
    };
    Some(rescale(value * bits, decade))
}

/// `value` in `unit` as iperf 2 prints an amount (`5.12 GBytes`: powers
/// of 1024; `Kbits` with `-f k`: powers of 1000), in MiB.
pub(super) fn mebibytes(value: f64, unit: &str) -> Option<f64> {
    let bytes = match unit {
        "Bytes" => 1.0,
        "KBytes" => 1024.0,
        "MBytes" => 1048576.0,
        "GBytes" => 1073741824.0,
        "TBytes" => 1099511627776.0,
        "bits" => 0.125,
        "Kbits" => 125.0,
        "Mbits" => 125e3,
        "Gbits" => 125e6,
        _ => return None,
    };
    Some(value * bytes / 1048576.0)
}
