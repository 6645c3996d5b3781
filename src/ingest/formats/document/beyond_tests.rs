//! Tests of [`super::beyond`] through the mail reader that uses it (apart
//! from it, so that the two files import each other in no ring).

use crate::ingest::formats::document::mixed;
use crate::ingest::{Registry, Source};

/// The rows `format` and the document reader give a mail together.
fn rows(format: &str, text: &str) -> Vec<(u32, f64)> {
    let registry = Registry::builtin();
    let format = registry.get(format).expect("a built-in format");
    let src = Source::from_text("mail.txt", text);
    let read = mixed::read(&registry, format, &src).expect("read");
    read.parsed
        .observations
        .iter()
        .map(|o| (o.line, o.value))
        .collect()
}

const PROSE: &str = "A reply on the patch, with the numbers measured on the test machine\n\
    before and after it was applied, for the reviewers of this series to see.\n\n";

#[test]
fn a_perf_stat_line_keeps_its_shadow_metric_and_spread() {
    // Lines of a corpus post (SLUB freelist prefetch, perf stat -r 32).
    let text = format!(
        "{PROSE} Performance counter stats for './hackbench 50 process 4000' (32 runs):\n\n\
        \x20       2545.28 msec task-clock        #    6.938 CPUs utilized    ( +-  1.75% )\n\
        \x20          6166     context-switches  #    0.002 M/sec            ( +-  1.58% )\n\
        \x20          1129     cpu-migrations    #    0.444 K/sec            ( +-  2.16% )\n"
    );
    let rows = rows("perf-stat", &text);
    for (line, v) in [(7, 0.002), (7, 1.58), (8, 0.444), (8, 2.16)] {
        assert!(rows.contains(&(line, v)), "{v} of line {line} in {rows:?}");
    }
    // The counter itself stays the importer's alone.
    assert_eq!(rows.iter().filter(|r| **r == (7, 6166.0)).count(), 1);
}

#[test]
fn an_mmtests_line_keeps_its_change_cells() {
    // Lines of a corpus post (page wait-queue, mmtests compare).
    let text = format!(
        "{PROSE}paralleldd\n\
        \x20                             4.8.0-rc8             4.8.0-rc8\n\
        \x20                               vanilla        waitqueue-v1r2\n\
        Amean    Elapsd-1      215.05 (  0.00%)      214.53 (  0.24%)\n\
        Amean    Elapsd-3      214.72 (  0.00%)      214.42 (  0.14%)\n\
        Amean    Elapsd-8      214.96 (  0.00%)      215.21 ( -0.12%)\n"
    );
    let rows = rows("mmtests", &text);
    for (line, v) in [(7, 0.24), (8, 0.14), (9, -0.12)] {
        assert!(rows.contains(&(line, v)), "{v} of line {line} in {rows:?}");
    }
    assert_eq!(rows.iter().filter(|r| **r == (7, 215.05)).count(), 1);
}

#[test]
fn a_request_number_and_a_setting_are_no_values() {
    // Lines of a corpus post (bcache, ioping -c10): `request=N` counts
    // the requests; the importer reads only the time.
    let mut text = format!("{PROSE}>  # ./ioping -c10 /dev/bcache0 -D -Y -WWW -s4k\n");
    for (n, t) in [(2, 84.1), (3, 71.8), (4, 68.9), (5, 69.8), (6, 68.7)] {
        text.push_str(&format!(
            "> 4 KiB >>> /dev/bcache0 (block device 3.49 TiB): request={n} time={t} us\n"
        ));
    }
    let rows = rows("ioping", &text);
    let times = [84.1, 71.8, 68.9, 69.8, 68.7];
    assert!(
        rows.iter()
            .all(|(_, v)| times.contains(v) || *v == 3.49 || *v == 4.0),
        "{rows:?}"
    );
}

#[test]
fn a_value_beside_a_thread_s_figures_is_that_thread_s() {
    // Lines of a corpus post (RT reschedule points, cyclictest -Smp99
    // under a build's heading, a make command far above): the current
    // latency (`Act:`) the importer leaves is thread 1's of the run, not
    // the make command's.
    let text = format!(
        "{PROSE}make clean;make -j8;sync;sudo killall cyclictest\n\n\
        master PREEMPT_NONE\ncyclictest -Smp99\n\n\
        T: 0 ( 3524) P:99 I:1000 C: 576934 Min:      1 Act:    4 Avg:    5 Max:    1650\n\
        T: 1 ( 3525) P:99 I:1500 C: 384683 Min:      1 Act:    2 Avg:    5 Max:    1386\n"
    );
    let registry = Registry::builtin();
    let format = registry.get("cyclictest").expect("a built-in format");
    let src = Source::from_text("mail.txt", &text);
    let read = mixed::read(&registry, format, &src).expect("read");
    let act = read
        .parsed
        .observations
        .iter()
        .find(|o| o.line == 10 && o.value == 2.0)
        .expect("the Act value of thread 1");
    assert_eq!(act.benchmark, "cyclictest");
    assert_eq!(act.params, "thread=1");
}

#[test]
fn a_number_of_the_importer_s_row_name_is_no_value() {
    // Lines of a corpus post (git's perf suite, quoted-printable: the
    // second cell's soft break joined): `0001.5` numbers the test.
    let text = format!(
        "{PROSE}>> 0001.3: rev-list --parents                       0.05(0.04+0.01)     0.05(0.03+0.01) +0.0%\n\
        >> 0001.5: rev-list -- dummy                        0.21(0.20+0.01)     0.21(0.19+0.01) +0.0%\n\
        >> 0001.6: rev-list --parents -- dummy              0.22(0.20+0.01)     0.22(0.20+0.01) +0.0%\n"
    );
    let rows = rows("git-perf", &text);
    assert_eq!(rows.len(), 3 * 7, "{rows:?}");
    assert!(
        !rows.iter().any(|(_, v)| [1.3, 1.5, 1.6].contains(v)),
        "{rows:?}"
    );
}
