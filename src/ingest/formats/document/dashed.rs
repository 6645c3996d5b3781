//! Values joined by dashes after a key whose legend names them by the
//! same joining: a legend line `bw: min-avg-max bandwidth values` above
//! runs of `slat: 63, clat: 107, bw: 1177-1367-1397, c6%: 11.9`. The pair
//! reader knows one value per key, and a value glued to more by dashes
//! made it give up the whole line. Such a value is written as the pairs
//! it stands for (`bw min = 1177, bw avg = 1367, bw max = 1397`). Without
//! a legend of as many names, dashes stay (a range `10-20`, a date
//! `2024-10-18`).

use super::rewrite;
use crate::ingest::shared::pattern::lazy_re;
use crate::ingest::Source;
use std::borrow::Cow;
use std::collections::HashMap;

lazy_re!(
    LEGEND,
    r"^\s*(?P<key>[A-Za-z_][\w%]*)\s*:\s*(?P<names>[A-Za-z]+(?:-[A-Za-z]+)+)\b"
);

lazy_re!(
    DASHED,
    r"(?P<key>\b[A-Za-z_][\w%]*)\s*:\s*(?P<values>\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)+)\b"
);

/// The legends of `src`: each key's names, in order.
fn legends(src: &Source) -> HashMap<String, Vec<String>> {
    src.lines
        .iter()
        .filter_map(|l| LEGEND.captures(&l.text))
        .map(|c| {
            (
                c["key"].to_string(),
                c["names"].split('-').map(str::to_string).collect(),
            )
        })
        .collect()
}

/// `text` with each dashed value of a key with a legend written as pairs.
fn expand_line(text: &str, legends: &HashMap<String, Vec<String>>) -> Option<String> {
    let mut out = String::new();
    let mut last = 0;
    for c in DASHED.captures_iter(text) {
        let key = &c["key"];
        let values: Vec<&str> = c["values"].split('-').collect();
        let Some(names) = legends.get(key).filter(|n| n.len() == values.len()) else {
            continue;
        };
        let m = c.get(0).expect("match");
        out.push_str(&text[last..m.start()]);
        let pairs: Vec<String> = names
            .iter()
            .zip(&values)
            .map(|(n, v)| format!("{key} {n} = {v}"))
            .collect();
        out.push_str(&pairs.join(", "));
        last = m.end();
    }
    (last > 0).then(|| out + &text[last..])
}

/// `src`, or a copy whose dashed values named by a legend are pairs.
pub fn expand(src: &Source) -> Cow<'_, Source> {
    if !src.lines.iter().any(|l| LEGEND.is_match(&l.text)) {
        return Cow::Borrowed(src);
    }
    let legends = legends(src);
    rewrite::each_line(src, |_, l| expand_line(&l.text, &legends))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::Format;

    /// Lines of a corpus post (blk-mq CPU latency limit, fio per run).
    const RUNS: &str = "\
key:
  slat: start latency max, in us
  bw: min-avg-max bandwidth values

cpu_lat_limit_us=10 (enabled)
  slat: 63, clat: 107, lat: 115, bw: 1177-1367-1397, c6%: 11.9
  slat: 30, clat: 129, lat: 137, bw: 1196-1380-1409, c6%: 0.9
";

    #[test]
    fn dashed_values_named_by_a_legend_become_pairs() {
        let src = Source::from_text("m.txt", RUNS);
        let got = expand(&src);
        assert_eq!(
            got.lines[5].text,
            "  slat: 63, clat: 107, lat: 115, bw min = 1177, bw avg = 1367, bw max = 1397, c6%: 11.9"
        );
        let rows = crate::ingest::formats::document::Document
            .parse(&src)
            .unwrap();
        for v in [63.0, 1177.0, 1367.0, 1397.0, 11.9, 1409.0] {
            assert!(rows.iter().any(|o| o.value == v), "{v}: {rows:?}");
        }
    }

    #[test]
    fn dashes_without_a_legend_stay() {
        for text in [
            "runs: 10-20\ndate: 2024-10-18\n",
            // A legend of two names against three values.
            "bw: min-max\nbw: 1-2-3\n",
        ] {
            let src = Source::from_text("m.txt", text);
            assert!(matches!(expand(&src), Cow::Borrowed(_)), "{text}");
        }
    }
}
