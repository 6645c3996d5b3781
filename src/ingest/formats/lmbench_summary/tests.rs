//! Tests of the lmbench summary importer on real reports.
use super::*;
use crate::ingest::testing::{parse_file, source_of_lines};

fn read(file: &str) -> Parsed {
    parse_file(
        &LmbenchSummary,
        &format!("tests/data/harness/lmbench/{file}"),
    )
}

/// The values of `metric` in `benchmark` for `variant`, with their
/// unit and run, in order.
fn cells(p: &Parsed, benchmark: &str, variant: &str, metric: &str) -> Vec<(f64, String, u32)> {
    p.observations
        .iter()
        .filter(|o| o.benchmark == benchmark && o.variant == variant && o.metric == metric)
        .map(|o| (o.value, o.unit.to_string(), o.run.unwrap_or(u32::MAX)))
        .collect()
}

#[test]
fn two_systems_three_runs_each_by_section_and_column() {
    let p = read("summary-getsummary-two-systems-3runs.txt");
    let (reg, csv) = ("hygon-reg", "hygon-csv");
    let fs = "File & VM system latencies";
    // `0K File` is set across two columns: it heads both.
    assert_eq!(
        cells(&p, fs, reg, "0K File Create"),
        [
            (8064.5, "us".into(), 0),
            (7633.6, "us".into(), 1),
            (9434.0, "us".into(), 2)
        ]
    );
    assert_eq!(cells(&p, fs, csv, "0K File Create")[1].0, 10400.0);
    assert_eq!(cells(&p, fs, reg, "10K File Delete")[0].0, 1700.7);
    assert_eq!(cells(&p, fs, reg, "Mmap Latency")[0].0, 204500.0);
    let proc = "Processor, Processes";
    assert_eq!(cells(&p, proc, reg, "sh proc")[0].0, 11000.0);
    assert_eq!(cells(&p, proc, reg, "fork proc")[0].0, 109.0);
    assert_eq!(cells(&p, proc, reg, "Mhz")[0], (0.0, "MHz".into(), 0));
    // Empty cells are tests without a result.
    assert!(cells(&p, proc, reg, "slct TCP").is_empty());
    let lat = "Local Communication latencies";
    assert_eq!(cells(&p, lat, csv, "TCP conn")[2].0, 257.0);
    assert!(cells(&p, lat, csv, "RPC/UDP").is_empty());
    let bw = "Local Communication bandwidths";
    assert_eq!(
        cells(&p, bw, reg, "Mem read")[0],
        (15000.0, "MB/s".into(), 0)
    );
    assert_eq!(cells(&p, bw, reg, "TCP")[1].0, 1.56);
    let mem = "Memory latencies";
    assert_eq!(cells(&p, mem, csv, "L1 $")[2], (0.906, "ns".into(), 2));
    assert_eq!(cells(&p, mem, reg, "Rand mem")[0].0, 106.4);
    assert_eq!(
        cells(&p, "Basic uint64 operations", reg, "int64 add")[0].0,
        0.23
    );
    assert_eq!(
        cells(&p, "Basic double operations", csv, "double mul")[1].0,
        0.9
    );
    let basic = "Basic system parameters";
    assert_eq!(
        cells(&p, basic, reg, "mem par")[1],
        (7.23, String::new(), 1)
    );
    assert_eq!(cells(&p, basic, reg, "cache line bytes")[0].0, 64.0);
    let dir = |b: &str| {
        p.observations
            .iter()
            .find(|o| o.benchmark == b)
            .map(|o| o.direction)
    };
    assert_eq!(dir(fs), Some(Some(Direction::Lower)));
    assert_eq!(dir(bw), Some(Some(Direction::Higher)));
    // 6 systems x (4 basic + 10 processor + 5 + 1 + 4 + 4 + 7 ctx + 6
    // latencies + 8 file + 9 bandwidth + 5 memory) values.
    assert_eq!(p.observations.len(), 6 * 63);
}

