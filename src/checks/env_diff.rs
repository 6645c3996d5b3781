//! Compares the environments of the baseline and the patched runs: boot
//! parameters, frequency governor, turbo, SMT, CPU, compiler, taint, debug
//! banners, and the kernel config when both snapshots carry one.

use super::capitalise;
use super::env::Snapshot;
use super::kconfig_diff::kconfig_findings;
use super::rules::{Level, Rules};
use super::taint;
use crate::model::{Finding, FindingCode, Severity};
use std::collections::{BTreeMap, BTreeSet};

/// Keys whose difference is a warning: (key, what it is, what to do).
const WARN_KEYS: &[(&str, &str, &str)] = &[
    (
        "cpufreq.governor",
        "frequency governor",
        "Use one governor on both (`performance` for benchmarks).",
    ),
    (
        "cpufreq.driver",
        "frequency driver",
        "Boot both with the same cpufreq driver (intel_pstate=/amd_pstate=).",
    ),
    (
        "cpufreq.epp",
        "energy/performance preference",
        "Set the same energy_performance_preference on both.",
    ),
    (
        "intel_pstate.status",
        "intel_pstate mode",
        "Use the same intel_pstate mode (active/passive) on both.",
    ),
    (
        "turbo",
        "turbo/boost",
        "Turn turbo off on both (or on on both): it makes results depend on temperature.",
    ),
    (
        "smt.control",
        "SMT control",
        "Use the same SMT setting on both (nosmt or not).",
    ),
    (
        "smt.active",
        "SMT (hyper-threading)",
        "Use the same SMT setting on both (nosmt or not).",
    ),
    (
        "cpu.count",
        "number of CPUs",
        "Give both runs the same CPUs (same machine, same maxcpus=/hotplug state).",
    ),
    (
        "cpu.microcode",
        "CPU microcode",
        "Load the same microcode on both: it changes mitigations and errata workarounds.",
    ),
    (
        "cpu.isolated",
        "isolated CPUs",
        "Use the same isolcpus= on both.",
    ),
    (
        "cpu.nohz_full",
        "nohz_full CPUs",
        "Use the same nohz_full= on both.",
    ),
    (
        "thp.enabled",
        "transparent huge pages",
        "Set the same /sys/kernel/mm/transparent_hugepage/enabled on both.",
    ),
    (
        "thp.defrag",
        "THP defrag policy",
        "Set the same /sys/kernel/mm/transparent_hugepage/defrag on both.",
    ),
    (
        "numa_balancing",
        "NUMA balancing",
        "Set the same kernel.numa_balancing on both.",
    ),
    (
        "aslr",
        "address-space randomisation",
        "Set the same kernel.randomize_va_space on both.",
    ),
    (
        "nmi_watchdog",
        "NMI watchdog (holds a PMU counter)",
        "Set the same kernel.nmi_watchdog on both, especially for perf stat counters.",
    ),
    (
        "preempt",
        "running preemption mode",
        "Boot both with the same preempt= mode.",
    ),
    (
        "compiler",
        "kernel compiler",
        "Build both kernels with the same compiler and version.",
    ),
    (
        "virtualization",
        "virtualisation",
        "Run both on bare metal or both in the same kind of guest.",
    ),
];

/// Keys that tell a debug kernel is running.
const DEBUG_KEYS: &[(&str, &str)] = &[
    ("lockdep", "/proc/lockdep (lockdep compiled in)"),
    ("lock_stat", "/proc/lock_stat (LOCK_STAT compiled in)"),
];

/// Keys expected to differ between two kernels, or that carry no signal.
const QUIET_KEYS: &[&str] = &[
    "uname",
    "kernel.release",
    "version",
    "kconfig.source",
    "tainted.flags",
    "memory.total",
    "lsm",
];

