//! Column labels of a grid: the header's cells matched to the value
//! columns by position where the header keeps its gaps, by count where the
//! archive collapsed them.

use super::tokens::split;

/// One header cell and its character columns.
#[derive(Debug, Clone)]
pub struct HCell {
    pub text: String,
    pub col: usize,
    pub end: usize,
}

/// The cells of a header line: split on runs of two or more spaces or a
/// tab when it has any (`positioned`), on single spaces otherwise.
pub fn cells(text: &str) -> (Vec<HCell>, bool) {
    let words = split(text);
    let positioned =
        text.contains('\t') || words.windows(2).any(|w| w[1].0 >= w[0].1 + 2) && words.len() >= 2;
    let mut out: Vec<HCell> = Vec::new();
    // A pipe parts two cells and is no part of either (`time | 10s | 20s`).
    let mut parted = false;
    for (col, end, w) in words {
        if w.bytes().all(|c| c == b'|') {
            parted = true;
            continue;
        }
        let joins = positioned && !parted && out.last().is_some_and(|c: &HCell| col == c.end + 1);
        parted = false;
        match out.last_mut() {
            Some(c) if joins => {
                c.text.push(' ');
                c.text.push_str(w);
                c.end = end;
            }
            _ => out.push(HCell {
                text: w.to_string(),
                col,
                end,
            }),
        }
    }
    (out, positioned)
}

/// The cells of a header written over two lines (`v5.12-rc5   v5.12-rc5`
/// over `+ mc-llc   + patchset`, `procs  memory` over `r b  swpd free`):
/// each cell of the lower line joined to the upper cells over it. `None`
/// unless both lines keep their gaps, the upper has two cells or more and
/// every lower cell has one over it.
pub fn stacked(upper: &str, lower: &str) -> Option<Vec<HCell>> {
    let (up, up_positioned) = cells(upper);
    let (low, low_positioned) = cells(lower);
    if !up_positioned || !low_positioned || up.len() < 2 || low.is_empty() {
        return None;
    }
    // Touching counts: right-aligned words one column apart head one column.
    let over = |u: &HCell, l: &HCell| u.col <= l.end && l.col <= u.end;
    // Lower cells left of every upper one head the row labels (`#CPUs`).
    if !low
        .iter()
        .filter(|l| l.end > up[0].col)
        .all(|l| up.iter().any(|u| over(u, l)))
    {
        return None;
    }
    let mut out: Vec<HCell> = up
        .iter()
        .filter(|u| !low.iter().any(|l| over(u, l)))
        .cloned()
        .collect();
    for l in &low {
        let ups: Vec<&HCell> = up.iter().filter(|u| over(u, l)).collect();
        // A group word drawn out to its width (`tmpfs.........`).
        let mut text: Vec<&str> = ups
            .iter()
            .map(|u| u.text.trim_matches(['.', '-', '=', '_']))
            .filter(|t| !t.is_empty())
            .collect();
        text.push(&l.text);
        // A word over one cell alone widens it; a group word over several
        // (`memory` over `swpd free`) leaves each its own width.
        let alone = ups.len() == 1 && low.iter().filter(|x| over(ups[0], x)).count() == 1;
        let (col, end) = if alone {
            (ups[0].col.min(l.col), ups[0].end.max(l.end))
        } else {
            (l.col, l.end)
        };
        out.push(HCell {
            text: text.join(" "),
            col,
            end,
        });
    }
    out.sort_by_key(|c| c.col);
    Some(out)
}

/// The header's words as cells of their own, when it has one word over
/// each of the value columns at `spans` (in order, each word overlapping
/// its column): one-word labels that single spaces set apart over wider
/// values (`Gb Rep Threads   User`), which the gaps would join.
pub fn per_word(cells: &[HCell], spans: &[(usize, usize)]) -> Option<Vec<HCell>> {
    let mut words = Vec::new();
    for c in cells {
        let mut col = c.col;
        for w in c.text.split(' ') {
            let end = col + w.chars().count();
            words.push(HCell {
                text: w.to_string(),
                col,
                end,
            });
            col = end + 1;
        }
    }
    // Each word sits over its own value or nearer to it than to any
    // other: right-aligned numbers end under a word's end, not its start
    // (`Rep` over `  3`).
    let fits = words.len() == spans.len()
        && words.len() > cells.len()
        && words.iter().enumerate().all(|(i, w)| {
            let (a, b) = spans[i];
            (w.col < b && a < w.end) || nearest_span(w, spans) == Some(i)
        });
    fits.then_some(words)
}

/// The label of each of `k` value columns, and the header over the row
/// labels (if any). `spans`: the columns of a row's value cells (a row with
/// `k` of them), for matching by position; `labelled`: the rows have labels.
pub fn column_labels(
    cells: &[HCell],
    positioned: bool,
    spans: Option<&[(usize, usize)]>,
    k: usize,
    labelled: bool,
) -> (Vec<String>, Option<String>) {
    let h = cells.len();
    if h == 0 || k == 0 {
        return (vec![String::new(); k], None);
    }
    let lead = usize::from(labelled);
    if positioned {
        if let Some(spans) = spans.filter(|s| s.len() == k) {
            let first_value = spans[0].0;
            let label_head = cells
                .iter()
                .filter(|c| c.end <= first_value && labelled)
                .map(|c| c.text.clone())
                .reduce(|a, b| a + " " + &b);
            let usable: Vec<&HCell> = cells
                .iter()
                .filter(|c| !(labelled && c.end <= first_value))
                .collect();
            if usable.len() >= k.min(2) {
                let labels = spans
                    .iter()
                    .map(|&(a, b)| nearest(&usable, a, b).text.clone())
                    .collect();
                return (labels, label_head);
            }
        }
    }
    if h == k + lead {
        let head = (lead == 1).then(|| cells[0].text.clone());
        return (cells[lead..].iter().map(|c| c.text.clone()).collect(), head);
    }
    if h == k {
        return (cells.iter().map(|c| c.text.clone()).collect(), None);
    }
    if h > k + lead {
        // Multi-word headers with their gaps collapsed: the last columns
        // take the last words, the first column the words left over.
        let head = (lead == 1).then(|| cells[0].text.clone());
        let tail = k - 1;
        let first: Vec<&str> = cells[lead..h - tail]
            .iter()
            .map(|c| c.text.as_str())
            .collect();
        let mut labels = vec![first.join(" ")];
        labels.extend(cells[h - tail..].iter().map(|c| c.text.clone()));
        return (labels, head);
    }
    // Fewer labels than columns: each label heads an equal share of them
    // (`base  patched` over `mean sd mean sd`).
    let labels = (0..k).map(|j| cells[j * h / k].text.clone()).collect();
    (labels, None)
}

