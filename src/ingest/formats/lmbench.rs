//! lmbench: a results file (`make results`: `[lmbench3.0 results for …]`
//! and `[KEY: value]` lines, then every benchmark's output) and the
//! output of its tools alone: `Simple syscall: 0.1526 microseconds` lines,
//! and series of `x y` lines under a title (`"stride=128` for lat_mem_rd,
//! `"size=0k ovr=0.61` for lat_ctx, `"read bandwidth`, `Socket bandwidth
//! using localhost`).
//!
//! Benchmark `lmbench`; a `label: value unit` line gives metric `label`;
//! a series gives one value per line, metric the heading above it
//! (`memory load latency`, `random load latency`) or its title (`read
//! bandwidth`; `context switch` for lat_ctx), parameters its `k=v` title
//! (`stride=128`, `size=0k`) and the line's x (`size_mb`, or `procs` for
//! lat_ctx); lat_fs's table gives `creations` and `removals` per second.
//! Units as lmbench states them, else ns for load latencies, µs for
//! context switches and mappings, MB/s for bandwidths. Each a `sample` of
//! the run. The bracketed header lines are context.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num, Params};
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Observation;

lazy_re!(
    RESULT,
    r"^([A-Za-z][^:]*?):\s+(-?[\d.]+(?:[eE][-+]?\d+)?)\s*(microseconds|nanoseconds|milliseconds|seconds|[KMG]B/sec|MB/s|KB/s)?\s*$"
);
lazy_re!(PAIR, r"^\s*(-?[\d.]+)\s+(-?[\d.]+)\s*([KMG]B/sec)?\s*$");
lazy_re!(LAT_CTX, r"^size=(\d+k)\s+ovr=([\d.]+)");
// A command running one of the bandwidth tools that print bare pairs:
// the command word (after a prompt or a timestamp) is the tool.
lazy_re!(
    BW_COMMAND,
    r"^(?:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d |\S*[#$] )?(?:\S*/)?(bw_mem|bw_mmap_rd|bw_file_rd)((?:\s+\S+)+)\s*$"
);
lazy_re!(OPERATION, r"^[a-z][a-z0-9_]*$");
// The build of the tools logged before their runs (LKP's lmbench3 logs
// start with `cd src && make`): make's directory lines, the compiler's
// command lines, its diagnostics (`bw_mem.c:76:23: warning: …`) and the
// source excerpts under them (`   76 |    if (…)`, `      |    ^~~`).
lazy_re!(
    BUILD,
    r"^(?:g?make(?:\[\d+\])?: |(?:gcc|cc|clang) |\S+\.[ch]:\d+:\d+: (?:warning|error|note): |\s*\d*\s+\| )"
);

/// The lmbench importer.
pub struct Lmbench;

impl Format for Lmbench {
    fn name(&self) -> &'static str {
        "lmbench"
    }

    fn description(&self) -> &'static str {
        "lmbench: `[lmbench3.0 results for …]` results files, `Label: value microseconds` lines \
         and `\"title` series of `x y` lines (lat_mem_rd, lat_ctx, bw_*)"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let at = src.lines.iter().position(|l| !l.text.trim().is_empty());
        let Some(at) = at else { return 0 };
        let first = &src.lines[at];
        let t = first.text.trim();
        if t.starts_with("[lmbench") && t.contains("results for") {
            return 95;
        }
        // A bandwidth tool's command line right above its pairs.
        // Looked for only in an input naming a bw_ tool: detection runs on
        // every input, and a regex on each line of a large one costs.
        let commanded = crate::ingest::shared::logscan::has(src, "bw_")
            && src
                .lines
                .windows(2)
                .any(|w| BW_COMMAND.is_match(w[0].text.trim_end()) && PAIR.is_match(&w[1].text));
        if commanded {
            return 90;
        }
        // A tool's series alone: a quoted title over pairs, the line
        // right below the title (a capture may start with blank lines).
        let second = src.lines.get(at + 1).map_or("", |l| l.text.as_str());
        if t.starts_with('"') && PAIR.is_match(second) {
            return if t.starts_with("\"stride=") || LAT_CTX.is_match(&t[1..]) {
                90
            } else {
                50
            };
        }
        0
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let mut heading: Option<String> = None;
        let mut series: Option<Series> = None;
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim_end());
            if t.trim().is_empty() {
                series = None;
                continue;
            }
            if t.starts_with('[') && t.ends_with(']') {
                consumed.push(n);
                continue;
            }
            if let Some(c) = BW_COMMAND.captures(t) {
                series = Some(Series::commanded(&c[1], &c[2]));
                consumed.push(n);
                continue;
            }
            if let Some(title) = t.strip_prefix('"') {
                series = Some(Series::new(title.trim(), heading.take()));
                consumed.push(n);
                continue;
            }
            if let Some(s) = series.as_ref() {
                if s.read(src, n, t, &mut out)? {
                    continue;
                }
            }
            if let Some(c) = RESULT.captures(t) {
                let v = num(src, n, &c[2], &c[1])?;
                let unit = c.get(3).map_or("", |u| canonical(u.as_str()));
                out.push(
                    Row::at(src, n)
                        .benchmark("lmbench")
                        .metric(c[1].trim())
                        .unit(unit)
                        .sample(v),
                );
                heading = None;
                continue;
            }
            if PAIR.is_match(t) {
                // Pairs under an unquoted heading (bw_tcp's `Socket
                // bandwidth using localhost`).
                if let Some(h) = heading.take() {
                    let s = Series::new(&h, None);
                    s.read(src, n, t, &mut out)?;
                    series = Some(s);
                    continue;
                }
            }
            if !t.chars().any(|c| c.is_ascii_digit()) && !t.contains(':') {
                heading = Some(t.trim().to_string());
                consumed.push(n);
            } else if t.starts_with("Avg xfer:") {
                skipped.push((n, "lat_http's transfer summary, not a result".into()));
            } else if BUILD.is_match(t) {
                skipped.push((
                    n,
                    "the build of the tools (make and compiler output), not a result".into(),
                ));
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no lmbench result line (`Simple syscall: 0.15 microseconds`) or series",
        )
    }
}

