//! netperf's banner line, `MIGRATED TCP STREAM TEST from 0.0.0.0 (0.0.0.0)
//! port 0 AF_INET to host (ip) port 0 AF_INET : demo`, which opens the
//! output of one test.

use crate::ingest::shared::logscan::lazy_re;

lazy_re!(
    BANNER,
    r"^(?:MIGRATED )?([A-Za-z][A-Za-z0-9/ -]*?) TEST from \S+ \(.*?\) port \d+ \S+ to(?: (\S+))?(?:.*?AF_INET6?)?(.*)$"
);

/// One test's banner.
#[derive(Debug, Clone, PartialEq)]
pub struct Banner {
    /// The test as `-t` names it (`TCP_STREAM`, `TCP_RR`, `omni`).
    pub test: String,
    /// The remote host, when the banner names one.
    pub host: Option<String>,
}

/// The banner on `line`, if it is one.
pub fn parse(line: &str) -> Option<Banner> {
    let c = BANNER.captures(line.trim_end())?;
    Some(Banner {
        test: test_name(&c[1]),
        host: c.get(2).map(|h| h.as_str().to_string()),
    })
}

/// Whether `text` holds a banner (for detection).
pub fn is_banner(line: &str) -> bool {
    line.contains(" TEST from ") && BANNER.is_match(line.trim_end())
}

/// The `-t` name of the test a banner describes in words.
fn test_name(words: &str) -> String {
    let w = words.trim().to_ascii_uppercase();
    let known = [
        ("TCP STREAM", "TCP_STREAM"),
        ("TCP MAERTS", "TCP_MAERTS"),
        ("TCP SENDFILE", "TCP_SENDFILE"),
        ("TCP REQUEST/RESPONSE", "TCP_RR"),
        ("TCP CONNECT/REQUEST/RESPONSE", "TCP_CRR"),
        ("TCP TRANSACTION/RESPONSE", "TCP_TRR"),
        ("UDP UNIDIRECTIONAL SEND", "UDP_STREAM"),
        ("UDP REQUEST/RESPONSE", "UDP_RR"),
        // The SCTP tests' banners: `1-TO-MANY` is the `_MANY` variant.
        ("SCTP STREAM", "SCTP_STREAM"),
        ("SCTP 1-TO-MANY STREAM", "SCTP_STREAM_MANY"),
        ("SCTP REQUEST/RESPONSE", "SCTP_RR"),
        ("SCTP 1-TO-MANY REQUEST/RESPONSE", "SCTP_RR_MANY"),
        ("OMNI", "omni"),
        ("OMNI SEND", "omni"),
    ];
    known
        .iter()
        .find(|(words, _)| *words == w)
        .map_or_else(|| w.replace([' ', '/', '-'], "_"), |(_, t)| t.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn banners_name_the_test_and_host() {
        let b = parse("MIGRATED TCP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to localhost.localdomain (127.0.0.1) port 0 AF_INET : demo").unwrap();
        assert_eq!(b.test, "TCP_STREAM");
        assert_eq!(b.host.as_deref(), Some("localhost.localdomain"));
        let b = parse("TCP Connect/Request/Response TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 10.0.0.10 () port 0 AF_INET : histogram").unwrap();
        assert_eq!(b.test, "TCP_CRR");
        let b = parse("UDP UNIDIRECTIONAL SEND TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 192.168.2.125 (192.168.2.125) port 0 AF_INET").unwrap();
        assert_eq!(b.test, "UDP_STREAM");
        // A hyphen in the test's words (LKP's SCTP_STREAM_MANY runs).
        let b = parse("SCTP 1-TO-MANY STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 127.0.0.1 () port 0 AF_INET : demo").unwrap();
        assert_eq!(b.test, "SCTP_STREAM_MANY");
        assert_eq!(b.host.as_deref(), Some("127.0.0.1"));
        assert!(parse("TCP STREAM results were good").is_none());
    }
}
