//! The grid reader on real layouts.

use super::*;

fn lines(text: &str) -> Vec<GLine<'_>> {
    text.lines()
        .enumerate()
        .map(|(i, t)| GLine {
            number: i as u32 + 1,
            text: t,
        })
        .collect()
}

fn show(text: &str) -> Vec<String> {
    read(&lines(text), &[], Above::default(), "stem", "p")
        .observations
        .iter()
        .map(|o| {
            format!(
                "{} {}|{}|{}|{}|{}|{}={}",
                o.line, o.benchmark, o.params, o.variant, o.metric, o.stat, o.unit, o.value
            )
        })
        .collect()
}

#[test]
fn lists_of_pairs_under_a_section() {
    let got = show(
        "**Unpatched**\nread : io=102120KB, bw=618740 B/s, iops=151 , runt=169006msec\n\
         slat (usec): min=275 , max=87560 , avg=6571.88, stdev=2799.57",
    );
    assert_eq!(got.len(), 8);
    assert_eq!(got[0], "2 Unpatched||Unpatched|read io|sample|KB=102120");
    assert_eq!(
        got[6],
        "3 Unpatched||Unpatched|slat (usec) avg|mean|us=6571.88"
    );
}

#[test]
fn repeated_lines_of_values_among_words() {
    let got = show(
        "Iter   0 (325.719us): hits    5.105M/s (  5.105M/prod), drops 0.000M/s\n\
         Iter   1 (-17.295us): hits    5.224M/s (  5.224M/prod), drops 0.000M/s",
    );
    assert_eq!(got.len(), 8);
    assert_eq!(got[1], "1 Iter 0|||hits|sample|M/s=5.105");
    // One such line alone is not read: it may be prose.
    assert!(show("Iter   0 (325.719us): hits    5.105M/s").is_empty());
}

#[test]
fn collapsed_grid_with_a_parameter_column_and_changes() {
    let got = show(
        "Read averages:\nBS(KB) RHEL4U2 2.6.14 %-diff\n------ -------- -------- ------\n\
         1 23.8 12.3 -48.4%\n2 46.6 21.3 -54.2%",
    );
    assert_eq!(
        got,
        vec![
            "4 Read averages|bs(kb)=1|RHEL4U2|value|sample|=23.8",
            "4 Read averages|bs(kb)=1|2.6.14|value|sample|=12.3",
            "4 Read averages|bs(kb)=1|%-diff|value|change_pct|%=-48.4",
            "5 Read averages|bs(kb)=2|RHEL4U2|value|sample|=46.6",
            "5 Read averages|bs(kb)=2|2.6.14|value|sample|=21.3",
            "5 Read averages|bs(kb)=2|%-diff|value|change_pct|%=-54.2",
        ]
    );
}

#[test]
fn transposed_grid_with_spaced_digit_groups() {
    let got = show(
        "Kernel pipe bogo ops/s sched_migrate_task sched_switch\n\
         6.6.78 2 339 827 98 21 151 454\n6.12.81 1 163 540 4 39 911 525",
    );
    assert_eq!(got.len(), 6);
    assert_eq!(got[0], "2 stem||6.6.78|pipe bogo ops/s|sample|=2339827");
    assert_eq!(got[5], "3 stem||6.12.81|sched_switch|sample|=39911525");
}

#[test]
fn labels_after_the_values_and_tilde_spreads() {
    let got = show(
        "8c81f3eeb336567  5507231dd04d3d68796bafe83\n\
         ---------------  -------------------------\n      \
         347258 ~ 0%     -18.2%     284195 ~ 0%  TOTAL vm-scalability.migrate_mbps\n      \
         93913 ~ 7%     -49.8%      47172 ~ 3%  TOTAL softirqs.RCU",
    );
    assert_eq!(got.len(), 10);
    assert_eq!(
        got[0],
        "3 TOTAL vm-scalability.migrate_mbps||8c81f3eeb336567|value|sample|=347258"
    );
    assert_eq!(got[1].split('|').nth(4), Some("stddev"));
}

