//! Unit tests of the document reader on small documents.

use super::*;
use crate::model::{Observation, Stat};

fn read(text: &str) -> Vec<Observation> {
    Document.parse(&Source::from_text("doc.txt", text)).unwrap()
}

fn find<'a>(
    obs: &'a [Observation],
    variant: &str,
    metric: &str,
    stat: Stat,
) -> Vec<&'a Observation> {
    obs.iter()
        .filter(|o| o.variant.contains(variant) && o.metric == metric && o.stat == stat)
        .collect()
}

#[test]
fn summary_rows_under_a_latency_header_with_iterations() {
    let doc = "Case A: all threads alike\n* with simple list:\nIterations=5000\nLatency (us)      min      max      avg      stddev\n                  3869     7400  6656.73      539.35\n";
    let obs = read(doc);
    let mean = find(&obs, "simple list", "latency", Stat::Mean);
    assert_eq!(mean.len(), 1);
    assert_eq!(
        (mean[0].value, mean[0].unit.as_str(), mean[0].line),
        (6656.73, "us", 5)
    );
    assert_eq!(mean[0].benchmark, "Case A: all threads alike");
    let n = find(&obs, "simple list", "latency", Stat::N);
    assert_eq!((n[0].value, n[0].line), (5000.0, 3));
    assert_eq!(
        find(&obs, "simple list", "latency", Stat::Min)[0].value,
        3869.0
    );
    assert_eq!(
        find(&obs, "simple list", "latency", Stat::Stddev)[0].value,
        539.35
    );
}

#[test]
fn blocks_at_different_quote_depths_stay_apart() {
    let doc = "> > with the patch:\n> > Time: 1.5\n> > Time: 1.7\n>\n> without the patch:\n> Time: 2.5\n> Time: 2.7\n";
    let obs = read(doc);
    let with: Vec<f64> = obs
        .iter()
        .filter(|o| o.variant == "with the patch")
        .map(|o| o.value)
        .collect();
    let without: Vec<f64> = obs
        .iter()
        .filter(|o| o.variant == "without the patch")
        .map(|o| o.value)
        .collect();
    assert_eq!((with, without), (vec![1.5, 1.7], vec![2.5, 2.7]));
    assert_eq!(obs[0].line, 2);
    assert_eq!(obs[2].line, 6);
}

#[test]
fn stated_summaries_follow_their_samples() {
    let doc = "build\n\nreal\t0m1.500s\nuser\t0m1.000s\nsys\t0m0.500s\n\nreal\t0m1.700s\nuser\t0m1.100s\nsys\t0m0.400s\n\navg : 1.6s\nstd. dev. : 0.1s\n";
    let obs = read(doc);
    let real: Vec<f64> = obs
        .iter()
        .filter(|o| o.metric == "real" && o.stat == Stat::Sample)
        .map(|o| o.value)
        .collect();
    assert_eq!(real, vec![1.5, 1.7]);
    let mean = find(&obs, "", "real", Stat::Mean);
    assert_eq!(
        (
            mean[0].value,
            mean[0].unit.as_str(),
            mean[0].benchmark.as_str()
        ),
        (1.6, "s", "build")
    );
    assert_eq!(find(&obs, "", "real", Stat::Stddev)[0].value, 0.1);
}

#[test]
fn aligned_table_with_threads_column_and_plus_minus_cells() {
    let doc = "Results\n\nthreads   vanilla (us)        patched (us)\n8         6656.73 ± 539.35    6787.97 ± 479.41\n16        7000 ± 10           7100 ± 20\n";
    let obs = read(doc);
    let m = obs
        .iter()
        .find(|o| o.params == "threads=16" && o.variant == "patched" && o.stat == Stat::Mean)
        .unwrap();
    assert_eq!(
        (m.value, m.unit.as_str(), m.metric.as_str(), m.line),
        (7100.0, "us", "time", 5)
    );
    let sd = obs
        .iter()
        .find(|o| o.params == "threads=8" && o.variant == "vanilla" && o.stat == Stat::Stddev)
        .unwrap();
    assert_eq!(sd.value, 539.35);
    assert_eq!(obs.len(), 8);
}

