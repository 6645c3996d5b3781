//! Turning the rows of a table into observations, through a plan of its columns cached per header.

use super::super::labels::is_variant_like;
use super::super::lines::{in_two_units, read_value};
use super::roles::RATE_METRICS;
use super::*;
use crate::error::Result;
use crate::ingest::shared::text::trim;
use crate::model::{canonical_params, Dimension, Observation, SmolStr, Stat, Unit};
use std::collections::HashSet;
use std::rc::Rc;

/// A metric name for values that only carry a unit.
pub fn metric_from_unit(unit: &str) -> String {
    match Unit::parse(unit).dimension {
        Dimension::Time => "time".into(),
        Dimension::Bandwidth => "bandwidth".into(),
        Dimension::Rate => unit.to_string(),
        Dimension::Bytes => "size".into(),
        Dimension::Cycles => "cycles".into(),
        _ => "value".into(),
    }
}

/// `text` without a trailing word of marker characters (`<--`, `*`,
/// `!`, `<==`, `←`), which flags a cell worth a look.
fn unmarked(text: &str) -> &str {
    let t = trim(text);
    match t.rsplit_once([' ', '\t']) {
        Some((head, last))
            if !last.is_empty()
                && last
                    .chars()
                    .all(|c| matches!(c, '*' | '!' | '<' | '>' | '=' | '-' | '←' | '^')) =>
        {
            trim(head)
        }
        _ => t,
    }
}

/// The change a cell states in brackets after its value, written with its
/// sign (`(+27%)`, `( -48% )`); a spread is written `(±x%)` or `(+- x%)`.
fn signed_change(text: &str) -> Option<f64> {
    let inner = trim(text).strip_suffix(')')?;
    let (_, inner) = inner.rsplit_once('(')?;
    let inner = trim(inner).strip_suffix('%')?;
    let digits = inner.strip_prefix(['+', '-'])?;
    if !digits.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    inner.parse::<f64>().ok()
}

pub(super) fn missing(t: &str) -> bool {
    matches!(trim(t), "" | "-" | "--" | "n/a" | "N/A" | "na" | "—" | "?")
}

/// What a document repeats from table to table (the same few units, often
/// the same header), worked out once per document: normalising a unit or
/// reading a header costs more than reading a row.
#[derive(Debug, Default)]
pub struct Memo {
    /// (unit as written, its normalised spelling, the metric it implies).
    units: Vec<(SmolStr, SmolStr, SmolStr)>,
    /// (header cells, first cell over the labels, their roles).
    roles: Vec<(Vec<String>, bool, Rc<Vec<Role>>)>,
    /// What [`emit`] works out from a table's roles alone.
    plans: Vec<Rc<TablePlan>>,
}

impl Memo {
    /// Entries kept of each kind: enough for any real document; one with
    /// more distinct units or headers is still read right, only slower.
    const MAX: usize = 32;

    /// The normalised spelling of `raw` and the metric [`metric_from_unit`]
    /// gives it.
    fn unit(&mut self, raw: &str) -> (SmolStr, SmolStr) {
        if let Some((_, unit, metric)) = self.units.iter().find(|(r, _, _)| r == raw) {
            return (unit.clone(), metric.clone());
        }
        let unit = Unit::normalize_spelling(raw);
        let metric = SmolStr::from(metric_from_unit(raw));
        if self.units.len() < Self::MAX {
            self.units.push((raw.into(), unit.clone(), metric.clone()));
        }
        (unit, metric)
    }

    /// [`roles`] of a header.
    pub(super) fn roles<S: AsRef<str>>(
        &mut self,
        headers: &[S],
        first_is_label: bool,
    ) -> Rc<Vec<Role>> {
        let same = |h: &[String]| {
            h.len() == headers.len() && h.iter().zip(headers).all(|(a, b)| a == b.as_ref())
        };
        if let Some((_, _, r)) = self
            .roles
            .iter()
            .find(|(h, f, _)| *f == first_is_label && same(h))
        {
            return r.clone();
        }
        let headers: Vec<String> = headers.iter().map(|h| h.as_ref().to_string()).collect();
        let r = Rc::new(roles(&headers, first_is_label));
        if self.roles.len() < Self::MAX {
            self.roles.push((headers, first_is_label, r.clone()));
        }
        r
    }

    /// [`TablePlan::new`] of `roles`: tables under one header share their
    /// roles (the same `Rc`), and tables under equal headers equal roles.
    fn plan(&mut self, roles: &Rc<Vec<Role>>) -> Rc<TablePlan> {
        if let Some(p) = self
            .plans
            .iter()
            .find(|p| Rc::ptr_eq(&p.roles, roles) || *p.roles == **roles)
        {
            return p.clone();
        }
        let p = Rc::new(TablePlan::new(roles.clone(), self));
        if self.plans.len() < Self::MAX {
            self.plans.push(p.clone());
        }
        p
    }
}

