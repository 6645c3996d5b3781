//! Unit tests of the names the document reader gives values it reads:
//! what of the text around a table is markup, a title or a side, on
//! lines copied from real posts.

use super::*;
use crate::model::Observation;

fn read(text: &str) -> Vec<Observation> {
    Document.parse(&Source::from_text("doc.txt", text)).unwrap()
}

fn row_of(rows: &[Observation], value: f64) -> &Observation {
    rows.iter()
        .find(|o| o.value == value)
        .unwrap_or_else(|| panic!("{value} not read from {rows:#?}"))
}

#[test]
fn a_code_fence_around_change_lines_names_nothing() {
    let text = "\
> > ```
> > 3-threads  dm-linear-3 targets (4k randread IOPS, unit K)
> > 5.12-rc1: 667
> > per-task: 674 -> 849
> > ours 8353c1a: 623 -> 811
> > 
> > 3-threads  dm-stripe-3 targets  (12k randread IOPS, unit K)
> > 5.12-rc1: 321
> > per-task: 313 -> 349
> > ours 8353c1a: 310 -> 406
> > ```
";
    let rows = read(text);
    assert!(rows.iter().all(|o| !o.variant.contains('`')), "{rows:#?}");
    assert_eq!(row_of(&rows, 674.0).variant.as_str(), "before");
    assert_eq!(row_of(&rows, 849.0).variant.as_str(), "after");
    assert!(row_of(&rows, 406.0).benchmark.contains("dm-stripe-3"));
}

#[test]
fn a_code_fence_with_a_language_is_markup_but_a_tilde_underline_is_not() {
    use super::lines::{classify, Kind};
    assert!(matches!(classify("```"), Kind::Blank));
    assert!(matches!(classify("```text"), Kind::Blank));
    assert!(!matches!(classify("~~~~~~"), Kind::Blank));
    assert!(!matches!(classify("``` before ``` after"), Kind::Blank));
}
