//! Tests of the numbers of read lines no row came from, on lines of real
//! posts (the lines only, under a line of prose that makes them a mail).

use super::fallback::{is_value, tokens};
use super::grid::TokKind;
use super::unclaimed::plain_values_only;
use super::*;
use crate::model::Observation;

/// Two lines of prose, which make a mail of the lines below them: the
/// fallback reads documents of prose only.
const PROSE: &str = "A reply on the list with the numbers of a benchmark run before and after\n\
                     the change, pasted from the terminal as the tool printed them for review.\n\
                     \n";

/// What the reader gives for `text` under [`PROSE`], lines numbered from 1.
fn read(text: &str) -> Parsed {
    let doc = format!("{PROSE}{text}");
    let mut parsed = Document
        .parse_accounted(&Source::from_text("doc.txt", &doc))
        .unwrap();
    parsed.observations.iter_mut().for_each(|o| o.line -= 3);
    parsed.skipped.iter_mut().for_each(|(l, _)| *l -= 3);
    parsed
}

/// Every number of every line that gave a row, with what became of it:
/// `None` where it is neither the value of a row of its line, nor in a
/// row's names, nor named in the account of its line.
fn lost(text: &str, parsed: &Parsed) -> Vec<(u32, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = i as u32 + 1;
        let rows: Vec<&Observation> = parsed.observations.iter().filter(|o| o.line == n).collect();
        if rows.is_empty() {
            continue;
        }
        let names: String = rows
            .iter()
            .map(|o| format!("{} {} {} {} ", o.benchmark, o.params, o.variant, o.metric))
            .collect();
        let why: String = parsed
            .skipped
            .iter()
            .filter(|(l, _)| *l == n)
            .map(|(_, w)| w.as_str())
            .collect();
        for t in tokens(line)
            .iter()
            .filter(|t| is_value(t) || t.kind == TokKind::Spread)
        {
            let a_row = rows
                .iter()
                .any(|o| o.value == t.value || (o.value - t.value).abs() <= 1e-9 * t.value.abs());
            let bare = t.text.trim_matches(|c: char| !c.is_alphanumeric());
            let accounted = why.contains(&format!("`{}`", t.text));
            if !a_row && !names.contains(bare) && !accounted {
                out.push((n, t.text.to_string()));
            }
        }
    }
    out
}

fn fallback_rows(parsed: &Parsed) -> Vec<&Observation> {
    parsed
        .observations
        .iter()
        .filter(|o| fallback::is_fallback(o))
        .collect()
}

/// A kernbench summary (an mm post, 2018): the rule read each line's
/// change and took the two means with their deviations into the row's
/// name. The means are values left: the fallback reads them, named by the
/// line's words.
#[test]
fn values_a_rule_took_into_a_name_are_read_by_the_fallback() {
    let text = "Average Optimal load -j 8\n\
                \x20\t\t Base\t\t\tSPF\n\
                \x20                Run (std deviation)\n\
                Elapsed\tTime\t 148.04\t(0.62446)\t150.31 (0.940585)\t1.53%\n\
                User\tTime\t 1017.27 (1.23567)\t1029.14\t(4.43995)\t1.17%\n\
                System\tTime\t 112.53\t(0.888285)\t118.62 (0.712215)\t5.41%\n";
    let parsed = read(text);
    let guessed = fallback_rows(&parsed);
    let user = guessed
        .iter()
        .find(|o| o.value == 1017.27)
        .unwrap_or_else(|| panic!("{:#?}", parsed.observations));
    assert_eq!((user.line, user.benchmark.as_str()), (5, "User Time"));
    assert!(guessed.iter().any(|o| o.value == 1029.14 && o.line == 5));
    assert_eq!(lost(text, &parsed), vec![], "{:#?}", parsed.observations);
}

/// A NUMA comparison table (a sched post, 2012): the two baseline columns
/// before the bar were taken into the row's name; read by the fallback.
#[test]
fn columns_before_a_bar_are_read_with_their_row_name() {
    let text = "  [ seconds         ]    v3.7  AutoNUMA   |  numa/core-v16    [ vs. v3.7]\n\
                \x20 [ lower is better ]   -----  --------   |  -------------    -----------\n\
                \x20                                         |\n\
                \x20 numa01                340.3    192.3    |      139.4          +144.1%\n\
                \x20 numa01_THREAD_ALLOC   425.1    135.1    |\t 121.1          +251.0%\n\
                \x20 numa02                 56.1     25.3    |       17.5          +220.5%\n";
    let parsed = read(text);
    let guessed = fallback_rows(&parsed);
    for (line, v) in [(4, 340.3), (4, 192.3), (5, 425.1), (6, 25.3)] {
        assert!(
            guessed.iter().any(|o| o.line == line && o.value == v),
            "{v} on line {line}: {:#?}",
            parsed.observations
        );
    }
    assert!(guessed.iter().all(|o| o.benchmark.starts_with("numa0")));
    assert_eq!(lost(text, &parsed), vec![], "{:#?}", parsed.observations);
}

