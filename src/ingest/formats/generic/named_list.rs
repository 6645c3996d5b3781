//! A line that names its values in a bracketed list before them:
//! `Latencies [min, mean, 50, 95, 99, max]  90.4ms, 113.1ms, …` (vegeta's
//! text report), `Success [ratio]  55.42%`. Each value is the label's
//! figure of the name at its place (`Latencies mean`), its unit the one
//! it carries. The line is read only when the names and the values are
//! as many and every value is one number with at most a unit of letters;
//! any other line is left to the other rules.

use crate::ingest::shared::logscan::lazy_re;

lazy_re!(
    LINE,
    r"^([A-Za-z][A-Za-z0-9 _./-]*?)\s*\[([^\[\]]+)\]\s+(\S.*)$"
);
lazy_re!(
    VALUE,
    r"^([-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)([A-Za-zµ%/]*)$"
);

/// Each `(name, value, unit)` of a named-list line.
pub type Named<'a> = Vec<(&'a str, f64, &'a str)>;

/// The label and the named values of a named-list line.
pub fn named_list(text: &str) -> Option<(&str, Named<'_>)> {
    let c = LINE.captures(text.trim())?;
    let label = c.get(1)?.as_str().trim();
    let names: Vec<&str> = c.get(2)?.as_str().split(',').map(str::trim).collect();
    let cells: Vec<&str> = c.get(3)?.as_str().split(',').map(str::trim).collect();
    if names.len() != cells.len() || names.iter().any(|n| n.is_empty()) {
        return None;
    }
    let mut out = Vec::with_capacity(names.len());
    for (name, cell) in names.into_iter().zip(cells) {
        let v = VALUE.captures(cell)?;
        let value = crate::ingest::shared::numbers::parse_number(v.get(1)?.as_str())?;
        out.push((name, value, v.get(2).map_or("", |u| u.as_str())));
    }
    Some((label, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_brackets_pair_with_the_values_after_them() {
        let (label, v) =
            named_list("Requests      [total, rate, throughput] 1200, 120.00, 65.87").unwrap();
        assert_eq!(label, "Requests");
        assert_eq!(
            v,
            vec![
                ("total", 1200.0, ""),
                ("rate", 120.0, ""),
                ("throughput", 65.87, "")
            ]
        );
        let (label, v) =
            named_list("Bytes In      [total, mean]             3714690, 3095.57").unwrap();
        assert_eq!((label, v[1]), ("Bytes In", ("mean", 3095.57, "")));
        let (_, v) = named_list("Success       [ratio]                   55.42%").unwrap();
        assert_eq!(v, vec![("ratio", 55.42, "%")]);
        let (_, v) = named_list(
            "Duration      [total, attack, wait]     10.094965987s, 9.949883921s, 145.082066ms",
        )
        .unwrap();
        assert_eq!(v[2], ("wait", 145.082066, "ms"));
    }

    #[test]
    fn counts_that_differ_or_values_that_are_no_numbers_are_not_read() {
        assert_eq!(
            named_list("Status Codes  [code:count]  0:535  200:665"),
            None
        );
        assert_eq!(named_list("Requests [total, rate] 1200"), None);
        assert_eq!(named_list("see [1] for the method, 3 runs"), None);
        assert_eq!(named_list("Duration [total] 1m2.5s"), None);
    }
}
