//! Two key columns of a crossed sweep: every setting of an outer
//! parameter run against the same settings of an inner one (`Mult
//! reduction` 16 over `Updates/sec` 4, 16, 64, then 64 over 4, 16, 64 again).
//! The outer column holds each setting for a run of rows and rises from
//! run to run; the inner column rises within each run and starts again
//! with the same series in the next. Neither column alone rises, so the
//! single-key rule (`build::key_column`) does not see them.

use super::super::lines::DataRow;
use super::Role;

/// The cell `c` of `r` when it is a plain unsigned integer.
fn plain(r: &DataRow, c: usize) -> Option<f64> {
    let (text, cell) = r.cells.get(c)?;
    (r.label.is_empty()
        && !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && !cell.is_pct)
        .then_some(cell.value)
}

/// Makes the first two value columns parameters when they cross: the rows
/// have no label, both columns hold plain integers, the outer one has two
/// settings or more each held for one run of rows, and every run holds
/// the same rising series of inner settings (at least two), each named
/// by `key_name` of its header. True when it did.
pub(super) fn crossed(
    roles: &mut [Role],
    header: &[String],
    label_added: bool,
    data: &[(u32, &DataRow)],
    key_name: fn(&str) -> String,
) -> bool {
    if !label_added || data.len() < 4 || roles.len() < 4 {
        return false;
    }
    let pairs: Option<Vec<(f64, f64)>> = data
        .iter()
        .map(|(_, r)| Some((plain(r, 0)?, plain(r, 1)?)))
        .collect();
    let Some(pairs) = pairs else {
        return false;
    };
    let runs: Vec<&[(f64, f64)]> = pairs.chunk_by(|a, b| a.0 == b.0).collect();
    let inner = |run: &[(f64, f64)]| run.iter().map(|p| p.1).collect::<Vec<f64>>();
    let first = inner(runs[0]);
    let crossed = runs.len() >= 2
        && first.len() >= 2
        && first.windows(2).all(|w| w[0] < w[1])
        && runs.windows(2).all(|w| w[0][0].0 < w[1][0].0)
        && runs.iter().all(|r| inner(r) == first);
    let names: Vec<String> = header.iter().take(2).map(|h| key_name(h)).collect();
    if !crossed || names.len() < 2 || names.iter().any(String::is_empty) {
        return false;
    }
    if !matches!((&roles[1], &roles[2]), (Role::Value(_), Role::Value(_))) {
        return false;
    }
    roles[1] = Role::Param(names[0].clone());
    roles[2] = Role::Param(names[1].clone());
    true
}

#[cfg(test)]
mod tests {
    use crate::ingest::formats::document::Document;
    use crate::ingest::{Format, Source};

    fn keyed(text: &str) -> Vec<(String, String, f64)> {
        Document
            .parse(&Source::from_text("doc.txt", text))
            .unwrap()
            .iter()
            .map(|o| (o.params.to_string(), o.variant.to_string(), o.value))
            .collect()
    }

    /// Two settings crossed in a tabbed table, each row a pair of them.
    #[test]
    fn an_outer_and_an_inner_setting_key_the_rows() {
        let got = keyed(
            "Mult reduction\tUpdates/sec\tSkew before\tSkew after\n\
             16\t\t4\t\t0.004\t\t0.009\n\
             16\t\t16\t\t0.011\t\t0.069\n\
             16\t\t64\t\t0.020\t\t0.117\n\
             64\t\t4\t\t0.013\t\t0.012\n\
             64\t\t16\t\t0.030\t\t0.107\n\
             64\t\t64\t\t0.058\t\t0.879\n",
        );
        assert_eq!(got.len(), 12, "{got:?}");
        assert!(
            got.contains(&(
                "mult reduction=64,updates/sec=16".into(),
                "Skew after".into(),
                0.107
            )),
            "{got:?}"
        );
    }

    /// Two columns of counts whose pairs do not cross the same inner
    /// settings are values, not keys.
    #[test]
    fn columns_that_do_not_cross_stay_values() {
        let got = keyed(
            "Mult reduction\tUpdates/sec\tSkew before\tSkew after\n\
             16\t\t4\t\t0.004\t\t0.009\n\
             16\t\t16\t\t0.011\t\t0.069\n\
             64\t\t4\t\t0.013\t\t0.012\n\
             64\t\t64\t\t0.058\t\t0.879\n",
        );
        assert!(got.iter().all(|(p, _, _)| p.is_empty()), "{got:?}");
    }
}