#[test]
fn a_sweep_names_its_columns_and_row_groups_by_their_settings() {
    let got = show(
        "pipe test (times in seconds)\n\
         nr threads   2     4     8\n\
         -------------------------\n\
         1 node\n\
         v6.1       1.50  2.75  5.10\n\
         v6.2       1.25  2.50  4.90\n\
         2 nodes\n\
         v6.1       0.80  1.40  2.60\n\
         v6.2       0.70  1.30  2.50",
    );
    assert_eq!(got.len(), 12, "{got:#?}");
    assert_eq!(
        got[0],
        "5 pipe test (times in seconds)|node=1,threads=2|v6.1|time|sample|s=1.5"
    );
    assert_eq!(
        got[11],
        "9 pipe test (times in seconds)|node=2,threads=8|v6.2|time|sample|s=2.5"
    );
}

#[test]
fn a_table_of_counts_or_a_numbered_list_is_no_sweep() {
    // Every value a whole number: the first row is data.
    let got = show("procs   r  b\nbusy    1  2  3\nidle    4  5  6\n");
    assert!(got.iter().all(|g| !g.contains("busy=")), "{got:#?}");
    assert!(got.iter().any(|g| g.contains("=1")), "{got:#?}");
    // `1.` numbers an item.
    let got = show("Baseline:\n1. 22.0 Mpps\n2. 3.8 Mpps\n3. 15 ns\n");
    assert!(got.iter().all(|g| !g.contains("mpps=")), "{got:#?}");
    // A first row labelled as the rows under it is one of them, and the
    // header above names the columns (a tab-separated table).
    let got = show(
        "Device\tKernel\tFlow offload\tUpload\tDownload\n\
         HH5A\t5.4.128\tDisabled\t101\t170\n\
         HH5A\t5.10.46\tDisabled\t95.4\t159\n\
         HH5A\t5.10.42\tDisabled\t96.6\t165\n",
    );
    assert!(got.iter().all(|g| !g.contains("disabled=")), "{got:#?}");
    assert!(
        got.iter()
            .any(|g| g.starts_with("2 ") && g.contains("|Upload|sample|=101")),
        "{got:#?}"
    );
}

#[test]
fn values_side_by_side_with_changes_are_variants_even_without_a_header() {
    let got = show(
        "512M-xfs    Files/s  mean    30.50 ( 0.00%)    33.30 ( 8.40%)    34.68 (12.06%)\n\
         512M-xfs    Elapsed Time fsmark    136.14    124.26    120.33",
    );
    assert_eq!(got.len(), 9, "{got:#?}");
    assert_eq!(
        got[2],
        "1 512M-xfs Files/s mean||column 2|value|sample|=33.3"
    );
    assert_eq!(
        got[3],
        "1 512M-xfs Files/s mean||column 2|value|change_pct|%=8.4"
    );
    assert_eq!(
        got[5],
        "1 512M-xfs Files/s mean||column 3|value|change_pct|%=12.06"
    );
    assert_eq!(
        got[8],
        "2 512M-xfs Elapsed Time fsmark||column 3|value|sample|=120.33"
    );
}

#[test]
fn a_pipe_table_headed_by_settings_names_its_columns() {
    // Column names that are settings (`bs=4k`) over a rule of dash groups
    // apart by `|`: a header, not a list of pairs.
    let got = show(
        "Before(PAGE_SIZE=4096):\n\n    DIO   | bs=4k    | bs=8k\n\
         ---------|----------|----------\n\
          4k      | 194 MB/s | 366 MB/s\n\
          8k (LBS)| 188 MB/s | 359 MB/s",
    );
    assert!(
        got.iter()
            .any(|g| g.contains("bs=8k") && g.ends_with("=366")),
        "{got:#?}"
    );
}

