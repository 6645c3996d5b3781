//! LKP / 0-day "kernel test robot" comparison tables, as pasted in reports:
//!
//! ```text
//! f2ffc48de2017c69 ee5eda8ea59546af2e8f192c060
//! ---------------- ---------------------------
//!          %stddev     %change         %stddev
//!              \          |                \
//!     138055 ± 18%     +33.4%     184128 ± 14%  cpuidle..usage
//!       0.54 ±  3%      -0.1        0.41 ± 12%  perf-stat.i.branch-miss-rate%
//! ```
//!
//! Each value is the mean over the robot's runs of one commit: `mean`, and
//! with `± NN%` (the relative *population* SD, printed only above 2 %) a
//! `stddev` of NN % of the mean, and the `cv` NN % as printed. No `±` means "≤ 2 %", not zero, so no
//! stddev is stated then. n is never printed. `%change` is a `change_pct` of
//! the later column, except for stats whose name ends in `%` or starts with
//! `perf-profile`, where LKP prints an absolute difference: no change_pct is
//! stated for those (the means say it). The commits are the variants, the
//! first (base) column first; the variant is the commit id of the column
//! header as written, or the `commit:` list's spelling when that gives
//! more of the same id.
//! The benchmark is the `testcase` of the axis header (`testcase: …` line or
//! the `compiler/…/testcase:` axis pairs), its test axes (`nr_threads`,
//! `test`, `mode` …) are params, and the machine/toolchain axes (compiler,
//! governor, kconfig, rootfs, tbox_group) are environment, not params.
//! `fail:runs` blocks count failures, not performance, and are skipped.

use crate::error::Result;
use crate::ingest::shared::logscan::{any_with, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Stat;

lazy_re!(HEADER, r"^\s*%stddev(\s+%change\s+%stddev)+\s*$");
lazy_re!(
    FAIL_HEADER,
    r"^\s*fail:runs(\s+%reproduction\s+fail:runs)+\s*$"
);
lazy_re!(AXES, r"^([a-z_]+(?:/[a-z_]+)+):\s*$");
lazy_re!(COMMIT_ID, r"^\s+([0-9a-f]{7,40}) \(");
lazy_re!(TESTCASE, r"^testcase: (\S+)\s*$");
lazy_re!(DASHES, r"^[- ]+$");

/// Axes that describe the machine and toolchain, not the test.
const ENVIRONMENT_AXES: [&str; 6] = [
    "compiler",
    "cpufreq_governor",
    "kconfig",
    "rootfs",
    "tbox_group",
    "testcase",
];

/// The LKP table importer.
pub struct Lkp;

/// A value cell: mean and the optional relative SD in percent.
struct Cell {
    mean: f64,
    sd_pct: Option<f64>,
}

impl Format for Lkp {
    fn name(&self) -> &'static str {
        "lkp"
    }

    fn description(&self) -> &'static str {
        "LKP / 0-day robot tables: `%stddev %change %stddev` header, `value ± NN%` cells, stat name last"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if any_with(src, "%stddev", &HEADER) {
            95
        } else {
            0
        }
    }

    /// Axis, testcase, commit and column-id lines are `consumed`; rows of
    /// `fail:runs` blocks are `skipped` (failure counts, not performance).
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut consumed = Vec::new();
        let mut skipped = Vec::new();
        let mut prev_line = 0u32;
        let mut out = Vec::new();
        let mut params = Params::default();
        let mut bench = "lkp".to_string();
        let mut commits: Vec<String> = Vec::new();
        let mut columns: Vec<String> = Vec::new();
        // Last non-blank line, and the column ids: the line above the
        // `---------------- ----…` rule (a `fail:runs` block may sit between
        // the rule and the `%stddev` header).
        let mut prev_text = String::new();
        let mut ids: Vec<String> = Vec::new();
        let mut in_table = false;
        let mut in_fail = false;
        let mut ncols = 0usize;
        let lines = &src.lines;
        for (i, l) in lines.iter().enumerate() {
            let t = l.text.as_str();
            let n = l.number;
            if let Some(c) = AXES.captures(t) {
                // `axis/axis/…:` then `  value/value/…` on the next line.
                let values = lines.get(i + 1).map(|x| x.text.trim()).unwrap_or("");
                let axes: Vec<&str> = c[1].split('/').collect();
                let vals: Vec<&str> = values.split('/').collect();
                params = Params::default();
                commits.clear();
                if vals.len() >= axes.len() {
                    // A value holding `/` itself pushes the rest: trust the
                    // axis count and give the surplus to the last axis.
                    for (k, a) in axes.iter().enumerate() {
                        let v = if k + 1 == axes.len() {
                            vals[k..].join("/")
                        } else {
                            vals[k].to_string()
                        };
                        if *a == "testcase" {
                            bench = v.clone();
                        }
                        if !ENVIRONMENT_AXES.contains(a) {
                            params.set(a, v);
                        }
                    }
                }
                in_table = false;
                consumed.push(n);
                if let Some(next) = lines.get(i + 1) {
                    consumed.push(next.number);
                }
                continue;
            }
            if let Some(c) = TESTCASE.captures(t) {
                bench = c[1].to_string();
                consumed.push(n);
                continue;
            }
            if let Some(c) = COMMIT_ID.captures(t) {
                if !in_table {
                    commits.push(c[1].to_string());
                    consumed.push(n);
                }
                continue;
            }
            if let Some(c) = HEADER.captures(t) {
                ncols = c[0].split_whitespace().filter(|w| *w == "%stddev").count();
                columns = (0..ncols)
                    .map(|k| {
                        let id = ids
                            .get(k)
                            .cloned()
                            .unwrap_or_else(|| format!("column {}", k + 1));
                        // The longer spelling of the two: the header's as a
                        // reader of the mail sees it, unless the `commit:`
                        // list gives more of the id.
                        match commits.iter().find(|c| c.starts_with(id.as_str())) {
                            Some(c) if c.len() > id.len() => c.clone(),
                            _ => id,
                        }
                    })
                    .collect();
                in_table = true;
                in_fail = false;
                continue;
            }
            if FAIL_HEADER.is_match(t) {
                in_fail = true;
                in_table = false;
                continue;
            }
            if DASHES.is_match(t) && t.contains('-') {
                ids = prev_text.split_whitespace().map(str::to_string).collect();
                consumed.push(prev_line);
            } else if !t.trim().is_empty() && !t.trim_start().starts_with('\\') {
                prev_text = t.to_string();
                prev_line = n;
            }
            if in_fail && !t.trim().is_empty() && !t.trim_start().starts_with('\\') {
                let why = "failure counts of the robot's runs (fail:runs), not performance";
                skipped.push((n, why.to_string()));
            }
            if in_fail || !in_table {
                continue;
            }
            let trimmed = t.trim();
            if trimmed.is_empty() {
                continue;
            }
            if trimmed.starts_with('\\') {
                continue;
            }
            match parse_row(src, n, trimmed, ncols)? {
                Some((cells, changes, stat)) => {
                    let absolute = stat.ends_with('%') || stat.starts_with("perf-profile");
                    let p = params.render();
                    for (k, cell) in cells.iter().enumerate() {
                        let variant = columns.get(k).cloned().unwrap_or_default();
                        let mut push = |s: Stat, v: f64| {
                            let unit = if s == Stat::Cv { "%" } else { "" };
                            out.push(
                                Row::at(src, n)
                                    .benchmark(&bench)
                                    .params(&p)
                                    .metric(&stat)
                                    .unit(unit)
                                    .stat(s, v)
                                    .with_variant(variant.clone()),
                            );
                        };
                        push(Stat::Mean, cell.mean);
                        if let Some(sd) = cell.sd_pct {
                            push(Stat::Stddev, cell.mean.abs() * sd / 100.0);
                            // What the cell states, as the document reader
                            // states any `± NN%`; the stddev above is derived.
                            push(Stat::Cv, sd);
                        }
                        if k > 0 && !absolute {
                            if let Some(ch) = changes.get(k - 1).copied().flatten() {
                                push(Stat::ChangePct, ch);
                            }
                        }
                    }
                }
                None => {
                    // A row that is not a value row ends the table.
                    in_table = false;
                }
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "LKP table header without value rows",
        )
    }
}

