//! Recall of the e-mail table reader on a corpus of real posts
//! (`tests/data/emails/`, expected values by hand in `EXPECTED.md`).
//!
//! Every post is read through the library's ingest (what `patchperf ingest`
//! runs). Two figures are measured:
//! - value recall: the expected value is among the file's rows (relative
//!   tolerance 1e-9, after converting between units the project knows:
//!   `172 ms` may be read as `0.172 s`);
//! - label recall: moreover, the row's benchmark/params/metric share a word
//!   with the expected row label and its variant/metric/stat share a word
//!   with the expected column label.
//!
//! The test prints both figures and a per-file table. With
//! `EMAIL_RECALL_MISSES=1` it also lists every expected value it misses and
//! the rows the file gave (`cargo test --test emails -- --nocapture`).

use patchperf::ingest::{ingest, IngestOptions, Registry};
use patchperf::model::{Observation, Unit};
use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::Path;

const DIR: &str = "tests/data/emails";

/// The corpus folder: `EMAIL_CORPUS_DIR` measures a batch of posts not
/// (yet) in the corpus, in the same layout, without its floors.
fn dir() -> String {
    std::env::var("EMAIL_CORPUS_DIR").unwrap_or_else(|_| DIR.to_string())
}

/// The floors asserted: what the reader reaches today on the 512 posts
/// (18722, 14364 and 15311 of 19506 values), in percent, rounded down. The
/// 28 posts of part n were added unread (measured from outside the corpus
/// first, then moved in unchanged: 552, 305 and 349 of their 699 values);
/// rules chosen from the older posts did not move them, readers written
/// for their own harnesses since did (675, 423 and 468). The 30 posts of
/// part o were added unread too, measured from outside the corpus before
/// any change (926, 768 and 784 of their 958 values); grid rules written
/// without them, merged later, moved them by +4, -4 and +4; readers and
/// units fixed from their misses since read 950, 809 and 837. The 30 posts
/// of part p were added unread the same way (801, 509 and 624 of their 873
/// values), which lowered all three figures; rules written from their
/// misses by layout (underscore-drawn tables, a marker after a change, a
/// dashed title and a key column of sizes, a table resumed after a remark,
/// the first key of keyed lines) read 838, 624 and 733 of them, and with
/// the harness readers and line forms fixed from the same misses (t/io_uring,
/// tcrypt's ops/s, a cut fio line, slashed names, several values a key)
/// 867, 652 and 727. Fifteen more posts collected with part p were kept out
/// of the corpus, sealed, to measure these rules from outside (327, 248
/// and 255 of their 443 values before them, 331, 260 and 267 after); they
/// were then moved in unchanged as part q (15894, 12228 and 13159 of the
/// whole corpus then). Value rules written from the misses of parts p and
/// q (encoded line ends, slashed cells and keys, long settings labels,
/// lists wrapped in parentheses, a baseline among changes, dash-joined
/// values under a legend, fio's bandwidth brackets) read all 443 of part
/// q's values; label rules from the same misses and the largest label-miss
/// classes since (a code fence, a closing `Before:` line, the header of a
/// compare table over its counters, a rising count column as a key, a
/// ruled header standing alone, row names with counts in them set apart
/// by a bar or a gap, a bracketed build, a list of counts) and the value
/// rules together read 16081, 12714 and 13653 of the 452 posts. The 30
/// posts of part r, from lists the corpus had not drawn on, were added
/// unread, measured from outside before any change (982, 389 and 450 of
/// their 1437 values; 557 of those values are iperf interval lines, which
/// the iperf readers then left out); with the iperf readers and units
/// fixed from them and the rules above, they read 1337, 575 and 609. The
/// 30 posts of part s, from seven more lists, were added unread the same
/// way and measured from outside before any change (894, 499 and 528 of
/// their 1019 values). Label rules written from the label misses of the
/// whole corpus and parts q and r sorted by the structure that caused
/// them (headings over runs of one key, a setting over indented runs,
/// headerless columns named by their units) followed, and value rules:
/// keeping the values a harness's importer leaves on the lines it reads
/// (perf stat's shadow metrics and spreads, mmtests' change cells, fio's
/// min and max), dots between thousands, and reading the `label: value`
/// lines left between them generically. Rules from part s's largest miss
/// classes (kernel-log stamps, values named by the word after them, a
/// headerless perf profile, a rising header over a rule, pipes in header
/// cells, an index column) read 910, 670 and 699 of part s's values. The
/// issue's goal is 98% and 95%; these are what is reached, not what is
/// wanted. Fifteen posts collected with part r and kept sealed were then
/// moved in unchanged as part t after serving as a hold-out three times
/// (464, 210 and 210 of their 617 values at the last), which lowered all
/// three figures to 19186, 14574 and 15521 of 20123.
/// The 30 posts of part u, from six more lists the corpus had not drawn
/// on, were added unread and measured from outside before any change (998,
/// 634 and 704 of their 1068 values); with no rule changed the floors were
/// lowered to what the grown corpus reads, 20184, 15208 and 16225 of 21191.
/// Rules from part t's largest value-miss classes (a current sample
/// before the running statistics of slashed names, a pipe table with a
/// pipe after each cell only) read 548 and 269 of its values and labels,
/// and a record of slashed pairs from part s (bloat-o-meter's summary line)
/// was added with them: the 557 posts then read 20274, 15267 and 16284.
/// Label rules from the label misses of parts r-t sorted by structure
/// (build-labelled rows whose values are columns, a first row labelled as
/// the rows below, bounds in cells, a header of whole numbers without a
/// rule, a line of settings over keyed rows) were added with them.
/// Key-column rules from part u's label misses (rows of a sweep that stop
/// early keep their keys; two settings crossed key the rows) read 998, 712
/// and 722 of part u's values; with all of these rules the 557 posts read
/// 20274, 15393 and 16374. The fifteen posts sealed with part s were
/// moved in unchanged as part v after serving as a hold-out three times
/// (467, 312 and 312 of their 486 values at the last), which set the
/// floors to what the 572 posts read: 20742, 15706 and 16687 of 21677.
/// A low-confidence fallback for numeric blocks no rule reads (each
/// number with its row's words and the header cell over it, marked
/// `read=fallback`, numbers glued to keys and punctuation included) then
/// read 20931, 15760 and 16771 of them (part v: 473 of 486 values), and
/// three rules from label misses counted over the whole corpus (rows below
/// a harness's comparison take its builds in column order, a long tool
/// line between a heading and its block no longer ends the heading's
/// reach, an indented mmtests header cell over the row labels names no
/// build) took labels and either orientation from 15706 and 16687 to
/// 15793 and 16774 on their own.
/// Part w's 30 posts (a seventh held-out sample) were added unread, with
/// no rule changed (905, 615 and 637 of their 1016 values, measured
/// before the rules above), and the floors set to what the 602 posts read
/// with all of the above: 21908, 16462 and 17508 of 22693.
/// Builds named where the header is not right over the rows (an mmtests
/// header on the title's underline or parted from its rows by a remark,
/// a headerless mmtests table or monitor rows under a named table of as
/// many columns; a header ruled over and under above rows of words) then
/// read 21910, 16564 and 17562.
/// Part x's 30 posts (an eighth held-out sample, from fourteen more lists)
/// were added unread with no rule changed (1050, 562 and 621 of their 1096
/// values, measured from outside first), which lowered the label figures:
/// the floors are what the 632 posts read, 22960, 17024 and 18132 of 23789.
/// Three layout families read by structure (decimal commas decided per
/// paragraph, curl's progress meter, a pipe header apart from its rows)
/// then read 21940, 16522 and 17558 of them; two posts of those families
/// found by search afterwards (part x2, no hold-out) were added with their
/// 22 values, all read.
/// With all of the above merged (and numbers a rule left on a line it read
/// now read by the fallback or accounted), the 634 posts read 23147, 17220
/// and 18265 of 23811.
/// Part y's 21 posts (a ninth held-out sample, from sixteen more lists)
/// were added unread with no rule changed (722, 628 and 639 of their 724
/// values, measured from outside first); the floors are what the 655 posts
/// read, 23870, 17848 and 18904 of 24535.
/// A tool's own line left unread inside its run (iperf's `[ ID] Interval`
/// header over its summary, fio's `clat percentiles`) no longer heads a
/// block of the harness's rows, and a heading over most blocks is counted
/// against the blocks that have headings: 23870, 17849 and 19078.
/// Part z's 25 posts (a tenth held-out sample, from threads of six lists
/// already drawn on) were added unread with no rule changed (920, 666 and
/// 693 of their 947 values, measured from outside first), which lowered
/// the label figures: the floors are what the 680 posts read, 24790, 18514
/// and 19597 of 25482.
/// With the fallback naming a value by the key glued to it or the words
/// after a break on its line merged too, the 680 posts read 24790, 18579
/// and 19814 of 25482.
/// The fifteen posts sealed with part x were moved in unchanged as part x3
/// after serving as a hold-out three times with no figure moving (456, 151
/// and 188 of their 555 values), which set the floors to what the 695
/// posts read: 25246, 18730 and 20002 of 26037.
/// Part aa's 20 posts (an eleventh held-out sample, weighted to 2000-2018:
/// raw messages of the LKML, linux-mm and git list archives) were added
/// unread with no rule changed (691, 588 and 614 of their 794 values,
/// measured from outside first; the first ten went in a commit before the
/// rest); the floors are what the 715 posts read, 25937, 19318 and 20616
/// of 26831.
/// A value the document reader reads beside an importer's on the
/// importer's line taking the benchmark and params of that line's run
/// (cyclictest's thread) read 25246, 18829 and 20075 of the 695 posts before part aa.
/// Units written one space after values among words taken as theirs, and
/// a value named only by its unit named after it (18766 labels and 20038
/// either of the 695 posts on their own). With these, part aa and the
/// CPU passes merged, the 715 posts read 25937, 19453 and 20725 of 26831.
/// An importer of git's perf-suite tables (`0001.1: rev-list --all
/// 0.69(0.65+0.02)`, four posts of part aa) raised them to 26006, 19397
/// and 20695 of 26831 on its own.
/// With all of this session's merges the 715 posts read 26006, 19532 and
/// 20804 of 26831.
/// The ten posts sealed with part y were moved in unchanged as part y2
/// after serving as a hold-out three times with no figure moving (301, 233
/// and 235 of their 314 values); the 725 posts read 26307, 19765 and 21039
/// of 27145, which keeps the floors.
/// Part ab's 20 posts (a twelfth held-out sample, widened in tools and
/// lists: stress-ng, perf bench, netperf, lmbench, AIM9, UnixBench, LKP
/// rows, QEMU; eight of them 2002-2005) were added unread with no rule
/// changed (819, 476 and 512 of their 838 values, measured from outside
/// first; the first ten went in a commit before the rest); the floors are
/// what the 745 posts read, 27126, 20241 and 21551 of 27983.
/// Perf stat's elapsed lines of 2009 and of `--null --repeat`, iperf3's
/// UDP datagram counts and jitter, and GNU time's one-line summary read
/// (52 values of the 725 posts), and a line announcing a run naming the
/// harness block below it despite its numbers (5 labels), raised them to
/// 27178, 20254 and 21572 of 27983.
const VALUE_FLOOR: f64 = 97.1;
const LABEL_FLOOR: f64 = 72.3;
const EITHER_FLOOR: f64 = 77.0;

