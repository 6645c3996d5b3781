//! Tests of the builds the mail reader gives rows around a harness's
//! block ([`super::builds_below`], [`super::sections`]), through the mail
//! reader that uses them (apart from them, so that the files import each
//! other in no ring).

use crate::ingest::formats::document::mixed;
use crate::ingest::{Registry, Source};

/// The variants the fio importer's rows of `text` get in a mail.
fn fio_variants(text: &str) -> Vec<(u32, String)> {
    let registry = Registry::builtin();
    let format = registry.get("fio").expect("fio");
    let src = Source::from_text("mail.txt", text);
    let read = mixed::read(&registry, format, &src).expect("read");
    read.parsed
        .observations
        .iter()
        .filter(|o| o.benchmark.as_str() == "fio")
        .map(|o| (o.line, o.variant.to_string()))
        .collect()
}

#[test]
fn a_long_line_of_the_tool_between_heading_and_block_is_no_sentence() {
    // Lines of a corpus post (fio before and after a dm-crypt series):
    // fio's job line has eleven words, and it ended the heading's reach.
    let text = "A cover letter with the complete fio reports for writes to an encrypted\n\
            device on a virtual machine, before and after the series is applied.\n\n\
            Before the patch:\n\
            Jobs: 1 (f=1): [w(1)][100.0%][r=0KiB/s,w=402MiB/s][r=0,w=402 IOPS][eta 00m:00s]\n\
            crypt: (groupid=0, jobs=1): err= 0: pid=233950: Thu Sep 15 16:23:10 2022\n\
            \x20 write: IOPS=402, BW=403MiB/s (423MB/s)(23.6GiB/60002msec)\n\
            \x20   slat (usec): min=2425, max=3819, avg=2480.84, stdev=34.00\n\n\
            After the patch:\n\
            Jobs: 1 (f=1): [w(1)][100.0%][r=0KiB/s,w=430MiB/s][r=0,w=430 IOPS][eta 00m:00s]\n\
            crypt: (groupid=0, jobs=1): err= 0: pid=288730: Thu Sep 15 16:25:39 2022\n\
            \x20 write: IOPS=430, BW=431MiB/s (452MB/s)(25.3GiB/60002msec)\n\
            \x20   slat (usec): min=2253, max=3213, avg=2319.49, stdev=34.29\n";
    let got = fio_variants(text);
    assert!(got.contains(&(7, "Before the patch".into())), "{got:?}");
    assert!(got.contains(&(13, "After the patch".into())), "{got:?}");
}

#[test]
fn a_summary_below_a_comparison_takes_its_builds_in_column_order() {
    // Lines of a corpus post (an mmtests comparison of four kernels,
    // with its duration summary below the table).
    let text = "A reply with the timings of each step of the workload, for the\n\
            vanilla kernel and three levels of the series, on a small machine.\n\n\
            \x20            largecopy-vanilla       kswapd-v1r1  noexstep-v1r1     default0-v1r1\n\
            download tar           94 ( 0.00%)   94 ( 0.00%)   94 ( 0.00%)   93 ( 1.08%)\n\
            unpack tar            521 ( 0.00%)  551 (-5.44%)  482 ( 8.09%)  488 ( 6.76%)\n\
            delete source dirs    208 ( 0.00%)  218 (-4.59%)  194 ( 7.22%)  194 ( 7.22%)\n\
            MMTests Statistics: duration\n\
            User/Sys Time Running Test (seconds)        740.82    777.73    739.98    747.47\n\
            Total Elapsed Time (seconds)               1046.66   1273.91    962.47    936.17\n";
    let registry = Registry::builtin();
    let format = registry.get("mmtests").expect("mmtests");
    let src = Source::from_text("mail.txt", text);
    let read = mixed::read(&registry, format, &src).expect("read");
    let got: Vec<(u32, String, String, f64)> = read
        .parsed
        .observations
        .iter()
        .filter(|o| o.line >= 9)
        .map(|o| (o.line, o.variant.to_string(), o.metric.to_string(), o.value))
        .collect();
    let builds = [
        "largecopy-vanilla",
        "kswapd-v1r1",
        "noexstep-v1r1",
        "default0-v1r1",
    ];
    let values = [
        [740.82, 777.73, 739.98, 747.47],
        [1046.66, 1273.91, 962.47, 936.17],
    ];
    for (line, row) in [(9, values[0]), (10, values[1])] {
        for (build, v) in builds.iter().zip(row) {
            let want = (line, build.to_string(), "value".to_string(), v);
            assert!(got.contains(&want), "{want:?} in {got:?}");
        }
    }
}