/// The (params, variant, value) of each sample read from `doc`.
fn keyed_samples(doc: &str) -> Vec<(String, String, f64)> {
    read(doc)
        .into_iter()
        .filter(|o| o.stat == Stat::Sample)
        .map(|o| (o.params.to_string(), o.variant.to_string(), o.value))
        .collect()
}

// Real rows of a will-it-scale comparison: a column of process counts
// under `proc`, two builds, and the change written after them with no
// header of its own. The counts key the rows; they are no build, and the
// rows are no repeated runs of one series.
#[test]
fn a_key_column_stays_a_key_beside_an_unheaded_change() {
    let tabs = "fstat2 (\"Same file fstat\"):\nproc\tstock\tno-pause\n1\t3013872\t3047636\t(+1%)\n2\t4284687\t4400421\t(+2%)\n8\t3257721\t5530156\t(+69%)\n24\t2239819\t5466127\t(+144%)\n";
    let spaced = "fstat2:\nproc    stock    no-pause\n1       3013872  3047636   +1%\n2       4284687  4400421   +2%\n8       3257721  5530156   +69%\n24      2239819  5466127   +144%\n";
    for doc in [tabs, spaced] {
        let got = keyed_samples(doc);
        assert_eq!(got.len(), 8, "{doc}: {got:?}");
        assert!(
            got.contains(&("proc=8".into(), "no-pause".into(), 5530156.0)),
            "{got:?}"
        );
        assert!(
            got.contains(&("proc=24".into(), "stock".into(), 2239819.0)),
            "{got:?}"
        );
        assert!(got.iter().all(|g| g.1 != "proc"), "{got:?}");
    }
    // A change after each value, the header naming the key `Threads:`:
    // the key is 192, and the ratio 1.00 beside it is a value, not a
    // second key.
    let ratios = "git-source result comparison:\nThreads:   acpi-cpufreq\t\t   amd_pst+passive\t   amd_pst+guided\n  192\t   1.00 (0.00 pct)\t   0.93 (-7.00 pct)\t   1.00 (0.00 pct)\n";
    let got: Vec<(String, f64)> = keyed_samples(ratios)
        .into_iter()
        .map(|(params, _, value)| (params, value))
        .collect();
    let key = "threads=192".to_string();
    assert_eq!(got, [(key.clone(), 1.0), (key.clone(), 0.93), (key, 1.0)]);
}

#[test]
fn relative_spread_is_a_coefficient_of_variation() {
    let doc = "              base           patched\nops/s       140227 ±  3%   110582 ±  2%\nlat          1.2 ±  1%      1.5 ±  4%\n";
    let obs = read(doc);
    let cv = obs
        .iter()
        .find(|o| o.benchmark == "ops/s" && o.variant == "patched" && o.stat == Stat::Cv)
        .unwrap();
    assert_eq!((cv.value, cv.unit.as_str()), (2.0, "%"));
}

#[test]
fn caret_marks_give_units_to_the_values_above() {
    let doc = "run: 1 min:  0.15 max:12069.42 avg:2193.81\nrun: 2 min:  0.46 max:12077.31 avg:2248.56\n                       ^^^^^usecs   ^^^^^usecs\n";
    let obs = read(doc);
    let units: Vec<(&str, &str)> = obs
        .iter()
        .map(|o| (o.metric.as_str(), o.unit.as_str()))
        .collect();
    assert!(
        units.contains(&("max", "us")) && units.contains(&("avg", "us")),
        "{units:?}"
    );
    // `min` shares the unit of its siblings `max` and `avg`.
    assert!(units.contains(&("min", "us")), "{units:?}");
}

#[test]
fn prose_dates_ids_urls_and_versions_give_no_rows() {
    let doc = "Date:\tWed, 10 Jan 2007 12:47:21 +0100\nMessage-ID: <45A4D249.8080904@example.net>\n\nTested on 2.6.20-rc4 and 3.12.0, details at https://example.org/a/2013/11/26.\nThe box has 12 CPUs and 64 GB of memory; it took 5 minutes.\nCPU family: 6\nModel: 106\nCONFIG_HZ=250\nCONFIG_NR_CPUS=64\n  Last update: 2013-11-26 22:41    [W:0.078 / U:0.224 seconds]\n";
    assert_eq!(read(doc), vec![]);
    assert_eq!(Document.detect(&Source::from_text("p.txt", doc)), 0);
}

