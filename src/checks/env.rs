//! Environment snapshots: what `patchperf snapshot` writes (TOML), and the
//! loose capture files people already keep next to runs (`uname -a`,
//! `/proc/cmdline`, `/proc/version`, `lscpu`, governor listings, the taint
//! mask), read into one key → value map so that two systems can be diffed.

use super::kconfig::KConfig;
use crate::error::{Error, Result};
use crate::ingest::context::{self, ContextKind};
pub use crate::ingest::CaptureKind;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Version of the snapshot file layout.
pub const SNAPSHOT_FORMAT: u32 = 1;

/// One system's environment.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Snapshot {
    /// Where it was read from (file or folder), for messages.
    pub path: PathBuf,
    /// Recorded values by stable key (`cmdline`, `cpufreq.governor`, …).
    pub values: BTreeMap<String, String>,
    /// Keys that could not be recorded, with the reason.
    pub unavailable: BTreeMap<String, String>,
    /// The kernel config, when one was recorded.
    pub kconfig: Option<KConfig>,
}

/// The `[snapshot]` table: who wrote the file and when.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Meta {
    /// Version of the snapshot file format.
    pub format: u32,
    /// The tool that wrote it.
    pub tool: String,
    /// Seconds since the Unix epoch.
    pub captured_unix: u64,
}

/// The `[kconfig]` table: the config text as read, and where from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KconfigSection {
    /// Where the config was read from.
    pub source: String,
    /// The config text as read.
    pub text: String,
}

/// The snapshot file as serialised.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SnapshotFile {
    /// Who wrote the file and when.
    pub snapshot: Meta,
    /// Each recorded value by its key.
    #[serde(default)]
    pub values: BTreeMap<String, String>,
    /// Keys that could not be recorded, each with the reason.
    #[serde(default)]
    pub unavailable: BTreeMap<String, String>,
    /// The kernel config, when one was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kconfig: Option<KconfigSection>,
}

impl Snapshot {
    /// Records a value; an empty value counts as unavailable.
    pub fn set(&mut self, key: &str, value: impl Into<String>) {
        let v = value.into().trim().to_string();
        if v.is_empty() {
            self.unavailable
                .entry(key.to_string())
                .or_insert_with(|| "empty".into());
        } else {
            self.unavailable.remove(key);
            self.values.insert(key.to_string(), v);
        }
    }

    /// Records why a key could not be read (unless it already has a value).
    pub fn unavailable(&mut self, key: &str, why: impl Into<String>) {
        if !self.values.contains_key(key) {
            self.unavailable.insert(key.to_string(), why.into());
        }
    }

    /// Reads a snapshot file, a loose capture file, or a folder of them.
    pub fn load(path: &Path) -> Result<Snapshot> {
        let mut snap = Snapshot {
            path: path.to_path_buf(),
            ..Snapshot::default()
        };
        if path.is_dir() {
            let files = env_files_in(path)?;
            if files.is_empty() {
                return Err(Error::input(
                    path,
                    None,
                    "no snapshot (.toml) or capture files (uname, cmdline, version, lscpu, cpufreq, tainted …) in this folder",
                ));
            }
            for f in files {
                snap.merge_file(&f)?;
            }
        } else {
            snap.merge_file(path)?;
        }
        Ok(snap)
    }

    /// Adds what one file holds.
    fn merge_file(&mut self, path: &Path) -> Result<()> {
        let text = read_text(path)?;
        let head: Vec<&str> = text.lines().take(400).collect();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let kind = match context::classify(name, &head) {
            Some(ContextKind::Snapshot) => return self.merge_snapshot_toml(path, &text),
            Some(ContextKind::Capture(kind)) => kind,
            _ => {
                return Err(Error::input(
                    path,
                    None,
                    "neither a patchperf snapshot nor a known capture file (name it after what it holds: uname, cmdline, version, lscpu, cpufreq, tainted, cpuinfo, meminfo, dmesg)",
                ))
            }
        };
        parse_capture(self, path, kind, &text)
    }

