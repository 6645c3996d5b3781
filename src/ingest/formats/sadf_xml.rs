//! sysstat's `sadf -x`: a sar data file as XML. Under `<host>`, each
//! `<statistics><timestamp …>` holds one interval of every activity
//! recorded, as elements of two shapes: a record whose attributes are its
//! fields (`<cpu number="all" usr="87.06" … idle="0.00"/>`, `<net-dev
//! iface="lo" rxpck="0.00" …/>`), or an activity whose child elements hold
//! one field each (`<memory unit="kB"><memfree>1426184</memfree>…`).
//!
//! Each field is a metric, a `sample` per interval, of the benchmark named
//! by its record's element (`cpu`, `net-dev`) or by the activity holding
//! the field elements (`memory`). A record's attributes that name it, not
//! measure it, are its parameters: those with a value that is no number
//! among the records of its name (`number="all"`, `iface="lo"`,
//! `intr="sum"`), so that `number="0"` is a key alongside `number="all"`.
//! Units: `-percent` fields in %, the `unit` an activity states (`kB`,
//! `MHz`) for the fields under it. `<restarts>` are left out with the
//! reason; the host and time stamps are read as context.

use crate::error::Result;
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::shared::structured::parse_xml;
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::Observation;
use roxmltree::{Node, ParsingOptions};
use std::collections::HashSet;

/// The sadf -x importer.
pub struct SadfXml;

impl Format for SadfXml {
    fn name(&self) -> &'static str {
        "sysstat-sadf-xml"
    }

    fn description(&self) -> &'static str {
        "sysstat's sadf -x: a sar data file as XML, `<timestamp>` intervals of `<cpu usr=… />` \
         records and `<memory><memfree>…` fields"
    }

    fn detect(&self, src: &Source) -> Confidence {
        // The root and version open the document: its first 2 KiB, cut
        // at a character's boundary.
        let mut end = src.raw.len().min(2048);
        while !src.raw.is_char_boundary(end) {
            end -= 1;
        }
        let head = &src.raw[..end];
        if head.contains("<sysstat") && head.contains("<sysdata-version>") {
            95
        } else {
            0
        }
    }

    fn reads_raw(&self) -> bool {
        true
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let options = ParsingOptions {
            allow_dtd: true,
            ..ParsingOptions::default()
        };
        let doc = parse_xml(src, options)?;
        let line = |n: Node| doc.text_pos_at(n.range().start).row;
        let (mut out, mut skipped) = (Vec::new(), Vec::new());
        for host in doc.descendants().filter(|n| n.has_tag_name("host")) {
            for child in host.children().filter(Node::is_element) {
                if child.has_tag_name("restarts") {
                    for boot in child.children().filter(Node::is_element) {
                        let why = "a restart of the system being recorded".to_string();
                        skipped.push((line(boot), why));
                    }
                }
            }
            let stamps = host.descendants().filter(|n| {
                n.has_tag_name("timestamp")
                    && n.parent().is_some_and(|p| p.has_tag_name("statistics"))
            });
            for stamp in stamps {
                for activity in stamp.children().filter(Node::is_element) {
                    read_activity(src, activity, "", &line, &mut out)?;
                }
            }
        }
        // Every line of the document is read: values, or their context
        // (tags, the host, time stamps).
        let used: HashSet<u32> = out
            .iter()
            .map(|o| o.line)
            .chain(skipped.iter().map(|s| s.0))
            .collect();
        let consumed = src
            .line_texts()
            .map(|l| l.number)
            .filter(|n| !used.contains(n))
            .collect();
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no sadf -x interval (`<timestamp>` under `<statistics>`) holds a value",
        )
    }
}

/// The values of `node` and the elements under it, `unit` the unit an
/// activity above it stated.
fn read_activity<'a>(
    src: &Source,
    node: Node<'a, 'a>,
    unit: &str,
    line: &impl Fn(Node) -> u32,
    out: &mut Vec<Observation>,
) -> Result<()> {
    let unit = node.attribute("unit").unwrap_or(unit);
    let name = node.tag_name().name();
    // A field element: its text is the value, its activity the benchmark.
    let text = node.text().map(str::trim).unwrap_or("");
    if node.children().all(|c| !c.is_element()) && !text.is_empty() {
        if let Some(v) = parse_number(text) {
            let bench = node.parent().map_or(name, |p| p.tag_name().name());
            out.push(value(src, line(node), bench, "", name, unit, v));
        }
        return Ok(());
    }
    let keys = keys_of(node);
    let numeric: Vec<(&str, f64)> = node
        .attributes()
        .filter(|a| !keys.contains(a.name()) && a.name() != "unit" && a.name() != "per")
        .filter_map(|a| parse_number(a.value()).map(|v| (a.name(), v)))
        .collect();
    if !numeric.is_empty() {
        let mut params: Vec<(&str, &str)> = node
            .attributes()
            .filter(|a| keys.contains(a.name()))
            .map(|a| (a.name(), a.value()))
            .collect();
        params.sort_unstable();
        let params = crate::model::canonical_params(&params);
        for (field, v) in numeric {
            out.push(value(src, line(node), name, &params, field, unit, v));
        }
    }
    for child in node.children().filter(Node::is_element) {
        read_activity(src, child, unit, line, out)?;
    }
    Ok(())
}