#[test]
fn a_last_text_column_labels_its_row_with_the_first() {
    // The metric's name after the values, as a robot's summary writes it.
    let got = show(
        "testcase                        base            change          head       metric\n\
         page_fault3/ enable THP         10092           -17.5%          8323       will-it-scale.per_thread_ops\n\
         brk1/ enable THP                  957.67         -7.6%           885       will-it-scale.per_thread_ops",
    );
    assert!(
        got.iter().any(|g| g.contains("page_fault3/ enable THP")
            && g.contains("per_thread_ops")
            && g.contains("head")
            && g.ends_with("=8323")),
        "{got:#?}"
    );
    assert!(
        got.iter()
            .any(|g| g.contains("base") && g.ends_with("=957.67")),
        "{got:#?}"
    );
}

#[test]
fn a_title_over_the_row_labels_names_no_column() {
    // The words of `MMTests Statistics: vmstat` all end before the first
    // value: the line titles the table, and its three columns (three
    // kernels whose header the quote lost) stay apart, numbered.
    let got = show(
        "MMTests Statistics: vmstat\n\
         Page Ins                                     5426648     2840348     2695120\n\
         Page Outs                                    7206376     7854516     7860408",
    );
    assert_eq!(got.len(), 6);
    assert_eq!(
        got[0],
        "2 MMTests Statistics: vmstat: Page Ins|||column 1|sample|=5426648"
    );
    assert_eq!(
        got[5],
        "3 MMTests Statistics: vmstat: Page Outs|||column 3|sample|=7860408"
    );
    // A header whose words sit over the values still names them.
    let got = show("test        base     patched\nfork        1.10     1.20");
    assert_eq!(got[1], "2 fork||patched|value|sample|=1.2");
}

#[test]
fn a_row_label_set_apart_by_a_bar_may_have_four_words() {
    // Cells of a word and several values after a label of four words,
    // parted by bars (one glued to the label) and a full-width comma.
    let got = show(
        "w/ parallel dio reads | READ 78313KB/s, 19578, 1698.70us  | WRITE 78313KB/s, 19578, 4837.60us\n\
         w/o parallel dio reads| READ 387774KB/s, 96943, 1009.73us | WRITE 387656KB/s\u{FF0C}96914, 308.87us",
    );
    assert_eq!(got.len(), 12, "{got:#?}");
    assert!(
        got.iter().any(|g| g.contains("w/ parallel dio reads")
            && g.contains("|READ|")
            && g.ends_with("us=1698.7")),
        "{got:#?}"
    );
    assert!(
        got.iter().any(|g| g.contains("w/o parallel dio reads|")
            && g.contains("|WRITE|")
            && g.ends_with("=96914")),
        "{got:#?}"
    );
}

#[test]
fn a_sentence_of_four_words_before_its_numbers_is_no_list() {
    // Single spaces after the leading words: prose, whatever it counts.
    let got = show(
        "we ran it again with 4 jobs and 16 files\n\
         we ran it again with 8 jobs and 32 files",
    );
    assert!(got.is_empty(), "{got:#?}");
}

#[test]
fn pairs_joined_by_commas_are_read_one_by_one() {
    // fio's read and write bandwidth in one cell, `r=…,w=…`.
    let got = show(
        "rwmixwrite=10%\n\
         Instance 1\tr=27.5GiB/s,w=3125MiB/s\t\tr=75.9GiB/s,w=8636MiB/s\n\
         Instance 2\tr=25.5GiB/s,w=2898MiB/s\t\tr=87.6GiB/s,w=9967MiB/s",
    );
    for v in ["GiB/s=27.5", "MiB/s=3125", "GiB/s=75.9", "MiB/s=9967"] {
        assert!(got.iter().any(|g| g.ends_with(v)), "{v}: {got:#?}");
    }
    assert!(
        got.iter()
            .any(|g| g.contains("Instance 2 r") && g.ends_with("GiB/s=25.5")),
        "{got:#?}"
    );
}

