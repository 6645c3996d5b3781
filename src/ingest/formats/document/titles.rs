//! What a sentence above a table says of its values when the table does
//! not: the unit (`(seconds)`, `times are in usec`) and the command that
//! was run (`…, hackbench -g N -l 1000 (seconds)` → `hackbench -g N -l
//! 1000`). The readers name a table's rows after that sentence; here the
//! names are made what they say.

use crate::model::{Direction, Observation, Stat, Unit};
use regex::Regex;
use std::sync::LazyLock;

/// A command and its options: a word, then one or more `-x [value]`.
static COMMAND: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b[A-Za-z][\w.+/-]*(?:\s+--?[A-Za-z]\w*(?:-\w+)*(?:[ =](?:[A-Za-z0-9][\w./%:-]*))?)+\b",
    )
    .expect("command pattern")
});

/// Which way is better, when a caption says so (`lower is better`,
/// `higher is better`, `smaller is better`).
static BETTER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(lower|higher|smaller|bigger|larger|less|more)\s+(?:is\s+)?better\b")
        .expect("direction pattern")
});

/// The direction a caption states (`(usec, lower is better)`).
pub fn stated_direction(text: &str) -> Option<Direction> {
    let c = BETTER.captures(text)?;
    c[1].parse().ok()
}

/// A caption that says its values are changes in percent: `% gain of A
/// vs B`, `% improvement`, `gain (%)`; `A` of `A vs B` names the build
/// changed.
static CHANGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)
        ^\s*%\s*(?:gain|improvement|change|diff|difference|regression|speedup|delta)\b
          (?:\s+(?:of|for|with)\s+(?P<a>[^\s,()]+)\s+(?:vs\.?|versus|over|against)\s+[^\s,()]+)?
      | ^[^%]*\b(?:gain|improvement|change|diff|difference|regression|speedup|delta)\s*\(%\)",
    )
    .expect("change pattern")
});

/// Whether a caption states its values are changes in percent, and the
/// build it names as changed (`% gain of PAN vs default` → `PAN`).
pub fn stated_change(text: &str) -> Option<Option<String>> {
    let c = CHANGE.captures(text)?;
    Some(c.name("a").map(|m| m.as_str().to_string()))
}

/// Whether a caption over a table is a sentence (`Results below, base vs
/// patched (usec, lower is better)`) rather than a short heading that
/// names a test (`hackbench`, `Throughput (MB/s)`, `Average Optimal load
/// -j 16 Run (std deviation)`). Told by its shape outside parentheses,
/// where a heading puts its unit and settings: words apart by a comma
/// (a clause, a list of conditions), many words, or a closing full stop.
pub fn is_sentence(text: &str) -> bool {
    // The text outside parentheses and brackets; an unclosed one runs to the end.
    let mut outside = String::with_capacity(text.len());
    let mut depth = 0u32;
    for c in text.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            c if depth == 0 => outside.push(c),
            _ => {}
        }
    }
    let words = outside
        .split_whitespace()
        .filter(|w| w.chars().any(char::is_alphabetic))
        .count();
    let clause = outside.contains(", ") && words >= 4;
    let stop = outside.trim_end().ends_with('.') && !outside.trim_end().ends_with("..");
    clause || words >= 9 || (stop && words >= 3)
}

/// The benchmark of a row labelled `label` under `title`: the title before
/// the label when it is a heading (`hackbench: 4 groups`), the label alone
/// under a sentence, or after the command the sentence names (`hackbench
/// -g N -l 1000: 4 groups`). What else a sentence says (unit, direction,
/// runs) is read from it by [`state`] and the run-count reader.
pub fn row_benchmark(title: &str, label: &str) -> String {
    match (title.is_empty(), label.is_empty()) {
        (_, true) => title.to_string(),
        (true, false) => label.to_string(),
        (false, false) if is_sentence(title) => match command_in(title) {
            Some(c) => format!("{c}: {label}"),
            None => label.to_string(),
        },
        (false, false) => format!("{title}: {label}"),
    }
}

