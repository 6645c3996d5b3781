//! Constant regular expressions of the readers, compiled on first use. A
//! leaf: the text helpers and the line scanner both declare patterns, and
//! neither should need the other for it.

use regex::Regex;

/// Compiles a pattern that is a constant of the program.
pub(crate) fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("importer regex is a valid constant")
}

/// Declares a lazily compiled constant regex.
macro_rules! lazy_re {
    ($name:ident, $pat:expr) => {
        static $name: std::sync::LazyLock<regex::Regex> =
            std::sync::LazyLock::new(|| $crate::ingest::shared::pattern::re($pat));
    };
}
pub(crate) use lazy_re;
