//! Tables: what each column header means (a variant, a metric, a stat, a
//! parameter, a stated change) and how a row of cells becomes observations.

use super::labels::is_variant_like;
use super::lines::{is_value, known_unit, read_value, BoxCells, DataRow, RawCell};
use crate::error::{Error, Result};
use crate::ingest::shared::text::trim;
use crate::model::{canonical_params, Dimension, Observation, SmolStr, Stat, Unit};
use std::collections::HashSet;
use std::rc::Rc;

/// Header words naming a parameter column (`threads` → `threads=512`).
const PARAM_WORDS: &[&str] = &[
    "threads",
    "thread",
    "nthreads",
    "nr_threads",
    "clients",
    "jobs",
    "procs",
    "processes",
    "tasks",
    "cpus",
    "groups",
    "connections",
    "conns",
    "iodepth",
    "bs",
    "size",
    "msgsize",
    "loops",
    "workers",
    "fds",
    "nr",
];

/// Header words naming a column of stated changes.
const CHANGE_WORDS: &[&str] = &[
    "overhead",
    "speedup",
    "speed-up",
    "change",
    "diff",
    "delta",
    "improvement",
    "gain",
    "slowdown",
    "regression",
    "%",
    "% change",
    "%change",
    "%diff",
    "vs base",
    "vs. base",
];

/// Words that name what was measured.
const METRIC_WORDS: &[&str] = &[
    "time",
    "latency",
    "tps",
    "throughput",
    "bandwidth",
    "runtime",
    "duration",
    "score",
    "cycles",
    "ops",
    "ops/s",
    "iops",
    "qps",
    "rps",
    "rate",
    "real",
    "user",
    "sys",
    "elapsed",
    "wall",
    "lat",
    "bw",
    "memory",
    "rss",
    "transactions",
];

/// Metric names that are units of their own.
const RATE_METRICS: &[&str] = &["tps", "qps", "iops", "rps", "ops/s"];

/// What a column of a table holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Role {
    /// Row labels; the header may name the metric and unit of the whole table
    /// (`Latency (us)`).
    Label {
        metric: Option<String>,
        unit: Option<String>,
    },
    /// A parameter whose cell text is its value.
    Param(String),
    /// Values of one variant and metric (or of one stat, `avg`).
    Value(ValueCol),
    /// The spread of the value column before it (`stddev`).
    Spread(Stat),
    /// A change in percent stated for the value column before it.
    Change,
}

/// A column of values and what its header says about them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ValueCol {
    /// The build the header names (`baseline` in `baseline time (ms)`).
    pub variant: Option<String>,
    /// The quantity the header names (`time`).
    pub metric: Option<String>,
    /// The unit in parentheses (`ms`).
    pub unit: Option<String>,
    /// The stat the header names (`avg`, `min`); `None` for plain values.
    pub stat: Option<Stat>,
    /// `[stddev]` in the header: cells are `value [spread]`.
    pub bracket: Option<Stat>,
}

/// A table with the meaning of its columns and its rows' cells aligned to
/// them; the cells borrow the classified lines.
#[derive(Debug, Clone)]
pub struct Table<'a> {
    /// What each column holds.
    /// Shared with the document's other tables under the same header.
    pub roles: Rc<Vec<Role>>,
    /// The original line of each row.
    pub lines: Vec<u32>,
    /// The rows' cells one after the other, `roles.len()` to a row, aligned
    /// to `roles`; `None` where a row has no cell. One buffer for the table,
    /// not one per row.
    pub cells: Vec<Option<&'a str>>,
}

