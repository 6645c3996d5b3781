//! `perf stat -x SEP` output: one separator-split line per counter, no header.
//!
//! perf 6.x writes `value,unit,event,variance%,runtime,pcnt,metric,metric-unit`
//! with `-r`, and drops the variance field without it, so fields are found by
//! content (the event name after value and unit, a trailing `%` for the
//! variance), not by position. The variance is the relative standard error of
//! the mean over the `-r` runs, whose count the CSV does not print: a counter
//! with it gives `mean` and `stderr` (n unknown), one without it a `sample`.
//! `<not supported>` / `<not counted>` counters are skipped. The benchmark is
//! `perf stat`: the command is not in the output.

use crate::error::Result;
use crate::ingest::formats::perf::stat::event_unit;
use crate::ingest::shared::logscan::{last_line, mean_with_sem, num};
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

/// The `perf stat -x` importer.
pub struct PerfStatCsv;

/// The separators `-x` is given in practice; a space too (LKP logs
/// `-x ' '` records: `1.01 3969592418  cpu-cycles 2683629138 16.60 …`).
pub(super) const SEPARATORS: [char; 5] = [',', ';', '\t', '|', ' '];

pub(super) fn is_missing(v: &str) -> bool {
    matches!(v.trim(), "<not supported>" | "<not counted>")
}

fn is_event_name(s: &str) -> bool {
    let s = s.trim();
    !s.is_empty()
        && s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_:./@=".contains(c))
}

/// True when `fields` look like one perf stat counter record.
/// [`is_record`] reads fields 0 to 5 and the count up to 5: splitting a
/// line into this many pieces (the last one the rest of the line) gives it
/// the same answer as splitting the whole line.
const RECORD_FIELDS_READ: usize = 7;

pub(super) fn is_record(fields: &[&str]) -> bool {
    fields.len() >= 5
        && (parse_number(fields[0]).is_some() || is_missing(fields[0]))
        // The unit field is a unit or empty, never a number: a CSV log
        // whose second column counts (`timeStamp,elapsed,label,…`) is
        // no counter record.
        && parse_number(fields[1]).is_none()
        && is_event_name(fields[2])
        && fields[3..]
            .iter()
            .take(3)
            .any(|f| parse_number(f).is_some())
}

/// [`is_record`] of `line` split at `sep`, without a vector per line.
fn split_is_record(line: &str, sep: char) -> bool {
    let mut fields = [""; RECORD_FIELDS_READ];
    let mut n = 0;
    for (slot, f) in fields.iter_mut().zip(line.splitn(RECORD_FIELDS_READ, sep)) {
        *slot = f;
        n += 1;
    }
    is_record(&fields[..n])
}

/// False when the trimmed line `t` cannot be a record under any separator:
/// a record's first field is a number ([`parse_number`] wants a digit,
/// `-`, `.` or `+` first) or `<not supported>`/`<not counted>`, and that
/// field starts the line.
fn may_start_record(t: &str) -> bool {
    matches!(
        t.as_bytes().first(),
        Some(b'0'..=b'9' | b'-' | b'.' | b'+' | b'<')
    )
}

/// The separator that splits most lines into counter records.
fn separator(src: &Source) -> Option<char> {
    SEPARATORS
        .iter()
        .copied()
        .map(|sep| {
            let hits = src
                .lines
                .iter()
                .filter(|l| {
                    // A record has at least five fields, so four separators;
                    // counting first skips splitting most other lines.
                    if l.text.matches(sep).nth(3).is_none() {
                        return false;
                    }
                    split_is_record(&l.text, sep)
                })
                .count();
            (sep, hits)
        })
        .filter(|&(_, h)| h > 0)
        .max_by_key(|&(_, h)| h)
        .map(|(s, _)| s)
}

