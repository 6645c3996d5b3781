//! The analysis arranged as the terminal shows it: a table per (benchmark,
//! metric) in order of first appearance, its groups in analysis order, and
//! each group's comparisons. Held as indices (eight bytes a group and four
//! a comparison), because a long e-mail table makes millions of one-row
//! tables and the terminal writes them a window at a time.

use crate::analysis::{Analysis, Comparison, Group};
use hashbrown::{DefaultHashBuilder, HashMap, HashTable};
use std::hash::BuildHasher;

/// Tables and comparisons of an analysis, by index.
pub(crate) struct Index<'a> {
    a: &'a Analysis,
    /// Group indices, table after table.
    members: Vec<u32>,
    /// Where each table starts in `members`, and one past the last.
    table_starts: Vec<u32>,
    /// Comparison indices, group after group.
    comps: Vec<u32>,
    /// Where each group's comparisons start in `comps`, and one past the last.
    comp_starts: Vec<u32>,
}

impl<'a> Index<'a> {
    /// Arranges `a`.
    pub(crate) fn new(a: &'a Analysis) -> Self {
        let (members, table_starts) = tables(&a.groups);
        let (comps, comp_starts) = comparisons(a);
        Index {
            a,
            members,
            table_starts,
            comps,
            comp_starts,
        }
    }

    /// How many tables there are.
    pub(crate) fn tables(&self) -> usize {
        self.table_starts.len() - 1
    }

    /// Table `t`'s (benchmark, metric) and the indices of its groups, in
    /// analysis order.
    pub(crate) fn table(&self, t: usize) -> ((&'a str, &'a str), &[u32]) {
        let members =
            &self.members[self.table_starts[t] as usize..self.table_starts[t + 1] as usize];
        (key(self.group(members[0])), members)
    }

    /// Group `g` of the analysis.
    pub(crate) fn group(&self, g: u32) -> &'a Group {
        &self.a.groups[g as usize]
    }

    /// The comparisons of group `g`, in analysis order.
    pub(crate) fn comps(&self, g: u32) -> Vec<&'a Comparison> {
        let g = g as usize;
        self.comps[self.comp_starts[g] as usize..self.comp_starts[g + 1] as usize]
            .iter()
            .map(|&c| &self.a.comparisons[c as usize])
            .collect()
    }
}

fn key(g: &Group) -> (&str, &str) {
    (g.benchmark.as_str(), g.metric.as_str())
}

/// Group indices table after table, and where each table starts. The
/// lookup table holds a table number per table (four bytes), its key
/// being its first group's.
fn tables(groups: &[Group]) -> (Vec<u32>, Vec<u32>) {
    let hasher = DefaultHashBuilder::default();
    let mut firsts: Vec<u32> = Vec::new();
    let mut lookup: HashTable<u32> = HashTable::new();
    let mut table_of: Vec<u32> = Vec::with_capacity(groups.len());
    for (i, g) in groups.iter().enumerate() {
        let k = key(g);
        let h = hasher.hash_one(k);
        let t = match lookup.find(h, |&t| key(&groups[firsts[t as usize] as usize]) == k) {
            Some(&t) => t,
            None => {
                let t = firsts.len() as u32;
                firsts.push(i as u32);
                lookup.insert_unique(h, t, |&t| {
                    hasher.hash_one(key(&groups[firsts[t as usize] as usize]))
                });
                t
            }
        };
        table_of.push(t);
    }
    drop(lookup);
    by_bucket(&table_of, firsts.len())
}

/// Indices `0..of.len()` ordered by their bucket `of[i]` (stable), and
/// where each of the `buckets` starts.
fn by_bucket(of: &[u32], buckets: usize) -> (Vec<u32>, Vec<u32>) {
    let mut starts = vec![0u32; buckets + 1];
    for &b in of {
        starts[b as usize + 1] += 1;
    }
    for i in 0..buckets {
        starts[i + 1] += starts[i];
    }
    let mut next = starts.clone();
    let mut out = vec![0u32; of.len()];
    for (i, &b) in of.iter().enumerate() {
        out[next[b as usize] as usize] = i as u32;
        next[b as usize] += 1;
    }
    (out, starts)
}