#[test]
fn detection_prefers_mail_and_mixed_documents() {
    let table = "              base     patched\nmake          33.9     34.9\nhackbench     2.99     3.74\n";
    assert_eq!(Document.detect(&Source::from_text("t.txt", table)), 30);
    let mail = format!("Subject: numbers\n\n> {}", table.replace('\n', "\n> "));
    assert_eq!(Document.detect(&Source::from_text("m.txt", &mail)), 45);
    let mixed = format!("{table}\nmake\n\nreal 0m1.5s\nuser 0m1.0s\nsys 0m0.2s\n");
    assert_eq!(Document.detect(&Source::from_text("x.txt", &mixed)), 95);
    assert_eq!(
        Document.detect(&Source::from_text("j.json", "{\"a\": 1}")),
        0
    );
}

#[test]
fn ragged_boxed_row_is_an_error_with_its_line() {
    let doc = "+---+---+---+\n| threads | base | patched |\n+---+---+---+\n| 512 | 1.0 | 2.0 |\n| 256 | 1.0 |\n";
    let err = Document
        .parse(&Source::from_text("t.txt", doc))
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("t.txt:5:"), "{err}");
}

#[test]
fn text_cells_are_skipped_not_invented() {
    let doc = "| bench | base | patched |\n|-------|------|---------|\n| a | 1.0 ms | FAIL |\n| b | 2.0 ms | 2.5 ms |\n";
    let obs = read(doc);
    assert_eq!(obs.len(), 3);
    assert!(obs.iter().all(|o| o.unit == "ms" && o.metric == "time"));
    assert!(!obs
        .iter()
        .any(|o| o.benchmark == "a" && o.variant == "patched"));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]

    #[test]
    fn random_text_never_panics(text in "(?s).{0,400}") {
        let src = Source::from_text("r.txt", &text);
        let _ = Document.detect(&src);
        let _ = Document.parse(&src);
    }

    #[test]
    fn table_like_noise_never_panics(
        lines in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::strategy::Just("+----+----+".to_string()),
                "\\| ?[a-z0-9.+%\\[\\] ]{0,8} ?\\|( ?[a-z0-9.+%\\[\\] ]{0,8} ?\\|){0,4}",
                "[ >\\t]{0,4}[a-z]{0,6}[ \\t]{0,4}[0-9.+%±/ -]{0,12}[ \\t]{2,4}[0-9.]{0,6}",
                "[a-z/ .]{0,8}:[ ]{0,2}[0-9.]{0,6}(us|%|s|ms)?",
                "(real|user|sys)\\t[0-9]m[0-9.]{0,6}s",
                "[ ^]{0,10}[a-z]{0,5}",
                ".{0,30}",
            ],
            0..30,
        )
    ) {
        let src = Source::from_text("r.txt", &lines.join("\n"));
        let full = Document.detect(&src);
        for best in [19, 44, 45, 46, 94, 95] {
            let quick = Document.detect_to_beat(&src, best);
            proptest::prop_assert!(
                quick == full || (quick <= best && full <= best),
                "best {best}: detect {full}, detect_to_beat {quick}"
            );
        }
        if let Ok(obs) = Document.parse(&src) {
            for o in obs {
                proptest::prop_assert!(o.value.is_finite());
                proptest::prop_assert!(o.line >= 1);
            }
        }
    }
}

#[test]
fn header_over_two_lines() {
    let doc = "hackbench\n\n                 vanilla          patched\n         threads     mean    sd     mean    sd\n              8     1.20  0.10     1.50  0.20\n             16     2.40  0.30     2.10  0.10\n";
    let obs = read(doc);
    let m = obs
        .iter()
        .find(|o| o.params == "threads=16" && o.variant == "patched" && o.stat == Stat::Mean)
        .unwrap();
    assert_eq!(
        (m.value, m.benchmark.as_str(), m.line),
        (2.10, "hackbench", 6)
    );
    let sd = obs
        .iter()
        .find(|o| o.params == "threads=8" && o.variant == "vanilla" && o.stat == Stat::Stddev)
        .unwrap();
    assert_eq!(sd.value, 0.10);
    assert_eq!(obs.len(), 8);
}

