//! Run counts stated in prose (`10 runs each`, `average of 5 runs`,
//! `each test was run 3 times`, `iterations: 8`) given to the table that
//! follows: a value per cell is then the mean of that many runs, and a
//! mean with a spread can be tested.

use crate::ingest::Source;
use crate::model::{Observation, Stat};
use regex::Regex;
use std::collections::HashMap;
use std::sync::LazyLock;

/// `10 runs`, `5 iterations each`, `run 3 times`, `runs: 10`.
static COUNT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)
        \b(?P<n>\d{1,4})\s*(?:x\s+)?(?:runs|iterations|repetitions|reps|trials|samples|passes)\b
      | \b(?:run|ran|repeated|executed|measured)\b(?:\s+\w+){0,2}?\s+(?P<t>\d{1,4})\s+times\b
      | \b(?:runs|iterations|repetitions|trials)\s*[:=]\s*(?P<k>\d{1,4})\b",
    )
    .expect("run-count pattern")
});

/// The run count `text` states, if it states one (and only one).
pub(super) fn stated_count(text: &str) -> Option<u32> {
    let mut found = COUNT.captures_iter(text).filter_map(|c| {
        ["n", "t", "k"]
            .iter()
            .find_map(|g| c.name(g))
            .and_then(|m| m.as_str().parse::<u32>().ok())
    });
    let n = found.next()?;
    (found.next().is_none() && n >= 2).then_some(n)
}

/// Gives each (benchmark, params, variant, metric) of the first table
/// below a prose line that states a run count that count as its `n`,
/// unless the table states one or holds several samples of it (the runs
/// themselves). A lone value becomes the mean it is. Returns the lines of
/// the statements used. A count sits on the line of its value, so that a
/// piece of a large file, which carries the statement from before it but
/// keeps only rows of its own lines, keeps it.
pub(super) fn apply(src: &Source, obs: &mut Vec<Observation>) -> Vec<u32> {
    let mut consumed = Vec::new();
    if obs.is_empty() {
        return consumed;
    }
    let mut used: Vec<u32> = obs.iter().map(|o| o.line).collect();
    used.sort_unstable();
    used.dedup();
    let is_used = |n: u32| used.binary_search(&n).is_ok();
    // Each paragraph's line range, to find the table a statement heads.
    let mut start: Option<u32> = None;
    let mut last = 0;
    let mut paras = Vec::new();
    for l in &src.lines {
        let blank = l.text.trim().is_empty();
        match (blank, start) {
            (false, None) => start = Some(l.number),
            (true, Some(s)) => {
                paras.push((s, last));
                start = None;
            }
            _ => {}
        }
        last = l.number;
    }
    if let Some(s) = start {
        paras.push((s, last));
    }
    let statements: Vec<(u32, u32)> = src
        .lines
        .iter()
        .filter(|l| !is_used(l.number))
        .filter_map(|l| stated_count(&l.text).map(|n| (l.number, n)))
        .collect();
    if statements.is_empty() {
        return consumed;
    }
    let mut added = Vec::new();
    for (at, n) in statements {
        // The first value below the statement, and the paragraph it is in.
        let Some(&first) = used.get(used.partition_point(|&l| l <= at)) else {
            continue;
        };
        let Some(&(_, end)) = paras.iter().find(|(s, e)| (*s..=*e).contains(&first)) else {
            continue;
        };
        let in_table = |o: &Observation| o.line >= first && o.line <= end;
        type Key = (String, String, String, String);
        let mut groups: HashMap<Key, (usize, bool, Option<usize>)> = HashMap::new();
        for (i, o) in obs.iter().enumerate().filter(|(_, o)| in_table(o)) {
            let key = (
                o.benchmark.to_string(),
                o.params.to_string(),
                o.variant.to_string(),
                o.metric.to_string(),
            );
            let g = groups.entry(key).or_insert((0, false, None));
            match o.stat {
                Stat::Sample => {
                    g.0 += 1;
                    g.2 = Some(i);
                }
                Stat::N => g.1 = true,
                _ => {}
            }
        }
        for ((b, p, v, m), (samples, has_n, sample_at)) in groups {
            if has_n || samples > 1 {
                continue;
            }
            let at_index = match sample_at {
                Some(i) => {
                    obs[i].stat = Stat::Mean;
                    i
                }
                None => match obs.iter().position(|o| {
                    in_table(o)
                        && o.benchmark == b
                        && o.params == p
                        && o.variant == v
                        && o.metric == m
                }) {
                    Some(i) => i,
                    None => continue,
                },
            };
            let mut count = obs[at_index].clone();
            count.stat = Stat::N;
            count.value = f64::from(n);
            count.unit = "".into();
            count.run = None;
            added.push((at_index, count));
            consumed.push(at);
        }
    }
    // Each count right after its value, as the rows of a table come.
    added.sort_by_key(|(i, _)| *i);
    let mut added = added.into_iter().peekable();
    let old = std::mem::take(obs);
    obs.reserve(old.len() + added.len());
    for (i, o) in old.into_iter().enumerate() {
        obs.push(o);
        while let Some((_, count)) = added.next_if(|(at, _)| *at == i) {
            obs.push(count);
        }
    }
    consumed.sort_unstable();
    consumed.dedup();
    consumed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_read_from_the_usual_phrasings() {
        assert_eq!(
            stated_count("hackbench -g 4, 10 runs each (seconds)"),
            Some(10)
        );
        assert_eq!(stated_count("Average of 5 iterations:"), Some(5));
        assert_eq!(stated_count("each test was run 3 times"), Some(3));
        assert_eq!(stated_count("Iterations: 8"), Some(8));
        assert_eq!(stated_count("repeated 20 times, mean shown"), Some(20));
        // Nothing, one run, or two different counts: no count.
        assert_eq!(stated_count("runs faster by 10%"), None);
        assert_eq!(stated_count("1 run"), None);
        assert_eq!(
            stated_count("5 runs of the old kernel, 10 runs of the new"),
            None
        );
    }

    #[test]
    fn the_table_below_a_count_gets_it() {
        let text = "Subject: x\n\nhackbench, 10 runs each (seconds):\n\n\
                    groups  base  patched\n4  1.50  1.40\n8  2.50  2.30\n\n\
                    later table\n\nx  1  2\ny  3  4\n";
        let src = Source::from_bytes("m.txt", text.as_bytes()).unwrap();
        let mut obs = super::super::reader::read(&src).unwrap();
        let before = obs.len();
        assert_eq!(apply(&src, &mut obs), [3]);
        let n: Vec<&Observation> = obs.iter().filter(|o| o.stat == Stat::N).collect();
        assert!(!n.is_empty(), "{obs:#?}");
        assert!(n
            .iter()
            .all(|o| o.value == 10.0 && (6..=7).contains(&o.line)));
        // Only the first table below the statement.
        assert!(obs
            .iter()
            .filter(|o| o.line >= 11)
            .all(|o| o.stat == Stat::Sample));
        assert_eq!(obs.len(), before + n.len());
    }
}
