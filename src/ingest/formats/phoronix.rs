//! Phoronix Test Suite result files (`composite.xml` of a saved result).
//!
//! Each `<Result>` is one test: its `<Title>` is the benchmark, its
//! `<Description>` (`Test: RAM / Memory - Threads: 4`) the parameters, its
//! `<Scale>` the unit and `<Proportion>` the direction (`HIB` higher is
//! better, `LIB` lower). Each `<Entry>` is one system of the comparison
//! (`<Identifier>`, the variant): the samples of its runs are the
//! colon-separated `<RawString>`; an entry without them gives its
//! `<Value>`, the mean the suite computed.

use crate::error::Result;
use crate::ingest::shared::logscan::num;
use crate::ingest::shared::structured::parse_xml;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Direction, Observation, Stat};
use roxmltree::Node;

/// The Phoronix Test Suite importer.
pub struct Phoronix;

impl Format for Phoronix {
    fn name(&self) -> &'static str {
        "phoronix"
    }

    fn description(&self) -> &'static str {
        "Phoronix Test Suite composite.xml: one row per run of each system and test"
    }

    fn detect(&self, src: &Source) -> Confidence {
        // The root element opens the file (after the XML declaration and a
        // comment); only then is the whole text searched for a result.
        let root = src
            .lines
            .iter()
            .take(8)
            .any(|l| l.text.contains("<PhoronixTestSuite>"));
        if root && src.raw.contains("<Result>") {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let doc = parse_xml(src, Default::default())?;
        let line = |n: Node| doc.text_pos_at(n.range().start).row;
        let mut out = Vec::new();
        for result in doc
            .root_element()
            .children()
            .filter(|n| n.has_tag_name("Result"))
        {
            let title = child_text(result, "Title").unwrap_or("phoronix");
            let params = description_params(child_text(result, "Description").unwrap_or(""));
            let unit = child_text(result, "Scale").unwrap_or("");
            let direction = match child_text(result, "Proportion") {
                Some("HIB") => Some(Direction::Higher),
                Some("LIB") => Some(Direction::Lower),
                _ => None,
            };
            let Some(data) = result.children().find(|n| n.has_tag_name("Data")) else {
                continue;
            };
            for entry in data.children().filter(|n| n.has_tag_name("Entry")) {
                let variant = child_text(entry, "Identifier").unwrap_or("");
                let at = line(entry);
                let mk = |stat: Stat, value: f64| {
                    let mut o = Observation::new(title, "result", unit, stat, value)
                        .with_params(&params)
                        .with_variant(variant)
                        .at_line(at);
                    o.direction = direction;
                    o
                };
                let raw = child_text(entry, "RawString").unwrap_or("");
                if !raw.is_empty() {
                    for (run, v) in raw.split(':').enumerate() {
                        let value = num(src, at, v.trim(), "run value")?;
                        out.push(mk(Stat::Sample, value).with_run(run as u32));
                    }
                } else if let Some(v) = child_text(entry, "Value").filter(|v| !v.is_empty()) {
                    out.push(mk(Stat::Mean, num(src, at, v, "Value")?));
                }
            }
        }
        // The rest is markup and the systems' descriptions, read as the
        // structure the values sit in.
        let consumed = src.lines.iter().map(|l| l.number).collect();
        Parsed::found(
            src,
            out,
            consumed,
            Vec::new(),
            "a Phoronix result file without a result value",
        )
    }
}

fn child_text<'a>(node: Node<'a, '_>, tag: &str) -> Option<&'a str> {
    node.children()
        .find(|n| n.has_tag_name(tag))
        .and_then(|n| n.text())
        .map(str::trim)
}

/// `Test: RAM / Memory - Threads: 4` as parameters; a description that is
/// no list of settings is one parameter, `test`. A part without its own
/// `Key: ` continues the value before it (`Test: Peak Injection Bandwidth
/// - All Reads` is one setting whose value holds a dash).
pub(crate) fn description_params(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for part in text.split(" - ") {
        match part.split_once(": ") {
            Some((k, v)) => out.push((k.trim().to_lowercase(), v.trim().to_string())),
            None if part.trim().is_empty() => {}
            None => match out.last_mut() {
                Some((_, v)) => {
                    v.push_str(" - ");
                    v.push_str(part.trim());
                }
                None => out.push(("test".into(), part.trim().to_string())),
            },
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_SYSTEMS: &str = r#"<?xml version="1.0"?>
<PhoronixTestSuite>
  <System><Identifier>runA</Identifier></System>
  <Result>
    <Title>Sysbench</Title>
    <Description>Test: CPU - Threads: 4</Description>
    <Scale>Events Per Second</Scale>
    <Proportion>HIB</Proportion>
    <Data>
      <Entry><Identifier>runA</Identifier><Value>6537.71</Value><RawString>4746.95:8328.46</RawString></Entry>
      <Entry><Identifier>runB</Identifier><Value>7234.71</Value><RawString></RawString></Entry>
    </Data>
  </Result>
</PhoronixTestSuite>
"#;

    #[test]
    fn runs_are_samples_and_a_bare_value_is_the_mean() {
        let src = Source::from_text("composite.xml", TWO_SYSTEMS);
        assert_eq!(Phoronix.detect(&src), 95);
        let rows = Phoronix.parse(&src).unwrap();
        let got: Vec<(&str, &str, &str, f64)> = rows
            .iter()
            .map(|o| {
                (
                    o.variant.as_str(),
                    o.params.as_str(),
                    o.stat.name(),
                    o.value,
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("runA", "test=CPU,threads=4", "sample", 4746.95),
                ("runA", "test=CPU,threads=4", "sample", 8328.46),
                ("runB", "test=CPU,threads=4", "mean", 7234.71)
            ]
        );
        assert_eq!(rows[0].direction, Some(Direction::Higher));
        assert_eq!(rows[0].unit, "Events Per Second");
        assert_eq!(rows[0].line, 10);
    }

    #[test]
    fn a_result_file_without_a_value_names_its_last_line() {
        let text =
            "<PhoronixTestSuite>\n<Result>\n<Title>x</Title>\n</Result>\n</PhoronixTestSuite>\n";
        let e = Phoronix
            .parse(&Source::from_text("c.xml", text))
            .unwrap_err()
            .to_string();
        assert!(e.contains("c.xml:5"), "{e}");
        assert!(e.contains("without a result value"), "{e}");
    }

    #[test]
    fn broken_xml_names_its_line() {
        let src = Source::from_text("c.xml", "<PhoronixTestSuite>\n<Result>\n<Title>x</Titl>\n");
        let e = Phoronix.parse(&src).unwrap_err().to_string();
        assert!(e.contains("c.xml:3"), "{e}");
    }
}
