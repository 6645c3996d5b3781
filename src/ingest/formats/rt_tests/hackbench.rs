//! rt-tests `hackbench` (and the original `Running with N*40 (== T) tasks.`
//! program): `Running in process mode with N groups using F file
//! descriptors each (== T tasks)`, `Each sender will pass L messages of D
//! bytes`, `Time: S`. Every `Time:` is one sample of `time` in seconds (one
//! per invocation; several invocations may be concatenated in one file).
//! Parameters come from the header lines above the `Time:`. LKP's derived
//! throughput is a different metric with the opposite direction and is not
//! computed here; the lines LKP writes around the runs (`Iterations: N`,
//! `PATH=…`, sysctls, the timestamped command) are left out with the reason
//! ([`lkp_wrapper`]), so that their numbers are read by no other reader.

use crate::error::Result;
use crate::ingest::shared::lkp_wrapper;
use crate::ingest::shared::logscan::{any, any_with, is_space, lazy_re, num, Params, Repeated};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::SmolStr;

lazy_re!(
    RUNNING,
    r"^Running in (process|threaded) mode with (\d+) groups using (\d+) file descriptors each \(== (\d+) tasks\)"
);
lazy_re!(
    MESSAGES,
    r"^Each sender will pass (\d+) messages of (\d+) bytes"
);
lazy_re!(TIME, r"^Time:\s*(\S+)\s*$");
// The original hackbench.c that predates rt-tests (still quoted on the lists).
lazy_re!(
    OLD_RUNNING,
    r"^Running with (\d+)\*(\d+) \(== (\d+)\) tasks\.?"
);

/// The value of a `Time: S` line, as [`TIME`] captures it; ASCII lines
/// (all of them in practice) are read without the regex.
fn time_value(t: &str) -> Option<&str> {
    let rest = t.strip_prefix("Time:")?;
    if !rest.is_ascii() {
        return TIME.captures(t).and_then(|c| c.get(1)).map(|m| m.as_str());
    }
    let b = rest.as_bytes();
    let start = b.iter().position(|&c| !is_space(c))?;
    let end = b[start..]
        .iter()
        .position(|&c| is_space(c))
        .map_or(b.len(), |i| start + i);
    b[end..]
        .iter()
        .all(|&c| is_space(c))
        .then(|| &rest[start..end])
}

