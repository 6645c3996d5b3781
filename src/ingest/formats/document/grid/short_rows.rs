//! Rows that stop early: a harness that has nothing to print in its last
//! columns leaves them empty (ntpperf drops its offset columns once the
//! server answers without timestamps, a sweep stops reporting a quantity
//! past some size). Such a row still begins with the settings that key
//! every row, in the same columns; only its tail is missing.

use super::tokens::{Tok, TokKind};

/// The cells of one row: each value with the spreads written after it.
pub(super) type Cells<'t> = [(&'t Tok, Vec<&'t Tok>)];

/// Whether cell `j` of every row is a plain whole number (no unit, no
/// spread), as a key column's cells are. A row of all `k` cells counts as
/// it stands. Shorter rows count only in a sweep: most rows are full and
/// the first column rises from row to row, as the settings of a sweep do
/// (a run of latencies with a note at the end of one row is no sweep: its
/// first column wanders). A short row then counts when it holds a value
/// beyond cell `j` and its cell `j` stands in the same character columns
/// as cell `j` of the first full row, so a row whose leading cells are
/// missing (values only under the later columns) never lends its first
/// value as a key.
pub(super) fn whole_column(rows: &[&Cells], k: usize, j: usize) -> bool {
    let Some(full) = rows.iter().find(|r| r.len() == k) else {
        return false;
    };
    let short = rows.iter().filter(|r| r.len() < k).count();
    if short > 0 {
        let rising = rows
            .windows(2)
            .all(|w| w[0].len() > 1 && w[1].len() > 1 && w[0][0].0.value < w[1][0].0.value);
        if 2 * short > rows.len() || !rising {
            return false;
        }
    }
    let (col, end) = (full[j].0.col, full[j].0.end);
    rows.iter().all(|r| {
        let fits = r.len() == k || r.len() > j + 1 && r[j].0.col < end && col < r[j].0.end;
        fits && r[j].0.kind == TokKind::Num
            && r[j].0.unit.is_empty()
            && r[j].0.value.fract() == 0.0
            && r[j].1.is_empty()
    })
}

#[cfg(test)]
mod tests {
    use super::super::{read, Above, GLine};

    fn keys(text: &str) -> Vec<(u32, String)> {
        let lines: Vec<GLine> = text
            .lines()
            .enumerate()
            .map(|(i, t)| GLine {
                number: i as u32 + 1,
                text: t,
            })
            .collect();
        read(&lines, &[], Above::default(), "stem", "p")
            .observations
            .iter()
            .map(|o| (o.line, o.params.to_string()))
            .collect()
    }

    /// ntpperf leaves the offset columns empty once the server falls back
    /// to basic responses; the rate and client count still key those rows.
    #[test]
    fn rows_that_stop_early_keep_their_key_columns() {
        let got = keys(
            "rate   clients |  lost invalid   basic  xleave |    min    mean     max stddev\n\
             1000       100   0.00%   0.00%   0.00% 100.00%      -56      +9     +52     19\n\
             1500       150   0.00%   0.00%   0.00% 100.00%      -40     +30     +75     22\n\
             38436     3843   0.00%   0.00%   0.00% 100.00%      -84     +12   +8847     66\n\
             57654     5765   0.00%   0.00% 100.00%   0.00%\n\
             291871   16384  27.35%   0.00%  72.65%   0.00%",
        );
        assert!(
            got.contains(&(2, "rate=1000,clients=100".to_string())),
            "{got:?}"
        );
        assert!(
            got.contains(&(5, "rate=57654,clients=5765".to_string())),
            "{got:?}"
        );
        assert!(
            got.contains(&(6, "rate=291871,clients=16384".to_string())),
            "{got:?}"
        );
    }

    /// Rows of latencies, one of them longer for a note at its end
    /// (netperf's min, p90, p99 and throughput, the size written on one
    /// line): the short rows are the many, and no column rises.
    #[test]
    fn a_long_row_among_short_ones_makes_no_keys() {
        let got = keys(concat!(
            "min\tp90\tp99\tThroughput\t\tgso_max_size\n",
            "93\t171\t194\t6594.25\n",
            "97\t154\t180\t7183.74\n",
            "93\t154\t185\t7338.05\t\t\t64K\n",
            "93\t168\t189\t6938.03",
        ));
        assert!(got.iter().all(|(_, p)| p.is_empty()), "{got:?}");
    }

    /// A short row whose values stand under the later columns has no key
    /// of its own: its first value is no setting, and the column is no key.
    #[test]
    fn a_row_missing_its_leading_cells_keys_nothing() {
        let got = keys(concat!(
            "rate   clients    lost   basic\n",
            "1000       100   0.00%  10.00%\n",
            "1500       150   0.00%  20.00%\n",
            "          3843   1.00%  30.00%",
        ));
        assert!(got.iter().all(|(_, p)| p.is_empty()), "{got:?}");
    }
}