/// One line of `EXPECTED.md`.
#[derive(Debug, Clone)]
struct Expected {
    file: String,
    row: String,
    column: String,
    value: f64,
    unit: String,
}

fn expected() -> Vec<Expected> {
    let text = std::fs::read_to_string(Path::new(&dir()).join("EXPECTED.md")).expect("EXPECTED.md");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            assert_eq!(f.len(), 5, "EXPECTED.md line {}: {l}", i + 1);
            Expected {
                file: f[0].to_string(),
                row: f[1].to_string(),
                column: f[2].to_string(),
                value: f[3]
                    .parse()
                    .unwrap_or_else(|_| panic!("EXPECTED.md line {}: value {}", i + 1, f[3])),
                unit: f[4].to_string(),
            }
        })
        .collect()
}

/// Lowercase words of letters and digits.
fn words(text: &str) -> HashSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

fn shares_word(a: &str, b: &HashSet<String>) -> bool {
    words(a).iter().any(|w| b.contains(w))
}

fn close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

/// Whether row `o` holds the expected value, in its own unit or one the
/// expected unit converts to.
fn value_matches(e: &Expected, o: &Observation) -> bool {
    if close(e.value, o.value) {
        return true;
    }
    let from = Unit::parse(&e.unit);
    let to = Unit::parse(&o.unit);
    from.convert(e.value, &to)
        .is_some_and(|v| close(v, o.value))
}