impl Format for PerfStatCsv {
    fn name(&self) -> &'static str {
        "perf-stat-csv"
    }

    fn description(&self) -> &'static str {
        "perf stat -x SEP: `value,unit,event[,variance%],runtime,pcnt,…` lines with no header"
    }

    fn detect(&self, src: &Source) -> Confidence {
        // Four in five content lines must be records, and a record starts
        // with its value: a cheap look at first bytes rules out most text
        // before any line is split.
        let mut content = 0usize;
        let mut candidates = 0usize;
        for l in &src.lines {
            let t = l.text.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            content += 1;
            candidates += usize::from(may_start_record(t));
        }
        if candidates == 0 || candidates * 10 < content * 8 {
            return 0;
        }
        let Some(sep) = separator(src) else { return 0 };
        let content: Vec<&str> = src
            .lines
            .iter()
            .map(|l| l.text.trim())
            .filter(|t| !t.is_empty() && !t.starts_with('#'))
            .collect();
        let records = content
            .iter()
            .filter(|t| may_start_record(t) && split_is_record(t, sep))
            .count();
        if records == 0 || records * 10 < content.len() * 8 {
            return 0;
        }
        let known = content.iter().any(|t| {
            t.contains("<not supported>")
                || t.contains("task-clock")
                || t.contains("cpu-clock")
                || t.contains("context-switches")
                || t.contains("instructions")
                || t.contains("cycles")
        });
        if known {
            80
        } else {
            40
        }
    }

    /// `<not supported>`/`<not counted>` records are `skipped` with that
    /// reason.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let Some(sep) = separator(src) else {
            return Err(src.error(
                last_line(src),
                "no perf stat -x record (value,unit,event,…) found",
            ));
        };
        let mut out = Vec::new();
        let mut skipped = Vec::new();
        for l in &src.lines {
            let t = l.text.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let f: Vec<&str> = t.split(sep).collect();
            if !is_record(&f) {
                // perf prints nothing else on this stream but the counted
                // command's own stderr may be mixed in: only reject lines
                // that start like a record and break off.
                if f.len() >= 2 && (parse_number(f[0]).is_some() || is_missing(f[0])) {
                    return Err(src.error(
                        Some(l.number),
                        format!("perf stat -x record with too few or malformed fields: `{t}`"),
                    ));
                }
                continue;
            }
            if is_missing(f[0]) {
                let reason = crate::ingest::formats::perf::stat::missing_reason(f[0], f[2]);
                skipped.push((l.number, reason));
                continue;
            }
            let event = f[2].trim();
            let v = num(src, l.number, f[0], event)?;
            let unit = event_unit(f[1]);
            let variance = f[3].trim();
            if let Some(pct) = variance.strip_suffix('%') {
                let pct = num(src, l.number, pct, "variance")?;
                let se = v * pct / 100.0;
                mean_with_sem(
                    &mut out,
                    src,
                    l.number,
                    "perf stat",
                    "",
                    event,
                    &unit,
                    v,
                    Some(se),
                    None,
                );
            } else {
                out.push(
                    Row::at(src, l.number)
                        .benchmark("perf stat")
                        .metric(event)
                        .unit(&unit)
                        .sample(v),
                );
            }
        }
        Parsed::found(
            src,
            out,
            Vec::new(),
            skipped,
            "no counted perf stat -x record found",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Detection as it was before the first-byte rejection: every line
    /// split into a vector, for every separator.
    fn detect_by_splitting(src: &Source) -> Confidence {
        let split =
            |t: &str, sep: char| is_record(&t.splitn(RECORD_FIELDS_READ, sep).collect::<Vec<_>>());
        let Some(sep) = SEPARATORS
            .iter()
            .map(|&sep| {
                (
                    sep,
                    src.lines.iter().filter(|l| split(&l.text, sep)).count(),
                )
            })
            .filter(|&(_, h)| h > 0)
            .max_by_key(|&(_, h)| h)
            .map(|(s, _)| s)
        else {
            return 0;
        };
        let content: Vec<&str> = src
            .lines
            .iter()
            .map(|l| l.text.trim())
            .filter(|t| !t.is_empty() && !t.starts_with('#'))
            .collect();
        let records = content.iter().filter(|t| split(t, sep)).count();
        if records == 0 || records * 10 < content.len() * 8 {
            return 0;
        }
        let known = [
            "<not supported>",
            "task-clock",
            "cpu-clock",
            "context-switches",
            "instructions",
            "cycles",
        ];
        if content.iter().any(|t| known.iter().any(|k| t.contains(k))) {
            80
        } else {
            40
        }
    }

    #[test]
    fn a_csv_log_whose_second_column_counts_is_no_counter_record() {
        // JMeter's CSV results (its test files): value, number, word, … as
        // a record starts, but the unit field holds the request's time.
        let text = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect\n\
                    1551783627191,351,JR-OK,200,Good request,Thread Group 1-1,text,true,,18,8,1,1,null,0,0,0\n\
                    1551783627543,192,JR-OK,200,Good request,Thread Group 1-1,text,true,,18,8,1,1,null,0,0,0\n\
                    1551783627735,131,JR-OK,200,Good request,Thread Group 1-1,text,true,,18,8,1,1,null,0,0,0\n\
                    1551783627866,261,JR-OK,200,Good request,Thread Group 1-1,text,true,,18,8,1,1,null,0,0,0\n";
        assert_eq!(
            PerfStatCsv.detect(&Source::from_text("jmeter.csv", text)),
            0
        );
    }

    #[test]
    fn real_perf_stat_csv_output_passes_the_first_byte_test() {
        for name in ["baseline-1", "baseline-2", "patched-1", "patched-2"] {
            let path = format!("tests/data/corpus/perf_stat_csv-{name}.csv");
            let src = Source::read(std::path::Path::new(&path)).unwrap();
            assert_eq!(PerfStatCsv.detect(&src), 80, "{path}");
        }
    }

    #[test]
    fn detection_gives_the_score_splitting_every_line_gives() {
        crate::ingest::assert_detection_agrees(&PerfStatCsv, detect_by_splitting);
        // Separators that are whitespace, signs, missing counters, blanks.
        for text in [
            "1\t\tcycles\t100.00\t\t\n2\t\tinstructions\t50.0\t\t\n",
            "  +1,234,,task-clock,5,100.00\n<not supported>,,cycles,0,100.00\n\n# c\n",
            "\t5\tx\tev\t1\t2\n\t6\tx\tev\t1\t2\n",
            "-1;;ev;1;100\n.5;;ev;1;100\nfoo;;ev;1;100\n",
        ] {
            let src = Source::from_text("x", text);
            assert_eq!(
                PerfStatCsv.detect(&src),
                detect_by_splitting(&src),
                "{text:?}"
            );
        }
    }
}
