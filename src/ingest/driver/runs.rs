//! Variant options applied to rows, and run numbers across inputs.

use super::types::IngestOptions;
use crate::model::{text_eq, Batch, SmolStr};

/// The variant options, applied to every row as its input is read.
pub(super) struct Variants {
    pub(super) variant: Option<SmolStr>,
    pub(super) default_variant: Option<SmolStr>,
}

impl Variants {
    pub(super) fn new(opts: &IngestOptions) -> Self {
        Variants {
            variant: opts.variant.as_deref().map(Into::into),
            default_variant: opts.default_variant.as_deref().map(Into::into),
        }
    }

    pub(super) fn apply(&self, rows: &mut Batch) {
        let heads = rows.columns.heads_mut().map(|h| &mut h.variant);
        for variant in heads.chain(rows.rows.iter_mut().map(|o| &mut o.variant)) {
            if let Some(v) = &self.variant {
                *variant = v.clone();
            } else if variant.is_empty() {
                if let Some(v) = &self.default_variant {
                    *variant = v.clone();
                }
            }
        }
    }
}

/// Samples are numbered 0, 1, 2 … per (benchmark, params, variant, metric)
/// in input order across files, so that run order survives for drift
/// checks. Each input numbers its own samples from 0 (in parallel); the
/// counts of earlier inputs are then added per key, found by its
/// [`digest`].
///
/// The keys of one input's samples and how many samples each has. A key
/// is kept as its digest alone: the names are the rows' own, and a table
/// whose every row is its own key (a Go log, a mail's one-table sweep)
/// would otherwise hold its names twice.
#[derive(Default)]
pub(super) struct LocalRuns {
    /// Per key: its digest.
    pub(super) digests: Vec<u128>,
    /// Per key: its samples.
    pub(super) counts: Vec<u32>,
    /// Per series of the columns, then per row: its key's index;
    /// `u32::MAX` for summaries.
    pub(super) key_of: Vec<u32>,
}

/// The (benchmark, params, variant) of a row, borrowed: the part of its
/// key that rows of one line or one command share.
#[derive(Hash)]
pub(super) struct GroupKey<'a>(&'a str, &'a str, &'a str);

impl PartialEq for GroupKey<'_> {
    fn eq(&self, k: &Self) -> bool {
        text_eq(self.0, k.0) && text_eq(self.1, k.1) && text_eq(self.2, k.2)
    }
}

impl Eq for GroupKey<'_> {}

/// Metrics per group up to which a group's keys are found by a scan; past
/// it, by hashing the group and the metric.
pub(super) const GROUP_SCAN: usize = 32;

impl LocalRuns {
    /// Numbers the samples of one input from 0 per key: the series of
    /// its columns, then its rows, in that order.
    ///
    /// Keys are found in two steps: the group (benchmark, params,
    /// variant), which is mostly the previous sample's and otherwise
    /// hashed, then its metric among the group's few. A Go line's three
    /// metrics, or a command's runs, then cost no hashing at all. The
    /// first pass only reads the names, so that groups and metrics are
    /// borrowed, each looked at once per series or row; the second numbers.
    pub(super) fn count(rows: &mut Batch) -> LocalRuns {
        let mut runs = LocalRuns {
            key_of: Vec::with_capacity(rows.columns.series_count() + rows.rows.len()),
            ..LocalRuns::default()
        };
        {
            let mut keys = KeyFinder::default();
            let heads = rows.columns.series().map(|s| {
                let h = s.head;
                (h.stat, [&*h.benchmark, &*h.params, &*h.variant, &*h.metric])
            });
            let rows = rows
                .rows
                .iter()
                .map(|o| (o.stat, [&*o.benchmark, &*o.params, &*o.variant, &*o.metric]));
            for (stat, names) in heads.chain(rows) {
                let k = if stat.is_sample() {
                    keys.key(&mut runs, names)
                } else {
                    u32::MAX
                };
                runs.key_of.push(k);
            }
        }
        let series = rows.columns.series_count();
        for (si, &k) in runs.key_of[..series].iter().enumerate() {
            if let Some(n) = runs.counts.get_mut(k as usize) {
                let len = rows.columns.series_at(si).len() as u32;
                rows.columns.number_series(si, *n);
                *n += len;
            }
        }
        for (row, &k) in rows.rows.iter_mut().zip(&runs.key_of[series..]) {
            if let Some(n) = runs.counts.get_mut(k as usize) {
                row.run = Some(*n);
                *n += 1;
            }
        }
        runs
    }
}

