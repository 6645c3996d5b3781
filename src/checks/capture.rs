//! Recording this machine's environment for `patchperf snapshot`. Everything
//! is read from `/proc` and `/sys` (plus `uname -a` and `dmesg` when
//! available); whatever is missing or unreadable is recorded as unavailable,
//! never an error, so it works without root and in containers.

use super::env::{
    debug_banners, set_taint, summarise_counts, vulnerability_key, KconfigSection, Snapshot,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Captures the environment. `root` is `/` for this machine; tests point it
/// at a fake tree (commands such as `uname` and `dmesg` run only for `/`).
pub fn capture(root: &Path) -> (Snapshot, Option<KconfigSection>) {
    let live = root == Path::new("/");
    let mut s = Snapshot {
        path: root.to_path_buf(),
        ..Snapshot::default()
    };
    let r = Reader { root };

    if live {
        match run("uname", &["-a"]) {
            Ok(out) => s.set("uname", out),
            Err(e) => s.unavailable("uname", e),
        }
    } else {
        let parts: Vec<String> = ["ostype", "hostname", "osrelease", "version"]
            .iter()
            .filter_map(|f| r.read(&format!("proc/sys/kernel/{f}")).ok())
            .collect();
        if parts.len() == 4 {
            s.set("uname", parts.join(" "));
        } else {
            s.unavailable(
                "uname",
                "proc/sys/kernel/{ostype,hostname,osrelease,version} unreadable",
            );
        }
    }
    r.value(&mut s, "kernel.release", "proc/sys/kernel/osrelease");
    r.value(&mut s, "cmdline", "proc/cmdline");
    r.value(&mut s, "version", "proc/version");
    match s
        .values
        .get("version")
        .map(|v| super::env::compiler_of_version(v))
    {
        Some(Some(c)) => s.set("compiler", c),
        _ => s.unavailable("compiler", "not found in /proc/version"),
    }

    cpu(&r, &mut s);
    r.value(&mut s, "memory.total", "proc/meminfo");
    if let Some(m) = s.values.get("memory.total").cloned() {
        let total = m
            .lines()
            .find_map(|l| l.strip_prefix("MemTotal:"))
            .map(str::trim);
        match total {
            Some(t) => s.set("memory.total", t),
            None => {
                s.values.remove("memory.total");
                s.unavailable("memory.total", "no MemTotal line in /proc/meminfo");
            }
        }
    }

    cpufreq(&r, &mut s);
    r.value(&mut s, "smt.control", "sys/devices/system/cpu/smt/control");
    r.value(&mut s, "smt.active", "sys/devices/system/cpu/smt/active");
    r.value(&mut s, "cpu.isolated", "sys/devices/system/cpu/isolated");
    r.value(&mut s, "cpu.nohz_full", "sys/devices/system/cpu/nohz_full");
    r.bracketed(
        &mut s,
        "thp.enabled",
        "sys/kernel/mm/transparent_hugepage/enabled",
    );
    r.bracketed(
        &mut s,
        "thp.defrag",
        "sys/kernel/mm/transparent_hugepage/defrag",
    );
    r.value(&mut s, "numa_balancing", "proc/sys/kernel/numa_balancing");
    r.value(&mut s, "aslr", "proc/sys/kernel/randomize_va_space");
    r.value(&mut s, "nmi_watchdog", "proc/sys/kernel/nmi_watchdog");
    r.value(&mut s, "preempt", "sys/kernel/debug/sched/preempt");
    r.value(&mut s, "lsm", "sys/kernel/security/lsm");
    match r.read("proc/sys/kernel/tainted") {
        Ok(t) => match t.trim().parse::<u64>() {
            Ok(mask) => set_taint(&mut s, mask),
            Err(_) => s.unavailable("tainted", format!("unexpected content `{}`", t.trim())),
        },
        Err(e) => s.unavailable("tainted", e),
    }
    for (key, file) in [("lockdep", "proc/lockdep"), ("lock_stat", "proc/lock_stat")] {
        s.set(
            key,
            if r.path(file).exists() {
                "present"
            } else {
                "absent"
            },
        );
    }
    r.value(&mut s, "virtualization", "sys/hypervisor/type");
    if !s.values.contains_key("virtualization")
        && s.values
            .get("cpu.flags")
            .is_some_and(|f| f.split(' ').any(|x| x == "hypervisor"))
    {
        s.set("virtualization", "hypervisor present (cpu flag)");
    }
    s.values.remove("cpu.flags");
    vulnerabilities(&r, &mut s);
    if live {
        dmesg(&mut s);
    } else {
        s.unavailable("dmesg.debug_banners", "not captured from a file tree");
    }
    let kconfig = kconfig(&r, &mut s);
    (s, kconfig)
}

struct Reader<'a> {
    root: &'a Path,
}

