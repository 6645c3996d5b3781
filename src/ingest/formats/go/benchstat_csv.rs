//! benchstat v2 CSV (`-format csv`): per table a row of column names, a row
//! `,<unit>,CI,<unit>,CI,vs base,P`, then one row per benchmark with the
//! median in base units (scientific notation), the CI of the median in
//! percent, the stated change (or `~`) and `p=… n=…`. Blank lines separate
//! tables; `geomean` rows are skipped. See `benchstat_text` for what the
//! numbers mean.

use crate::error::Result;
use crate::ingest::formats::go::text::{metric_for_unit, split_name};
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::structured::{csv_cells, split_csv};
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Stat};

/// The benchstat v2 CSV importer.
pub struct BenchstatCsv;

/// One column group: a variant's median and CI, and for comparisons the
/// change and p columns after it.
struct Group {
    variant: String,
    unit: String,
    value: usize,
    ci: Option<usize>,
    delta: Option<usize>,
    p: Option<usize>,
}

fn is_units_row(cells: &[String]) -> bool {
    cells.len() >= 3 && cells[0].is_empty() && cells.get(2).is_some_and(|c| c == "CI")
}

impl Format for BenchstatCsv {
    fn name(&self) -> &'static str {
        "benchstat-csv"
    }

    fn description(&self) -> &'static str {
        "benchstat v2 CSV: header rows `,old,,new,,,` and `,<unit>,CI,<unit>,CI,vs base,P`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        // A units row with a `vs base` cell, judged on as few cells as
        // needed: most lines of other formats fail on the first. With one
        // column (one input file) there is no `vs base`: the units row is
        // `,sec/op,CI` alone, under the files row `,new.txt,`.
        let lines: Vec<&str> = src.lines.iter().take(40).map(|l| l.text.as_str()).collect();
        let hit = lines.iter().enumerate().any(|(i, text)| {
            let mut cells = csv_cells(text, ',');
            if !cells.next().is_some_and(|c| c.is_empty()) {
                return false;
            }
            let second = cells.next();
            if cells.next().is_none_or(|c| c != "CI") {
                return false;
            }
            let rest: Vec<_> = cells.collect();
            if second.as_ref().is_some_and(|c| c == "vs base")
                || rest.iter().any(|c| c == "vs base")
            {
                return true;
            }
            let files_row = i > 0 && {
                let above: Vec<_> = csv_cells(lines[i - 1], ',').collect();
                above.len() == 3
                    && above[0].is_empty()
                    && !above[1].is_empty()
                    && above[2].is_empty()
            };
            rest.is_empty() && second.is_some_and(|c| !c.is_empty()) && files_row
        });
        if hit {
            90
        } else {
            0
        }
    }

    /// Column-name and unit rows are `consumed`; `geomean` rows are
    /// `skipped` (a summary across benchmarks, not one).
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut consumed = Vec::new();
        let mut skipped = Vec::new();
        let mut out = Vec::new();
        let mut names: Vec<String> = Vec::new();
        let mut groups: Vec<Group> = Vec::new();
        for l in &src.lines {
            let cells = split_csv(&l.text, ',');
            if l.text.trim().is_empty() {
                groups.clear();
                continue;
            }
            if is_units_row(&cells) {
                groups = build_groups(&names, &cells);
                consumed.push(l.number);
                continue;
            }
            if groups.is_empty() {
                names = cells; // the column-name row above the units row
                consumed.push(l.number);
                continue;
            }
            let name = cells[0].as_str();
            if name == "geomean" {
                let why = "geometric mean across the benchmarks, not a benchmark";
                skipped.push((l.number, why.to_string()));
                continue;
            }
            if name.is_empty() {
                continue;
            }
            let (bench, params) = split_name(name);
            for g in &groups {
                let cell =
                    |i: Option<usize>| i.and_then(|i| cells.get(i)).map(|s| s.trim()).unwrap_or("");
                let v = cell(Some(g.value));
                if v.is_empty() {
                    continue; // benchmark missing from this file
                }
                let median = v
                    .parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| src.error(Some(l.number), format!("`{v}` is not a number")))?;
                let (metric, unit) = metric_for_unit(&g.unit);
                let mk = |stat: Stat, x: f64| {
                    Observation::new(bench.as_str(), metric.as_str(), &unit, stat, x)
                        .with_params_str(params.clone())
                        .with_variant(g.variant.as_str())
                        .at_line(l.number)
                };
                out.push(mk(Stat::Median, median));
                if let Some(pct) = parse_number(cell(g.ci)).filter(|_| cell(g.ci).ends_with('%')) {
                    out.push(mk(Stat::CiLow, median * (1.0 - pct / 100.0)));
                    out.push(mk(Stat::CiHigh, median * (1.0 + pct / 100.0)));
                }
                let d = cell(g.delta);
                if d.ends_with('%') {
                    if let Some(x) = parse_number(d) {
                        out.push(mk(Stat::ChangePct, x));
                    }
                }
                if let Some(n) = cell(g.p)
                    .split_whitespace()
                    .find_map(|w| w.strip_prefix("n="))
                {
                    let (a, b) = n.split_once('+').unwrap_or((n, n));
                    if let (Ok(a), Ok(b)) = (a.parse::<f64>(), b.parse::<f64>()) {
                        out.push(mk(Stat::N, b));
                        if let Some(base) = groups.first() {
                            let (m0, u0) = metric_for_unit(&base.unit);
                            if !out.iter().any(|o| {
                                o.line == l.number
                                    && o.variant == base.variant
                                    && o.stat == Stat::N
                                    && o.metric == m0
                            }) {
                                out.push(
                                    Observation::new(bench.as_str(), m0, &u0, Stat::N, a)
                                        .with_params_str(params.clone())
                                        .with_variant(base.variant.as_str())
                                        .at_line(l.number),
                                );
                            }
                        }
                    }
                }
            }
        }
        Ok(Parsed {
            observations: out,
            consumed,
            skipped,
            ..Parsed::default()
        })
    }
}