fn group_key(g: &Group) -> (&str, &str, &str) {
    (g.benchmark.as_str(), g.params.as_str(), g.metric.as_str())
}

fn comp_key(c: &Comparison) -> (&str, &str, &str) {
    (c.benchmark.as_str(), c.params.as_str(), c.metric.as_str())
}

/// Comparison indices group after group, and where each group's start. An
/// analysis lists a group's comparisons after those of the groups before
/// it, so one pass in step finds them; an analysis put together otherwise
/// (read back from JSON, say) is looked up by key.
fn comparisons(a: &Analysis) -> (Vec<u32>, Vec<u32>) {
    let groups = &a.groups;
    let mut of: Vec<u32> = Vec::with_capacity(a.comparisons.len());
    let mut gi = 0;
    let in_step = a.comparisons.iter().all(|c| {
        let k = comp_key(c);
        while gi < groups.len() && group_key(&groups[gi]) != k {
            gi += 1;
        }
        of.push(gi as u32);
        gi < groups.len()
    });
    if !in_step {
        let at: HashMap<(&str, &str, &str), u32> = groups
            .iter()
            .enumerate()
            .map(|(i, g)| (group_key(g), i as u32))
            .collect();
        of = a
            .comparisons
            .iter()
            .map(|c| at.get(&comp_key(c)).copied().unwrap_or(groups.len() as u32))
            .collect();
    }
    // A comparison of no group (a hand-made analysis) goes in a last
    // bucket that no group reads.
    let (order, mut starts) = by_bucket(&of, groups.len() + 1);
    starts.pop();
    (order, starts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(b: &str, p: &str, m: &str) -> Group {
        Group {
            benchmark: b.into(),
            params: p.into(),
            metric: m.into(),
            unit: String::new(),
            direction: crate::model::Direction::Unknown,
            variants: Vec::new(),
        }
    }

    fn comp(b: &str, p: &str, m: &str, v: &str) -> Comparison {
        Comparison {
            benchmark: b.into(),
            params: p.into(),
            metric: m.into(),
            variant: v.into(),
            ..Comparison::default()
        }
    }

    fn names(cs: Vec<&Comparison>) -> Vec<String> {
        cs.iter()
            .map(|c| format!("{}/{}", c.benchmark, c.variant))
            .collect()
    }

    #[test]
    fn tables_in_order_of_first_appearance_with_their_groups() {
        let a = Analysis {
            groups: vec![
                group("a", "x=1", "t"),
                group("b", "", "t"),
                group("a", "x=2", "t"),
                group("a", "", "u"),
            ],
            ..Analysis::default()
        };
        let ix = Index::new(&a);
        assert_eq!(ix.tables(), 3);
        let (k, gs) = ix.table(0);
        assert_eq!(k, ("a", "t"));
        assert_eq!(gs, [0, 2]);
        assert_eq!(ix.table(1).0, ("b", "t"));
        assert_eq!(ix.table(2).0, ("a", "u"));
    }

    #[test]
    fn comparisons_found_in_step_and_out_of_order() {
        let groups = vec![
            group("a", "", "t"),
            group("b", "", "t"),
            group("c", "", "t"),
        ];
        // In analysis order, `b` without a comparison.
        let a = Analysis {
            groups: groups.clone(),
            comparisons: vec![
                comp("a", "", "t", "p"),
                comp("a", "", "t", "q"),
                comp("c", "", "t", "p"),
            ],
            ..Analysis::default()
        };
        let ix = Index::new(&a);
        assert_eq!(names(ix.comps(0)), ["a/p", "a/q"]);
        assert!(ix.comps(1).is_empty());
        assert_eq!(names(ix.comps(2)), ["c/p"]);
        // Out of order, and one comparison of no group.
        let b = Analysis {
            groups,
            comparisons: vec![
                comp("c", "", "t", "p"),
                comp("a", "", "t", "p"),
                comp("z", "", "t", "p"),
                comp("a", "", "t", "q"),
            ],
            ..Analysis::default()
        };
        let ix = Index::new(&b);
        assert_eq!(names(ix.comps(0)), ["a/p", "a/q"]);
        assert!(ix.comps(1).is_empty());
        assert_eq!(names(ix.comps(2)), ["c/p"]);
    }
}
