//! fio's bandwidth summary as a mail quotes it: `read: IOPS=223,
//! BW=894KiB/s (915kB/s)(175MiB/200919msec)`, the bandwidth again in
//! decimal units and the amount moved over the run's time, in brackets
//! glued to the value. The pair reader stops at the brackets, and the
//! three values in them were lost. They are written as the pairs fio
//! names them in its other outputs (`BW=915kB/s, io=175MiB,
//! run=200919msec`).

use super::rewrite;
use crate::ingest::shared::pattern::lazy_re;
use crate::ingest::Source;
use std::borrow::Cow;

lazy_re!(
    GROUPS,
    r"(?P<bw>\bBW=[\d.]+[kKMGT]?i?B/s)\s*\((?P<alt>[\d.]+[kKMGT]?i?B/s)\)\((?P<io>[\d.]+[kKMGT]?i?B)/(?P<run>\d+msec)\)"
);

/// `src`, or a copy whose fio bandwidth brackets are pairs.
pub fn expand(src: &Source) -> Cow<'_, Source> {
    // One scan for `=` rules out most lines before the search.
    let has = |t: &str| {
        memchr::memchr(b'=', t.as_bytes()).is_some() && t.contains("BW=") && GROUPS.is_match(t)
    };
    rewrite::each_line(src, |_, l| {
        has(&l.text).then(|| {
            GROUPS
                .replace_all(&l.text, "$bw, BW=$alt, io=$io, run=$run")
                .into_owned()
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::Format;

    #[test]
    fn the_bracketed_bandwidth_amount_and_time_are_pairs() {
        // Lines of a corpus post (blk-throttle, fio before and after).
        let text = "blkio.throttle.read_bps_device = 1MB/s\n   before:  read: IOPS=223, BW=894KiB/s (915kB/s)(175MiB/200919msec)\n   after :  read: IOPS=239, BW=960KiB/s (983kB/s)(153MiB/163105msec)\n";
        let src = Source::from_text("m.txt", text);
        assert_eq!(
            expand(&src).lines[1].text,
            "   before:  read: IOPS=223, BW=894KiB/s, BW=915kB/s, io=175MiB, run=200919msec"
        );
        let rows = crate::ingest::formats::document::Document
            .parse(&src)
            .unwrap();
        for v in [223.0, 894.0, 915.0, 175.0, 200919.0, 163105.0] {
            assert!(rows.iter().any(|o| o.value == v), "{v}: {rows:?}");
        }
        // A bracket that is no such group stays.
        let plain = Source::from_text("m.txt", "BW=894KiB/s (see above)\n");
        assert!(matches!(expand(&plain), Cow::Borrowed(_)));
    }
}
