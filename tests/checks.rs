//! End-to-end tests of `patchperf check` and `patchperf snapshot` on real
//! kernel configs (Fedora 36 production/debug, Debian 6.1 generic/rt), real
//! environment captures and hand-made fixtures.

use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

const KC: &str = "tests/data/kconfig";
const ENV: &str = "tests/data/env";

fn patchperf() -> Command {
    let mut c = Command::cargo_bin("patchperf").unwrap();
    c.env("NO_COLOR", "1");
    c
}

/// Runs `check A B --json -` and returns the findings.
fn findings(a: &str, b: &str, extra: &[&str]) -> Vec<Value> {
    let out = patchperf()
        .args(["check", a, b, "--json", "-"])
        .args(extra)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    doc["findings"].as_array().unwrap().clone()
}

fn kc(name: &str) -> String {
    format!("{KC}/{name}")
}

fn field<'a>(f: &'a Value, k: &str) -> &'a str {
    f[k].as_str().unwrap()
}

fn rank(sev: &str) -> u8 {
    match sev {
        "error" => 0,
        "warning" => 1,
        "info" => 2,
        other => panic!("unknown severity {other}"),
    }
}

#[test]
fn fedora_debug_config_raises_errors_for_lock_and_memory_debugging() {
    let f = findings(
        &kc("fedora36-5.17-x86_64.config"),
        &kc("fedora36-5.17-x86_64-debug.config"),
        &[],
    );
    let errors: Vec<&Value> = f
        .iter()
        .filter(|f| field(f, "severity") == "error")
        .collect();
    let titles: Vec<&str> = errors.iter().map(|f| field(f, "title")).collect();
    for opt in [
        "PROVE_LOCKING",
        "DEBUG_LOCK_ALLOC",
        "LOCK_STAT",
        "DEBUG_MUTEXES",
        "DEBUG_SPINLOCK",
        "DEBUG_KMEMLEAK",
        "DEBUG_OBJECTS",
        "DEBUG_ATOMIC_SLEEP",
    ] {
        assert!(
            titles
                .iter()
                .any(|t| t.contains(&format!(" {opt} is on in the patched kernel only"))),
            "no error for {opt}: {titles:#?}"
        );
    }
    let prove = errors
        .iter()
        .find(|f| field(f, "title").contains(" PROVE_LOCKING "))
        .unwrap();
    assert_eq!(field(prove, "code"), "kconfig-debug-differs");
    assert!(field(prove, "evidence")
        .contains("baseline tests/data/kconfig/fedora36-5.17-x86_64.config = not set (line 4890)"));
    assert!(field(prove, "evidence")
        .contains("patched tests/data/kconfig/fedora36-5.17-x86_64-debug.config = y (line 4914)"));
    // Neither side has KASAN or DEBUG_PAGEALLOC on: no finding names them.
    assert!(!f
        .iter()
        .any(|f| field(f, "title").contains("KASAN")
            || field(f, "title").contains("DEBUG_PAGEALLOC")));
    // Ordered by severity, and severe options before moderate ones among errors.
    let ranks: Vec<u8> = f.iter().map(|f| rank(field(f, "severity"))).collect();
    assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{ranks:?}");
    let first_moderate = titles
        .iter()
        .position(|t| t.contains("(moderate cost)"))
        .unwrap();
    let last_severe = titles
        .iter()
        .rposition(|t| t.contains("(severe cost)"))
        .unwrap();
    assert!(last_severe < first_moderate);
    assert_eq!(errors.len(), 21);
    // Driver debug options are summarised as info, never errors or warnings.
    for f in &f {
        let named_ath =
            field(f, "title").contains("ATH_DEBUG") || field(f, "evidence").contains("ATH_DEBUG (");
        if named_ath {
            assert_eq!(field(f, "severity"), "info");
            assert_eq!(field(f, "code"), "kconfig-debug-info");
        }
    }
    let info = f
        .iter()
        .find(|f| field(f, "code") == "kconfig-debug-info")
        .unwrap();
    assert!(field(info, "evidence").contains("ATH_DEBUG (not set → y)"));
    assert!(field(info, "title").starts_with("57 debug, test or production-grade options differ"));
}