/// Cells, stated changes (between columns) and the stat name of a row;
/// `None` when the line is not a value row.
#[allow(clippy::type_complexity)]
fn parse_row(
    src: &Source,
    line: u32,
    t: &str,
    ncols: usize,
) -> Result<Option<(Vec<Cell>, Vec<Option<f64>>, String)>> {
    let toks: Vec<&str> = t.split_whitespace().collect();
    let Some((&stat, body)) = toks.split_last() else {
        return Ok(None);
    };
    if crate::ingest::shared::numbers::parse_number(stat).is_some()
        || !body.first().is_some_and(|b| is_num(b))
    {
        return Ok(None);
    }
    let mut cells = Vec::new();
    let mut changes = Vec::new();
    let mut i = 0;
    while i < body.len() {
        if !cells.is_empty() {
            // The change column: `+33.4%`, `-0.1`, `+2.5e+05`.
            let ch = body[i];
            if !is_num(ch.trim_end_matches('%')) {
                return Err(src.error(
                    Some(line),
                    format!("LKP row: `{ch}` is not a %change value"),
                ));
            }
            changes.push(Some(num(src, line, &ch.replace('%', ""), "%change")?));
            i += 1;
        }
        let Some(v) = body.get(i) else {
            return Err(src.error(Some(line), "LKP row ends after a %change without a value"));
        };
        let mean = num(src, line, v, "mean")?;
        i += 1;
        let mut sd_pct = None;
        if body.get(i) == Some(&"±") {
            let sd = body
                .get(i + 1)
                .ok_or_else(|| src.error(Some(line), "LKP row: `±` without a percentage"))?;
            sd_pct = Some(num(src, line, sd, "±")?);
            i += 2;
        } else if let Some(rest) = body.get(i).and_then(|b| b.strip_prefix('±')) {
            sd_pct = Some(num(src, line, rest, "±")?);
            i += 1;
        }
        cells.push(Cell { mean, sd_pct });
    }
    if ncols > 0 && cells.len() != ncols {
        return Err(src.error(
            Some(line),
            format!(
                "LKP row has {} value columns, the header {ncols} (truncated row?)",
                cells.len()
            ),
        ));
    }
    Ok(Some((cells, changes, stat.to_string())))
}

fn is_num(s: &str) -> bool {
    let s = s.trim_start_matches(['+', '-']);
    !s.is_empty()
        && s.chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit() || c == '.')
        && s.parse::<f64>().is_ok()
}
