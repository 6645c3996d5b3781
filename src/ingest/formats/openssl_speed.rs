//! `openssl speed`: the cipher and digest table (`type  16 bytes  64 bytes
//! …` over `aes-128-cbc  945896.84k …`, thousands of bytes per second), the
//! public-key tables, and `-mr`'s machine-readable `+H:` / `+F:` … `+F8:`
//! lines; `-multi`'s total is the table (or `+F` line) after the children's
//! `Got:` lines.
//!
//! A public-key table is a header naming the seconds per operation, then
//! the operations per second (`sign  verify  sign/s  verify/s`; `op  op/s`
//! for key exchange; OpenSSL 3.2+ adds `encrypt  decrypt … encr./s
//! decr./s` to RSA's), over rows of the algorithm, the seconds (`0.000027s`)
//! and the rates. OpenSSL 3.4+ adds two tables of its own, the KEM one
//! (`keygen  encaps  decaps  keygens/s  encaps/s  decaps/s`) and the
//! signature one (`keygen  signs  verify  keygens/s  sign/s  verify/s`),
//! whose rows name the algorithm in one word (`rsa4096`, `ML-KEM-768`).
//! The header says which column is which, so each table is read by its
//! header. Only the rates are read: the seconds are their inverse, printed
//! to 4 or 6 decimals (`0.0000s` for a fast ECDSA sign), the same
//! measurement at less precision.
//!
//! Benchmark `openssl speed` and the algorithm (`aes-128-cbc`, `rsa 2048
//! bits`, `ecdsa 256 bits`: the curve a text table names in brackets is
//! left out, as `-mr` does not print it), with `kem` or `signature` after
//! the algorithm for the rows of those tables (the KEM and signature APIs
//! time other operations than RSA's own table does: an `rsa4096` keygen
//! of each must not be taken for two runs of one); parameter `block`
//! (bytes) for ciphers and digests; metrics `throughput` (kB/s, as the
//! table prints it), and the rates as the header names them (`sign/s`,
//! `verify/s`, `op/s`, `encaps/s`, `decaps/s`; `encr./s`, `decr./s` and
//! `keygens/s` spelled `encrypt/s`, `decrypt/s` and `keygen/s`), each a
//! `sample` in ops/s. The progress lines (`Doing … for 3s on 16 size
//! blocks`), `-mr`'s per-run counts, its KEM and signature lines (`+F9`,
//! `+F10`: the algorithm only an index into the build's list) and the
//! children's shares are left out with the reason; a table wrapped by a
//! mailer is joined back.

