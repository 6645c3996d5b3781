//! Number formatting for every report, in one place, so that HTML, PDF,
//! Markdown, text and JSON show the very same digits.

use crate::model::Unit;

/// Significant digits shown for measured values.
const SIG_DIGITS: i32 = 4;

/// Decimal magnitude from which [`sig`] writes scientific notation.
const LARGE_MAG: i32 = 10;

/// A display scale for all values of one benchmark group: the group is
/// shown in one readable unit (e.g. ms), so that rows stay comparable.
#[derive(Debug, Clone, PartialEq)]
pub struct Scale {
    /// Multiply a value in the group's unit by this to get the display unit.
    pub factor: f64,
    /// Spelling of the display unit (may be empty for unitless values).
    pub unit: String,
}

impl Scale {
    /// Chooses a readable unit for values of `unit` from a typical magnitude
    /// (the baseline's centre): 0.0123 s becomes ms, 4 200 000 us becomes s.
    pub fn for_values(unit: &str, typical: f64) -> Scale {
        let u = Unit::parse(unit);
        if !typical.is_finite() || typical == 0.0 {
            return Scale {
                factor: 1.0,
                unit: u.spelling,
            };
        }
        let (scaled, spelling) = u.readable(typical);
        let factor = if typical != 0.0 {
            scaled / typical
        } else {
            1.0
        };
        Scale {
            factor,
            unit: spelling,
        }
    }

    /// The value in the display unit, rounded to what is shown.
    pub fn value(&self, v: f64) -> f64 {
        v * self.factor
    }

    /// The value formatted in the display unit, without the unit.
    pub fn fmt(&self, v: f64) -> String {
        sig(v * self.factor)
    }

    /// The value formatted with its unit (`12.37 ms`).
    pub fn fmt_with_unit(&self, v: f64) -> String {
        if self.unit.is_empty() {
            self.fmt(v)
        } else {
            format!("{} {}", self.fmt(v), self.unit)
        }
    }

    /// The display unit as an axis title ends with it (` (ms)`), or
    /// nothing for unitless values.
    pub fn axis_suffix(&self) -> String {
        if self.unit.is_empty() {
            String::new()
        } else {
            format!(" ({})", self.unit)
        }
    }
}

/// Formats a number to [`SIG_DIGITS`] significant digits without
/// scientific notation for ordinary magnitudes: `2.836`, `12.37`, `0.1150`
/// keeps trailing zeros off (`0.115`), `123457` for large values, and
/// `1.23e-7` for very small ones. From 10¹⁰ on, whole digits would be
/// mostly noise and as wide as the value is large: `1.235e10`.
pub fn sig(v: f64) -> String {
    // A table shows no NaN or inf: what is not a number is not available.
    if !v.is_finite() {
        return "n/a".into();
    }
    if v == 0.0 {
        return "0".into();
    }
    let mag = v.abs().log10().floor() as i32;
    if mag < -4 {
        return sci(v, 3);
    }
    if mag >= LARGE_MAG {
        return sci(v, SIG_DIGITS as usize);
    }
    let decimals = (SIG_DIGITS - 1 - mag).max(0) as usize;
    trim_zeros(format!("{v:.decimals$}"))
}

/// Scientific notation with `digits` significant digits and a short
/// exponent: `1.23e-7`.
pub(crate) fn sci(v: f64, digits: usize) -> String {
    let s = format!("{:.*e}", digits.saturating_sub(1), v);
    match s.split_once('e') {
        Some((m, e)) => format!("{}e{}", trim_zeros(m.to_string()), e),
        None => s,
    }
}

fn trim_zeros(s: String) -> String {
    if s.contains('.') {
        let t = s.trim_end_matches('0').trim_end_matches('.');
        if t == "-0" {
            "0".into()
        } else {
            t.to_string()
        }
    } else {
        s
    }
}