/// Label recall as the issue defines it: the row's benchmark/params/metric
/// share a word with the expected row label, its variant/metric/stat with
/// the expected column label. The stat is taken as every output writes it
/// (`Display`: `p99` for the 99th percentile, where its bare kind is
/// `percentile`).
fn label_matches(e: &Expected, o: &Observation) -> bool {
    let row_side = words(&format!("{} {} {}", o.benchmark, o.params, o.metric));
    let col_side = words(&format!("{} {} {}", o.variant, o.metric, o.stat));
    shares_word(&e.row, &row_side) && shares_word(&e.column, &col_side)
}

/// [`label_matches`] in either orientation: a transposed table's side
/// labels are variants and its header metrics, so the expected row label
/// may be the row's variant and the column label its benchmark or params.
fn label_matches_either(e: &Expected, o: &Observation) -> bool {
    if label_matches(e, o) {
        return true;
    }
    let row_side = words(&format!("{} {} {}", o.benchmark, o.params, o.metric));
    let col_side = words(&format!("{} {} {}", o.variant, o.metric, o.stat));
    shares_word(&e.column, &row_side) && shares_word(&e.row, &col_side)
}

/// What one file gave.
#[derive(Default)]
struct FileScore {
    expected: usize,
    values: usize,
    labels: usize,
    either: usize,
    rows: usize,
    format: String,
    error: Option<String>,
    misses: Vec<String>,
}