/// Gives the values of a table what its caption states: the unit (and the
/// metric it implies) where they have none, and the direction.
pub fn state(caption: &str, obs: &mut [Observation]) {
    let unit = stated_unit(caption);
    let direction = stated_direction(caption);
    let change = stated_change(caption);
    if unit.is_none() && direction.is_none() && change.is_none() {
        return;
    }
    for o in obs {
        // A value the caption calls a change is one, in percent, of the
        // build it names (a spread or a count stays what it is).
        if let Some(changed) = &change {
            // Every stat of the values, their count too, is of that build.
            if let Some(a) = changed.as_deref().filter(|_| o.variant.is_empty()) {
                o.variant = a.into();
            }
            let plain = matches!(o.stat, Stat::Sample | Stat::Mean);
            if plain && (o.unit.is_empty() || o.unit == "%") {
                o.stat = Stat::ChangePct;
                o.unit = "%".into();
                continue;
            }
        }
        fill(o, unit.as_deref(), direction);
    }
}

/// The unit a sentence states: a unit word in parentheses (`(seconds)`,
/// `(usec, lower is better)`) or right after `in` (`times in ms`).
pub fn stated_unit(text: &str) -> Option<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    words.iter().enumerate().find_map(|(i, w)| {
        let after_in = i > 0 && words[i - 1].eq_ignore_ascii_case("in");
        let opened = w.starts_with('(') || w.starts_with('[');
        let word = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '%' && c != '/');
        let unit = (after_in || opened) && word != "%" && super::lines::known_unit(word);
        unit.then(|| Unit::normalize_spelling(word).to_string())
    })
}

/// The command a sentence names, when it names one among other words.
fn command_in(sentence: &str) -> Option<&str> {
    // Options end at a space or the end (`--Block--` is no option), and
    // a command is no word cut off by a dash (`Chr-`).
    let m = COMMAND.find_iter(sentence).find(|m| {
        let after = sentence[m.end()..].chars().next();
        let first = m.as_str().split_whitespace().next().unwrap_or("");
        !after.is_some_and(|c| c == '-' || c.is_alphanumeric()) && !first.ends_with('-')
    })?;
    // The command's own words before its options (`perf bench sched pipe
    // -l 1000`) back to the punctuation that ends the words before it.
    // Only a command set apart from the words before it by punctuation is
    // taken (`…, 10 runs each, hackbench -g 4`): a label that starts with
    // words and options alike (`Average Half load -j 8`) stays whole.
    let start = sentence[..m.start()].rfind([',', ':', ';', '('])? + 1;
    Some(sentence[start..m.end()].trim())
}

/// Gives values without a unit the unit their benchmark's sentence
/// states (and the metric it implies), and names them after the command
/// in it.
pub fn apply(obs: &mut [Observation]) {
    type Stated = (String, Option<String>, Option<String>, Option<Direction>);
    let mut last: Option<Stated> = None;
    for o in obs.iter_mut() {
        if o.benchmark.split_whitespace().count() < 4 {
            continue;
        }
        let (unit, command, direction) = match &last {
            Some((b, u, c, d)) if b == o.benchmark.as_str() => (u.clone(), c.clone(), *d),
            _ => {
                let u = stated_unit(&o.benchmark);
                let c = command_in(&o.benchmark).map(str::to_string);
                let d = stated_direction(&o.benchmark);
                last = Some((o.benchmark.to_string(), u.clone(), c.clone(), d));
                (u, c, d)
            }
        };
        fill(o, unit.as_deref(), direction);
        if let Some(c) = command {
            o.benchmark = c.into();
        }
    }
}