#[test]
fn tables_under_running_prose_are_numbered() {
    let prose = "Some long explanation of what was run and why it matters here. It goes\non for a while, with details nobody would call a heading, and then\nit ends.\n\n";
    let table = "+---+---+---+\n| threads | base | patched |\n+---+---+---+\n| 8 | 1.0 | 2.0 |\n+---+---+---+\n\n";
    let obs = read(&format!("{prose}{table}{prose}{table}"));
    let names: Vec<&str> = obs.iter().map(|o| o.benchmark.as_str()).collect();
    assert_eq!(names, ["table 1", "table 1", "table 2", "table 2"]);
    // Nor does prose name a variant.
    let doc = format!("{prose}make:\nreal 0m1.5s\n");
    assert_eq!(read(&doc)[0].variant, "");
}

#[test]
fn summary_lines_in_the_paragraph_of_their_samples() {
    let doc =
        "hackbench 50\n\nTime: 2.978\nTime: 2.982\navg : 2.98\nstd. dev. : 0.01\n\nTime: 3.7\n";
    let obs = read(doc);
    let stated: Vec<(Stat, f64, &str)> = obs
        .iter()
        .filter(|o| o.stat != Stat::Sample)
        .map(|o| (o.stat, o.value, o.metric.as_str()))
        .collect();
    assert_eq!(
        stated,
        vec![(Stat::Mean, 2.98, "time"), (Stat::Stddev, 0.01, "time")]
    );
    assert!(obs.iter().all(|o| o.benchmark == "hackbench 50"));
}

#[test]
fn tab_separated_table_with_units_in_the_header() {
    let doc = "sched latency\nthreads\tvanilla (µs)\tpatched (µs)\n512\t4.2\t12.3\n256\t2.7\t7.0\n";
    let obs = read(doc);
    assert_eq!(obs.len(), 4);
    let o = obs
        .iter()
        .find(|o| o.params == "threads=256" && o.variant == "patched")
        .unwrap();
    assert_eq!(
        (
            o.value,
            o.unit.as_str(),
            o.metric.as_str(),
            o.benchmark.as_str(),
            o.stat
        ),
        (7.0, "us", "time", "sched latency", Stat::Sample)
    );
}

#[test]
fn captioned_boxed_tables_name_every_value() {
    // The layout of the generated document benchmark: a caption, then a
    // boxed table of a parameter, two variants and their spreads.
    let doc = "Results on machine 0 of the test rack:\n\n\
+---------+--------------------+--------+-------------------+--------+\n\
| threads | baseline time (ms) | stddev | patched time (ms) | stddev |\n\
+---------+--------------------+--------+-------------------+--------+\n\
| 512 | 5.1803 | 0.5180 | 4.8032 | 0.4803 |\n\
| 32 | 0.3284 | 0.0328 | -0.3063 | .0306 |\n\
+---------+--------------------+--------+-------------------+--------+\n\n\
Results on machine 1 of the test rack:\n\n\
+------+---------+-------------------+\n\
| bs | threads | patched time (ms) |\n\
+------+---------+-------------------+\n\
| 4k | 8 | 12 |\n\
+------+---------+-------------------+\n";
    let obs = read(doc);
    assert_eq!(obs.len(), 9);
    let o = &obs[0];
    assert_eq!(
        (
            o.benchmark.as_str(),
            o.params.as_str(),
            o.variant.as_str(),
            o.metric.as_str(),
            o.unit.as_str(),
            o.stat,
            o.value,
            o.line
        ),
        (
            "Results on machine 0 of the test rack",
            "threads=512",
            "baseline",
            "time",
            "ms",
            Stat::Mean,
            5.1803,
            6
        )
    );
    assert_eq!((obs[1].stat, obs[1].value), (Stat::Stddev, 0.5180));
    assert_eq!((obs[2].variant.as_str(), obs[2].value), ("patched", 4.8032));
    assert_eq!(
        (obs[6].params.as_str(), obs[6].value, obs[7].value),
        ("threads=32", -0.3063, 0.0306)
    );
    // Two parameters are sorted by name; a table with no spread column
    // holds samples.
    assert_eq!(
        (
            obs[8].benchmark.as_str(),
            obs[8].params.as_str(),
            obs[8].stat,
            obs[8].value
        ),
        (
            "Results on machine 1 of the test rack",
            "bs=4k,threads=8",
            Stat::Sample,
            12.0
        )
    );
    assert!(obs.iter().all(|o| o.source == "doc.txt"));
}

