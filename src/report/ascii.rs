//! The ASCII form of report text, for the plain-text report and e-mail:
//! shared by the text renderer and the template filter that wraps lines.

/// Replaces typographic characters with ASCII (`≥` → `>=`, `→` → `->`),
/// before wrapping so that widths stay right.
pub(crate) fn asciify(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '—' | '–' => o.push_str("--"),
            '·' => o.push('/'),
            '±' => o.push_str("+/-"),
            '…' => o.push_str("..."),
            '≥' => o.push_str(">="),
            '≤' => o.push_str("<="),
            '−' => o.push('-'),
            '×' => o.push('x'),
            'µ' | 'μ' => o.push('u'),
            '‘' | '’' => o.push('\''),
            '“' | '”' => o.push('"'),
            '→' => o.push_str("->"),
            '←' => o.push_str("<-"),
            'α' => o.push_str("alpha"),
            'σ' => o.push_str("sd"),
            'δ' => o.push_str("delta"),
            'Δ' => o.push_str("delta"),
            '≈' => o.push('~'),
            '∞' => o.push_str("inf"),
            '≠' => o.push_str("!="),
            '°' => o.push_str(" deg"),
            '\u{a0}' | '\u{2009}' | '\u{202f}' => o.push(' '),
            c => o.push(c),
        }
    }
    o
}
