//! Unit tests of table shapes that real posts share: key columns, glued
//! units, wrapped rows and the like, each on a small table.

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
fn a_boxed_tables_rising_integer_first_column_is_its_key() {
    let text = "\
+----------+--------+-------+
| #workers | before | after |
+----------+--------+-------+
|        1 |    210 |   205 |
|        8 |    930 |   911 |
|       64 |   7020 |  6800 |
+----------+--------+-------+
";
    let rows = read(text);
    let r = row_of(&rows, 930.0);
    assert_eq!(r.params.as_str(), "workers=8");
    assert_eq!(r.variant.as_str(), "before");
    assert!(!rows.iter().any(|o| o.variant.as_str() == "#workers"));
}
