//! Unit tests of the names the document reader gives values it reads:
//! what of the text around a table is markup, a title or a side, on
//! lines copied from real posts.

use super::*;
use crate::model::Observation;

fn read(text: &str) -> Vec<Observation> {
    Document.parse(&Source::from_text("doc.txt", text)).unwrap()
}

fn row_of(rows: &[Observation], value: f64) -> &Observation {
    rows.iter()
        .find(|o| o.value == value)
        .unwrap_or_else(|| panic!("{value} not read from {rows:#?}"))
}

#[test]
fn a_code_fence_around_change_lines_names_nothing() {
    let text = "\
> > ```
> > 3-threads  dm-linear-3 targets (4k randread IOPS, unit K)
> > 5.12-rc1: 667
> > per-task: 674 -> 849
> > ours 8353c1a: 623 -> 811
> > 
> > 3-threads  dm-stripe-3 targets  (12k randread IOPS, unit K)
> > 5.12-rc1: 321
> > per-task: 313 -> 349
> > ours 8353c1a: 310 -> 406
> > ```
";
    let rows = read(text);
    assert!(rows.iter().all(|o| !o.variant.contains('`')), "{rows:#?}");
    assert_eq!(row_of(&rows, 674.0).variant.as_str(), "before");
    assert_eq!(row_of(&rows, 849.0).variant.as_str(), "after");
    assert!(row_of(&rows, 406.0).benchmark.contains("dm-stripe-3"));
}

#[test]
fn a_code_fence_with_a_language_is_markup_but_a_tilde_underline_is_not() {
    use super::lines::{classify, Kind};
    assert!(matches!(classify("```"), Kind::Blank));
    assert!(matches!(classify("```text"), Kind::Blank));
    assert!(!matches!(classify("~~~~~~"), Kind::Blank));
    assert!(!matches!(classify("``` before ``` after"), Kind::Blank));
}

/// The two `perf top` sections of a post, cut to three rows each.
const PERF_TOP: &str = "\
Cover letter of the fourth version of a 48-patch series that makes
slab shrinking lockless. In a reclaim test with 4000 memory cgroups each
holding a tmpfs mount, perf top was sampled before and after the series.
Before:

  40.44%  [kernel]            [k] down_read_trylock
  17.59%  [kernel]            [k] up_read
  13.64%  [kernel]            [k] pv_native_safe_halt

After, shrink_slab itself is the top entry, as intended:

  60.17%  [kernel]           [k] shrink_slab
  20.42%  [kernel]           [k] pv_native_safe_halt
   3.03%  [kernel]           [k] do_shrink_slab
";

#[test]
fn a_short_line_closing_prose_and_a_build_before_a_comma_name_the_sides() {
    let rows = read(PERF_TOP);
    assert_eq!(row_of(&rows, 40.44).variant.as_str(), "Before");
    assert_eq!(row_of(&rows, 60.17).variant.as_str(), "After");
    assert_eq!(row_of(&rows, 3.03).variant.as_str(), "After");
}

#[test]
fn a_closing_line_heads_only_after_a_sentence_and_a_build_only_before_a_clause() {
    use super::labels::paragraph_label;
    let label = |lines: &[&str]| paragraph_label(lines).unwrap();
    assert_eq!(
        label(&[
            "a tmpfs mount, perf top was sampled before and after the series.",
            "Before:"
        ]),
        ("Before".to_string(), false)
    );
    // A sentence wrapped onto a short last line is still prose.
    let wrapped = label(&[
        "The runs were made on an idle machine. Each took a minute, and",
        "the numbers below are the mean of five runs; the results are as",
        "follows:",
    ]);
    assert!(wrapped.1, "{wrapped:?}");
    assert_eq!(
        label(&["With the change, far fewer nfsd_file allocations and a small gain:"]).0,
        "With the change"
    );
    assert_eq!(label(&["Baseline, 4k:"]).0, "Baseline, 4k");
}

