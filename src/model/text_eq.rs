//! Equality of the short texts that fill the tidy table's name columns.
//!
//! Writing and numbering rows compare each row's names with its
//! neighbour's, millions of times per input. The names are short (mostly
//! under 24 bytes) and `==` on `str` calls `memcmp` for each: on the Go
//! inputs those calls were a fifth of the CPU time of `ingest --out`. Two
//! to four overlapping word loads settle a short comparison inline.

/// Whether `a` and `b` hold the same text.
#[inline]
pub fn text_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    // Equal pointers: one name shared by many rows.
    if std::ptr::eq(a.as_ptr(), b.as_ptr()) {
        return true;
    }
    let word = |s: &[u8], at: usize| u64::from_le_bytes(s[at..at + 8].try_into().unwrap_or([0; 8]));
    let half = |s: &[u8], at: usize| u32::from_le_bytes(s[at..at + 4].try_into().unwrap_or([0; 4]));
    match n {
        0 => true,
        // Three loads cover every byte of one to three (`==` here would
        // call `memcmp`, and units such as "ms" are this short).
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=8 => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        9..=16 => word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8),
        17..=32 => {
            word(a, 0) == word(b, 0)
                && word(a, 8) == word(b, 8)
                && word(a, n - 16) == word(b, n - 16)
                && word(a, n - 8) == word(b, n - 8)
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn every_length_and_every_differing_byte_is_seen() {
        for n in 0..40 {
            let a: String = (0..n).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
            assert!(text_eq(&a, &a.clone()), "{n}");
            for at in 0..n {
                let mut b = a.clone().into_bytes();
                b[at] = b'Z';
                let b = String::from_utf8(b).unwrap();
                assert!(!text_eq(&a, &b), "length {n}, byte {at}");
            }
            assert!(!text_eq(&a, &format!("{a}x")));
        }
    }

    proptest! {
        #[test]
        fn agrees_with_str_equality(a in "[a-c/=,µ]{0,40}", b in "[a-c/=,µ]{0,40}") {
            prop_assert_eq!(text_eq(&a, &b), a == b);
            prop_assert!(text_eq(&a, &a.clone()));
        }
    }
}
