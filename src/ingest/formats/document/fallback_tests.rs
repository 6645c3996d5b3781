//! Tests of the low-confidence fallback on lines of real posts.

use super::*;
use crate::model::Observation;

/// Two lines of prose, which make a mail of the lines below them: the
/// fallback reads documents of prose only.
const PROSE: &str = "A reply on the list with the numbers of a benchmark run before and after\n\
                     the change, pasted from the terminal as the tool printed them for review.\n\
                     \n";

/// The rows of `text` under [`PROSE`], with the lines of `text` numbered
/// from 1.
fn read(text: &str) -> Vec<Observation> {
    let doc = format!("{PROSE}{text}");
    let mut obs = Document.parse(&Source::from_text("doc.txt", &doc)).unwrap();
    obs.iter_mut().for_each(|o| o.line -= 3);
    obs
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

/// A numbered pipe table (an io_uring post) whose rows with settings in
/// parentheses no table rule reads: each of their values is named by the
/// header cell over it, its row by the line's words.
#[test]
fn values_under_header_cells_are_named_by_them() {
    let doc = ">> Benchmarking udp (65435 bytes) with a dummy net device (mtu=0xffff):\n\
               >> The best case io_uring=116079 MB/s vs msg_zerocopy=47421 MB/s,\n\
               >> or 2.44 times faster.\n\
               >>\n\
               >> № | test:                                | BW (MB/s)  | speedup\n\
               >> 1 | msg_zerocopy (non-zc)                |  18281     | 0.38\n\
               >> 2 | msg_zerocopy -z (baseline)           |  47421     | 1\n\
               >> 3 | io_uring (@flush=false, nr_reqs=1)   |  96534     | 2.03\n\
               >> 4 | io_uring (@flush=true,  nr_reqs=1)   |  89310     | 1.88\n\
               >> 5 | io_uring (@flush=false, nr_reqs=8)   | 116079     | 2.44\n\
               >> 6 | io_uring (@flush=true,  nr_reqs=8)   | 109722     | 2.31\n";
    let obs = read(doc);
    let rows = fallback_rows(&obs);
    let bw = rows
        .iter()
        .find(|o| o.value == 96534.0)
        .unwrap_or_else(|| panic!("{obs:#?}"));
    assert_eq!(
        (bw.benchmark.as_str(), bw.metric.as_str()),
        ("io_uring (@flush=false, nr_reqs=1)", "BW (MB/s)")
    );
    assert!(rows
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

/// Kernel-log lines with their stamps masked (an smc post): the costs are
/// glued to their keys (`cost:75`), and read for them.
#[test]
fn numbers_glued_to_keys_and_punctuation_are_read() {
    let doc = ">>>>    2. Apply this patch:\n\
               >>>>        [x.180857] smc_buf_get_slot_free cost:75 ns\n\
               >>>>        [x.181001] smc_buf_get_slot_free cost:147 ns\n";
    let obs = read(doc);
    let got: Vec<(u32, f64)> = fallback_rows(&obs)
        .iter()
        .map(|o| (o.line, o.value))
        .collect();
    assert_eq!(got, vec![(2, 75.0), (3, 147.0)], "{obs:#?}");
    // Words of other posts' unread lines: a top summary, fio's percentile
    // list, a spread, dd's record count; a masked stamp and a checksum
    // hold none.
    let values = |w: &str| -> Vec<f64> {
        fallback::glued_values(w)
            .into_iter()
            .map(|(v, _)| v)
            .collect()
    };
    assert_eq!(values("0.3%us,"), vec![0.3]);
    assert_eq!(values("1221],"), vec![1221.0]);
    assert_eq!(values("48.78±0.61%"), vec![48.78, 0.61]);
    assert_eq!(values("639+0"), vec![639.0, 0.0]);
    assert!(values("[x.180857]").is_empty());
    assert!(values("14:16").is_empty());
    assert!(values("sum=0x44000077").is_empty());
}

/// A tool's bare output with no prose around it (busybox dd, in
/// tests/data/harness/dd) is no mail: the fallback leaves it unread.
#[test]
fn bare_tool_output_without_prose_gets_no_fallback() {
    let text = "256+0 records in\n256+0 records out\n";
    let obs = Document.parse(&Source::from_text("dd.txt", text)).unwrap();
    assert!(fallback_rows(&obs).is_empty(), "{obs:#?}");
}

/// A value the line names itself is named so: the key glued to it, or the
/// words a comma or an opening bracket sets before it (an SMC printk, a
/// ringbuf bench line, an rngtest summary, each of a real post). A word
/// after a value and before a comma closes that value (`717 max, 704
/// min`) and names neither; a place in a source file is no key.
#[test]
fn a_value_takes_the_name_its_line_gives_it() {
    let metrics = |doc: &str| -> Vec<(String, f64)> {
        fallback_rows(&read(doc))
            .iter()
            .map(|o| (o.metric.to_string(), o.value))
            .collect()
    };
    let got = metrics(
        "[x.832733] smc_buf_get_slot cost:602 ns, walk 10 buf_descs\n\
         [x.832860] smc_buf_get_slot cost:329 ns, walk 12 buf_descs\n",
    );
    assert_eq!(
        got,
        [
            ("cost", 602.0),
            ("walk", 10.0),
            ("cost", 329.0),
            ("walk", 12.0)
        ]
        .map(|(m, v)| (m.to_string(), v))
        .to_vec()
    );
    let got = metrics(
        "rb-prod nr_prod 1    32.180 ± 0.033M/s (drops 0.000 ± 0.000M/s)\n\
         rb-prod nr_prod 2    9.617 ± 0.003M/s (drops 0.000 ± 0.000M/s)\n",
    );
    assert!(got.iter().any(|(m, _)| m == "drops"), "{got:?}");
    assert!(got.iter().all(|(m, _)| m == "drops"), "{got:?}");
    let got = metrics(
        "rngtest: input channel speed: (min=380.570; avg=385.422; max=386.964)Kibits/s\n\
         rngtest: FIPS tests speed: (min=75.092; avg=81.784; max=84.771)Mibits/s\n",
    );
    assert!(got.contains(&("avg".to_string(), 385.422)), "{got:?}");
    assert!(got.contains(&("max".to_string(), 84.771)), "{got:?}");
    let got = metrics(
        "kernel_csum - took 717 max, 704 min cycles per kb. sum=0x44000077\n\
         kernelpii_csum - took 539 max, 528 min cycles per kb. sum=0x44000077\n",
    );
    assert!(got.iter().all(|(m, _)| m.starts_with("value ")), "{got:?}");
    let got = metrics(
        "INFO     root:spl2_test_helpers.py:2306 b'   READ: bw=617MiB/s (647MB/s), \
         617MiB/s-617MiB/s (647MB/s-647MB/s), io=5024MiB (5268MB), run=8146-8146msec'\n\
         INFO     root:spl2_test_helpers.py:2306 b'  WRITE: bw=575MiB/s (603MB/s), \
         575MiB/s-575MiB/s (603MB/s-603MB/s), io=5024MiB (5268MB), run=8743-8743msec'\n",
    );
    assert!(got.contains(&("bw".to_string(), 617.0)), "{got:?}");
    assert!(got.contains(&("io".to_string(), 5024.0)), "{got:?}");
    assert!(got.iter().all(|(m, _)| !m.contains("helpers")), "{got:?}");
}
