//! Names of variants as tokens: where a name may be cut (never inside a
//! kernel version), what several names share, and a replicate's run index.

pub(super) fn all_distinct(names: &[String]) -> bool {
    names
        .iter()
        .enumerate()
        .all(|(i, a)| names[..i].iter().all(|b| b != a))
}

fn is_sep(c: char) -> bool {
    matches!(c, '-' | '_' | '.' | ' ' | '/' | '\\' | '+' | ',')
}

/// Byte ranges of the tokens of `s` (runs of non-separator characters).
/// A version is one token: a `.` between digits does not cut it (`v6.8`,
/// `6.8.1`), and a release-candidate tag stays with the version before it
/// (`6.8-rc1`), so that names are never cut inside a kernel version.
pub(super) fn tokens(s: &str) -> Vec<(usize, usize)> {
    let b = s.as_bytes();
    let version_dot = |i: usize| {
        b[i] == b'.'
            && i > 0
            && b[i - 1].is_ascii_digit()
            && b.get(i + 1).is_some_and(u8::is_ascii_digit)
    };
    let mut out: Vec<(usize, usize)> = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices() {
        if is_sep(c) && !version_dot(i) {
            if let Some(a) = start.take() {
                out.push((a, i));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(a) = start {
        out.push((a, s.len()));
    }
    // `6.8` `rc1` → `6.8-rc1`.
    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(out.len());
    for (a, e) in out {
        let t = &s[a..e];
        let rc = t.len() > 2
            && t[..2].eq_ignore_ascii_case("rc")
            && t[2..].bytes().all(|c| c.is_ascii_digit());
        match merged.last_mut() {
            Some(last) if rc && is_version(&s[last.0..last.1]) && a == last.1 + 1 => last.1 = e,
            _ => merged.push((a, e)),
        }
    }
    merged
}

/// A kernel-version-like token: digits joined by dots, maybe after a `v`
/// and before an `-rcN` (`v6.8`, `6.8.1`, `6.8-rc1`).
fn is_version(t: &str) -> bool {
    let t = t.strip_prefix(['v', 'V']).unwrap_or(t);
    let core = match t.find("-rc").or_else(|| t.find("-RC")) {
        Some(i) => &t[..i],
        None => t,
    };
    core.contains('.')
        && core
            .split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit()))
}

/// `name-7` → (`name`, 7) when the last token is a number and something is
/// left before it.
pub(super) fn split_run_index(label: &str) -> Option<(String, u64)> {
    let t = tokens(label);
    if t.len() < 2 {
        return None;
    }
    let (a, b) = *t.last()?;
    let idx: u64 = label[a..b].parse().ok()?;
    let (_, prev_end) = t[t.len() - 2];
    Some((label[..prev_end].to_string(), idx))
}

/// Removes the leading and trailing tokens all names share, as long as every
/// name keeps at least one token.
pub(super) fn strip_common(names: &[String]) -> Vec<String> {
    if names.len() < 2 {
        return names.to_vec();
    }
    let toks: Vec<Vec<(usize, usize)>> = names.iter().map(|n| tokens(n)).collect();
    let text = |i: usize, k: usize| &names[i][toks[i][k].0..toks[i][k].1];
    let min_len = toks.iter().map(|t| t.len()).min().unwrap_or(0);
    if min_len == 0 {
        return names.to_vec();
    }
    let mut lead = 0;
    while lead < min_len - 1 && (1..names.len()).all(|i| text(i, lead) == text(0, lead)) {
        lead += 1;
    }
    // A version is not cut off, nor the word before it (`linux-6.8`): a
    // name that would start at a shared version keeps what precedes it.
    if (0..names.len()).any(|i| is_version(text(i, lead))) {
        lead = 0;
    }
    while lead > 0 && (0..names.len()).any(|i| is_version(text(i, lead - 1))) {
        lead -= 1;
    }
    let mut trail = 0;
    while lead + trail < min_len - 1
        && (1..names.len())
            .all(|i| text(i, toks[i].len() - 1 - trail) == text(0, toks[0].len() - 1 - trail))
    {
        trail += 1;
    }
    let stripped: Vec<String> = names
        .iter()
        .zip(&toks)
        .map(|(n, t)| n[t[lead].0..t[t.len() - 1 - trail].1].to_string())
        .collect();
    if all_distinct(&stripped) {
        stripped
    } else {
        names.to_vec()
    }
}

/// What all `names` share at their start and at their end, whole tokens
/// (`hackbench-base`, `hackbench-patched` → `hackbench`; `v6.8-pipe`,
/// `v6.9-pipe` → `pipe`): the part [`strip_common`] takes off, empty when
/// they share nothing.
pub(super) fn shared_part(names: &[String]) -> String {
    let toks: Vec<Vec<(usize, usize)>> = names.iter().map(|n| tokens(n)).collect();
    let min_len = toks.iter().map(|t| t.len()).min().unwrap_or(0);
    if names.len() < 2 || min_len == 0 {
        return String::new();
    }
    let text = |i: usize, k: usize| &names[i][toks[i][k].0..toks[i][k].1];
    let mut lead = 0;
    while lead < min_len && (1..names.len()).all(|i| text(i, lead) == text(0, lead)) {
        lead += 1;
    }
    let mut trail = 0;
    while lead + trail < min_len
        && (1..names.len())
            .all(|i| text(i, toks[i].len() - 1 - trail) == text(0, toks[0].len() - 1 - trail))
    {
        trail += 1;
    }
    let first = &names[0];
    let t = &toks[0];
    let head = (lead > 0).then(|| &first[t[0].0..t[lead - 1].1]);
    let tail = (trail > 0).then(|| &first[t[t.len() - trail].0..t[t.len() - 1].1]);
    match (head, tail) {
        (Some(h), Some(t)) => format!("{h}-{t}"),
        (Some(h), None) => h.to_string(),
        (None, Some(t)) => t.to_string(),
        (None, None) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shared_part_is_whole_tokens_at_either_end() {
        let s = |n: &[&str]| shared_part(&n.iter().map(|x| x.to_string()).collect::<Vec<_>>());
        assert_eq!(s(&["hackbench-base", "hackbench-patched"]), "hackbench");
        assert_eq!(s(&["v6.8-pipe", "v6.9-pipe"]), "pipe");
        assert_eq!(s(&["run_a_x", "run_b_x"]), "run-x");
        assert_eq!(s(&["timeonly-a", "timeonly-b"]), "timeonly");
        assert_eq!(s(&["a", "b"]), "");
        assert_eq!(s(&["hackbenchA", "hackbenchB"]), "");
    }
}