/// The value span whose middle is nearest the middle of `c`.
fn nearest_span(c: &HCell, spans: &[(usize, usize)]) -> Option<usize> {
    let mid = |a: usize, b: usize| (a + b) as isize;
    spans
        .iter()
        .enumerate()
        .min_by_key(|(_, &(a, b))| (mid(c.col, c.end) - mid(a, b)).abs())
        .map(|(i, _)| i)
}

/// The header cell overlapping `a..b` most, or the nearest to it.
fn nearest<'c>(cells: &[&'c HCell], a: usize, b: usize) -> &'c HCell {
    let overlap = |c: &HCell| b.min(c.end) as isize - a.max(c.col) as isize;
    let dist = |c: &HCell| {
        let mid = (a + b) as isize;
        let cm = (c.col + c.end) as isize;
        (mid - cm).abs()
    };
    cells
        .iter()
        .copied()
        .max_by_key(|c| (overlap(c).max(0), -dist(c)))
        .unwrap_or(cells[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    // A real header of a bcache writeback-rate table.
    #[test]
    fn a_pipe_parts_cells_and_belongs_to_none() {
        let (c, p) = cells("         time      | 10s   | 20s   | 30s");
        assert!(p);
        let t: Vec<&str> = c.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(t, ["time", "10s", "20s", "30s"]);
        assert_eq!(c[1].col, 21);
    }

    #[test]
    fn labels_by_count_and_position() {
        let (c, p) = cells("BS(KB) RHEL4U2 2.6.14 %-diff");
        assert!(!p);
        let (l, head) = column_labels(&c, p, None, 3, true);
        assert_eq!(l, vec!["RHEL4U2", "2.6.14", "%-diff"]);
        assert_eq!(head.as_deref(), Some("BS(KB)"));
        let (c, p) = cells("Kernel pipe bogo ops/s sched_migrate_task sched_switch");
        let (l, _) = column_labels(&c, p, None, 3, true);
        assert_eq!(
            l,
            vec!["pipe bogo ops/s", "sched_migrate_task", "sched_switch"]
        );
        let (c, p) = cells("test          base time    patched time");
        assert!(p);
        let (l, head) = column_labels(&c, p, Some(&[(14, 19), (28, 33)]), 2, true);
        assert_eq!(l, vec!["base time", "patched time"]);
        assert_eq!(head.as_deref(), Some("test"));
    }

    #[test]
    fn a_header_over_two_lines_is_joined_by_column() {
        let names = |upper: &str, lower: &str| -> Vec<String> {
            stacked(upper, lower)
                .unwrap()
                .into_iter()
                .map(|c| c.text)
                .collect()
        };
        assert_eq!(
            names(
                "\t\t     v5.12-rc5   v5.12-rc5     v5.12-rc5",
                "                                 + mc-llc      + patchset",
            ),
            ["v5.12-rc5", "v5.12-rc5 + mc-llc", "v5.12-rc5 + patchset"]
        );
        assert_eq!(
            names("procs          memory", " r  b      swpd   free"),
            ["procs r", "procs b", "memory swpd", "memory free"]
        );
        // Cells over the row labels need nothing over them; a group word's
        // dots are no part of it.
        assert_eq!(
            names(
                "\t tmpfs...............               ext2...............",
                "#CPUs\t spinlock      rwlock               spinlock     rwlock",
            ),
            [
                "#CPUs",
                "tmpfs spinlock",
                "tmpfs rwlock",
                "ext2 spinlock",
                "ext2 rwlock"
            ]
        );
        // A title line of single spaces stacks on nothing.
        assert!(stacked(
            "DayTrader (throughput, higher is better)",
            "  base    patched"
        )
        .is_none());
        // A lower cell with nothing over it: no stack.
        assert!(stacked("base   patched", "                    other").is_none());
    }

    #[test]
    fn one_word_labels_over_wider_values_are_split() {
        let spans_of = |row: &str| -> Vec<(usize, usize)> {
            super::super::tokens::split(row)
                .iter()
                .map(|&(a, b, _)| (a, b))
                .collect()
        };
        let (c, _) = cells(" Gb Rep Threads   User      System     Wall flt/cpu/s fault/wsec");
        let row = " 16   3    1    0.859s     64.994s  65.084s 47768.542  47771.664";
        let w = per_word(&c, &spans_of(row)).unwrap();
        let names: Vec<&str> = w.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(
            names,
            [
                "Gb",
                "Rep",
                "Threads",
                "User",
                "System",
                "Wall",
                "flt/cpu/s",
                "fault/wsec"
            ]
        );
        // Two-word labels over a value each, their words not over the
        // values: kept whole.
        let (c, _) = cells("  base time       patched time");
        assert!(per_word(&c, &spans_of("    10.1   0.2     11.3   0.3")).is_none());
    }
}
