//! Files that sit beside benchmark results but are not results: kernel
//! configs, environment snapshots and captures. Ingest recognises them so
//! that a variant folder holding `config-6.8` next to its logs is not
//! reported as unreadable input; `patchperf check` is what reads them.

use super::Source;

/// What kind of context file `src` is, if it is one.
pub fn context_kind(src: &Source) -> Option<&'static str> {
    let first = src
        .lines
        .iter()
        .map(|l| l.text.trim())
        .find(|t| !t.is_empty())?;
    if first.starts_with("# patchperf environment snapshot") {
        return Some("environment snapshot");
    }
    if is_kernel_config(src) {
        return Some("kernel config");
    }
    // The rules below ask only whether there are one, two or more
    // meaningful lines, or test them in order until one fails: nothing
    // needs the lines of a large input collected.
    let meaningful = || {
        src.lines
            .iter()
            .map(|l| l.text.trim())
            .filter(|t| !t.is_empty())
    };
    let count = meaningful().take(3).count();
    if first.starts_with("Linux version ") && count <= 2 {
        return Some("kernel version (/proc/version)");
    }
    if first.starts_with("Linux ") && count == 1 && first.contains(" SMP") {
        return Some("uname -a");
    }
    if first.starts_with("Architecture:") && meaningful().any(|l| l.starts_with("CPU(s):")) {
        return Some("lscpu");
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
        assignments >= 3 && assignments * 4 >= words
    };
    if count == 1
        && first.starts_with(|c: char| c.is_ascii_alphabetic())
        && (first.contains("BOOT_IMAGE=") || mostly_assignments())
    {
        return Some("kernel command line (/proc/cmdline)");
    }
    if meaningful().all(|l| l.contains("/sys/devices/system/cpu/") || l.starts_with("cat: ")) {
        return Some("cpufreq capture");
    }
    if count == 1 && first.parse::<u64>().is_ok() && src.file_name().contains("taint") {
        return Some("taint flags (/proc/sys/kernel/tainted)");
    }
    None
}

fn is_kernel_config(src: &Source) -> bool {
    let mut config = 0usize;
    let mut other = 0usize;
    for l in src.lines.iter().take(400) {
        let t = l.text.trim();
        if t.is_empty() || (t.starts_with('#') && !t.contains("CONFIG_")) {
            continue;
        }
        if t.starts_with("CONFIG_") && t.contains('=')
            || (t.starts_with("# CONFIG_") && t.ends_with("is not set"))
        {
            config += 1;
        } else {
            other += 1;
        }
    }
    config >= 5 && other * 10 <= config
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_configs_and_captures() {
        let cfg = "#\n# Automatically generated file\n#\nCONFIG_A=y\nCONFIG_B=m\n# CONFIG_C is not set\nCONFIG_D=\"x\"\nCONFIG_HZ=250\n";
        assert_eq!(
            context_kind(&Source::from_text("c", cfg)),
            Some("kernel config")
        );
        let uname = "Linux vm 6.18.44 #1 SMP PREEMPT_DYNAMIC @0 x86_64 GNU/Linux\n";
        assert_eq!(
            context_kind(&Source::from_text("u", uname)),
            Some("uname -a")
        );
        assert_eq!(context_kind(&Source::from_text("h", "Time: 2.978\n")), None);
        assert_eq!(
            context_kind(&Source::from_text(
                "t",
                "key=1 other=2 third=3 fourth=4\nx=1\n"
            )),
            None
        );
        let json = r#"{"benchmarks": [{"metadata": {"a": "x=1 y=2 z=3"}}]}"#;
        assert_eq!(context_kind(&Source::from_text("j", json)), None);
        let cmdline = "BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro quiet mitigations=off\n";
        assert_eq!(
            context_kind(&Source::from_text("c", cmdline)),
            Some("kernel command line (/proc/cmdline)")
        );
    }
}
