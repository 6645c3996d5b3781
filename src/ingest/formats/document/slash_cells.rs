//! Table cells holding two or more numbers joined by slashes, one pair
//! per column (`g=1(4K size)   0.1/1.3   0.1/0.8` under `before opt(us)
//! after opt(us)`, a map and an unmap latency; `Encrypt / Decrypt
//! 114/106  36/48` under four SoC names). No table layout reads such a
//! cell, and the whole table gave no row.
//!
//! Where the row's label names the parts (`Encrypt / Decrypt`,
//! `Read/Write IOPS`), the row is read as one row per part, each part
//! at its cell's column, so that a header above (in this paragraph or an
//! earlier one) still stands over it. Otherwise each column is read as
//! one column per part, named by its header's slashed names
//! (`map/unmap`) or, as the post's prose cannot be known, by the header
//! with the part's index (`before opt(us) #1`); the header and rows are
//! laid out again with a column per part.

use super::rewrite;
use crate::ingest::shared::pattern::lazy_re;
use crate::ingest::{Line, Source};
use std::borrow::Cow;

lazy_re!(
    SLASHED_CELL,
    r"^[-+]?\d+(?:\.\d+)?[A-Za-zµ%]*(?:/[-+]?\d+(?:\.\d+)?[A-Za-zµ%]*)+$"
);

lazy_re!(
    SLASHED_NAMES,
    r"[A-Za-z][\w.+-]*(?:\s*/\s*[A-Za-z][\w.+-]*)+"
);

/// A cell of a line split on runs of two or more spaces or a tab: its
/// first column and text.
#[derive(Debug, Clone)]
struct Cell {
    col: usize,
    text: String,
}

/// The cells of `text`, split on runs of two or more blanks or a tab.
fn cells(text: &str) -> Vec<Cell> {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<Cell> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() {
            let gap = chars[i] == '\t'
                || (chars[i] == ' ' && chars.get(i + 1).is_some_and(|c| c.is_whitespace()));
            if gap {
                break;
            }
            i += 1;
        }
        let text: String = chars[start..i].iter().collect();
        out.push(Cell {
            col: start,
            text: text.trim_end().to_string(),
        });
    }
    out
}

/// A row of slashed cells: its label cells, and each value cell split
/// into its parts (`None` for a cell with no value, `n/a` or `-`).
#[derive(Debug, Clone)]
struct Row {
    label: Vec<Cell>,
    values: Vec<(Cell, Option<Vec<String>>)>,
}

/// Whether `cell` is a date (`2019/07/02`), which a slash does not part.
fn is_date(cell: &str) -> bool {
    let parts: Vec<&str> = cell.split('/').collect();
    parts.len() == 3
        && parts.iter().all(|p| p.chars().all(|c| c.is_ascii_digit()))
        && (parts[0].len() == 4 || parts[2].len() == 4)
}

/// `text` read as a row of slashed cells of `parts` parts each: a label
/// with a letter, then value cells only, two or more of them slashed.
fn row(text: &str) -> Option<(Row, usize)> {
    // Most lines hold no number joined to another by a slash: told from
    // the bytes before any cell is made (a log of paths has many slashes).
    let b = text.as_bytes();
    if !b
        .windows(3)
        .any(|w| w[0].is_ascii_digit() && w[1] == b'/' && w[2].is_ascii_digit())
    {
        return None;
    }
    let cs = cells(text);
    let first_value = cs
        .iter()
        .position(|c| SLASHED_CELL.is_match(&c.text) && !is_date(&c.text))?;
    let (label, values) = cs.split_at(first_value);
    if label.is_empty()
        || !label
            .iter()
            .any(|c| c.text.chars().any(char::is_alphabetic))
    {
        return None;
    }
    let mut parts = 0;
    let mut slashed = 0;
    let mut out = Vec::new();
    for c in values {
        if SLASHED_CELL.is_match(&c.text) && !is_date(&c.text) {
            let p: Vec<String> = c.text.split('/').map(str::to_string).collect();
            if parts != 0 && p.len() != parts {
                return None;
            }
            parts = p.len();
            slashed += 1;
            out.push((c.clone(), Some(p)));
        } else if ["n/a", "N/A", "-", "--"].contains(&c.text.as_str()) {
            out.push((c.clone(), None));
        } else {
            return None;
        }
    }
    (slashed >= 2).then_some((
        Row {
            label: label.to_vec(),
            values: out,
        },
        parts,
    ))
}

