//! Several runs of one tool in one file: a shell loop's output (`for i in
//! 1 2 3; do tool; done > log`) or `tee -a` over several runs. Readers that
//! gather one run's lines into one result (a histogram and its trailer, a
//! table and its header) read each run on its own, here, so that a second
//! run neither adds to the first's buckets nor replaces its figures; the
//! driver then numbers each run's samples after the run before.

use crate::error::Result;
use crate::ingest::{Parsed, Source};

/// `src` cut before each line `opens` says starts a run (the lines above
/// the first opener belong to the first run), each part read by `read`,
/// the readings joined in order. A file of one run is read whole, as
/// before. `opens` sees the lines in order, so it may keep what it has seen
/// (a thread's header that comes again starts the next run).
pub(crate) fn each_run(
    src: &Source,
    mut opens: impl FnMut(&str) -> bool,
    read: impl Fn(&Source) -> Result<Parsed>,
) -> Result<Parsed> {
    let starts: Vec<usize> = src
        .lines
        .iter()
        .enumerate()
        .filter(|(_, l)| opens(&l.text))
        .map(|(i, _)| i)
        .skip(1)
        .collect();
    if starts.is_empty() {
        return read(src);
    }
    let mut bounds = vec![0];
    bounds.extend(starts);
    bounds.push(src.lines.len());
    let mut all = Parsed::default();
    for w in bounds.windows(2) {
        let part = Source::from_lines(&src.path, src.lines[w[0]..w[1]].to_vec());
        let mut p = read(&part)?;
        all.bulk.append(std::mem::take(&mut p.bulk));
        all.observations.append(&mut p.observations);
        all.consumed.append(&mut p.consumed);
        all.skipped.append(&mut p.skipped);
    }
    Ok(all)
}