/// The rows of one file and the format that read it.
fn read(path: &Path) -> Result<(Vec<Observation>, String), String> {
    let registry = Registry::builtin();
    ingest(&[path.to_path_buf()], &registry, &IngestOptions::default())
        .map(|i| {
            let format = i
                .files
                .first()
                .and_then(|f| f.format.clone())
                .unwrap_or_else(|| "-".into());
            (i.dataset.to_observations(), format)
        })
        .map_err(|e| e.to_string())
}

fn score() -> BTreeMap<String, FileScore> {
    let mut files: BTreeMap<String, FileScore> = BTreeMap::new();
    for entry in std::fs::read_dir(dir()).expect("corpus folder") {
        let name = entry.unwrap().file_name().to_string_lossy().to_string();
        if name.ends_with(".txt") {
            files.entry(name).or_default();
        }
    }
    let expected = expected();
    for e in &expected {
        assert!(
            files.contains_key(&e.file),
            "EXPECTED.md names {} which is not in {}",
            e.file,
            dir()
        );
    }
    let detail = std::env::var_os("EMAIL_RECALL_MISSES").is_some();
    for (name, score) in files.iter_mut() {
        let rows = match read(&Path::new(&dir()).join(name)) {
            Ok((r, format)) => {
                score.format = format;
                r
            }
            Err(e) => {
                score.error = Some(e);
                Vec::new()
            }
        };
        score.rows = rows.len();
        let rows = with_parameters(rows);
        for e in expected.iter().filter(|e| &e.file == name) {
            score.expected += 1;
            let found: Vec<&Observation> = rows.iter().filter(|o| value_matches(e, o)).collect();
            let labelled = found.iter().any(|o| label_matches(e, o));
            score.values += usize::from(!found.is_empty());
            score.labels += usize::from(labelled);
            score.either += usize::from(found.iter().any(|o| label_matches_either(e, o)));
            if detail && !labelled {
                let got = found
                    .first()
                    .map(|o| {
                        format!(
                            "got b={:?} p={:?} v={:?} m={:?} s={} u={:?}",
                            o.benchmark, o.params, o.variant, o.metric, o.stat, o.unit
                        )
                    })
                    .unwrap_or_else(|| "value not found".into());
                score.misses.push(format!(
                    "  {} | {} | {} {} -> {got}",
                    e.row, e.column, e.value, e.unit
                ));
            }
        }
    }
    files
}

/// `rows` and, for each row's numeric `k=v` parameter, a row of value `v`
/// and metric `k`: a number of the mail read as a setting (netperf's
/// socket sizes, a sweep's thread count) is read, and named by its key.
fn with_parameters(rows: Vec<Observation>) -> Vec<Observation> {
    let mut extra = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for o in &rows {
        if o.params.is_empty() || !seen.insert((o.line, o.params.clone())) {
            continue;
        }
        for kv in o.params.split(',') {
            let Some((k, v)) = kv.split_once('=') else {
                continue;
            };
            let Ok(value) = v.parse::<f64>() else {
                continue;
            };
            let mut p = o.clone();
            p.metric = k.replace('_', " ").as_str().into();
            p.unit = "".into();
            p.value = value;
            extra.push(p);
        }
    }
    let mut rows = rows;
    rows.extend(extra);
    rows
}

fn pct(n: usize, d: usize) -> f64 {
    if d == 0 {
        100.0
    } else {
        100.0 * n as f64 / d as f64
    }
}

