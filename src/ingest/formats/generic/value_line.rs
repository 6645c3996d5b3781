//! One line of a log read as a value: `label: number [unit]`, `label =
//! number [unit]` or `label number [unit]`, and the unit words and
//! remarks such a line may carry. Shared by the generic reader's line,
//! stacked, bare-number and delimited readings.

use crate::ingest::shared::numbers::parse_number;

/// A label: starts with a letter, at most this long.
pub(super) const MAX_LABEL: usize = 64;

/// Whether `w` can be a unit token: short, no digit but for a
/// power (`s^2`) and no sentence punctuation.
pub(super) fn is_unit(w: &str) -> bool {
    w.len() <= 12
        && !w.is_empty()
        && !w
            .chars()
            .any(|c| c.is_ascii_digit() || matches!(c, ',' | ';' | '=' | ':'))
}

/// Where a line's label ends: its first `:` or `=`, a `::` aside, which
/// joins the parts of a name (`Setup Information::Setup Time=0.024`, a
/// flattened key; `std::sort: 12 ms`, a qualified one).
pub(super) fn separator(t: &str) -> Option<usize> {
    let b = t.as_bytes();
    let mut k = 0;
    while k < b.len() {
        match b[k] {
            b':' if b.get(k + 1) == Some(&b':') => k += 2,
            b':' | b'=' => return Some(k),
            _ => k += 1,
        }
    }
    None
}

/// A value line's label, number and unit.
pub(super) fn value_line(text: &str) -> Option<(&str, f64, &str)> {
    let t = text.trim();
    if !t.starts_with(|c: char| c.is_alphabetic()) {
        return None;
    }
    let at = separator(t);
    let separated = at.is_some();
    let (label, rest) = match at {
        Some(at) => (&t[..at], t[at + 1..].trim_start()),
        None => {
            // `label number [unit]`: the number is the last or second-last word.
            let words: Vec<&str> = t.split_whitespace().collect();
            let at = match words.len() {
                0 | 1 => return None,
                n if parse_number(words[n - 1]).is_some() => n - 1,
                n if n >= 3 && parse_number(words[n - 2]).is_some() => n - 2,
                _ => return None,
            };
            let start = t.find(&*format!(" {}", words[at]))?;
            (&t[..start], t[start..].trim_start())
        }
    };
    let label = label.trim();
    if label.is_empty() || label.len() > MAX_LABEL {
        return None;
    }
    // The label holds no number of its own (`T: 0 (1234) P: 0` is a
    // record, `took 3 ms over 5 runs` a sentence), but for one inside a
    // label set apart by a colon, which is a setting of it (`Select on 100
    // fd's: 1.37 microseconds`); one ending it counts runs (`Run 1: 2 s`).
    let words: Vec<&str> = label.split_whitespace().collect();
    let number_at = words.iter().position(|w| parse_number(w).is_some());
    let setting = separated && words.len() >= 3 && number_at.is_some_and(|i| i + 1 < words.len());
    if number_at.is_some() && !setting {
        return None;
    }
    let mut words = rest.split_whitespace();
    let number = words.next()?;
    let value = parse_number(number)?;
    let tail: Vec<&str> = words.collect();
    // A percent sign on the number is its unit (`ratio: 72.0%`).
    let percent = number.ends_with('%');
    let (unit, comment) = match tail.split_first() {
        None => ("", &tail[..]),
        Some((u, more)) if !percent && is_unit(u) && !opens_comment(u) => (*u, more),
        Some(_) => ("", &tail[..]),
    };
    // Words after the value are a remark when set apart as one (`--`, `#`,
    // parentheses) and numberless, and only after a `label:` or `label =`
    // line, whose value the separator already marks (gzip -v's `name.gz:
    // 72.0% -- replaced with name`); any other tail leaves the line
    // ambiguous.
    if !comment.is_empty() && (!separated || !is_remark(comment)) {
        return None;
    }
    Some((label, value, if percent { "%" } else { unit }))
}

/// Whether `word` opens a remark after a value: `--`, `#` or `(`.
fn opens_comment(word: &str) -> bool {
    word == "--" || word.starts_with('#') || word.starts_with('(')
}

