//! netperf's stacked column headers: several lines of words above a row of
//! values, each word standing over the value it names (`Recv` over
//! `Socket` over `Size` over `bytes`), the units on the lowest lines.

use crate::ingest::shared::logscan::lazy_re;

lazy_re!(
    UNIT,
    r"^(bytes|Bytes|secs?\.?|per|sec|#|%|[A-Z]|u?sec/\w+|us/\w+|10\^\d+(bits|bytes|Bytes)/s(ec)?|[KMG]?(Bytes|bits)/s(ec)?|Trans/s|Tran/s)$"
);

/// The words of `line` with the byte offsets where each starts and ends.
pub fn words(line: &str) -> Vec<(usize, usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices().chain([(line.len(), ' ')]) {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, i, &line[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    out
}

/// The header words over each value of `row`, top line first: a word
/// goes to the value its span overlaps most, or else the nearest one.
/// netperf's headers that span two columns (`Socket Size` over `Send
/// Recv`, and with `-c -C` `Utilization` and `Service Demand` over the
/// local and remote sides) go to both.
pub fn heads(header: &[&str], row: &str) -> Vec<Vec<String>> {
    let values = words(row);
    let mut out = vec![Vec::new(); values.len()];
    if values.is_empty() {
        return out;
    }
    for line in header {
        let ws = words(line);
        let mut i = 0;
        while i < ws.len() {
            let (s, e, w) = ws[i];
            let spanning =
                w == "Socket" && ws.get(i + 1).is_some_and(|n| n.2 == "Size" && n.0 == e + 1);
            if spanning {
                let (_, e2, _) = ws[i + 1];
                for (k, v) in values.iter().enumerate() {
                    if overlap((s, e2), (v.0, v.1)) > 0 {
                        out[k].push("Socket Size".to_string());
                    }
                }
                i += 2;
                continue;
            }
            // `Utilization` and `Service Demand` head two columns each, the
            // local (send) and the remote (receive) side's, which the lines
            // below name: each word stands over the first of its two.
            let pair = w == "Service"
                && ws
                    .get(i + 1)
                    .is_some_and(|n| n.2 == "Demand" && n.0 == e + 1);
            if w == "Utilization" || pair {
                let (name, e2) = if pair {
                    ("Service Demand", ws[i + 1].1)
                } else {
                    ("Utilization", e)
                };
                let k = nearest(&values, s, e2.min(s + 1));
                for v in out.iter_mut().skip(k).take(2) {
                    v.push(name.to_string());
                }
                i += if pair { 2 } else { 1 };
                continue;
            }
            out[nearest(&values, s, e)].push(w.to_string());
            i += 1;
        }
    }
    out
}

fn overlap(a: (usize, usize), b: (usize, usize)) -> usize {
    a.1.min(b.1).saturating_sub(a.0.max(b.0))
}

/// For each value of `row`, the value of `first` it stands under (a
/// remote side's row holds fewer values than the row above it).
pub fn under(first: &str, row: &str) -> Vec<usize> {
    let above = words(first);
    words(row)
        .iter()
        .map(|&(s, e, _)| nearest(&above, s, e))
        .collect()
}

/// The value whose span overlaps `s..e` most, or else the closest one.
fn nearest(values: &[(usize, usize, &str)], s: usize, e: usize) -> usize {
    let score = |v: &(usize, usize, &str)| {
        let o = overlap((s, e), (v.0, v.1));
        // netperf starts a value where its header starts (or right-aligns
        // it under a wider header, which overlaps).
        let gap = if o > 0 { 0 } else { v.0.abs_diff(s) };
        (std::cmp::Reverse(o), gap)
    };
    (0..values.len())
        .min_by_key(|&k| score(&values[k]))
        .unwrap_or(0)
}

/// A column's name and unit, from its header words: words that spell a
/// unit (`bytes`, `secs.`, `10^6bits/sec`, `per sec`, `% I`) make the
/// unit, the rest the name.
pub fn name_and_unit(heads: &[String]) -> (String, String) {
    let (mut name, mut unit): (Vec<&str>, Vec<&str>) = (Vec::new(), Vec::new());
    for w in heads {
        // `Size (bytes)`: a unit in brackets is a unit all the same.
        let w = w
            .strip_prefix('(')
            .and_then(|b| b.strip_suffix(')'))
            .filter(|b| UNIT.is_match(b))
            .unwrap_or(w);
        // A capital after `%` is the CPU-utilisation method, not a name.
        let after_percent = unit.last() == Some(&"%");
        if (UNIT.is_match(w) && (w.len() > 1 || after_percent || w == "#" || w == "%"))
            || after_percent
        {
            unit.push(w);
        } else {
            name.push(w);
        }
    }
    (name.join(" "), unit.join(" "))
}

/// The unit patchperf writes for a netperf unit.
pub fn canonical_unit(unit: &str, name: &str) -> String {
    let u = unit.trim();
    if let Some(rest) = u.strip_prefix("10^") {
        let (exp, per) = rest.split_at(rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(0));
        let prefix = match exp {
            "3" => "k",
            "6" => "M",
            "9" => "G",
            _ => "",
        };
        let what = if per.starts_with("bits") { "bit" } else { "B" };
        return format!("{prefix}{what}/s");
    }
    match u {
        "bytes" | "Bytes" => "B".into(),
        "secs." | "secs" | "sec" => "s".into(),
        "#" | "# #" => "#".into(),
        "Trans/s" | "Tran/s" => "trans/s".into(),
        "per sec" if name.to_ascii_lowercase().contains("tran") => "trans/s".into(),
        "per sec" => "/s".into(),
        "us/Tr" | "usec/Tran" => "us/trans".into(),
        _ if u.starts_with('%') => "%".into(),
        // netperf's -f K/M/G are powers of two.
        _ if u.starts_with("KBytes/s") => "KiB/s".into(),
        _ if u.starts_with("MBytes/s") => "MiB/s".into(),
        _ if u.starts_with("GBytes/s") => "GiB/s".into(),
        _ => u.into(),
    }
}

/// The metric name patchperf writes for a column named `name` (netperf's
/// abbreviations spelt out).
pub fn metric_name(name: &str) -> String {
    let spelt = name
        .split_whitespace()
        .map(|w| match w.to_ascii_lowercase().as_str() {
            "trans." | "trans" => "transaction".to_string(),
            "s.dem" => "service demand".to_string(),
            "cpu" => "cpu util".to_string(),
            "roundtrip" => "round-trip".to_string(),
            w => w.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ");
    // `CPU Util` spells `cpu` out to the word that follows it.
    let mut words: Vec<&str> = Vec::new();
    for w in spelt.split(' ') {
        if words.last() != Some(&w) {
            words.push(w);
        }
    }
    words.join(" ")
}

/// A parameter key for a column named `name` (`Send Message Size` ->
/// `send_message_size`).
pub fn param_key(name: &str) -> String {
    name.split_whitespace()
        .map(|w| {
            w.chars()
                .filter(|c| c.is_ascii_alphanumeric())
                .collect::<String>()
                .to_ascii_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("_")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spelt_out_word_is_not_doubled() {
        assert_eq!(metric_name("CPU Util"), "cpu util");
        assert_eq!(metric_name("CPU"), "cpu util");
        assert_eq!(metric_name("Trans. Rate"), "transaction rate");
    }

    #[test]
    fn words_go_to_the_values_they_stand_over() {
        let header = [
            "Recv   Send    Send             ",
            "Socket Socket  Message  Elapsed ",
            "Size   Size    Size     Time     Throughput",
            "bytes  bytes   bytes    secs.    10^6bits/sec",
        ];
        let h = heads(&header, " 87380  16384  16384    10.00    2997.84");
        assert_eq!(h.len(), 5);
        assert_eq!(
            name_and_unit(&h[0]),
            ("Recv Socket Size".into(), "bytes".into())
        );
        assert_eq!(
            name_and_unit(&h[3]),
            ("Elapsed Time".into(), "secs.".into())
        );
        assert_eq!(
            name_and_unit(&h[4]),
            ("Throughput".into(), "10^6bits/sec".into())
        );
        assert_eq!(canonical_unit("10^6bits/sec", "Throughput"), "Mbit/s");
    }

    #[test]
    fn socket_size_spans_send_and_recv_and_cpu_units_keep_their_method() {
        let header = [
            "Socket Size   Request Resp.  Elapsed Trans.   CPU    CPU    S.dem   S.dem",
            "Send   Recv   Size    Size   Time    Rate     local  remote local   remote",
            "bytes  bytes  bytes   bytes  secs.   per sec  % I    % I    us/Tr   us/Tr",
        ];
        let h = heads(
            &header,
            "65535  65535  1       1      10.01   15262.48   13.90  16.11  18.221  21.116",
        );
        let named: Vec<(String, String)> = h.iter().map(|w| name_and_unit(w)).collect();
        assert_eq!(named[0], ("Socket Size Send".into(), "bytes".into()));
        assert_eq!(named[1], ("Socket Size Recv".into(), "bytes".into()));
        assert_eq!(named[2], ("Request Size".into(), "bytes".into()));
        assert_eq!(named[5], ("Trans. Rate".into(), "per sec".into()));
        assert_eq!(named[6], ("CPU local".into(), "% I".into()));
        assert_eq!(named[9], ("S.dem remote".into(), "us/Tr".into()));
        assert_eq!(metric_name(&named[5].0), "transaction rate");
        assert_eq!(canonical_unit(&named[5].1, &named[5].0), "trans/s");
        assert_eq!(param_key(&named[3].0), "resp_size");
    }

    #[test]
    fn a_unit_in_brackets_is_the_column_s_unit() {
        let h = heads(&["Maximum", "Segment", "Size (bytes)"], " 65483");
        assert_eq!(
            name_and_unit(&h[0]),
            ("Maximum Segment Size".into(), "bytes".into())
        );
    }
}
