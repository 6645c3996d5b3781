//! Inputs that once crashed patchperf, lost values without a word, or gave
//! a wrong verdict (`tests/data/reliability/`, one per finding of a
//! reliability sweep), each held to what it must do now.

use assert_cmd::Command;
use std::path::Path;

const DIR: &str = "tests/data/reliability";

fn patchperf() -> Command {
    let mut c = Command::cargo_bin("patchperf").unwrap();
    c.current_dir(DIR);
    c
}

/// `ingest FILE --out -`: (exit code, stdout, stderr).
fn ingest(file: &str) -> (i32, String, String) {
    let o = patchperf()
        .args(["ingest", file, "--out", "-"])
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The `value` column of an `ingest --out -` table.
fn values(csv: &str) -> Vec<String> {
    csv.lines()
        .skip(1)
        .map(|l| l.rsplit(',').nth(1).unwrap_or_default().to_string())
        .collect()
}

fn compare_json(args: &[&str]) -> (i32, serde_json::Value) {
    let o = patchperf()
        .arg("compare")
        .args(args)
        .args(["--json", "-"])
        .output()
        .unwrap();
    let code = o.status.code().unwrap_or(-1);
    let json = serde_json::from_slice(&o.stdout).unwrap_or(serde_json::Value::Null);
    (code, json)
}

#[test]
fn summaries_near_1e200_are_tested_not_a_panic() {
    let (code, j) = compare_json(&["email_huge_pm.txt", "--assume-n", "10"]);
    assert_eq!(code, 0);
    let c = &j["comparisons"][0];
    assert_eq!(c["test"], "welch-summary");
    assert_eq!(c["verdict"], "regressed");
    assert!(
        (c["change_pct"].as_f64().unwrap() - 50.0).abs() < 1e-9,
        "{c}"
    );
    let out = tempfile::tempdir().unwrap();
    patchperf()
        .args([
            "report",
            "study_huge_pm.toml",
            "--formats",
            "md,json",
            "--out",
        ])
        .arg(out.path().join("r"))
        .assert()
        .success();
}

#[test]
fn a_rise_from_negative_values_is_a_regression_and_trips_the_gate() {
    let (code, j) = compare_json(&["neg_base.csv", "neg_patch.csv", "--fail-on-regression"]);
    assert_eq!(code, 1, "the gate trips");
    let c = &j["comparisons"][0];
    assert_eq!(c["direction"], "lower");
    assert_eq!(c["verdict"], "regressed");
    let change = c["change_pct"].as_f64().unwrap();
    let (lo, hi) = (
        c["ci_low_pct"].as_f64().unwrap(),
        c["ci_high_pct"].as_f64().unwrap(),
    );
    // From a median of -1.5 to 1.6: +3.1 on a magnitude of 1.5.
    assert!((change - 3.1 / 1.5 * 100.0).abs() < 1e-9, "{change}");
    assert!(
        lo > 0.0 && lo <= change && change <= hi,
        "[{lo}, {hi}] around {change}"
    );
    assert!(terminal(&["neg_base.csv", "neg_patch.csv"]).contains("relative to its magnitude"));
}

/// What `compare ARGS` prints on the terminal (notes are footnotes there).
fn terminal(args: &[&str]) -> String {
    let o = patchperf().arg("compare").args(args).output().unwrap();
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn a_line_ending_in_cr_cr_lf_is_read_like_any_other() {
    let (code, out, err) = ingest("go_crcrlf.txt");
    assert_eq!(code, 0, "{err}");
    assert_eq!(values(&out), ["100.0", "110.0", "120.0"]);
    let (_, out, _) = ingest("hackbench_crcrlf_drop.txt");
    assert_eq!(values(&out).len(), 10, "ten runs, ten rows");
    // The histogram with `\r\r\n` endings gives the values of the clean one.
    let (_, clean, _) = ingest("hist_orig.hist");
    let (_, crlf, _) = ingest("hist_crcrlf.hist");
    assert_eq!(values(&clean), values(&crlf));
    assert!(values(&clean).contains(&"78.0".to_string()), "{clean}");
}

#[test]
fn one_bad_byte_in_a_mail_leaves_its_utf8_tables_whole() {
    for f in ["email_latin1_name.txt", "email_ff_byte.txt"] {
        let (code, out, err) = ingest(f);
        assert_eq!(code, 0, "{f}: {err}");
        assert_eq!(values(&out).len(), 40, "{f}: {err}");
        assert!(
            out.lines().filter(|l| l.contains(",stddev,")).count() >= 10,
            "{f}"
        );
    }
}

#[test]
fn control_characters_in_names_never_reach_an_output() {
    let o = patchperf()
        .args(["compare", "esc_base.json", "esc_patch.json"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(!o.stdout.contains(&0x1b) && !o.stderr.contains(&0x1b));
    assert!(String::from_utf8_lossy(&o.stdout).contains("make -j8\\x1b[8m"));
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("esc");
    patchperf()
        .args(["report", "study_esc.toml", "--out"])
        .arg(&dir)
        .assert()
        .success();
    for f in ["report.html", "report.md", "report.txt", "report.json"] {
        let text = std::fs::read_to_string(dir.join(f)).unwrap();
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{202e}'),
            "{f}"
        );
    }
    assert!(dir.join("report.pdf").is_file(), "the PDF is written too");
}

#[test]
fn a_table_written_as_csv_reads_back_whole() {
    let out = tempfile::tempdir().unwrap();
    let csv = out.path().join("r.csv");
    patchperf()
        .args(["ingest", "roundtrip_newline_cmd.json", "--out"])
        .arg(&csv)
        .assert()
        .success();
    let (code, back, err) = ingest(csv.to_str().unwrap());
    assert_eq!(code, 0, "{err}");
    let (_, direct, _) = ingest("roundtrip_newline_cmd.json");
    assert_eq!(values(&back), values(&direct));
    assert_eq!(values(&back).len(), 192);
}

#[test]
fn tables_show_no_nan_or_inf() {
    let out = tempfile::tempdir().unwrap();
    let (txt, md) = (out.path().join("r.txt"), out.path().join("r.md"));
    patchperf()
        .args(["compare", "huge_base.csv", "huge_patch.csv", "--txt"])
        .arg(&txt)
        .arg("--md")
        .arg(&md)
        .assert()
        .success();
    for f in [txt, md] {
        let text = std::fs::read_to_string(&f).unwrap();
        for bad in ["NaN", "inf%", " inf ", "infx"] {
            assert!(!text.contains(bad), "{}: {bad}", f.display());
        }
    }
}

/// A tidy table of one benchmark: `(variant, stat, value)` rows.
fn tidy(dir: &Path, name: &str, rows: &[(&str, &str, f64)]) -> String {
    let mut s = String::from("benchmark,variant,metric,unit,stat,value\n");
    for (v, stat, x) in rows {
        s.push_str(&format!("b,{v},time,s,{stat},{x}\n"));
    }
    let p = dir.join(name);
    std::fs::write(&p, s).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn implausible_stated_summaries_are_refused_with_their_line() {
    let dir = tempfile::tempdir().unwrap();
    for (stat, value, says) in [
        ("n", -3.0, "not a number of runs"),
        ("n", 2.5, "not a number of runs"),
        ("n", 1e20, "beyond any number of runs"),
        ("stddev", -0.1, "negative"),
    ] {
        let f = tidy(
            dir.path(),
            "t.csv",
            &[
                ("base", "mean", 1.0),
                ("base", "stddev", 0.1),
                ("base", "n", 5.0),
                ("new", "mean", 1.1),
                ("new", "stddev", 0.1),
                ("new", stat, value),
            ],
        );
        let o = patchperf().args(["compare", &f]).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{stat} = {value}: {err}");
        assert!(err.contains(says) && err.contains("t.csv:7"), "{err}");
    }
}

#[test]
fn a_zero_baseline_says_why_it_has_no_change() {
    let dir = tempfile::tempdir().unwrap();
    let f = tidy(
        dir.path(),
        "z.csv",
        &[
            ("base", "sample", 0.0),
            ("base", "sample", 0.0),
            ("base", "sample", 0.0),
            ("new", "sample", 1.0),
            ("new", "sample", 2.0),
            ("new", "sample", 1.5),
        ],
    );
    let (_, j) = compare_json(&[&f]);
    let c = &j["comparisons"][0];
    assert!(c["change_pct"].is_null(), "{c}");
    let text = terminal(&[&f]);
    assert!(text.contains("the baseline's centre is 0"), "{text}");
}

#[test]
fn a_run_line_of_nan_values_is_accounted_never_a_label() {
    for (f, line) in [("kv_nan_mid.txt", "2"), ("kv_nan_first.txt", "1")] {
        let (code, out, err) = ingest(f);
        assert_eq!(code, 0, "{err}");
        assert_eq!(values(&out).len(), 9, "three runs of three values");
        assert!(
            !out.contains("=nan"),
            "{f}: no name made of the nan line\n{out}"
        );
        assert!(
            err.contains(&format!("{line}: values that are not numbers")),
            "{err}"
        );
        // One file, one variant: nothing to compare, and nothing invented.
        let o = patchperf().args(["compare", f]).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{f}");
    }
}

#[test]
fn a_mail_can_be_piped_in() {
    let mail = std::fs::read(Path::new(DIR).join("email_latin1_name.txt")).unwrap();
    let o = patchperf()
        .args(["ingest", "-", "--out", "-"])
        .write_stdin(mail.clone())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let csv = String::from_utf8_lossy(&o.stdout);
    assert_eq!(values(&csv).len(), 40);
    // The temporary file stdin is kept in is never shown: rows and the
    // account name it `<stdin>`.
    assert!(
        csv.lines().skip(1).all(|l| l.starts_with("<stdin>,")),
        "{csv}"
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("<stdin>: format") && !err.contains("tmp"),
        "{err}"
    );
    let o = patchperf()
        .args(["ingest", "-"])
        .write_stdin(b"\x00\x01binary".to_vec())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("<stdin>") && !err.contains("tmp"), "{err}");
    let o = patchperf()
        .args(["compare", "-", "--json", "-"])
        .write_stdin(mail)
        .output()
        .unwrap();
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(!j["comparisons"].as_array().unwrap().is_empty(), "{j}");
    let o = patchperf().args(["ingest", "-", "-"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "`-` twice is a usage error");
}

#[test]
fn a_variant_whose_file_gives_nothing_is_named_in_the_error() {
    // A hackbench log whose numbers a mutation emptied: `compare` and a
    // study whose baseline it is name that file, not only the variant.
    let o = patchperf()
        .args(["compare", "hackbench_base.txt", "hackbench_no_values.txt"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("only one variant"), "{err}");
    assert!(err.contains("hackbench_no_values.txt: "), "{err}");
    let out = tempfile::tempdir().unwrap();
    let o = patchperf()
        .args([
            "report",
            "study_unread_baseline.toml",
            "--formats",
            "md",
            "--out",
        ])
        .arg(out.path().join("r"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("study_unread_baseline.toml"), "{err}");
    assert!(err.contains("hackbench_no_values.txt: "), "{err}");
}

#[test]
fn one_line_repeated_gives_the_values_of_every_copy() {
    // 2,000 copies of one line: each copy is a run of a loop over a tool
    // that prints one line (lmbench's bw_mem), and every copy's values
    // are read. Finding the line above each run start is a binary search:
    // at 100,000 copies a scan per start took minutes.
    let (code, out, err) = ingest("one_line_repeated.txt");
    assert_eq!(code, 0, "{err}");
    let v = values(&out);
    assert_eq!(v.len(), 3 * 2000, "{err}");
    assert!(v.chunks(3).all(|c| c == ["1.0", "2.0", "3.0"]), "{out}");
}

#[test]
fn a_long_line_of_a_table_is_read_and_accounted() {
    // A mail's table with one row pasted ~4,000 times on one 200 KB line:
    // the decimal-comma and unclaimed-number passes were quadratic in the
    // numbers of a line (the 1 MB line of the fuzz mutant ran for minutes).
    let (code, out, err) = ingest("long_line_table.txt");
    assert_eq!(code, 0, "{err}");
    // The rest of the table is read; the pasted line is no row of it, and
    // is named as a numeric line not read.
    assert_eq!(values(&out).len(), 516, "{err}");
    assert!(err.contains("not read (lines 1, 5, 6, 84, 143)"), "{err}");
}