/// A series: the values of the `x y` lines under one title.
struct Series {
    metric: String,
    params: Params,
    x_key: &'static str,
    unit: &'static str,
    /// lat_fs's table: size, files, creations/s, removals/s.
    file_system: bool,
}

impl Series {
    fn new(title: &str, heading: Option<String>) -> Series {
        let mut params = Params::default();
        let (metric, x_key, unit) = if let Some(c) = LAT_CTX.captures(title) {
            params.set("size", &c[1]);
            ("context switch".to_string(), "procs", "us")
        } else if let Some(stride) = title.strip_prefix("stride=") {
            params.set("stride", stride);
            let m = heading.unwrap_or_else(|| "memory load latency".into());
            (m.to_ascii_lowercase(), "size_mb", "ns")
        } else if title == "mappings" {
            ("mmap latency".to_string(), "size_mb", "us")
        } else {
            (title.to_ascii_lowercase(), "size_mb", "MB/s")
        };
        Series {
            file_system: title == "File system latency",
            metric,
            params,
            x_key,
            unit,
        }
    }

    /// The series of a bandwidth tool run by `args` (`-P 1 268435456 rd`):
    /// metric the tool and its operation, the first word of the
    /// arguments that is neither an option nor an option's value.
    fn commanded(tool: &str, args: &str) -> Series {
        let mut series = Series::new(tool, None);
        let mut words = args.split_whitespace();
        while let Some(w) = words.next() {
            if let Some(option) = w.strip_prefix('-') {
                if let ("P", Some(n)) = (option, words.next()) {
                    series.params.set("parallel", n);
                }
            } else if OPERATION.is_match(w) {
                series.metric = format!("{tool} {w}");
                break;
            }
        }
        series
    }

    /// Reads line `n` as a point of the series; false when it is not one.
    fn read(&self, src: &Source, n: u32, t: &str, out: &mut Vec<Observation>) -> Result<bool> {
        if self.file_system {
            let cells: Vec<&str> = t.split_whitespace().collect();
            if cells.len() != 4 || cells[1..].iter().any(|c| parse_number(c).is_none()) {
                return Ok(false);
            }
            let mut p = self.params.clone();
            p.set("file_size", cells[0]);
            p.set("files", cells[1]);
            for (metric, cell) in [("file creations", cells[2]), ("file removals", cells[3])] {
                let v = num(src, n, cell, metric)?;
                out.push(
                    Row::at(src, n)
                        .benchmark("lmbench")
                        .params(&p.render())
                        .metric(metric)
                        .unit("/s")
                        .sample(v),
                );
            }
            return Ok(true);
        }
        let Some(c) = PAIR.captures(t) else {
            return Ok(false);
        };
        let mut p = self.params.clone();
        p.set(self.x_key, &c[1]);
        let v = num(src, n, &c[2], &self.metric)?;
        let unit = c.get(3).map_or(self.unit, |u| canonical(u.as_str()));
        out.push(
            Row::at(src, n)
                .benchmark("lmbench")
                .params(&p.render())
                .metric(&self.metric)
                .unit(unit)
                .sample(v),
        );
        Ok(true)
    }
}

