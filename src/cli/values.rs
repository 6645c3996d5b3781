//! Parsers of option values shared by the commands (clap `value_parser`s):
//! each error names what was typed and what is accepted.

use crate::analysis::{Correction, TestChoice};
use crate::model::Direction;

/// A percentage ≥ 0, with or without `%` (`--threshold 2%`).
pub(crate) fn parse_percent(s: &str) -> std::result::Result<f64, String> {
    let t = s.trim().trim_end_matches('%').trim();
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("`{s}` is not a percentage ≥ 0 (e.g. 2%)")),
    }
}

/// `--test`: auto, mwu or welch.
pub(crate) fn parse_test(s: &str) -> std::result::Result<TestChoice, String> {
    match s.to_ascii_lowercase().as_str() {
        "auto" => Ok(TestChoice::Auto),
        "mwu" | "mann-whitney" | "u" => Ok(TestChoice::Mwu),
        "welch" | "t" => Ok(TestChoice::Welch),
        _ => Err(format!("unknown test `{s}` (auto, mwu, welch)")),
    }
}

/// `--correction`: bh, holm or none.
pub(crate) fn parse_correction(s: &str) -> std::result::Result<Correction, String> {
    match s.to_ascii_lowercase().as_str() {
        "bh" | "fdr" => Ok(Correction::Bh),
        "holm" => Ok(Correction::Holm),
        "none" => Ok(Correction::None),
        _ => Err(format!("unknown correction `{s}` (bh, holm, none)")),
    }
}

/// `--direction METRIC=lower|higher`.
pub(crate) fn parse_direction(s: &str) -> Result<(String, Direction), String> {
    let (metric, dir) = s
        .rsplit_once('=')
        .ok_or_else(|| format!("`{s}`: expected METRIC=lower or METRIC=higher"))?;
    Ok((metric.trim().to_string(), dir.parse()?))
}

/// `0.05` or `5%` as a fraction ≥ 0.
pub(crate) fn parse_fraction(s: &str) -> std::result::Result<f64, String> {
    let t = s.trim();
    let (num, scale) = match t.strip_suffix('%') {
        Some(n) => (n.trim(), 0.01),
        None => (t, 1.0),
    };
    match num.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v * scale),
        _ => Err(format!(
            "`{s}` is not a relative change ≥ 0 (e.g. 0.05 or 5%)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_are_plain_or_percent() {
        assert_eq!(parse_fraction("5%"), Ok(0.05));
        assert_eq!(parse_fraction("0.1"), Ok(0.1));
        assert!(parse_fraction("-1").is_err());
    }
}