/// The canonical params of one row (see [`canonical_params`]); a row with
/// one parameter, the common case, needs no sorting and fits inline.
pub(super) fn row_params(roles: &[Role], cells: &[Option<&str>]) -> SmolStr {
    let mut params = roles.iter().zip(cells).filter_map(|(r, c)| match (r, c) {
        (Role::Param(name), Some(v)) if !missing(v) => Some((name.as_str(), trim(v))),
        _ => None,
    });
    let Some((k, v)) = params.next() else {
        return SmolStr::default();
    };
    let Some(second) = params.next() else {
        return param_pair(trim(k), v);
    };
    let mut all = vec![(k, v), second];
    all.extend(params);
    canonical_params(&all).into()
}

/// `k=v` as a shared string, built in place when it fits inline.
pub(super) fn param_pair(k: &str, v: &str) -> SmolStr {
    SmolStr::from_iter([k, "=", v])
}

/// The unit and metric of a value whose cell reads as `unit_raw` (its own
/// unit, else its column's or the table's, else `%` or nothing), in a column
/// whose header names `col_metric` and a table whose label header names
/// `default_metric`.
pub(super) fn value_unit(
    memo: &mut Memo,
    unit_raw: &str,
    col_metric: Option<&SmolStr>,
    default_metric: Option<&SmolStr>,
) -> (SmolStr, SmolStr) {
    let (unit, unit_metric) = memo.unit(unit_raw);
    let metric = col_metric
        .or(default_metric)
        .cloned()
        .unwrap_or(unit_metric);
    // A rate named by its metric (`tps`) is also its unit.
    let unit = if unit_raw.is_empty() && RATE_METRICS.contains(&metric.as_str()) {
        memo.unit(&metric).0
    } else {
        unit
    };
    (unit, metric)
}

/// What a value column's header settles for every row of its table, worked
/// out once: names, and the unit and metric of cells that write no unit.
#[derive(Debug)]
pub(super) struct ColPlan {
    /// The stat its header names (a value with a spread in its cell is
    /// of this stat, else a mean).
    col_stat: Option<Stat>,
    /// The stat of a bracketed spread (`[stddev]` in the header).
    bracket: Option<Stat>,
    variant: Option<SmolStr>,
    metric: Option<SmolStr>,
    /// (unit, metric) of a cell without its own unit: plain, then percent.
    units: [(SmolStr, SmolStr); 2],
    /// The stat of a value with no spread in its cell.
    stat: Stat,
}

/// What a table's roles settle for every row, whatever the rows hold:
/// worked out once per header, not once per table.
#[derive(Debug)]
pub struct TablePlan {
    /// The roles this plan is for (kept so that the memo can tell them).
    roles: Rc<Vec<Role>>,
    /// The metric the label header names (`Latency (us)`).
    default_metric: Option<SmolStr>,
    /// Some value column names its variant.
    col_variants: bool,
    /// Some column holds stated changes.
    has_change: bool,
    /// The columns of row labels.
    label_cols: Vec<usize>,
    /// The plan of each value column, `None` for the others.
    cols: Vec<Option<ColPlan>>,
    /// Values, spreads and changes a row may hold.
    values_per_row: usize,
}

impl TablePlan {
    fn new(roles_rc: Rc<Vec<Role>>, memo: &mut Memo) -> TablePlan {
        let roles: &[Role] = &roles_rc;
        let (default_metric, default_unit) = roles
            .iter()
            .find_map(|r| match r {
                Role::Label { metric, unit } => {
                    Some((metric.as_deref().map(SmolStr::new), unit.as_deref()))
                }
                _ => None,
            })
            .unwrap_or((None, None));
        let col_variants = roles
            .iter()
            .any(|r| matches!(r, Role::Value(v) if v.variant.is_some()));
        let has_change = roles.iter().any(|r| matches!(r, Role::Change));
        let label_cols: Vec<usize> = roles
            .iter()
            .enumerate()
            .filter(|(_, r)| matches!(r, Role::Label { .. }))
            .map(|(i, _)| i)
            .collect();
        let cols: Vec<Option<ColPlan>> = roles
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let Role::Value(col) = r else {
                    return None;
                };
                let variant = col.variant.as_deref().map(SmolStr::new);
                let metric = col.metric.as_deref().map(SmolStr::new);
                let fixed = col.unit.as_deref().or(default_unit);
                let mut unit_of =
                    |raw: &str| value_unit(memo, raw, metric.as_ref(), default_metric.as_ref());
                let units = [unit_of(fixed.unwrap_or("")), unit_of(fixed.unwrap_or("%"))];
                let spread_next = matches!(roles.get(i + 1), Some(Role::Spread(_)));
                let stat = col.stat.unwrap_or(if spread_next || col.bracket.is_some() {
                    Stat::Mean
                } else {
                    Stat::Sample
                });
                Some(ColPlan {
                    col_stat: col.stat,
                    bracket: col.bracket,
                    variant,
                    metric,
                    units,
                    stat,
                })
            })
            .collect();
        let values_per_row = roles
            .iter()
            .filter(|r| matches!(r, Role::Value(_) | Role::Spread(_) | Role::Change))
            .count();
        TablePlan {
            default_metric,
            col_variants,
            has_change,
            label_cols,
            cols,
            values_per_row,
            roles: roles_rc,
        }
    }
}

