//! Phoronix Test Suite console logs (`phoronix-test-suite run` or
//! `default-run` as the terminal shows it, as LKP keeps it).
//!
//! A test opens with its title (`Mobile Neural Network 2.1:`) over its
//! profile (`pts/mnn-2.1.0`, options in brackets: `[Test: Total]`). Each
//! result under it is a label line ending in `:` (`Model: nasnet:`, `Test
//! Results:`) over one line per run, then `Average: 19.676 ms` and, in
//! later versions, `Minimum:`, `Maximum:`, `Deviation: 0.80%` and
//! `Samples: 9`. The title is the benchmark (as in a saved result's
//! `<Title>`), the bracketed options and a `Key: value` label are its
//! parameters, and the scale after the average is the metric and its unit:
//! one test can report two scales (ParaView's frames and polygons per
//! second) under the same label.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num};
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{canonical_params, Observation, Stat, Unit};

/// The Phoronix Test Suite console-log importer.
pub struct PhoronixConsole;

// A test profile line: `pts/name-1.2.3`, options in brackets after it.
lazy_re!(
    PROFILE,
    r"^(?:pts|local|system)/[A-Za-z0-9._-]+-\d+(?:\.\d+)*(?:\s+\[(.*)\])?$"
);

// `Average: 19.676 ms`, and the other summaries the suite prints.
lazy_re!(
    SUMMARY,
    r"^(Average|Minimum|Maximum|Deviation|Samples|Standard Error|Standard Deviation):\s*([-+]?[0-9.]+(?:[eE][-+]?\d+)?)\s*(.*)$"
);

// One value per line under a result's label.
lazy_re!(VALUE, r"^[-+]?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?\d+)?$");

// Terminal colour codes, which the suite writes around values.
lazy_re!(ESCAPE, r"\x1b\[[0-9;]*[A-Za-z]");

impl Format for PhoronixConsole {
    fn name(&self) -> &'static str {
        "phoronix-console"
    }

    fn description(&self) -> &'static str {
        "Phoronix Test Suite console log: `pts/profile [options]`, a label, its runs, `Average: x unit`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let mut profile = false;
        let mut summary = false;
        for l in src.lines.iter().take(5000) {
            let t = clean(&l.text);
            profile |= PROFILE.is_match(t.trim());
            summary |= t.trim_start().starts_with("Average:")
                || t.trim_start().starts_with("Started Run ");
            if profile && summary {
                return 97;
            }
        }
        0
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut read = Reader::default();
        let lines: Vec<(u32, String)> = src
            .lines
            .iter()
            .map(|l| (l.number, clean(&l.text).trim_end().to_string()))
            .collect();
        for (i, (n, text)) in lines.iter().enumerate() {
            let next = lines[i + 1..]
                .iter()
                .map(|(_, t)| t.trim())
                .find(|t| !t.is_empty());
            read.line(src, *n, text, next)?;
        }
        read.flush();
        // Everything else is the suite's banner, menus, system description
        // and progress: the document reader must not take a menu's
        // `1: Total` for a value.
        let consumed = Parsed::frame_lines(src, &read.out, &read.skipped);
        Ok(Parsed {
            observations: read.out,
            consumed,
            skipped: read.skipped,
            ..Parsed::default()
        })
    }
}

