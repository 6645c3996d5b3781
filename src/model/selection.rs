//! A selection of rows that a reader may apply before it makes rows at all
//! (partition pruning and predicate pushdown in an archive). It is only
//! ever a superset of what the command's own `--filter` keeps: the filter
//! still runs on what comes back, so a reader that ignores the selection
//! is correct, only slower.

/// Conditions on the tidy table's text columns, all of which must hold.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    terms: Vec<SelectTerm>,
}

/// `column = value` (or `!=`), compared as text without regard to ASCII
/// case, as `--filter` compares a value that is not a number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectTerm {
    /// One of the tidy table's text columns (`benchmark`, `variant` …).
    pub column: &'static str,
    /// The value, as typed.
    pub value: String,
    /// `=` when true, `!=` when false.
    pub equal: bool,
}

impl Selection {
    /// A selection of these terms.
    pub fn new(terms: Vec<SelectTerm>) -> Self {
        Selection { terms }
    }

    /// True when nothing is selected away.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// The terms, in the order given.
    pub fn terms(&self) -> &[SelectTerm] {
        &self.terms
    }

    /// Whether a row whose `column` holds `value` can be selected, as far
    /// as the terms on that column tell.
    pub fn admits(&self, column: &str, value: &str) -> bool {
        self.terms
            .iter()
            .filter(|t| t.column == column)
            .all(|t| value.eq_ignore_ascii_case(&t.value) == t.equal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn admits_only_by_the_terms_on_its_column() {
        let s = Selection::new(vec![
            SelectTerm {
                column: "variant",
                value: "Patched".into(),
                equal: true,
            },
            SelectTerm {
                column: "metric",
                value: "time".into(),
                equal: false,
            },
        ]);
        assert!(s.admits("variant", "patched"));
        assert!(!s.admits("variant", "base"));
        assert!(!s.admits("metric", "TIME"));
        assert!(s.admits("metric", "tps"));
        assert!(s.admits("benchmark", "anything"));
        assert!(Selection::default().admits("variant", "x"));
    }
}