    fn merge_snapshot_toml(&mut self, path: &Path, text: &str) -> Result<()> {
        let file: SnapshotFile = toml::from_str(text).map_err(|e| {
            let line = e
                .span()
                .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1)
                .and_then(|l| u32::try_from(l).ok());
            Error::input(path, line, format!("bad snapshot file: {}", e.message()))
        })?;
        if file.snapshot.format > SNAPSHOT_FORMAT {
            return Err(Error::input(
                path,
                None,
                format!("snapshot format {} is newer than this patchperf understands ({SNAPSHOT_FORMAT})", file.snapshot.format),
            ));
        }
        for (k, v) in file.values {
            self.set(&k, v);
        }
        for (k, v) in file.unavailable {
            self.unavailable(&k, v);
        }
        if let Some(k) = file.kconfig {
            let label = PathBuf::from(format!("{} [kconfig from {}]", path.display(), k.source));
            self.kconfig = Some(KConfig::parse(&label, &k.text)?);
        }
        Ok(())
    }

    /// Serialises to the snapshot TOML layout.
    pub fn to_toml(&self, meta: Meta, kconfig: Option<KconfigSection>) -> Result<String> {
        let file = SnapshotFile {
            snapshot: meta,
            values: self.values.clone(),
            unavailable: self.unavailable.clone(),
            kconfig,
        };
        let body = toml::to_string(&file)
            .map_err(|e| Error::Other(format!("cannot write snapshot: {e}")))?;
        Ok(format!(
            "# patchperf environment snapshot: keep it next to the benchmark results and\n\
             # compare two with `patchperf check A.toml B.toml`.\n{body}"
        ))
    }
}

/// Debug banners a kernel prints at boot, and what they reveal.
pub const DMESG_BANNERS: &[(&str, &str)] = &[
    ("Lock dependency validator", "lockdep"),
    ("KernelAddressSanitizer initialized", "KASAN"),
    ("Kernel memory leak detector initialized", "kmemleak"),
    (
        "trace_printk() being used",
        "trace_printk (debug kernel notice)",
    ),
    (
        "possible circular locking dependency detected",
        "lockdep splat",
    ),
    ("BUG: KASAN:", "KASAN report"),
    ("BUG: KCSAN:", "KCSAN report"),
    ("ODEBUG:", "debugobjects report"),
    (
        "BUG: sleeping function called from invalid context",
        "might_sleep splat",
    ),
];

/// The debug banners found in kernel log text: `none`, or `lockdep, KASAN`.
pub fn debug_banners(text: &str) -> String {
    let found: Vec<&str> = DMESG_BANNERS
        .iter()
        .filter(|(needle, _)| text.contains(needle))
        .map(|(_, what)| *what)
        .collect();
    if found.is_empty() {
        "none".to_string()
    } else {
        found.join(", ")
    }
}

/// Reads a capture as text; `.gz` captures (mmtests keeps `dmesg.gz`) are
/// decompressed.
fn read_text(path: &Path) -> Result<String> {
    use std::io::Read;
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let bytes = if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_end(&mut out)
            .map_err(|e| Error::input(path, None, format!("bad gzip data: {e}")))?;
        out
    } else {
        bytes
    };
    String::from_utf8(bytes)
        .map_err(|_| Error::input(path, None, "not a text file (invalid UTF-8)"))
}

