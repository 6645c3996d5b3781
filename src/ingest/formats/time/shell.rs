//! Shell and POSIX `time` output: `real 3.28` / `user` / `sys` blocks from
//! `/usr/bin/time -p`, bash's `real\t0m2.023s` (bash repeats the block per
//! timed command, so one file can hold several runs), and zsh's one-line
//! `cmd  2.20s user 0.20s system 100% cpu 2.400 total`, and GNU time's
//! default one-line summary `0.21user 14.34system 0:14.69elapsed 98%CPU
//! (…)`, its elapsed time `[h:]m:ss.cc`. Every value is a `sample` of
//! `real`, `user` or `sys` in seconds, and GNU time's share of a CPU a
//! sample of `cpu` (%); the benchmark is `time` (the command is not
//! printed), or the command for zsh's line.

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

// GNU time without `-v`: `%Uuser %Ssystem %Eelapsed %PCPU`, `%P` a `?`
// when the elapsed time was too short to divide by.
lazy_re!(
    GNU_LINE,
    r"^\s*([\d.]+)user\s+([\d.]+)system\s+(?:(\d+):)?(\d+):(\d+(?:\.\d+)?)elapsed(?:\s+(?:(\d+(?:\.\d+)?)|\?)%CPU)?"
);

// A shell prompt running `time` (`~ # time taskset -c 4 ./a.out`, `$ time
// make`, `root@host:~# time ls`): the invocation of the block below it, read as its context.
lazy_re!(PROMPT, r"^\s*(?:\S+\s+)?\S*[#$]\s+time\s+\S");

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
        } else if crate::ingest::shared::logscan::any_with(src, "% cpu ", &ZSH)
            || crate::ingest::shared::logscan::any_with(src, "elapsed", &GNU_LINE)
        {
            80
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let mut consumed = Vec::new();
        for l in &src.lines {
            let t = l.text.trim_end();
            let n = l.number;
            if PROMPT.is_match(t) {
                consumed.push(n);
            } else if let Some(c) = LINE.captures(t) {
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
            } else if let Some(c) = GNU_LINE.captures(t) {
                let part = |i: usize, what: &str| {
                    c.get(i).map(|m| num(src, n, m.as_str(), what)).transpose()
                };
                let h = part(3, "hours")?.unwrap_or(0.0);
                let m = part(4, "minutes")?.unwrap_or(0.0);
                let real = h * 3600.0 + m * 60.0 + part(5, "seconds")?.unwrap_or(0.0);
                let mut rows = vec![
                    ("real", "s", real),
                    ("user", "s", num(src, n, &c[1], "user")?),
                    ("sys", "s", num(src, n, &c[2], "system")?),
                ];
                if let Some(cpu) = part(6, "CPU share")? {
                    rows.push(("cpu", "%", cpu));
                }
                for (metric, unit, v) in rows {
                    out.push(
                        Row::at(src, n)
                            .benchmark("time")
                            .metric(metric)
                            .unit(unit)
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
        Ok(Parsed {
            observations: out,
            consumed,
            ..Parsed::default()
        })
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
        } else if texts.iter().any(|t| {
            (t.contains("% cpu ") && ZSH.is_match(t))
                || (t.contains("elapsed") && GNU_LINE.is_match(t))
        }) {
            80
        } else {
            0
        }
    }

    #[test]
    fn detection_gives_the_score_the_line_search_gives() {
        assert!(crate::ingest::assert_detection_agrees(&ShellTime, detect_by_line) > 0);
    }

    #[test]
    fn gnu_time_s_one_line_summary() {
        let text = "   0.00user 0.04system 0:00.10elapsed 40.0%CPU\n\
                    0.21user 14.34system 0:14.69elapsed\n\
                    1.50user 2.00system 1:02:03.50elapsed ?%CPU (0avgtext+0avgdata 4096maxresident)k\n";
        let src = Source::from_text("t.txt", text);
        assert_eq!(ShellTime.detect(&src), 80);
        // The prompt that ran `time` is the block's context.
        let prompt = Source::from_text("t.txt", &format!(" ~ # time taskset -c 4 ./a.out\n{text}"));
        assert_eq!(
            ShellTime.parse_accounted(&prompt).unwrap().consumed,
            vec![1]
        );
        let p = ShellTime.parse_accounted(&src).unwrap();
        let rows: Vec<(u32, &str, f64)> = p
            .observations
            .iter()
            .map(|o| (o.line, o.metric.as_str(), o.value))
            .collect();
        assert_eq!(
            rows,
            vec![
                (1, "real", 0.1),
                (1, "user", 0.0),
                (1, "sys", 0.04),
                (1, "cpu", 40.0),
                (2, "real", 14.69),
                (2, "user", 0.21),
                (2, "sys", 14.34),
                (3, "real", 3723.5),
                (3, "user", 1.5),
                (3, "sys", 2.0),
            ]
        );
    }
}
