//! Building a table from the rows of a block: boxed, aligned under a header, or headerless.

use super::super::labels::key_name;
use super::super::lines::{in_two_units, is_value, BoxCells, DataRow, RawCell};
use super::*;
use crate::error::{Error, Result};
use std::rc::Rc;

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
    // A column numbering the rows before their labels holds no value.
    let (first, joined, mut all, width) =
        match super::index_column::without(&first, joined.as_deref(), &all, width) {
            Some((f, j, a)) => (f, j, a, width - 1),
            None => (first, joined, all, width),
        };
    // The first column holds row labels when its cells are not numbers.
    let first_is_label = all
        .chunks_exact(width.max(1))
        .any(|c| c[0].is_some_and(|t| !t.is_empty() && !is_value(t)));
    let mut roles = match &joined {
        Some(headers) => memo.roles(headers, first_is_label),
        None => memo.roles(&first, first_is_label),
    };
    let first_header = joined.as_ref().map_or(first[0], |h| h[0].as_str());
    // A first column of plain rising integers says which setting a row is
    // (`#vCPU` over 1, 2, 4, …), as in an aligned table's key column.
    let keyed = !first_is_label
        && !key_name(first_header).is_empty()
        && !super::super::labels::is_variant_like(first_header)
        && all
            .chunks_exact(width.max(1))
            .map(|c| c[0].and_then(plain_integer))
            .collect::<Option<Vec<f64>>>()
            .is_some_and(|k| k.len() >= 2 && rising_or_repeated(&k));
    if !first_is_label && (keyed || matches!(roles.first(), Some(Role::Label { .. }))) {
        Rc::make_mut(&mut roles)[0] = Role::Param(key_name(first_header));
    }
    if first_is_label {
        let rows = all.len() / width.max(1);
        // A column under a header whose every cell is words (the options
        // a row was run with, written at its end) is a parameter of the
        // row: rows differing only there are different runs, not samples.
        let worded = |c: usize| {
            (0..rows).all(|r| {
                all[r * width + c].is_some_and(|t| {
                    !t.is_empty()
                        && !is_value(t)
                        && in_two_units(t).is_none()
                        && t.chars().any(char::is_alphabetic)
                })
            })
        };
        let header_of = |c: usize| joined.as_ref().map_or(first[c], |h| h[c].as_str());
        let worded: Vec<usize> = (1..width)
            .filter(|&c| matches!(roles[c], Role::Value(_)) && worded(c))
            .filter(|&c| !key_name(header_of(c)).is_empty())
            .collect();
        for c in worded {
            Rc::make_mut(&mut roles)[c] = Role::Param(key_name(header_of(c)));
        }
        // Rows grouped under one name leave its cell blank after the
        // group's first row: the name carries down to them.
        for r in 1..rows {
            let (above, row) = all.split_at_mut(r * width);
            let has_values = row[1..width]
                .iter()
                .any(|c| c.is_some_and(|t| !t.is_empty()));
            if row[0] == Some("") && has_values {
                row[0] = above[(r - 1) * width];
            }
        }
    }
    Ok(Some(Table {
        roles,
        lines,
        cells: all,
    }))
}