fn build_groups(names: &[String], units: &[String]) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    let mut i = 1;
    while i < units.len() {
        match units[i].as_str() {
            "vs base" => {
                if let Some(g) = groups.last_mut() {
                    g.delta = Some(i);
                    if units.get(i + 1).is_some_and(|u| u == "P") {
                        g.p = Some(i + 1);
                        i += 1;
                    }
                }
            }
            "CI" | "P" | "" => {}
            unit => {
                let ci = units.get(i + 1).is_some_and(|u| u == "CI").then_some(i + 1);
                groups.push(Group {
                    variant: names
                        .get(i)
                        .cloned()
                        .unwrap_or_else(|| format!("column{i}")),
                    unit: unit.to_string(),
                    value: i,
                    ci,
                    delta: None,
                    p: None,
                });
            }
        }
        i += 1;
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_column_is_detected_by_its_files_and_units_rows() {
        let p = "tests/data/harness/benchstat/csv-single-column.csv";
        let src = Source::read(std::path::Path::new(p)).unwrap();
        assert_eq!(BenchstatCsv.detect(&src), 90);
        let parsed = crate::ingest::parse_file(&BenchstatCsv, p);
        let rows: Vec<(&str, &str, &str, crate::model::Stat, f64)> = parsed
            .observations
            .iter()
            .map(|o| {
                (
                    o.benchmark.as_str(),
                    o.metric.as_str(),
                    o.unit.as_str(),
                    o.stat,
                    o.value,
                )
            })
            .collect();
        use crate::model::Stat;
        // The median and its 37 % interval (the interval as benchstat's
        // ± gives it: median × (1 ∓ 0.37)).
        let m = 2.2530000000000003e-6;
        assert_eq!(
            rows,
            [
                ("Encode", "time/op", "s/op", Stat::Median, m),
                (
                    "Encode",
                    "time/op",
                    "s/op",
                    Stat::CiLow,
                    1.4193900000000003e-6
                ),
                (
                    "Encode",
                    "time/op",
                    "s/op",
                    Stat::CiHigh,
                    3.0866100000000005e-6
                ),
            ]
        );
        assert_eq!(parsed.skipped.len(), 1);
        assert_eq!(parsed.skipped[0].0, 7);
        // A units row alone, with nothing above it, is no evidence.
        let lone = Source::from_text("x.csv", ",sec/op,CI\nEncode,2e-06,37%\n");
        assert_eq!(BenchstatCsv.detect(&lone), 0);
    }
}