/// Gives `o` a stated unit where it has none, and a stated direction.
fn fill(o: &mut Observation, unit: Option<&str>, direction: Option<Direction>) {
    // The metric follows the unit for every stat of the values (their
    // count too), so that a mean and its n stay one group; so does the
    // direction.
    let unitless = matches!(o.stat, Stat::N | Stat::Cv | Stat::ChangePct);
    if let Some(u) = unit.filter(|_| o.unit.is_empty() || unitless) {
        if o.metric == "value" {
            o.metric = super::table::metric_from_unit(u).into();
        }
        if !unitless {
            o.unit = u.into();
        }
    }
    if direction.is_some() && o.direction.is_none() {
        o.direction = direction;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_and_commands_stated_in_a_sentence() {
        let s = "Here are the numbers, 10 runs each, hackbench -g N -l 1000 (seconds)";
        assert_eq!(stated_unit(s).as_deref(), Some("s"));
        assert_eq!(command_in(s), Some("hackbench -g N -l 1000"));
        assert_eq!(
            stated_unit("Results (usec, lower is better):").as_deref(),
            Some("us")
        );
        assert_eq!(stated_unit("times are in ms"), Some("ms".into()));
        assert_eq!(stated_unit("the numbers in a table (two runs)"), None);
        assert_eq!(command_in("Test set 1: Performance of hackbench"), None);
        // A sentence that is the command alone, or starts as one, is left
        // as it is; options end in a word.
        assert_eq!(command_in("perf bench sched pipe -l 100000"), None);
        assert_eq!(command_in("Average Half load -j 8"), None);
        assert_eq!(command_in("Sequential: Per Chr- --Block-- -Rewrite-"), None);
    }

    #[test]
    fn sentences_are_told_from_headings_by_shape() {
        for s in [
            "Results below, base vs patched (usec, lower is better)",
            "Test server, 4 CPU threads (AMD Phenom), x86_64, 2G of RAM, no X running",
            "Per-drive read results, target one on bus zero (block size:",
            "The numbers of the second machine were taken the same way as the first",
            "All runs on the same box.",
        ] {
            assert!(is_sentence(s), "{s}");
        }
        for h in [
            "hackbench",
            "Throughput (MB/s)",
            "pgbench RO",
            "Linux build (make -j60)",
            "Average Optimal load -j 16 Run (std deviation)",
            "mongodb (threads=6) (throughput, higher is better)",
            "for-5.20/io_uring, RETPOLINE=n, mitigations=off",
            "% gain of PAN vs default (Avg of 3 runs)",
        ] {
            assert!(!is_sentence(h), "{h}");
        }
    }

    #[test]
    fn captions_that_state_changes() {
        assert_eq!(
            stated_change("% gain of PAN vs default (Avg of 3 runs)"),
            Some(Some("PAN".into()))
        );
        assert_eq!(stated_change("% improvement"), Some(None));
        assert_eq!(stated_change("Throughput gain (%)"), Some(None));
        assert_eq!(stated_change("Throughput (MB/s)"), None);
        assert_eq!(stated_change("gain of 5% vs default"), None);
        let mut obs = vec![
            Observation::new("NAS-BT", "value", "", Stat::Mean, -0.17),
            Observation::new("NAS-BT", "value", "", Stat::N, 3.0),
        ];
        state("% gain of PAN vs default (Avg of 3 runs)", &mut obs);
        assert_eq!(
            (obs[0].stat, obs[0].unit.as_str(), obs[0].variant.as_str()),
            (Stat::ChangePct, "%", "PAN")
        );
        assert_eq!((obs[1].stat, obs[1].variant.as_str()), (Stat::N, "PAN"));
    }

    #[test]
    fn rows_under_a_sentence_keep_their_own_label() {
        let s = "Results below, base vs patched (usec, lower is better)";
        assert_eq!(row_benchmark(s, "case-0"), "case-0");
        assert_eq!(row_benchmark(s, ""), s);
        assert_eq!(
            row_benchmark("hackbench", "4 groups"),
            "hackbench: 4 groups"
        );
        assert_eq!(
            row_benchmark("Numbers, 10 runs each, hackbench -g N -l 1000 (s)", "4"),
            "hackbench -g N -l 1000: 4"
        );
        assert_eq!(stated_direction(s), Some(Direction::Lower));
        assert_eq!(
            stated_direction("DayTrader (throughput, higher is better)"),
            Some(Direction::Higher)
        );
        assert_eq!(
            stated_direction("times in microseconds - smaller is better"),
            Some(Direction::Lower)
        );
        assert_eq!(stated_direction("better than before"), None);
    }

    #[test]
    fn values_take_the_sentence_s_unit_and_command() {
        let b = "Here are the numbers, 10 runs each, hackbench -g N -l 1000 (seconds)";
        let mut obs = vec![
            Observation::new(b, "value", "", Stat::Mean, 1.5),
            Observation::new(b, "value", "", Stat::N, 10.0),
            Observation::new(b, "value", "ms", Stat::Mean, 2.5),
        ];
        apply(&mut obs);
        assert_eq!(
            (obs[0].metric.as_str(), obs[0].unit.as_str()),
            ("time", "s")
        );
        assert_eq!((obs[1].metric.as_str(), obs[1].unit.as_str()), ("time", ""));
        assert_eq!(obs[2].unit, "ms");
        assert!(obs.iter().all(|o| o.benchmark == "hackbench -g N -l 1000"));
        assert!(obs.iter().all(|o| o.direction.is_none()));
        let mut obs = vec![Observation::new("case-0", "value", "", Stat::Sample, 1.0)];
        state("Results (usec, lower is better)", &mut obs);
        assert_eq!(
            (obs[0].metric.as_str(), obs[0].unit.as_str()),
            ("time", "us")
        );
        assert_eq!(obs[0].direction, Some(Direction::Lower));
    }
}
