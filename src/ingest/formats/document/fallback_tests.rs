//! Tests of the low-confidence fallback on lines of real posts.

use super::*;
use crate::model::Observation;

fn read(text: &str) -> Vec<Observation> {
    Document.parse(&Source::from_text("doc.txt", text)).unwrap()
}

fn fallback_rows(obs: &[Observation]) -> Vec<&Observation> {
    obs.iter().filter(|o| o.params == "read=fallback").collect()
}

/// A checksum harness's lines (a 2002 post): words around every number, no
/// table shape; each number is kept with its row's text.
#[test]
fn a_block_no_rule_reads_is_read_number_by_number_and_marked() {
    let doc = "A harness timing checksum routines; each line gives the largest and\n\
               smallest cost in cycles per kilobyte.\n\
               \n\
               csum tests:\n\
               kernel_csum - took 717 max, 704 min cycles per kb. sum=0x44000077\n\
               kernelpii_csum - took 539 max, 528 min cycles per kb. sum=0x44000077\n\
               pfm2_csum - took 875 max, 762 min cycles per kb. sum=0x44000077\n";
    let obs = read(doc);
    let rows = fallback_rows(&obs);
    let got: Vec<(&str, f64, u32)> = rows
        .iter()
        .map(|o| (o.benchmark.as_str(), o.value, o.line))
        .collect();
    assert_eq!(
        got,
        vec![
            ("kernel_csum took", 717.0, 5),
            ("kernel_csum took", 704.0, 5),
            ("kernelpii_csum took", 539.0, 6),
            ("kernelpii_csum took", 528.0, 6),
            ("pfm2_csum took", 875.0, 7),
            ("pfm2_csum took", 762.0, 7),
        ]
    );
    assert_eq!(rows[0].metric, "value 1");
    assert_eq!(rows[1].metric, "value 2");
}

/// A numbered pipe table no table rule reads (an io_uring post): each value
/// is named by the header cell over it, its row by the line's words.
#[test]
fn values_under_header_cells_are_named_by_them() {
    let doc = ">> № | test:                                | BW (MB/s)  | speedup\n\
               >> 1 | msg_zerocopy (non-zc)                |  18281     | 0.38\n\
               >> 2 | msg_zerocopy -z (baseline)           |  47421     | 1\n\
               >> 3 | io_uring (@flush=false, nr_reqs=1)   |  96534     | 2.03\n\
               >> 4 | io_uring (@flush=true,  nr_reqs=1)   |  89310     | 1.88\n";
    let obs = read(doc);
    let bw: Vec<(&str, f64)> = fallback_rows(&obs)
        .into_iter()
        .filter(|o| o.metric == "BW (MB/s)")
        .map(|o| (o.benchmark.as_str(), o.value))
        .collect();
    assert!(
        bw.contains(&("io_uring (@flush=false, nr_reqs=1)", 96534.0)),
        "{obs:#?}"
    );
    assert!(fallback_rows(&obs)
        .iter()
        .any(|o| o.metric == "speedup" && o.value == 1.88));
}

/// A prompt line's numbers are a command's options: a block of them with
/// a result line gives the result only.
#[test]
fn shell_prompt_lines_give_no_fallback_row() {
    let doc = "root@ivb-ep:~/bench# time taskset -c 3 ./starve/starve 1000000\n\
               kernel_csum - took 717 max, 704 min cycles per kb. sum=0x44000077\n\
               kernel_csum - took 4760 max, 704 min cycles per kb. sum=0x44000077\n";
    let obs = read(doc);
    let lines: Vec<u32> = fallback_rows(&obs).iter().map(|o| o.line).collect();
    assert_eq!(lines, vec![2, 2, 3, 3], "{obs:#?}");
}

/// One line alone, prose holding numbers and lines a table rule read give
/// no fallback row.
#[test]
fn single_lines_prose_and_read_tables_are_left_to_the_rules() {
    let doc = "The test ran for 60 seconds on a machine with 64 cores and 256 GB\n\
               of memory, and every run was repeated 5 times over 3 separate boots.\n\
               \n\
               Before: 5863 messages per second\n\
               \n\
               kernel      base      patched\n\
               hackbench   12.3      11.9\n\
               tbench      455.1     460.2\n";
    let obs = read(doc);
    assert!(fallback_rows(&obs).is_empty(), "{obs:#?}");
    assert!(obs.iter().any(|o| o.value == 460.2));
}