#[test]
fn same_config_twice_gives_no_findings() {
    let p = kc("fedora36-5.17-x86_64.config");
    assert!(findings(&p, &p, &[]).is_empty());
    patchperf()
        .args(["check", &p, &p])
        .assert()
        .success()
        .stdout("no findings: nothing suggests the two sides are not comparable\n");
}

#[test]
fn debug_config_on_both_sides_is_one_warning() {
    let p = kc("fedora36-5.17-x86_64-debug.config");
    let f = findings(&p, &p, &[]);
    assert_eq!(f.len(), 1);
    assert_eq!(field(&f[0], "severity"), "warning");
    assert_eq!(field(&f[0], "code"), "kconfig-debug-both");
    assert!(field(&f[0], "title")
        .contains("absolute numbers are not representative of a production kernel"));
    assert!(field(&f[0], "evidence").contains("PROVE_LOCKING (severe)"));
}

#[test]
fn debian_generic_vs_rt_flags_the_preemption_model_only() {
    let f = findings(
        &kc("debian-6.1-amd64.config"),
        &kc("debian-6.1-rt-amd64.config"),
        &[],
    );
    let pre = f
        .iter()
        .find(|f| field(f, "code") == "kconfig-preemption-model")
        .expect("preemption finding");
    assert_eq!(field(pre, "severity"), "error");
    assert_eq!(
        field(pre, "title"),
        "different preemption model: baseline PREEMPT_DYNAMIC, PREEMPT_VOLUNTARY vs patched PREEMPT_LAZY, PREEMPT_RT"
    );
    assert!(field(pre, "evidence").contains("PREEMPT_RT (absent → y)"));
    let errors: Vec<&str> = f
        .iter()
        .filter(|f| field(f, "severity") == "error")
        .map(|f| field(f, "code"))
        .collect();
    assert_eq!(errors, ["kconfig-preemption-model"]);
    assert!(!f
        .iter()
        .any(|f| field(f, "code") == "kconfig-debug-differs"));
}

#[test]
fn fail_on_error_sets_the_exit_code() {
    let (a, b) = (
        kc("debian-6.1-amd64.config"),
        kc("debian-6.1-rt-amd64.config"),
    );
    patchperf().args(["check", &a, &b]).assert().code(0);
    let out = patchperf()
        .args(["check", &a, &b, "--fail-on-error"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("errors (1)\n  ✗ different preemption model"),
        "{text}"
    );
    assert!(!text.contains('\u{1b}'), "colour escapes with NO_COLOR set");
    assert!(text.ends_with("1 error, 2 warnings, 2 info\n"), "{text}");
    // No error → exit 0 even with the flag.
    let p = kc("fedora36-5.17-x86_64.config");
    patchperf()
        .args(["check", &p, &p, "--fail-on-error"])
        .assert()
        .code(0);
}

#[test]
fn renamed_options_are_matched() {
    assert!(findings(&kc("renamed-old.config"), &kc("renamed-new.config"), &[]).is_empty());
    let f = findings(
        &kc("renamed-old.config"),
        &kc("renamed-new-noretpoline.config"),
        &[],
    );
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(field(&f[0], "code"), "kconfig-cpu-mitigations");
    assert_eq!(field(&f[0], "severity"), "warning");
    assert!(field(&f[0], "evidence").contains("MITIGATION_RETPOLINE (y → not set)"));
}

#[test]
fn not_set_equals_absent() {
    assert!(findings(&kc("notset.config"), &kc("absent.config"), &[]).is_empty());
}

#[test]
fn module_versus_built_in() {
    let f = findings(&kc("module.config"), &kc("builtin.config"), &[]);
    assert_eq!(f.len(), 3, "{f:#?}");
    assert_eq!(field(&f[0], "severity"), "error");
    assert!(field(&f[0], "title").contains("LOCK_TORTURE_TEST differs: m vs y"));
    // DMA_API_DEBUG=y on both sides.
    assert_eq!(field(&f[1], "code"), "kconfig-debug-both");
    assert_eq!(
        field(&f[1], "evidence"),
        "On in both configs: DMA_API_DEBUG (moderate)."
    );
    assert_eq!(field(&f[2], "severity"), "info");
    assert!(field(&f[2], "evidence").contains("BTRFS_FS (m → y)"));
}

#[test]
fn malformed_config_is_an_input_error_with_file_and_line() {
    patchperf()
        .args(["check", &kc("malformed.config"), &kc("absent.config")])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "tests/data/kconfig/malformed.config:6: malformed line `CONFIG_KASAN y`",
        ));
}