#[test]
fn a_value_with_its_spread_is_no_part_of_a_row_label() {
    // The name, then a rate with its spread and unit written once, then a
    // second rate in parentheses: each value keyed, none in the label.
    let got = show(
        "no-private-stack-1:  2.152 ± 0.004M/s (drops 0.000 ± 0.000M/s)\n\
         private-stack-1:     2.226 ± 0.003M/s (drops 0.000 ± 0.000M/s)",
    );
    assert!(
        got.iter().any(|g| g.contains("no-private-stack-1")
            && !g.contains("2.152 ")
            && g.ends_with("|sample|M/s=2.152")),
        "{got:#?}"
    );
    assert!(
        got.iter()
            .any(|g| g.contains("private-stack-1") && g.ends_with("|stddev|M/s=0.003")),
        "{got:#?}"
    );
}

#[test]
fn a_table_collapsed_into_one_line_is_read_by_its_headers() {
    // Line breaks and padding lost: two headers, each with its row.
    let got = show(
        "w/o patch: Gb Rep Threads User System Wall flt/cpu/s fault/wsec 4 3 1 0.146s 11.155s \
         11.030s 69584.896 69566.852 w/patch Gb Rep Threads User System Wall flt/cpu/s fault/wsec \
         1 1 1 0.014s 0.110s 0.012s524292.194 517665.538",
    );
    assert_eq!(got.len(), 16, "{got:#?}");
    assert_eq!(got[4], "1 w/o patch|||System|sample|s=11.155");
    assert_eq!(got[14], "1 w/patch|||flt/cpu/s|sample|=524292.194");
}

#[test]
fn a_wide_row_is_no_collapsed_table() {
    // One run of values after its label: a row, named by its label.
    assert!(matches!(
        kinds::kind("Total Send Recv Rate 1.2 3.4 5.6 7.8 9.1 2.3 4.5 6.7 8.9"),
        LineKind::Data { .. }
    ));
    // Runs of values under words in turn, but too few per header.
    assert!(!matches!(
        kinds::kind("runs 1 2 then 3 4 then 5 6 then 7 8 then 9 10"),
        LineKind::Collapsed(..)
    ));
}

#[test]
fn a_range_of_signed_changes_is_two_values() {
    // `from  to  upper`: the lower bound is no part of the row's name.
    let got = show(
        "Hackbench pipes-1              -8.23      to 29.65\n\
         Hackbench pipes-4              -8.10      to 10.98",
    );
    assert!(
        got.iter().any(|g| g.contains("Hackbench pipes-1")
            && !g.contains("-8.23 ")
            && g.ends_with("=-8.23")),
        "{got:#?}"
    );
    assert!(
        got.iter().any(|g| g.contains("Hackbench pipes-4")
            && g.contains("|to|")
            && g.ends_with("=10.98")),
        "{got:#?}"
    );
}

#[test]
fn semicolons_part_the_cells_of_a_pasted_export() {
    // A header of two-word cells and rows of values, parted by `;`.
    let got = show(
        "Old min ; new min ; freq GHz; load % ; duration mS\n\
         27      ; 28      ; 4.60    ; 68.17  ; 10.226\n\
         28      ; 26      ; 4.53    ; 57.47  ; 10.005",
    );
    // The first two columns set the run, the others are measured.
    assert_eq!(got.len(), 6, "{got:#?}");
    assert_eq!(got[0], "2 stem|old min=27,new min=28||freq GHz|sample|=4.6");
    assert_eq!(
        got[5],
        "3 stem|old min=28,new min=26||duration mS|sample|=10.005"
    );
    // A sentence's semicolons are punctuation, not cells.
    let words: Vec<&str> = super::tokens::split("it ran; then it stopped; 3 times")
        .iter()
        .map(|w| w.2)
        .collect();
    assert_eq!(
        words,
        ["it", "ran;", "then", "it", "stopped;", "3", "times"]
    );
}