/// The context files directly inside a folder with their kinds, sorted
/// by name: each file is looked at once.
pub fn context_files_in(dir: &Path) -> Result<Vec<(PathBuf, ContextKind)>> {
    let mut out = Vec::new();
    let rd = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    for entry in rd {
        let p = entry.map_err(|e| Error::io(dir, e))?.path();
        if p.is_file() {
            if let Some(kind) = context::sniff(&p) {
                out.push((p, kind));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// Snapshot and capture files directly inside a folder, sorted by name.
pub fn env_files_in(dir: &Path) -> Result<Vec<PathBuf>> {
    Ok(context_files_in(dir)?
        .into_iter()
        .filter(|(_, k)| matches!(k, ContextKind::Snapshot | ContextKind::Capture(_)))
        .map(|(p, _)| p)
        .collect())
}

/// The compiler from a `/proc/version` line: the first parenthesised group
/// that names a compiler (`gcc (GCC) 15.3.0, GNU ld …` → `gcc (GCC) 15.3.0`).
pub fn compiler_of_version(version: &str) -> Option<String> {
    // Split into top-level parenthesised groups.
    let mut depth = 0usize;
    let mut start = 0usize;
    let mut groups = Vec::new();
    for (i, c) in version.char_indices() {
        match c {
            '(' => {
                if depth == 0 {
                    start = i + 1;
                }
                depth += 1;
            }
            ')' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    groups.push(&version[start..i]);
                }
            }
            _ => {}
        }
    }
    groups
        .into_iter()
        .find(|g| g.contains("gcc") || g.contains("clang") || g.contains("GCC"))
        .map(|g| g.split(',').next().unwrap_or(g).trim().to_string())
}

fn parse_capture(snap: &mut Snapshot, path: &Path, kind: CaptureKind, text: &str) -> Result<()> {
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    match kind {
        CaptureKind::Uname => {
            if !first.contains(' ') {
                return Err(Error::input(
                    path,
                    Some(1),
                    "expected `uname -a` output (Linux HOST RELEASE …)",
                ));
            }
            snap.set("uname", first);
            if let Some(release) = first.split_whitespace().nth(2) {
                snap.set("kernel.release", release);
            }
        }
        CaptureKind::Cmdline => snap.set("cmdline", first),
        CaptureKind::Version => {
            if !first.starts_with("Linux version") {
                return Err(Error::input(
                    path,
                    Some(1),
                    "expected /proc/version text (`Linux version …`)",
                ));
            }
            snap.set("version", first);
            match compiler_of_version(first) {
                Some(c) => snap.set("compiler", c),
                None => snap.unavailable("compiler", "not found in /proc/version"),
            }
        }
        CaptureKind::Tainted => {
            let v: u64 = first.parse().map_err(|_| {
                Error::input(
                    path,
                    Some(1),
                    format!("expected the taint mask (a number), got `{first}`"),
                )
            })?;
            set_taint(snap, v);
        }
        CaptureKind::Lscpu => parse_lscpu(snap, text),
        CaptureKind::Cpufreq => parse_cpufreq_listing(snap, text),
        CaptureKind::Cpuinfo => parse_cpuinfo(snap, text),
        CaptureKind::Dmesg => {
            snap.set("dmesg.debug_banners", debug_banners(text));
            // The boot log also carries the command line and the version
            // line; a dedicated capture of either wins.
            for line in text.lines() {
                if let Some((_, cmd)) = line.split_once("Kernel command line: ") {
                    if !snap.values.contains_key("cmdline") {
                        snap.set("cmdline", cmd);
                    }
                }
                if let Some(i) = line.find("Linux version ") {
                    if !snap.values.contains_key("version") {
                        let v = &line[i..];
                        snap.set("version", v);
                        if let Some(c) = compiler_of_version(v) {
                            snap.set("compiler", c);
                        }
                    }
                }
            }
        }
        CaptureKind::LockStat => {
            // The file only exists on a kernel with lockdep; an empty save
            // (the harness's `cat` failed) says nothing.
            if !text.trim().is_empty() && !text.contains("No such file") {
                snap.set("lockdep", "present");
            }
        }
        CaptureKind::Meminfo => {
            if let Some(l) = text.lines().find(|l| l.starts_with("MemTotal:")) {
                snap.set("memory.total", l.trim_start_matches("MemTotal:").trim());
            }
        }
    }
    Ok(())
}

/// Records the taint mask and its decoded letters.
pub fn set_taint(snap: &mut Snapshot, mask: u64) {
    snap.set("tainted", mask.to_string());
    snap.set("tainted.flags", super::taint::describe(mask));
}

fn parse_lscpu(snap: &mut Snapshot, text: &str) {
    let mut threads_per_core = None;
    for line in text.lines() {
        let Some((k, v)) = line.split_once(':') else {
            continue;
        };
        let (k, v) = (k.trim(), v.trim());
        match k {
            "Model name" => snap.set("cpu.model", v),
            "CPU(s)" => snap.set("cpu.count", v),
            "Thread(s) per core" => threads_per_core = v.parse::<u32>().ok(),
            "Hypervisor vendor" => snap.set("virtualization", v),
            _ => {
                if let Some(name) = k.strip_prefix("Vulnerability ") {
                    snap.set(&vulnerability_key(name), v);
                }
            }
        }
    }
    if let Some(t) = threads_per_core {
        snap.set("smt.active", if t > 1 { "1" } else { "0" });
    }
}

/// `Spectre v2` (lscpu) and `spectre_v2` (sysfs) map to one key.
pub fn vulnerability_key(name: &str) -> String {
    format!(
        "vulnerability.{}",
        name.trim().to_ascii_lowercase().replace(' ', "_")
    )
}

fn parse_cpufreq_listing(snap: &mut Snapshot, text: &str) {
    let mut governors: BTreeMap<String, usize> = BTreeMap::new();
    let mut reason = None;
    for line in text.lines() {
        if line.contains("No such file") || line.contains("Permission denied") {
            reason = Some(line.trim().to_string());
            continue;
        }
        // cpufreq-info: `The governor "performance" may decide which speed to use`.
        if let Some(rest) = line.trim().strip_prefix("The governor \"") {
            if let Some((g, _)) = rest.split_once('"') {
                *governors.entry(g.to_string()).or_default() += 1;
            }
            continue;
        }
        if let Some((path, value)) = line.rsplit_once(':') {
            if path.ends_with("scaling_governor") && !value.trim().is_empty() {
                *governors.entry(value.trim().to_string()).or_default() += 1;
            }
        } else if !line.contains('/')
            && !line.trim().is_empty()
            && line.split_whitespace().count() == 1
        {
            // A bare governor name per line (`cat …/scaling_governor`).
            *governors.entry(line.trim().to_string()).or_default() += 1;
        }
    }
    if governors.is_empty() {
        snap.unavailable(
            "cpufreq.governor",
            reason.unwrap_or_else(|| "no governor in the capture".into()),
        );
    } else {
        snap.set("cpufreq.governor", summarise_counts(&governors));
    }
}

fn parse_cpuinfo(snap: &mut Snapshot, text: &str) {
    let mut count = 0usize;
    for line in text.lines() {
        let Some((k, v)) = line.split_once(':') else {
            continue;
        };
        match k.trim() {
            "processor" => count += 1,
            "model name" if !snap.values.contains_key("cpu.model") => {
                snap.set("cpu.model", v.trim())
            }
            "microcode" if !snap.values.contains_key("cpu.microcode") => {
                snap.set("cpu.microcode", v.trim())
            }
            _ => {}
        }
    }
    if count > 0 {
        snap.set("cpu.count", count.to_string());
    }
}

/// `performance` when all agree, else `performance ×2, powersave ×6`.
pub fn summarise_counts(counts: &BTreeMap<String, usize>) -> String {
    if counts.len() == 1 {
        return counts.keys().next().cloned().unwrap_or_default();
    }
    counts
        .iter()
        .map(|(k, n)| format!("{k} ×{n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiler_from_proc_version() {
        let v = "Linux version 6.18.44-fc-v595 (builder@sandboxing) (gcc (GCC) 15.3.0, GNU ld (GNU Binutils) 2.46) #1 SMP PREEMPT_DYNAMIC @0";
        assert_eq!(compiler_of_version(v).as_deref(), Some("gcc (GCC) 15.3.0"));
        let v = "Linux version 6.1.0-57-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP";
        assert_eq!(
            compiler_of_version(v).as_deref(),
            Some("gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0")
        );
    }

    #[test]
    fn cpufreq_listing_variants() {
        let mut s = Snapshot::default();
        parse_cpufreq_listing(
            &mut s,
            "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor: performance\n/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor: powersave\n/sys/devices/system/cpu/cpu2/cpufreq/scaling_governor: powersave\n",
        );
        assert_eq!(s.values["cpufreq.governor"], "performance ×1, powersave ×2");
        let mut s = Snapshot::default();
        parse_cpufreq_listing(
            &mut s,
            "cat: '/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor': No such file or directory\n/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor: \n",
        );
        assert!(!s.values.contains_key("cpufreq.governor"));
        assert!(s.unavailable["cpufreq.governor"].contains("No such file"));
        let mut s = Snapshot::default();
        parse_cpufreq_listing(
            &mut s,
            "analyzing CPU 0:\n  driver: intel_pstate\n  current policy: frequency should be within 800 MHz and 4.70 GHz.\n                  The governor \"powersave\" may decide which speed to use\n                  within this range.\nanalyzing CPU 1:\n                  The governor \"powersave\" may decide which speed to use\n",
        );
        assert_eq!(s.values["cpufreq.governor"], "powersave");
    }

    #[test]
    fn dmesg_capture_reveals_debug_kernels() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("dmesg.txt");
        std::fs::write(
            &p,
            "[    0.000000] Linux version 6.9.0\n[    0.101000] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc.\n[    1.2] kmemleak: Kernel memory leak detector initialized (mem pool available: 15770)\n",
        )
        .unwrap();
        let s = Snapshot::load(&p).unwrap();
        assert_eq!(s.values["dmesg.debug_banners"], "lockdep, kmemleak");
        std::fs::write(&p, "[    0.0] Linux version 6.9.0\n").unwrap();
        assert_eq!(
            Snapshot::load(&p).unwrap().values["dmesg.debug_banners"],
            "none"
        );
        // A gzipped boot log (mmtests keeps dmesg.gz) also gives the command line and compiler.
        use std::io::Write;
        let gz = dir.path().join("dmesg.gz");
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(b"[    0.000000] Linux version 6.1.0-57-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC\n[    0.000000] Command line: BOOT_IMAGE=/vmlinuz ro quiet\n[    0.02] Kernel command line: BOOT_IMAGE=/vmlinuz ro quiet mitigations=off\n").unwrap();
        std::fs::write(&gz, enc.finish().unwrap()).unwrap();
        let s = Snapshot::load(&gz).unwrap();
        assert_eq!(
            s.values["cmdline"],
            "BOOT_IMAGE=/vmlinuz ro quiet mitigations=off"
        );
        assert_eq!(
            s.values["compiler"],
            "gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0"
        );
        assert_eq!(s.values["dmesg.debug_banners"], "none");
    }

    #[test]
    fn bad_captures_are_input_errors() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("tainted");
        std::fs::write(&p, "lots\n").unwrap();
        let e = Snapshot::load(&p).unwrap_err().to_string();
        assert!(
            e.ends_with("tainted:1: expected the taint mask (a number), got `lots`"),
            "{e}"
        );
        let p = dir.path().join("env.toml");
        std::fs::write(&p, "[snapshot]\nformat = \"one\"\n").unwrap();
        let e = Snapshot::load(&p).unwrap_err().to_string();
        assert!(e.contains("env.toml:2: bad snapshot file"), "{e}");
        let e = Snapshot::load(dir.path().join("nothing.txt").as_path())
            .unwrap_err()
            .to_string();
        assert!(e.contains("nothing.txt"), "{e}");
    }

    #[test]
    fn toml_round_trip() {
        let mut s = Snapshot::default();
        s.set("cmdline", "quiet mitigations=off");
        s.unavailable("cpufreq.governor", "missing");
        let meta = Meta {
            format: 1,
            tool: "patchperf test".into(),
            captured_unix: 5,
        };
        let k = KconfigSection {
            source: "/proc/config.gz".into(),
            text: "CONFIG_HZ_1000=y\n# CONFIG_KASAN is not set\n".into(),
        };
        let text = s.to_toml(meta, Some(k)).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("env.toml");
        std::fs::write(&p, &text).unwrap();
        let back = Snapshot::load(&p).unwrap();
        assert_eq!(back.values["cmdline"], "quiet mitigations=off");
        assert_eq!(back.unavailable["cpufreq.governor"], "missing");
        let kc = back.kconfig.unwrap();
        assert_eq!(kc.get("HZ_1000"), crate::checks::kconfig::Value::Yes);
        assert!(kc.entry("KASAN").is_some());
    }
}
