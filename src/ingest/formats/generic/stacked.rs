//! A label alone on its line over a bare number on the next
//! (`numa01` then `313.17`): scripts that `echo $name; echo $result`
//! print each value so. The pair is one `label: value`. The number may
//! carry its unit (`GPUCoreFLOPs` then `14.501 TFLOPs`, a GPU
//! microbenchmark's result file).

use super::{is_unit, MAX_LABEL};
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::Source;

/// One label over its value: the label's line, the value's line, the
/// label and the value.
pub(super) struct Stacked<'a> {
    pub(super) label_line: u32,
    pub(super) value_line: u32,
    pub(super) label: &'a str,
    pub(super) value: f64,
    pub(super) unit: &'a str,
}

/// A line that is only a number and, maybe, its unit (`14.501 TFLOPs`,
/// `1.1`).
pub(super) fn number_line(t: &str) -> Option<(f64, &str)> {
    let mut words = t.split_whitespace();
    let value = parse_number(words.next()?)?;
    match (words.next(), words.next()) {
        (None, _) => Some((value, "")),
        (Some(u), None) if is_unit(u) && u.starts_with(|c: char| c.is_alphabetic() || c == '%') => {
            Some((value, u))
        }
        _ => None,
    }
}

/// A line that can only be a name: a letter first, no separator, no blank
/// inside (a sentence over a number is prose, not its label).
fn is_bare_label(t: &str) -> bool {
    t.len() <= MAX_LABEL
        && t.starts_with(|c: char| c.is_alphabetic())
        && !t.contains(char::is_whitespace)
        && !t.contains([':', '=', ','])
        && parse_number(t).is_none()
}

/// A number alone (`1.1`, `1.5 ms`) under the title `section` names
/// (`Latency (ms):`): its metric, unit (its own, else the title's) and
/// value.
pub(super) fn under_title<'a>(
    section: Option<&'a (String, String)>,
    t: &'a str,
) -> Option<(&'a str, &'a str, f64)> {
    let (name, title_unit) = section?;
    let (value, unit) = number_line(t)?;
    let unit = if unit.is_empty() {
        title_unit.as_str()
    } else {
        unit
    };
    Some((name.as_str(), unit, value))
}

/// The labels over numbers in `src`, when there are at least two or the
/// one number states its unit (one bare number could be any count under
/// any word).
pub(super) fn stacked(src: &Source) -> Vec<Stacked<'_>> {
    let mut out = Vec::new();
    for w in src.lines.windows(2) {
        // A tool that writes a byte-order mark starts each capture of a
        // loop with one.
        let label = w[0].text.trim().trim_start_matches('\u{feff}');
        let value = w[1].text.trim();
        if !is_bare_label(label) {
            continue;
        }
        if let Some((v, unit)) = number_line(value) {
            out.push(Stacked {
                label_line: w[0].number,
                value_line: w[1].number,
                label,
                value: v,
                unit,
            });
        }
    }
    if out.len() < 2 && out.iter().all(|s| s.unit.is_empty()) {
        out.clear();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::Generic;
    use crate::ingest::{Format, Source};

    /// (metric, value, unit, line) of each row `Generic` reads from `path`.
    fn read(path: &str) -> Vec<(String, f64, String, u32)> {
        let src = Source::read(std::path::Path::new(path)).unwrap();
        rows(&src)
    }

    fn rows(src: &Source) -> Vec<(String, f64, String, u32)> {
        let p = Generic.parse_accounted(src).unwrap();
        p.observations
            .iter()
            .map(|o| (o.metric.to_string(), o.value, o.unit.to_string(), o.line))
            .collect()
    }

    #[test]
    fn a_name_over_its_value_and_unit_is_one_value() {
        let got = read("tests/data/harness/unknown/virtualclient-dxmicrobenchmarks-result.txt");
        assert_eq!(got, [("GPUCoreFLOPs".into(), 14.501, "TFLOPs".into(), 2)]);
        // One bare number under one word is still no value of it.
        let src = Source::from_text("x.log", "Done\n17\n");
        assert!(Generic
            .parse_accounted(&src)
            .map_or(true, |p| p.observations.is_empty()));
    }

    #[test]
    fn numbers_alone_under_a_title_are_values_of_its_name() {
        // PerfKitBenchmarker's TensorFlow Serving client output, whole
        // (`tests/data/tensorflow_serving_client_workload_stdout.txt`).
        let src = Source::from_text(
            "stdout.txt",
            "Completed requests: 1\nFailed requests: 2\nRuntime: 3.3\nThroughput: 5.2\n\
             Latency:\n1.1\n2.2\n3.3\n",
        );
        let got = rows(&src);
        let latency: Vec<(f64, u32)> = got
            .iter()
            .filter(|r| r.0 == "Latency")
            .map(|r| (r.1, r.3))
            .collect();
        assert_eq!(latency, [(1.1, 6), (2.2, 7), (3.3, 8)]);
        assert!(got.iter().any(|r| r.0 == "Throughput" && r.1 == 5.2));
        // Phoronix's console lists each run's result under `Test
        // Results:` (lines of the LKP log in tests/data/harness/phoronix),
        // and a unit in brackets on the title is the values' unit.
        let src = Source::from_text(
            "pts.log",
            "        Started Run 15 @ 06:09:17 *\n\n    Test Results:\n        8.1603951454163\n        \
             7.8159680366516\n\nLatency (ms):\n1.5\n",
        );
        let got = rows(&src);
        assert_eq!(
            got,
            [
                ("Test Results".into(), 8.1603951454163, String::new(), 4),
                ("Test Results".into(), 7.8159680366516, String::new(), 5),
                ("Latency".into(), 1.5, "ms".into(), 8),
            ]
        );
    }
}