#[test]
fn one_system_leaves_the_variant_to_the_caller() {
    let p = read("summary-make-see-virtualclient.txt");
    let fs = "File & VM system latencies";
    assert_eq!(cells(&p, fs, "", "0K File Create")[0].0, 12.7);
    assert_eq!(cells(&p, fs, "", "0K File Delete")[0].0, 9.8942);
    assert_eq!(cells(&p, fs, "", "10K File Create")[0].0, 21.9);
    assert_eq!(cells(&p, fs, "", "Mmap Latency")[0].0, 111500.0);
    // The warning under the memory title is not its name.
    assert_eq!(
        cells(&p, "Memory latencies", "", "L1 $")[0],
        (1.452, "ns".into(), 0)
    );
    assert_eq!(cells(&p, "Memory latencies", "", "Mhz")[0].0, 1344.0);
    assert_eq!(p.observations.len(), 7 + 4 + 5 + 9 + 5);
    // make's `Leaving directory` right under the last row is no row.
    let last = src_lines("summary-make-see-virtualclient.txt");
    assert!(p.skipped.iter().any(|(n, _)| *n == last));
}

fn src_lines(file: &str) -> u32 {
    let text = std::fs::read_to_string(format!("tests/data/harness/lmbench/{file}")).unwrap();
    text.lines().count() as u32
}

#[test]
fn diagnostics_above_the_banner_and_partial_sections() {
    let p = read("summary-getsummary-stderr-two-hosts.txt");
    // Named by host: the OS cells are cut (`Linux 4.15.0-`).
    let (pkb, kylin) = ("pkb-72796", "kylin-pc");
    // getsummary's stderr above the banner is accounted for.
    assert_eq!(p.skipped[0].0, 1);
    assert!(p.skipped[0].1.contains("outside the summary"));
    assert_eq!(
        cells(&p, "Processor, Processes", pkb, "sh proc")[0].0,
        800.0
    );
    assert_eq!(
        cells(&p, "Local Communication bandwidths", kylin, "AF UNIX")[0].0,
        4746.0
    );
    assert_eq!(
        cells(&p, "Local Communication bandwidths", pkb, "AF UNIX")[0].0,
        11000.0
    );
    assert_eq!(
        cells(&p, "Local Communication latencies", pkb, "TCP conn")[0].0,
        1047.0
    );
    assert!(cells(&p, "Basic integer operations", pkb, "intgr bit").is_empty());
    assert_eq!(cells(&p, "Memory latencies", kylin, "Main mem")[0].0, 9.167);
}

#[test]
fn a_post_around_a_summary_is_the_document_reader_s() {
    let mut lines = vec![
        "The numbers below compare the two kernels on the same machine, with the patch \
         applied to the second one only, after a reboot between the runs.",
        "Both were run three times and the table lists every run of each of the kernels.",
        "",
    ];
    let table = [
        "                 L M B E N C H  3 . 0   S U M M A R Y",
        "                 ------------------------------------",
        "",
        "Context switching - times in microseconds - smaller is better",
        "-------------------------------------------------------------",
        "Host                 OS  2p/0K 2p/16K",
        "                         ctxsw  ctxsw",
        "--------- ------------- ------ ------",
        "hygon-reg  Linux 10.0.0 2.4000 2.5000",
    ];
    let alone = source_of_lines(&table);
    // The banner and the titles are the report's own words.
    assert_eq!(LmbenchSummary.detect(&alone), 95);
    let p = LmbenchSummary.parse_accounted(&alone).unwrap();
    assert_eq!(p.observations.len(), 2);
    lines.extend(table);
    assert_eq!(LmbenchSummary.detect(&source_of_lines(&lines)), 0);
}

#[test]
fn one_host_under_two_kernels_is_named_with_its_os_cell() {
    let table = [
        "                 L M B E N C H  3 . 0   S U M M A R Y",
        "Context switching - times in microseconds - smaller is better",
        "-------------------------------------------------------------",
        "Host                 OS  2p/0K 2p/16K",
        "                         ctxsw  ctxsw",
        "--------- ------------- ------ ------",
        "box       Linux 6.8.0-4 2.4000 2.5000",
        "box       Linux 6.9.0-r 2.1000 2.2000",
    ];
    let p = LmbenchSummary
        .parse_accounted(&source_of_lines(&table))
        .unwrap();
    let variants: Vec<&str> = p.observations.iter().map(|o| o.variant.as_str()).collect();
    assert_eq!(
        variants,
        [
            "box Linux 6.8.0-4",
            "box Linux 6.8.0-4",
            "box Linux 6.9.0-r",
            "box Linux 6.9.0-r"
        ]
    );
}

