//! What a sentence above a table says of its values when the table does
//! not: the unit (`(seconds)`, `times are in usec`) and the command that
//! was run (`…, hackbench -g N -l 1000 (seconds)` → `hackbench -g N -l
//! 1000`). The readers name a table's rows after that sentence; here the
//! names are made what they say.

use crate::model::{Observation, Stat, Unit};
use regex::Regex;
use std::sync::LazyLock;

/// A command and its options: a word, then one or more `-x [value]`.
static COMMAND: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b[A-Za-z][\w.+/-]*(?:\s+--?[A-Za-z]\w*(?:-\w+)*(?:[ =](?:[A-Za-z0-9][\w./%:-]*))?)+\b",
    )
    .expect("command pattern")
});

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
    let mut last: Option<(String, Option<String>, Option<String>)> = None;
    for o in obs.iter_mut() {
        if o.benchmark.split_whitespace().count() < 4 {
            continue;
        }
        let (unit, command) = match &last {
            Some((b, u, c)) if b == o.benchmark.as_str() => (u.clone(), c.clone()),
            _ => {
                let u = stated_unit(&o.benchmark);
                let c = command_in(&o.benchmark).map(str::to_string);
                last = Some((o.benchmark.to_string(), u.clone(), c.clone()));
                (u, c)
            }
        };
        // The metric follows the unit for every stat of the values (their
        // count too), so that a mean and its n stay one group.
        let unitless = matches!(o.stat, Stat::N | Stat::Cv | Stat::ChangePct);
        if let Some(u) = unit.filter(|_| o.unit.is_empty() || unitless) {
            if o.metric == "value" {
                o.metric = super::table::metric_from_unit(&u).into();
            }
            if !unitless {
                o.unit = u.into();
            }
        }
        if let Some(c) = command {
            o.benchmark = c.into();
        }
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
    }
}