impl<'a> Table<'a> {
    /// (original line, cells) of each row.
    pub fn rows(&self) -> impl Iterator<Item = (u32, &[Option<&'a str>])> {
        // Every table has a column; the guard only keeps `chunks_exact` whole.
        let width = self.roles.len().max(1);
        self.lines
            .iter()
            .copied()
            .zip(self.cells.chunks_exact(width))
    }
}

/// Names a block gives to everything the table itself does not name; built
/// once per block and shared by its rows.
#[derive(Debug, Clone, Default)]
pub struct BlockNames {
    /// Benchmark of rows that do not name their own.
    pub benchmark: SmolStr,
    /// Variant of values whose column or row names none.
    pub variant: SmolStr,
}

/// Splits `baseline time (ms) [stddev]` into words, unit and bracketed stat.
fn split_header(raw: &str) -> (String, Option<String>, Option<Stat>) {
    let mut words = String::new();
    let mut unit = None;
    let mut bracket = None;
    let mut rest = raw;
    while let Some(open) = rest.find(['(', '[']) {
        let close_ch = if rest[open..].starts_with('(') {
            ')'
        } else {
            ']'
        };
        let Some(close_rel) = rest[open..].find(close_ch) else {
            break;
        };
        let close = open + close_rel;
        let inner = rest[open + 1..close].trim();
        words.push_str(&rest[..open]);
        if known_unit(inner) {
            unit = Some(Unit::normalize_spelling(inner).to_string());
        } else if let Ok(s) = inner.parse::<Stat>() {
            bracket = Some(s);
        } else {
            words.push_str(&rest[open..=close]);
        }
        rest = &rest[close + 1..];
    }
    words.push_str(rest);
    let words = words.split_whitespace().collect::<Vec<_>>().join(" ");
    (words, unit, bracket)
}

/// The role of one header cell.
fn header_role(raw: &str) -> Role {
    let (words, unit, bracket) = split_header(raw);
    let lower = words.to_lowercase();
    if lower.is_empty() {
        return match unit {
            Some(u) => Role::Value(ValueCol {
                unit: Some(u),
                bracket,
                ..ValueCol::default()
            }),
            None => Role::Label {
                metric: None,
                unit: None,
            },
        };
    }
    if PARAM_WORDS.contains(&lower.as_str()) {
        return Role::Param(lower);
    }
    if CHANGE_WORDS.contains(&lower.as_str()) {
        return Role::Change;
    }
    let mut col = ValueCol {
        unit,
        bracket,
        ..ValueCol::default()
    };
    if let Ok(s) = lower.parse::<Stat>() {
        col.stat = Some(s);
        return Role::Value(col);
    }
    let mut ws: Vec<&str> = words.split(' ').collect();
    if ws.len() > 1 {
        if let Some(Ok(s)) = ws.last().map(|w| w.parse::<Stat>()) {
            col.stat = Some(s);
            ws.pop();
        }
    }
    let last = ws.last().map(|w| w.to_lowercase()).unwrap_or_default();
    if METRIC_WORDS.contains(&last.as_str()) {
        col.metric = Some(last);
        ws.pop();
    }
    if !ws.is_empty() {
        col.variant = Some(ws.join(" "));
    }
    Role::Value(col)
}

/// The role of a header cell over the row labels: it may name the metric
/// and unit of the whole table (`Latency (us)`).
fn label_role(raw: &str) -> Role {
    let (words, unit, _) = split_header(raw);
    let lower = words.to_lowercase();
    if PARAM_WORDS.contains(&lower.as_str()) {
        return Role::Param(lower);
    }
    // Only a measured quantity names the table's metric; `benchmark`,
    // `kernel`, `test` just name the label column.
    let metric = (!lower.is_empty() && (unit.is_some() || METRIC_WORDS.contains(&lower.as_str())))
        .then_some(lower);
    Role::Label { metric, unit }
}

/// Roles of all header cells; `first_is_label` when the first header cell
/// sits over the row labels.
pub fn roles(headers: &[String], first_is_label: bool) -> Vec<Role> {
    let mut out: Vec<Role> = Vec::with_capacity(headers.len());
    for (i, h) in headers.iter().enumerate() {
        let role = if i == 0 && first_is_label {
            label_role(h)
        } else {
            header_role(h)
        };
        // `stddev` right after a value column is that column's spread.
        let role = match role {
            Role::Value(ValueCol {
                stat: Some(s @ (Stat::Stddev | Stat::Stderr | Stat::Cv)),
                variant: None,
                metric: None,
                ..
            }) if matches!(out.last(), Some(Role::Value(v)) if v.stat.is_none() || v.stat == Some(Stat::Mean)) => {
                Role::Spread(s)
            }
            r => r,
        };
        out.push(role);
    }
    out
}

/// Builds a boxed table from its header rows and data rows; every row must
/// have as many cells as the header.
pub fn boxed<'a>(
    path: &str,
    header_rows: &[(u32, BoxCells<'a>)],
    data: &[(u32, BoxCells<'a>)],
    memo: &mut Memo,
) -> Result<Option<Table<'a>>> {
    let Some((hline, first)) = header_rows.first() else {
        return Ok(None);
    };
    let first: Vec<&str> = first.iter().collect();
    let width = first.len();
    // A header over several rows joins its cells; one row (the common
    // case) is read as it stands.
    let mut joined: Option<Vec<String>> = None;
    for (line, h) in &header_rows[1..] {
        let h: Vec<&str> = h.iter().collect();
        if h.len() != width {
            return Err(ragged(path, *line, h.len(), width, *hline));
        }
        let headers = joined.get_or_insert_with(|| first.iter().map(|h| h.to_string()).collect());
        for (a, b) in headers.iter_mut().zip(h) {
            if !b.is_empty() {
                a.push(' ');
                a.push_str(b);
            }
        }
    }
    let mut lines = Vec::with_capacity(data.len());
    let mut all = Vec::with_capacity(data.len() * width);
    for (line, cells) in data {
        let row = all.len();
        all.extend(cells.iter().map(Some));
        if all.len() - row != width {
            return Err(ragged(path, *line, all.len() - row, width, *hline));
        }
        lines.push(*line);
    }
    // The first column holds row labels when its cells are not numbers.
    let first_is_label = all
        .chunks_exact(width.max(1))
        .any(|c| c[0].is_some_and(|t| !t.is_empty() && !is_value(t)));
    let mut roles = match &joined {
        Some(headers) => memo.roles(headers, first_is_label),
        None => memo.roles(&first, first_is_label),
    };
    if !first_is_label && matches!(roles.first(), Some(Role::Label { .. })) {
        let first_header = joined.as_ref().map_or(first[0], |h| h[0].as_str());
        Rc::make_mut(&mut roles)[0] = Role::Param(first_header.to_lowercase());
    }
    Ok(Some(Table {
        roles,
        lines,
        cells: all,
    }))
}

fn ragged(path: &str, line: u32, got: usize, want: usize, header_line: u32) -> Error {
    Error::input(
        path,
        Some(line),
        format!("table row has {got} columns but its header (line {header_line}) has {want}"),
    )
}

/// Builds a table of aligned columns. The header (if any) is matched to the
/// numeric cells by count: one header cell per value, or one more for the
/// row-label column; a trailing percentage beyond the header is a stated change.
pub fn aligned<'a>(
    path: &str,
    header: Option<(u32, &[RawCell])>,
    data: &[(u32, &'a DataRow)],
    memo: &mut Memo,
) -> Result<Option<Table<'a>>> {
    let k_max = data.iter().map(|(_, r)| r.cells.len()).max().unwrap_or(0);
    let extra_pct =
        |k: usize, r: &DataRow| k == r.cells.len() && r.cells.last().is_some_and(|(_, c)| c.is_pct);
    let Some((hline, hcells)) = header else {
        return Ok(headerless(data));
    };
    let h: Vec<String> = hcells.iter().map(|c| c.text.clone()).collect();
    let width = h.len();
    let mut roles = if width == k_max + 1 {
        memo.roles(&h, true).as_ref().clone()
    } else if width == k_max
        || width + 1 == k_max
            && data
                .iter()
                .filter(|(_, r)| r.cells.len() == k_max)
                .all(|(_, r)| extra_pct(k_max, r))
    {
        let mut r = vec![Role::Label {
            metric: None,
            unit: None,
        }];
        r.extend(memo.roles(&h, false).iter().cloned());
        r
    } else {
        return Ok(None);
    };
    key_column(&mut roles, &h, width == k_max, data);
    let values_wanted = roles.len() - 1;
    if k_max > values_wanted {
        roles.push(Role::Change);
    }
    let last_is_change = matches!(roles.last(), Some(Role::Change));
    let mut lines = Vec::with_capacity(data.len());
    let mut cells = Vec::with_capacity(data.len() * roles.len());
    for (line, r) in data {
        let k = r.cells.len();
        let ok = k == roles.len() - 1 || (last_is_change && k + 2 == roles.len());
        if !ok {
            return Err(ragged(path, *line, k + 1, values_wanted + 1, hline));
        }
        lines.push(*line);
        push_row(&mut cells, r, roles.len());
    }
    Ok(Some(Table {
        roles: Rc::new(roles),
        lines,
        cells,
    }))
}

/// Makes the first value column a parameter when the rows have no label
/// and it holds one plain integer per row, rising (`N  base  patched` over
/// `1 …`, `4 …`, `8 …`): it says which setting a row is, whatever its
/// header word means elsewhere (`N` is no count of runs there).
fn key_column(roles: &mut [Role], header: &[String], label_added: bool, data: &[(u32, &DataRow)]) {
    if !label_added || data.len() < 2 || roles.len() < 3 {
        return;
    }
    let key: Option<Vec<f64>> = data
        .iter()
        .map(|(_, r)| {
            let (text, cell) = r.cells.first()?;
            let plain =
                r.label.is_empty() && !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
            (plain && !cell.is_pct).then_some(cell.value)
        })
        .collect();
    let rising = key.is_some_and(|k| k.windows(2).all(|w| w[0] < w[1]));
    let name = header
        .first()
        .map(|h| h.trim().to_lowercase())
        .unwrap_or_default();
    if rising && matches!(roles[1], Role::Value(_)) && !name.is_empty() {
        roles[1] = Role::Param(name);
    }
}

/// Appends the label and numeric cells of `r` to `cells`, padded with
/// `None` to `width`.
fn push_row<'a>(cells: &mut Vec<Option<&'a str>>, r: &'a DataRow, width: usize) {
    let end = cells.len() + width;
    cells.push(Some(r.label.as_str()));
    cells.extend(r.cells.iter().map(|(t, _)| Some(t.as_str())));
    cells.resize(end, None);
}

/// A list of `label  value [+change%]` rows without a header.
fn headerless<'a>(data: &[(u32, &'a DataRow)]) -> Option<Table<'a>> {
    let list = data.len() >= 2
        && data.iter().all(|(_, r)| {
            !r.label.is_empty()
                && (r.cells.len() == 1
                    || r.cells.len() == 2 && r.cells[1].1.is_pct && !r.cells[0].1.is_pct)
        });
    if !list {
        return None;
    }
    let change = data.iter().any(|(_, r)| r.cells.len() == 2);
    let mut roles = vec![
        Role::Label {
            metric: None,
            unit: None,
        },
        Role::Value(ValueCol::default()),
    ];
    if change {
        roles.push(Role::Change);
    }
    let mut cells = Vec::with_capacity(data.len() * roles.len());
    for (_, r) in data {
        push_row(&mut cells, r, roles.len());
    }
    Some(Table {
        lines: data.iter().map(|(line, _)| *line).collect(),
        roles: Rc::new(roles),
        cells,
    })
}

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