/// The unit patchperf writes for one lmbench prints (in a tool's line or
/// a summary section's title).
pub(super) fn canonical(unit: &str) -> &'static str {
    match unit {
        "microseconds" => "us",
        "nanoseconds" => "ns",
        "milliseconds" => "ms",
        "seconds" => "s",
        "KB/sec" | "KB/s" => "KB/s",
        "GB/sec" | "GB/s" => "GB/s",
        _ => "MB/s",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;

    const DIR: &str = "tests/data/harness/lmbench";

    fn find<'a>(p: &'a Parsed, metric: &str, params: &str) -> &'a Observation {
        p.observations
            .iter()
            .find(|o| o.metric == metric && o.params == params)
            .unwrap_or_else(|| panic!("no {metric} {params}"))
    }

    #[test]
    fn a_results_file_gives_every_line_and_series() {
        let p = parse_file(&Lmbench, &format!("{DIR}/results-aarch64.txt"));
        let o = find(&p, "Simple syscall", "");
        assert_eq!((o.value, o.unit.as_str()), (0.1526, "us"));
        assert_eq!(find(&p, "Pipe bandwidth", "").value, 4234.64);
        let o = find(&p, "context switch", "procs=2,size=0k");
        assert_eq!((o.value, o.unit.as_str()), (2.19, "us"));
        let o = find(&p, "memory load latency", "size_mb=8.00000,stride=128");
        assert_eq!((o.value, o.unit.as_str()), (9.167, "ns"));
        let o = find(&p, "random load latency", "size_mb=8.00000,stride=16");
        assert_eq!(o.value, 78.440);
        assert_eq!(find(&p, "read bandwidth", "size_mb=0.000512").value, 795.37);
        assert_eq!(
            find(&p, "socket bandwidth using localhost", "size_mb=10.000000").value,
            2086.16
        );
        assert_eq!(
            find(&p, "file creations", "file_size=0k,files=544").value,
            94167.0
        );
        // Every numeric line is read, kept as context or left out with a reason.
        let src =
            Source::read(std::path::Path::new(&format!("{DIR}/results-aarch64.txt"))).unwrap();
        let got = crate::ingest::ingest(
            &[src.path.to_string().into()],
            &crate::ingest::Registry::builtin(),
            &Default::default(),
        )
        .unwrap();
        assert_eq!(got.files[0].format.as_deref(), Some("lmbench"));
        let unread = &got.files[0].unread_numeric;
        assert!(unread.len() < 5, "unread lines {unread:?}");
    }

    #[test]
    fn a_tools_series_alone() {
        let p = parse_file(&Lmbench, &format!("{DIR}/lat_mem_rd-stride128.txt"));
        assert_eq!(
            find(&p, "memory load latency", "size_mb=0.00049,stride=128").value,
            1.601
        );
        assert_eq!(
            find(&p, "memory load latency", "size_mb=64.00000,stride=128").value,
            7.041
        );
        let p = parse_file(&Lmbench, &format!("{DIR}/lat_ctx-s0-8procs.txt"));
        assert_eq!(find(&p, "context switch", "procs=8,size=0k").value, 1.80);
        // Blank lines above the title (a loop's runs with one between
        // them): the pairs under the title still tell the series.
        let text = std::fs::read_to_string(format!("{DIR}/lat_mem_rd-four-strides.txt")).unwrap();
        let src = Source::from_text("blank.txt", &format!("\n\n{text}"));
        assert_eq!(Lmbench.detect(&src), 90);
    }

    #[test]
    fn a_bandwidth_tool_s_pairs_under_its_command_line() {
        let path = format!("{DIR}/lkp-01-bw_mem-after-build.txt");
        let src = Source::read(std::path::Path::new(&path)).unwrap();
        assert_eq!(Lmbench.detect(&src), 90);
        let p = parse_file(&Lmbench, &path);
        assert_eq!(p.observations.len(), 1);
        let o = find(&p, "bw_mem rd", "parallel=1,size_mb=268.44");
        assert_eq!((o.value, o.unit.as_str()), (13805.57, "MB/s"));
        // The compiler's lines naming the tools are no command of theirs.
        let src = Source::from_text(
            "build.txt",
            "gcc -O -o ../bin/x86_64-linux-gnu/bw_mem bw_mem.c ../bin/lmbench.a\n8.39 85811.14\n",
        );
        assert_eq!(Lmbench.detect(&src), 0);
        let p = Lmbench
            .parse_accounted(&Source::from_text(
                "prompt.txt",
                "$ bw_file_rd 64m io_only /tmp/f\n67.11 9012.33\n",
            ))
            .unwrap();
        assert_eq!(
            find(&p, "bw_file_rd io_only", "size_mb=67.11").value,
            9012.33
        );
    }

    #[test]
    fn lkp_s_mmap_series_by_their_titles() {
        let p = parse_file(&Lmbench, &format!("{DIR}/lkp-02-mmap-series.txt"));
        assert_eq!(p.observations.len(), 12 + 22 + 22);
        let o = find(&p, "mmap latency", "size_mb=1073.741824");
        assert_eq!((o.value, o.unit.as_str()), (6613.0, "us"));
        let o = find(&p, "mmap read bandwidth", "size_mb=1073.74");
        assert_eq!((o.value, o.unit.as_str()), (17573.23, "MB/s"));
        let o = find(&p, "mmap read open2close bandwidth", "size_mb=1073.74");
        assert_eq!(o.value, 9062.41);
    }
}
