//! Unit tests of table shapes that real posts share: key columns, glued
//! units, wrapped rows and the like, each on a small table.

use super::*;
use crate::model::{Observation, Stat};

fn read(text: &str) -> Vec<Observation> {
    Document.parse(&Source::from_text("doc.txt", text)).unwrap()
}

fn row_of(rows: &[Observation], value: f64) -> &Observation {
    rows.iter()
        .find(|o| o.value == value)
        .unwrap_or_else(|| panic!("{value} not read from {rows:#?}"))
}

#[test]
fn a_boxed_tables_rising_integer_first_column_is_its_key() {
    let text = "\
+----------+--------+-------+
| #workers | before | after |
+----------+--------+-------+
|        1 |    210 |   205 |
|        8 |    930 |   911 |
|       64 |   7020 |  6800 |
+----------+--------+-------+
";
    let rows = read(text);
    let r = row_of(&rows, 930.0);
    assert_eq!(r.params.as_str(), "workers=8");
    assert_eq!(r.variant.as_str(), "before");
    assert!(!rows.iter().any(|o| o.variant.as_str() == "#workers"));
}

#[test]
fn a_pipe_tables_row_over_its_rule_heads_it_though_it_holds_versions() {
    let text = "\
Share of time per idle state:

|            |   5.15 |  6.1 | next |
|------------|-------:|-----:|-----:|
| shallow    |  12.50 | 80.25 | 40.00 |
| deep       |  87.50 | 19.75 | 60.00 |
";
    let rows = read(text);
    let r = row_of(&rows, 80.25);
    assert_eq!(
        (r.benchmark.as_str(), r.variant.as_str()),
        ("shallow", "6.1")
    );
    assert_eq!(row_of(&rows, 60.0).variant.as_str(), "next");
    assert!(!rows.iter().any(|o| o.value == 5.15));
}

#[test]
fn a_fully_ruled_box_without_header_keeps_its_first_row() {
    let text = "\
+---------+-----+
| shallow | 1.5 |
+---------+-----+
| deep    | 2.5 |
+---------+-----+
| off     | 3.5 |
+---------+-----+
";
    let rows = read(text);
    assert!(rows.iter().any(|o| o.value == 1.5));
}

#[test]
fn a_key_with_a_number_before_two_columns_is_a_row_label() {
    let text = "\
                 base      patched
Groups 10:       0.35      0.42
Groups 20:       0.61      0.76
";
    let rows = read(text);
    let r = row_of(&rows, 0.76);
    assert_eq!(
        (r.benchmark.as_str(), r.variant.as_str()),
        ("Groups 20:", "patched")
    );
    assert!(!rows.iter().any(|o| o.value == 20.0));
}

#[test]
fn a_before_after_line_keeps_the_thousands_of_its_second_value() {
    let text = "\
forwarding rate per driver:

for nic-a: 6,042,682 pps -> 6,853,768 pps = +811,086 pps
for nic-b: 1,500 pps -> 2,250 pps, a gain
";
    let rows = read(text);
    assert_eq!(row_of(&rows, 6_853_768.0).variant.as_str(), "after");
    assert_eq!(row_of(&rows, 2_250.0).variant.as_str(), "after");
    assert!(!rows.iter().any(|o| o.value == 6.0 || o.value == 2.0));
}

#[test]
fn an_approximate_value_with_a_glued_unit_after_a_key() {
    let text = "\
forwarding test

Before: ~1.7Mpps
After:  ~2.4Mpps
";
    let rows = read(text);
    let r = row_of(&rows, 2.4);
    assert_eq!((r.metric.as_str(), r.unit.as_str()), ("after", "Mpps"));
    assert_eq!(row_of(&rows, 1.7).metric.as_str(), "before");
}

#[test]
fn headings_over_the_same_rows_name_the_builds() {
    let text = "\
Counters at three points of the run.

               faults      reclaimed       scanned
Mode A:
begin:           9740          8920          64075
end:              768        218254         220029

Mode B:
begin:           9368          5035          26389
end:              770        218449         221230
";
    let rows = read(text);
    let r = row_of(&rows, 218449.0);
    assert_eq!(r.variant.as_str(), "Mode B");
    assert!(!r.benchmark.contains("Mode"), "{r:?}");
    assert_eq!(row_of(&rows, 8920.0).variant.as_str(), "Mode A");
}

#[test]
fn a_line_of_sizes_over_a_rule_heads_the_labelled_rows_below() {
    let text = "\
Throughput change by message size:

                   |  8192 |  2048 |   256 |
-------------------+-------+-------+-------+
First machine      |   41% |   30% |   12% |
Second machine     |   38% |   22% |    9% |
";
    let rows = read(text);
    let r = row_of(&rows, 22.0);
    assert!(r.benchmark.contains("Second machine"), "{r:?}");
    assert!(
        format!("{} {}", r.variant, r.metric).contains("2048"),
        "{r:?}"
    );
    assert!(!rows.iter().any(|o| o.value == 8192.0));
}

