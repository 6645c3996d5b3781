//! A header of settings over a rule: `time | 10s | 20s | … | 60s` above
//! `--------------+-------+…` above `A's dirty | 0.9G | 1.9G | …`.
//!
//! The line is a data row to the tokens (a label, then values), so the rows
//! under it were read with the title above as their header and the times
//! as one more row. A first line of a table whose values are one quantity
//! stepping up (the same unit, each above the one before: times, sizes,
//! thread counts), underlined and over labelled rows, is the axis the
//! columns follow: it heads them. A data row over a rule (`base | 10 | 20`
//! over a rule over `patched | 11 | 21`) seldom rises with a unit of its
//! own in three steps or more, and is not the first line of its table when
//! a header stands above it.

use super::kinds::LineKind;
use super::tokens::TokKind;

/// Whether `kinds[i]` is such an axis: the first data line of its run,
/// over a rule over a data row.
pub(super) fn is_axis(kinds: &[LineKind], i: usize) -> bool {
    let first = i == 0 || !matches!(kinds[i - 1], LineKind::Data { .. });
    let ruled = matches!(kinds.get(i + 1), Some(LineKind::Rule))
        && matches!(kinds.get(i + 2), Some(LineKind::Data { .. }));
    let LineKind::Data { values, .. } = &kinds[i] else {
        return false;
    };
    let nums: Vec<_> = values
        .iter()
        .filter(|t| t.kind != TokKind::Marker)
        .collect();
    first
        && ruled
        && nums.len() >= 3
        && nums.iter().all(|t| t.kind == TokKind::Num)
        && !nums[0].unit.is_empty()
        && nums.iter().all(|t| t.unit == nums[0].unit)
        && nums.windows(2).all(|w| w[0].value < w[1].value)
}

#[cfg(test)]
mod tests {
    use super::super::kinds::kind;
    use super::*;

    // Real lines of a bcache writeback-rate test (quote marks removed).
    #[test]
    fn rising_times_over_a_rule_head_the_columns() {
        let lines = [
            "             Tab.1 fio randwrite 10GiB under rate 100MiB/s",
            "================================================================",
            "         time      | 10s   | 20s   | 30s   | 40s   | 50s   | 60s",
            "--------------+-------+-------+-------+-------+-------+---------",
            "     A's dirty     | 0.9G  | 1.9G  | 2.9G  | 3.5G  | 4.7G  | 5.5G",
            "         rate(p+i) | 4k    | 4k    | 6.2M  | 18.4M | 43.0M | 65.7M",
        ];
        let kinds: Vec<LineKind> = lines.iter().map(|l| kind(l)).collect();
        assert!(is_axis(&kinds, 2));
        assert!(!is_axis(&kinds, 4));
    }

    #[test]
    fn a_row_of_measurements_over_a_rule_stays_a_row() {
        let kinds: Vec<LineKind> = [
            "base    | 12.1 ms | 11.9 ms | 12.4 ms",
            "--------+---------+---------+--------",
            "patched | 10.2 ms | 10.1 ms | 10.3 ms",
        ]
        .iter()
        .map(|l| kind(l))
        .collect();
        assert!(!is_axis(&kinds, 0));
    }
}