#[test]
fn junk_and_empty_inputs_are_input_errors() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.config");
    std::fs::write(&junk, [0u8, 159, 146, 150, 10, 1, 2]).unwrap();
    let empty = dir.path().join("empty.config");
    std::fs::write(&empty, "").unwrap();
    let ok = kc("absent.config");
    patchperf()
        .args(["check", junk.to_str().unwrap(), &ok])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("junk.config:1: not a text file"));
    patchperf()
        .args(["check", empty.to_str().unwrap(), &ok])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "empty.config: no kernel config options found",
        ));
    patchperf()
        .args(["check", "no/such.config", &ok])
        .assert()
        .code(2);
}

#[test]
fn rules_file_overrides_the_builtin_table() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("rules.toml");
    std::fs::write(
        &rules,
        "[[option]]\nnames = [\"BTRFS_FS\"]\nclass = \"severe\"\nkind = \"setting\"\nwhy = \"filesystem under test\"\n",
    )
    .unwrap();
    let r = rules.to_str().unwrap();
    let f = findings(&kc("module.config"), &kc("builtin.config"), &["--rules", r]);
    // With only this rule, BTRFS_FS is an error and the lock torture test is merely counted.
    assert_eq!(field(&f[0], "severity"), "error");
    assert_eq!(
        field(&f[0], "title"),
        "setting BTRFS_FS differs: m vs y (severe cost)"
    );
    assert!(f.iter().any(|f| field(f, "severity") == "info"
        && field(f, "evidence").contains("LOCK_TORTURE_TEST (m → y)")));
    std::fs::write(
        &rules,
        "[[option]]\nnames = [\"X\"]\nclass = \"enormous\"\n",
    )
    .unwrap();
    patchperf()
        .args([
            "check",
            &kc("module.config"),
            &kc("builtin.config"),
            "--rules",
            r,
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("rules.toml:3: bad rules file"));
}

#[test]
fn snapshots_differing_only_in_mitigations() {
    let f = findings(
        &format!("{ENV}/snap-base.toml"),
        &format!("{ENV}/snap-mitigations-off.toml"),
        &[],
    );
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(field(&f[0], "code"), "cmdline-param-differs");
    assert_eq!(field(&f[0], "severity"), "warning");
    assert_eq!(
        field(&f[0], "title"),
        "boot parameter mitigations differs: baseline mitigations=auto,no_guest_host,no_guest_guest, patched mitigations=off"
    );
}

#[test]
fn folders_of_loose_captures() {
    let f = findings(&format!("{ENV}/vm-base"), &format!("{ENV}/vm-patched"), &[]);
    let got: Vec<(&str, &str)> = f
        .iter()
        .map(|f| (field(f, "severity"), field(f, "code")))
        .collect();
    assert_eq!(
        got,
        [
            ("warning", "cmdline-param-differs"),
            ("warning", "cmdline-param-differs"),
            ("warning", "env-taint-differs"),
            ("warning", "env-taint-suspect"),
            ("warning", "env-smt-active"),
            ("warning", "env-compiler"),
            ("info", "env-other-differs"),
            ("info", "env-one-side"),
        ]
    );
    assert!(field(&f[1], "title").contains("nosmt"));
    assert!(field(&f[2], "evidence")
        .contains("patched 4608 = W (kernel issued a warning), O (out-of-tree module loaded)"));
    assert_eq!(
        field(&f[5], "title"),
        "kernel compiler differs: baseline gcc (GCC) 15.3.0, patched gcc (GCC) 14.2.1"
    );
    // The same folder twice: nothing.
    assert!(findings(&format!("{ENV}/vm-base"), &format!("{ENV}/vm-base"), &[]).is_empty());
}