#[test]
fn counters_below_a_comparison_with_changes_take_its_builds() {
    let text = "\
Tip-tree notification for a sched/fair commit. netperf TCP_STREAM from
mmtests on a two-socket machine, baseline against the patch:

 netperf-tcp -- mmtests config config-network-netperf-unbound
			      baseline              lbnuma-v3
 Hmean     64         568.73 (   0.00%)      577.56 *   1.55%*
 Hmean     128       1089.98 (   0.00%)     1128.06 *   3.49%*
 Stddev    64           2.16 (   0.00%)        2.02 (   6.53%)

NUMA balancing counters for the same run, baseline then patched:

 Ops NUMA base-page range updates       19796.00         292.00
 Ops NUMA PTE updates                   19796.00         292.00
 Ops NUMA hint local percent               52.18          99.30

schbench with one message thread per node, latency percentiles:

 Lat 50.00th-qrtle-1        44.00 (   0.00%)       37.00 (  15.91%)
 Lat 75.00th-qrtle-1        53.00 (   0.00%)       41.00 (  22.64%)
";
    let rows = read(text);
    let r = row_of(&rows, 52.18);
    assert_eq!(r.variant.as_str(), "baseline", "{r:?}");
    assert!(r.benchmark.contains("hint local percent"), "{r:?}");
    assert_eq!(row_of(&rows, 99.3).variant.as_str(), "lbnuma-v3");
    assert_eq!(row_of(&rows, 41.0).variant.as_str(), "lbnuma-v3");
    assert!(
        rows.iter().all(|o| !o.metric.starts_with("column")),
        "{rows:#?}"
    );
}

#[test]
fn a_count_column_rising_beside_a_key_is_a_key_too() {
    let text = "\
> > Before this patch:
> >
> >    FSUse%        Count         Size    Files/sec     App Overhead
> >        10      1200000            0     171845.7         12253839
> >        16      2400000            0     230898.7         12308254
> >        23      3600000            0     212292.9         12467768
";
    let rows = read(text);
    let r = row_of(&rows, 230898.7);
    assert!(r.params.contains("count=2400000"), "{r:?}");
    assert_eq!(r.stat, crate::model::Stat::Sample);
    assert!(
        rows.iter().all(|o| o.stat != crate::model::Stat::N),
        "{rows:#?}"
    );
}

#[test]
fn a_ruled_two_line_header_alone_heads_the_sections_below_it() {
    let text = "\
Busy system (tcrypt run while 10 stress-ng tasks were burning 100% CPU)

                             base                test
                             ----------------    ---------------
speedup    key_sz  blk_sz    ops/sec    stdev    ops/sec   stdev

(pcrypt(rfc4106-gcm-aesni)) encryption (tcrypt mode=211)

 117.2x       160      16        960       30     112555   24775
 135.1x       160      64        845      246     114145   25124

(pcrypt(rfc4106-gcm-aesni)) decryption (tcrypt mode=211)

 127.2x       160      16        997        5     126834   24244
 128.4x       160      64       1000        0     128438   23261
";
    let rows = read(text);
    let r = row_of(&rows, 112555.0);
    assert!(
        r.metric.contains("ops/sec") || r.variant.contains("ops/sec"),
        "{r:?}"
    );
    assert!(r.benchmark.contains("encryption"), "{r:?}");
    assert!(row_of(&rows, 1000.0).benchmark.contains("decryption"));
    assert!(rows.iter().all(|o| o.metric != "value"), "{rows:#?}");
}

#[test]
fn a_row_name_a_bar_closes_keeps_the_counts_in_it() {
    let text = "\
unix benchmark result:
  host:  kernel 5.10.0-rc6, HiSilicon Kunpeng920, 8 CPUs
  guest: kernel 5.10.0-rc6, 16 VCPUs
                                       | 5.10.0-rc6 | pv_cond_yield | vcpu_is_preempted
 System Benchmarks Index Values        |    INDEX   |      INDEX    |      INDEX
---------------------------------------+------------+---------------+-------------------
 Dhrystone 2 using register variables  |  29164.0   |    29156.9    |    29207.2
 Double-Precision Whetstone            |   6807.6   |     6789.2    |     6912.1
 File Copy 1024 bufsize 2000 maxblocks |    189.9   |      923.5    |     1094.2
 File Copy 256 bufsize 500 maxblocks   |    121.9   |      578.4    |      588.7
 Pipe Throughput                       |   6727.2   |     6670.2    |     6743.2
";
    let rows = read(text);
    let r = row_of(&rows, 923.5);
    assert!(
        r.benchmark
            .contains("File Copy 1024 bufsize 2000 maxblocks"),
        "{r:?}"
    );
    assert!(rows.iter().all(|o| o.value != 2000.0), "{rows:#?}");
    let p = row_of(&rows, 6670.2);
    assert!(p.variant.contains("pv_cond_yield"), "{p:?}");
}

