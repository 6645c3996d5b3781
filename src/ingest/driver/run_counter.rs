//! Samples counted per run key over the inputs of one ingest, in memory
//! that grows by a few bytes a key and never doubles at once.

use super::runs::LocalRuns;
use std::collections::HashMap;

/// A key's shard is the first this many bits of its digest.
const SHARD_BITS: u32 = 8;

/// Samples counted so far per key, over the inputs already delivered.
///
/// A table of a few million distinct rows (a long e-mail table, each row
/// its own benchmark) has as many keys, and the counter outlives every
/// row. A hash map of 16-byte entries held 7.3 million keys in up to
/// 267 MB (its empty slots, and the old and new table both alive while it
/// grew): more than the rest of that ingest together. Here a key is the
/// first 72 bits of its digest: the first 8 pick a shard, the next 64 are
/// kept in the shard's sorted list with the key's count beside them in a
/// byte (larger counts in a map), 9 bytes a key and at most an eighth of
/// a shard spare. Two of ten million
/// keys share 72 bits with a chance of about one in 10^8; they would then
/// share one count (their runs numbered as one key's), nothing worse.
/// The price is time on huge tables: a window's new keys are merged into
/// the lists, which moves the keys held before them once a window (block
/// copies, about a second over the 25 windows of a 200 MB mail).
pub(super) struct RunCounter {
    shards: Vec<Shard>,
    /// The counts of [`SPILLED`] keys, by shard and id.
    large: HashMap<(u16, u64), u32>,
}

/// The keys of one shard, sorted, and their counts: a byte each, as most
/// keys of a table with millions of them have a sample or a few.
#[derive(Default)]
struct Shard {
    ids: Vec<u64>,
    counts: Vec<u8>,
}

/// The stored count of a key whose count is in [`RunCounter::large`].
const SPILLED: u8 = u8::MAX;

impl Default for RunCounter {
    fn default() -> Self {
        RunCounter {
            shards: (0..1 << SHARD_BITS).map(|_| Shard::default()).collect(),
            large: HashMap::new(),
        }
    }
}

impl RunCounter {
    /// Per input, in order, and per key of it: the samples that inputs
    /// before it had (earlier calls' and this call's); counts them all.
    ///
    /// Inputs come a window at a time, so that new keys are merged into
    /// the lists once per window, not once per piece of a file (a 200 MB
    /// mail is 780 pieces).
    pub(super) fn offsets(&mut self, inputs: &[&LocalRuns]) -> Vec<Vec<u32>> {
        let keys = inputs.iter().flat_map(|runs| {
            runs.digests
                .iter()
                .copied()
                .zip(runs.counts.iter().copied())
        });
        let seen = self.add_all(keys);
        let mut seen = seen.as_slice();
        inputs
            .iter()
            .map(|runs| {
                let (mine, rest) = seen.split_at(runs.counts.len());
                seen = rest;
                mine.to_vec()
            })
            .collect()
    }

    /// Adds each (digest, samples) in order and gives, in the same order,
    /// the samples that digest had before it (a digest may come again).
    pub(super) fn add_all(&mut self, keys: impl Iterator<Item = (u128, u32)>) -> Vec<u32> {
        // Looked up in sorted order, a shard at a time: each search starts
        // where the one before ended, in memory just read, instead of a
        // cache miss at every step of a binary search (a quarter of a
        // 200 MB mail's ingest time went to those).
        let mut items: Vec<Item> = keys
            .enumerate()
            .map(|(at, (d, n))| {
                let (shard, id) = place(d);
                Item {
                    shard: shard as u16,
                    id,
                    n,
                    at: at as u32,
                }
            })
            .collect();
        // By position too, so that a digest's comings stay in order.
        items.sort_unstable_by_key(|it| (it.shard, it.id, it.at));
        let mut seen = vec![0; items.len()];
        let mut fresh: Vec<Fresh> = Vec::new();
        for group in items.chunk_by(|a, b| a.shard == b.shard) {
            let shard = group[0].shard;
            let s = &mut self.shards[shard as usize];
            fresh.clear();
            let mut from = 0;
            for it in group {
                if let Some(last) = fresh.last_mut().filter(|f| f.id == it.id) {
                    seen[it.at as usize] = last.n;
                    last.n = last.n.saturating_add(it.n);
                    continue;
                }
                let i = from + gallop(&s.ids[from..], it.id);
                from = i;
                if s.ids.get(i) == Some(&it.id) {
                    let before = match s.counts[i] {
                        SPILLED => self.large[&(shard, it.id)],
                        c => u32::from(c),
                    };
                    seen[it.at as usize] = before;
                    let after = before.saturating_add(it.n);
                    s.counts[i] = store(&mut self.large, (shard, it.id), after);
                } else {
                    fresh.push(Fresh {
                        before: i,
                        id: it.id,
                        n: it.n,
                    });
                }
            }
            s.insert(&fresh, |f| store(&mut self.large, (shard, f.id), f.n));
        }
        seen
    }
}

/// The byte stored for a key's count, the count itself put in `large`
/// when it does not fit.
fn store(large: &mut HashMap<(u16, u64), u32>, key: (u16, u64), count: u32) -> u8 {
    match u8::try_from(count) {
        Ok(c) if c != SPILLED => c,
        _ => {
            large.insert(key, count);
            SPILLED
        }
    }
}