/// The run header in force: rt-tests' (mode, groups, fds) or the original
/// program's (groups, fds).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Header<'t> {
    None,
    Running([&'t str; 3]),
    Old([&'t str; 2]),
}

/// What a run's params are made of: its header and its message count and
/// size.
type RunKey<'t> = (Header<'t>, Option<[&'t str; 2]>);

/// The params of a run: its header, then the message count and size.
fn render(header: Header, sizes: Option<[&str; 2]>) -> SmolStr {
    let mut p = Params::default();
    match header {
        Header::None => {}
        Header::Running([mode, groups, fds]) => {
            p.set("mode", mode);
            p.set("groups", groups);
            p.set("fds", fds);
        }
        Header::Old([groups, fds]) => {
            p.set("groups", groups);
            p.set("fds", fds);
        }
    }
    if let Some([loops, datasize]) = sizes {
        p.set("loops", loops);
        p.set("datasize", datasize);
    }
    p.render().into()
}

/// The rt-tests hackbench importer.
pub struct Hackbench;

impl Format for Hackbench {
    fn name(&self) -> &'static str {
        "hackbench"
    }

    fn description(&self) -> &'static str {
        "rt-tests hackbench: `Running in process|threaded mode with N groups …` + `Time: S`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let header =
            any_with(src, "Running in ", &RUNNING) || any_with(src, "Running with ", &OLD_RUNNING);
        if !header {
            return 0;
        }
        match (header, any(src, &TIME)) {
            (true, true) => 95,
            (true, false) => 60,
            _ => 0,
        }
    }

    /// The header lines the parameters come from are `consumed`.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut consumed = Vec::new();
        let mut skipped = Vec::new();
        // The header values in force, as captured: params are rendered
        // from them only when they differ from the last rendered ones (a
        // log repeats one header before every run).
        let mut header = Header::None;
        let mut sizes: Option<[&str; 2]> = None;
        let mut rendered: Option<(RunKey, SmolStr)> = None;
        // Header line of a run still waiting for its `Time:`.
        let mut pending: Option<u32> = None;
        // Every value is this row with its params, line and value set.
        let template = Row::at(src, 0)
            .benchmark("hackbench")
            .metric("time")
            .unit("s")
            .sample(0.0);
        let mut running = Repeated::<3>::default();
        let mut old_running = Repeated::<2>::default();
        let mut messages = Repeated::<2>::default();
        // Each pattern is anchored at a literal of its own, so the start
        // of a line says which one can match.
        for l in &src.lines {
            let t = l.text.as_str();
            if t.starts_with("Time:") {
                let Some(value) = time_value(t) else {
                    continue;
                };
                let v = num(src, l.number, value, "Time")?;
                let key = (header, sizes);
                let params = match &rendered {
                    Some((k, p)) if *k == key => p.clone(),
                    _ => {
                        let p = render(header, sizes);
                        rendered = Some((key, p.clone()));
                        p
                    }
                };
                let mut o = template.clone();
                o.params = params;
                o.line = l.number;
                o.value = v;
                out.push(o);
                pending = None;
            } else if t.starts_with("Running in ") || t.starts_with("Running with ") {
                let new = if t.starts_with("Running in ") {
                    running.captures(&RUNNING, t).map(Header::Running)
                } else {
                    old_running.captures(&OLD_RUNNING, t).map(Header::Old)
                };
                let Some(new) = new else {
                    continue;
                };
                if let Some(start) = pending {
                    return Err(src.error(
                        Some(start),
                        "hackbench run has no `Time:` line (truncated output?)",
                    ));
                }
                header = new;
                sizes = None;
                pending = Some(l.number);
                consumed.push(l.number);
            } else if t.starts_with("Each sender will pass ") {
                let Some(caps) = messages.captures(&MESSAGES, t) else {
                    continue;
                };
                sizes = Some(caps);
                consumed.push(l.number);
            } else if let Some(why) = lkp_wrapper::reason(t, "hackbench") {
                skipped.push((l.number, why.to_string()));
            }
        }
        if let Some(start) = pending {
            return Err(src.error(
                Some(start),
                "hackbench run has no `Time:` line (truncated output?)",
            ));
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no hackbench `Time:` line found",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_lines_are_read_as_the_regex_reads_them() {
        for t in [
            "Time: 0.465",
            "Time:0.465",
            "Time:\t1,234.5  ",
            "Time: 0.465 s",
            "Time:",
            "Time:   ",
            "Time: \u{b}2.5\u{c}",
            "Time: 2.5\u{a0}",
            "Time:\u{a0}2.5",
        ] {
            let want = TIME.captures(t).map(|c| c[1].to_string());
            assert_eq!(time_value(t).map(str::to_string), want, "{t:?}");
        }
    }

    #[test]
    fn a_repeated_header_keeps_only_its_own_params() {
        let text = "Running in process mode with 4 groups using 40 file descriptors each (== 160 tasks)\n\
                    Each sender will pass 200 messages of 100 bytes\n\
                    Time: 0.5\n\
                    Running in process mode with 4 groups using 40 file descriptors each (== 160 tasks)\n\
                    Time: 0.6\n\
                    Running with 2*20 (== 40) tasks.\n\
                    Time: 0.7\n";
        let text =
            format!("Each sender will pass 10 messages of 1 bytes\nTime: 0.1\nTime: 0.2\n{text}");
        let obs = Hackbench.parse(&Source::from_text("h.txt", &text)).unwrap();
        let params: Vec<&str> = obs.iter().map(|o| o.params.as_str()).collect();
        assert_eq!(
            params,
            vec![
                "datasize=1,loops=10",
                "datasize=1,loops=10",
                "datasize=100,fds=40,groups=4,loops=200,mode=process",
                "fds=40,groups=4,mode=process",
                "fds=20,groups=2",
            ]
        );
        assert_eq!(obs[4].line, 10);
        assert_eq!(obs[4].value, 0.7);
    }

    #[test]
    fn lkp_wrapper_lines_are_left_out_with_their_reason() {
        let p = crate::ingest::parse_file(
            &Hackbench,
            "tests/data/harness/rt-tests/hackbench-lkp-2-instances.txt",
        );
        let times: Vec<(&str, f64)> = p
            .observations
            .iter()
            .map(|o| (o.params.as_str(), o.value))
            .collect();
        let (one, two) = (
            "datasize=100,fds=40,groups=2,loops=7680000,mode=threaded",
            "datasize=100,fds=40,groups=8192,loops=1875,mode=threaded",
        );
        assert_eq!(
            times,
            vec![
                (one, 765.710),
                (one, 941.530),
                (one, 893.702),
                (one, 626.166),
                (one, 753.592),
                (one, 757.467),
                (one, 827.852),
                (one, 863.786),
                (two, 47.847),
                (two, 58.362),
                (two, 58.526),
                (two, 54.657),
                (two, 75.854),
                (two, 70.944),
                (two, 68.091),
                (two, 94.161)
            ]
        );
        let reason = |line: u32| {
            p.skipped
                .iter()
                .find(|(n, _)| *n == line)
                .map(|(_, why)| why.as_str())
                .unwrap_or_default()
        };
        // Instance, PATH, Iterations, the command; then instance 2's
        // sysctls.
        assert!(reason(1).contains("instance"));
        assert!(reason(2).contains("environment"));
        assert!(reason(3).contains("repetition"));
        assert!(reason(4).contains("command"));
        assert!(reason(47).contains("sysctl"));
        // Every line is a value, a header or one of LKP's.
        let mut used: Vec<u32> = p.observations.iter().map(|o| o.line).collect();
        used.extend(&p.consumed);
        used.extend(p.skipped.iter().map(|(n, _)| *n));
        used.sort_unstable();
        assert_eq!(used, (1..=87).collect::<Vec<u32>>());
    }
}