/// Findings from comparing two environments.
pub fn env_findings(
    base: &Snapshot,
    patched: &Snapshot,
    rules: &Rules,
    benchmarks: &[String],
) -> Vec<Finding> {
    let mut out = Vec::new();
    let (b, p) = (&base.values, &patched.values);
    let label = |s: &Snapshot| s.path.display().to_string();

    if let (Some(cb), Some(cp)) = (b.get("cmdline"), p.get("cmdline")) {
        out.extend(cmdline_findings(cb, cp, rules));
    }
    if let (Some(mb), Some(mp)) = (b.get("cpu.model"), p.get("cpu.model")) {
        if mb != mp {
            out.push(Finding::new(
                Severity::Error,
                FindingCode::EnvCpuModel,
                "the two sides ran on different CPU models",
                format!("cpu.model: baseline `{mb}`, patched `{mp}`."),
                "Run baseline and patched on the same machine; results across different CPUs do not measure the patch.",
            ));
        }
    }
    for (key, what) in DEBUG_KEYS {
        if let (Some(vb), Some(vp)) = (b.get(*key), p.get(*key)) {
            if vb != vp {
                out.push(Finding::new(
                    Severity::Error,
                    FindingCode::EnvDebugKernel,
                    format!("{what} is {vb} on the baseline and {vp} on the patched system"),
                    format!("{key}: baseline {vb}, patched {vp}."),
                    "One kernel has lock debugging compiled in: build both from the same .config.",
                ));
            }
        }
    }
    if let (Some(db), Some(dp)) = (b.get("dmesg.debug_banners"), p.get("dmesg.debug_banners")) {
        if db != dp {
            out.push(Finding::new(
                Severity::Error,
                FindingCode::EnvDebugBanners,
                "the kernels' boot logs differ in debug banners",
                format!("dmesg debug banners: baseline {db}; patched {dp}."),
                "A debug or instrumented kernel ran on one side: check both .config files.",
            ));
        } else if db != "none" {
            out.push(Finding::new(
                Severity::Warning,
                FindingCode::EnvDebugBannersBoth,
                "both kernels print debug banners at boot",
                format!("dmesg debug banners on both: {db}."),
                "Absolute numbers are not representative of a production kernel.",
            ));
        }
    }
    out.extend(taint_findings(b.get("tainted"), p.get("tainted")));
    for (key, what, advice) in WARN_KEYS {
        if let (Some(vb), Some(vp)) = (b.get(*key), p.get(*key)) {
            if vb != vp {
                out.push(Finding::new(
                    Severity::Warning,
                    FindingCode::env_setting(key),
                    format!("{what} differs: baseline {vb}, patched {vp}"),
                    format!(
                        "{key}: baseline ({}) `{vb}`; patched ({}) `{vp}`.",
                        label(base),
                        label(patched)
                    ),
                    *advice,
                ));
            }
        }
    }
    let vulns: Vec<String> = b
        .iter()
        .filter(|(k, _)| k.starts_with("vulnerability."))
        .filter_map(|(k, vb)| {
            let vp = p.get(k)?;
            (same_words(vb) != same_words(vp)).then(|| {
                format!(
                    "{}: `{vb}` → `{vp}`",
                    k.trim_start_matches("vulnerability.")
                )
            })
        })
        .collect();
    if !vulns.is_empty() {
        out.push(Finding::new(
            Severity::Warning,
            FindingCode::EnvMitigations,
            format!("CPU vulnerability mitigations differ ({} entries)", vulns.len()),
            format!("{}.", vulns.join("; ")),
            "Mitigations change syscall and context-switch costs: boot both kernels with the same mitigation settings.",
        ));
    }
    let known: BTreeSet<&str> = WARN_KEYS
        .iter()
        .map(|(k, _, _)| *k)
        .chain(DEBUG_KEYS.iter().map(|(k, _)| *k))
        .chain(QUIET_KEYS.iter().copied())
        .chain(["cmdline", "cpu.model", "tainted", "dmesg.debug_banners"])
        .collect();
    let mut other = Vec::new();
    let mut one_side = Vec::new();
    for k in b.keys().chain(p.keys()).collect::<BTreeSet<_>>() {
        if k.starts_with("vulnerability.") && b.contains_key(k) && p.contains_key(k) {
            continue;
        }
        match (b.get(k), p.get(k)) {
            (Some(vb), Some(vp)) if vb != vp && !known.contains(k.as_str()) => {
                other.push(k.clone())
            }
            (Some(vb), Some(vp))
                if vb != vp && QUIET_KEYS.contains(&k.as_str()) && k != "tainted.flags" =>
            {
                other.push(k.clone())
            }
            (Some(_), None) | (None, Some(_)) => one_side.push(k.clone()),
            _ => {}
        }
    }
    if !other.is_empty() {
        out.push(Finding::new(
            Severity::Info,
            FindingCode::EnvOtherDiffers,
            format!("{} other environment entries differ", other.len()),
            format!("{}.", other.join(", ")),
            "Expected when the kernels differ (release, version string); otherwise worth a look.",
        ));
    }
    if !one_side.is_empty() {
        out.push(Finding::new(
            Severity::Info,
            FindingCode::EnvOneSide,
            format!("{} environment entries were recorded on one side only", one_side.len()),
            format!("{}.", one_side.join(", ")),
            "Capture the same files on both systems (`patchperf snapshot`) so they can be compared.",
        ));
    }
    if let (Some(kb), Some(kp)) = (&base.kconfig, &patched.kconfig) {
        out.extend(kconfig_findings(kb, kp, rules, benchmarks));
    }
    out.sort_by_key(|f| f.severity);
    out
}

