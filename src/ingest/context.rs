//! Files that sit beside benchmark results but are not results: kernel
//! configs, environment snapshots and captures (`uname -a`,
//! `/proc/cmdline`, `lscpu` …). One rule set, used by ingest (so that a
//! variant folder holding `config-6.8` next to its logs is not reported as
//! unreadable input) and by `patchperf check` and `compare --kconfig/--env`
//! (which read them).
//!
//! The content decides where it can: a snapshot and a kernel config are
//! recognised by their lines, as are the captures whose text says what it
//! is. A file's name says the rest (`cpuinfo`, `dmesg.gz`, `env-uname.txt`),
//! and lets a short config fragment named `config-6.8` count as a config.

use super::Source;
use std::io::{BufRead, Read};
use std::path::Path;

/// What a context file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContextKind {
    /// A `patchperf snapshot` file.
    Snapshot,
    /// A kernel `.config`.
    KernelConfig,
    /// One capture of the running system.
    Capture(CaptureKind),
}

/// What a loose capture file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaptureKind {
    /// `uname -a` output.
    Uname,
    /// The kernel command line (`/proc/cmdline`).
    Cmdline,
    /// `/proc/version`.
    Version,
    /// `lscpu` output.
    Lscpu,
    /// CPU frequency settings (cpufreq governor, frequencies).
    Cpufreq,
    /// The kernel's taint flags (`/proc/sys/kernel/tainted`).
    Tainted,
    /// `/proc/cpuinfo`.
    Cpuinfo,
    /// `/proc/meminfo`.
    Meminfo,
    /// The kernel log (`dmesg`).
    Dmesg,
    /// `/proc/lock_stat` or `/proc/lockdep` saved by a harness: lockdep was on.
    LockStat,
}

impl ContextKind {
    /// How ingest names it when it leaves the file out.
    pub fn label(self) -> &'static str {
        match self {
            ContextKind::Snapshot => "environment snapshot",
            ContextKind::KernelConfig => "kernel config",
            ContextKind::Capture(c) => match c {
                CaptureKind::Uname => "uname -a",
                CaptureKind::Cmdline => "kernel command line (/proc/cmdline)",
                CaptureKind::Version => "kernel version (/proc/version)",
                CaptureKind::Lscpu => "lscpu",
                CaptureKind::Cpufreq => "cpufreq capture",
                CaptureKind::Tainted => "taint flags (/proc/sys/kernel/tainted)",
                CaptureKind::Cpuinfo => "CPU description (/proc/cpuinfo)",
                CaptureKind::Meminfo => "memory counters (/proc/meminfo)",
                CaptureKind::Dmesg => "kernel log (dmesg)",
                CaptureKind::LockStat => "lock statistics (/proc/lock_stat)",
            },
        }
    }
}

/// Lines of a file's start that the rules look at: enough for any config
/// preamble or capture, few enough to cost nothing on a large input.
const HEAD_LINES: usize = 400;

/// Bytes read from a file's start by [`sniff`].
const HEAD_BYTES: u64 = 64 * 1024;

/// What kind of context file `src` is, if it is one.
pub fn context_kind(src: &Source) -> Option<ContextKind> {
    let head: Vec<&str> = src.line_texts().take(HEAD_LINES).map(|l| l.text).collect();
    classify(src.file_name(), &head)
}

/// What kind of context file `path` is, from its name and its first
/// 64 KiB (gzip decompressed); `None` when it is none or cannot be read.
pub fn sniff(path: &Path) -> Option<ContextKind> {
    // One open: the gzip magic is peeked in the buffer the text is read from.
    let mut file = std::io::BufReader::new(std::fs::File::open(path).ok()?);
    let is_gz = file.fill_buf().ok()?.starts_with(&[0x1f, 0x8b]);
    let mut head = Vec::new();
    if is_gz {
        flate2::bufread::GzDecoder::new(file)
            .take(HEAD_BYTES)
            .read_to_end(&mut head)
    } else {
        file.take(HEAD_BYTES).read_to_end(&mut head)
    }
    .ok()?;
    let text = String::from_utf8_lossy(&head);
    let lines: Vec<&str> = text.lines().take(HEAD_LINES).collect();
    let name = path.file_name()?.to_str()?;
    classify(name, &lines)
}