pub(super) fn ragged(path: &str, line: u32, got: usize, want: usize, header_line: u32) -> Error {
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
    // The label column was added when the header names only the values,
    // with or without the stated change after them.
    let label_added = width != k_max + 1;
    let keyed = key_column(&mut roles, &h, label_added, data)
        || super::nested_keys::crossed(&mut roles, &h, label_added, data, key_name);
    let values_wanted = roles.len() - 1;
    if k_max > values_wanted {
        roles.push(Role::Change);
    }
    let last_is_change = matches!(roles.last(), Some(Role::Change));
    let mut lines = Vec::with_capacity(data.len());
    let mut cells = Vec::with_capacity(data.len() * roles.len());
    for (line, r) in data {
        let k = r.cells.len();
        // `Average  2.05  2.04` under `2  2.03  2.04`: a word where the
        // key column holds its numbers.
        if keyed && summary_row(r, values_wanted) {
            lines.push(*line);
            push_keyless_row(&mut cells, r, roles.len());
            continue;
        }
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
/// `1 …`, `4 …`, `8 …`) or the same rising series again for each run
/// (`2 3 4 5 2 3 4 5`): it says which setting a row is, whatever its
/// header word means elsewhere (`N` is no count of runs there). Rows
/// with a word in that column instead (`Average`, one value fewer) are
/// summaries and do not count. True when the column became a key.
pub(super) fn key_column(
    roles: &mut [Role],
    header: &[String],
    label_added: bool,
    data: &[(u32, &DataRow)],
) -> bool {
    if !label_added || data.len() < 2 || roles.len() < 3 {
        return false;
    }
    let values = roles.len() - 1;
    let key: Option<Vec<f64>> = data
        .iter()
        .filter(|(_, r)| !summary_row(r, values))
        .map(|(_, r)| {
            let (text, cell) = r.cells.first()?;
            let plain =
                r.label.is_empty() && !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
            (plain && !cell.is_pct).then_some(cell.value)
        })
        .collect();
    let name = header.first().map(|h| key_name(h)).unwrap_or_default();
    let keyed = key.is_some_and(|k| k.len() >= 2 && rising_or_repeated(&k));
    if keyed && matches!(roles[1], Role::Value(_)) && !name.is_empty() {
        roles[1] = Role::Param(name);
        count_keys(roles, header, data);
        return true;
    }
    false
}

/// Makes a key of each column right of the key column whose header is a
/// count (`Count`, `N`, `runs`) and whose cells are plain integers rising
/// from row to row: fs_mark's `FSUse%  Count  Size` over `10  1200000  0`
/// states the files made so far, a setting of the row like the fill
/// level beside it. A count of the runs behind a row's values is the
/// same from row to row, or at least does not rise with every row.
fn count_keys(roles: &mut [Role], header: &[String], data: &[(u32, &DataRow)]) {
    let values = roles.len() - 1;
    for (c, role) in roles.iter_mut().enumerate().skip(2) {
        let is_count = matches!(
            role,
            Role::Value(ValueCol {
                stat: Some(Stat::N),
                variant: None,
                metric: None,
                ..
            })
        );
        let Some(name) = header.get(c - 1).map(|h| key_name(h)) else {
            break;
        };
        let column: Option<Vec<f64>> = data
            .iter()
            .filter(|(_, r)| !summary_row(r, values))
            .map(|(_, r)| {
                let (text, cell) = r.cells.get(c - 1)?;
                (text.bytes().all(|b| b.is_ascii_digit()) && !text.is_empty()).then_some(cell.value)
            })
            .collect();
        let rising = column.is_some_and(|k| k.len() >= 2 && k.windows(2).all(|w| w[0] < w[1]));
        if is_count && rising && !name.is_empty() {
            *role = Role::Param(name);
        }
    }
}

/// The value of a cell that is a plain unsigned integer (`64`, not `6.4`,
/// `64%` or `64K`).
fn plain_integer(text: &str) -> Option<f64> {
    let t = text.trim();
    (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
        .then(|| t.parse().ok())
        .flatten()
}

/// Whether `k` rises, or is one rising series written again and again.
fn rising_or_repeated(k: &[f64]) -> bool {
    let period = k
        .windows(2)
        .position(|w| w[0] >= w[1])
        .map_or(k.len(), |i| i + 1);
    period >= 2 && k.iter().enumerate().all(|(i, v)| *v == k[i % period])
}

/// A row that names itself with a word and holds one value fewer than a
/// keyed table's rows (`Average`, `Total`).
fn summary_row(r: &DataRow, values: usize) -> bool {
    !r.label.is_empty() && r.cells.len() + 1 == values
}

/// [`push_row`] for a summary row of a keyed table: its label, no key,
/// then its values.
fn push_keyless_row<'a>(cells: &mut Vec<Option<&'a str>>, r: &'a DataRow, width: usize) {
    let end = cells.len() + width;
    cells.push(Some(r.label.as_str()));
    cells.push(None);
    cells.extend(r.cells.iter().map(|(t, _)| Some(t.as_str())));
    cells.resize(end, None);
}

/// Appends the label and numeric cells of `r` to `cells`, padded with
/// `None` to `width`.
pub(super) fn push_row<'a>(cells: &mut Vec<Option<&'a str>>, r: &'a DataRow, width: usize) {
    let end = cells.len() + width;
    cells.push(Some(r.label.as_str()));
    cells.extend(r.cells.iter().map(|(t, _)| Some(t.as_str())));
    cells.resize(end, None);
}

/// A list of `label  value [+change%]` rows without a header.
pub(super) fn headerless<'a>(data: &[(u32, &'a DataRow)]) -> Option<Table<'a>> {
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
