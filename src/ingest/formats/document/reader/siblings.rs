//! Headings that name builds because sibling blocks share their rows.
//!
//! A mail often gives one table per build under a short heading of its
//! own (`ON:` then `OFF:`, `queued_spinlock` then `ticket_spinlock`). No
//! word list knows every build name, but the shape says it: two headings
//! over the same row labels differ in what was run, not in what was
//! measured. Such a heading is the rows' variant rather than the first
//! part of their benchmark.

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
