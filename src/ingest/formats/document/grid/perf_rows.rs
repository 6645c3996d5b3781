//! Rows of a `perf top` or `perf report` profile pasted without its header
//! (`25.72%  11804  [kernel]  [k] xdp_do_redirect`).
//!
//! perf marks every symbol with its kind (`[k]` kernel, `[.]` user space),
//! so a run of rows whose label holds that mark before a name is a profile
//! whatever its columns: the percentages are the overhead (`Children` and
//! `Self` when a call-graph profile prints two), a whole number the sample
//! count, and the symbol, the last word, is what the row is about, with
//! the object it lives in (`[kernel]`, `libc.so.6`) after it. Without this
//! the columns were `column 1`, `column 2` and the label the row's text.

use super::tokens::{Tok, TokKind};

/// The column names of rows (their `labels` and the value token of each
/// cell) read as a headerless profile, each label replaced by its symbol;
/// `None` (labels untouched) unless every row names a symbol and every
/// column is a percentage or a whole count.
pub(super) fn name_columns(labels: &mut [String], cells: &[Vec<&Tok>]) -> Option<Vec<String>> {
    if labels.len() < 2 || !labels.iter().all(|l| symbol(l).is_some()) {
        return None;
    }
    let k = cells.first()?.len();
    if k == 0 || cells.iter().any(|r| r.len() != k) {
        return None;
    }
    let kind = |j: usize| -> Option<bool> {
        let percent = cells.iter().all(|r| r[j].unit == "%");
        let count = cells.iter().all(|r| {
            let t = r[j];
            t.kind == TokKind::Num && t.unit.is_empty() && t.value.fract() == 0.0
        });
        match (percent, count) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        }
    };
    let kinds: Vec<bool> = (0..k).map(kind).collect::<Option<_>>()?;
    let percents = kinds.iter().filter(|&&p| p).count();
    let counts = k - percents;
    if percents == 0 || percents > 2 || counts > 1 {
        return None;
    }
    let mut seen = 0;
    let names = kinds
        .iter()
        .map(|&p| {
            if !p {
                return "samples".to_string();
            }
            seen += 1;
            match (percents, seen) {
                (2, 1) => "children",
                (2, _) => "self",
                _ => "overhead",
            }
            .to_string()
        })
        .collect();
    for l in labels.iter_mut() {
        if let Some(s) = symbol(l) {
            *l = s;
        }
    }
    Some(names)
}

/// `symbol object` from a profile row's label (`[kernel] [k] memcpy`):
/// the word after the kind mark, then the words before the mark.
fn symbol(label: &str) -> Option<String> {
    let words: Vec<&str> = label.split_whitespace().collect();
    let at = words.iter().position(|w| matches!(*w, "[k]" | "[.]"))?;
    let name = words.get(at + 1..).filter(|n| !n.is_empty())?.join(" ");
    let object = words[..at].join(" ");
    Some(if object.is_empty() {
        name
    } else {
        format!("{name} {object}")
    })
}

#[cfg(test)]
mod tests {
    use super::super::tokens::tokens;
    use super::*;

    // Real lines of a `perf top` on one CPU of an XDP redirect test.
    #[test]
    fn a_headerless_profile_names_its_columns_and_symbols() {
        let lines = [
            "    25.72%         11804  [kernel]                                        [k] xdp_do_redirect",
            "     8.73%          4008  [kernel]                                        [k] memcpy",
        ];
        let toks: Vec<_> = lines.iter().map(|l| tokens(l)).collect();
        let mut labels: Vec<String> = toks
            .iter()
            .map(|t| {
                t.iter()
                    .filter(|t| !t.in_values())
                    .map(|t| t.text.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let cells: Vec<Vec<&Tok>> = toks
            .iter()
            .map(|t| t.iter().filter(|t| t.kind == TokKind::Num).collect())
            .collect();
        assert_eq!(
            name_columns(&mut labels, &cells),
            Some(vec!["overhead".to_string(), "samples".to_string()])
        );
        assert_eq!(labels[0], "xdp_do_redirect [kernel]");
        assert_eq!(labels[1], "memcpy [kernel]");
    }

    #[test]
    fn labels_without_a_kind_mark_are_no_profile() {
        assert_eq!(symbol("hackbench -g 10"), None);
        assert_eq!(symbol("[k]"), None);
        assert_eq!(symbol("[.] main").as_deref(), Some("main"));
    }
}
