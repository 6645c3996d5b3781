//! Values a harness's importer left on the lines it read.
//!
//! An importer reads its tool's lines by their grammar, and a mail that
//! pastes them often shows more on the same line than the grammar takes:
//! perf stat's shadow metric and `( +- x% )` spread, the change cells of
//! an mmtests comparison, fio's `min=` and `max=` beside the `avg=` it
//! keeps, cyclictest's loop count. Those values were lost: the document
//! reader's rows of a line the importer read were all left out, as the
//! importer's. Here they are kept where they hold a value the importer
//! did not give on that line.

use crate::ingest::shared::loop_lines::counts_by_one;
use crate::model::{Observation, Unit};

/// The rows of `doc` (the document reader's rows of lines the importer
/// read, `own` being the importer's rows) that hold a value the importer
/// gave on none of its rows of that line: neither as a value (in the
/// row's unit or one it converts to, or scaled by a `k`/`M` suffix the
/// importer took for a unit) nor as a numeric setting (kunit's `len=127`).
/// A column of such rows that counts up by one from line to line (ioping's
/// `request=3`, a sequence number) is no measurement and stays out.
/// `line_text` gives the text of a line by its number.
pub(super) fn values_beyond<'t>(
    own: &[Observation],
    doc: Vec<Observation>,
    line_text: impl Fn(u32) -> &'t str,
) -> Vec<Observation> {
    let mut by_line: Vec<&Observation> = own.iter().collect();
    by_line.sort_by_key(|o| o.line);
    let of_line = |line: u32| {
        let start = by_line.partition_point(|o| o.line < line);
        by_line[start..].iter().take_while(move |o| o.line == line)
    };
    let mut kept: Vec<Observation> = doc
        .into_iter()
        .filter(|o| {
            let mut mine = of_line(o.line).peekable();
            mine.peek().is_some() && !mine.any(|h| same_value(h, o))
        })
        .collect();
    // A value of the line belongs to the build its line was run on, which
    // the importer's rows of that line were named by (a heading above a
    // cyclictest block); the document reader may see no name there.
    for o in kept.iter_mut().filter(|o| o.variant.is_empty()) {
        if let Some(h) = of_line(o.line).find(|h| !h.variant.is_empty()) {
            o.variant = h.variant.clone();
        }
    }
    // It also measures what the line's run measured: where the importer
    // tells the line's run apart by params (cyclictest's `T: 3` is
    // thread 3 of the run), a name the document reader took from above
    // the line (a heading, `make -j8`) is not the line's. Such a value
    // takes the benchmark and params the importer's rows of the line
    // agree on, and keeps its own metric (`Act`). A name the line itself
    // holds (an lkp metric) stays, and so does the reader's name where
    // the importer has no params (perf stat names the line by its
    // counter, a metric the shadow value beside it is not).
    for o in kept.iter_mut() {
        if words_on_line(&o.benchmark, line_text(o.line)) {
            continue;
        }
        let mut mine = of_line(o.line);
        let Some(first) = mine.next() else {
            continue;
        };
        let one = mine.all(|h| h.benchmark == first.benchmark && h.params == first.params);
        if one && !first.benchmark.is_empty() && !first.params.is_empty() {
            o.benchmark = first.benchmark.clone();
            o.params = first.params.clone();
        }
    }
    drop_counters(&mut kept);
    kept
}

/// Whether every word of `name` (letters and digits) is on `line`: a
/// name the line holds, not one from a heading above it.
fn words_on_line(name: &str, line: &str) -> bool {
    let on: std::collections::HashSet<String> = line
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let mut words = name
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .peekable();
    words.peek().is_some() && words.all(|w| on.contains(&w.to_lowercase()))
}

fn close(x: f64, y: f64) -> bool {
    x == y || (x - y).abs() <= 1e-9 * x.abs().max(y.abs())
}

/// Whether `b` holds the value of `a` or of one of its numeric settings.
fn same_value(a: &Observation, b: &Observation) -> bool {
    if close(a.value, b.value) {
        return true;
    }
    let setting = |kv: &str| {
        kv.split_once('=')
            .and_then(|(_, v)| v.parse::<f64>().ok())
            .is_some_and(|v| close(v, b.value))
    };
    if a.params.split(',').any(setting) {
        return true;
    }
    // A number in the name the importer gave the line's rows is part of
    // that name (git's perf suite's `0001.5: rev-list`, test 5 of script
    // 0001), not a value the importer left.
    if numbers_in(&a.benchmark).any(|v| close(v, b.value)) {
        return true;
    }
    let (from, to) = (Unit::parse(&b.unit), Unit::parse(&a.unit));
    if from
        .convert(b.value, &to)
        .is_some_and(|v| close(v, a.value))
    {
        return true;
    }
    // `1588.82k` read by the importer as 1588.82 in `kB/s`, by the
    // document reader as 1588820 with no unit: one value.
    b.unit.is_empty()
        && [1e3, 1e6, 1e9, 1024.0, 1048576.0]
            .iter()
            .any(|s| close(a.value * s, b.value) || close(a.value, b.value * s))
}

/// The numbers written in `name` (runs of digits and dots).
fn numbers_in(name: &str) -> impl Iterator<Item = f64> + '_ {
    name.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter_map(|t| t.trim_matches('.').parse::<f64>().ok())
}

/// Drops the columns of `rows` (one name, variant, metric and stat) whose
/// values count up by one from each line to the next (or start again):
/// a request or sequence number, not a measurement.
fn drop_counters(rows: &mut Vec<Observation>) {
    let key = |o: &Observation| {
        (
            o.benchmark.clone(),
            o.params.clone(),
            o.variant.clone(),
            o.metric.clone(),
            o.stat,
        )
    };
    let mut groups: std::collections::HashMap<_, Vec<(u32, f64)>> = Default::default();
    for o in rows.iter() {
        groups.entry(key(o)).or_default().push((o.line, o.value));
    }
    let counters: std::collections::HashSet<_> = groups
        .into_iter()
        .filter(|(_, v)| counts_up(v))
        .map(|(k, _)| k)
        .collect();
    if !counters.is_empty() {
        rows.retain(|o| !counters.contains(&key(o)));
    }
}

/// Whether `values` (line, value), in line order, step up by one at least
/// three times and never step otherwise but to start again lower.
fn counts_up(values: &[(u32, f64)]) -> bool {
    let mut v = values.to_vec();
    v.sort_by_key(|(l, _)| *l);
    counts_by_one(v.into_iter().map(|(_, x)| x), 3)
}