#[test]
fn detection_reads_past_the_point_where_it_is_decided() {
    let detect = |text: &str| Document.detect(&Source::from_text("doc.txt", text));
    let table = "+----+----+\n| a | b |\n+----+----+\n| 1 | 2 |\n+----+----+\n";
    assert_eq!(detect(table), 40);
    // Sample lines after the table make it this format's own kind …
    let with_samples = format!("{table}\nTime: 1.5\nsome prose\n");
    assert_eq!(detect(&with_samples), 95);
    // … but kernel config lines anywhere later still rule it out.
    let config = format!("{with_samples}CONFIG_A=y\nCONFIG_B=y\n# CONFIG_C is not set\n");
    assert_eq!(detect(&config), 0);
    // Column rows after a boxed table do not change its level.
    let rows = format!("{table}\nfoo   1.0   2.0\nbar   3.0   4.0\n");
    assert_eq!(detect(&rows), 40);
}

/// Detection as it was before repeated prose lines were remembered.
fn detect_without_memo(src: &Source) -> Confidence {
    if src.looks_like_json() {
        return 0;
    }
    let mut rows = 0;
    let mut boxed = false;
    let mut samples = 0;
    let mut quoted = false;
    let mut mail = false;
    for l in &src.lines {
        quoted |= l.quote_depth > 0;
        mail = mail || super::is_mail_line(&l.text);
        // Most lines of a large boxed document are rows: recognised
        // without splitting their cells.
        if super::lines::is_box_row(crate::ingest::shared::text::trim(&l.text)) {
            boxed = true;
            continue;
        }
        // A table with sample lines decides the answer (but for the
        // CONFIG_ count below): nothing more to learn from the lines.
        if (boxed || rows >= 2) && samples > 0 {
            continue;
        }
        // Once a table is certain, further rows change nothing below,
        // and only a sample line can: one needs a `:` or `=` (pairs) or
        // starts with `real`, `user` or `sys` (a `time` line).
        let kind = if boxed || rows >= 2 {
            let t = l.text.trim_start();
            if memchr::memchr2(b':', b'=', l.text.as_bytes()).is_none()
                && !["real", "user", "sys"].iter().any(|w| t.starts_with(w))
            {
                continue;
            }
            super::lines::classify_without_rows(&l.text)
        } else {
            super::lines::classify_for_detection(&l.text)
        };
        match kind {
            Kind::BoxRow(_) => boxed = true,
            Kind::Row(_) => rows += 1,
            ref k if super::is_sample(k) => samples += 1,
            _ => {}
        }
    }
    super::grid_only(
        src,
        super::Evidence {
            rows,
            boxed,
            samples,
            quoted,
            mail,
        }
        .score(src),
    )
}

#[test]
fn detection_gives_the_score_it_gave_without_the_prose_memo() {
    assert!(crate::ingest::assert_detection_agrees(&Document, detect_without_memo) > 0);
    let table = "+----+----+\n| a | b |\n+----+----+\n| 1 | 2 |\n+----+----+\n";
    for text in [
        format!("{table}\nResults: of the rack\nResults: of the rack\nTime: 1.5\n"),
        format!("{table}\nnote: x\n{table}\nnote: x\nreal 0m1.5s\n"),
        format!("note: x\n{table}\nnote: x\n"),
    ] {
        let src = Source::from_text("doc.txt", &text);
        assert_eq!(Document.detect(&src), detect_without_memo(&src), "{text:?}");
    }
}

