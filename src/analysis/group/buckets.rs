//! The first step of grouping: the series of a dataset sorted into
//! groups by (benchmark, params, metric), as indices, before anything is
//! copied out of the rows.

use super::PARALLEL_ROWS;
use crate::model::Dataset;
use rayon::prelude::*;
use std::collections::HashMap;

/// (benchmark, params, metric) borrowed from a series' head.
pub(crate) type RowKey<'a> = (&'a str, &'a str, &'a str);

/// Per group: its key and the indices of its series in the dataset.
pub(crate) type Buckets<'a> = Vec<(RowKey<'a>, Vec<u32>)>;

/// The groups of `data` in order of first appearance, each as its key and
/// the indices of its series, before anything is copied out of the rows:
/// [`build_groups`](super::build_groups) makes a window of them into groups at a time, so that
/// a dataset of millions of groups (a long e-mail table, each row its own
/// benchmark) never holds them all as [`RawGroup`](super::RawGroup)s.
pub(crate) fn buckets(data: &Dataset) -> Buckets<'_> {
    // The table's series (runs of rows with one head) are bucketed, not
    // its rows: a harness's million samples of a command are one lookup.
    // Many series are bucketed in chunks on all threads and the chunks'
    // buckets merged in chunk order: the groups and series of a pass from
    // top to bottom.
    let n = data.series_count();
    if n < PARALLEL_ROWS {
        bucket(data, 0..n)
    } else {
        let chunk = PARALLEL_ROWS / 2;
        let starts: Vec<usize> = (0..n).step_by(chunk).collect();
        merge(
            starts
                .into_par_iter()
                .map(|a| bucket(data, a..(a + chunk).min(n)))
                .collect(),
        )
    }
}

/// Series of `range` by (benchmark, params, metric), groups in order of
/// first appearance. Keys borrow the heads: no string copies per series,
/// one per group. Series of a group usually follow each other, so one
/// with the previous one's key skips the hash lookup.
fn bucket(data: &Dataset, range: std::ops::Range<usize>) -> Buckets<'_> {
    let mut groups: Buckets = Vec::new();
    let mut index: HashMap<RowKey, usize> = HashMap::new();
    let mut last: Option<usize> = None;
    for si in range {
        let h = data.series_at(si).head;
        let key = (h.benchmark.as_str(), h.params.as_str(), h.metric.as_str());
        let i = match last {
            Some(i) if groups[i].0 == key => i,
            _ => *index.entry(key).or_insert_with(|| {
                groups.push((key, Vec::new()));
                groups.len() - 1
            }),
        };
        groups[i].1.push(si as u32);
        last = Some(i);
    }
    groups
}

/// The buckets of consecutive chunks of series as those of the series
/// together: a key first seen in an earlier chunk (or earlier in the same
/// one) comes first, and a group's series are its chunks' in chunk order.
fn merge(parts: Vec<Buckets<'_>>) -> Buckets<'_> {
    use hashbrown::hash_map::Entry;
    // Serial: foldhash, not SipHash (a hash per group and chunk).
    let mut groups: Buckets = Vec::new();
    let mut index: hashbrown::HashMap<RowKey, usize> = hashbrown::HashMap::new();
    for (key, series) in parts.into_iter().flatten() {
        match index.entry(key) {
            Entry::Occupied(e) => groups[*e.get()].1.extend(series),
            Entry::Vacant(e) => {
                e.insert(groups.len());
                groups.push((key, series));
            }
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Observation;

    #[test]
    fn buckets_merged_from_chunks_are_those_of_one_pass() {
        // Interleaved keys, a key coming back after others, keys spanning
        // chunk boundaries: every chunk size gives the one-pass buckets.
        let rows: Vec<Observation> = (0..97u32)
            .map(|i| {
                let b = ["a", "b", "c", "a", "d"][(i as usize * 7 / 5) % 5];
                let m = if i % 11 == 0 { "rss" } else { "time" };
                Observation::sample(b, m, "ms", f64::from(i))
                    .with_params_str(if i % 13 < 2 { "threads=2" } else { "" })
                    .with_run(i)
            })
            .collect();
        let data = Dataset::new(rows);
        let n = data.series_count();
        let ids = |g: &Buckets| -> Vec<(String, Vec<Option<u32>>)> {
            g.iter()
                .map(|(k, series)| {
                    let runs = series
                        .iter()
                        .flat_map(|&i| data.series_at(i as usize).rows())
                        .map(|o| o.run)
                        .collect();
                    (format!("{k:?}"), runs)
                })
                .collect()
        };
        let one_pass = ids(&bucket(&data, 0..n));
        assert!(one_pass.len() >= 8, "{}", one_pass.len());
        for size in [1, 2, 3, 10, 50, 96, 97, 200] {
            let starts = (0..n).step_by(size);
            let merged = merge(
                starts
                    .map(|a| bucket(&data, a..(a + size).min(n)))
                    .collect(),
            );
            assert_eq!(ids(&merged), one_pass, "chunks of {size}");
        }
    }
}
