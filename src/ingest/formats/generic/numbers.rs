//! Files of numbers alone: one a line, or lines of as many numbers each.

use super::{file_stem, is_unit};
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::{Parsed, Source};

/// A file of bare numbers only, one a line (`perf bench -f simple`, a
/// script's `echo $result`): each a sample of metric `value` of the
/// benchmark its file name gives, since nothing else names it. Lines of
/// several numbers, as many on each line (`netperf -P0`, lmbench's
/// `bw_mem` printing size and bandwidth), give metrics `column 1`,
/// `column 2`, …: nothing names them, and the accounting says the file was
/// read generically.
pub(super) fn bare_numbers(src: &Source) -> Option<Parsed> {
    bare_number(src).or_else(|| number_columns(src))
}

/// The fields of a line of numbers split on blanks or commas, when every
/// one is a number.
fn number_fields(t: &str) -> Option<Vec<f64>> {
    t.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|f| !f.is_empty())
        .map(parse_number)
        .collect()
}

fn number_columns(src: &Source) -> Option<Parsed> {
    let stem = file_stem(src);
    let mut out = Vec::new();
    let mut width = None;
    for (run, l) in src
        .lines
        .iter()
        .filter(|l| !l.text.trim().is_empty())
        .enumerate()
    {
        // A unit may close the line (`…,2.00,35734.21,Trans/s`): the last
        // column's.
        let t = l.text.trim().trim_end_matches(',');
        let (t, unit) = match t.rsplit_once([',', ' ', '\t']) {
            Some((head, last)) if parse_number(last).is_none() && is_unit(last) => (head, last),
            _ => (t, ""),
        };
        let fields = number_fields(t)?;
        if fields.len() < 2 || *width.get_or_insert(fields.len()) != fields.len() {
            return None;
        }
        let last = fields.len() - 1;
        for (k, v) in fields.into_iter().enumerate() {
            let metric = format!("column {}", k + 1);
            let o = Row::at(src, l.number)
                .benchmark(&stem)
                .metric(&metric)
                .unit(if k == last { unit } else { "" })
                .sample(v);
            out.push(o.with_run(run as u32));
        }
    }
    (!out.is_empty()).then(|| out.into())
}

fn bare_number(src: &Source) -> Option<Parsed> {
    let mut out = Vec::new();
    let stem = file_stem(src);
    for l in &src.lines {
        let t = l.text.trim();
        if t.is_empty() {
            continue;
        }
        let v = parse_number(t).filter(|_| !t.contains(char::is_whitespace))?;
        out.push(
            Row::at(src, l.number)
                .benchmark(&stem)
                .metric("value")
                .sample(v),
        );
    }
    (!out.is_empty()).then(|| out.into())
}
