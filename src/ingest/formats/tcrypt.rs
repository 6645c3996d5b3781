//! The kernel's crypto speed tests (`modprobe tcrypt mode=N sec=S`), as
//! the kernel log shows them, with or without syslog and printk prefixes:
//! `tcrypt: testing speed of xts(aes) (xts-aes-aesni) encryption`, then per
//! test
//!
//! - `test 0 (256 bit key, 16 byte blocks): 1 operation in 358 cycles (16
//!   bytes)` (cycle counts, `sec=0`),
//! - `test 0 (256 bit key, 16 byte blocks): 8030565 operations in 1 seconds
//!   (128489040 bytes)` (`sec=N`),
//! - hashes: `test 0 ( 16 byte blocks, 16 bytes per update, 1 updates): 389
//!   cycles/operation, 24 cycles/byte`, or the same with `opers/sec` and
//!   `bytes/sec`.
//!
//! Benchmark `tcrypt` and the algorithm with its direction (`tcrypt
//! xts(aes) encryption`; the driver that ran it is what a patch changes,
//! so it names no benchmark); parameters `key` (bits), `block` and `update`
//! (bytes); metrics `cycles` (per operation), `cycles/byte`, `operations/s`
//! (operations over the seconds stated) and `bytes/s`, each a `sample`; a
//! test seen again is its next run.

