//! Tables whose header is underlined column by column (`--------- -----
//! ----`, lmbench, LKP, many hand-made tables): the dash groups give each
//! column's extent, which names every cell of the header lines above
//! (however many) and of the rows below, whatever their alignment.

use super::tokens::{split, tokens, Tok};

/// The column extents of a rule line made of two or more groups of dashes
/// (or equals signs) apart by spaces, or by the `|` or `+` of a table
/// drawn without outer borders (`------|------|------`) or with bars only
/// (`|------+------|`). A box's border (`+----+----+`) is the box
/// reader's.
pub fn spans(text: &str) -> Option<Vec<(usize, usize)>> {
    let t = text.trim();
    let boxed = t.starts_with('+') || t.ends_with('+');
    let open = if boxed {
        text.into()
    } else {
        text.replace(['|', '+'], " ")
    };
    let groups = split(&open);
    let ok = groups.len() >= 2
        && groups
            .iter()
            .all(|(_, _, w)| w.len() >= 2 && w.chars().all(|c| c == '-' || c == '='));
    ok.then(|| groups.iter().map(|&(a, b, _)| (a, b)).collect())
}

/// The index of the span a token belongs to: the one holding its middle,
/// or the nearest.
fn span_of(spans: &[(usize, usize)], col: usize, end: usize) -> usize {
    let mid = (col + end) / 2;
    let dist = |&(a, b): &(usize, usize)| {
        if mid < a {
            a - mid
        } else if mid >= b {
            mid + 1 - b
        } else {
            0
        }
    };
    (0..spans.len())
        .min_by_key(|&i| dist(&spans[i]))
        .unwrap_or(0)
}

/// The header text over each span, header lines joined top to bottom.
pub fn header_labels(spans: &[(usize, usize)], lines: &[&str]) -> Vec<String> {
    let mut out = vec![String::new(); spans.len()];
    for l in lines {
        let open = unboxed(l);
        for (a, b, w) in split(&open) {
            let s = &mut out[span_of(spans, a, b)];
            if !s.is_empty() {
                s.push(' ');
            }
            s.push_str(w);
        }
    }
    out
}

/// `text` without the `|` between the cells of a table drawn without
/// outer borders (`4k   | 1.5 GB/s | 2.1 GB/s`): it parts cells and names
/// nothing. A boxed row (`| 1500 | 15.55 |`) keeps its bars, which its
/// reading relies on.
fn unboxed(text: &str) -> std::borrow::Cow<'_, str> {
    if text.trim_start().starts_with('|') {
        text.into()
    } else {
        text.replace('|', " ").into()
    }
}

/// A row cut into the spans: the tokens of each.
pub fn cells(spans: &[(usize, usize)], text: &str) -> Vec<Vec<Tok>> {
    let mut out: Vec<Vec<Tok>> = vec![Vec::new(); spans.len()];
    for t in tokens(&unboxed(text)) {
        out[span_of(spans, t.col, t.end)].push(t);
    }
    out
}

/// The words of a title line set between dashes or equals signs
/// (`--- Kernel: iomap_v1 file type: normal ---`, `=== 4 threads ===`):
/// a caption over the table below, never a line of its header.
pub fn dashed_title(text: &str) -> Option<&str> {
    let t = text.trim();
    let rule = |c: char| c == '-' || c == '=';
    let inner = t.trim_matches(rule).trim();
    let framed =
        t.starts_with("--") && t.ends_with("--") || t.starts_with("==") && t.ends_with("==");
    (framed && inner.chars().any(char::is_alphabetic) && !inner.starts_with(rule)).then_some(inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_name_header_and_row_cells() {
        let rule = "--------- ------------------------- ---- ----- -----";
        let s = spans(rule).unwrap();
        assert_eq!(s.len(), 5);
        let h = header_labels(
            &s,
            &[
                "Host                             OS  Mhz  tlb  cache",
                "                                         pages line",
            ],
        );
        assert_eq!(h, vec!["Host", "OS", "Mhz", "tlb pages", "cache line"]);
        let c = cells(&s, "margin         Linux 2.6.12-rc1-bk3 1300         128");
        assert_eq!(c[1].len(), 2);
        assert_eq!(c[2][0].value, 1300.0);
        assert!(c[3].is_empty());
        assert_eq!(c[4][0].value, 128.0);
        assert!(spans("-----------").is_none());
    }

    #[test]
    fn pipes_and_pluses_part_the_dash_groups_of_a_rule() {
        let s = spans("---------|--------|--------").unwrap();
        assert_eq!(s, vec![(0, 9), (10, 18), (19, 27)]);
        assert_eq!(spans("-----+-----").unwrap().len(), 2);
        assert!(spans("|-----------|").is_none());
        assert!(spans("+-----+-----+").is_none());
        assert_eq!(spans("|-----+-----|").unwrap().len(), 2);
    }
}