/// Whether `words` are a remark after a value: opened by `--` or `#`, or
/// wrapped in parentheses, holding no number (a figure in it would be a
/// second value, which the line leaves ambiguous; a name's digits,
/// `run2.log`, are none).
fn is_remark(words: &[&str]) -> bool {
    let (Some(first), Some(last)) = (words.first(), words.last()) else {
        return false;
    };
    let marked =
        *first == "--" || first.starts_with('#') || (first.starts_with('(') && last.ends_with(')'));
    let figure = |w: &&str| parse_number(w.trim_matches(['(', ')', ',', ';'])).is_some();
    marked && !words.iter().any(figure)
}

/// A unit in brackets at the end of a label: `time (ms)`, `lat [us]`.
pub(super) fn bracket_unit(label: &str) -> Option<(&str, &str)> {
    let l = label.trim_end();
    let (close, open) = match l.chars().last()? {
        ')' => (')', '('),
        ']' => (']', '['),
        _ => return None,
    };
    let at = l.rfind(open)?;
    let unit = l[at + 1..l.len() - close.len_utf8()].trim();
    is_unit(unit).then(|| (l[..at].trim_end(), unit))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_lines_of_every_shape() {
        assert_eq!(
            value_line("Total time: 12.5 s"),
            Some(("Total time", 12.5, "s"))
        );
        assert_eq!(
            value_line("throughput = 3,400 ops/s"),
            Some(("throughput", 3400.0, "ops/s"))
        );
        assert_eq!(value_line("latency 0.25 ms"), Some(("latency", 0.25, "ms")));
        assert_eq!(value_line("Score 1234"), Some(("Score", 1234.0, "")));
        // Records and sentences are not `label: value`.
        assert_eq!(value_line("T: 0 (123) P: 0 C: 100 Min: 3"), None);
        assert_eq!(value_line("took 3 ms over 5 runs"), None);
        assert_eq!(value_line("Run 1: 2.5 s"), None);
        // A numberless remark after a separated value; a percent sign as
        // the unit (gzip -v's lines).
        assert_eq!(
            value_line("gzip_final/reymont.gz:   72.0% -- replaced with gzip_final/reymont"),
            Some(("gzip_final/reymont.gz", 72.0, "%"))
        );
        assert_eq!(
            value_line("read: 72.0 ms (with the patch)"),
            Some(("read", 72.0, "ms"))
        );
        assert_eq!(
            value_line("read = 7 us # warm cache"),
            Some(("read", 7.0, "us"))
        );
        // gzip 1.12's own lines, run here (a tab after the colon).
        assert_eq!(
            value_line("b.lock:\t 75.0% -- replaced with b.lock.gz"),
            Some(("b.lock", 75.0, "%"))
        );
        assert_eq!(
            value_line("run2.log:\t 61.5% -- replaced with run2.log.gz"),
            Some(("run2.log", 61.5, "%"))
        );
        // A remark holding a figure, or one after an unseparated label,
        // leaves the line ambiguous.
        assert_eq!(value_line("read: 72.0 ms -- 3 runs"), None);
        assert_eq!(value_line("read: 72.0 ms (of 3)"), None);
        assert_eq!(value_line("latency 0.25 ms -- fast"), None);
        assert_eq!(value_line("read: 72.0 ms with the patch"), None);
        assert_eq!(
            value_line("Select on 100 fd's: 1.3716 microseconds"),
            Some(("Select on 100 fd's", 1.3716, "microseconds"))
        );
        assert_eq!(value_line("12 apples"), None);
        // A `::` joins the parts of a name; the label ends at the next
        // separator (HPCG's flattened keys, real lines).
        assert_eq!(
            value_line("Setup Information::Setup Time=0.0240219"),
            Some(("Setup Information::Setup Time", 0.0240219, ""))
        );
        assert_eq!(
            value_line("GFLOP/s Summary::Raw Total=1.99534"),
            Some(("GFLOP/s Summary::Raw Total", 1.99534, ""))
        );
        assert_eq!(value_line("Machine Summary="), None);
        assert_eq!(value_line("a::b::c"), None);
    }
}
