//! How every output writes a number: values to four significant digits,
//! changes as signed percentages, p-values, counts, ratios, tick labels.
//! One module, so that the terminal, the reports and the findings' words
//! show the same digits for the same number; each style is named once
//! here and nowhere else formats a number itself.

/// Significant digits shown for measured values.
pub const SIG_DIGITS: i32 = 4;

/// Decimal magnitude from which [`sig`] writes scientific notation.
const LARGE_MAG: i32 = 10;

/// Formats a number to [`SIG_DIGITS`] significant digits without
/// scientific notation for ordinary magnitudes: `2.836`, `12.37`, `0.1150`
/// keeps trailing zeros off (`0.115`), `123457` for large values, and
/// `1.23e-7` for very small ones. From 10¹⁰ on, whole digits would be
/// mostly noise and as wide as the value is large: `1.235e10`.
pub fn sig(v: f64) -> String {
    sig_digits(v, SIG_DIGITS)
}

/// [`sig`] with `digits` significant digits instead of four (at least 1).
pub fn sig_digits(v: f64, digits: i32) -> String {
    let digits = digits.max(1);
    // A table shows no NaN or inf: what is not a number is not available.
    if !v.is_finite() {
        return "n/a".into();
    }
    if v == 0.0 {
        return "0".into();
    }
    let mag = v.abs().log10().floor() as i32;
    if mag < -4 {
        return sci(v, (digits - 1).max(1) as usize);
    }
    if mag >= LARGE_MAG {
        return sci(v, digits as usize);
    }
    let decimals = (digits - 1 - mag).max(0) as usize;
    trim_zeros(format!("{v:.decimals$}"))
}

/// The fewest significant digits, four at least and 15 at most, at which
/// two values that disagree (a stated summary and the one its samples
/// give) are written differently.
pub fn parting_digits(a: f64, b: f64) -> i32 {
    let mut digits = SIG_DIGITS;
    while digits < 15 && sig_digits(a, digits) == sig_digits(b, digits) {
        digits += 1;
    }
    digits
}

/// Two values that disagree, each with [`parting_digits`]:
/// `2.0106075935200005` against `1.878626` reads `2.011` and `1.879`; a
/// difference in the ninth digit shows nine.
pub fn telling(a: f64, b: f64) -> (String, String) {
    let digits = parting_digits(a, b);
    (sig_digits(a, digits), sig_digits(b, digits))
}

