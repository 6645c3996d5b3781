//! Lists of values in parentheses wrapped over lines: `Without-APF:
//! 7029030180/minute = avg(7559625120 5962155840 7823208540` over an
//! indented `7629633480 6170527920)`. Read as they stand, the first line
//! holds a list that never closes and the second a row of bare numbers
//! under no name. Such a line is joined with the lines that continue its
//! list: indented past the line's start, holding values only, up to the
//! one that closes the parenthesis.
//!
//! A value stated with the list it is made of (`40.3s = avg(40.6 39.3
//! 39.2 41.6 41.2)`) is then written as the pairs it stands for (`avg =
//! 40.3s, samples = 40.6 39.3 39.2 41.6 41.2`): read as it stands, the
//! value and the list's first number were taken into the row's name.

use crate::ingest::shared::pattern::lazy_re;
use crate::ingest::{Line, Source};
use std::borrow::Cow;

lazy_re!(
    OF_LIST,
    r"^(?P<pre>.*?)(?P<value>[-+]?\d+(?:\.\d+)?(?:[A-Za-zµ%]+)?(?:/[A-Za-z]+)?)\s*=\s*(?P<fn>[A-Za-z]\w*)\((?P<list>[-+]?\d[^()]*)\)\s*$"
);

/// `text` with a value stated as a function of a list written as pairs,
/// or `None` when it holds no such statement.
fn of_list(text: &str) -> Option<String> {
    let c = OF_LIST.captures(text)?;
    let list = c["list"].trim();
    if !continues_list(list) || list.split([' ', ',']).filter(|w| !w.is_empty()).count() < 2 {
        return None;
    }
    Some(format!(
        "{}{} = {}, samples = {}",
        &c["pre"], &c["fn"], &c["value"], list
    ))
}

/// How far `text`'s parentheses are left open (`avg(1 2` → 1).
fn open_parens(text: &str) -> i32 {
    text.chars().fold(0, |n, c| match c {
        '(' => n + 1,
        ')' => n - 1,
        _ => n,
    })
}

/// Whether `text` continues a list of values: numbers (with their units)
/// apart by blanks or commas, then, perhaps, the closing parenthesis.
fn continues_list(text: &str) -> bool {
    let body = text.trim().trim_end_matches([')', ',', ';', '.']);
    !body.is_empty()
        && body
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .all(is_number_word)
}

/// A number, perhaps followed by its unit's letters (`40.6s`, `12%`).
fn is_number_word(word: &str) -> bool {
    let digits = word
        .trim_start_matches(['-', '+'])
        .trim_end_matches(|c: char| c.is_alphabetic() || c == '%');
    digits.starts_with(|c: char| c.is_ascii_digit()) && digits.parse::<f64>().is_ok()
}

/// The indentation of `text`, in characters.
fn indent(text: &str) -> usize {
    text.chars().take_while(|c| c.is_whitespace()).count()
}