#[test]
fn json_to_a_file_and_text_to_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("f.json");
    let o = out.to_str().unwrap();
    let text = patchperf()
        .args([
            "check",
            &kc("renamed-old.config"),
            &kc("renamed-new-noretpoline.config"),
            "--json",
            o,
        ])
        .output()
        .unwrap();
    assert!(String::from_utf8(text.stdout)
        .unwrap()
        .starts_with("warnings (1)\n  ! different CPU mitigations"));
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let keys: Vec<&String> = doc["findings"][0].as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 5);
    assert_eq!(doc["findings"][0]["code"], "kconfig-cpu-mitigations");
}

#[test]
fn snapshot_of_this_machine_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("env.toml");
    let o = out.to_str().unwrap();
    patchperf()
        .args(["snapshot", "-o", o])
        .assert()
        .success()
        .stderr(predicates::str::contains("values recorded"));
    let text = std::fs::read_to_string(&out).unwrap();
    for key in [
        "[snapshot]",
        "[values]",
        "cmdline = ",
        "tainted = ",
        "uname = ",
    ] {
        assert!(text.contains(key), "{key} missing");
    }
    // A snapshot compared with itself: nothing to report.
    assert!(findings(o, o, &[]).is_empty());
}

#[test]
fn snapshot_of_an_empty_tree_records_everything_as_unavailable() {
    let dir = tempfile::tempdir().unwrap();
    let out = patchperf()
        .args(["snapshot", "--root", dir.path().to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let doc: toml::Table = toml::from_str(&text).unwrap();
    let unavailable = doc["unavailable"].as_table().unwrap();
    for key in [
        "cmdline",
        "version",
        "cpufreq.governor",
        "tainted",
        "thp.enabled",
        "kconfig.source",
        "dmesg.debug_banners",
    ] {
        assert!(
            unavailable.contains_key(key),
            "{key} not marked unavailable"
        );
    }
    assert!(Path::new(ENV).join("snap-base.toml").exists());
}

/// Runs `compare … --json -` and returns (exit code, findings).
fn compare_findings(args: &[&str]) -> (i32, Vec<Value>) {
    let out = patchperf()
        .arg("compare")
        .args(args)
        .args(["--json", "-"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (
        out.status.code().unwrap(),
        doc["findings"].as_array().unwrap().clone(),
    )
}

fn codes(f: &[Value]) -> Vec<&str> {
    f.iter().map(|f| field(f, "code")).collect()
}

#[test]
fn compare_raises_the_debug_kernel_pattern_for_seed_003_only() {
    let (code, f) = compare_findings(&["data/lkml/futex-wake-lockless-2013.txt"]);
    assert_eq!(code, 0);
    let pattern: Vec<&Value> = f
        .iter()
        .filter(|f| field(f, "code") == "debug-kernel-pattern")
        .collect();
    // Only the first table's patched kernel; the rerun's two variants do not move together.
    assert_eq!(pattern.len(), 1, "{f:#?}");
    assert_eq!(field(pattern[0], "severity"), "warning");
    assert!(field(pattern[0], "title")
        .starts_with("patched vs baseline: 5 of 5 comparisons move the same way"));
    assert!(
        field(pattern[0], "advice").contains("Check the .config of `patched` for debug options")
    );
    for seed in [
        "data/lkml/futex-plist-wakeup-2007.txt",
        "data/lkml/lock-prefix-up-2008.txt",
    ] {
        let (_, f) = compare_findings(&[seed]);
        assert!(
            !codes(&f).contains(&"debug-kernel-pattern"),
            "{seed}: {:?}",
            codes(&f)
        );
    }
}

/// Baseline and patched folders of real hackbench logs, each with a kernel
/// config and environment captures beside the results.
fn variant_folders(dir: &Path) -> (String, String) {
    let (b, p) = (dir.join("base"), dir.join("patched"));
    for (d, side, cfg, env) in [
        (&b, "baseline", "fedora36-5.17-x86_64.config", "vm-base"),
        (
            &p,
            "patched",
            "fedora36-5.17-x86_64-debug.config",
            "vm-patched",
        ),
    ] {
        std::fs::create_dir_all(d).unwrap();
        for i in 1..=5 {
            let name = format!("hackbench-{side}-{i}.txt");
            std::fs::copy(format!("tests/data/corpus/{name}"), d.join(&name)).unwrap();
        }
        std::fs::copy(kc(cfg), d.join(cfg)).unwrap();
        std::fs::copy(
            format!("{ENV}/{env}/env-cmdline.txt"),
            d.join("env-cmdline.txt"),
        )
        .unwrap();
    }
    (b.display().to_string(), p.display().to_string())
}

#[test]
fn compare_finds_configs_and_captures_in_variant_folders() {
    let dir = tempfile::tempdir().unwrap();
    let (b, p) = variant_folders(dir.path());
    let (code, f) = compare_findings(&[&b, &p]);
    assert_eq!(code, 0);
    assert_eq!(field(&f[0], "severity"), "error");
    let prove = f
        .iter()
        .find(|f| field(f, "title").contains(" PROVE_LOCKING "))
        .unwrap();
    assert!(
        field(prove, "evidence")
            .contains("Benchmarks in this data it most likely distorts: hackbench."),
        "{}",
        field(prove, "evidence")
    );
    assert!(f
        .iter()
        .any(|f| field(f, "title").starts_with("boot parameter mitigations differs")));
    let ranks: Vec<u8> = f.iter().map(|f| rank(field(f, "severity"))).collect();
    assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{ranks:?}");
}

#[test]
fn compare_takes_explicit_kconfig_and_env_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let (b, p) = variant_folders(dir.path());
    let (_, f) = compare_findings(&[
        &b,
        &p,
        "--kconfig",
        &kc("debian-6.1-amd64.config"),
        &kc("debian-6.1-rt-amd64.config"),
        "--env",
        &format!("{ENV}/snap-base.toml"),
        &format!("{ENV}/snap-mitigations-off.toml"),
    ]);
    // The explicit pairs replace what the folders hold.
    assert_eq!(field(&f[0], "code"), "kconfig-preemption-model");
    assert!(!codes(&f).contains(&"kconfig-debug-differs"));
    let mitigations: Vec<&Value> = f
        .iter()
        .filter(|f| field(f, "code") == "cmdline-param-differs")
        .collect();
    assert_eq!(mitigations.len(), 1);
    assert!(field(mitigations[0], "title").ends_with("patched mitigations=off"));
    patchperf()
        .args([
            "compare",
            &b,
            &p,
            "--kconfig",
            &kc("malformed.config"),
            &kc("absent.config"),
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "malformed.config:6: malformed line",
        ));
}

#[test]
fn compare_announces_error_findings_above_the_tables() {
    let dir = tempfile::tempdir().unwrap();
    let (b, p) = variant_folders(dir.path());
    let out = patchperf().args(["compare", &b, &p]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("error: debug option DEBUG_LOCK_ALLOC is on in the patched kernel only (severe cost) [kconfig-debug-differs]\n"),
        "{text}"
    );
    let table = text.find("hackbench · time").expect("table");
    let last_error_title = text.find("error: debug option DMA_API_DEBUG").unwrap();
    assert!(last_error_title < table);
}

#[test]
fn a_hardened_kernel_is_not_a_debug_kernel() {
    assert!(findings(&kc("hardened.config"), &kc("hardened.config"), &[]).is_empty());
    let f = findings(&kc("plain.config"), &kc("hardened.config"), &[]);
    let got: Vec<(&str, &str)> = f
        .iter()
        .map(|f| (field(f, "severity"), field(f, "code")))
        .collect();
    assert_eq!(
        got,
        [
            ("warning", "kconfig-debug-differs"),
            ("warning", "kconfig-hardening"),
            ("warning", "kconfig-memory-initialisation"),
            ("info", "kconfig-other-info"),
        ]
    );
    assert!(field(&f[0], "title").contains("UBSAN is on in the patched kernel only (small cost)"));
}

#[test]
fn builtin_rules_can_be_printed_edited_and_used() {
    let out = patchperf()
        .args(["check", "--print-rules"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("names = [\"PROVE_LOCKING\"]"));
    // Demote lock statistics to a small cost: the same pair then warns instead of failing.
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("rules.toml");
    let edited = text.replacen(
        "names = [\"LOCK_STAT\"]\nclass = \"severe\"",
        "names = [\"LOCK_STAT\"]\nclass = \"small\"",
        1,
    );
    assert_ne!(edited, text);
    std::fs::write(&rules, edited).unwrap();
    let a = dir.path().join("a.config");
    let b = dir.path().join("b.config");
    std::fs::write(&a, "# CONFIG_LOCK_STAT is not set\nCONFIG_LOCKDEP=y\n").unwrap();
    std::fs::write(&b, "CONFIG_LOCK_STAT=y\nCONFIG_LOCKDEP=y\n").unwrap();
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let f = findings(a, b, &["--rules", rules.to_str().unwrap()]);
    assert_eq!(field(&f[0], "severity"), "warning");
    let f = findings(a, b, &[]);
    assert_eq!(field(&f[0], "severity"), "error");
    // One config alone is linted rather than refused.
    let out = patchperf().args(["check", a]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("LOCKDEP"));
}

/// `check CONFIG` alone lints the one config: the real Fedora debug config
/// names lockdep and its cost as errors (the gate trips), the production
/// config of the same release is clean, and `-` reads the config from stdin.
#[test]
fn one_config_is_linted_on_its_own() {
    let lint = |args: &[&str], stdin: Option<Vec<u8>>| {
        let mut c = patchperf();
        c.arg("check").args(args).args(["--json", "-"]);
        if let Some(bytes) = stdin {
            c.write_stdin(bytes);
        }
        let out = c.output().unwrap();
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        (
            out.status.code(),
            doc["findings"].as_array().unwrap().clone(),
        )
    };
    let debug = kc("fedora36-5.17-x86_64-debug.config");
    let (code, f) = lint(&[&debug], None);
    assert_eq!(code, Some(0));
    let prove = f
        .iter()
        .find(|f| field(f, "title").contains("PROVE_LOCKING"))
        .expect("PROVE_LOCKING named");
    assert_eq!(field(prove, "severity"), "error");
    assert!(field(prove, "title").contains("severe cost"));
    assert!(field(prove, "evidence").contains("Hurts most"));
    let (code, _) = lint(&[&debug, "--fail-on-error"], None);
    assert_eq!(code, Some(1));

    let (code, f) = lint(&[&kc("fedora36-5.17-x86_64.config")], None);
    assert_eq!(code, Some(0));
    assert_eq!(f.len(), 1);
    assert_eq!(field(&f[0], "code"), "kconfig-clean");

    let bytes = std::fs::read(&debug).unwrap();
    let (_, piped) = lint(&["-"], Some(bytes));
    let (_, direct) = lint(&[&debug], None);
    assert_eq!(piped.len(), direct.len());
    assert_eq!(piped[0]["title"], direct[0]["title"]);
}

/// One capture file is not a config: a usage error naming what it holds.
#[test]
fn one_environment_capture_alone_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let cmdline = dir.path().join("cmdline");
    std::fs::write(&cmdline, "BOOT_IMAGE=/vmlinuz quiet\n").unwrap();
    let out = patchperf()
        .args(["check", cmdline.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("one input is linted only as a kernel config"),
        "{err}"
    );
}

/// Shell completions and manual pages come from the command definition.
#[test]
fn completions_and_man_pages_are_generated() {
    for shell in ["bash", "zsh", "fish"] {
        let out = patchperf().args(["completions", shell]).output().unwrap();
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("history") && text.contains("--fail-on-regression"),
            "{shell}"
        );
    }
    let out = patchperf().arg("man").output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains(".TH patchperf 1"));
    let dir = tempfile::tempdir().unwrap();
    patchperf()
        .args(["man", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    assert!(dir.path().join("patchperf-compare.1").exists());
}