/// Rows whose labels hold numbers, from a part-n post with no heading over
/// them: each row is named by its own label. The file's name stands in
/// for a benchmark only where nothing names one; it was put before the
/// label of such rows (`stem: File Copy 1024`), where the table reader
/// never puts it.
#[test]
fn the_file_name_is_no_title_over_a_row_with_its_own_label() {
    let got = read(
        &lines(
            "Dhrystone 2 using register variables         2666.8     2689.7    +0.9%\n\
             File Copy 1024 bufsize 2000 maxblocks        2892.8     2904.2    -0.4%",
        ),
        &[],
        Above::default(),
        "stem",
        "p",
    )
    .observations;
    assert!(!got.is_empty());
    for o in &got {
        assert!(!o.benchmark.contains("stem"), "{}", o.benchmark);
    }
    assert!(got
        .iter()
        .any(|o| o.benchmark.starts_with("File Copy 1024")));
}

/// Lines of an f2fs cover letter: a dashed title right over a header
/// underlined column by column is the title, not a header line, and the
/// block sizes (not sorted) under `Block Size (bs)` name the rows.
#[test]
fn dashed_title_over_a_ruled_header_and_a_column_of_sizes() {
    let got = show(
        "--- Kernel: iomap_v1 file type: normal ---\n\
         Block Size (bs)      | Avg. Bandwidth (MiB/s)       | Avg. IOPS\n\
         ---------------------+------------------------------+-----------------\n\
         100M                 | 2809.60                      | 27.50\n\
         10M                  | 3184.60                      | 317.90\n\
         128k                 | 1376.20                      | 11000.80",
    );
    assert_eq!(got.len(), 6, "{got:#?}");
    assert_eq!(
        got[0],
        "4 Kernel: iomap_v1 file type: normal: 100M|||Avg. Bandwidth (MiB/s)|sample|MiB/s=2809.6"
    );
    assert_eq!(
        got[5],
        "6 Kernel: iomap_v1 file type: normal: 128k|||Avg. IOPS|sample|=11000.8"
    );
}

/// Lines of a vfs patch's timings quoted three deep: the word before the
/// first value is the same on every line (`time_1`) while the names before
/// it differ: it keys the first value, as `time_2` keys the second.
#[test]
fn the_first_key_of_keyed_lines_is_not_part_of_their_name() {
    let got = show(
        "qstr . time_1 0.020531 time_2 0.005786\n\
         qstr .. time_1 0.017892 time_2 0.008798\n\
         qstr example time_1 0.011820 time_2 0.003605",
    );
    assert_eq!(got.len(), 6, "{got:#?}");
    assert_eq!(got[0], "1 qstr .|||time_1|sample|=0.020531");
    assert_eq!(got[5], "3 qstr example|||time_2|sample|=0.003605");
}

#[test]
fn a_list_of_counts_is_pairs_but_a_diffstat_is_not() {
    let list = kinds::kind("2 packets transmitted, 2 received, 0% packet loss, time 1013ms");
    let LineKind::Pairs(_, ps) = list else {
        panic!("not pairs");
    };
    let keys: Vec<&str> = ps.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        keys,
        ["packets transmitted", "received", "packet loss", "time"]
    );
    assert!(!matches!(
        kinds::kind(" 5 files changed, 120 insertions(+), 30 deletions(-)"),
        LineKind::Pairs(..)
    ));
}

/// Rows of a part-q post (fio on dm-crypt): a header whose last name holds
/// a number (`clat 99%`) is no row of one value; its words run over the
/// value columns of the rows under its rule.
#[test]
fn a_header_naming_a_percentile_over_a_rule_is_no_row() {
    let got = show(
        "devicetype    configuration    MB/s    clat mean    clat 99%\n\
         ------------------------------------------------------------------\n\
         nvme base        1m,32,4     2259    59280        67634\n\
         crypt default    1m,32,4     2267    59050       182000",
    );
    assert_eq!(got.len(), 6, "{got:?}");
    assert!(!got.iter().any(|g| g.ends_with("=99")), "{got:?}");
    assert!(
        got[2].contains("clat 99%") && got[2].ends_with("=67634"),
        "{got:?}"
    );
}