/// Finds the key of a sample's names (see [`LocalRuns::count`]).
///
/// A group's metrics are a chain through `links`, newest first, scanned
/// while the group has at most [`GROUP_SCAN`] of them; a larger group's
/// are hashed in `large`. One entry a key and one a group, with no
/// allocation of their own: most groups of a log hold one to three keys.
#[derive(Default)]
struct KeyFinder<'a> {
    groups: hashbrown::HashMap<GroupKey<'a>, u32>,
    /// Per group: its newest link and how many metrics it has.
    chains: Vec<(u32, u32)>,
    /// Per key: its metric, its key and the group's link before it.
    links: Vec<(&'a str, u32, u32)>,
    /// The metrics of groups past [`GROUP_SCAN`], by group.
    large: hashbrown::HashMap<(u32, &'a str), u32>,
    /// The previous sample's group.
    last: Option<(GroupKey<'a>, u32)>,
}

/// The end of a chain of links.
const NO_LINK: u32 = u32::MAX;

impl<'a> KeyFinder<'a> {
    fn key(
        &mut self,
        runs: &mut LocalRuns,
        [benchmark, params, variant, metric]: [&'a str; 4],
    ) -> u32 {
        let group = GroupKey(benchmark, params, variant);
        let g = match &self.last {
            Some((above, g)) if *above == group => *g,
            _ => {
                let next = self.chains.len() as u32;
                let g = *self
                    .groups
                    .entry(GroupKey(group.0, group.1, group.2))
                    .or_insert(next);
                if g == next {
                    self.chains.push((NO_LINK, 0));
                }
                g
            }
        };
        let (head, len) = self.chains[g as usize];
        let found = if len as usize <= GROUP_SCAN {
            self.scan(head, metric)
        } else {
            self.large.get(&(g, metric)).copied()
        };
        let k = match found {
            Some(k) => k,
            None => {
                let k = runs.counts.len() as u32;
                runs.counts.push(0);
                runs.digests
                    .push(digest([benchmark, params, variant, metric]));
                self.add(g, metric, k);
                k
            }
        };
        self.last = Some((group, g));
        k
    }

    fn scan(&self, mut link: u32, metric: &str) -> Option<u32> {
        while let Some(&(m, k, before)) = self.links.get(link as usize) {
            if text_eq(m, metric) {
                return Some(k);
            }
            link = before;
        }
        None
    }

    fn add(&mut self, g: u32, metric: &'a str, k: u32) {
        let (head, len) = self.chains[g as usize];
        let len = len + 1;
        if len as usize <= GROUP_SCAN {
            self.links.push((metric, k, head));
            self.chains[g as usize] = (self.links.len() as u32 - 1, len);
            return;
        }
        if len as usize == GROUP_SCAN + 1 {
            // The group outgrows the scan: its chain moves to the map.
            let mut link = head;
            while let Some(&(m, k, before)) = self.links.get(link as usize) {
                self.large.insert((g, m), k);
                link = before;
            }
        }
        self.large.insert((g, metric), k);
        self.chains[g as usize] = (NO_LINK, len);
    }
}

/// A 128-bit digest of a key's names (benchmark, params, variant,
/// metric), each preceded by its length so that no two keys run together
/// alike.
pub(super) fn digest(names: [&str; 4]) -> u128 {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    for part in names {
        h.update(&(part.len() as u64).to_le_bytes());
        h.update(part.as_bytes());
    }
    h.digest128()
}
