//! sysstat's `sadf -r`: the raw readings of a sar data file, a record per
//! line, `;`-separated: the time stamp (`08:52:10 UTC`, `-t` local time,
//! `-U` seconds since the epoch), then each field's name followed by its
//! readings (`%user; 23202; 23381;`, `runq-sz; 2;`).
//!
//! Named as `sysstat-sadf` names `-d`: a name in capitals (`CPU`, `IFACE`,
//! `DEV`, `INTR`, `FILESYSTEM`) and the device numbers `major` and `minor`
//! are keys, each with the one cell after it as its value: they give the
//! record's parameters (`CPU=-1`) and its benchmark name (the keys' names;
//! `system` without one). Every other name is a metric, a `sample` per
//! record. A field with one reading is a level (`runq-sz`, `kbmemfree`)
//! and is read as written; one with two is a counter read at the start
//! and at the end of the interval (CPU ticks, pages, packets: what `-d`
//! turns into `%user`, `pgpgin/s`), read as its increase over the
//! interval, unit none, since the cumulative count depends on the time
//! since boot and never compares between runs. `LINUX-RESTART` records and
//! cells that are no number are left out with the reason.

use crate::error::Result;
use crate::ingest::shared::logscan::lazy_re;
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(STAMP, r"^(\d{2}:\d{2}:\d{2}( [A-Z]{1,5})?|\d{9,11})$");

/// The sadf -r importer.
pub struct SadfRaw;

/// A name that is a key: capitals only (`CPU`, `DEV`), or a device number.
fn is_key(name: &str) -> bool {
    matches!(name, "major" | "minor")
        || (name.chars().all(|c| c.is_ascii_uppercase() || c == '_')
            && name.chars().any(|c| c.is_ascii_uppercase()))
}

/// The cells of a raw record after its time stamp, or `None` when the line
/// is no record: a time stamp, then `;`-ended cells.
fn cells(text: &str) -> Option<Vec<&str>> {
    let body = text.trim_end().strip_suffix(';')?;
    let mut cells = body.split(';').map(str::trim);
    if !STAMP.is_match(cells.next()?) {
        return None;
    }
    let rest: Vec<&str> = cells.collect();
    (!rest.is_empty()).then_some(rest)
}

impl Format for SadfRaw {
    fn name(&self) -> &'static str {
        "sysstat-sadf-raw"
    }

    fn description(&self) -> &'static str {
        "sysstat sadf -r (raw readings: `08:52:10 UTC; CPU; -1; %user; 23202; 23381; …` lines; \
         counters read as their increase over the interval)"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let content: Vec<&str> = src
            .lines
            .iter()
            .map(|l| l.text.as_str())
            .filter(|t| !t.trim().is_empty())
            .take(200)
            .collect();
        let records = content.iter().filter(|t| cells(t).is_some()).count();
        // A record names its first field before any number.
        let named = content
            .first()
            .and_then(|t| cells(t))
            .is_some_and(|c| parse_number(c[0]).is_none());
        if named && records * 10 >= content.len() * 9 {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut skipped) = (Vec::new(), Vec::new());
        for l in &src.lines {
            let n = l.number;
            if l.text.trim().is_empty() {
                continue;
            }
            if l.text.contains("LINUX-RESTART") {
                skipped.push((n, "a restart of the system being recorded".to_string()));
                continue;
            }
            let Some(cells) = cells(&l.text) else {
                continue;
            };
            let (mut keys, mut params) = (Vec::new(), Vec::new());
            let mut fields: Vec<(&str, Vec<&str>)> = Vec::new();
            let mut i = 0;
            while i < cells.len() {
                let name = cells[i];
                if is_key(name) && i + 1 < cells.len() {
                    keys.push(name);
                    params.push(format!("{name}={}", cells[i + 1].trim_matches('"')));
                    i += 2;
                    continue;
                }
                let readings: Vec<&str> = cells[i + 1..]
                    .iter()
                    .take_while(|c| parse_number(c).is_some())
                    .copied()
                    .collect();
                i += 1 + readings.len();
                fields.push((name, readings));
            }
            let bench = if keys.is_empty() {
                "system".to_string()
            } else {
                keys.join(" ")
            };
            let params = params.join(",");
            let mut lost = Vec::new();
            for (name, readings) in fields {
                let value = match readings[..] {
                    [v] => parse_number(v),
                    [start, end] => parse_number(end)
                        .zip(parse_number(start))
                        .map(|(e, s)| e - s),
                    _ => None,
                };
                match value {
                    Some(v) => out.push(
                        Row::at(src, n)
                            .benchmark(&bench)
                            .params(&params)
                            .metric(name)
                            .sample(v),
                    ),
                    None => lost.push(name),
                }
            }
            if !lost.is_empty() {
                skipped.push((
                    n,
                    format!("fields without one or two readings: {}", lost.join(", ")),
                ));
            }
        }
        Parsed::found(src, out, Vec::new(), skipped, "no sadf -r record")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;
    use crate::ingest::row_lines as rows;

    #[test]
    fn counters_give_their_increase_and_levels_their_reading() {
        let p = parse_file(&SadfRaw, "tests/data/harness/sysstat/sadf-r-A.txt");
        let r = rows(&p);
        // `%usr; 23202; 23381;` on the first CPU record.
        assert_eq!(r[0], "1 CPU|CPU=-1|%usr|=179");
        assert!(r.contains(&"10 system||cswch/s|=814".to_string()));
        assert!(r.contains(&"130 system||kbmemfree|=20960088".to_string()));
        // Interrupts: the interrupt is the key, each CPU's count a metric.
        assert!(r.contains(&"13 INTR|INTR=sum|CPU0|=436".to_string()));
        // A disk by its device numbers and name; a quoted file system.
        assert!(r
            .iter()
            .any(|x| x == "148 major minor DEV|major=254,minor=0,DEV=vda|tps|=106"));
        assert!(r
            .iter()
            .any(|x| x.contains("FILESYSTEM|FILESYSTEM=/dev/vda|f_bfree|=")));
        assert!(p.skipped.is_empty(), "{:?}", p.skipped);
    }

    #[test]
    fn only_files_of_raw_records() {
        let raw = "08:52:10 UTC; proc/s; 9462; 9486; cswch/s; 308267; 309081;\n";
        assert_eq!(SadfRaw.detect(&Source::from_text("r.txt", raw)), 95);
        let epoch = "1796633530; CPU; -1; %user; 23202; 23381;\n";
        assert_eq!(SadfRaw.detect(&Source::from_text("r.txt", epoch)), 95);
        let d = "host;1;2026-12-07 08:52:10 UTC;-1;90.40;0.00\n";
        assert_eq!(SadfRaw.detect(&Source::from_text("d.txt", d)), 0);
        let numbers = "10:00:00; 1; 2;\n";
        assert_eq!(SadfRaw.detect(&Source::from_text("n.txt", numbers)), 0);
    }

    #[test]
    fn a_field_without_readings_is_accounted() {
        let text = "08:52:10 UTC; proc/s; 9462; 9486; cswch/s; x;\n";
        let p = SadfRaw
            .parse_accounted(&Source::from_text("r.txt", text))
            .unwrap();
        assert_eq!(p.observations.len(), 1);
        assert_eq!(p.skipped[0].0, 1);
    }
}