fn missing(t: &str) -> bool {
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
    fn roles<S: AsRef<str>>(&mut self, headers: &[S], first_is_label: bool) -> Rc<Vec<Role>> {
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
fn row_params(roles: &[Role], cells: &[Option<&str>]) -> SmolStr {
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
fn param_pair(k: &str, v: &str) -> SmolStr {
    SmolStr::from_iter([k, "=", v])
}

/// The unit and metric of a value whose cell reads as `unit_raw` (its own
/// unit, else its column's or the table's, else `%` or nothing), in a column
/// whose header names `col_metric` and a table whose label header names
/// `default_metric`.
fn value_unit(
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
struct ColPlan {
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
struct RowKey<'k> {
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
                    let Some((cell, cell_unit)) = read_value(text) else {
                        continue;
                    };
                    let variant = plan
                        .variant
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
                        if cell.spread_is_pct {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_cells() {
        let r = roles(
            &[
                "threads",
                "baseline time (ms)",
                "stddev",
                "patched time (ms)",
                "stddev",
                "overhead",
            ]
            .map(String::from),
            false,
        );
        assert_eq!(r[0], Role::Param("threads".into()));
        let Role::Value(v) = &r[1] else { panic!() };
        assert_eq!(
            (v.variant.as_deref(), v.metric.as_deref(), v.unit.as_deref()),
            (Some("baseline"), Some("time"), Some("ms"))
        );
        assert_eq!(r[2], Role::Spread(Stat::Stddev));
        assert_eq!(r[5], Role::Change);
        let r = roles(&["atomicops time (ms) [stddev]".to_string()], false);
        let Role::Value(v) = &r[0] else { panic!() };
        assert_eq!(
            (v.variant.as_deref(), v.bracket),
            (Some("atomicops"), Some(Stat::Stddev))
        );
        let r = roles(
            &["Latency (us)", "min", "avg", "stddev"].map(String::from),
            true,
        );
        assert_eq!(
            r[0],
            Role::Label {
                metric: Some("latency".into()),
                unit: Some("us".into())
            }
        );
        let Role::Value(v) = &r[2] else { panic!() };
        assert_eq!(v.stat, Some(Stat::Mean));
        // `stddev` after a stat column is its own stat, not a spread.
        assert!(matches!(&r[3], Role::Spread(Stat::Stddev)));
        let r = roles(&["no lock prefix (s)", "tps"].map(String::from), false);
        let Role::Value(v) = &r[0] else { panic!() };
        assert_eq!(
            (v.variant.as_deref(), v.metric.as_deref(), v.unit.as_deref()),
            (Some("no lock prefix"), None, Some("s"))
        );
        let Role::Value(v) = &r[1] else { panic!() };
        assert_eq!(
            (v.variant.as_deref(), v.metric.as_deref()),
            (None, Some("tps"))
        );
    }
}