/// UnixBench lines under a header of builds (a sched post, 2020): the
/// command's option values are no values, and said to be left out.
#[test]
fn option_values_on_a_read_line_are_accounted_not_read() {
    let text = "                              base            w/ patch\n\
                ./Run spawn -c 8 -i 10                 633.6           635.1\n\
                \n\
                ./Run execl -c 8 -i 10                1187.5          1190.7\n";
    let parsed = read(text);
    assert!(parsed.observations.iter().any(|o| o.value == 635.1));
    assert!(
        fallback_rows(&parsed).is_empty(),
        "{:#?}",
        parsed.observations
    );
    let why: Vec<&(u32, String)> = parsed
        .skipped
        .iter()
        .filter(|(_, w)| w.contains("option"))
        .collect();
    assert_eq!(why.len(), 2, "{:#?}", parsed.skipped);
    assert!(why[0]
        .1
        .contains("`8` (a command's option), `10` (a command's option)"));
    assert_eq!(lost(text, &parsed), vec![]);
}

/// Per-core frequencies (an arm64 post, 2024): the bracketed core number
/// glued to its colon keys the row; accounted, not read as a value.
#[test]
fn a_key_with_its_colon_is_accounted_not_read() {
    let text = "When system is idle:\n\
                core   scaling_cur_freq  cpuinfo_cur_freq\n\
                [0]:   3068518           3000000\n\
                [1]:   3068550           3000000\n";
    let parsed = read(text);
    assert!(parsed.observations.iter().any(|o| o.value == 3068550.0));
    assert!(fallback_rows(&parsed)
        .iter()
        .all(|o| o.value != 0.0 && o.value != 1.0));
    assert_eq!(
        lost(text, &parsed),
        vec![],
        "{:#?} {:#?}",
        parsed.observations,
        parsed.skipped
    );
}

/// A speedup table (an x86 post, 2008): the `50` of `hackbench 50` is the
/// benchmark's argument, part of the row's label before its first value,
/// so it is no value left over and the fallback reads nothing here.
#[test]
fn a_whole_number_in_the_label_before_the_values_is_the_label() {
    let text = "                  no lock prefix (s)   with lock prefix (s)    Speedup\n\
                make -j1 kernel/      33.94 +/- 0.07         34.91 +/- 0.27      2.8 %\n\
                hackbench 50           2.99 +/- 0.01          3.74 +/- 0.01     25.1 %\n";
    let parsed = read(text);
    assert!(
        fallback_rows(&parsed).is_empty(),
        "{:#?}",
        parsed.observations
    );
    assert!(parsed
        .observations
        .iter()
        .any(|o| o.benchmark == "hackbench 50" && o.value == 2.99));
    assert_eq!(lost(text, &parsed), vec![], "{:#?}", parsed.observations);
}

/// The fast path skips only lines whose every number is a row's value: a
/// bare `Time:` line is; a second number, a number spelled otherwise
/// (`1e3`, `1,000`) or a word that may read as NaN leaves the line to the
/// full pass. A number written as a row's setting is passed too.
#[test]
fn only_lines_of_row_values_skip_the_full_pass() {
    let row = |v: f64| {
        let mut o = Observation::new("b", "time", "s", crate::model::Stat::Sample, v);
        o.line = 1;
        o
    };
    let (a, b) = (row(1.234), row(-7.0));
    assert!(plain_values_only("Time: 1.234", &[&a]));
    assert!(plain_values_only("run  -7  1.234 s", &[&a, &b]));
    assert!(!plain_values_only("Time: 1.234 1.234", &[&a]));
    assert!(!plain_values_only("Time: 1.234 (3 runs)", &[&a]));
    assert!(!plain_values_only("Time: 1.234e0", &[&a]));
    assert!(!plain_values_only("Time: 1.234 NaN", &[&a]));
    assert!(!plain_values_only("Time: 1.2340", &[&b]));
    // A row label with digits that the rows took as their benchmark.
    let named = |v: f64| {
        let mut o = Observation::new("case-12", "time", "us", crate::model::Stat::Sample, v);
        o.line = 1;
        o
    };
    let (c, d) = (named(100.1), named(101.2));
    assert!(plain_values_only("case-12   100.1   101.2", &[&c, &d]));
    assert!(!plain_values_only("case-13   100.1   101.2", &[&c, &d]));
    assert!(!plain_values_only("100.1 case-12 101.2", &[&c, &d]));
    let glued = |v: f64| {
        let mut o = Observation::new("cost:60", "time", "us", crate::model::Stat::Sample, v);
        o.line = 1;
        o
    };
    assert!(!plain_values_only("cost:60   100.1", &[&glued(100.1)]));
    // A key column read as a setting, written as the setting holds it.
    let keyed = |v: f64| {
        let mut o = Observation::new("b", "time", "ms", crate::model::Stat::Mean, v);
        o.params = "threads=512".into();
        o.line = 1;
        o
    };
    let (e, f) = (keyed(5.1685), keyed(5.8146));
    assert!(plain_values_only("| 512 | 5.1685 | 5.8146 |", &[&e, &f]));
    assert!(!plain_values_only("| 256 | 5.1685 | 5.8146 |", &[&e, &f]));
    assert!(!plain_values_only("| 512.0 | 5.1685 | 5.8146 |", &[&e, &f]));
}
