//! FreeBSD `ministat` output: a legend (`x file`, `+ file` …), an optional
//! ASCII plot, the table `N Min Max Median Avg Stddev` with one row per data
//! set, and per set after the first either `Difference at 95.0% confidence`
//! (difference of means ± CI half-width, then the same in percent of the
//! first set's mean) or `No difference proven at 95.0% confidence`.
//!
//! Each set is a variant (named by its legend, the first set first) with the
//! stated `n`, `min`, `max`, `median`, `mean` and *sample* `stddev`, so the
//! comparison can be re-tested exactly. A proven difference also gives the
//! set's `change_pct`. The benchmark is `ministat`, the metric `value`
//! (ministat reads bare numbers and knows nothing more).

use crate::error::Result;
use crate::ingest::shared::logscan::{any_with, lazy_re, num};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Stat;

lazy_re!(
    TABLE_HEADER,
    r"^\s+N\s+Min\s+Max\s+Median\s+Avg\s+Stddev\s*$"
);
lazy_re!(LEGEND, r"^([x+*%#@O]) (\S.*)$");
lazy_re!(
    SET_ROW,
    r"^([x+*%#@O])\s+(\d+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*$"
);
lazy_re!(
    DIFF,
    r"^(?:No d|D)ifference (?:proven )?at ([\d.]+)% confidence"
);
lazy_re!(PCT_LINE, r"^\s+(-?[\d.eE+-]+)% \+/- ([\d.eE+-]+)%\s*$");

/// The ministat importer.
pub struct Ministat;

impl Format for Ministat {
    fn name(&self) -> &'static str {
        "ministat"
    }

    fn description(&self) -> &'static str {
        "FreeBSD ministat: `    N  Min  Max  Median  Avg  Stddev` table, `Difference at 95.0% confidence`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        match (
            any_with(src, "Stddev", &TABLE_HEADER),
            any_with(src, "ifference ", &DIFF),
        ) {
            (true, _) => 95,
            (false, true) => 40,
            _ => 0,
        }
    }

    /// `Difference at …` headers are `consumed`; the absolute difference
    /// and the pooled-s line of a difference block are `skipped` (the
    /// percent line and the sets' own stddevs are read).
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut consumed = Vec::new();
        let mut skipped = Vec::new();
        let mut legend: Vec<(String, String)> = Vec::new();
        let mut in_table = false;
        // Symbols of the table's rows, in order: difference blocks follow
        // for the second set onwards.
        let mut sets: Vec<String> = Vec::new();
        let mut diff_for = 0usize;
        let mut pending_diff: Option<String> = None;
        let mut out = Vec::new();
        for l in &src.lines {
            let t = l.text.as_str();
            let n = l.number;
            if TABLE_HEADER.is_match(t) {
                in_table = true;
                continue;
            }
            if in_table {
                if let Some(c) = SET_ROW.captures(t) {
                    let sym = c[1].to_string();
                    let variant = legend
                        .iter()
                        .find(|(s, _)| *s == sym)
                        .map(|(_, name)| name.clone())
                        .unwrap_or_else(|| sym.clone());
                    for (idx, stat) in [
                        (2, Stat::N),
                        (3, Stat::Min),
                        (4, Stat::Max),
                        (5, Stat::Median),
                        (6, Stat::Mean),
                        (7, Stat::Stddev),
                    ] {
                        let v = num(src, n, &c[idx], "ministat cell")?;
                        out.push(
                            Row::at(src, n)
                                .benchmark("ministat")
                                .metric("value")
                                .stat(stat, v)
                                .with_variant(variant.clone()),
                        );
                    }
                    sets.push(variant);
                    continue;
                }
                if t.starts_with(|ch: char| "x+*%#@O".contains(ch))
                    && t.len() > 1
                    && t.as_bytes()[1] == b' '
                {
                    return Err(src.error(Some(n), format!("malformed ministat row: `{t}`")));
                }
                in_table = false;
            }
            if DIFF.is_match(t) {
                diff_for += 1;
                let Some(variant) = sets.get(diff_for).cloned() else {
                    return Err(
                        src.error(Some(n), "difference block without a matching data set row")
                    );
                };
                pending_diff = t.starts_with('D').then_some(variant);
                consumed.push(n);
                continue;
            }
            if t.trim_start().starts_with("(Student's t, pooled s = ") {
                let why = "pooled s of the t test; each set's stddev is read";
                skipped.push((n, why.to_string()));
                continue;
            }
            if let Some(variant) = &pending_diff {
                if let Some(c) = PCT_LINE.captures(t) {
                    let v = num(src, n, &c[1], "difference %")?;
                    out.push(
                        Row::at(src, n)
                            .benchmark("ministat")
                            .metric("value")
                            .stat(Stat::ChangePct, v)
                            .with_variant(variant.clone()),
                    );
                    pending_diff = None;
                } else if t.contains("+/-") {
                    let why = "difference of means in units; its percent form is read";
                    skipped.push((n, why.to_string()));
                }
                continue;
            }
            if sets.is_empty() {
                if let Some(c) = LEGEND.captures(t) {
                    legend.push((c[1].to_string(), c[2].trim().to_string()));
                }
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "ministat table without data set rows",
        )
    }
}