/// What every value of a row shares.
pub(super) struct RowKey<'k> {
    path: &'k SmolStr,
    line: u32,
    benchmark: &'k SmolStr,
    params: &'k SmolStr,
}

impl RowKey<'_> {
    /// One value of the row. Inlined into each caller: a call per value
    /// cost more than building it (and returned it through a copy).
    #[inline(always)]
    fn observation(
        &self,
        variant: &SmolStr,
        metric: &SmolStr,
        unit: &SmolStr,
        stat: Stat,
        value: f64,
    ) -> Observation {
        Observation {
            source: self.path.clone(),
            line: self.line,
            benchmark: self.benchmark.clone(),
            params: self.params.clone(),
            variant: variant.clone(),
            metric: metric.clone(),
            unit: unit.clone(),
            stat,
            value,
            run: None,
            direction: None,
        }
    }
}

/// Turns a table into observations, appended to `out`. `n` is a stated
/// sample count for the whole table (`Iterations=5000`) with the line it was
/// read from.
pub fn emit<'t>(
    path: &SmolStr,
    table: &Table<'t>,
    names: &BlockNames,
    n: Option<(f64, u32)>,
    memo: &mut Memo,
    out: &mut Vec<Observation>,
) -> Result<()> {
    let roles: &[Role] = &table.roles;
    let plan = memo.plan(&table.roles);
    let TablePlan {
        default_metric,
        col_variants,
        has_change,
        label_cols,
        cols: plans,
        values_per_row,
        ..
    } = &*plan;
    let (col_variants, has_change, values_per_row) = (*col_variants, *has_change, *values_per_row);
    // A heading that names a build (`Before using the patch:`) over
    // columns that name theirs (`BASELINE  RESULT  INDEX`): the values are
    // of both, the heading's build first. Worked out once per table.
    let under_build = col_variants && !names.variant.is_empty() && is_variant_like(&names.variant);
    let col_names: Vec<Option<SmolStr>> = plans
        .iter()
        .map(|p| {
            let v = p.as_ref()?.variant.as_ref()?;
            Some(if under_build && !v.contains(names.variant.as_str()) {
                SmolStr::new(format!("{} {v}", names.variant))
            } else {
                v.clone()
            })
        })
        .collect();
    // The label of a row: its non-empty label cells joined by spaces (one
    // label column, the common case, needs no join).
    let label_of = |cells: &[Option<&'t str>]| -> std::borrow::Cow<'t, str> {
        let mut parts = label_cols
            .iter()
            .filter_map(|&i| cells.get(i).copied().flatten())
            .filter(|c| !c.is_empty());
        let Some(first) = parts.next() else {
            return "".into();
        };
        match parts.next() {
            None => first.into(),
            Some(second) => {
                let mut all = vec![first, second];
                all.extend(parts);
                all.join(" ").into()
            }
        }
    };
    // Rows name variants when some row has a label and either a change
    // column or a label that names a build (which is never empty). A table
    // without label columns (most boxed tables) has no row labels at all.
    let rows_are_variants = !col_variants && !label_cols.is_empty() && {
        let (mut any_label, mut any_variant) = (false, false);
        for (_, c) in table.rows() {
            let l = label_of(c);
            any_label |= !l.is_empty();
            any_variant = any_variant || is_variant_like(&l);
        }
        any_label && (has_change || any_variant)
    };
    let pct = SmolStr::new_static("%");
    let value_metric = SmolStr::new_static("value");

    let start = out.len();
    out.reserve(table.lines.len() * values_per_row);
    for (line, cells) in table.rows() {
        let label = if label_cols.is_empty() {
            "".into()
        } else {
            label_of(cells)
        };
        let (benchmark, row_variant) = if label.is_empty() {
            (names.benchmark.clone(), None)
        } else if rows_are_variants {
            (names.benchmark.clone(), Some(SmolStr::new(&label)))
        } else {
            (SmolStr::new(&label), None)
        };
        // Every value of the row shares source, line, benchmark and params.
        let params = row_params(roles, cells);
        let row = RowKey {
            path,
            line,
            benchmark: &benchmark,
            params: &params,
        };
        let mut last: Option<(SmolStr, SmolStr)> = None;
        for (i, (role, cell)) in roles.iter().zip(cells).enumerate() {
            // Labels, parameters and spreads are read with their row or
            // value column: nothing to do in their own.
            if !matches!(role, Role::Value(_) | Role::Change) {
                continue;
            }
            let Some(text) = cell.filter(|t| !missing(t)) else {
                continue;
            };
            match (role, &plans[i]) {
                (Role::Value(_), Some(plan)) => {
                    // A remark instead of a number (`FAIL`, `timeout`) is
                    // left unread, not guessed at.
                    // A value stated in two units (`741978112 (708 MiB)`)
                    // gives both.
                    // A marker after the value (`83668 (-48%)  <--`)
                    // flags the cell, it does not make it a remark.
                    let text = unmarked(text);
                    let reads = match read_value(text) {
                        Some(r) => [Some(r), None],
                        None => match in_two_units(text) {
                            Some((a, b)) => [Some(a), Some(b)],
                            None => continue,
                        },
                    };
                    for (cell, cell_unit) in reads.into_iter().flatten() {
                        let variant = col_names[i]
                            .as_ref()
                            .or(row_variant.as_ref())
                            .unwrap_or(&names.variant);
                        let own;
                        let (unit, metric) = match cell_unit.as_deref() {
                            Some(raw) => {
                                own = value_unit(
                                    memo,
                                    raw,
                                    plan.metric.as_ref(),
                                    default_metric.as_ref(),
                                );
                                (&own.0, &own.1)
                            }
                            None => {
                                let u = &plan.units[usize::from(cell.is_pct)];
                                (&u.0, &u.1)
                            }
                        };
                        let stat = if cell.spread.is_some() {
                            plan.col_stat.unwrap_or(Stat::Mean)
                        } else {
                            plan.stat
                        };
                        out.push(row.observation(variant, metric, unit, stat, cell.value));
                        if let Some(s) = cell.spread {
                            if let Some(c) = signed_change(text) {
                                // A signed bracketed percentage after a
                                // value (`31172 (+27%)`) is its change.
                                let stat = Stat::ChangePct;
                                out.push(row.observation(variant, metric, &pct, stat, c));
                            } else if cell.spread_is_pct {
                                out.push(row.observation(variant, metric, &pct, Stat::Cv, s));
                            } else {
                                let stat = plan.bracket.unwrap_or(Stat::Stddev);
                                out.push(row.observation(variant, metric, unit, stat, s));
                            }
                        }
                        if let (Some(Role::Spread(s)), Some(Some(t))) =
                            (roles.get(i + 1), cells.get(i + 1))
                        {
                            if let Some((sc, _)) = read_value(t) {
                                out.push(row.observation(variant, metric, unit, *s, sc.value));
                            }
                        }
                        // Only a change column reads what its value column was.
                        if has_change {
                            last = Some((variant.clone(), metric.clone()));
                        }
                    }
                }
                (Role::Change, _) => {
                    let Some((cell, _)) = read_value(text) else {
                        continue;
                    };
                    let (variant, metric) = last.clone().unwrap_or_else(|| {
                        let v = row_variant.clone().unwrap_or_else(|| names.variant.clone());
                        let m = default_metric
                            .clone()
                            .unwrap_or_else(|| value_metric.clone());
                        (v, m)
                    });
                    out.push(row.observation(&variant, &metric, &pct, Stat::ChangePct, cell.value));
                }
                _ => {}
            }
        }
    }
    if let Some((n, nline)) = n {
        let mut seen = HashSet::new();
        let mut extra = Vec::new();
        for o in out[start..].iter().filter(|o| o.stat != Stat::ChangePct) {
            let key = (
                o.benchmark.clone(),
                o.params.clone(),
                o.variant.clone(),
                o.metric.clone(),
            );
            if seen.insert(key) {
                let mut c = o.clone();
                c.stat = Stat::N;
                c.value = n;
                c.unit = SmolStr::default();
                c.line = nline;
                extra.push(c);
            }
        }
        out.extend(extra);
    }
    Ok(())
}