/// A vulnerability status without punctuation: `lscpu` writes
/// `Mitigation; Retpolines; STIBP disabled` for sysfs's
/// `Mitigation: Retpolines; STIBP: disabled`.
fn same_words(v: &str) -> String {
    v.split(|c: char| c.is_whitespace() || c == ':' || c == ';')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Splits a command line into parameters; what follows ` -- ` belongs to init.
pub fn cmdline_params(cmdline: &str) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for tok in cmdline.split_whitespace() {
        if tok == "--" {
            break;
        }
        let (k, v) = match tok.split_once('=') {
            Some((k, v)) => (k, v.to_string()),
            None => (tok, String::new()),
        };
        // `-` and `_` are interchangeable in parameter names.
        out.entry(k.replace('-', "_")).or_default().push(v);
    }
    out
}

fn shown(key: &str, values: Option<&Vec<String>>) -> String {
    match values {
        None => "absent".into(),
        Some(vs) => vs
            .iter()
            .map(|v| {
                if v.is_empty() {
                    key.to_string()
                } else {
                    format!("{key}={v}")
                }
            })
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// Findings for boot parameters that differ.
pub fn cmdline_findings(base: &str, patched: &str, rules: &Rules) -> Vec<Finding> {
    let (b, p) = (cmdline_params(base), cmdline_params(patched));
    let mut out = Vec::new();
    let mut other = Vec::new();
    for k in b.keys().chain(p.keys()).collect::<BTreeSet<_>>() {
        let (vb, vp) = (b.get(k), p.get(k));
        if vb == vp {
            continue;
        }
        match rules.boot_rule_for(k) {
            Some(r) => {
                let sev = match r.level {
                    Level::Error => Severity::Error,
                    Level::Warning => Severity::Warning,
                };
                let hurts = if r.hurts.is_empty() {
                    String::new()
                } else {
                    format!(" Hurts most: {}.", r.hurts.join(", "))
                };
                out.push(Finding::new(
                    sev,
                    FindingCode::CmdlineParamDiffers,
                    format!(
                        "boot parameter {k} differs: baseline {}, patched {}",
                        shown(k, vb),
                        shown(k, vp)
                    ),
                    format!(
                        "/proc/cmdline: baseline `{}`; patched `{}`. {}.{hurts}",
                        shown(k, vb),
                        shown(k, vp),
                        capitalise(&r.why)
                    ),
                    format!("Boot both kernels with the same {k} setting."),
                ));
            }
            None => other.push(format!("{} → {}", shown(k, vb), shown(k, vp))),
        }
    }
    if !other.is_empty() {
        out.push(Finding::new(
            Severity::Info,
            FindingCode::CmdlineOtherDiffers,
            format!("{} other boot parameters differ", other.len()),
            format!("{}.", other.join("; ")),
            "Not known to change performance; check if unsure.",
        ));
    }
    out
}

fn taint_findings(b: Option<&String>, p: Option<&String>) -> Vec<Finding> {
    let parse = |v: Option<&String>| v.and_then(|s| s.trim().parse::<u64>().ok());
    let (Some(mb), Some(mp)) = (parse(b), parse(p)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if mb != mp {
        out.push(Finding::new(
            Severity::Warning,
            FindingCode::EnvTaintDiffers,
            "the kernels' taint flags differ",
            format!(
                "tainted: baseline {mb} = {}; patched {mp} = {}.",
                taint::describe(mb),
                taint::describe(mp)
            ),
            "Find out what tainted the kernel (modules, warnings) and make both systems alike.",
        ));
    }
    for (side, m) in [("baseline", mb), ("patched", mp)] {
        if taint::is_suspect(m) {
            out.push(Finding::new(
                Severity::Warning,
                FindingCode::EnvTaintSuspect,
                format!("the {side} kernel reported trouble (taint {})", taint::describe(m)),
                format!("tainted = {m}."),
                "A warning, oops, machine check or lockup was seen: check dmesg and distrust runs made after it.",
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snap(pairs: &[(&str, &str)]) -> Snapshot {
        let mut s = Snapshot::default();
        for (k, v) in pairs {
            s.set(k, *v);
        }
        s
    }

    proptest::proptest! {
        /// Any two command lines compare without panicking, and a line never differs from itself.
        #[test]
        fn cmdlines_never_panic(a in "[a-z_=.,0-9 -]{0,60}", b in "[a-z_=.,0-9 -]{0,60}") {
            let r = Rules::builtin();
            let _ = cmdline_findings(&a, &b, &r);
            proptest::prop_assert!(cmdline_findings(&a, &a, &r).is_empty());
        }
    }

    #[test]
    fn lscpu_and_sysfs_spellings_of_a_mitigation_agree() {
        let a = snap(&[(
            "vulnerability.spectre_v2",
            "Mitigation: Retpolines; STIBP: disabled; RSB filling",
        )]);
        let b = snap(&[(
            "vulnerability.spectre_v2",
            "Mitigation; Retpolines; STIBP disabled; RSB filling",
        )]);
        assert!(env_findings(&a, &b, &Rules::builtin(), &[]).is_empty());
        let c = snap(&[("vulnerability.spectre_v2", "Vulnerable")]);
        let f = env_findings(&a, &c, &Rules::builtin(), &[]);
        assert_eq!(f[0].code, "env-mitigations");
        assert_eq!(
            f[0].evidence,
            "spectre_v2: `Mitigation: Retpolines; STIBP: disabled; RSB filling` → `Vulnerable`."
        );
    }

    #[test]
    fn only_mitigations_differs() {
        let a = snap(&[
            ("cmdline", "quiet root=/dev/sda1"),
            ("cpufreq.governor", "performance"),
        ]);
        let b = snap(&[
            ("cmdline", "quiet root=/dev/sda1 mitigations=off"),
            ("cpufreq.governor", "performance"),
        ]);
        let f = env_findings(&a, &b, &Rules::builtin(), &[]);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Warning);
        assert_eq!(
            f[0].title,
            "boot parameter mitigations differs: baseline absent, patched mitigations=off"
        );
    }

    #[test]
    fn cmdline_stops_at_init_args_and_sorts_levels() {
        let f = cmdline_findings(
            "a=1 slub_debug=FZ -- --x=1",
            "a=2 -- --x=2",
            &Rules::builtin(),
        );
        assert_eq!(f.len(), 2);
        assert_eq!(f[0].severity, Severity::Error);
        assert!(f[0].title.starts_with(
            "boot parameter slub_debug differs: baseline slub_debug=FZ, patched absent"
        ));
        assert_eq!(f[1].title, "1 other boot parameters differ");
        assert_eq!(f[1].evidence, "a=1 → a=2.");
    }

    #[test]
    fn snapshots_carrying_kernel_configs_are_diffed_too() {
        use crate::checks::kconfig::KConfig;
        use std::path::Path;
        let mut a = snap(&[("cmdline", "quiet")]);
        let mut b = a.clone();
        a.kconfig =
            Some(KConfig::parse(Path::new("a"), "# CONFIG_LOCK_STAT is not set\n").unwrap());
        b.kconfig = Some(KConfig::parse(Path::new("b"), "CONFIG_LOCK_STAT=y\n").unwrap());
        let bench = vec!["futex-hash".to_string()];
        let f = env_findings(&a, &b, &Rules::builtin(), &bench);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Error);
        assert!(f[0]
            .title
            .contains("LOCK_STAT is on in the patched kernel only"));
        assert!(f[0].evidence.contains("It also selects LOCKDEP"));
        assert!(f[0].evidence.contains("most likely distorts: futex-hash."));
    }

    #[test]
    fn taint_and_governor_and_cpu() {
        let a = snap(&[
            ("tainted", "0"),
            ("cpufreq.governor", "performance"),
            ("cpu.model", "A"),
        ]);
        let b = snap(&[
            ("tainted", "512"),
            ("cpufreq.governor", "powersave"),
            ("cpu.model", "B"),
        ]);
        let f = env_findings(&a, &b, &Rules::builtin(), &[]);
        let codes: Vec<&FindingCode> = f.iter().map(|f| &f.code).collect();
        assert_eq!(
            codes,
            [
                &FindingCode::EnvCpuModel,
                &FindingCode::EnvTaintDiffers,
                &FindingCode::EnvTaintSuspect,
                &FindingCode::env_setting("cpufreq.governor"),
            ]
        );
        assert!(f[1]
            .evidence
            .contains("patched 512 = W (kernel issued a warning)"));
    }
}
