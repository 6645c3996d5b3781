//! `cryptsetup benchmark`: the cipher table (`#     Algorithm |       Key |
//! Encryption |      Decryption` over rows like `aes-xts   512b   3086.5
//! MiB/s   3083.5 MiB/s`), the PBKDF2 lines (`PBKDF2-sha256  2092966
//! iterations per second for 256-bit key`) and the Argon2 lines
//! (`argon2id  7 iterations, 1048576 memory, 4 parallel threads (CPUs) for
//! 256-bit key (requested 2000 ms time)`).
//!
//! Benchmark `cryptsetup <cipher>` with parameter `key` (bits) for the
//! table, metrics `encryption` and `decryption` in MiB/s; `cryptsetup
//! pbkdf2` with parameters `hash` and `key`, metric `iterations per
//! second`; `cryptsetup <argon2 variant>` with parameters `threads`, `key`
//! and `requested time` (ms), metrics `iterations` and `memory` (KiB): the
//! costs the benchmark found to fill the requested time. Versions before
//! 2.0 print `MB/s`, but compute it in units of 2^20 bytes as later ones
//! do, so both read as MiB/s. `N/A` cells (a cipher the kernel lacks) and
//! the "not available" messages are accounted as skipped. Text after a
//! row's last cell (`<---accelerated by CAAM`) is a note, not a cell.
//!
//! Pasted output is often commented out line by line (`# PBKDF2-sha1 …`,
//! `# #  Algorithm | …`); such a line is read without its `# `. A comment
//! line right above a table's header (`# N36L`, `# i7-6920HQ`) names the
//! machine, and becomes the variant of that table's rows.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(
    HEADER,
    r"^#\s+Algorithm\s+\|\s+Key\s+\|\s+Encryption\s+\|\s+Decryption$"
);
lazy_re!(
    CIPHER,
    r"^([a-z0-9]+(?:-[a-z0-9]+)+)\s+(\d+)b\s+(?:([\d.]+) (MiB/s|MB/s)|N/A)\s+(?:([\d.]+) (?:MiB/s|MB/s)|N/A)(?:\s+\S.*)?$"
);
lazy_re!(
    PBKDF2,
    r"^PBKDF2-(\w+)\s+(\d+) iterations per second(?: for (\d+)-bit key)?$"
);
lazy_re!(
    ARGON2,
    r"^(argon2id?)\s+(\d+) iterations, (\d+) memory, (\d+) parallel threads \(CPUs\)(?: for (\d+)-bit key)?(?: \(requested (\d+) ms time\))?$"
);
lazy_re!(
    UNAVAILABLE,
    r"is not available\.$|^Required kernel crypto interface not available\.$|^Ensure you have algif_skcipher kernel module loaded\.$"
);

/// The line as cryptsetup wrote it, when it is one of its lines: as it
/// stands, or without one leading `# ` of a commented-out paste.
fn result_text(t: &str) -> Option<&str> {
    let ours = |t: &str| {
        HEADER.is_match(t)
            || CIPHER.is_match(t)
            || PBKDF2.is_match(t)
            || ARGON2.is_match(t)
            || UNAVAILABLE.is_match(t)
            || t.starts_with("# Tests are approximate")
    };
    if ours(t) {
        return Some(t);
    }
    t.strip_prefix('#').map(str::trim_start).filter(|t| ours(t))
}

/// The `cryptsetup benchmark` importer.
pub struct Cryptsetup;

