//! Unit tests of captions over tables: a sentence states the values' unit,
//! direction and runs but names no benchmark; a short heading names one.

use super::*;
use crate::model::{Direction, Observation, Stat};

fn read(text: &str) -> Vec<Observation> {
    Document.parse(&Source::from_text("doc.txt", text)).unwrap()
}

fn row_of(rows: &[Observation], value: f64) -> &Observation {
    rows.iter()
        .find(|o| o.value == value)
        .unwrap_or_else(|| panic!("{value} not read from {rows:#?}"))
}

const SENTENCE: &str = "Results below, base vs patched (usec, lower is better):";

#[test]
fn a_sentence_over_collapsed_columns_names_no_benchmark() {
    // Columns one space apart: the grid reader's table.
    let doc = format!("{SENTENCE}\n\ntest base patched\ncase-0 100.1 101.8\ncase-1 200.5 199.2\n");
    let rows = read(&doc);
    let o = row_of(&rows, 101.8);
    assert_eq!(o.benchmark, "case-0");
    assert_eq!(o.variant, "patched");
    assert_eq!((o.metric.as_str(), o.unit.as_str()), ("time", "us"));
    assert_eq!(o.direction, Some(Direction::Lower));
}

#[test]
fn a_sentence_over_aligned_columns_states_its_unit_and_direction() {
    // Columns apart by gaps under a rule: the layout rules' table, whose
    // rows name themselves and so kept nothing of the heading before.
    let doc = format!(
        "{SENTENCE}\n\ntest    base   patched\n----------------------\ncase-0  100.1  101.8\n\
         case-1  200.5  199.2\n"
    );
    let rows = read(&doc);
    let o = row_of(&rows, 199.2);
    assert_eq!(o.benchmark, "case-1");
    assert_eq!((o.metric.as_str(), o.unit.as_str()), ("time", "us"));
    assert_eq!(o.direction, Some(Direction::Lower));
}

#[test]
fn a_sentence_that_names_a_command_names_the_rows_by_it() {
    let doc = "Here are the numbers, 10 runs each, hackbench -g N -l 1000 (seconds):\n\n\
               test base patched\nprocess 1.10 1.20\nthreads 2.50 2.20\n";
    let rows = read(doc);
    let o = row_of(&rows, 2.2);
    assert_eq!(o.benchmark, "hackbench -g N -l 1000: threads");
    assert_eq!((o.unit.as_str(), o.stat), ("s", Stat::Mean));
    let n = rows
        .iter()
        .find(|r| r.stat == Stat::N && r.benchmark == o.benchmark && r.variant == "patched")
        .map(|r| r.value);
    assert_eq!(n, Some(10.0));
}

#[test]
fn a_short_heading_still_names_the_rows() {
    let doc = "hackbench:\n\ntest base patched\nprocess 1.10 1.20\nthreads 2.50 2.20\n\n\
               mongodb (throughput, higher is better)\n\ntest base patched\nread 10 12\nwrite 20 22\n";
    let rows = read(doc);
    assert_eq!(row_of(&rows, 1.2).benchmark, "hackbench: process");
    let o = row_of(&rows, 22.0);
    assert_eq!(o.benchmark, "mongodb (throughput, higher is better): write");
    assert_eq!(o.direction, Some(Direction::Higher));
}

#[test]
fn a_change_heading_between_rules_makes_its_list_changes_of_the_build_it_names() {
    let doc = "Numbers of the run follow.\n\n----------------------------------------\n\
               % gain of new vs old (Avg of 3 runs)\n----------------------------------------\n\
               alpha\t\t-0.17\nbeta\t\t+9.39\ngamma\t\t+8.19\n";
    let rows = read(doc);
    let o = row_of(&rows, 9.39);
    assert_eq!(o.benchmark, "beta");
    assert_eq!(
        (o.stat, o.unit.as_str(), o.variant.as_str()),
        (Stat::ChangePct, "%", "new")
    );
    // The run count of the heading stays with the same build.
    assert!(rows.iter().any(|r| r.stat == Stat::N
        && r.value == 3.0
        && r.benchmark == "beta"
        && r.variant == "new"));
}
