//! Ordering of points named like kernel versions (`--order version`):
//! `6.8-rc1` < `6.8-rc7` < `6.8` < `6.8.1` < `6.9-rc1` < `6.10`.
//!
//! The first run of dot-separated numbers in a name is its version (a
//! leading `v`, `linux-` or any other prefix is ignored); a `-rcN` right
//! after it makes a release candidate, which comes before the release.
//! Whatever follows breaks ties as text. Names without a number keep their
//! given order after all versioned names.

use std::cmp::Ordering;

/// The sort key of a name: numbers, release-candidate rank, the rest.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Key {
    numbers: Vec<u64>,
    /// (0, N) for `-rcN`, (1, 0) for a release.
    rc: (u8, u64),
    rest: String,
}

fn key(name: &str) -> Option<Key> {
    let b = name.as_bytes();
    let start = b.iter().position(u8::is_ascii_digit)?;
    let mut numbers = Vec::new();
    let mut i = start;
    loop {
        let s = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        numbers.push(name[s..i].parse().unwrap_or(u64::MAX));
        if i + 1 < b.len() && b[i] == b'.' && b[i + 1].is_ascii_digit() {
            i += 1;
        } else {
            break;
        }
    }
    let tail = &name[i..];
    let lower = tail.to_ascii_lowercase();
    let mut rc = (1, 0);
    let mut rest = tail;
    for sep in ["-rc", "_rc", "rc", ".rc", "~rc"] {
        if let Some(r) = lower.strip_prefix(sep) {
            let digits = r.bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 {
                rc = (0, r[..digits].parse().unwrap_or(u64::MAX));
                rest = &tail[sep.len() + digits..];
                break;
            }
        }
    }
    Some(Key {
        numbers,
        rc,
        rest: rest.to_string(),
    })
}

fn cmp_keys(a: &Key, b: &Key) -> Ordering {
    a.numbers
        .cmp(&b.numbers)
        .then(a.rc.cmp(&b.rc))
        .then_with(|| a.rest.cmp(&b.rest))
}

/// `names` sorted as versions (stable: equal keys keep their order).
pub fn sort_versions(names: &[String]) -> Vec<String> {
    let mut keyed: Vec<(Option<Key>, &String)> = names.iter().map(|n| (key(n), n)).collect();
    keyed.sort_by(|(a, _), (b, _)| match (a, b) {
        (Some(a), Some(b)) => cmp_keys(a, b),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    });
    keyed.into_iter().map(|(_, n)| n.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(names: &[&str]) -> Vec<String> {
        let v: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        sort_versions(&v)
    }

    #[test]
    fn release_candidates_come_before_their_release_and_numbers_compare_as_numbers() {
        assert_eq!(
            sorted(&["6.9-rc1", "6.8.1", "6.8", "6.8-rc7", "6.8-rc1", "6.10", "6.8-rc10"]),
            ["6.8-rc1", "6.8-rc7", "6.8-rc10", "6.8", "6.8.1", "6.9-rc1", "6.10"]
        );
        assert_eq!(
            sorted(&["v6.8", "linux-6.7", "nightly", "v6.8-rc2", "base"]),
            ["linux-6.7", "v6.8-rc2", "v6.8", "nightly", "base"]
        );
    }
}