#[test]
fn headerless_columns_are_named_by_the_quantity_their_units_measure() {
    let got = show(
        "RETPLINE=y, Selinux: On:\n\
         fwd: 682 Mb/s  1333582 pps    (100%)\n\
         nf:  635 Mb/s  1242167 pps    ( 93.1%)\n\
         ct:  486 Mb/s   951666 pps    ( 71.3%)",
    );
    let nf: Vec<&String> = got.iter().filter(|g| g.starts_with("3 ")).collect();
    assert!(
        nf.iter().any(|g| g.contains("|Mb/s|sample|Mb/s=635")),
        "{got:#?}"
    );
    assert!(
        nf.iter().any(|g| g.contains("|pps|sample|pps=1242167")),
        "{got:#?}"
    );
    // Two columns of one quantity keep their numbers.
    let got = show("xdp_fwd :  4.12 ms  5.20 ms\nxdp_tx :  3.99 ms  6.11 ms");
    assert!(got.iter().any(|g| g.contains("|column 1|")), "{got:#?}");
    assert!(got.iter().any(|g| g.contains("|column 2|")), "{got:#?}");
}

#[test]
fn build_rows_of_values_far_apart_are_columns_not_runs() {
    // `size` output for two objects before and after a change: text, data,
    // bss, dec and hex, then the object named with its build.
    let got = show(
        "   8701     550      16    9267    2433 fs/debugfs/inode.o (before)\n\
         \x20 25233     325      32   25590    63f6 fs/debugfs/file.o  (before)\n\
         \x20  8914     558      16    9488    2510 fs/debugfs/inode.o (after)\n\
         \x20 25380     325      32   25737    6489 fs/debugfs/file.o  (after)",
    );
    assert!(
        got.iter()
            .any(|g| g.starts_with("1 ") && g.contains("(before)|column 1|sample|=8701")),
        "{got:#?}"
    );
    assert!(
        got.iter()
            .any(|g| g.starts_with("1 ") && g.contains("(before)|column 3|sample|=16")),
        "{got:#?}"
    );
    // Runs of one measurement under build labels stay runs of one metric.
    let got = show(
        "Before:             1537 1538 1538 1537 1538 1537 Mb/sec\n\
         After:              1536 1534 1539 1539 1539 1540 Mb/sec",
    );
    assert!(got.iter().all(|g| !g.contains("column")), "{got:#?}");
}

#[test]
fn a_bound_keeps_its_column_and_no_value() {
    let got = show(
        "read+write              100%    100%    100%     100%\n\
         sequential               51%     52%     83%    >100%\n\
         parallel (throttle=1)    51%     52%     83%    >100%",
    );
    assert!(
        got.iter()
            .any(|g| g.starts_with("2 sequential|") && g.contains("|column 3|sample|%=83")),
        "{got:#?}"
    );
    assert!(got.iter().all(|g| !g.contains(">100%")), "{got:#?}");
    assert_eq!(got.len(), 10, "{got:#?}");
}

#[test]
fn whole_numbers_alone_over_labelled_rows_head_the_columns() {
    let got = show(
        "                          8M      4M      1M      65k\n\
         read+write              100%    100%    100%     100%\n\
         sequential               51%     52%     83%    >100%\n\
         parallel (throttle=1)    51%     52%     83%    >100%",
    );
    assert!(
        got.iter()
            .any(|g| g.starts_with("3 sequential|") && g.contains("|8M|sample|%=51")),
        "{got:#?}"
    );
    assert!(got.iter().all(|g| !g.starts_with("1 ")), "{got:#?}");
    // A table of counts keeps its first line a row.
    let got =
        show("           1      2      4\nbusy       5      6      7\nidle       8      9     10");
    assert!(got.iter().any(|g| g.starts_with("1 ")), "{got:#?}");
}