impl Reader<'_> {
    fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    fn read(&self, rel: &str) -> Result<String, String> {
        let p = self.path(rel);
        std::fs::read_to_string(&p).map_err(|e| format!("/{rel}: {e}"))
    }

    fn value(&self, s: &mut Snapshot, key: &str, rel: &str) {
        match self.read(rel) {
            Ok(v) if v.trim().is_empty() => s.set(key, "(empty)"),
            Ok(v) => s.set(key, v),
            Err(e) => s.unavailable(key, e),
        }
    }

    /// `always [madvise] never` → `madvise`.
    fn bracketed(&self, s: &mut Snapshot, key: &str, rel: &str) {
        match self.read(rel) {
            Ok(v) => {
                let chosen = v
                    .split_whitespace()
                    .find(|w| w.starts_with('['))
                    .map(|w| w.trim_matches(['[', ']']));
                s.set(key, chosen.unwrap_or(v.trim()));
            }
            Err(e) => s.unavailable(key, e),
        }
    }
}

fn run(cmd: &str, args: &[&str]) -> Result<String, String> {
    let out = Command::new(cmd)
        .args(args)
        .output()
        .map_err(|e| format!("{cmd}: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let err = err.trim();
        return Err(if err.is_empty() {
            format!("{cmd} exited with {}", out.status)
        } else if err.starts_with(cmd) {
            err.to_string()
        } else {
            format!("{cmd}: {err}")
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn cpu(r: &Reader, s: &mut Snapshot) {
    match r.read("proc/cpuinfo") {
        Ok(text) => {
            let mut count = 0usize;
            for line in text.lines() {
                let Some((k, v)) = line.split_once(':') else {
                    continue;
                };
                let (k, v) = (k.trim(), v.trim());
                match k {
                    "processor" => count += 1,
                    "model name" | "Model" | "cpu model" if !s.values.contains_key("cpu.model") => {
                        s.set("cpu.model", v)
                    }
                    "microcode" if !s.values.contains_key("cpu.microcode") => {
                        s.set("cpu.microcode", v)
                    }
                    "flags" if !s.values.contains_key("cpu.flags") => s.set("cpu.flags", v),
                    _ => {}
                }
            }
            if count > 0 {
                s.set("cpu.count", count.to_string());
            }
            for k in ["cpu.model", "cpu.count", "cpu.microcode"] {
                s.unavailable(k, "not in /proc/cpuinfo");
            }
        }
        Err(e) => {
            for k in ["cpu.model", "cpu.count", "cpu.microcode"] {
                s.unavailable(k, e.clone());
            }
        }
    }
}

fn cpufreq(r: &Reader, s: &mut Snapshot) {
    let mut governors = BTreeMap::new();
    let mut drivers = BTreeMap::new();
    let mut epps = BTreeMap::new();
    if let Ok(rd) = std::fs::read_dir(r.path("sys/devices/system/cpu")) {
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if !(name.starts_with("cpu")
                && name[3..].chars().all(|c| c.is_ascii_digit())
                && name.len() > 3)
            {
                continue;
            }
            let base = format!("sys/devices/system/cpu/{name}/cpufreq");
            for (file, map) in [
                ("scaling_governor", &mut governors),
                ("scaling_driver", &mut drivers),
                ("energy_performance_preference", &mut epps),
            ] {
                if let Ok(v) = r.read(&format!("{base}/{file}")) {
                    *map.entry(v.trim().to_string()).or_insert(0usize) += 1;
                }
            }
        }
    }
    for (key, map) in [
        ("cpufreq.governor", &governors),
        ("cpufreq.driver", &drivers),
        ("cpufreq.epp", &epps),
    ] {
        if map.is_empty() {
            s.unavailable(
                key,
                "no cpufreq files under /sys/devices/system/cpu/cpu*/cpufreq (no frequency driver)",
            );
        } else {
            s.set(key, summarise_counts(map));
        }
    }
    // Turbo: the generic boost switch, or intel_pstate's inverted no_turbo.
    if let Ok(b) = r.read("sys/devices/system/cpu/cpufreq/boost") {
        s.set("turbo", if b.trim() == "1" { "on" } else { "off" });
    } else if let Ok(n) = r.read("sys/devices/system/cpu/intel_pstate/no_turbo") {
        s.set("turbo", if n.trim() == "0" { "on" } else { "off" });
    } else {
        s.unavailable(
            "turbo",
            "neither cpufreq/boost nor intel_pstate/no_turbo exists",
        );
    }
    r.value(
        s,
        "intel_pstate.status",
        "sys/devices/system/cpu/intel_pstate/status",
    );
}

fn vulnerabilities(r: &Reader, s: &mut Snapshot) {
    match std::fs::read_dir(r.path("sys/devices/system/cpu/vulnerabilities")) {
        Ok(rd) => {
            let mut names: Vec<String> = rd
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            for n in names {
                let key = vulnerability_key(&n);
                r.value(
                    s,
                    &key,
                    &format!("sys/devices/system/cpu/vulnerabilities/{n}"),
                );
            }
        }
        Err(e) => s.unavailable(
            "vulnerability.*",
            format!("/sys/devices/system/cpu/vulnerabilities: {e}"),
        ),
    }
}

fn dmesg(s: &mut Snapshot) {
    match run("dmesg", &[]) {
        Ok(text) if !text.trim().is_empty() => s.set("dmesg.debug_banners", debug_banners(&text)),
        Ok(_) => s.unavailable("dmesg.debug_banners", "dmesg printed nothing"),
        Err(e) => s.unavailable("dmesg.debug_banners", e),
    }
}

fn kconfig(r: &Reader, s: &mut Snapshot) -> Option<KconfigSection> {
    let mut tried = Vec::new();
    let mut candidates = vec!["proc/config.gz".to_string()];
    if let Some(rel) = s.values.get("kernel.release") {
        candidates.push(format!("boot/config-{rel}"));
    }
    for rel in candidates {
        let p = r.path(&rel);
        match super::kconfig::KConfig::from_path(&p) {
            Ok(_) => {
                let text = read_maybe_gz(&p)?;
                s.set("kconfig.source", format!("/{rel}"));
                return Some(KconfigSection {
                    source: format!("/{rel}"),
                    text,
                });
            }
            Err(e) => tried.push(format!("/{rel}: {e}")),
        }
    }
    s.unavailable("kconfig.source", tried.join("; "));
    None
}

fn read_maybe_gz(p: &Path) -> Option<String> {
    use std::io::Read;
    let bytes = std::fs::read(p).ok()?;
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = String::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut out)
            .ok()?;
        Some(out)
    } else {
        String::from_utf8(bytes).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fake_tree_records_missing_files_as_unavailable() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let w = |rel: &str, text: &str| {
            let p = root.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        };
        w(
            "proc/cmdline",
            "BOOT_IMAGE=/vmlinuz quiet mitigations=off\n",
        );
        w(
            "proc/version",
            "Linux version 6.9.0 (b@h) (gcc (GCC) 13.2.0, GNU ld 2.41) #1 SMP\n",
        );
        w("proc/sys/kernel/tainted", "512\n");
        w("proc/sys/kernel/osrelease", "6.9.0\n");
        w("proc/cpuinfo", "processor\t: 0\nmodel name\t: Test CPU @ 3.0GHz\nflags\t: fpu hypervisor\n\nprocessor\t: 1\nmodel name\t: Test CPU @ 3.0GHz\n");
        w(
            "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
            "performance\n",
        );
        w(
            "sys/devices/system/cpu/cpu1/cpufreq/scaling_governor",
            "performance\n",
        );
        w("sys/devices/system/cpu/intel_pstate/no_turbo", "1\n");
        w(
            "sys/kernel/mm/transparent_hugepage/enabled",
            "always [madvise] never\n",
        );
        w(
            "sys/devices/system/cpu/vulnerabilities/spectre_v2",
            "Mitigation: Retpolines\n",
        );
        w("boot/config-6.9.0", "CONFIG_PREEMPT_VOLUNTARY=y\n");
        let (s, k) = capture(root);
        assert_eq!(
            s.values["cmdline"],
            "BOOT_IMAGE=/vmlinuz quiet mitigations=off"
        );
        assert_eq!(s.values["compiler"], "gcc (GCC) 13.2.0");
        assert_eq!(s.values["tainted"], "512");
        assert_eq!(s.values["tainted.flags"], "W (kernel issued a warning)");
        assert_eq!(s.values["cpu.model"], "Test CPU @ 3.0GHz");
        assert_eq!(s.values["cpu.count"], "2");
        assert_eq!(s.values["cpufreq.governor"], "performance");
        assert_eq!(s.values["turbo"], "off");
        assert_eq!(s.values["thp.enabled"], "madvise");
        assert_eq!(
            s.values["vulnerability.spectre_v2"],
            "Mitigation: Retpolines"
        );
        assert_eq!(s.values["virtualization"], "hypervisor present (cpu flag)");
        assert_eq!(s.values["lockdep"], "absent");
        assert_eq!(s.values["kconfig.source"], "/boot/config-6.9.0");
        assert_eq!(k.unwrap().text, "CONFIG_PREEMPT_VOLUNTARY=y\n");
        assert!(s.unavailable["smt.control"].contains("smt/control"));
        assert!(s.unavailable.contains_key("cpufreq.driver"));
        assert!(s.unavailable.contains_key("uname"));
        assert!(!s.values.contains_key("cpu.flags"));
    }
}