/// The rules: what a file named `name` whose first lines are `head` holds.
pub fn classify(name: &str, head: &[&str]) -> Option<ContextKind> {
    let meaningful: Vec<&str> = head
        .iter()
        .map(|l| l.trim())
        .filter(|t| !t.is_empty())
        .collect();
    let first = *meaningful.first()?;
    if first.starts_with("# patchperf environment snapshot") || meaningful.contains(&"[snapshot]") {
        return Some(ContextKind::Snapshot);
    }
    let (config, other) = config_lines(&meaningful);
    // Almost every line an option: a config whatever its name; a short
    // fragment only when its name says so.
    if other * 10 <= config && (config >= 5 || (config >= 1 && is_config_name(name))) {
        return Some(ContextKind::KernelConfig);
    }
    capture_by_content(first, &meaningful, name)
        .or_else(|| capture_by_name(name))
        .map(ContextKind::Capture)
}

/// Option lines (`CONFIG_X=…`, `# CONFIG_X is not set`) and other lines
/// that are not comments.
fn config_lines(meaningful: &[&str]) -> (usize, usize) {
    let (mut config, mut other) = (0usize, 0usize);
    for t in meaningful {
        if t.starts_with("CONFIG_") && t.contains('=')
            || (t.starts_with("# CONFIG_") && t.ends_with("is not set"))
        {
            config += 1;
        } else if !t.starts_with('#') {
            other += 1;
        }
    }
    (config, other)
}

/// The names kernel configs go by: `.config`, `config-6.8`, `config.gz`,
/// `kconfig-base`.
pub fn is_config_name(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    name.ends_with(".config")
        || name == "config.gz"
        || name == "config"
        || name.starts_with("config-")
        || name.starts_with("kconfig")
}

/// A capture whose text says what it is.
fn capture_by_content(first: &str, meaningful: &[&str], name: &str) -> Option<CaptureKind> {
    let count = meaningful.len().min(3);
    if first.starts_with("Linux version ") && count <= 2 {
        return Some(CaptureKind::Version);
    }
    if first.starts_with("Linux ") && count == 1 && first.contains(" SMP") {
        return Some(CaptureKind::Uname);
    }
    if first.starts_with("Architecture:") && meaningful.iter().any(|l| l.starts_with("CPU(s):")) {
        return Some(CaptureKind::Lscpu);
    }
    // Words are counted only for a one-line input starting with a letter:
    // the first line of a JSON document is often all of it.
    let mostly_assignments = || {
        let (mut words, mut assignments) = (0usize, 0usize);
        for w in first.split_whitespace() {
            words += 1;
            if w.contains('=') && !w.contains(['"', '{']) {
                assignments += 1;
            }
        }
        // A result line of `key=number` pairs (`megabytes=3574.6 …
        // rate_Mbps=14997.7`) is a measurement: a command line sets
        // devices, paths and words too.
        let all_numbers = first.split_whitespace().all(|w| {
            w.split_once('=')
                .is_some_and(|(_, v)| crate::ingest::shared::numbers::parse_number(v).is_some())
        });
        // A word ending in a colon labels what follows (`READ: io=2051.2MB,
        // aggrb=78853KB/s, …`): a command line has none.
        let labelled = first
            .split_whitespace()
            .any(|w| w.len() > 1 && w.ends_with(':'));
        assignments >= 3 && assignments * 4 >= words && !all_numbers && !labelled
    };
    if count == 1
        && first.starts_with(|c: char| c.is_ascii_alphabetic())
        && (first.contains("BOOT_IMAGE=") || mostly_assignments())
    {
        return Some(CaptureKind::Cmdline);
    }
    if meaningful
        .iter()
        .all(|l| l.contains("/sys/devices/system/cpu/") || l.starts_with("cat: "))
    {
        return Some(CaptureKind::Cpufreq);
    }
    if count == 1 && first.parse::<u64>().is_ok() && name.contains("taint") {
        return Some(CaptureKind::Tainted);
    }
    None
}

