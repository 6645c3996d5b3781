//! The lines LKP (the kernel test robot, intel/lkp-tests) writes around a
//! benchmark's own output in its logs: `Instance: N` over each of several
//! concurrent instances, the `PATH=…` it runs with, the sysctl settings it
//! makes (`kernel.pid_max = 655360`), `Iterations: N` (or `Iteration : N`)
//! before each repetition and the command line behind a timestamp
//! (`2026-07-19 18:06:13 hackbench -g 256 …`), and the `perf version` of
//! its monitors. They carry numbers that
//! are no result of the benchmark: a reader of the tool's output leaves
//! them out with the reason this gives, so that no other reader takes them
//! for values (an iteration counter as a sample count, a sysctl as a
//! metric).

use super::pattern::lazy_re;

lazy_re!(INSTANCE, r"^Instance: \d+\s*$");
lazy_re!(ITERATION, r"^Iterations? ?: \d+\s*$");
lazy_re!(ENVIRONMENT, r"^[A-Z_][A-Z0-9_]*=\S*\s*$");
lazy_re!(
    SYSCTL,
    r"^[a-z][a-z0-9_-]*(?:\.[a-z0-9_-]+)+ = \S+(?:\s+\S+)*\s*$"
);
lazy_re!(COMMAND, r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S");
lazy_re!(PERF, r"^perf version \S+\s*$");

/// Why `line` is one of LKP's own lines, or `None` when it is not. The
/// command line is LKP's only when it runs `program` (its base name).
pub(in crate::ingest) fn reason(line: &str, program: &str) -> Option<&'static str> {
    let t = line.trim_end();
    if INSTANCE.is_match(t) {
        Some("LKP wrapper: the number of a concurrent instance, not a value")
    } else if ITERATION.is_match(t) {
        Some("LKP wrapper: the count of the repetition that follows, not a value")
    } else if ENVIRONMENT.is_match(t) {
        Some("LKP wrapper: the environment the benchmark runs with")
    } else if SYSCTL.is_match(t) {
        Some("LKP wrapper: a sysctl set before the run, not a result")
    } else if PERF.is_match(t) {
        Some("LKP wrapper: the version of the perf its monitors run")
    } else if COMMAND.is_match(t) && runs(t, program) {
        Some("LKP wrapper: the command it runs, behind a timestamp (its output's own lines give the parameters)")
    } else {
        None
    }
}

/// Whether `line` is a command LKP logged behind a timestamp (of any
/// program, `wait` included): a line of the wrapper, never a heading of the
/// output under it.
pub(in crate::ingest) fn is_logged_command(line: &str) -> bool {
    COMMAND.is_match(line.trim())
}

/// Whether the timestamped command line `t` runs `program`.
fn runs(t: &str, program: &str) -> bool {
    t.split_whitespace()
        .nth(2)
        .is_some_and(|cmd| cmd.rsplit('/').next() == Some(program))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapper_lines_and_not_results() {
        for line in [
            "Instance: 2",
            "Iterations: 8",
            "Iteration : 1",
            "PATH=/lkp/benchmarks/hackbench/usr/local/bin:/usr/bin",
            "kernel.pid_max = 655360",
            "vm.max_map_count = 32768000",
            "2026-07-19 18:06:13 hackbench -g 256 -f 20 --process --pipe -l 30000 -s 100",
            "2026-07-21 10:00:00 ./hackbench -g 1",
            "perf version 7.2.rc3.g94515f3a7d42",
        ] {
            assert!(reason(line, "hackbench").is_some(), "{line}");
        }
        for line in [
            "Time: 9.541",
            "Each sender will pass 30000 messages of 100 bytes",
            "2026-07-19 18:06:13 schbench -m 1",
            "Iterations: many",
        ] {
            assert_eq!(reason(line, "hackbench"), None, "{line}");
        }
    }
}
