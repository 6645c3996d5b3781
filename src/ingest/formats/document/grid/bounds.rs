//! A cell that bounds its value instead of stating it (`>100%`, `<1`,
//! `<=0.5ms`): the writer knew only that the value passed a limit. Read
//! as a word, it took its row's last column for part of the row's label
//! (`sequential >100%`), the row lost a column, and the header above no
//! longer fitted the rows. It is a missing value: it keeps its column,
//! and no number is made up for it.

/// Whether `w` is a comparison sign and a number (with a unit or not).
pub(super) fn is_bound(w: &str) -> bool {
    let Some(rest) = w.strip_prefix(['<', '>']) else {
        return false;
    };
    let rest = rest.strip_prefix('=').unwrap_or(rest);
    // Digits, then at most a unit or a percent sign (the tokenizer reads
    // the number itself; this file needs only its shape).
    let unit = rest.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ',');
    rest.starts_with(|c: char| c.is_ascii_digit())
        && unit
            .chars()
            .all(|c| c.is_alphabetic() || c == '%' || c == '/')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sign_and_a_number_is_a_bound() {
        assert!(is_bound(">100%"));
        assert!(is_bound("<1"));
        assert!(is_bound("<=0.5ms"));
        assert!(!is_bound("->"));
        assert!(!is_bound(">"));
        assert!(!is_bound("<=="));
        assert!(!is_bound("<foo>"));
        assert!(!is_bound("100%"));
    }
}