#[test]
fn value_and_label_recall_on_real_posts() {
    let files = score();
    let mut out = String::new();
    out.push_str(&format!(
        "\n{:<55} {:>5} {:>6} {:>6} {:>5} format\n",
        "file", "exp", "value", "label", "rows"
    ));
    let (mut exp, mut val, mut lab, mut eith) = (0, 0, 0, 0);
    for (name, s) in &files {
        exp += s.expected;
        val += s.values;
        lab += s.labels;
        eith += s.either;
        out.push_str(&format!(
            "{:<55} {:>5} {:>5.0}% {:>5.0}% {:>5} {}{}\n",
            name,
            s.expected,
            pct(s.values, s.expected),
            pct(s.labels, s.expected),
            s.rows,
            s.format,
            s.error
                .as_ref()
                .map(|e| format!("  error: {e}"))
                .unwrap_or_default()
        ));
        for m in &s.misses {
            out.push_str(m);
            out.push('\n');
        }
    }
    let value = pct(val, exp);
    let label = pct(lab, exp);
    let either = pct(eith, exp);
    out.push_str(&format!(
        "e-mail corpus: {} files, {exp} expected values: value recall {value:.1}% ({val}), \
         label recall {label:.1}% ({lab}), label recall in either orientation {either:.1}% \
         ({eith})\n",
        files.len()
    ));
    // Straight to the terminal: the figures are the point of the test, and
    // the harness would hide a passing test's `println!`.
    let _ = std::io::stdout().write_all(out.as_bytes());
    assert!(files.len() >= 4, "corpus copy missing");
    if dir() != DIR {
        return;
    }
    assert!(
        value >= VALUE_FLOOR,
        "value recall {value:.1}% fell below {VALUE_FLOOR}%"
    );
    assert!(
        either >= EITHER_FLOOR,
        "label recall in either orientation {either:.1}% fell below {EITHER_FLOOR}%"
    );
    assert!(
        label >= LABEL_FLOOR,
        "label recall {label:.1}% fell below {LABEL_FLOOR}%"
    );
}

#[test]
fn harness_blocks_in_a_mail_take_the_headings_above_them_as_variants() {
    // Two builds, each a heading, the same command line and a cyclictest
    // block: the command line over every block names no build.
    let block = |c: u32, max: u32| {
        format!(
            "cyclictest -Smp99\n# /dev/cpu_dma_latency set to 0us\n\n\
             T: 0 ( 3524) P:99 I:1000 C: {c} Min:      1 Act:    4 Avg:    5 Max:    {max}\n\
             T: 1 ( 3525) P:99 I:1500 C: {c} Min:      1 Act:    1 Avg:    5 Max:    {max}\n"
        )
    };
    let text = format!(
        "Source: https://example.org/post\n\nThe same latency test was run on two kernels, one of them with the \
         reschedule points added by the series, on an otherwise idle desktop machine.\n\n\
         master PREEMPT_NONE\n{}\nmaster PREEMPT_RT_ALL\n{}",
        block(576934, 1650),
        block(578181, 70)
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mail.txt");
    std::fs::write(&path, text).unwrap();
    let (rows, format) = read(&path).unwrap();
    assert_eq!(format, "cyclictest");
    let max = |variant: &str| {
        rows.iter()
            .find(|o| o.variant == variant && o.metric == "latency max" && o.params == "thread=0")
            .map(|o| o.value)
    };
    assert_eq!(max("master PREEMPT_NONE"), Some(1650.0));
    assert_eq!(max("master PREEMPT_RT_ALL"), Some(70.0));
    assert!(rows.iter().all(|o| !o.variant.is_empty()));
}

#[test]
fn a_legend_names_the_columns_of_a_headerless_table_below_it() {
    let text = "Source: https://example.org/post\n\nThe filesystem benchmark was run on three kernels: the \
                release candidate and two variants of the series, with and without the last patch.\n\n\
                > 3 kernels are tested.\n>\n\
                > vanilla\t3.0-rc6\n> wb-v2\t\tpatches 1-7\n> nowb-v2\t\tpatches 1-8\n\n\
                > 512M-xfs   Files/s  mean    30.50 ( 0.00%)    33.30 ( 8.40%)    34.68 (12.06%)\n\
                > 512M-xfs   Elapsed Time fsmark    136.14    124.26    120.33\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mail.txt");
    std::fs::write(&path, text).unwrap();
    let (rows, _) = read(&path).unwrap();
    let get = |variant: &str, stat: patchperf::model::Stat| {
        rows.iter()
            .find(|o| o.variant == variant && o.stat == stat && o.benchmark.contains("Files/s"))
            .map(|o| o.value)
    };
    use patchperf::model::Stat;
    assert_eq!(get("vanilla", Stat::Sample), Some(30.5));
    assert_eq!(get("wb-v2", Stat::Sample), Some(33.3));
    assert_eq!(get("nowb-v2", Stat::ChangePct), Some(12.06));
    // The sentence above the legend names no benchmark.
    assert!(
        rows.iter().all(|o| !o.benchmark.contains("tested")),
        "{rows:#?}"
    );
    assert_eq!(
        rows.iter()
            .filter(|o| o.benchmark.contains("Elapsed") && o.variant == "nowb-v2")
            .count(),
        1
    );
}