use crate::error::Result;
use crate::ingest::shared::lkp_wrapper;
use crate::ingest::shared::logscan::{lazy_re, lines_containing, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(TYPE_HEADER, r"^type\s+\d+");
// A public-key table's header: the operations timed, then their rates.
lazy_re!(KEY_HEADER, r"^(?:[a-z]+\s+)+(?:[a-z]+\.?/s\s*)+$");
// The name of a public-key row: `rsa 2048 bits` or `256 bits ecdsa
// (nistp256)`.
lazy_re!(
    KEY_NAME,
    r"^(?:(\w+)\s+(\d+) bits|(\d+) bits (\w+)(?: \([^)]*\))?)$"
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

/// The algorithm `-mr`'s `+F<k>` line reports on, the field its rates
/// start at (after the index and bits, and the curve's name of EdDSA and
/// SM2: `+F6:0:253:Ed25519:23065.6:8454.5`) and what they are, as the text
/// table's header names them (RSA's encrypt and decrypt from 3.2 on).
fn mr_algorithm(k: &str) -> Option<(&'static str, usize, &'static [&'static str])> {
    const PAIR: &[&str] = &["sign/s", "verify/s"];
    const OP: &[&str] = &["op/s"];
    Some(match k {
        "2" => ("rsa", 2, &["sign/s", "verify/s", "encrypt/s", "decrypt/s"]),
        "3" => ("dsa", 2, PAIR),
        "4" => ("ecdsa", 2, PAIR),
        "5" => ("ecdh", 2, OP),
        "6" => ("eddsa", 3, PAIR),
        "7" => ("sm2", 3, PAIR),
        "8" => ("ffdh", 2, OP),
        _ => return None,
    })
}

/// A public-key table: the rates its header names, in order, and what
/// follows the algorithm in a benchmark's name (`kem`, `signature`, or
/// nothing for the tables of one algorithm family).
struct KeyTable {
    rates: Vec<String>,
    times: usize,
    api: &'static str,
}

/// The public-key table `t` heads, or `None` when it is no such header.
fn key_table(t: &str) -> Option<KeyTable> {
    if !KEY_HEADER.is_match(t) {
        return None;
    }
    let words: Vec<&str> = t.split_whitespace().collect();
    let times = words.iter().take_while(|w| !w.ends_with("/s")).count();
    let rates: Vec<String> = words[times..]
        .iter()
        .map(|w| match *w {
            "encr./s" => "encrypt/s".to_string(),
            "decr./s" => "decrypt/s".to_string(),
            "keygens/s" => "keygen/s".to_string(),
            w => w.to_string(),
        })
        .collect();
    if times != rates.len() {
        return None;
    }
    let api = if words.contains(&"encaps") {
        "kem"
    } else if words.contains(&"keygen") {
        "signature"
    } else {
        ""
    };
    Some(KeyTable { rates, times, api })
}

/// The benchmark and rates of a row of `table`: the algorithm's words,
/// `table.times` cells of seconds (`0.000027s`), then one rate per column.
fn key_row<'t>(table: &KeyTable, t: &'t str) -> Option<(String, Vec<&'t str>)> {
    let words: Vec<&str> = t.split_whitespace().collect();
    let cells = table.times + table.rates.len();
    if words.len() <= cells {
        return None;
    }
    let (name, values) = words.split_at(words.len() - cells);
    let (times, rates) = values.split_at(table.times);
    let seconds = |w: &&str| {
        w.strip_suffix('s')
            .is_some_and(|v| v.parse::<f64>().is_ok())
    };
    let rate = |w: &&str| w.parse::<f64>().is_ok();
    if !times.iter().all(seconds) || !rates.iter().all(rate) {
        return None;
    }
    let name = name.join(" ");
    let bench = match KEY_NAME.captures(&name) {
        Some(c) => match (c.get(1), c.get(2), c.get(3), c.get(4)) {
            (Some(alg), Some(bits), ..) | (.., Some(bits), Some(alg)) => {
                key_bench(alg.as_str(), bits.as_str())
            }
            _ => return None,
        },
        None => format!("openssl speed {}", name.to_ascii_lowercase()),
    };
    let bench = if table.api.is_empty() {
        bench
    } else {
        format!("{bench} {}", table.api)
    };
    Some((bench, rates.to_vec()))
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
            TYPE_HEADER.is_match(t) && t.contains("bytes") || key_table(t).is_some()
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
        enum In {
            None,
            Ciphers,
            Keys(KeyTable),
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
                    matches!(table, In::Ciphers)
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
            } else if let Some(keys) = key_table(&t) {
                table = In::Keys(keys);
                consumed.push(n);
            } else if let Some((keys, (bench, rates))) = match &table {
                In::Keys(keys) => key_row(keys, &t).map(|r| (keys, r)),
                _ => None,
            } {
                let p = Params::default();
                for (metric, v) in keys.rates.iter().zip(rates) {
                    out.push(row(&bench, &p, metric, "ops/s", num(src, n, v, metric)?));
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
                } else if let (Some((alg, at, metrics)), Some(bits)) =
                    (mr_algorithm(&c[1]), fields.get(1))
                {
                    let bench = key_bench(alg, bits);
                    let p = Params::default();
                    for (metric, v) in metrics.iter().zip(fields.iter().skip(at)) {
                        out.push(row(&bench, &p, metric, "ops/s", num(src, n, v, metric)?));
                    }
                } else if c[1] == *"9" || c[1] == *"10" {
                    skipped.push((
                        n,
                        "a KEM or signature result (-mr): it names its algorithm only by an index into the build's list"
                            .into(),
                    ));
                }
            } else if matches!(table, In::Ciphers) && t.split_whitespace().any(is_k_cell) {
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
            } else if let Some(why) = lkp_wrapper::reason(&t, "openssl") {
                skipped.push((n, why.into()));
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

    #[test]
    fn openssl_4_tables_are_read_by_their_headers() {
        let p = crate::ingest::parse_file(
            &OpensslSpeed,
            "tests/data/harness/openssl-speed/lkp-03-multi-rsa4096-4.0.txt",
        );
        let r: Vec<(&str, &str, f64)> = p
            .observations
            .iter()
            .map(|o| (o.benchmark.as_str(), o.metric.as_str(), o.value))
            .collect();
        let (rsa, kem, sig) = (
            "openssl speed rsa 4096 bits",
            "openssl speed rsa4096 kem",
            "openssl speed rsa4096 signature",
        );
        assert_eq!(
            r,
            vec![
                (rsa, "sign/s", 37194.7),
                (rsa, "verify/s", 1263871.1),
                (rsa, "encrypt/s", 1249692.8),
                (rsa, "decrypt/s", 36930.9),
                (kem, "keygen/s", 173.2),
                (kem, "encaps/s", 1243835.5),
                (kem, "decaps/s", 37149.9),
                (sig, "keygen/s", 174.3),
                (sig, "sign/s", 37077.0),
                (sig, "verify/s", 1269275.4)
            ]
        );
        assert!(p.observations.iter().all(|o| o.unit == "ops/s"));
        // LKP's command line and the child's share are left out.
        let left: Vec<u32> = p.skipped.iter().map(|(n, _)| *n).collect();
        assert_eq!(left, vec![2, 5]);
    }

    #[test]
    fn machine_readable_rsa_encrypt_and_named_curves() {
        // 3.2+'s +F2 adds encrypt and decrypt; +F6 names its curve before
        // the rates.
        let r = rows(
            "+F2:4:4096:145.433333:4963.200000:4908.133333:144.851716\n\
             +F6:0:253:Ed25519:23065.6:8454.5\n+F9:0:173.2:1243835.5:37149.9\n",
        );
        let v: Vec<(&str, &str, f64)> = r
            .iter()
            .map(|(b, _, m, v)| (b.as_str(), m.as_str(), *v))
            .collect();
        assert_eq!(
            v,
            vec![
                ("openssl speed rsa 4096 bits", "sign/s", 145.433333),
                ("openssl speed rsa 4096 bits", "verify/s", 4963.2),
                ("openssl speed rsa 4096 bits", "encrypt/s", 4908.133333),
                ("openssl speed rsa 4096 bits", "decrypt/s", 144.851716),
                ("openssl speed eddsa 253 bits", "sign/s", 23065.6),
                ("openssl speed eddsa 253 bits", "verify/s", 8454.5)
            ]
        );
    }
}
