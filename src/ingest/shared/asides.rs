//! Figures in parentheses after a value, each a value of its own: the
//! share of a count (`Queries completed: 600 (100.00%)`, dnsperf) and the
//! named figures beside a mean (`Average Latency (s): 0.013 (min 0.000042,
//! max 0.204006)`). Read only after a `label:` or `label =` value and only
//! when every item in the parentheses is one figure: an unsigned
//! percentage, or a name and a number (a signed figure, `(+5.2%)`, is a
//! change against another run, left unread).

use crate::ingest::shared::numbers::parse_number;

/// One figure in the parentheses: the name it adds to the value's metric
/// (`percent` for a share) and its value; `percent` says it is in %.
#[derive(Debug, PartialEq)]
pub(in crate::ingest) struct Aside<'a> {
    pub(in crate::ingest) name: &'a str,
    pub(in crate::ingest) value: f64,
    pub(in crate::ingest) percent: bool,
}

/// `text` without its closing parenthesized figures, and those figures,
/// when the line ends in such a group after a number.
pub(in crate::ingest) fn split(text: &str) -> Option<(&str, Vec<Aside<'_>>)> {
    let body = text.strip_suffix(')')?;
    let open = body.rfind('(')?;
    let (core, inside) = (body[..open].trim_end(), &body[open + 1..]);
    // The group follows the value (and its unit), never the label.
    if !core
        .split_whitespace()
        .rev()
        .take(2)
        .any(|w| parse_number(w).is_some())
    {
        return None;
    }
    let asides = inside
        .split(',')
        .map(|item| aside(item.trim()))
        .collect::<Option<Vec<_>>>()?;
    Some((core, asides))
}

fn aside(item: &str) -> Option<Aside<'_>> {
    // A signed figure (`+5%`, `-0.3`) is a change against something else,
    // not a figure of this value.
    if item.starts_with(['+', '-', '±']) {
        return None;
    }
    if let Some(p) = item.strip_suffix('%') {
        return parse_number(p).map(|value| Aside {
            name: "percent",
            value,
            percent: true,
        });
    }
    let (name, number) = item.split_once(char::is_whitespace)?;
    let named = name.chars().all(char::is_alphabetic) && !name.is_empty();
    let value = parse_number(number.trim())?;
    named.then_some(Aside {
        name,
        value,
        percent: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_and_named_figures_after_a_value() {
        let (core, a) = split("Queries completed:    600 (100.00%)").unwrap();
        assert_eq!(core, "Queries completed:    600");
        assert_eq!(
            a,
            vec![Aside {
                name: "percent",
                value: 100.0,
                percent: true
            }]
        );
        let (core, a) =
            split("Average Latency (s):  0.013172 (min 0.000042, max 0.204006)").unwrap();
        assert_eq!(core, "Average Latency (s):  0.013172");
        assert_eq!((a[0].name, a[0].value), ("min", 0.000042));
        assert_eq!((a[1].name, a[1].value), ("max", 0.204006));
        // A unit in brackets on the label, a remark in words, a group of
        // several numbers per item: none are asides.
        assert_eq!(split("Run time (s): 3.04"), None);
        assert_eq!(split("read: 72.0 ms (with the patch)"), None);
        assert_eq!(split("lat: 3 (1 2 3)"), None);
        // A change against a baseline is no share of this value.
        assert_eq!(split("throughput: 12.3 (+5.2%)"), None);
    }
}