#[test]
fn names_cut_to_the_column_s_width_are_noted_when_rows_may_be_two_systems() {
    let table = [
        "                 L M B E N C H  3 . 0   S U M M A R Y",
        "Context switching - times in microseconds - smaller is better",
        "-------------------------------------------------------------",
        "Host                 OS  2p/0K 2p/16K",
        "                         ctxsw  ctxsw",
        "--------- ------------- ------ ------",
        "box       Linux 4.15.0- 2.4000 2.5000",
        "box       Linux 4.15.0- 2.1000 2.2000",
        "other       Linux 6.6.0 2.0000 2.0000",
        "other       Linux 6.6.0 2.0000 2.0000",
        "other       Linux 6.6.0 2.0000 2.0000",
    ];
    let p = LmbenchSummary
        .parse_accounted(&source_of_lines(&table))
        .unwrap();
    // Read as two runs of one system, as before, and said.
    assert_eq!(p.observations.len(), 10);
    assert_eq!(p.notes.len(), 1);
    assert!(p.notes[0].starts_with("`box Linux 4.15.0-` (2 rows a section) fill the width"));
    assert!(p.notes[0].contains("read as runs of one system"));
    // A name short of the width, or cut but with one row, is not noted.
    let p = read("summary-getsummary-stderr-two-hosts.txt");
    assert!(p.notes.is_empty());
    // Hosts of 9 characters fill their cut: `hygon-reg` may be longer.
    let p = read("summary-getsummary-two-systems-3runs.txt");
    assert_eq!(p.notes.len(), 1);
    assert!(p.notes[0].starts_with(
        "`hygon-csv Linux 10.0.0` (3 rows a section), `hygon-reg Linux 10.0.0` (3 rows a \
         section) fill"
    ));
}

#[test]
fn reports_are_recognised_and_posts_are_not() {
    let detect = |path: &str| {
        LmbenchSummary.detect(&crate::ingest::Source::read(std::path::Path::new(path)).unwrap())
    };
    for file in [
        "summary-getsummary-two-systems-3runs.txt",
        "summary-make-see-virtualclient.txt",
        "summary-getsummary-stderr-two-hosts.txt",
    ] {
        assert_eq!(
            detect(&format!("tests/data/harness/lmbench/{file}")),
            95,
            "{file}"
        );
    }
    for post in [
        "2005a-ia64-clear-page-lmbench3.txt",
        "2001b-mm-large-page-cache-size-lmbench2-summary-repeated-hosts.txt",
    ] {
        assert_eq!(detect(&format!("tests/data/emails/{post}")), 0, "{post}");
    }
}

#[test]
fn cells_as_getsummary_abbreviates_them() {
    assert_eq!(cell_value("11.K"), Some(11000.0));
    assert_eq!(cell_value("204.5K"), Some(204500.0));
    assert_eq!(cell_value("12.3M"), Some(12300000.0));
    assert_eq!(cell_value("109."), Some(109.0));
    assert_eq!(cell_value("1e-04"), Some(1e-4));
    assert_eq!(cell_value("-"), None);
    assert_eq!(cell_value("x86_64-linux-gnu"), None);
}

#[test]
fn a_title_without_a_table_or_broken_rows_never_panic() {
    let lines = [
        "L M B E N C H  3 . 0   S U M M A R Y",
        "Memory latencies in nanoseconds - smaller is better",
        "------------------------------------------------",
        "Host  OS",
        "--------- ---",
        "é",
        "x",
    ];
    let src = source_of_lines(&lines);
    assert!(LmbenchSummary.parse_accounted(&src).is_err());
}