impl Format for Cryptsetup {
    fn name(&self) -> &'static str {
        "cryptsetup"
    }

    fn description(&self) -> &'static str {
        "cryptsetup benchmark: the cipher table (encryption/decryption MiB/s), PBKDF2 iterations per second, Argon2 costs"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let signs = src
            .lines
            .iter()
            .filter_map(|l| result_text(l.text.trim()))
            .filter(|t| HEADER.is_match(t) || PBKDF2.is_match(t) || ARGON2.is_match(t))
            .take(2)
            .count();
        match signs {
            0 => 0,
            1 => 70,
            _ => 95,
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        let mut in_table = false;
        let (mut heading, mut variant): (Option<(u32, String)>, Option<String>) = (None, None);
        for l in &src.lines {
            let n = l.number;
            let Some(t) = result_text(l.text.trim()) else {
                if let Some(name) = l.text.trim().strip_prefix('#').map(str::trim) {
                    if !name.is_empty() {
                        heading = Some((n, name.to_string()));
                    }
                } else if !l.text.trim().is_empty() {
                    heading = None;
                }
                continue;
            };
            let row = |bench: &str, params: &Params, metric: &str, unit: &str, v: f64| {
                let o = Row::at(src, n)
                    .benchmark(bench)
                    .params(&params.render())
                    .metric(metric)
                    .unit(unit)
                    .sample(v);
                match &variant {
                    Some(name) => o.with_variant(name.as_str()),
                    None => o,
                }
            };
            if HEADER.is_match(t) {
                in_table = true;
                consumed.push(n);
                if let Some((line, name)) = heading.take() {
                    consumed.push(line);
                    variant = Some(name);
                }
            } else if let Some(c) = CIPHER.captures(t).filter(|_| in_table) {
                let mut params = Params::default();
                params.set("key", format!("{}b", &c[2]));
                let bench = format!("cryptsetup {}", &c[1]);
                let mut read_any = false;
                for (metric, cell) in [("encryption", c.get(3)), ("decryption", c.get(5))] {
                    if let Some(cell) = cell {
                        let v = num(src, n, cell.as_str(), metric)?;
                        out.push(row(&bench, &params, metric, "MiB/s", v));
                        read_any = true;
                    }
                }
                if !read_any {
                    skipped.push((n, format!("{} is N/A: the kernel lacks it", &c[1])));
                } else if c.get(3).is_none() || c.get(5).is_none() {
                    consumed.push(n);
                }
            } else if let Some(c) = PBKDF2.captures(t) {
                let mut params = Params::default();
                params.set("hash", &c[1]);
                if let Some(bits) = c.get(3) {
                    params.set("key", format!("{}b", bits.as_str()));
                }
                let v = num(src, n, &c[2], "iterations per second")?;
                out.push(row(
                    "cryptsetup pbkdf2",
                    &params,
                    "iterations per second",
                    "iterations/s",
                    v,
                ));
            } else if let Some(c) = ARGON2.captures(t) {
                let mut params = Params::default();
                params.set("threads", &c[4]);
                if let Some(bits) = c.get(5) {
                    params.set("key", format!("{}b", bits.as_str()));
                }
                if let Some(ms) = c.get(6) {
                    params.set("requested time", format!("{} ms", ms.as_str()));
                }
                let bench = format!("cryptsetup {}", &c[1]);
                let iterations = num(src, n, &c[2], "iterations")?;
                out.push(row(&bench, &params, "iterations", "", iterations));
                let memory = num(src, n, &c[3], "memory")?;
                out.push(row(&bench, &params, "memory", "KiB", memory));
            } else if UNAVAILABLE.is_match(t) {
                skipped.push((n, "cryptsetup could not run this cipher here".into()));
            } else if CIPHER.is_match(t) {
                skipped.push((n, "a cipher row with no table header above it".into()));
            } else {
                consumed.push(n);
            }
            heading = None;
        }
        Parsed::found(
            src,
            out,
            consumed,
            skipped,
            "no cryptsetup benchmark result (cipher table row, PBKDF2 or Argon2 line)",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::testing::{row, rows_of};

    #[test]
    fn cipher_rows_need_the_header_and_read_both_directions() {
        let rows = rows_of(
            &Cryptsetup,
            "bench.txt",
            "#     Algorithm |       Key |      Encryption |      Decryption\n\
             \x20       aes-xts        512b      3086.5 MiB/s      3083.5 MiB/s\n\
             \x20   serpent-cbc        128b        N/A       820.8 MiB/s\n\
             \x20   twofish-cbc        128b        N/A        N/A\n",
        );
        assert_eq!(
            rows,
            [
                row(
                    "cryptsetup aes-xts",
                    "key=512b",
                    "encryption",
                    "MiB/s",
                    3086.5
                ),
                row(
                    "cryptsetup aes-xts",
                    "key=512b",
                    "decryption",
                    "MiB/s",
                    3083.5
                ),
                row(
                    "cryptsetup serpent-cbc",
                    "key=128b",
                    "decryption",
                    "MiB/s",
                    820.8
                ),
            ]
        );
        let without_header = rows_of(
            &Cryptsetup,
            "bench.txt",
            "PBKDF2-sha1 1 iterations per second\n  aes-xts  512b  3086.5 MiB/s  3083.5 MiB/s\n",
        );
        assert_eq!(without_header.len(), 1);
    }

    #[test]
    fn kdf_lines_carry_their_settings() {
        let rows = rows_of(
            &Cryptsetup,
            "bench.txt",
            "PBKDF2-sha256    2092966 iterations per second for 256-bit key\n\
             argon2id      7 iterations, 1048576 memory, 4 parallel threads (CPUs) for 256-bit key (requested 2000 ms time)\n",
        );
        let pbkdf = ("cryptsetup pbkdf2", "hash=sha256,key=256b");
        assert_eq!((rows[0].0.as_str(), rows[0].1.as_str()), pbkdf);
        assert_eq!((rows[0].3.as_str(), rows[0].4), ("iterations/s", 2092966.0));
        assert_eq!(rows[1].0, "cryptsetup argon2id");
        assert_eq!(rows[1].1, "key=256b,requested time=2000 ms,threads=4");
        assert_eq!((rows[1].2.as_str(), rows[1].4), ("iterations", 7.0));
        assert_eq!((rows[2].2.as_str(), rows[2].3.as_str()), ("memory", "KiB"));
    }
}