#[test]
fn one_word_headers_over_right_aligned_settings_name_them() {
    let text = "\
Run without the change:
Mb Rep Threads   User      System
 16   2    1    0.416s    38.165s
 16   2    2    0.397s    48.523s
 16   2    4    0.390s    52.618s
";
    let rows = read(text);
    let r = row_of(&rows, 48.523);
    assert!(r.params.contains("threads=2"), "{r:?}");
    assert!(r.metric.contains("System"), "{r:?}");
}

#[test]
fn a_header_parted_from_its_rows_by_a_blank_line_still_heads_them() {
    // A title, a header of multi-word column names, a blank line, rows;
    // then a header underlined and parted from its rows the same way.
    let text = "\
                  host -> guest [Gbps]
size     before opt   p 1     p 2+3

32         0.032     0.030    0.048
64         0.061     0.059    0.108

 kind of run            count     mean       p99
 ---------------------------------------------------

 async polling       5,210,702    10,083    17,488
";
    let rows = read(text);
    let r = row_of(&rows, 0.059);
    assert!(
        format!("{} {} {}", r.variant, r.metric, r.params).contains("p 1"),
        "{r:#?}"
    );
    let r = row_of(&rows, 17488.0);
    assert!(r.benchmark.contains("async polling"), "{r:#?}");
    assert!(!r.benchmark.contains("count"), "{r:#?}");
}

#[test]
fn rows_named_after_their_values_join_the_header_a_blank_line_parts() {
    let text = "\
   contended   total wait     max wait         type   caller

         122      1.01 ms     18.73 us        mutex   pipe_read+0x57
          33    149.06 us      8.88 us        mutex   pipe_write+0x50
";
    let rows = read(text);
    let r = row_of(&rows, 18.73);
    assert!(r.benchmark.contains("pipe_read+0x57"), "{r:#?}");
    assert!(
        format!("{} {}", r.variant, r.metric).contains("max wait"),
        "{r:#?}"
    );
}

#[test]
fn a_run_of_lone_counters_is_read_though_one_alone_is_an_attribute() {
    let text = "\
Allocator statistics with the patch:

  mballoc:
    reqs: 12768
    success: 11305
    groups_scanned: 12768
";
    let rows = read(text);
    assert_eq!(row_of(&rows, 11305.0).metric.as_str(), "success");
    assert_eq!(rows.len(), 3, "{rows:#?}");
    // One such line alone stays an attribute of the machine.
    assert!(read("The box:\n\nCPU family: 6\n").is_empty());
}

#[test]
fn a_line_of_column_names_alone_heads_the_sections_of_rows_below_it() {
    // /proc/vmstat counters before and after a run, with the protection
    // switched on and off: one line names the columns of both sections.
    let text = "\
Counters from /proc/vmstat, sampled at each step.

        nr_mapped   nr_active_file nr_inactive_file       pgmajfault     pgdeactivate           pgfree

VM_EXEC protection ON:
begin:       9740             8920            64075              561                0           678360
end:          768           218254           220029              565           798953         21057006

VM_EXEC protection OFF:
begin:       9368             5035            26389              554                0           633391
end:          770           218449           221230              661           646472         17832500
";
    let rows = read(text);
    assert_eq!(rows.len(), 24);
    assert_eq!(row_of(&rows, 218254.0).metric.as_str(), "nr_active_file");
    assert_eq!(row_of(&rows, 633391.0).metric.as_str(), "pgfree");
    assert_eq!(
        row_of(&rows, 633391.0).variant.as_str(),
        "VM_EXEC protection OFF"
    );
}

#[test]
fn column_names_stop_at_a_paragraph_of_sentences() {
    let text = "\
        reads      writes

Run on the first machine:
ext4     1200   800

The second machine, a different layout and no names for its columns.

xfs      1300   900
btrfs    1100   700
";
    let rows = read(text);
    assert_eq!(row_of(&rows, 800.0).metric.as_str(), "writes");
    assert_ne!(row_of(&rows, 900.0).metric.as_str(), "writes");
}

