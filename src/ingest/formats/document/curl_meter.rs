//! curl's progress meter pasted into a mail:
//!
//! ```text
//!   % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current
//!                                  Dload  Upload   Total   Spent    Left  Speed
//! 100 1024M  100 1024M    0     0  17.3M      0  0:00:58  0:00:58 --:--:-- 17.4M
//! ```
//!
//! Its header is two lines whose words only together name a column
//! (`Average Speed` over `Dload`), its sizes and speeds carry curl's own
//! suffixes (`k`, `M`, `G`: powers of 1024, bytes and bytes a second),
//! its times are `H:MM:SS` and `--:--:--` when unknown. The grid reader
//! took the times and suffixed sizes for names. Each meter line under
//! such a header is read as the pairs it stands for (`% Total: 100%
//! Total: 1024MiB … Average Speed Dload: 17.3MiB/s … Time Spent: 58s`);
//! an unknown time gives no pair. The two header lines are then blank and
//! accounted as read, so that the heading above the meter (the command,
//! the prose naming the build) labels its values.

use super::rewrite;
use crate::ingest::Source;
use std::borrow::Cow;

/// The columns of a meter line: their names and what their values are.
const COLUMNS: [(&str, Field); 12] = [
    ("% Total", Field::Percent),
    ("Total", Field::Size),
    ("% Received", Field::Percent),
    ("Received", Field::Size),
    ("% Xferd", Field::Percent),
    ("Xferd", Field::Size),
    ("Average Speed Dload", Field::Speed),
    ("Average Speed Upload", Field::Speed),
    ("Time Total", Field::Time),
    ("Time Spent", Field::Time),
    ("Time Left", Field::Time),
    ("Current Speed", Field::Speed),
];

/// What a meter column holds.
#[derive(Clone, Copy)]
enum Field {
    Percent,
    Size,
    Speed,
    Time,
}

/// The words of the meter's first and second header lines.
const FIRST: &[&str] = &[
    "%", "Total", "%", "Received", "%", "Xferd", "Average", "Speed", "Time", "Time", "Time",
    "Current",
];
const SECOND: &[&str] = &["Dload", "Upload", "Total", "Spent", "Left", "Speed"];

/// `src`, or a copy whose progress meters are written as pairs, and the
/// numbers of the header lines read for them.
pub fn rewrite(src: &Source) -> (Cow<'_, Source>, Vec<u32>) {
    let lines = &src.lines;
    let is = |i: usize, words: &[&str]| {
        lines
            .get(i)
            .is_some_and(|l| l.text.split_whitespace().eq(words.iter().copied()))
    };
    let mut new: Vec<Option<String>> = vec![None; lines.len()];
    let mut headers = Vec::new();
    for i in 0..lines.len() {
        if !is(i, FIRST) || !is(i + 1, SECOND) || lines[i + 1].quote_depth != lines[i].quote_depth {
            continue;
        }
        let depth = lines[i].quote_depth;
        let mut rows = 0;
        for (j, l) in lines.iter().enumerate().skip(i + 2) {
            match pairs(&l.text).filter(|_| l.quote_depth == depth) {
                Some(p) => new[j] = Some(p),
                None => break,
            }
            rows += 1;
        }
        if rows > 0 {
            new[i] = Some(String::new());
            new[i + 1] = Some(String::new());
            headers.extend([lines[i].number, lines[i + 1].number]);
        }
    }
    if headers.is_empty() {
        return (Cow::Borrowed(src), headers);
    }
    (rewrite::each_line(src, |i, _| new[i].take()), headers)
}

