//! Rows named by builds whose values are different quantities, not runs.
//!
//! A headerless table whose row labels name builds (`net/mac80211.ko
//! (before)`) is read transposed: each row a build, its values under one
//! metric. That suits runs of one measurement (`Before: 1537 1538 1538
//! Mb/sec`), but `size`'s columns (text, data, bss, dec: `1010127 205064
//! 1220 1216411`) are quantities of their own, and as one metric's runs
//! they would be averaged together. Runs of one measurement stay within a
//! small factor of each other; columns of different quantities do not.
//! Where every row's values span more than [`SPAN`], each column is named
//! on its own, as the columns of rows labelled by anything else are.

/// The factor between a row's largest and smallest nonzero value above
/// which its values are no runs of one measurement.
const SPAN: f64 = 10.0;

/// Whether every row of two values or more spans more than [`SPAN`]
/// (and at least one row has two values); `rows` gives each row's values.
pub(super) fn different_quantities(rows: impl Iterator<Item = Vec<f64>>) -> bool {
    let mut any = false;
    for values in rows {
        if values.len() < 2 {
            continue;
        }
        let max = values.iter().map(|v| v.abs()).fold(0.0, f64::max);
        let min = values
            .iter()
            .map(|v| v.abs())
            .filter(|v| *v > 0.0)
            .fold(f64::INFINITY, f64::min);
        if max <= SPAN * min {
            return false;
        }
        any = true;
    }
    any
}