fn clean(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains('\x1b') {
        ESCAPE.replace_all(text, "")
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// The reading state: the test and result being read.
#[derive(Default)]
struct Reader {
    title: Option<String>,
    /// The profile's options, `key=value`.
    options: Vec<(String, String)>,
    /// The current result's label parameters and its runs (line, value).
    label: Vec<(String, String)>,
    runs: Vec<(u32, f64)>,
    /// Summaries of the current result, the scale once the average gives it.
    stated: Vec<(u32, Stat, f64)>,
    scale: String,
    /// Whether a result's label was read and its runs may follow.
    open: bool,
    out: Vec<Observation>,
    skipped: Vec<(u32, String)>,
}

impl Reader {
    fn line(&mut self, src: &Source, n: u32, text: &str, next: Option<&str>) -> Result<()> {
        let t = text.trim();
        if t.is_empty() {
            return Ok(());
        }
        // A title: unindented, ending in `:`, over a profile line.
        if !text.starts_with(' ') && t.ends_with(':') && next.is_some_and(|x| PROFILE.is_match(x)) {
            self.flush();
            self.title = Some(t.trim_end_matches(':').trim().to_string());
            self.options.clear();
            self.label.clear();
            return Ok(());
        }
        if self.title.is_none() {
            return Ok(());
        }
        if let Some(c) = PROFILE.captures(t) {
            self.options = c
                .get(1)
                .map(|o| super::phoronix::description_params(o.as_str()))
                .unwrap_or_default();
            return Ok(());
        }
        if let Some(c) = SUMMARY.captures(t) {
            let value = num(src, n, &c[2], &c[1])?;
            let stat = match &c[1] {
                "Average" => {
                    self.scale = c[3].trim().to_string();
                    Stat::Mean
                }
                "Minimum" => Stat::Min,
                "Maximum" => Stat::Max,
                "Deviation" => Stat::Cv,
                "Samples" => Stat::N,
                "Standard Error" => Stat::Stderr,
                _ => Stat::Stddev,
            };
            self.stated.push((n, stat, value));
            return Ok(());
        }
        if VALUE.is_match(t) && self.open {
            self.runs.push((n, num(src, n, t, "run value")?));
            return Ok(());
        }
        if t.ends_with(':') && text.starts_with(' ') {
            // A new result: the one before is complete.
            self.flush();
            self.label = label_params(t.trim_end_matches(':'));
            self.open = true;
            return Ok(());
        }
        if !text.starts_with(' ') && t.contains(".seconds: ") {
            self.skipped.push((
                n,
                "the suite's time for the whole test, not a result".into(),
            ));
            return Ok(());
        }
        if let Some(rest) = t.strip_prefix("Final:") {
            self.skipped.push((
                n,
                format!(
                    "a pass or fail outcome (`{}`), not a measurement",
                    rest.trim()
                ),
            ));
            return Ok(());
        }
        Ok(())
    }

    /// Emits the current result: its runs and summaries, all in its scale.
    fn flush(&mut self) {
        let Some(title) = &self.title else {
            return;
        };
        if self.runs.is_empty() && self.stated.is_empty() {
            self.open = false;
            return;
        }
        // The label names the result more closely than the profile's
        // options (`Test: Peak Injection Bandwidth - All Reads` under
        // `[Test: Peak Injection Bandwidth]`): its setting wins.
        let mut params: Vec<(String, String)> = self
            .options
            .iter()
            .filter(|(k, _)| !self.label.iter().any(|(lk, _)| lk == k))
            .cloned()
            .collect();
        params.extend(self.label.iter().cloned());
        let params = canonical_params(&params);
        let unit = self.scale.clone();
        // A second result of the same test and parameters in another scale
        // (frames and polygons per second) is named by its scale, so that
        // the two are never one series in two units.
        let clash = self.out.iter().any(|o| {
            o.benchmark == title.as_str()
                && o.params == params.as_str()
                && o.metric == "result"
                && !o.unit.is_empty()
                && o.unit != Unit::normalize_spelling(&unit)
        });
        let metric = if clash {
            unit.clone()
        } else {
            "result".to_string()
        };
        let mk = |stat: Stat, value: f64, line: u32| {
            Observation::new(
                title.as_str(),
                metric.as_str(),
                unit_of(&unit, stat),
                stat,
                value,
            )
            .with_params_str(params.as_str())
            .at_line(line)
        };
        for (run, &(line, v)) in self.runs.iter().enumerate() {
            self.out
                .push(mk(Stat::Sample, v, line).with_run(run as u32));
        }
        for &(line, stat, v) in &self.stated {
            self.out.push(mk(stat, v, line));
        }
        self.runs.clear();
        self.stated.clear();
        self.scale.clear();
        self.open = false;
    }
}

/// The unit of a value of `stat` in a result of `scale`: counts and the
/// relative deviation have none.
fn unit_of(scale: &str, stat: Stat) -> &str {
    match stat {
        Stat::N | Stat::Cv => "",
        _ => scale,
    }
}

/// A result's label as parameters: `Model: nasnet` gives `model=nasnet`;
/// the suite's own `Test Results` names nothing.
fn label_params(label: &str) -> Vec<(String, String)> {
    if !label.contains(": ") {
        return Vec::new();
    }
    super::phoronix::description_params(label)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str) -> Source {
        let path = format!(
            "{}/tests/data/harness/phoronix/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        Source::read(std::path::Path::new(&path)).unwrap()
    }

    #[test]
    fn detects_the_console_logs() {
        for i in [1, 2, 3, 5, 8, 9, 10] {
            let src = file(&format!("lkp-pts-{i}.log"));
            assert_eq!(PhoronixConsole.detect(&src), 97, "lkp-pts-{i}.log");
        }
    }
}

#[cfg(test)]
mod shape_tests {
    use super::*;

    const LOG: &str = "Some Test 1.0:\n    pts/some-test-1.0.0 [Size: 4 - Mode: Fast]\n    Test 1 of 1\n        Started Run 1 @ 10:00:00\n\n    Size: 4 - Mode: Fast:\n        12.5\n        13.5\n\n    Average: 13.0 Seconds\n    Deviation: 5.44%\n";

    #[test]
    fn options_label_runs_and_summaries() {
        let src = Source::from_text("log", LOG);
        assert_eq!(PhoronixConsole.detect(&src), 97);
        let p = PhoronixConsole.parse_accounted(&src).unwrap();
        let got: Vec<(&str, Stat, f64, u32)> = p
            .observations
            .iter()
            .map(|o| (o.params.as_str(), o.stat, o.value, o.line))
            .collect();
        assert_eq!(
            got,
            [
                ("mode=Fast,size=4", Stat::Sample, 12.5, 7),
                ("mode=Fast,size=4", Stat::Sample, 13.5, 8),
                ("mode=Fast,size=4", Stat::Mean, 13.0, 10),
                ("mode=Fast,size=4", Stat::Cv, 5.44, 11),
            ]
        );
        assert!(p
            .observations
            .iter()
            .all(|o| o.benchmark == "Some Test 1.0"));
        // Every other line is the frame the values sit in.
        assert_eq!(p.consumed.len(), src.lines.len() - 4);
    }

    #[test]
    fn a_value_too_large_is_an_error_at_its_line() {
        let bad = LOG.replace("13.5", "1e999");
        let e = PhoronixConsole
            .parse_accounted(&Source::from_text("log", &bad))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("log:8"), "{e}");
    }

    #[test]
    fn a_log_cut_before_its_average_keeps_its_runs() {
        let cut = &LOG[..LOG.find("    Average").unwrap()];
        let p = PhoronixConsole
            .parse_accounted(&Source::from_text("log", cut))
            .unwrap();
        assert_eq!(p.observations.len(), 2);
        assert!(p
            .observations
            .iter()
            .all(|o| o.stat == Stat::Sample && o.unit.is_empty()));
    }
}