/// The attributes of `node` that name its record: those whose value is no
/// number in `node` or in a sibling of its name (`number="all"` beside
/// `number="0"`), but for the `unit` and `per` an activity states.
fn keys_of<'a>(node: Node<'a, 'a>) -> HashSet<&'a str> {
    let name = node.tag_name().name();
    let siblings = node
        .parent()
        .into_iter()
        .flat_map(|p| p.children())
        .filter(|s| s.is_element() && s.tag_name().name() == name);
    let mut keys = HashSet::new();
    for s in siblings.chain(std::iter::once(node)) {
        for a in s.attributes() {
            if a.name() != "unit" && a.name() != "per" && parse_number(a.value()).is_none() {
                keys.insert(a.name());
            }
        }
    }
    keys
}

/// One field's value: a sample of `metric` in its unit (`-percent`
/// fields in %).
fn value(
    src: &Source,
    line: u32,
    bench: &str,
    params: &str,
    metric: &str,
    unit: &str,
    v: f64,
) -> Observation {
    let unit = if metric.ends_with("-percent") {
        "%"
    } else {
        unit
    };
    Row::at(src, line)
        .benchmark(bench)
        .params(params)
        .metric(metric)
        .unit(unit)
        .sample(v)
}

#[cfg(test)]
mod tests {
    use super::SadfXml;
    use crate::ingest::{parse_file, Format, Source};

    const FILE: &str = "tests/data/harness/sysstat/sadf-x-A.xml";

    #[test]
    fn records_and_field_elements_give_a_sample_per_interval() {
        let src = Source::read(std::path::Path::new(FILE)).unwrap();
        assert_eq!(SadfXml.detect(&src), 95);
        let p = parse_file(&SadfXml, FILE);
        let find = |bench: &str, params: &str, metric: &str| -> Vec<(u32, f64, String)> {
            p.observations
                .iter()
                .filter(|o| o.benchmark == bench && o.params == params && o.metric == metric)
                .map(|o| (o.line, o.value, o.unit.to_string()))
                .collect()
        };
        // `<cpu number="all" usr="87.06" …/>`, one per interval.
        let usr = find("cpu", "number=all", "usr");
        assert_eq!(usr.len(), 3);
        assert_eq!((usr[0].0, usr[0].1), (20, 87.06));
        // A numbered CPU is a key beside `all`, not a metric.
        assert_eq!(find("cpu", "number=1", "usr")[0].1, 76.24);
        assert!(find("cpu", "number=all", "number").is_empty());
        // Field elements under an activity that states its unit.
        let free = find("memory", "", "memfree");
        assert_eq!(free[0], (146, 1426184.0, "kB".to_string()));
        assert_eq!(find("memory", "", "memused-percent")[0].2, "%");
        // Records named by a text attribute, and a frequency in MHz.
        assert_eq!(find("disk-device", "dev=vda", "tps")[0].1, 86.0);
        assert_eq!(find("cpufreq", "number=all", "frequency")[0].2, "MHz");
        assert_eq!(find("irq", "cpu=all,intr=LOC", "value")[0].1, 575.0);
    }

    #[test]
    fn malformed_xml_is_an_error_naming_its_line() {
        let src = Source::from_text(
            "bad.xml",
            "<?xml version=\"1.0\"?>\n<sysstat>\n<sysdata-version>3.11</sysdata-version>\n<host>\n<cpu usr=\"1\"\n",
        );
        let e = SadfXml.parse_accounted(&src).unwrap_err().to_string();
        assert!(e.contains("bad.xml:"), "{e}");
        // Well-formed, but no interval: an error, not an empty reading.
        let src = Source::from_text(
            "empty.xml",
            "<sysstat><sysdata-version>3.11</sysdata-version><host nodename=\"vm\"></host></sysstat>\n",
        );
        assert!(SadfXml.parse_accounted(&src).is_err());
        // Detection looks at the start without cutting a character in two
        // (a mail's box-drawing `─` across byte 2048 panicked).
        let text = format!("{}{}", "a".repeat(2047), "─".repeat(10));
        assert_eq!(SadfXml.detect(&Source::from_text("m.txt", &text)), 0);
    }
}