/// A pipe table drawn with underscores (an erofs-utils commit message):
/// the padded header names the columns, the group's last row drawn as its
/// bottom rule is data, a blank first cell carries the name above, the
/// options column names the rows too, and a cell in two units gives both.
#[test]
fn underscore_drawn_table_with_grouped_rows_and_two_unit_cells() {
    let doc = "Image sizes:\n\n _________________________________________________________________________\n|______ Testset _____|        Vanilla          |          After           | Command Line\n|  CoreOS [1]        |   802107392 (765 MiB)   |   687501312 (656 MiB)    | -zlzma,6 -Eall-fragments,fragdedupe=inode -C131072\n|____________________|__ 771715072 (736 MiB) __|__ 658485248 (628 MiB)  __| -zlzma,6 -Eall-fragments,fragdedupe=inode -C1048576\n|  Fedora KIWI [2]   |_ 2584076288 (2465 MiB) _|_ 2550837248 (2433 MiB) __| -zlzma,6 -Eall-fragments,fragdedupe=inode -C1048576\n";
    let obs = Document.parse(&Source::from_text("doc.txt", doc)).unwrap();
    let at = |v: f64| {
        obs.iter()
            .find(|o| o.value == v)
            .unwrap_or_else(|| panic!("{v} not read: {obs:#?}"))
    };
    let bytes = at(771715072.0);
    assert_eq!(bytes.line, 6);
    assert_eq!(bytes.variant, "Vanilla");
    assert_eq!(bytes.benchmark, "CoreOS [1]");
    assert!(bytes.params.ends_with("-C1048576"), "{bytes:?}");
    let mib = at(628.0);
    assert_eq!((mib.variant.as_str(), mib.unit.as_str()), ("After", "MiB"));
    assert!(at(2550837248.0).benchmark.starts_with("Fedora KIWI"));
}

/// A pipe table whose cells flag a loss with an arrow after the bracketed
/// change (a redis-benchmark table of an SMC-R patch): the flagged cells
/// are read, and the signed bracket is a change, not a spread.
#[test]
fn marker_after_a_bracketed_change_in_a_pipe_cell() {
    let doc = "Requests Per Second (RPS), gain/loss against TCP in brackets.\n\n| Clients | TCP      | SMC (original)      | SMC (cq_pool)       |\n|---------|----------|---------------------|---------------------|\n| c = 2   | 46420    | 53216  (+14%)       | 64391  (+38%)       |\n| c = 16  | 159673   | 83668  (-48%)  <--  | 216947 (+36%)       |\n";
    let obs = Document.parse(&Source::from_text("doc.txt", doc)).unwrap();
    let flagged = obs
        .iter()
        .find(|o| o.value == 83668.0)
        .unwrap_or_else(|| panic!("flagged cell not read: {obs:#?}"));
    assert_eq!(flagged.variant, "SMC (original)");
    let change = |v: &str, line: u32| {
        obs.iter()
            .find(|o| o.variant == v && o.line == line && o.stat == Stat::ChangePct)
            .map(|o| o.value)
    };
    assert_eq!(change("SMC (original)", 6), Some(-48.0));
    assert_eq!(change("SMC (cq_pool)", 5), Some(38.0));
    assert!(!obs.iter().any(|o| o.stat == Stat::Cv), "{obs:#?}");
}

/// A quoted table parted from its header by a remark (a raid0 patch's fio
/// results, quoted three deep): the rows below the remark have the shape
/// of the row under the header (two values in MB/s) and take its columns.
#[test]
fn table_resumed_after_a_remark_keeps_its_header() {
    let doc = "Read:\n\n> > >                           without patch    with patch\n> > > psync read          100MB/s           101MB/s         job:1 bs:4k\n\nThe rest of the read rows:\n\n> > >                            1015MB/s         1016MB/s       job:1 bs:128k\n> > >                            1359MB/s         1358MB/s       job:1 bs:256k\n";
    let obs = Document.parse(&Source::from_text("doc.txt", doc)).unwrap();
    let at = |v: f64| {
        obs.iter()
            .find(|o| o.value == v)
            .unwrap_or_else(|| panic!("{v} not read: {obs:#?}"))
    };
    assert_eq!(at(1015.0).variant, "without patch");
    assert_eq!(at(1358.0).variant, "with patch");
    assert_eq!(at(1358.0).unit, "MB/s");
}

/// Rows of another shape below a remark are not taken into the table
/// above (one value, not two): they keep their own reading.
#[test]
fn rows_of_another_shape_do_not_resume_a_table() {
    let doc = "> > >                           without patch    with patch\n> > > psync read          100MB/s           101MB/s         job:1 bs:4k\n\nAn unrelated list:\n\n> > > latency one    15 us\n> > > latency two    17 us\n";
    let obs = Document.parse(&Source::from_text("doc.txt", doc)).unwrap();
    let v = obs.iter().find(|o| o.value == 15.0).expect("read");
    assert!(!v.variant.contains("patch"), "{v:?}");
}
