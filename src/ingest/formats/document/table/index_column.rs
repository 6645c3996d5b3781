//! A first column that only numbers the rows (`| 1 | MEMWATCH | 7 | 58 |`
//! under `|   | Region size in Pages | 1 | 10 |`): its header is blank or
//! `#`, its cells count 1, 2, 3 … (or from 0) down the table, and the
//! column after it holds the row labels. It was read as a parameter and the
//! labels beside it were lost; the table is read without it.

use super::super::lines::is_value;

/// The header, joined header and cells of a boxed table without its index
/// column, or `None` when its first column is no index.
#[allow(clippy::type_complexity)]
pub(super) fn without<'a, 'h>(
    first: &[&'h str],
    joined: Option<&[String]>,
    all: &[Option<&'a str>],
    width: usize,
) -> Option<(Vec<&'h str>, Option<Vec<String>>, Vec<Option<&'a str>>)> {
    if width < 3 || all.is_empty() {
        return None;
    }
    let head = joined.map_or(first[0], |h| h[0].as_str()).trim();
    if !matches!(head, "" | "#" | "No." | "no.") {
        return None;
    }
    let rows: Vec<&[Option<&str>]> = all.chunks_exact(width).collect();
    let numbers: Option<Vec<u64>> = rows
        .iter()
        .map(|r| r[0].and_then(|t| t.trim().parse::<u64>().ok()))
        .collect();
    let numbers = numbers?;
    let counts =
        numbers.len() >= 2 && numbers[0] <= 1 && numbers.windows(2).all(|w| w[1] == w[0] + 1);
    let labels = rows
        .iter()
        .all(|r| r[1].is_some_and(|t| !t.trim().is_empty() && !is_value(t)));
    if !counts || !labels {
        return None;
    }
    Some((
        first[1..].to_vec(),
        joined.map(|h| h[1..].to_vec()),
        rows.iter().flat_map(|r| r[1..].iter().copied()).collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Real rows of a Markdown table comparing memory-watch methods.
    #[test]
    fn a_column_counting_the_rows_is_dropped() {
        let first = ["", "Region size in Pages", "1", "10", "100"];
        let all = [
            ["1", "MEMWATCH", "7", "58", "281"],
            ["2", "MEMWATCH Perf", "4", "23", "107"],
            ["3", "USERFAULTFD", "5405", "6550", "10387"],
        ]
        .iter()
        .flat_map(|r| r.iter().map(|c| Some(*c)))
        .collect::<Vec<_>>();
        let (f, j, a) = without(&first, None, &all, 5).unwrap();
        assert_eq!(f, ["Region size in Pages", "1", "10", "100"]);
        assert!(j.is_none());
        assert_eq!(a[0], Some("MEMWATCH"));
        assert_eq!(a.len(), 12);
    }

    #[test]
    fn a_first_column_of_settings_stays() {
        // `threads` over 1, 2, 4: a parameter, not an index.
        let first = ["threads", "base", "patched"];
        let all = [
            Some("1"),
            Some("10"),
            Some("11"),
            Some("2"),
            Some("20"),
            Some("21"),
        ];
        assert!(without(&first, None, &all, 3).is_none());
        // Numbers that do not count the rows.
        let first = ["", "name", "v"];
        let all = [
            Some("1"),
            Some("a"),
            Some("3"),
            Some("4"),
            Some("b"),
            Some("5"),
        ];
        assert!(without(&first, None, &all, 3).is_none());
    }
}
