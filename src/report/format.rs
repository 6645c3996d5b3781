//! The display unit of a group of values ([`Scale`]); the number styles
//! themselves are [`crate::numfmt`]'s, re-exported here for the reports.

use crate::model::Unit;
pub use crate::numfmt::*;

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

#[cfg(test)]
mod tests {
    use super::*;

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