#[test]
fn a_line_of_settings_titles_the_rows_below_it() {
    let got = show(
        "RETPOLINE=n, Selinux: Off\n\
         fwd: 877 Mb/s  1713897 pps  (100%)\t\t(100%)\n\
         nf:  812 Mb/s  1588642 pps  ( 92.6%)\t\t( 92.5%))\n\
         ct:  629 Mb/s  1230907 pps  ( 71.72)\t\t( 71.7%)",
    );
    assert!(
        got.iter().all(|g| !g.contains("|RETPOLINE=n,|")),
        "{got:#?}"
    );
    assert!(
        got.iter().any(|g| g.starts_with("3 ")
            && g.contains("nf:")
            && g.contains("|Mb/s|sample|Mb/s=812")),
        "{got:#?}"
    );
    // Settings side by side name columns.
    assert!(names::header_like("BIO   bs=4k   bs=8k"));
    assert!(!names::header_like("RETPOLINE=n, Selinux: On, BPF-JIT ON"));
}

#[test]
fn a_header_ruled_over_and_under_heads_rows_of_words_and_values_below() {
    // Lines of a corpus post (zswap batching, two builds): a row of
    // words (the compressor) comes first under the header's rules.
    let got = show(
        " -------------------------------------------------------------------\n\
         \x20                       mm-unstable-12-20-2024   v5 of this patch-series\n\
         \x20-------------------------------------------------------------------\n\
         \x20zswap compressor                      zstd             zstd  \n\
         \x20vm.page-cluster                          2                2 \n",
    );
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(got[0].contains("|mm-unstable-12-20-2024|"), "{got:?}");
    assert!(got[1].contains("|v5 of this patch-series|"), "{got:?}");
}

#[test]
fn a_title_ruled_over_and_under_heads_no_columns() {
    // Lines of a corpus post (AndroBench, three builds): the title is
    // ruled off over a header underlined right over the values.
    let got = show(
        "-------------------------------------------------------------------------\n\
         \x20      io performance data from AndroBench (filesize=1G, 8 threads)\n\
         -------------------------------------------------------------------------\n\
         mmc configure     | original hsq  |  without hsq  |  hsq with this patch\n\
         -------------------------------------------------------------------------\n\
         Sequential write      58.23 MB/s       51.35 MB/s        56.15 MB/s\n",
    );
    assert!(got.iter().all(|g| !g.contains("AndroBench (")), "{got:?}");
}

#[test]
fn words_written_after_values_are_their_units() {
    // CoreMark per CPU frequency (exynos5250 energy model review): each
    // value's unit one space after it, a gap before the next value. Read
    // as keys, `C/MHz` named the power and `mW` the energy.
    let got = show(
        " 300:  1366     4.6 C/MHz    212 mW   38.7 J    6.5 I/mJ   183.0 s\n \
         400:  1821     4.6 C/MHz    286 mW   39.3 J    6.4 I/mJ   137.3 s",
    );
    assert_eq!(got.len(), 12);
    assert_eq!(got[0], "1 300|||value|sample|=1366");
    assert_eq!(got[1], "1 300|||C/MHz|sample|C/MHz=4.6");
    assert_eq!(got[2], "1 300|||mW|sample|mW=212");
    assert_eq!(got[3], "1 300|||J|sample|J=38.7");
    assert_eq!(got[4], "1 300|||I/mJ|sample|I/mJ=6.5");
    assert_eq!(got[5], "1 300|||time|sample|s=183");
}

#[test]
fn words_among_values_that_are_no_units_stay_keys() {
    // top's lines: the user after the pid and the state before %CPU sit
    // as a unit would, but the command at the end is a word among the
    // values too, so the line is no run of values and their units.
    let line = "      9 root      20   0       0      0      0 R  99.7   0.0   7:02.58 ksoftirqd/0";
    let toks = tokens(line);
    assert_eq!(trailing_units(toks.clone()).len(), toks.len());
}
