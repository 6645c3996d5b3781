//! Shell and POSIX `time` output: `real 3.28` / `user` / `sys` blocks from
//! `/usr/bin/time -p`, bash's `real\t0m2.023s` (bash repeats the block per
//! timed command, so one file can hold several runs), and zsh's one-line
//! `cmd  2.20s user 0.20s system 100% cpu 2.400 total`. Every value is a
//! `sample` of `real`, `user` or `sys` in seconds; the benchmark is `time`
//! (the command is not printed), or the command for zsh's line.

use crate::error::Result;
use crate::ingest::shared::logscan::{last_line, lazy_re, num};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(LINE, r"^(real|user|sys)[ \t]+(\S+)\s*$");
lazy_re!(BASH, r"^(?:(\d+)h)?(?:(\d+)m)?(\d+(?:[.,]\d+)?)s$");
lazy_re!(
    ZSH,
    r"^(.*?)\s+([\d.]+)s user ([\d.]+)s system \d+% cpu (?:(\d+):)?([\d.]+) total\s*$"
);

/// The shell / POSIX time importer.
pub struct ShellTime;

/// Seconds of a POSIX (`3.28`) or bash (`0m2.023s`, `1h2m3.000s`) value.
fn seconds(src: &Source, line: u32, v: &str) -> Result<f64> {
    if let Some(c) = BASH.captures(v) {
        let h = c
            .get(1)
            .map(|m| num(src, line, m.as_str(), "hours"))
            .transpose()?
            .unwrap_or(0.0);
        let m = c
            .get(2)
            .map(|m| num(src, line, m.as_str(), "minutes"))
            .transpose()?
            .unwrap_or(0.0);
        // Some locales print a decimal comma (`0m2,023s`).
        let s = num(src, line, &c[3].replace(',', "."), "seconds")?;
        return Ok(h * 3600.0 + m * 60.0 + s);
    }
    num(src, line, v, "seconds")
}

impl Format for ShellTime {
    fn name(&self) -> &'static str {
        "shell-time"
    }

    fn description(&self) -> &'static str {
        "time -p / bash time / zsh time: `real 3.28` or `real\\t0m2.023s` + `user` + `sys` blocks"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let block = src.lines.windows(3).any(|w| {
            w[0].text.starts_with("real")
                && w[1].text.starts_with("user")
                && w[2].text.starts_with("sys")
                && w.iter().all(|l| LINE.is_match(&l.text))
        });
        if block {
            90
        } else if crate::ingest::shared::logscan::any_with(src, "% cpu ", &ZSH) {
            80
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        for l in &src.lines {
            let t = l.text.trim_end();
            let n = l.number;
            if let Some(c) = LINE.captures(t) {
                let v = seconds(src, n, &c[2])?;
                out.push(
                    Row::at(src, n)
                        .benchmark("time")
                        .metric(&c[1])
                        .unit("s")
                        .sample(v),
                );
            } else if let Some(c) = ZSH.captures(t) {
                let cmd = c[1].trim();
                let bench = if cmd.is_empty() { "time" } else { cmd };
                let user = num(src, n, &c[2], "user")?;
                let sys = num(src, n, &c[3], "system")?;
                let mins = c
                    .get(4)
                    .map(|m| num(src, n, m.as_str(), "minutes"))
                    .transpose()?
                    .unwrap_or(0.0);
                let real = mins * 60.0 + num(src, n, &c[5], "total")?;
                for (metric, v) in [("real", real), ("user", user), ("sys", sys)] {
                    out.push(
                        Row::at(src, n)
                            .benchmark(bench)
                            .metric(metric)
                            .unit("s")
                            .sample(v),
                    );
                }
            } else if t.starts_with("real") || t.starts_with("user\t") || t.starts_with("sys\t") {
                return Err(src.error(Some(n), format!("malformed time line: `{t}`")));
            }
        }
        if out.is_empty() {
            return Err(src.error(last_line(src), "no `real`/`user`/`sys` time line found"));
        }
        let real = out.iter().filter(|o| o.metric == "real").count();
        let user = out.iter().filter(|o| o.metric == "user").count();
        if real == 0 || (user > 0 && user != real) {
            return Err(src.error(
                last_line(src),
                "incomplete time block: `real`, `user` and `sys` counts differ (truncated?)",
            ));
        }
        Ok(out.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Detection as it was before the joined-text search: every line.
    fn detect_by_line(src: &Source) -> Confidence {
        let texts: Vec<&str> = src.lines.iter().map(|l| l.text.as_str()).collect();
        let block = texts.windows(3).any(|w| {
            w[0].starts_with("real")
                && w[1].starts_with("user")
                && w[2].starts_with("sys")
                && w.iter().all(|t| LINE.is_match(t))
        });
        if block {
            90
        } else if texts
            .iter()
            .any(|t| t.contains("% cpu ") && ZSH.is_match(t))
        {
            80
        } else {
            0
        }
    }

    #[test]
    fn detection_gives_the_score_the_line_search_gives() {
        assert!(crate::ingest::assert_detection_agrees(&ShellTime, detect_by_line) > 0);
    }
}
