//! How p-values too small for a double are stored and shown.
//!
//! A Welch test on n = 5000 per side (seed 000) gives p ≈ 10^-25000, which
//! underflows every f64 to 0. A bare 0 would claim certainty, so every
//! p-value leaving `stats` is clamped to [`P_FLOOR`]: a stored value equal
//! to `P_FLOOR` means "p < 1e-300", and [`format_p`] prints it that way.
//! The clamp never changes a decision (any α is far above 1e-300), and it is
//! the same convention in the JSON output (`p_value: 1e-300` is a bound).

/// Smallest p-value reported as a number; anything below is "< 1e-300".
pub const P_FLOOR: f64 = 1e-300;

/// Clamps a computed p-value into `[P_FLOOR, 1]`; NaN stays NaN so that a
/// caller bug is not hidden as a valid probability.
pub fn clamp_p(p: f64) -> f64 {
    if p.is_nan() {
        p
    } else {
        p.clamp(P_FLOOR, 1.0)
    }
}

/// True when `p` is the floor, i.e. the true value is below it.
pub fn is_bound(p: f64) -> bool {
    p <= P_FLOOR
}

/// `p = 0.012`, or `p < 1e-300` for a bound: [`format_p`] after the
/// relation it stands in (never `p = < 1e-300`).
pub fn p_equals(p: f64) -> String {
    if is_bound(p) {
        format!("p {}", format_p(p))
    } else {
        format!("p = {}", format_p(p))
    }
}

/// Formats a p-value for people: `< 1e-300` at the floor, four significant
/// digits in scientific notation below 0.001, otherwise fixed with four
/// decimals (`0.0079`, `0.85`).
pub fn format_p(p: f64) -> String {
    if p.is_nan() {
        return "n/a".into();
    }
    if is_bound(p) {
        return "< 1e-300".into();
    }
    if p < 1e-3 {
        let s = format!("{p:.2e}");
        // `5.50e-9` reads better than Rust's `5.50e-9`; keep as is, but drop
        // a trailing `.00` mantissa for `1.00e-5` → `1e-5`.
        return s.replace(".00e", "e");
    }
    if p >= 0.9995 {
        return "1".into();
    }
    let s = format!("{p:.4}");
    let s = s.trim_end_matches('0');
    s.trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn underflow_is_a_bound_not_zero() {
        assert_eq!(clamp_p(0.0), P_FLOOR);
        assert!(is_bound(clamp_p(0.0)));
        assert_eq!(format_p(clamp_p(0.0)), "< 1e-300");
        assert_eq!(clamp_p(1.2), 1.0);
        assert!(clamp_p(f64::NAN).is_nan());
    }

    #[test]
    fn formats_read_naturally() {
        assert_eq!(format_p(0.007936507936507936), "0.0079");
        assert_eq!(format_p(0.85), "0.85");
        assert_eq!(format_p(5.5e-9), "5.50e-9");
        assert_eq!(format_p(1e-5), "1e-5");
        assert_eq!(format_p(1.0), "1");
    }
}
