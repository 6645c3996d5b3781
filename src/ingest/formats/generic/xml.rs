//! The generic reader of an XML document no importer recognises (a tool's
//! XML report: ntttcp, DiskSpd, SPECsfs), read by its structure as the
//! JSON reader reads a tree.
//!
//! Every element whose text is a number is a value. Its metric is the path
//! of element names below the root (`thread.throughput`), the last one
//! replaced by the element's `name` attribute when it has one (`<metric
//! name="op rate">` → `op rate`); its unit the value of its `unit`,
//! `units` or `metric` attribute (`<throughput metric="KB/s">`). Elements
//! of one name repeated under one parent, that hold elements themselves,
//! are told apart by a parameter: their position (`thread=1`). Text that
//! is no number (`False`, a path, a date) holds no value. The benchmark is
//! the file's stem; each value a `sample`.

use crate::ingest::shared::logscan::Params;
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::{Parsed, Source};
use crate::model::Observation;
use roxmltree::{Document, Node};

/// Whether `src` starts as an XML document does.
pub(super) fn looks_like_xml(src: &Source) -> bool {
    let t = src.raw_trimmed();
    t.starts_with("<?xml") || (t.starts_with('<') && t[1..].starts_with(char::is_alphabetic))
}

/// The values of the document, or `None` when it is no well-formed XML.
pub(super) fn read(src: &Source, stem: &str) -> Option<Parsed> {
    let doc = Document::parse(src.raw_trimmed()).ok()?;
    // Lines are counted in the trimmed text: add what was trimmed.
    let skipped_lines = src.raw[..src.raw.len() - src.raw_trimmed().len()]
        .matches('\n')
        .count() as u32;
    let mut tree = Tree {
        src,
        doc: &doc,
        skipped_lines,
        stem,
        out: Vec::new(),
    };
    tree.children(doc.root_element(), &[], &Params::default());
    Some(tree.out.into())
}

/// What the walk over one document reads with, and what it has read.
struct Tree<'s, 'd, 'i> {
    src: &'s Source,
    doc: &'d Document<'i>,
    /// Lines trimmed off before the document's first.
    skipped_lines: u32,
    stem: &'s str,
    out: Vec<Observation>,
}

impl<'i> Tree<'_, '_, 'i> {
    /// `node`'s value, when it holds no element, or the values under it.
    fn walk(&mut self, node: Node<'_, 'i>, path: &[&str], params: &Params) {
        let name = node.tag_name().name();
        let mut path = path.to_vec();
        path.push(name);
        if !node.children().any(|c| c.is_element()) {
            self.value(node, &path, params);
            return;
        }
        self.children(node, &path, params);
    }

    fn value(&mut self, node: Node, path: &[&str], params: &Params) {
        let Some(v) = node.text().map(str::trim).and_then(parse_number) else {
            return;
        };
        if !v.is_finite() {
            return;
        }
        let mut metric: Vec<&str> = path.to_vec();
        if let Some(n) = node.attribute("name").filter(|n| parse_number(n).is_none()) {
            metric.pop();
            metric.push(n);
        }
        let unit = ["unit", "units", "metric"]
            .iter()
            .find_map(|a| node.attribute(*a))
            .filter(|u| parse_number(u).is_none())
            .unwrap_or("");
        let line = self.doc.text_pos_at(node.range().start).row + self.skipped_lines;
        self.out.push(
            Row::at(self.src, line)
                .benchmark(self.stem)
                .params(&params.render())
                .metric(&metric.join("."))
                .unit(unit)
                .sample(v),
        );
    }

    /// The elements under `node`, those of one name repeated that hold
    /// elements told apart by their position among that name's elements.
    fn children(&mut self, node: Node<'_, 'i>, path: &[&str], params: &Params) {
        let elements: Vec<Node> = node.children().filter(Node::is_element).collect();
        // Each name's count, then a running position: one pass each, not
        // a scan of the siblings per child.
        let mut names: Vec<(&str, usize, usize)> = Vec::new();
        for e in &elements {
            let tag = e.tag_name().name();
            match names.iter_mut().find(|(t, ..)| *t == tag) {
                Some((_, count, _)) => *count += 1,
                None => names.push((tag, 1, 0)),
            }
        }
        for child in elements {
            let tag = child.tag_name().name();
            let Some((_, count, seen)) = names.iter_mut().find(|(t, ..)| *t == tag) else {
                continue;
            };
            let at = *seen;
            *seen += 1;
            let mut p = params.clone();
            if *count > 1 && child.children().any(|c| c.is_element()) {
                p.set(tag, at.to_string());
            }
            self.walk(child, path, &p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str) -> Vec<(String, String, String, f64, u32)> {
        read(&Source::from_text("x.xml", text), "x")
            .map(|p| {
                p.observations
                    .iter()
                    .map(|o| {
                        (
                            o.params.to_string(),
                            o.metric.to_string(),
                            o.unit.to_string(),
                            o.value,
                            o.line,
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    fn row(p: &str, m: &str, u: &str, v: f64, line: u32) -> (String, String, String, f64, u32) {
        (p.into(), m.into(), u.into(), v, line)
    }

    #[test]
    fn numbers_are_named_by_their_elements_and_units_by_attributes() {
        // ntttcp's receiver XML (lines of a real file, cut).
        let text = "<ntttcpr computername=\"PKB-5C4B6A59-1\" version=\"5.33\">\n  <parameters>\n    <port>5003</port>\n    <async>False</async>\n  </parameters>\n  <thread index=\"0\">\n    <realtime metric=\"s\">60.015</realtime>\n    <throughput metric=\"KB/s\">17957.149</throughput>\n    <throughput metric=\"MB/s\">17.536</throughput>\n  </thread>\n  <thread index=\"1\">\n    <realtime metric=\"s\">60.016</realtime>\n  </thread>\n</ntttcpr>\n";
        let r = rows(text);
        assert_eq!(
            r,
            [
                row("", "parameters.port", "", 5003.0, 3),
                row("thread=0", "thread.realtime", "s", 60.015, 7),
                row("thread=0", "thread.throughput", "KB/s", 17957.149, 8),
                row("thread=0", "thread.throughput", "MB/s", 17.536, 9),
                row("thread=1", "thread.realtime", "s", 60.016, 12),
            ]
        );
        // SPECsfs2014's summary: the metric named by its `name` attribute.
        let text = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<summary id=\"8d2bae78\">\n  <run fingerprint=\"974f\" id=\"ae3f7377\">\n    <metric name=\"op rate\" units=\"ops/s\">500.00</metric>\n    <metric name=\"average latency\" units=\"milliseconds\">1.48</metric>\n  </run>\n</summary>\n";
        assert_eq!(
            rows(text),
            [
                row("", "run.op rate", "ops/s", 500.0, 4),
                row("", "run.average latency", "ms", 1.48, 5),
            ]
        );
        assert!(rows("<a><b>1</b>").is_empty(), "not well-formed");
    }
}