/// The names a slashed word group of `text` stands for, one per part
/// (`Encrypt / Decrypt` → `Encrypt`, `Decrypt`; `Read/Write IOPS` →
/// `Read IOPS`, `Write IOPS`), when it has `parts` names of two letters or
/// more that are no unit (`MB/s`).
fn part_names(text: &str, parts: usize) -> Option<Vec<String>> {
    let m = SLASHED_NAMES.find(text)?;
    let names: Vec<&str> = m.as_str().split('/').map(str::trim).collect();
    let unit_like = |n: &str| {
        n.chars().filter(|c| c.is_alphabetic()).count() < 2
            || ["sec", "secs", "ms", "us", "ns", "min"].contains(&n.to_lowercase().as_str())
    };
    if names.len() != parts || names.iter().any(|n| unit_like(n)) {
        return None;
    }
    let (pre, post) = (&text[..m.start()], &text[m.end()..]);
    Some(
        names
            .iter()
            .map(|n| format!("{pre}{n}{post}").trim().to_string())
            .collect(),
    )
}

/// `text` with `cell` written from column `col` on, after at least two
/// blanks.
fn put(text: &mut String, col: usize, cell: &str) {
    let width = text.chars().count();
    let pad = if width == 0 {
        col
    } else {
        col.saturating_sub(width).max(2)
    };
    text.extend(std::iter::repeat_n(' ', pad));
    text.push_str(cell);
}

/// The lines of a row whose label names its parts: one per part, each
/// value at its cell's column.
fn split_row(r: &Row, names: &[String]) -> Vec<String> {
    let label_col = r.label[0].col;
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let mut text = String::new();
            // The values keep their columns, whatever the part's name.
            put(&mut text, label_col, name);
            for (cell, parts) in &r.values {
                let v = parts.as_ref().map_or(cell.text.as_str(), |p| p[i].as_str());
                put(&mut text, cell.col, v);
            }
            text
        })
        .collect()
}

/// The names of the columns a header cell stands for, one per part.
fn column_names(header: &str, parts: usize) -> Vec<String> {
    part_names(header, parts)
        .unwrap_or_else(|| (1..=parts).map(|i| format!("{header} #{i}")).collect())
}

/// A table of slashed rows under `header` (its cells, one per value
/// column, or one more over the labels), laid out again with a column
/// per part.
fn split_columns(
    header: Option<&[Cell]>,
    rows: &[Row],
    parts: usize,
) -> (Option<String>, Vec<String>) {
    let k = rows[0].values.len();
    let label_of = |r: &Row| {
        r.label
            .iter()
            .map(|c| c.text.as_str())
            .collect::<Vec<_>>()
            .join("  ")
    };
    let label_width = rows
        .iter()
        .map(|r| label_of(r).chars().count())
        .chain(
            header
                .filter(|h| h.len() > k)
                .map(|h| h[0].text.chars().count()),
        )
        .max()
        .unwrap_or(0);
    let names: Option<Vec<String>> = header.map(|h| {
        h[h.len() - k..]
            .iter()
            .flat_map(|c| column_names(&c.text, parts))
            .collect()
    });
    let mut widths = vec![0usize; k * parts];
    for r in rows {
        for (j, (cell, ps)) in r.values.iter().enumerate() {
            for p in 0..parts {
                let v = ps.as_ref().map_or(cell.text.as_str(), |ps| ps[p].as_str());
                widths[j * parts + p] = widths[j * parts + p].max(v.chars().count());
            }
        }
    }
    if let Some(n) = &names {
        for (w, name) in widths.iter_mut().zip(n) {
            *w = (*w).max(name.chars().count());
        }
    }
    let lay = |label: &str, cells: Vec<String>| {
        let mut text = format!("{label:<label_width$}");
        for (c, w) in cells.iter().zip(&widths) {
            text.push_str("   ");
            text.push_str(&format!("{c:>w$}"));
        }
        text.trim_end().to_string()
    };
    let head = names.map(|n| {
        let first = header
            .filter(|h| h.len() > k)
            .map_or(String::new(), |h| h[0].text.clone());
        lay(&first, n)
    });
    let lines = rows
        .iter()
        .map(|r| {
            let cells = r
                .values
                .iter()
                .flat_map(|(cell, ps)| {
                    (0..parts)
                        .map(move |p| ps.as_ref().map_or(cell.text.clone(), |ps| ps[p].clone()))
                })
                .collect();
            lay(&label_of(r), cells)
        })
        .collect();
    (head, lines)
}