/// The kind of capture a file name says it is (`env-uname.txt`, `cmdline`,
/// `uname-a.log`, `proc-version`, `dmesg.gz` …).
pub fn capture_by_name(name: &str) -> Option<CaptureKind> {
    let name = name.to_ascii_lowercase();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    let stem = Path::new(name).file_stem()?.to_str()?.to_string();
    let stem = stem
        .trim_start_matches("env-")
        .trim_start_matches("env_")
        .trim_start_matches("proc-")
        .trim_start_matches("proc_");
    Some(match stem {
        "uname" | "uname-a" | "uname_a" => CaptureKind::Uname,
        "cmdline" => CaptureKind::Cmdline,
        "version" | "kernel-version" => CaptureKind::Version,
        "lscpu" => CaptureKind::Lscpu,
        "cpufreq" | "governor" | "scaling_governor" | "cpufreq-info" => CaptureKind::Cpufreq,
        "tainted" | "taint" => CaptureKind::Tainted,
        "cpuinfo" => CaptureKind::Cpuinfo,
        "meminfo" => CaptureKind::Meminfo,
        "dmesg" | "kmsg" | "boot-log" => CaptureKind::Dmesg,
        "lock_stat" | "lock-stat" | "lockdep" | "lockdep_stats" => CaptureKind::LockStat,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(name: &str, text: &str) -> Option<ContextKind> {
        context_kind(&Source::from_text(name, text))
    }

    #[test]
    fn recognises_configs_and_captures_by_content() {
        let cfg = "#\n# Automatically generated file\n#\nCONFIG_A=y\nCONFIG_B=m\n# CONFIG_C is not set\nCONFIG_D=\"x\"\nCONFIG_HZ=250\n";
        assert_eq!(kind("c", cfg), Some(ContextKind::KernelConfig));
        let uname = "Linux vm 6.18.44 #1 SMP PREEMPT_DYNAMIC @0 x86_64 GNU/Linux\n";
        assert_eq!(
            kind("u", uname),
            Some(ContextKind::Capture(CaptureKind::Uname))
        );
        assert_eq!(kind("h", "Time: 2.978\n"), None);
        assert_eq!(kind("t", "key=1 other=2 third=3 fourth=4\nx=1\n"), None);
        let json = r#"{"benchmarks": [{"metadata": {"a": "x=1 y=2 z=3"}}]}"#;
        assert_eq!(kind("j", json), None);
        // fio 2's group lines pasted on one line (a deployment tool's
        // output cell) are results, not a command line.
        let fio = "testresult  String  READ: io=2051.2MB, aggrb=78853KB/s, minb=19713KB/s, maxb=20024KB/s, mint=26222msec, maxt=26636msec;\n";
        assert_eq!(kind("f", fio), None);
        let args = "console=ttyS0,115200 isolcpus=2-7 nohz_full=2-7 mitigations=off\n";
        assert_eq!(
            kind("c", args).map(ContextKind::label),
            Some("kernel command line (/proc/cmdline)")
        );
        let cmdline = "BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro quiet mitigations=off\n";
        assert_eq!(
            kind("c", cmdline).map(ContextKind::label),
            Some("kernel command line (/proc/cmdline)")
        );
    }

    #[test]
    fn a_snapshot_by_its_header_or_its_table() {
        let written = "# patchperf environment snapshot: keep it\n\n[snapshot]\nformat = 1\n";
        assert_eq!(kind("s.toml", written), Some(ContextKind::Snapshot));
        let edited = "[snapshot]\nformat = 1\n\n[values]\n";
        assert_eq!(kind("host.toml", edited), Some(ContextKind::Snapshot));
    }

    #[test]
    fn the_name_admits_a_short_fragment_but_never_a_log() {
        let fragment = "CONFIG_PROVE_LOCKING=y\nCONFIG_KASAN=y\n";
        assert_eq!(
            kind("config-6.8", fragment),
            Some(ContextKind::KernelConfig)
        );
        assert_eq!(kind("results.txt", fragment), None);
        // A config name on a job file: the content decides.
        let fio = "[global]\nioengine=libaio\n[job1]\nrw=randread\n";
        assert_eq!(kind("config-fio.config", fio), None);
    }

    #[test]
    fn capture_kinds_by_name() {
        assert_eq!(capture_by_name("env-uname.txt"), Some(CaptureKind::Uname));
        assert_eq!(capture_by_name("cmdline"), Some(CaptureKind::Cmdline));
        assert_eq!(capture_by_name("env-lscpu.txt"), Some(CaptureKind::Lscpu));
        assert_eq!(capture_by_name("lock_stat"), Some(CaptureKind::LockStat));
        assert_eq!(capture_by_name("dmesg.gz"), Some(CaptureKind::Dmesg));
        assert_eq!(capture_by_name("hackbench-baseline-1.txt"), None);
        let meminfo = "MemTotal:       16384000 kB\nMemFree:         1200000 kB\n";
        assert_eq!(
            kind("meminfo", meminfo),
            Some(ContextKind::Capture(CaptureKind::Meminfo))
        );
    }

    #[test]
    fn sniffs_files_and_gzip() {
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("config-6.8");
        std::fs::write(&plain, "CONFIG_A=y\n").unwrap();
        assert_eq!(sniff(&plain), Some(ContextKind::KernelConfig));
        let gz = dir.path().join("config.gz");
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut enc, b"CONFIG_A=y\nCONFIG_B=m\n").unwrap();
        std::fs::write(&gz, enc.finish().unwrap()).unwrap();
        assert_eq!(sniff(&gz), Some(ContextKind::KernelConfig));
        assert_eq!(sniff(&dir.path().join("missing")), None);
    }
}
