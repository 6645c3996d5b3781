//! How p-values too small for a double are stored and shown.
//!
//! A Welch test on n = 5000 per side (seed 000) gives p ≈ 10^-25000, which
//! underflows every f64 to 0. A bare 0 would claim certainty, so every
//! p-value leaving `stats` is clamped to [`P_FLOOR`]: a stored value equal
//! to `P_FLOOR` means "p < 1e-300", and `numfmt::format_p` prints it that way.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn underflow_is_a_bound_not_zero() {
        assert_eq!(clamp_p(0.0), P_FLOOR);
        assert!(is_bound(clamp_p(0.0)));
        assert_eq!(clamp_p(1.2), 1.0);
        assert!(clamp_p(f64::NAN).is_nan());
    }
}