// ---------------------------------------------------------------- mutations

/// A byte-level edit of a post.
#[derive(Debug, Clone)]
enum Mutation {
    Truncate(usize),
    Insert(usize, Vec<u8>),
    Replace(usize, u8),
    Delete(usize, usize),
}

fn mutation() -> impl proptest::strategy::Strategy<Value = Mutation> {
    use proptest::prelude::*;
    prop_oneof![
        any::<usize>().prop_map(Mutation::Truncate),
        (
            any::<usize>(),
            prop_oneof![
                Just(b" ".to_vec()),
                Just(b"\t".to_vec()),
                Just(b"> ".to_vec()),
                Just(b"\n".to_vec()),
                Just(b"|".to_vec()),
                Just(b"---- ----".to_vec()),
                Just(b"1,234".to_vec()),
                Just(b"=".to_vec()),
                Just(b"\r\r\n".to_vec()),
                Just("±".as_bytes().to_vec()),
                proptest::collection::vec(any::<u8>(), 1..8),
            ]
        )
            .prop_map(|(a, b)| Mutation::Insert(a, b)),
        (any::<usize>(), any::<u8>()).prop_map(|(a, b)| Mutation::Replace(a, b)),
        (any::<usize>(), 1usize..64).prop_map(|(a, n)| Mutation::Delete(a, n)),
    ]
}

fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    let len = bytes.len().max(1);
    match m {
        Mutation::Truncate(at) => bytes.truncate(at % len),
        Mutation::Insert(at, b) => {
            let at = at % len;
            let at = at.min(bytes.len());
            bytes.splice(at..at, b.iter().copied());
        }
        Mutation::Replace(at, b) => {
            if !bytes.is_empty() {
                let at = at % bytes.len();
                bytes[at] = *b;
            }
        }
        Mutation::Delete(at, n) => {
            if !bytes.is_empty() {
                let at = at % bytes.len();
                let end = (at + n).min(bytes.len());
                bytes.drain(at..end);
            }
        }
    }
}

fn posts() -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(DIR)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    v.sort();
    v
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(48),
        ..proptest::prelude::ProptestConfig::default()
    })]

    /// Any mutation of a post is read or refused with an error, never a panic.
    #[test]
    fn mutated_posts_never_panic(
        pick in proptest::prelude::any::<usize>(),
        muts in proptest::collection::vec(mutation(), 1..4),
    ) {
        let posts = posts();
        let path = &posts[pick % posts.len()];
        let mut bytes = std::fs::read(path).unwrap();
        for m in &muts {
            apply(&mut bytes, m);
        }
        let dir = tempfile::tempdir().unwrap();
        let copy = dir.path().join(path.file_name().unwrap());
        std::fs::write(&copy, &bytes).unwrap();
        let _ = read(&copy);
    }
}

#[test]
fn a_mail_pasting_two_harnesses_is_read_by_both() {
    // ministat summaries of two ebizzy builds, then schbench percentile
    // blocks each under a heading: detection names schbench, and the
    // ministat blocks are ministat's all the same, not table cells.
    let (rows, format) =
        read(&Path::new(&dir()).join("2020b-drivers-cpuidle-pseries-cede-ministat.txt")).unwrap();
    assert_eq!(format, "schbench");
    let median = rows
        .iter()
        .find(|o| o.variant == "without_patches" && o.stat == patchperf::model::Stat::Median)
        .map(|o| o.value);
    assert_eq!(median, Some(5398375.0));
    let p99 = |variant: &str| {
        rows.iter()
            .find(|o| o.variant == variant && o.metric == "latency p99")
            .map(|o| o.value)
    };
    // Each heading over a block names a run, not an interval of one.
    assert_eq!(p99("Without-patch"), Some(13104.0));
    assert_eq!(p99("With-patch"), Some(13648.0));
    assert!(rows.iter().all(|o| !o.variant.starts_with("x ")));
}