/// Scientific notation with `digits` significant digits and a short
/// exponent: `1.23e-7`.
pub fn sci(v: f64, digits: usize) -> String {
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
        Some(p) if p.is_finite() => format_p(p),
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

/// A whole number with its thousands set apart by commas: `10,000,000`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
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

/// `v` with three significant digits, or all its integer digits when it
/// has more (`1234`), trailing zeros dropped.
pub fn sig3(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let mag = v.abs().log10().floor() as i32;
    let decimals = (2 - mag).max(0) as usize;
    trim_zeros(format!("{v:.decimals$}"))
}

/// `p = 0.012`, or `p < 1e-300` for a bound: [`format_p`] after the
/// relation it stands in (never `p = < 1e-300`).
pub fn p_equals(p: f64) -> String {
    if crate::stats::pvalue::is_bound(p) {
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
    if crate::stats::pvalue::is_bound(p) {
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

/// A signed change for the terminal's narrow column: one place, none from
/// ±100% on (`+4.2%`, `-137%`).
pub fn pct_terse(v: f64) -> String {
    if !v.is_finite() {
        return "n/a".into();
    }
    if v.abs() >= 100.0 {
        format!("{v:+.0}%")
    } else {
        format!("{v:+.1}%")
    }
}

/// A ratio as a multiple (`7.8×`) or, below 1, as a fraction (`1/26.1`):
/// "0.0× as spread" said nothing.
pub fn times(r: f64) -> String {
    if r > 0.0 && r < 1.0 {
        format!("1/{}", fixed(1.0 / r, 1))
    } else {
        format!("{}×", fixed(r, 1))
    }
}

/// Two spreads written alike: with four places, or both in scientific
/// notation when either needs it.
pub fn pair(a: Option<f64>, b: Option<f64>) -> (String, String) {
    let sci = [a, b].iter().flatten().any(|&v| !fits_fixed(v, 4));
    let one = |v: Option<f64>| match v {
        None => "?".to_string(),
        Some(v) if sci && v.is_finite() => format!("{v:.3e}"),
        Some(v) => fixed(v, 4),
    };
    (one(a), one(b))
}

/// Whether `v` reads well with `decimals` places: not hundreds of digits
/// (a spread of 1e199), and at least one that is not 0 (a variance ratio
/// of 2e-4 with two places).
pub fn fits_fixed(v: f64, decimals: usize) -> bool {
    let a = v.abs();
    a == 0.0 || !a.is_finite() || (0.5 * 10f64.powi(-(decimals as i32))..1e9).contains(&a)
}

/// `v` with `decimals` places where that reads well ([`fits_fixed`]), else
/// in scientific notation; an infinite ratio as ∞.
pub fn fixed(v: f64, decimals: usize) -> String {
    if v.is_infinite() {
        if v > 0.0 { "∞" } else { "-∞" }.to_string()
    } else if fits_fixed(v, decimals) {
        format!("{v:.decimals$}")
    } else {
        format!("{v:.3e}")
    }
}

/// A signed percentage, `n/a` when undefined (a zero baseline: the
/// comparison's note says why).
pub fn signed_pct(v: f64, decimals: usize) -> String {
    if v.is_finite() {
        format!("{v:+.decimals$}%")
    } else {
        "n/a".into()
    }
}

/// Magnitudes from which, and below which, tick labels are written in
/// scientific notation: whole digits past a billion, or places past
/// 0.0001, make labels wider than the ticks are apart.
const SCI_FROM: f64 = 1e9;
const SCI_BELOW: f64 = 1e-4;

/// A tick label in scientific notation, to three significant digits
/// (neighbouring ticks of a linear axis differ in the third): `1.05e197`,
/// `5e-7`.
fn sci_tick(x: f64) -> String {
    sci(x, 3)
}

/// A tick label for a linear axis: few digits, no float noise.
pub fn tick(x: f64) -> String {
    if x == 0.0 || x.abs() < 1e-300 {
        return "0".into();
    }
    if !(SCI_BELOW..SCI_FROM).contains(&x.abs()) {
        return sci_tick(x);
    }
    let mag = x.abs().log10().floor() as i32;
    trim_zeros(format!("{x:.*}", (2 - mag).clamp(0, 6) as usize))
}

/// A tick label for a linear axis spanning `span`: as [`tick`], with
/// as many more decimals as it takes to tell apart ticks a tenth of the
/// span apart (an axis from 1.669 to 1.694 labels 1.675 and 1.68, not
/// 1.68 twice).
pub fn tick_in(x: f64, span: f64) -> String {
    if x == 0.0 || x.abs() < 1e-300 || !span.is_finite() || span <= 0.0 {
        return tick(x);
    }
    if !(SCI_BELOW..SCI_FROM).contains(&x.abs()) {
        return sci_tick(x);
    }
    let mag = x.abs().log10().floor() as i32;
    let own = 2 - mag;
    let needed = (-(span / 10.0).log10()).ceil() as i32;
    trim_zeros(format!("{x:.*}", own.max(needed).clamp(0, 9) as usize))
}

/// A tick label for a log axis at value `v` (> 0): two significant digits
/// below 10, whole numbers above.
pub fn log_tick(v: f64) -> String {
    if !(SCI_BELOW..SCI_FROM).contains(&v.abs()) {
        return sci_tick(v);
    }
    let mag = v.log10().floor() as i32;
    trim_zeros(format!("{v:.*}", (1 - mag).max(0) as usize))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_set_apart() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(4096), "4,096");
        assert_eq!(grouped(10_000_000), "10,000,000");
        assert_eq!(grouped(123_456_789_012), "123,456,789,012");
    }

    #[test]
    fn ticks_of_a_narrow_axis_keep_the_digits_that_part_them() {
        assert_eq!(tick(1.675), "1.68");
        assert_eq!(tick_in(1.675, 0.025), "1.675");
        assert_eq!(tick_in(1.68, 0.025), "1.68");
        // A wide axis keeps the short labels.
        assert_eq!(tick_in(150.0, 400.0), "150");
        assert_eq!(tick_in(0.0, 0.025), "0");
        assert_eq!(tick_in(2.5, f64::NAN), "2.5");
    }

    #[test]
    fn telling_digits_show_where_two_values_part() {
        assert_eq!(
            telling(2.0106075935200005, 1.878626),
            ("2.011".into(), "1.879".into())
        );
        assert_eq!(
            telling(975.6066366600393, 975.6066371),
            ("975.6066367".into(), "975.6066371".into())
        );
        assert_eq!(telling(5.0, 5.0), ("5".into(), "5".into()));
        assert_eq!(sig_digits(2.0106075935200005, 6), "2.01061");
        // Below 1e-4 one digit fewer, as `sig` writes three of its four.
        assert_eq!(sig_digits(1.23456e-7, 6), "1.2346e-7");
    }

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
    fn formats_read_naturally() {
        assert_eq!(format_p(0.007936507936507936), "0.0079");
        assert_eq!(format_p(0.85), "0.85");
        assert_eq!(format_p(5.5e-9), "5.50e-9");
        assert_eq!(format_p(1e-5), "1e-5");
        assert_eq!(format_p(1.0), "1");
    }

    #[test]
    fn terse_and_fixed_styles() {
        assert_eq!(pct_terse(4.25), "+4.2%");
        assert_eq!(pct_terse(-137.4), "-137%");
        assert_eq!(pct_terse(f64::NAN), "n/a");
        assert_eq!(signed_pct(2.0, 0), "+2%");
        assert_eq!(fixed(2e-4, 2), "2.000e-4");
        assert_eq!(fixed(0.125, 2), "0.12");
        assert_eq!(fixed(f64::INFINITY, 1), "∞");
        assert_eq!(times(7.8), "7.8×");
        assert_eq!(times(0.25), "1/4.0");
        assert_eq!(
            pair(Some(1.5), Some(2e-9)),
            ("1.500e0".into(), "2.000e-9".into())
        );
        assert_eq!(tick(0.00015), "0.00015");
        assert_eq!(tick(1.05e197), "1.05e197");
        assert_eq!(p_equals(0.012), "p = 0.012");
        assert_eq!(p_equals(crate::stats::pvalue::clamp_p(0.0)), "p < 1e-300");
    }
}
