//! siege's closing report: `Label: value [unit]` lines from
//! `Transactions:` to `Shortest transaction:`, under the banner that
//! states the users (`** Preparing 2 concurrent users for battle.`),
//! which gives the parameter `users`. A file of several runs gives each
//! its own samples.

use super::FIGURES;
use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, lines_containing, num, Params};
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(FIGURE, r"^([A-Z][a-z ]+):\s*(-?[\d.]+)(?:\s+(\S+))?\s*$");
lazy_re!(USERS, r"^\*\* Preparing (\d+) concurrent users? for battle");

/// The siege report importer.
pub struct SiegeText;

impl Format for SiegeText {
    fn name(&self) -> &'static str {
        "siege"
    }

    fn description(&self) -> &'static str {
        "siege's report (`Transactions: 1660 hits`, `Availability: 100.00 %`, `Transaction rate: \
         517.13 trans/sec`, …)"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let hits = lines_containing(src, "Transactions:")
            .any(|l| l.trim_start().starts_with("Transactions:") && l.trim_end().ends_with("hits"));
        if hits && lines_containing(src, "Availability:").next().is_some() {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed) = (Vec::new(), Vec::new());
        let mut params = Params::default();
        for l in &src.lines {
            let (n, t) = (l.number, l.text.trim());
            if let Some(c) = USERS.captures(t) {
                params.set("users", &c[1]);
                consumed.push(n);
                continue;
            }
            if t.starts_with("** SIEGE") || t.contains("server siege") || t.contains("under siege")
            {
                consumed.push(n);
                continue;
            }
            let Some(c) = FIGURE.captures(t) else {
                continue;
            };
            let Some((_, _, metric, unit)) = FIGURES.iter().find(|f| f.0 == &c[1]) else {
                continue;
            };
            let v = num(src, n, &c[2], &c[1])?;
            out.push(super::figure(src, n, &params, metric, unit, v));
        }
        Parsed::found(src, out, consumed, Vec::new(), "no siege report line")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parse_file;
    use crate::ingest::row_lines as rows;

    #[test]
    fn each_report_is_a_run_with_its_users() {
        let p = parse_file(&SiegeText, "tests/data/harness/siege/two-runs-c2-c4.txt");
        let r = rows(&p);
        assert_eq!(r.len(), 24);
        assert_eq!(r[0], "6 siege|users=2|transactions|hits=1660");
        assert_eq!(r[1], "7 siege|users=2|availability|%=100");
        assert_eq!(r[5], "11 siege|users=2|transaction rate|trans/s=517.13");
        assert_eq!(r[12 + 10], "35 siege|users=4|longest transaction|s=0.16");
    }
}
