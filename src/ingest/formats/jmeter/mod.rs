//! Apache JMeter's sample results (`.jtl`): one sample per request, as XML
//! elements (`<httpSample t="1733" lt="1282" … lb="home" …/>`) or as CSV
//! lines under a `timeStamp,elapsed,label,…` header.
//!
//! Benchmark: the sample's label. Metrics: `elapsed`, `latency`, `connect`
//! and `idle` in ms, `bytes` and `sent_bytes` in B, a `sample` per request;
//! a failed request (`s="false"`, `success` false) gets the parameter
//! `success=false`, its times apart from the successful ones. Thread
//! counts, response codes and the time stamp are not values.

pub(in crate::ingest) mod csv;
pub(in crate::ingest) mod summariser;
pub(in crate::ingest) mod xml;

use crate::ingest::shared::numbers::parse_number;
use crate::ingest::shared::row::Row;
use crate::ingest::Source;
use crate::model::Observation;

/// A result field (its CSV header name and its XML attribute) → the metric
/// and unit it gives.
const FIELDS: &[(&str, &str, &str, &str)] = &[
    ("elapsed", "t", "elapsed", "ms"),
    ("Latency", "lt", "latency", "ms"),
    ("Connect", "ct", "connect", "ms"),
    ("IdleTime", "it", "idle", "ms"),
    ("bytes", "by", "bytes", "B"),
    ("sentBytes", "sby", "sent_bytes", "B"),
];

/// The rows of one sample: `field(csv, attr)` gives a field's text.
fn sample_rows<'a>(
    src: &Source,
    line: u32,
    label: &str,
    success: bool,
    field: impl Fn(&str, &str) -> Option<&'a str>,
    out: &mut Vec<Observation>,
) {
    let params = if success { "" } else { "success=false" };
    for (csv, attr, metric, unit) in FIELDS {
        let Some(v) = field(csv, attr).and_then(parse_number) else {
            continue;
        };
        out.push(
            Row::at(src, line)
                .benchmark(label)
                .params(params)
                .metric(metric)
                .unit(unit)
                .sample(v),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::csv::JmeterCsv;
    use super::xml::JmeterXml;
    use crate::ingest::row_lines as rows;
    use crate::ingest::{parse_file, Format, Source};

    #[test]
    fn each_xml_sample_element_gives_its_times_under_its_label() {
        let p = parse_file(
            &JmeterXml,
            "tests/data/harness/jmeter/sample_log2-first-40.jtl",
        );
        let r = rows(&p);
        // 41 samples with t and lt each.
        assert_eq!(r.len(), 82);
        assert_eq!(r[0], "3 http://jakarta.apache.org/||elapsed|ms=511");
        assert_eq!(r[1], "3 http://jakarta.apache.org/||latency|ms=201");
        assert_eq!(
            r[80],
            "43 http://jakarta.apache.org/jmeter/|success=false|elapsed|ms=25546"
        );
        assert_eq!(p.consumed, vec![1, 2, 45]);
    }

    #[test]
    fn each_csv_line_gives_the_header_s_timed_fields() {
        let p = parse_file(
            &JmeterCsv,
            "tests/data/harness/jmeter/HTMLReportTestFile.csv",
        );
        let r = rows(&p);
        assert_eq!(r.len(), 255 * 6);
        assert_eq!(r[0], "2 JR-OK||elapsed|ms=351");
        assert_eq!(r[4], "2 JR-OK||bytes|B=18");
        assert_eq!(r[5], "2 JR-OK||sent_bytes|B=8");
        assert_eq!(r[6], "3 JR-OK||elapsed|ms=192");
        // Failed requests are told apart; a header in another language's labels too.
        let p = parse_file(
            &JmeterCsv,
            "tests/data/harness/jmeter/HTMLReportFalseTestFile.csv",
        );
        assert_eq!(rows(&p)[0], "2 Requête HTTP|success=false|elapsed|ms=0");
    }

    #[test]
    fn a_csv_without_elapsed_or_label_is_not_jmeter_s() {
        let text = "label,responseCode,responseMessage,threadName,dataType,success,grpThreads,allThreads,SampleCount,ErrorCount\n\
                    JDBC_DROP_PROCEDURE,200,OK,setUp Thread Group 1-1,text,true,1,1,1,0\n";
        assert_eq!(JmeterCsv.detect(&Source::from_text("b.csv", text)), 0);
    }

    #[test]
    fn a_csv_without_header_is_read_in_the_default_order() {
        let p = parse_file(
            &JmeterCsv,
            "tests/data/harness/jmeter/HTMLReportTestFile-no-header.csv",
        );
        let r = rows(&p);
        // The same samples as under the header, a line earlier.
        assert_eq!(r.len(), 255 * 6);
        assert_eq!(r[0], "1 JR-OK||elapsed|ms=351");
        assert_eq!(r[5], "1 JR-OK||sent_bytes|B=8");
        assert!(p.consumed.is_empty());
        // A line of another width is not taken for one.
        let text = "1551783627191,351,JR-OK,200,Good request,Thread Group 1-1,text,true\n";
        assert_eq!(JmeterCsv.detect(&Source::from_text("short.csv", text)), 0);
    }
}