/// Whether `text` can head `k` value columns: `k` cells, or `k + 1` with
/// one over the labels, none of them a number.
fn header_cells(text: &str, k: usize) -> Option<Vec<Cell>> {
    let cs = cells(text);
    let numeric = |c: &Cell| c.text.parse::<f64>().is_ok() || SLASHED_CELL.is_match(&c.text);
    ((cs.len() == k || cs.len() == k + 1) && !cs.iter().any(numeric)).then_some(cs)
}

/// `src`, or a copy in which rows of slashed cells are written one value
/// per cell (see the module documentation).
pub fn expand(src: &Source) -> Cow<'_, Source> {
    if !src
        .lines
        .iter()
        .any(|l| l.text.contains('/') && row(&l.text).is_some())
    {
        return Cow::Borrowed(src);
    }
    let lines = &src.lines;
    let mut out: Vec<Line> = Vec::with_capacity(lines.len() + 8);
    // Replacement texts by line index; a split row gives several lines.
    let mut replaced: Vec<Option<Vec<String>>> = vec![None; lines.len()];
    for r in rewrite::paragraphs(lines) {
        rewrite_block(&lines[r.clone()], r.start, &mut replaced);
    }
    for (l, r) in lines.iter().zip(replaced) {
        match r {
            None => out.push(l.clone()),
            Some(texts) => out.extend(texts.into_iter().map(|text| Line {
                text,
                number: l.number,
                quote_depth: l.quote_depth,
            })),
        }
    }
    let mut src = src.clone();
    src.lines = out;
    Cow::Owned(src)
}