/// `src`, or a copy whose wrapped lists are joined, with the numbers of
/// the lines joined to the one above them.
pub fn rejoin(src: &Source) -> (Cow<'_, Source>, Vec<u32>) {
    let lines = &src.lines;
    // (first line, lines joined to it)
    let mut joins: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let open = open_parens(&lines[i].text);
        let opens_list = open > 0
            && lines[i]
                .text
                .rsplit_once('(')
                .is_some_and(|(_, rest)| continues_list(rest));
        if !opens_list {
            i += 1;
            continue;
        }
        let mut depth = open;
        let mut j = i + 1;
        while j < lines.len()
            && depth > 0
            && lines[j].quote_depth == lines[i].quote_depth
            && indent(&lines[j].text) > indent(&lines[i].text)
            && continues_list(&lines[j].text)
        {
            depth += open_parens(&lines[j].text);
            j += 1;
        }
        if depth == 0 && j > i + 1 {
            joins.push((i, j - i - 1));
            i = j;
        } else {
            i += 1;
        }
    }
    let stated = |l: &Line| l.text.contains('(') && of_list(&l.text).is_some();
    if joins.is_empty() && !lines.iter().any(stated) {
        return (Cow::Borrowed(src), Vec::new());
    }
    let mut out = Vec::with_capacity(lines.len());
    let mut continued = Vec::new();
    let mut k = 0;
    let mut i = 0;
    while i < lines.len() {
        match joins.get(k) {
            Some(&(at, n)) if at == i => {
                let mut text = lines[i].text.trim_end().to_string();
                for l in &lines[i + 1..=i + n] {
                    text.push(' ');
                    text.push_str(l.text.trim());
                    continued.push(l.number);
                }
                out.push(Line {
                    text,
                    number: lines[i].number,
                    quote_depth: lines[i].quote_depth,
                });
                k += 1;
                i += n + 1;
            }
            _ => {
                out.push(lines[i].clone());
                i += 1;
            }
        }
    }
    for l in &mut out {
        if let Some(text) = of_list(&l.text) {
            l.text = text;
        }
    }
    let mut src = src.clone();
    src.lines = out;
    (Cow::Owned(src), continued)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::Format;

    /// Lines of a part-q post (kvm arm64, five runs averaged).
    const APF: &str = "\
>>     Without-APF: 7029030180/minute = avg(7559625120 5962155840 7823208540
>>                                          7629633480 6170527920)
>>     With-APF:    8286827472/minute = avg(8464584540 8177073360 8262723180
>>                                          8095084020 8434672260)
>>     Outcome:     +17.8%
";

    #[test]
    fn a_list_wrapped_onto_the_next_line_is_joined() {
        let src = Source::from_text("m.txt", APF);
        let (joined, continued) = rejoin(&src);
        assert_eq!(joined.lines.len(), 3);
        assert_eq!(
            joined.lines[0].text.trim(),
            "Without-APF: avg = 7029030180/minute, samples = 7559625120 5962155840 \
             7823208540 7629633480 6170527920"
        );
        assert_eq!(continued, [2, 4]);
        let rows = crate::ingest::formats::document::Document
            .parse(&src)
            .unwrap();
        for v in [7029030180.0, 7559625120.0, 6170527920.0, 8434672260.0] {
            assert!(rows.iter().any(|o| o.value == v), "{v}: {rows:?}");
        }
    }

    #[test]
    fn a_value_of_a_list_is_read_with_the_list() {
        assert_eq!(
            of_list("    Without-APF: 40.3s = avg(40.6 39.3 39.2 41.6 41.2)").as_deref(),
            Some("    Without-APF: avg = 40.3s, samples = 40.6 39.3 39.2 41.6 41.2")
        );
        assert_eq!(of_list("bs = max(4k)"), None);
        assert_eq!(of_list("x = 3 (see 1 2)"), None);
        let src = Source::from_text(
            "m.txt",
            ">>     Without-APF: 40.3s = avg(40.6 39.3 39.2 41.6 41.2)\n\
             >>     With-APF:    40.8s = avg(40.6 41.1 40.9 41.0 40.7)\n",
        );
        let rows = crate::ingest::formats::document::Document
            .parse(&src)
            .unwrap();
        let avg = rows.iter().find(|o| o.value == 40.3).expect("40.3 read");
        assert!(
            format!("{} {}", avg.benchmark, avg.metric).contains("avg"),
            "{rows:?}"
        );
        assert_eq!(rows.iter().filter(|o| o.metric == "samples").count(), 10);
    }

    #[test]
    fn other_parentheses_are_left_alone() {
        for text in [
            // Closed on its line; prose after an open parenthesis; a
            // continuation that is not indented; words in the list.
            "    A: 40.3s (40.6 39.3 39.2 41.6 41.2)\n         1 2\n",
            "  the mean (over five runs,\n     12 and 13) was\n",
            "    A: 7 = avg(1 2\n3 4)\n",
            "    A: 7 = avg(1 2\n        3 runs)\n",
        ] {
            let src = Source::from_text("m.txt", text);
            assert!(matches!(rejoin(&src).0, Cow::Borrowed(_)), "{text}");
        }
    }
}