use crate::error::Result;
use crate::ingest::shared::logscan::{lazy_re, lines_containing, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

// The algorithm; its direction closes the line, after the driver.
lazy_re!(TESTING, r"testing speed of (?:async |multibuffer )?(\S+)");
lazy_re!(DIRECTION, r" (encryption|decryption)\s*$");
lazy_re!(
    CIPHER,
    r"test\s+\d+\s+\(\s*(\d+) bit key,\s+(\d+) byte blocks\):\s+(?:(\d+) operations? in\s+(\d+) (cycles|seconds) \(\d+ bytes\)|(\d+) ops/s \(\s*\d+ bytes\))"
);
lazy_re!(
    HASH,
    r"test\s+\d+\s+\(\s*(\d+) byte blocks,\s+(\d+) bytes per update,\s+(\d+) updates\):\s+(?:(\d+) cycles/operation,\s+(\d+) cycles/byte|(\d+) opers/sec,\s+(\d+) bytes/sec|(\d+) operations? in\s+(\d+) cycles \(\d+ bytes\))"
);

/// The tcrypt importer.
pub struct Tcrypt;

impl Format for Tcrypt {
    fn name(&self) -> &'static str {
        "tcrypt"
    }

    fn description(&self) -> &'static str {
        "the kernel's tcrypt speed tests in a kernel log: `testing speed of ALG (DRIVER) encryption` and `test N (K bit key, B byte blocks): …` cycle or per-second lines, hashes' `cycles/operation, cycles/byte`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let tests = lines_containing(src, "byte blocks")
            .filter(|l| CIPHER.is_match(l) || HASH.is_match(l))
            .take(2)
            .count();
        if tests >= 2 {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let (mut out, mut consumed) = (Vec::new(), Vec::new());
        let mut bench = "tcrypt".to_string();
        for l in &src.lines {
            let (n, t) = (l.number, l.text.as_str());
            let row = |params: &Params, metric: &str, unit: &str, v: f64| {
                Row::at(src, n)
                    .benchmark(&bench)
                    .params(&params.render())
                    .metric(metric)
                    .unit(unit)
                    .sample(v)
            };
            if let Some(c) = CIPHER.captures(t) {
                let mut p = Params::default();
                p.set("key", &c[1]);
                p.set("block", &c[2]);
                // The per-second form some builds print (`3140785 ops/s
                // ( 50252560 bytes)`): the rate itself.
                if let Some(rate) = c.get(6) {
                    let ops = num(src, n, rate.as_str(), "ops/s")?;
                    let block = num(src, n, &c[2], "block")?;
                    out.push(row(&p, "operations/s", "ops/s", ops));
                    out.push(row(&p, "bytes/s", "B/s", ops * block));
                    continue;
                }
                let ops = num(src, n, &c[3], "operations")?;
                let amount = num(src, n, &c[4], "cycles")?;
                if &c[5] == "cycles" {
                    // `1 operation in 358 cycles`: the cycles of one.
                    out.push(row(&p, "cycles", "cycles", amount / ops.max(1.0)));
                } else if amount > 0.0 {
                    out.push(row(&p, "operations/s", "ops/s", ops / amount));
                    let block = num(src, n, &c[2], "block")?;
                    out.push(row(&p, "bytes/s", "B/s", ops * block / amount));
                }
            } else if let Some(c) = HASH.captures(t) {
                let mut p = Params::default();
                p.set("block", &c[1]);
                p.set("update", &c[2]);
                let g = |i: usize| c.get(i).map(|m| m.as_str());
                if let (Some(op), Some(byte)) = (g(4), g(5)) {
                    out.push(row(&p, "cycles", "cycles", num(src, n, op, "cycles")?));
                    out.push(row(
                        &p,
                        "cycles/byte",
                        "cycles/B",
                        num(src, n, byte, "cycles/byte")?,
                    ));
                } else if let (Some(ops), Some(bytes)) = (g(6), g(7)) {
                    out.push(row(
                        &p,
                        "operations/s",
                        "ops/s",
                        num(src, n, ops, "opers/sec")?,
                    ));
                    out.push(row(&p, "bytes/s", "B/s", num(src, n, bytes, "bytes/sec")?));
                } else if let (Some(ops), Some(cycles)) = (g(8), g(9)) {
                    let ops = num(src, n, ops, "operations")?;
                    out.push(row(
                        &p,
                        "cycles",
                        "cycles",
                        num(src, n, cycles, "cycles")? / ops.max(1.0),
                    ));
                }
            } else if let Some(c) = TESTING.captures(t) {
                bench = match DIRECTION.captures(t) {
                    Some(dir) => format!("tcrypt {} {}", &c[1], &dir[1]),
                    None => format!("tcrypt {}", &c[1]),
                };
                consumed.push(n);
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            Vec::new(),
            "no tcrypt `test N (… byte blocks): …` line",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Benchmark, params, metric and value of each row.
    fn rows(text: &str) -> Vec<(String, String, String, f64)> {
        crate::ingest::testing::rows_of(&Tcrypt, "dmesg.txt", text)
            .into_iter()
            .map(|(b, p, m, _, v)| (b, p, m, v))
            .collect()
    }

    #[test]
    fn cycle_and_per_second_lines_behind_log_prefixes() {
        let r = rows(
            "May 10 13:36:46 host kernel: [   59.585264][  T374] tcrypt: testing speed of multibuffer rfc7539esp(chacha20,poly1305) (rfc7539esp(chacha20-generic,poly1305-generic)) encryption\n\
             May 10 13:36:46 host kernel: [   59.586011][  T374] tcrypt: test 0 (288 bit key, 16 byte blocks): 1 operation in 1374 cycles (16 bytes)\n\
             [  1.2] tcrypt: testing speed of xts(aes) (xts-aes-aesni) decryption\n\
             [  1.3] tcrypt: test 5 (256 bit key, 4096 byte blocks): 568192 operations in 1 seconds (2327314432 bytes)\n",
        );
        assert_eq!(
            r[0],
            (
                "tcrypt rfc7539esp(chacha20,poly1305) encryption".into(),
                "block=16,key=288".into(),
                "cycles".into(),
                1374.0
            )
        );
        assert_eq!(r[1].0, "tcrypt xts(aes) decryption");
        assert_eq!((r[1].2.as_str(), r[1].3), ("operations/s", 568192.0));
        assert_eq!(r[2].3, 568192.0 * 4096.0);
    }

    #[test]
    fn the_per_second_form_gives_the_rate_it_prints() {
        let r = rows(
            "testing speed of async essiv(cbc(aes),aes,sha256) (essiv(cbc-aes-ce,aes-ce,sha256-ce)) encryption\n\
             tcrypt: test  0 (128 bit key,   16 byte blocks): 3140785 ops/s ( 50252560 bytes)\n\
             tcrypt: test  5 (128 bit key, 8192 byte blocks):   99329 ops/s (813703168 bytes)\n",
        );
        assert_eq!(
            r[0],
            (
                "tcrypt essiv(cbc(aes),aes,sha256) encryption".into(),
                "block=16,key=128".into(),
                "operations/s".into(),
                3140785.0
            )
        );
        assert_eq!((r[3].2.as_str(), r[3].3), ("bytes/s", 99329.0 * 8192.0));
    }

    #[test]
    fn hash_lines_give_cycles_per_operation_and_per_byte() {
        let r = rows(
            "tcrypt: testing speed of async sha256 (sha256-avx2)\n\
             tcrypt: test  0 (   16 byte blocks,   16 bytes per update,   1 updates):    389 cycles/operation,   24 cycles/byte\n\
             tcrypt: test 1 ( 64 byte blocks, 16 bytes per update,   4 updates): 1 operation in 957 cycles (64 bytes)\n",
        );
        assert_eq!(
            r[0],
            (
                "tcrypt sha256".into(),
                "block=16,update=16".into(),
                "cycles".into(),
                389.0
            )
        );
        assert_eq!(r[1].2, "cycles/byte");
        assert_eq!((r[2].1.as_str(), r[2].3), ("block=64,update=16", 957.0));
    }
}