#[test]
fn a_row_name_a_gap_sets_apart_keeps_the_counts_in_it() {
    let text = "\
> Normal 2.6.27-rc1-mm1
> 
> 
>   BYTE UNIX Benchmarks (Version 4.1.0)
>   System -- Linux localhost.localdomain 2.6.27-rc1-mm1 #1 SMP Mon Aug 4 16:08:48 JST 2008 ia64 ia64 ia64 GNU/Linux

>                      INDEX VALUES            
> TEST                                        BASELINE     RESULT      INDEX
> 
> Execl Throughput                                43.0     2954.0      687.0
> File Copy 1024 bufsize 2000 maxblocks         3960.0   218859.0      552.7
> File Copy 256 bufsize 500 maxblocks           1655.0    57095.0      345.0
> Pipe Throughput                              12440.0   462027.5      371.4
> System Call Overhead                         15000.0  1320907.8      880.6
>                                                                  =========
>      FINAL SCORE                                                     565.6
";
    let rows = read(text);
    let r = row_of(&rows, 218859.0);
    assert!(
        r.benchmark
            .contains("File Copy 1024 bufsize 2000 maxblocks"),
        "{r:?}"
    );
    assert!(
        r.variant.contains("RESULT") || r.metric.contains("RESULT"),
        "{r:?}"
    );
    assert!(rows.iter().all(|o| o.value != 2000.0), "{rows:#?}");
    assert!(row_of(&rows, 371.4).benchmark.contains("Pipe Throughput"));
}

#[test]
fn a_total_under_its_column_is_named_by_that_column() {
    let text = "\
> Before using the patch:
> System Benchmarks Index Values               BASELINE       RESULT    INDEX
> Dhrystone 2 using register variables         116700.0  948326591.2  81261.9
> Double-Precision Whetstone                       55.0     211986.3  38543.0
> File Copy 1024 bufsize 2000 maxblocks          3960.0     438936.2   1108.4
> System Call Overhead                          15000.0    4714906.1   3143.3
>                                                                     ========
> System Benchmarks Index Score                                        7923.3
";
    let rows = read(text);
    let r = row_of(&rows, 7923.3);
    assert!(
        r.variant.contains("INDEX") || r.metric.contains("INDEX"),
        "{r:?}"
    );
    assert!(!r.variant.contains("BASELINE"), "{r:?}");
}

#[test]
fn a_build_in_brackets_over_its_rows_is_their_side() {
    let text = "\
> > [before]
> >  32k pcluster + lz4hc,12 + fragment\t\t454M
> >  64k pcluster + lz4hc,12 + fragment\t\t439M
> >  128k pcluster + lz4hc,12 + fragment\t\t431M
> > 
> > [after]
> >  32k pcluster + lz4hc,12 + fragment\t\t316M
> >  64k pcluster + lz4hc,12 + fragment\t\t300M
> >  128k pcluster + lz4hc,12 + fragment\t\t292M
";
    let rows = read(text);
    // `439M`: the suffix scales the value.
    assert_eq!(row_of(&rows, 439e6).variant.as_str(), "before");
    assert_eq!(row_of(&rows, 300e6).variant.as_str(), "after");
    assert!(super::labels::is_noise("[snip]"));
    assert!(super::labels::is_noise("[...]"));
}

#[test]
fn a_list_in_parentheses_run_onto_an_indented_line_is_one_line() {
    let text = "\
>>     Without-APF: 7029030180/minute = avg(7559625120 5962155840 7823208540
>>                                          7629633480 6170527920)
>>     With-APF:    8286827472/minute = avg(8464584540 8177073360 8262723180
>>                                          8095084020 8434672260)
>>     Outcome:     +17.8%
";
    let rows = read(text);
    let r = row_of(&rows, 7629633480.0);
    assert!(
        r.benchmark.contains("Without-APF") || r.variant.contains("Without-APF"),
        "{r:?}"
    );
    assert_eq!(r.line, 1, "{r:?}");
    let w = row_of(&rows, 8434672260.0);
    assert!(
        w.benchmark.contains("With-APF") || w.variant.contains("With-APF"),
        "{w:?}"
    );
}

