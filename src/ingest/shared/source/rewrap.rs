//! Record lines a mail client wrapped: `T: 0 … Avg: 775 Max:` with its
//! value `3516` alone on the next line. A line of `key: value` pairs whose
//! last key has lost its value to the next line, which holds that value and
//! nothing else, is joined again, so that every reader sees the record whole.

use super::Line;

/// Pairs a line must hold besides its dangling key to be a record line:
/// one `Key:` at the end of a sentence ("the results were:") is not one.
const MIN_PAIRS: usize = 2;

/// Joins every wrapped record line with its value (see the module
/// documentation); the joined line keeps the first line's number.
pub fn rejoin_wrapped(lines: &mut Vec<Line>) {
    // Nearly every text has no such line: one cheap pass to find out.
    let found = lines
        .windows(2)
        .any(|w| dangling(&w[0].text) && continues(&w[0], &w[1]));
    if !found {
        return;
    }
    let mut out: Vec<Line> = Vec::with_capacity(lines.len());
    let mut it = std::mem::take(lines).into_iter().peekable();
    while let Some(mut l) = it.next() {
        if dangling(&l.text) {
            if let Some(next) = it.next_if(|n| continues(&l, n)) {
                let t = l.text.trim_end().len();
                l.text.truncate(t);
                l.text.push(' ');
                l.text.push_str(next.text.trim());
            }
        }
        out.push(l);
    }
    *lines = out;
}

/// A record line whose last key has no value: it ends in `Word:` and holds
/// at least [`MIN_PAIRS`] `key: number` pairs before it.
fn dangling(text: &str) -> bool {
    let t = text.trim_end().as_bytes();
    let [.., before, b':'] = t else {
        return false;
    };
    before.is_ascii_alphabetic() && pairs(&t[..t.len() - 1]) >= MIN_PAIRS
}

/// `key: number` pairs in `t`: a `:` after a letter, digit or `)`, followed
/// (after spaces) by a number.
fn pairs(t: &[u8]) -> usize {
    memchr::memchr_iter(b':', t)
        .filter(|&i| {
            i > 0 && (t[i - 1].is_ascii_alphanumeric() || t[i - 1] == b')') && {
                let rest = &t[i + 1..];
                let s = rest.iter().position(|b| *b != b' ').unwrap_or(rest.len());
                let rest = &rest[s..];
                let rest = rest.strip_prefix(b"-").unwrap_or(rest);
                rest.first().is_some_and(u8::is_ascii_digit)
            }
        })
        .count()
}

/// The next line is the value alone (a number, perhaps a unit) at the same
/// quote depth.
fn continues(first: &Line, next: &Line) -> bool {
    if next.quote_depth != first.quote_depth || next.number != first.number + 1 {
        return false;
    }
    let mut tokens = next.text.split_whitespace();
    let number = tokens.next().is_some_and(|n| {
        let n = n.strip_prefix('-').unwrap_or(n);
        n.starts_with(|c: char| c.is_ascii_digit())
            && n.chars()
                .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
    });
    let unit = match tokens.next() {
        None => true,
        Some(u) => u.len() <= 6 && u.chars().all(|c| c.is_alphabetic() || c == '%' || c == '/'),
    };
    number && unit && tokens.next().is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(texts: &[(&str, u8)]) -> Vec<Line> {
        texts
            .iter()
            .enumerate()
            .map(|(i, (t, q))| Line {
                text: t.to_string(),
                number: i as u32 + 1,
                quote_depth: *q,
            })
            .collect()
    }

    #[test]
    fn a_wrapped_record_gets_its_value_back() {
        let mut l = lines(&[
            (
                "T: 0 (  245) P:99 I:1000 C:  11203 Min:     92 Act:  623 Avg:  775 Max:",
                2,
            ),
            ("    3516", 2),
            ("", 0),
        ]);
        rejoin_wrapped(&mut l);
        assert_eq!(l.len(), 2);
        assert!(l[0].text.ends_with("Avg:  775 Max: 3516"), "{}", l[0].text);
        assert_eq!(l[0].number, 1);
    }

    #[test]
    fn prose_and_other_layouts_stay_as_they_are() {
        for case in [
            // A sentence ending in a colon, a number below it.
            vec![("The results were:", 0), ("42", 0)],
            // One pair only: a heading with a value, not a record.
            vec![("runs: 5 mean:", 0), ("42", 0)],
            // A different quote depth: another author's line.
            vec![("a: 1 b: 2 c:", 1), ("3", 0)],
            // The next line is a table row, not a lone value.
            vec![("a: 1 b: 2 c:", 0), ("3 4 5", 0)],
        ] {
            let mut l = lines(&case);
            let before = l.clone();
            rejoin_wrapped(&mut l);
            assert_eq!(l, before);
        }
    }
}
