//! `openssl speed`: the cipher and digest table (`type  16 bytes  64 bytes
//! …` over `aes-128-cbc  945896.84k …`, thousands of bytes per second), the
//! public-key tables (`sign  verify  sign/s  verify/s` over `rsa 2048 bits
//! 0.000421s 0.000026s 2376.2 39078.0`, `op  op/s` for key exchange), and
//! `-mr`'s machine-readable `+H:` / `+F:` … `+F6:` lines; `-multi`'s total
//! is the table (or `+F` line) after the children's `Got:` lines.
//!
//! Benchmark `openssl speed` and the algorithm (`aes-128-cbc`, `rsa 2048
//! bits`, `ecdsa 256 bits`: the curve a text table names in brackets is
//! left out, as `-mr` does not print it); parameter `block` (bytes) for
//! ciphers and digests; metrics `throughput` (kB/s, as the table prints
//! it), `sign/s`, `verify/s` and `op/s`, each a `sample`. The progress
//! lines (`Doing … for 3s on 16 size blocks`), `-mr`'s per-run counts and
//! the children's shares are left out with the reason; a table wrapped by
//! a mailer is joined back.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, lines_containing, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(TYPE_HEADER, r"^type\s+\d+");
lazy_re!(SIGN_HEADER, r"^sign\s+verify\s+sign/s\s+verify/s$");
lazy_re!(OP_HEADER, r"^op\s+op/s$");
// A public-key row: `rsa 2048 bits …` or ` 256 bits ecdsa (nistp256) …`.
lazy_re!(
    KEY_ROW,
    r"^(?:(\w+) (\d+) bits|(\d+) bits (\w+)(?: \([^)]*\))?)\s+((?:[\d.]+s\s+)+)([\d.]+)(?:\s+([\d.]+))?$"
);
lazy_re!(MR_F, r"^\+F(\d*):(.*)$");
lazy_re!(
    CONTEXT,
    r"^(?:version:|built on:|options:|compiler:|CPUINFO:|The 'numbers' are in|Forked child|OpenSSL \d)"
);

/// The `openssl speed` importer.
pub struct OpensslSpeed;

/// Whether `w` is a cell of the cipher table: a number of thousands
/// (`945896.84k`).
fn is_k_cell(w: &str) -> bool {
    w.strip_suffix('k')
        .is_some_and(|d| d.parse::<f64>().is_ok())
}

/// The algorithm `-mr`'s `+F<k>` line reports on.
fn mr_algorithm(k: &str) -> Option<(&'static str, bool)> {
    // (name, whether the line holds sign and verify rates)
    Some(match k {
        "2" => ("rsa", true),
        "3" => ("dsa", true),
        "4" => ("ecdsa", true),
        "5" => ("ecdh", false),
        "6" => ("eddsa", true),
        "7" => ("sm2", true),
        "8" => ("ffdh", false),
        _ => return None,
    })
}

/// A public-key algorithm as the text table and `-mr` both can name it.
fn key_bench(alg: &str, bits: &str) -> String {
    format!("openssl speed {} {bits} bits", alg.to_ascii_lowercase())
}