/// A meter line as pairs, `None` when `text` is no meter line.
fn pairs(text: &str) -> Option<String> {
    let cells: Vec<&str> = text.split_whitespace().collect();
    if cells.len() != COLUMNS.len() {
        return None;
    }
    let mut out = Vec::new();
    for ((name, field), cell) in COLUMNS.iter().zip(&cells) {
        let value = match field {
            Field::Percent => cell.parse::<u32>().ok().map(|v| format!("{v}%")),
            Field::Size => suffixed(cell).map(|(v, p)| format!("{v}{}", bytes(p, ""))),
            Field::Speed => suffixed(cell).map(|(v, p)| format!("{v}{}", bytes(p, "/s"))),
            Field::Time if cell.starts_with("--") => {
                out.push(String::new());
                continue;
            }
            Field::Time => seconds(cell).map(|s| format!("{s}s")),
        }?;
        out.push(format!("{name}: {value}"));
    }
    Some(
        out.into_iter()
            .filter(|p| !p.is_empty())
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// `17.3M` as `17.3` and its suffix letter (none for a count of bytes).
fn suffixed(cell: &str) -> Option<(&str, Option<char>)> {
    let (num, suffix) = match cell.char_indices().last()? {
        (i, c) if "kKMGTP".contains(c) => (&cell[..i], Some(c)),
        _ => (cell, None),
    };
    let number = !num.is_empty()
        && num.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && num.parse::<f64>().is_ok();
    number.then_some((num, suffix))
}

/// The unit of curl's suffix letter: powers of 1024 of bytes, `per` after.
fn bytes(suffix: Option<char>, per: &str) -> String {
    let base = match suffix {
        None => "B",
        Some('k' | 'K') => "KiB",
        Some('M') => "MiB",
        Some('G') => "GiB",
        Some('T') => "TiB",
        _ => "PiB",
    };
    format!("{base}{per}")
}

/// `0:01:47` as 107 seconds.
fn seconds(cell: &str) -> Option<u64> {
    let parts: Vec<&str> = cell.split(':').collect();
    if parts.len() != 3 || parts[1..].iter().any(|p| p.len() != 2) {
        return None;
    }
    let n: Vec<u64> = parts
        .iter()
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    Some(n[0] * 3600 + n[1] * 60 + n[2])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::Format;

    /// A corpus post's meter (a Wi-Fi download, quoted), and a meter whose
    /// time left is still known.
    const MAIL: &str = "> # curl -o /dev/null http://192.168.1.254:8095/fixed/1G\n\
        >   % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n\
        >                                  Dload  Upload   Total   Spent    Left  Speed\n\
        > 100 1024M  100 1024M    0     0  9747k      0  0:01:47  0:01:47 --:--:-- 9544k\n\
        \n\
        The same file with the vendor's driver:\n\
        \n\
        \x20 % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n\
        \x20                                Dload  Upload   Total   Spent    Left  Speed\n\
        \x2045 1024M   45  466M    0     0  17.3M      0  0:00:59  0:00:26  0:00:33 17.4M\n";

    #[test]
    fn meter_lines_are_read_as_named_values_in_bytes_and_seconds() {
        let src = Source::from_text("m.txt", MAIL);
        let (out, headers) = rewrite(&src);
        assert_eq!(headers, vec![2, 3, 8, 9]);
        assert_eq!(
            out.lines[3].text,
            "% Total: 100% Total: 1024MiB % Received: 100% Received: 1024MiB % Xferd: 0% \
             Xferd: 0B Average Speed Dload: 9747KiB/s Average Speed Upload: 0B/s Time Total: \
             107s Time Spent: 107s Current Speed: 9544KiB/s"
        );
        let rows = crate::ingest::formats::document::Document
            .parse(&src)
            .unwrap();
        let find = |metric: &str, value: f64| {
            rows.iter().any(|o| {
                o.metric.to_lowercase().contains(&metric.to_lowercase()) && o.value == value
            })
        };
        assert!(find("Dload", 9747.0), "{rows:#?}");
        assert!(find("Received", 466.0));
        assert!(find("Time Left", 33.0));
        assert!(find("Current Speed", 17.4));
    }

    #[test]
    fn a_line_of_other_words_under_the_header_is_no_meter_line() {
        assert_eq!(
            pairs("100 1024M 100 1024M 0 0 fast 0 0:01:47 0:01:47 --:--:-- 9544k"),
            None
        );
        assert_eq!(pairs("100 1024M 100"), None);
    }
}
