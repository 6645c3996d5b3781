//! Headings that name builds because sibling blocks share their rows
//! or their one measurement.
//!
//! A mail often gives one table per build under a short heading of its
//! own (`ON:` then `OFF:`, `queued_spinlock` then `ticket_spinlock`). No
//! word list knows every build name, but the shape says it: two headings
//! over the same row labels differ in what was run, not in what was
//! measured. Such a heading is the rows' variant rather than the first
//! part of their benchmark.

use crate::ingest::Line;
use crate::model::{Observation, SmolStr};
use hashbrown::{HashMap, HashSet};

/// Most words a heading that names a build has; a longer one is a
/// sentence about the rows.
const MAX_WORDS: usize = 4;

/// Moves the heading of rows named `heading: label` without a variant
/// into their variant when another heading in the document heads the
/// same labels (at least half of the smaller block's).
pub(super) fn sibling_headings(out: &mut [Observation], file_stem: &str) {
    let builds = builds(out, file_stem);
    if builds.is_empty() {
        return;
    }
    for o in out.iter_mut() {
        let Some((h, l)) = heading_and_label(o, file_stem) else {
            continue;
        };
        if builds.contains(h) {
            let (h, l) = (SmolStr::new(h), SmolStr::new(l));
            o.variant = h;
            o.benchmark = l;
        }
    }
}

/// Moves the heading of lists of runs into their variant when another
/// heading in the document heads a list of the same measurement: a block
/// that repeats one key on line after line (`Maximum IOPS=12837K` five
/// times under `-git, RETPOLINE=n`, then five times under
/// `for-5.20/io_uring, RETPOLINE=n`) is a series of runs, and what tells
/// two such blocks apart is what was run. Rows of a table give a line
/// several values or lines different names, and are left alone.
pub(super) fn run_list_headings(out: &mut [Observation], lines: &[Line], file_stem: &str) {
    let builds = run_list_builds(out, lines, file_stem);
    if builds.is_empty() {
        return;
    }
    for o in out.iter_mut() {
        if o.variant.is_empty() && builds.contains(o.benchmark.as_str()) {
            o.variant = std::mem::replace(&mut o.benchmark, SmolStr::new(file_stem));
        }
    }
}

/// The headings of lists of runs of one metric that another such heading
/// shares.
fn run_list_builds(out: &[Observation], lines: &[Line], file_stem: &str) -> HashSet<String> {
    // Rows without a variant by their benchmark: their lines and metrics.
    let mut lists: HashMap<&str, (Vec<u32>, HashSet<&str>)> = HashMap::new();
    for o in out.iter() {
        if o.variant.is_empty() && o.stat == crate::model::Stat::Sample {
            let e = lists.entry(o.benchmark.as_str()).or_default();
            e.0.push(o.line);
            e.1.insert(o.metric.as_str());
        }
    }
    // The key stands on each value's own line: not on a line above a
    // list of bare numbers, which a reader may well name by its series.
    let keyed = |at: &[u32], metric: &str| {
        let metric = metric.to_lowercase();
        at.iter().all(|n| {
            lines
                .binary_search_by_key(n, |l| l.number)
                .is_ok_and(|i| lines[i].text.to_lowercase().contains(&metric))
        })
    };
    let mut by_metric: HashMap<&str, Vec<&str>> = HashMap::new();
    for (heading, (at, metrics)) in &lists {
        let mut sorted = at.clone();
        sorted.sort_unstable();
        sorted.dedup();
        // One value a line, on lines that follow each other.
        let run_list = sorted.len() >= 2
            && sorted.len() == at.len()
            && sorted[sorted.len() - 1] - sorted[0] + 1 == sorted.len() as u32;
        let named = *heading != file_stem && heading.split_whitespace().count() <= MAX_WORDS;
        let one_metric = (metrics.len() == 1)
            .then(|| metrics.iter().next().copied())
            .flatten();
        if let (true, true, Some(m)) = (run_list, named, one_metric) {
            if keyed(at, m) {
                by_metric.entry(m).or_default().push(heading);
            }
        }
    }
    by_metric
        .into_values()
        .filter(|hs| hs.len() >= 2)
        .flatten()
        .map(str::to_string)
        .collect()
}

/// The headings that share at least half of the smaller one's labels
/// with another heading.
fn builds(out: &[Observation], file_stem: &str) -> HashSet<String> {
    let mut labels: HashMap<&str, HashSet<&str>> = HashMap::new();
    for o in out {
        if let Some((h, l)) = heading_and_label(o, file_stem) {
            labels.entry(h).or_default().insert(l);
        }
    }
    let heads: Vec<&str> = labels.keys().copied().collect();
    let mut builds: HashSet<String> = HashSet::new();
    for (i, a) in heads.iter().enumerate() {
        for b in &heads[i + 1..] {
            let (la, lb) = (&labels[a], &labels[b]);
            let common = la.intersection(lb).count();
            if common >= 1 && 2 * common >= la.len().min(lb.len()) {
                builds.insert(a.to_string());
                builds.insert(b.to_string());
            }
        }
    }
    builds
}

/// `(heading, label)` of a row without a variant whose benchmark is a
/// short heading before a label; the file's name stands in for a missing
/// heading and names no build.
fn heading_and_label<'o>(o: &'o Observation, file_stem: &str) -> Option<(&'o str, &'o str)> {
    if !o.variant.is_empty() {
        return None;
    }
    let (h, l) = o.benchmark.split_once(": ")?;
    let short = h.split_whitespace().count() <= MAX_WORDS;
    let named = h.chars().any(char::is_alphabetic) && h != file_stem;
    (short && named && !l.trim().is_empty()).then_some((h, l))
}