impl Format for OpensslSpeed {
    fn name(&self) -> &'static str {
        "openssl-speed"
    }

    fn description(&self) -> &'static str {
        "openssl speed: the `type 16 bytes …` cipher/digest table (k = 1000 bytes/s), the sign/verify and op/s tables, and -mr `+H`/`+F` lines"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let tables = src.lines.iter().any(|l| {
            let t = l.text.trim();
            TYPE_HEADER.is_match(t) && t.contains("bytes")
                || SIGN_HEADER.is_match(t)
                || OP_HEADER.is_match(t)
        });
        let mr = lines_containing(src, "+H:").next().is_some()
            || lines_containing(src, "+F").any(|l| MR_F.is_match(l.trim()));
        if tables || mr {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let mut blocks: Vec<String> = Vec::new();
        // Which table the rows below belong to.
        #[derive(PartialEq)]
        enum In {
            None,
            Ciphers,
            Keys,
        }
        let mut table = In::None;
        let lines = &src.lines;
        let mut i = 0;
        while i < lines.len() {
            let (n, mut t) = (lines[i].number, lines[i].text.trim().to_string());
            i += 1;
            if t.is_empty() {
                continue;
            }
            // A mailer's wrap: a header or row short of its cells goes on
            // on the next line.
            let short = |t: &str| {
                if TYPE_HEADER.is_match(t) {
                    !t.ends_with("bytes")
                } else {
                    table == In::Ciphers
                        && !blocks.is_empty()
                        && t.split_whitespace().filter(|w| is_k_cell(w)).count() < blocks.len()
                        && t.split_whitespace().any(is_k_cell)
                }
            };
            while short(&t) && i < lines.len() && !lines[i].text.trim().is_empty() {
                t = format!("{t} {}", lines[i].text.trim());
                consumed.push(lines[i].number);
                i += 1;
            }
            let row = |bench: &str, p: &Params, metric: &str, unit: &str, v: f64| {
                Row::at(src, n)
                    .benchmark(bench)
                    .params(&p.render())
                    .metric(metric)
                    .unit(unit)
                    .sample(v)
            };
            if TYPE_HEADER.is_match(&t) {
                blocks = t
                    .split_whitespace()
                    .filter(|w| w.bytes().all(|b| b.is_ascii_digit()))
                    .map(str::to_string)
                    .collect();
                table = In::Ciphers;
                consumed.push(n);
            } else if SIGN_HEADER.is_match(&t) || OP_HEADER.is_match(&t) {
                table = In::Keys;
                consumed.push(n);
            } else if let Some(c) = KEY_ROW.captures(&t).filter(|_| table == In::Keys) {
                let (alg, bits) = match (c.get(1), c.get(2)) {
                    (Some(a), Some(b)) => (a.as_str(), b.as_str()),
                    _ => (
                        c.get(4).map_or("", |m| m.as_str()),
                        c.get(3).map_or("", |m| m.as_str()),
                    ),
                };
                let bench = key_bench(alg, bits);
                let p = Params::default();
                let first = num(src, n, &c[6], "rate")?;
                match c.get(7) {
                    Some(verify) => {
                        out.push(row(&bench, &p, "sign/s", "ops/s", first));
                        out.push(row(
                            &bench,
                            &p,
                            "verify/s",
                            "ops/s",
                            num(src, n, verify.as_str(), "verify/s")?,
                        ));
                    }
                    None => out.push(row(&bench, &p, "op/s", "ops/s", first)),
                }
            } else if let Some(rest) = t.strip_prefix("+H:") {
                blocks = rest.split(':').map(str::to_string).collect();
                consumed.push(n);
            } else if let Some(c) = MR_F.captures(&t) {
                let fields: Vec<&str> = c[2].split(':').collect();
                if c[1].is_empty() {
                    // +F:index:name:bytes/s per block size.
                    let Some(name) = fields.get(1) else { continue };
                    let bench = format!("openssl speed {}", name.to_ascii_lowercase());
                    for (b, v) in blocks.iter().zip(&fields[2.min(fields.len())..]) {
                        let mut p = Params::default();
                        p.set("block", b);
                        // Thousands, as the table prints them: the decimal
                        // point moved, not a division that rounds twice.
                        let v = num(src, n, &format!("{v}e-3"), "throughput")?;
                        out.push(row(&bench, &p, "throughput", "kB/s", v));
                    }
                } else if let (Some((alg, pair)), Some(bits)) = (mr_algorithm(&c[1]), fields.get(1))
                {
                    let bench = key_bench(alg, bits);
                    let p = Params::default();
                    let rate = |k: usize| fields.get(k).map(|v| num(src, n, v, "rate")).transpose();
                    if pair {
                        if let (Some(s), Some(v)) = (rate(2)?, rate(3)?) {
                            out.push(row(&bench, &p, "sign/s", "ops/s", s));
                            out.push(row(&bench, &p, "verify/s", "ops/s", v));
                        }
                    } else if let Some(op) = rate(2)? {
                        out.push(row(&bench, &p, "op/s", "ops/s", op));
                    }
                }
            } else if table == In::Ciphers && t.split_whitespace().any(is_k_cell) {
                let words: Vec<&str> = t.split_whitespace().collect();
                let k = blocks.len().min(words.len());
                let (name, cells) = words.split_at(words.len() - k);
                let bench = format!("openssl speed {}", name.join(" ").to_ascii_lowercase());
                for (b, cell) in blocks.iter().zip(cells) {
                    let mut p = Params::default();
                    p.set("block", b);
                    let v = num(src, n, cell.trim_end_matches('k'), "throughput")?;
                    out.push(row(&bench, &p, "throughput", "kB/s", v));
                }
            } else if t.starts_with("Doing ") {
                skipped.push((n, "a progress line; the table sums it up".into()));
            } else if let Some(got) = t.strip_prefix("Got: ") {
                // The children's block sizes head the total after them.
                if let Some(rest) = got.strip_prefix("+H:") {
                    let rest = rest.split_whitespace().next().unwrap_or("");
                    blocks = rest.split(':').map(str::to_string).collect();
                    table = In::Ciphers;
                }
                skipped.push((n, "one child's share (-multi); the total follows".into()));
            } else if t.starts_with("+DT") || t.starts_with("+R") {
                skipped.push((
                    n,
                    "the count of one timing run (-mr); the +F line sums it up".into(),
                ));
            } else if CONTEXT.is_match(&t) {
                consumed.push(n);
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no openssl speed table or -mr `+F` line",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Benchmark, params, metric and value of each row.
    fn rows(text: &str) -> Vec<(String, String, String, f64)> {
        crate::ingest::testing::rows_of(&OpensslSpeed, "speed.txt", text)
            .into_iter()
            .map(|(b, p, m, _, v)| (b, p, m, v))
            .collect()
    }

    #[test]
    fn a_wrapped_cipher_table_and_key_tables() {
        let r = rows(
            "type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 \n\
             bytes  16384 bytes\n\
             aes-128-cbc        135.82k      539.29k     2087.90k     7491.16k \n\
             29221.69k    34943.67k\n\
             \n\
             \x20                 sign    verify    sign/s verify/s\n\
             rsa 2048 bits 0.000421s 0.000026s   2376.2  39078.0\n\
             \x20256 bits ecdsa (nistp256)   0.0000s   0.0001s  37877.3  12904.5\n",
        );
        assert_eq!(r.len(), 10);
        assert_eq!(
            r[0],
            (
                "openssl speed aes-128-cbc".into(),
                "block=16".into(),
                "throughput".into(),
                135.82
            )
        );
        assert_eq!(
            r[5],
            (
                "openssl speed aes-128-cbc".into(),
                "block=16384".into(),
                "throughput".into(),
                34943.67
            )
        );
        assert_eq!(
            r[6],
            (
                "openssl speed rsa 2048 bits".into(),
                "".into(),
                "sign/s".into(),
                2376.2
            )
        );
        assert_eq!(
            r[9],
            (
                "openssl speed ecdsa 256 bits".into(),
                "".into(),
                "verify/s".into(),
                12904.5
            )
        );
    }

    #[test]
    fn machine_readable_lines_name_what_the_text_names() {
        let r = rows(
            "+DT:AES-128-GCM:1:16\n+R:1190196:AES-128-GCM:0.700000\n+H:16:64\n\
             +F:25:AES-128-GCM:39070877.61:164098560.00\n+F2:2:2048:3493.333333:59127.142857\n",
        );
        assert_eq!(
            r[0],
            (
                "openssl speed aes-128-gcm".into(),
                "block=16".into(),
                "throughput".into(),
                39070.87761
            )
        );
        assert_eq!(
            r[2],
            (
                "openssl speed rsa 2048 bits".into(),
                "".into(),
                "sign/s".into(),
                3493.333333
            )
        );
    }
}