/// The quick answer keeps [`Format::detect_to_beat`]'s contract on every
/// bundled file: the full score wherever it beats `best`.
#[test]
fn detect_to_beat_keeps_the_score_wherever_it_wins() {
    fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                files(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let mut paths = Vec::new();
    files(std::path::Path::new("tests/data"), &mut paths);
    files(std::path::Path::new("data"), &mut paths);
    let (mut settled_quickly, mut read) = (0, 0);
    for path in &paths {
        let Ok(src) = Source::read(path) else {
            continue;
        };
        read += 1;
        let full = Document.detect(&src);
        for best in [19, 30, 44, 45, 46, 90, 94, 95, 100] {
            let quick = Document.detect_to_beat(&src, best);
            assert!(
                quick == full || (quick <= best && full <= best),
                "{}: best {best}: detect {full}, detect_to_beat {quick}",
                path.display()
            );
            settled_quickly += usize::from(quick != full);
        }
    }
    // The files include harness logs without sample lines (the case the
    // quick answer exists for) as well as tables with them.
    assert!(read > 300, "{read} files read");
    assert!(settled_quickly > 100, "{settled_quickly} settled quickly");
}

#[test]
fn a_load_generator_s_record_lines_in_a_reply_are_samples_per_side() {
    // t/io_uring's once-a-second lines, quoted in a review: commas between
    // the items, a ratio and a parenthesised pair among the values.
    let doc = "Before:\n\n\
               > IOPS=254820, BW=124MiB/s, IOS/call=1/1, inflight=(1 1)\n\
               > IOPS=251174, BW=122MiB/s, IOS/call=1/1, inflight=(1 1)\n\n\
               After:\n\n\
               > IOPS=255972, BW=124MiB/s, IOS/call=1/1, inflight=(1 1)\n\
               > IOPS=251920, BW=123MiB/s, IOS/call=1/1, inflight=(1 1)\n";
    let obs = read(doc);
    let iops: Vec<(f64, &str)> = find(&obs, "Before", "iops", Stat::Sample)
        .iter()
        .map(|o| (o.value, o.unit.as_str()))
        .collect();
    assert_eq!(iops, vec![(254820.0, ""), (251174.0, "")]);
    let bw: Vec<f64> = find(&obs, "After", "bw", Stat::Sample)
        .iter()
        .map(|o| o.value)
        .collect();
    assert_eq!(bw, vec![124.0, 123.0]);
    assert!(obs.iter().all(|o| o.unit != "MiB/s" || o.metric == "bw"));
    // The ratio and the pair are no values: 8 rows, none of them a 1.
    assert_eq!(obs.len(), 8, "{obs:#?}");
    assert!(obs.iter().all(|o| o.value != 1.0));
}

#[test]
fn kernel_options_and_command_lines_are_no_record_lines() {
    for l in [
        "CONFIG_HZ=250, CONFIG_NR_CPUS=64",
        "BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro quiet",
        "isolcpus=1-3 nohz_full=1-3",
    ] {
        assert!(!matches!(super::lines::classify(l), Kind::Pairs(_)), "{l}");
    }
}

#[test]
fn a_key_column_repeated_per_run_and_an_average_row_under_it() {
    // A tab grid: the iteration numbers start again for each run, and an
    // `Average` row holds a word where the rows hold their key.
    let doc = "Times in seconds.\n\nIteration\tBaseline\tPatched\n2\t2.03\t2.04\n3\t2.05\t2.06\n2\t2.13\t2.14\n3\t2.15\t2.16\nAverage\t2.09\t2.1\n";
    let obs = read(doc);
    assert_eq!(obs.len(), 10);
    // (The driver numbers the runs of each iteration.)
    let base: Vec<(&str, f64)> = obs
        .iter()
        .filter(|o| o.variant == "Baseline" && o.benchmark != "Average")
        .map(|o| (o.params.as_str(), o.value))
        .collect();
    assert_eq!(
        base,
        [
            ("iteration=2", 2.03),
            ("iteration=3", 2.05),
            ("iteration=2", 2.13),
            ("iteration=3", 2.15),
        ]
    );
    let avg: Vec<f64> = obs
        .iter()
        .filter(|o| o.benchmark == "Average")
        .map(|o| o.value)
        .collect();
    assert_eq!(avg, [2.09, 2.1]);
    // A first column that is no series (3, 1, 2) stays a value column.
    let doc = "Times.\n\nN\tBaseline\tPatched\n3\t2.03\t2.04\n1\t2.05\t2.06\n2\t2.13\t2.14\n";
    assert!(read(doc).iter().all(|o| o.params.is_empty()));
}

#[test]
fn a_build_named_above_a_banner_still_names_the_rows() {
    // The build's heading, then a line the harness printed, then the rows:
    // the heading two lines up names the rows' variant.
    let doc = "Two filesystems were filled by the same job, once on each kernel.\n\n\
               - clean fs, baseline:\n\nRun took 3536 seconds\n\
               closefile1           39939      11\nfsync1               39944      11\n\n\
               - clean fs, patched:\n\nRun took 3539 seconds\n\
               closefile1           39942      11\nfsync1               39945      11\n";
    let obs = read(doc);
    let of = |v: &str| {
        obs.iter()
            .filter(|o| o.variant == v && o.benchmark.ends_with("fsync1"))
            .map(|o| o.value)
            .collect::<Vec<_>>()
    };
    assert_eq!(of("clean fs, baseline"), [39944.0, 11.0]);
    assert_eq!(of("clean fs, patched"), [39945.0, 11.0]);
}

#[test]
fn one_cell_rows_of_a_pipe_table_name_the_groups_below_them() {
    let doc = "|       | MIN   | MEAN  |\n|:------|:------|:------|\n| fork_8\n| BASE  | 1,200 | 1,250 |\n\
               | TEST  | 1,300 | 1,340 |\n| **exec_8** |\n| BASE  | 900   | 910   |\n| TEST  | 950   | 960   |\n";
    let obs = read(doc);
    let got: Vec<(&str, &str, Stat, f64)> = obs
        .iter()
        .map(|o| (o.benchmark.as_str(), o.variant.as_str(), o.stat, o.value))
        .collect();
    assert_eq!(
        got,
        [
            ("fork_8", "BASE", Stat::Min, 1200.0),
            ("fork_8", "BASE", Stat::Mean, 1250.0),
            ("fork_8", "TEST", Stat::Min, 1300.0),
            ("fork_8", "TEST", Stat::Mean, 1340.0),
            ("exec_8", "BASE", Stat::Min, 900.0),
            ("exec_8", "BASE", Stat::Mean, 910.0),
            ("exec_8", "TEST", Stat::Min, 950.0),
            ("exec_8", "TEST", Stat::Mean, 960.0),
        ]
    );
}

#[test]
fn a_sign_off_right_under_a_table_names_none_of_its_rows() {
    // The rules take the sentence above as the table's name and find no
    // column for its header; the grid reader then reads the rows, and the
    // `Thanks` pending below them must not head them.
    let doc = "Subject: x\n\nResults below, base vs patched (usec, lower is better):\n\n\
               test                               base        patched\n\
               ------------------------ -------------- --------------\n\
               case-0                          100.134        101.847\n\
               case-1                          100.764        101.255\n\
               Thanks\n";
    let obs = read(doc);
    assert_eq!(obs.len(), 4, "{obs:?}");
    assert!(
        obs.iter().all(|o| !o.benchmark.contains("Thanks")),
        "{obs:?}"
    );
    let patched: Vec<f64> = obs
        .iter()
        .filter(|o| o.variant == "patched")
        .map(|o| o.value)
        .collect();
    assert_eq!(patched, [101.847, 101.255]);
}

#[test]
fn sibling_headings_name_the_builds_of_numbered_columns() {
    // Two headings over the same row labels name builds; the nameless
    // columns under them are told apart by their numbers.
    let obs = read(
        "Some prose that introduces the two runs of the test, one per setting, for the reader.\n\n\
         xfs:\nPage Ins      720433    392017\nPage Outs   27746435  27673017\n\n\
         ext3:\nPage Ins      620433    292017\nPage Outs   17746435  17673017\n",
    );
    let names = |v: f64| {
        let o = obs.iter().find(|o| o.value == v).unwrap();
        (
            o.benchmark.to_string(),
            o.variant.to_string(),
            o.metric.to_string(),
        )
    };
    assert_eq!(
        names(392017.0),
        ("Page Ins".into(), "xfs".into(), "column 2".into())
    );
    assert_eq!(
        names(17746435.0),
        ("Page Outs".into(), "ext3".into(), "column 1".into())
    );
}

#[test]
fn a_build_heading_over_columns_that_name_builds_names_them_too() {
    // `BASELINE` is a build word, so the columns name variants; the
    // heading above says which kernel all three were measured on.
    let doc = "Runs of the suite on one machine, before and after the patch.\n\n\
               Before using the patch:\n\
               System Benchmarks Index Values               BASELINE       RESULT    INDEX\n\
               Execl Throughput                                 43.0      43453.2  10105.4\n\
               Pipe Throughput                               12440.0   46482107.6  37365.0\n\n\
               After using the patch:\n\
               System Benchmarks Index Values               BASELINE       RESULT    INDEX\n\
               Execl Throughput                                 43.0      43497.5  10115.7\n\
               Pipe Throughput                               12440.0   46490222.6  37371.5\n";
    let obs = read(doc);
    let variant = |v: f64| {
        obs.iter()
            .find(|o| o.value == v)
            .unwrap()
            .variant
            .to_string()
    };
    assert_eq!(variant(43453.2), "Before using the patch RESULT");
    assert_eq!(variant(43497.5), "After using the patch RESULT");
}

#[test]
fn counters_in_kb_are_read_beside_unitless_ones() {
    // A debugfs stats file quoted in a 2024 reply: meminfo's `kB` spelling
    // was no unit, so those lines were dropped and only the bare counters
    // read.
    let doc = "A reply with the device's writeback stats before the patch, as the submitter pasted them into the mail.\n\n\
without patch:\n---\n\
BdiWriteback:                0 kB\n\
BdiReclaimable:             96 kB\n\
BdiDirtyThresh:        1346824 kB\n\
BdiWriteBandwidth:           0 kBps\n\
b_dirty:                     0\n\
state:                       1\n";
    let obs = read(doc);
    let thresh: Vec<(f64, &str)> = obs
        .iter()
        .filter(|o| o.metric.eq_ignore_ascii_case("BdiDirtyThresh"))
        .map(|o| (o.value, o.unit.as_str()))
        .collect();
    assert_eq!(thresh, [(1346824.0, "kB")]);
    assert!(obs
        .iter()
        .any(|o| o.metric.eq_ignore_ascii_case("BdiReclaimable") && o.value == 96.0));
    let bw: Vec<&str> = obs
        .iter()
        .filter(|o| o.metric.eq_ignore_ascii_case("BdiWriteBandwidth"))
        .map(|o| o.unit.as_str())
        .collect();
    assert_eq!(bw, ["kB/s"]);
}

/// The first 3,000 lines of sysstat's expected `sadf -p` output: one
/// paragraph of text lines to the grid reader, whose build-naming section
/// was looked up through all the lines above each line (98 s for the whole
/// 5,500-line file in a debug build, 2 s since). Speed is measured in
/// benches, not here: this keeps the paragraph read.
#[test]
fn a_long_paragraph_of_value_lines_is_read() {
    let text = include_str!("../../../../tests/data/harness/sysstat/sadf-p-3000-lines.txt");
    let rows = read(text);
    assert!(!rows.is_empty());
}

/// Lines of a part-q post (dm bio polling): among lines of changes
/// (`per-task: 674 -> 849`), the baseline measured on the first side only
/// (`5.12-rc1: 667`) is a row of its own, not an attribute.
#[test]
fn a_lone_value_among_changes_is_the_first_side_of_its_row() {
    let obs = read(
        "3-threads  dm-linear-3 targets (4k randread IOPS, unit K)\n\
         5.12-rc1: 667\n\
         per-task: 674 -> 849\n\
         ours 8353c1a: 623 -> 811\n",
    );
    let base = obs.iter().find(|o| o.value == 667.0).expect("667 read");
    assert_eq!(base.metric, "5.12-rc1");
    let side = obs.iter().find(|o| o.value == 674.0).unwrap();
    assert_eq!(base.variant, side.variant);
    // Without changes around it, a lone pair stays an attribute.
    assert!(read("Machine\nCPU family: 6\nmodel: 85\n\nrun  1.5  2.5\n")
        .iter()
        .all(|o| o.value != 6.0 && o.value != 85.0));
}
