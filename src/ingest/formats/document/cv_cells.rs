//! Cells written `value [change](CV)`, under headers written
//! `name[pct imp](CV)`: a normalised mean, its change against the first
//! column in brackets and its coefficient of variation in parentheses
//! (`1.01 [ -0.60](12.84)`), as some scheduler test reports lay them out.
//!
//! The grid reader splits such a cell into three and finds no header
//! over them. Each cell is spelled `value +-CV%` instead, the spread the
//! readers know as a coefficient of variation, and each header cell as
//! its name; the change is left out, as the readers compute changes
//! themselves. Every rewrite is padded to the length it replaces, so the
//! columns stay where they were.

use super::rewrite;
use crate::ingest::Source;
use regex::Regex;
use std::borrow::Cow;
use std::sync::LazyLock;

/// `1.01 [ -0.60](12.84)`: value, change in brackets, CV in parentheses.
static CELL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(-?\d+(?:\.\d+)?) ?\[ *[-+]?\d+(?:\.\d+)? *\] ?\( *(\d+(?:\.\d+)?) *\)")
        .expect("cell pattern")
});

/// `tip[pct imp](CV)`: a column name, what its brackets hold, `(CV)`.
static HEAD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"([^\s\[\]()]+)\[[^\]\[]*\]\((?i:cv)\)").expect("header pattern"));

/// `src`, or a copy whose `value [change](CV)` rows and their header are
/// spelled as the readers know them. Line numbers and quote depths are
/// kept.
pub fn plus_minus(src: &Source) -> Cow<'_, Source> {
    rewrite::each_line(src, |_, l| rewrites(&l.text).then(|| rewrite(&l.text)))
}

/// A row or header of such a table: two cells of the layout at least, so
/// that a bracket in a sentence is left alone.
fn rewrites(text: &str) -> bool {
    // Both layouts hold `](`: most lines are ruled out without a search.
    memchr::memchr(b']', text.as_bytes()).is_some()
        && text.contains("](")
        && (CELL.find_iter(text).nth(1).is_some() || HEAD.find_iter(text).nth(1).is_some())
}

/// `text` with each cell as `value +-CV%` and each header cell as its
/// name, each padded to the width it had.
fn rewrite(text: &str) -> String {
    let cells = CELL.replace_all(text, |c: &regex::Captures| {
        padded(&c[0], format!("{} +-{}%", &c[1], &c[2]))
    });
    let heads = HEAD.replace_all(&cells, |c: &regex::Captures| {
        padded(&c[0], c[1].to_string())
    });
    heads.trim_end().to_string()
}

/// `new` followed by spaces up to the character count of `old`.
fn padded(old: &str, mut new: String) -> String {
    let width = old.chars().count();
    let len = new.chars().count();
    new.extend(std::iter::repeat_n(' ', width.saturating_sub(len)));
    new
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_and_header_keep_their_columns() {
        let header = "  Case:           tip[pct imp](CV)      up[pct imp](CV)";
        let row = "   1-groups     1.00 [ -0.00](11.18)     1.01 [ -0.60](12.84)";
        assert_eq!(
            rewrite(header),
            "  Case:           tip                   up"
        );
        let row_out = rewrite(row);
        assert_eq!(
            row_out,
            "   1-groups     1.00 +-11.18%            1.01 +-12.84%"
        );
        // The second value starts where it started.
        assert_eq!(row_out.find("1.01"), row.find("1.01"));
    }

    #[test]
    fn a_single_bracket_in_a_sentence_is_left_alone() {
        assert!(!rewrites("The mean was 1.00 [ -0.00](11.18) in that run."));
        assert!(!rewrites("see [1](https://example.org) and [2](x)"));
        assert!(rewrites(
            "  2-groups  1.00 [ -0.00]( 4.73)  2.88 [-188.25](63.11)"
        ));
    }

    #[test]
    fn a_normalised_table_reads_means_and_cvs_per_column() {
        let text = "hackbench, normalised time, lower is better\n\n\
                    Case:           tip[pct imp](CV)          up[pct imp](CV)\n \
                    1-groups     1.00 [ -0.00](11.18)     1.01 [ -0.60](12.84)\n \
                    2-groups     1.00 [ -0.00]( 4.73)     2.88 [-188.25](63.11)\n";
        let src = Source::from_text("t.txt", text);
        let rows = super::super::reader::read(&plus_minus(&src)).unwrap();
        let get = |variant: &str, bench: &str, stat: crate::model::Stat| {
            rows.iter()
                .find(|o| o.variant == variant && o.benchmark.contains(bench) && o.stat == stat)
                .map(|o| o.value)
        };
        use crate::model::Stat;
        assert_eq!(get("up", "2-groups", Stat::Mean), Some(2.88));
        assert_eq!(get("up", "2-groups", Stat::Cv), Some(63.11));
        assert_eq!(get("tip", "1-groups", Stat::Mean), Some(1.0));
    }
}
