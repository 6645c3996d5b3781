//! rt-tests `hackbench` (and the original `Running with N*40 (== T) tasks.`
//! program): `Running in process mode with N groups using F file
//! descriptors each (== T tasks)`, `Each sender will pass L messages of D
//! bytes`, `Time: S`. Every `Time:` is one sample of `time` in seconds (one
//! per invocation; several invocations may be concatenated in one file).
//! Parameters come from the header lines above the `Time:`. LKP's derived
//! throughput is a different metric with the opposite direction and is not
//! computed here.

use super::logscan::{any, any_with, last_line, lazy_re, num, obs, Params};
use super::{Confidence, Format, Parsed, Source};
use crate::error::Result;
use crate::model::{Observation, Stat};

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

    fn parse(&self, src: &Source) -> Result<Vec<Observation>> {
        self.parse_accounted(src).map(|p| p.observations)
    }

    /// The header lines the parameters come from are `consumed`.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut consumed = Vec::new();
        let mut params = Params::default();
        // Header line of a run still waiting for its `Time:`.
        let mut pending: Option<u32> = None;
        for l in &src.lines {
            let t = l.text.as_str();
            if let Some(c) = RUNNING.captures(t) {
                if let Some(start) = pending {
                    return Err(src.error(
                        Some(start),
                        "hackbench run has no `Time:` line (truncated output?)",
                    ));
                }
                params = Params::default();
                params.set("mode", &c[1]);
                params.set("groups", &c[2]);
                params.set("fds", &c[3]);
                pending = Some(l.number);
                consumed.push(l.number);
            } else if let Some(c) = OLD_RUNNING.captures(t) {
                if let Some(start) = pending {
                    return Err(src.error(
                        Some(start),
                        "hackbench run has no `Time:` line (truncated output?)",
                    ));
                }
                params = Params::default();
                params.set("groups", &c[1]);
                params.set("fds", &c[2]);
                pending = Some(l.number);
                consumed.push(l.number);
            } else if let Some(c) = MESSAGES.captures(t) {
                params.set("loops", &c[1]);
                params.set("datasize", &c[2]);
                consumed.push(l.number);
            } else if let Some(c) = TIME.captures(t) {
                let v = num(src, l.number, &c[1], "Time")?;
                out.push(obs(
                    src,
                    l.number,
                    "hackbench",
                    &params.render(),
                    "time",
                    "s",
                    Stat::Sample,
                    v,
                ));
                pending = None;
            }
        }
        if let Some(start) = pending {
            return Err(src.error(
                Some(start),
                "hackbench run has no `Time:` line (truncated output?)",
            ));
        }
        if out.is_empty() {
            return Err(src.error(last_line(src), "no hackbench `Time:` line found"));
        }
        Ok(Parsed {
            observations: out,
            consumed,
            skipped: Vec::new(),
        })
    }
}