#[test]
fn a_list_of_counts_each_before_its_name_is_keyed_by_the_names() {
    let text = "\
Verifying IP connectivity...
PING 10.0.0.1 (10.0.0.1) from 10.0.0.2 nk1: 56(84) bytes of data.
64 bytes from 10.0.0.1: icmp_seq=1 ttl=64 time=0.071 ms
64 bytes from 10.0.0.1: icmp_seq=2 ttl=64 time=0.040 ms

--- 10.0.0.1 ping statistics ---
2 packets transmitted, 2 received, 0% packet loss, time 1013ms
rtt min/avg/max/mdev = 0.040/0.055/0.071/0.015 ms
";
    let rows = read(text);
    let sent = rows
        .iter()
        .find(|o| o.line == 7 && o.metric.contains("packets transmitted"))
        .unwrap_or_else(|| panic!("{rows:#?}"));
    assert_eq!(sent.value, 2.0);
    assert!(sent.benchmark.contains("ping statistics"), "{sent:?}");
    assert!(rows
        .iter()
        .any(|o| o.line == 7 && o.metric.contains("packet loss")));
}

#[test]
fn headings_over_runs_of_one_key_name_the_builds() {
    let text = "\
Peak polled random-read rates, per run, under one heading per tree and
mitigation setting.

-git, RETPOLINE=n, mitigations=off
Maximum IOPS=12837K
Maximum IOPS=12812K
Maximum IOPS=12834K

for-5.20/io_uring, RETPOLINE=n, mitigations=off
Maximum IOPS=12877K
Maximum IOPS=12870K
Maximum IOPS=12848K
";
    let rows = read(text);
    let a = row_of(&rows, 12812000.0);
    let b = row_of(&rows, 12870000.0);
    assert_eq!(
        a.variant.as_str(),
        "git, RETPOLINE=n, mitigations=off",
        "{a:?}"
    );
    assert_eq!(
        b.variant.as_str(),
        "for-5.20/io_uring, RETPOLINE=n, mitigations=off"
    );
    assert_eq!(a.benchmark, b.benchmark, "{rows:#?}");
    assert_eq!(a.metric.to_lowercase(), "maximum iops");
}

#[test]
fn headings_over_bare_numbers_under_a_key_stay_where_they_were() {
    // The key stands above the list, not on each value's line: left as read.
    let text = "\
for this commit:
  \"fxmark.ssd_xfs_MWCM_72_directio.works/sec\": [
    39192.224368,
    39665.690567,
    38980.680601
  ],

for parent:
  \"fxmark.ssd_xfs_MWCM_72_directio.works/sec\": [
    45381.458009,
    45314.376204,
    45724.688965
  ],
";
    let rows = read(text);
    let before: Vec<String> = rows.iter().map(|o| o.variant.to_string()).collect();
    let a = row_of(&rows, 39665.690567);
    assert!(!a.variant.contains("this commit"), "{rows:#?} {before:?}");
}

#[test]
fn a_setting_over_indented_runs_heads_them() {
    let text = "\
Latencies per run with the limit enabled and disabled.

cpu_lat_limit_us=10 (enabled)
  slat: 63, clat: 107, lat: 115, c6%: 11.9
  slat: 30, clat: 129, lat: 137, c6%: 0.9
cpu_lat_limit_us=-1 (disabled)
  slat: 106, clat: 281, lat: 353, c6%: 79.9
  slat: 107, clat: 270, lat: 319, c6%: 79.8
";
    let rows = read(text);
    let on = row_of(&rows, 129.0);
    let off = row_of(&rows, 281.0);
    assert_eq!(
        on.variant.as_str(),
        "cpu_lat_limit_us=10 (enabled)",
        "{rows:#?}"
    );
    assert_eq!(off.variant.as_str(), "cpu_lat_limit_us=-1 (disabled)");
    assert_eq!(on.metric.as_str(), "clat");
    // The settings are no values of their own.
    assert!(
        rows.iter().all(|o| o.value != 10.0 && o.value != -1.0),
        "{rows:#?}"
    );
}