/// A key to add: its place, its samples and its position in the input.
struct Item {
    id: u64,
    at: u32,
    n: u32,
    shard: u16,
}

/// A key new to its shard, to go in before the shard's key `before`.
struct Fresh {
    before: usize,
    id: u64,
    n: u32,
}

/// A digest's shard and the 64 bits after the shard's.
fn place(d: u128) -> (usize, u64) {
    let shard = (d >> (128 - SHARD_BITS)) as usize;
    let id = (d >> (64 - SHARD_BITS)) as u64;
    (shard, id)
}

/// The first position in sorted `ids` whose id is not below `id`, found
/// by doubling a step from the start, then halving within the last step:
/// a few reads near the start when the answer is near it.
fn gallop(ids: &[u64], id: u64) -> usize {
    let mut end = 1;
    while end < ids.len() && ids[end - 1] < id {
        end *= 2;
    }
    let start = end / 2;
    let end = end.min(ids.len());
    start + ids[start..end].partition_point(|&x| x < id)
}

impl Shard {
    /// Inserts new keys, sorted, each before the old key it names. Old
    /// keys move once, a block at a time, from the back.
    fn insert(&mut self, fresh: &[Fresh], mut stored: impl FnMut(&Fresh) -> u8) {
        let (old, add) = (self.ids.len(), fresh.len());
        if add == 0 {
            return;
        }
        if self.ids.capacity() < old + add {
            // An eighth spare: few reallocations, little slack.
            let extra = add.max(old / 8);
            self.ids.reserve_exact(extra);
            self.counts.reserve_exact(extra);
        }
        self.ids.resize(old + add, 0);
        self.counts.resize(old + add, 0);
        let mut end = old;
        for (j, f) in fresh.iter().enumerate().rev() {
            self.ids.copy_within(f.before..end, f.before + j + 1);
            self.counts.copy_within(f.before..end, f.before + j + 1);
            self.ids[f.before + j] = f.id;
            self.counts[f.before + j] = stored(f);
            end = f.before;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn keys_of_one_shard_and_of_one_id_in_two_shards_keep_their_own_counts() {
        let mut c = RunCounter::default();
        let a = (7u128 << 120) | (1 << 56);
        let b = (7u128 << 120) | (2 << 56);
        let other_shard = (8u128 << 120) | (1 << 56);
        assert_eq!(c.add_all([(a, 3), (b, 5)].into_iter()), [0, 0]);
        // A digest that comes again in one call counts on from its first.
        assert_eq!(
            c.add_all([(b, 1), (b, 2), (a, 0), (b, 0)].into_iter()),
            [5, 6, 3, 8]
        );
        assert_eq!(
            c.add_all([(a, 1), (other_shard, 2), (b, 0)].into_iter()),
            [3, 0, 8]
        );
        assert_eq!(
            c.add_all([(b, 1), (a, 1), (other_shard, 1)].into_iter()),
            [8, 4, 2]
        );
        // So does a digest new to the counter.
        let new = (9u128 << 120) | (5 << 56);
        assert_eq!(
            c.add_all([(new, 2), (a, 0), (new, 3)].into_iter()),
            [0, 5, 2]
        );
        assert_eq!(c.add_all([(new, 1)].into_iter()), [5]);
        // Counts past a byte's: the new one and one that grows past it.
        let many = (9u128 << 120) | (6 << 56);
        assert_eq!(
            c.add_all([(many, 300), (new, 250), (many, 1)].into_iter()),
            [0, 6, 300]
        );
        assert_eq!(c.add_all([(new, 1), (many, 0)].into_iter()), [256, 301]);
    }

    #[test]
    fn gallop_finds_the_first_id_not_below_the_one_sought() {
        let ids = [2, 4, 4, 8, 16, 32, 64];
        for (id, at) in [
            (0, 0),
            (2, 0),
            (3, 1),
            (4, 1),
            (5, 3),
            (33, 6),
            (64, 6),
            (65, 7),
        ] {
            assert_eq!(gallop(&ids, id), at, "{id}");
        }
        assert_eq!(gallop(&[], 5), 0);
    }

    #[test]
    fn counts_agree_with_a_map_over_many_inputs_of_new_and_repeated_keys() {
        let mut c = RunCounter::default();
        let mut model: HashMap<u128, u32> = HashMap::new();
        // A small generator: a fifth of the keys come back from a pool
        // of earlier ones, the rest are new; shards fill unevenly.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut pool: Vec<u128> = Vec::new();
        for input in 0..40 {
            let mut keys: Vec<(u128, u32)> = Vec::new();
            for _ in 0..(input * 37 % 500) {
                let d = if !pool.is_empty() && next() % 5 == 0 {
                    pool[next() as usize % pool.len()]
                } else {
                    let d = ((next() as u128) << 64) | next() as u128;
                    pool.push(d);
                    d
                };
                // Now and then a count past what a byte holds.
                let n = match next() % 10 {
                    0 => 200 + next() % 300,
                    _ => next() % 4,
                };
                keys.push((d, n as u32));
            }
            let expected: Vec<u32> = keys
                .iter()
                .map(|&(d, n)| {
                    let e = model.entry(d).or_insert(0);
                    let before = *e;
                    *e += n;
                    before
                })
                .collect();
            assert_eq!(c.add_all(keys.into_iter()), expected, "input {input}");
        }
        for shard in &c.shards {
            assert!(shard.ids.windows(2).all(|w| w[0] < w[1]));
        }
    }
}