/// A signed percentage: `+191.6%`, `-3.45%`, `+0.00%`.
pub fn pct(v: f64) -> String {
    if !v.is_finite() {
        return "n/a".into();
    }
    let decimals = if v.abs() >= 10.0 { 1 } else { 2 };
    let s = format!("{v:+.decimals$}%");
    if s.starts_with("-0.0") && s.trim_start_matches(['-', '0', '.', '%']).is_empty() {
        s.replacen('-', "+", 1)
    } else {
        s
    }
}

/// A confidence interval of a change: `[+1.20%, +5.61%]`.
pub fn pct_ci(lo: Option<f64>, hi: Option<f64>) -> String {
    match (lo, hi) {
        (Some(l), Some(h)) => format!("[{}, {}]", pct(l), pct(h)),
        _ => "n/a".into(),
    }
}

/// A p- or q-value: `0.0312`, `0.412`, `3.21e-5`, `< 1e-300`, `n/a`; the
/// same text the terminal table of `compare` prints.
pub fn pvalue(p: Option<f64>) -> String {
    match p {
        Some(p) if p.is_finite() => crate::stats::format_p(p),
        _ => "n/a".into(),
    }
}

/// `1 comparison`, `3 comparisons`: a count with its noun (plural by `s`).
pub fn counted(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A sample count, `?` when unknown.
pub fn count(n: Option<u64>) -> String {
    n.map(|n| n.to_string()).unwrap_or_else(|| "?".into())
}

/// An effect size with two decimals, signed.
pub fn effect(e: Option<f64>) -> String {
    match e {
        Some(e) if e.is_finite() => format!("{e:+.2}"),
        _ => "n/a".into(),
    }
}

/// A percentage without sign (CV): `4.21%`.
pub fn plain_pct(v: Option<f64>) -> String {
    match v {
        Some(v) if v.is_finite() => format!("{}%", sig3(v)),
        _ => "n/a".into(),
    }
}

fn sig3(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let mag = v.abs().log10().floor() as i32;
    let decimals = (2 - mag).max(0) as usize;
    trim_zeros(format!("{v:.decimals$}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn significant_digits() {
        assert_eq!(sig(2.836), "2.836");
        assert_eq!(sig(12.366), "12.37");
        assert_eq!(sig(0.115), "0.115");
        assert_eq!(sig(123456.7), "123457");
        assert_eq!(sig(9_876_543_210.0), "9876543210");
        assert_eq!(sig(12_345_678_901.0), "1.235e10");
        assert_eq!(sig(-1e200), "-1e200");
        assert_eq!(sig(-4.0), "-4");
        assert_eq!(sig(1.234e-7), "1.23e-7");
        assert_eq!(sig(0.0), "0");
    }

    #[test]
    fn percentages_and_p_values() {
        assert_eq!(pct(191.58), "+191.6%");
        assert_eq!(pct(-3.456), "-3.46%");
        assert_eq!(pct(-0.0001), "+0.00%");
        assert_eq!(pvalue(Some(crate::stats::pvalue::clamp_p(0.0))), "< 1e-300");
        assert_eq!(pvalue(Some(0.03123)), "0.0312");
        assert_eq!(pvalue(Some(0.41234)), "0.4123");
        assert_eq!(pvalue(Some(3.21e-5)), "3.21e-5");
        assert_eq!(pvalue(None), "n/a");
        assert_eq!(pct_ci(Some(1.2), Some(5.612)), "[+1.20%, +5.61%]");
    }

    #[test]
    fn scale_picks_readable_units() {
        let s = Scale::for_values("s", 0.0123);
        assert_eq!(s.unit, "ms");
        assert_eq!(s.fmt(0.0123), "12.3");
        assert_eq!(s.fmt_with_unit(0.004241), "4.241 ms");
        let s = Scale::for_values("ms", 4.241);
        assert_eq!(s.unit, "ms");
        let s = Scale::for_values("tps", 612.3);
        assert_eq!(s.fmt_with_unit(612.3), "612.3 tps");
    }
}