/// Rewrites the slashed rows of one block (lines `offset..` of the
/// source) into `replaced`.
fn rewrite_block(block: &[Line], offset: usize, replaced: &mut [Option<Vec<String>>]) {
    let parsed: Vec<Option<(Row, usize)>> = block.iter().map(|l| row(&l.text)).collect();
    // The runs of rows of the same shape: parts per cell, values per row.
    let shapes = rewrite::runs(&parsed, |_, p| {
        p.as_ref().map(|(r, parts)| (*parts, r.values.len()))
    });
    for (run, (parts, k)) in shapes {
        let (j, end) = (run.start, run.end);
        let rows: Vec<&Row> = parsed[j..end].iter().flatten().map(|(r, _)| r).collect();
        let label_text = |r: &Row| {
            r.label
                .iter()
                .map(|c| c.text.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let named: Option<Vec<Vec<String>>> = rows
            .iter()
            .map(|r| part_names(&label_text(r), parts))
            .collect();
        if let Some(named) = named {
            for (n, (r, names)) in rows.iter().zip(named).enumerate() {
                replaced[offset + j + n] = Some(split_row(r, &names));
            }
        } else if end - j >= 2 {
            // The header: the nearest line above but a rule.
            let header = (0..j)
                .rev()
                .find(|&h| !crate::ingest::shared::text::is_rule(&block[h].text))
                .filter(|&h| parsed[h].is_none())
                .and_then(|h| header_cells(&block[h].text, k).map(|c| (h, c)));
            let owned: Vec<Row> = rows.iter().map(|&r| r.clone()).collect();
            let (head, lines) =
                split_columns(header.as_ref().map(|(_, c)| c.as_slice()), &owned, parts);
            if let (Some((h, _)), Some(text)) = (header.as_ref(), head) {
                replaced[offset + h] = Some(vec![text]);
            }
            for (n, text) in lines.into_iter().enumerate() {
                replaced[offset + j + n] = Some(vec![text]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::Format;

    fn texts(src: &Source) -> Vec<String> {
        src.lines.iter().map(|l| l.text.clone()).collect()
    }

    /// Rows of a part-q post (dma_map_benchmark, map/unmap latency).
    const IOMMU: &str = "\
> t = 1(thread = 1):
>                    before opt(us)   after opt(us)
> g=1(4K size)        0.1/1.3          0.1/0.8
> g=2(8K size)        0.2/1.5          0.2/0.9
> g=4(16K size)       0.3/1.9          0.1/1.1
";

    #[test]
    fn each_part_of_a_slashed_column_is_a_column_of_its_own() {
        let src = Source::from_text("m.txt", IOMMU);
        let got = texts(&expand(&src));
        assert_eq!(got.len(), 5);
        assert_eq!(got[0], "t = 1(thread = 1):");
        let head = cells(&got[1]);
        let names: Vec<&str> = head.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(
            names,
            [
                "before opt(us) #1",
                "before opt(us) #2",
                "after opt(us) #1",
                "after opt(us) #2"
            ]
        );
        let row: Vec<String> = cells(&got[2]).into_iter().map(|c| c.text).collect();
        assert_eq!(row, ["g=1(4K size)", "0.1", "1.3", "0.1", "0.8"]);
        let rows = crate::ingest::formats::document::Document
            .parse(&src)
            .unwrap();
        for v in [0.1, 1.3, 0.8, 1.5, 1.9, 1.1] {
            assert!(rows.iter().any(|o| o.value == v), "{v} not read: {rows:?}");
        }
        let unmap = rows.iter().find(|o| o.value == 1.9).unwrap();
        assert!(unmap.variant.contains("before opt"), "{unmap:?}");
    }

    /// Rows of a quoted table of another post (cryptsetup benchmark per
    /// SoC): the row's label names the two parts, and the header stands
    /// in the paragraph above.
    #[test]
    fn a_row_whose_label_names_its_parts_is_one_row_per_part() {
        let text = "\
>>                          SDM845    SM8150     SM8250     SM8350
>> AES-CBC (128)
>> Encrypt / Decrypt       114/106  36/48       120/188    133/197
>>
>> AES-XTS (256)
>> Encrypt / Decrypt       100/102  49/48       186/187    n/a
";
        let src = Source::from_text("m.txt", text);
        let got = texts(&expand(&src));
        assert_eq!(
            got[2],
            "Encrypt                 114      36          120        133"
        );
        assert_eq!(
            got[3],
            "Decrypt                 106      48          188        197"
        );
        assert_eq!(
            got[7],
            "Decrypt                 102      48          187        n/a"
        );
        assert_eq!(src.lines[2].number, 3);
        assert_eq!(expand(&src).lines[3].number, 3);
    }

    #[test]
    fn other_slashes_are_left_alone() {
        for text in [
            // One slashed cell (a count out of a total), dates, a ratio.
            "tests passed      3/4\nruns failed       1/4\n",
            "Timestamp        Free  Calls\n2025/9/8 19:04   433   0\n",
            "day   2019/07/02   2019/07/03\nrun   2019/07/04   2019/07/05\n",
            "loadavg: 6.76 7.00 3.95 2/353 15702\n",
            "                 20/20 20480  96 +++++ +++ 20480  95\n",
            // Slashed cells of different part counts.
            "a   1/2   1/2/3\nb   1/2   1/2/3\n",
        ] {
            let src = Source::from_text("m.txt", text);
            assert!(matches!(expand(&src), Cow::Borrowed(_)), "{text}");
        }
    }

    #[test]
    fn names_of_the_parts() {
        assert_eq!(
            part_names("Read/Write IOPS", 2).unwrap(),
            ["Read IOPS", "Write IOPS"]
        );
        assert_eq!(
            part_names("map/unmap(us)", 2).unwrap(),
            ["map(us)", "unmap(us)"]
        );
        assert_eq!(part_names("throughput MB/s", 2), None);
        assert_eq!(part_names("read/write", 3), None);
    }
}
