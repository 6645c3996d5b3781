//! kbuild, the kernel-build benchmark of LKP (the kernel test robot): each
//! build is framed by `start time: <epoch>.<ns>` and `end time:
//! <epoch>.<ns>`, with (newer runs) the shell's `real: 33.544s`, `user:`
//! and `sys:` of the `make` between them; before it, the logged `make
//! defconfig` (or any `*config` target) says which configuration is
//! built, and `iterations: N` and `runtime: N` close the loop.
//!
//! Benchmark `kbuild`, parameter `config` (the Kconfig target); per build,
//! metrics `build time` (end minus start, s) and, where printed, `real
//! time`, `user time` and `sys time` (s), each a `sample` of the build: a
//! loop of builds gives one run each. The closing count and runtime
//! summarise the builds and are context; the build's own output and the
//! logged commands are the wrapper's.

use crate::error::Result;
use crate::ingest::shared::lkp_wrapper;
use crate::ingest::shared::logscan::{any_with, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(START, r"^start time: (\d+)(\.\d+)?\s*$");
lazy_re!(END, r"^end time: (\d+)(\.\d+)?\s*$");
lazy_re!(TIME, r"^(real|user|sys): (\d+(?:\.\d+)?)s\s*$");
lazy_re!(CONFIG, r"\smake (\w*config)\s*$");
lazy_re!(SUMMARY, r"^(iterations|runtime): \d+\s*$");

/// The kbuild importer.
pub struct Kbuild;

impl Format for Kbuild {
    fn name(&self) -> &'static str {
        "kbuild"
    }

    fn description(&self) -> &'static str {
        "LKP kbuild: builds framed by `start time:` and `end time:` (epoch), with `real:`/`user:`/`sys:`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if any_with(src, "start time: ", &START) && any_with(src, "end time: ", &END) {
            90
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let mut params = Params::default();
        let mut start: Option<(i64, f64)> = None;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim_end());
            if let Some(c) = START.captures(t) {
                start = Some(epoch(src, n, &c[1], c.get(2).map(|m| m.as_str()))?);
                consumed.push(n);
            } else if let Some(c) = END.captures(t) {
                let end = epoch(src, n, &c[1], c.get(2).map(|m| m.as_str()))?;
                let Some(begun) = start.take() else {
                    skipped.push((n, "an end time with no start time above it".into()));
                    continue;
                };
                // Whole seconds and fractions apart: an epoch in
                // nanoseconds has more digits than a double holds.
                let took = (end.0 - begun.0) as f64 + (end.1 - begun.1);
                out.push(
                    Row::at(src, n)
                        .benchmark("kbuild")
                        .params(&params.render())
                        .metric("build time")
                        .unit("s")
                        .sample(took),
                );
            } else if let Some(c) = TIME.captures(t) {
                let metric = format!("{} time", &c[1]);
                let v = num(src, n, &c[2], &metric)?;
                out.push(
                    Row::at(src, n)
                        .benchmark("kbuild")
                        .params(&params.render())
                        .metric(&metric)
                        .unit("s")
                        .sample(v),
                );
            } else if SUMMARY.is_match(t) {
                consumed.push(n);
            } else if lkp_wrapper::is_logged_command(t) {
                if let Some(c) = CONFIG.captures(t) {
                    params.set("config", &c[1]);
                }
                skipped.push((n, "LKP wrapper: a command it runs around the build".into()));
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no kbuild `start time:` … `end time:` build",
        )
    }
}

/// An epoch `seconds.fraction` as its whole seconds and its fraction.
fn epoch(src: &Source, n: u32, whole: &str, fraction: Option<&str>) -> Result<(i64, f64)> {
    let s = whole
        .parse::<i64>()
        .map_err(|_| src.error(Some(n), format!("`{whole}` is not a time in seconds")))?;
    let f = match fraction {
        Some(f) => num(src, n, &format!("0{f}"), "time")?,
        None => 0.0,
    };
    Ok((s, f))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    fn rows(path: &str) -> Vec<(String, String, f64)> {
        parse_file(&Kbuild, path)
            .observations
            .iter()
            .map(|o| (o.metric.to_string(), o.params.to_string(), o.value))
            .collect()
    }

    #[test]
    fn each_build_s_times_under_its_configuration() {
        let r = rows("tests/data/harness/kbuild/lkp-02.txt");
        assert_eq!(r.len(), 8 * 4);
        let of = |m: &str| -> Vec<f64> {
            r.iter()
                .filter(|(x, _, _)| x == m)
                .map(|(_, _, v)| *v)
                .collect()
        };
        let real = of("real time");
        assert_eq!(real.len(), 8);
        assert_eq!((real[0], real[1], real[7]), (33.544, 34.189, 33.53));
        assert_eq!(of("user time")[0], 910.672);
        assert_eq!(of("sys time")[7], 160.833);
        let build = of("build time");
        assert!((build[0] - 33.545946455).abs() < 1e-9, "{}", build[0]);
        assert!(r.iter().all(|(_, p, _)| p == "config=defconfig"));
    }

    #[test]
    fn an_older_log_gives_the_build_time_alone() {
        let r = rows("tests/data/harness/kbuild/lkp-01.txt");
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].0, "build time");
        assert_eq!(r[0].1, "config=allyesconfig");
        assert!((r[0].2 - 151.826357953).abs() < 1e-9, "{}", r[0].2);
        let r = rows("tests/data/harness/kbuild/lkp-03.txt");
        assert_eq!(
            r[0],
            ("real time".into(), "config=allyesconfig".into(), 300.922)
        );
    }
}
