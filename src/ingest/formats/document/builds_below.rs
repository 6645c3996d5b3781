//! Unnamed columns below a harness's comparison of builds, named by its
//! builds.
//!
//! A comparison tool prints one column per build, and its summary goes on
//! below the table it headed: mmtests' `MMTests Statistics: duration`
//! lines and its vmstat or ftrace counters give one value per kernel,
//! in the same column order, under no header of their own
//! (`User/Sys Time Running Test (seconds)   53.26   52.27   51.88`). The
//! importer reads the table and leaves those lines; the document reader
//! reads them as `column 1`, `column 2`, … of no build. Here such rows take
//! the builds of the importer's nearest line above that compared builds
//! side by side, when they have one value per build, and the run of such
//! lines goes on unbroken by a line of another width.

use crate::model::{Observation, SmolStr};

/// Names the builds of the rows of `rest` (the document reader's rows of
/// lines the importers left) from the importers' rows `own` (see the
/// module documentation).
pub(super) fn name_builds_below(own: &[Observation], rest: &mut [Observation]) {
    let mut compared: Vec<(u32, Vec<SmolStr>)> = Vec::new();
    let mut lines: Vec<u32> = own.iter().map(|o| o.line).collect();
    lines.sort_unstable();
    lines.dedup();
    for line in lines {
        let mut builds: Vec<SmolStr> = Vec::new();
        for o in own.iter().filter(|o| o.line == line) {
            if !o.variant.is_empty() && !builds.contains(&o.variant) {
                builds.push(o.variant.clone());
            }
        }
        compared.push((line, builds));
    }
    let mut order: Vec<usize> = (0..rest.len()).collect();
    order.sort_by_key(|&i| rest[i].line);
    // The builds in force and the line of the importer's they came from.
    let mut at = 0;
    let mut builds: Option<(u32, &[SmolStr])> = None;
    let mut i = 0;
    while i < order.len() {
        let line = rest[order[i]].line;
        let mut j = i;
        while j < order.len() && rest[order[j]].line == line {
            j += 1;
        }
        while at < compared.len() && compared[at].0 < line {
            let (l, b) = &compared[at];
            builds = Some((*l, b.as_slice())).filter(|(_, b)| b.len() >= 2);
            at += 1;
        }
        let row = &order[i..j];
        match builds {
            Some((_, names)) if unnamed_columns(rest, row, names.len()) => {
                for (k, &r) in row.iter().enumerate() {
                    rest[r].variant = names[k].clone();
                    rest[r].metric = "value".into();
                }
            }
            // A line of another width ends the summary.
            _ => builds = None,
        }
        i = j;
    }
}

/// Whether the rows `row` of `rest` (one line's) are `n` values in
/// columns the document reader could not name, of no build.
fn unnamed_columns(rest: &[Observation], row: &[usize], n: usize) -> bool {
    row.len() == n
        && row.iter().enumerate().all(|(k, &r)| {
            let o = &rest[r];
            o.variant.is_empty() && o.metric.as_str() == format!("column {}", k + 1)
        })
}
