//! The tokens of one line for the grid reader: numbers (thousands
//! separators, unit suffixes, `XmY.Zs` durations), stated changes, spreads,
//! missing-value marks, markers and words, each with its character columns
//! (tabs expanded to stops of eight).

use super::super::lines::{duration_seconds, known_unit};
use smol_str::SmolStr;

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokKind {
    /// A measured value.
    Num,
    /// A stated change in percent (`+14.4%`, `(-34%)`).
    Change,
    /// The spread of the value before it (`± 0.3`, `[0.3]`, `( +- 2% )`).
    Spread,
    /// A missing value (`--`, `-`, `n/a`).
    Missing,
    /// A mark that holds no value (`*`, `<==`, `!`, a lone parenthesis).
    Marker,
    /// Anything else: label and header words, units.
    Word,
}

/// One token of a line.
#[derive(Debug, Clone, PartialEq)]
pub struct Tok {
    /// The text as written.
    pub text: SmolStr,
    /// First character column.
    pub col: usize,
    /// One past the last character column.
    pub end: usize,
    pub kind: TokKind,
    /// The value (a number, change or spread); 0 otherwise.
    pub value: f64,
    /// The unit written with the value (`ms`, `%`), or empty.
    pub unit: SmolStr,
    /// Digits of a plain unsigned integer (`487`: 3), 0 for anything else:
    /// a run of them may be one number whose digit groups a space divides.
    pub int_digits: usize,
}

impl Tok {
    /// A token holding a value of its own.
    pub fn is_value(&self) -> bool {
        matches!(self.kind, TokKind::Num | TokKind::Change | TokKind::Spread)
    }

    /// A token of the value part of a row (values and what sits among them).
    pub fn in_values(&self) -> bool {
        self.kind != TokKind::Word
    }
}

/// The whitespace-separated words of `text` with their columns.
pub fn split(text: &str) -> Vec<(usize, usize, &str)> {
    let mut out = Vec::new();
    let mut col = 0;
    let mut start: Option<(usize, usize)> = None;
    let semicolons = semicolon_cells(text);
    for (i, c) in text.char_indices() {
        // A full-width comma (typed with a CJK input method) parts cells
        // as a comma and a space would; so does a semicolon in a line
        // whose cells it parts.
        if c.is_whitespace() || c == '\u{FF0C}' || (semicolons && c == ';') {
            if let Some((b, sc)) = start.take() {
                out.push((sc, col, &text[b..i]));
            }
            col = if c == '\t' {
                (col / 8 + 1) * 8
            } else {
                col + 1
            };
        } else {
            if start.is_none() {
                start = Some((i, col));
            }
            col += 1;
        }
    }
    if let Some((b, sc)) = start {
        out.push((sc, col, &text[b..]));
    }
    out
}

/// Whether semicolons part the cells of `text` (`27 ; 28 ; 4.60` under
/// `Old min ; new min ; freq GHz`, a spreadsheet's export pasted as text):
/// two or more standing alone between gaps; then every one before a gap
/// parts cells. Prose glues its semicolons to the word before them.
fn semicolon_cells(text: &str) -> bool {
    let b = text.as_bytes();
    let gap = |i: usize| b.get(i).is_none_or(|n| n.is_ascii_whitespace());
    (0..b.len())
        .filter(|&i| b[i] == b';' && i > 0 && gap(i - 1) && gap(i + 1))
        .count()
        >= 2
}

/// The tokens of a line; a spread operator standing alone (`+-`, `±`) is
/// joined to the number after it, a unit word to the number before it.
pub fn tokens(text: &str) -> Vec<Tok> {
    let raw = split(text);
    let mut out: Vec<Tok> = Vec::with_capacity(raw.len());
    let mut spread_next = false;
    // A `~` between two numbers: a spread after the first, or the end of a
    // range when the second is as large (`2.5M ~ 4.5M`).
    let mut tilde = false;
    for (col, end, w) in raw {
        if matches!(w, "+-" | "±" | "+/-" | "(+-" | "(+/-" | "(±" | "~") {
            spread_next = true;
            tilde = w == "~";
            continue;
        }
        // `13.255(+/-` then `3.22%)`: the spread's opening glued to its
        // value.
        if let Some(num) = ["(+/-", "(+-", "(±"]
            .iter()
            .find_map(|op| w.strip_suffix(op))
            .filter(|n| !n.is_empty())
        {
            let v = token(num, col, col + num.chars().count());
            if v.kind == TokKind::Num {
                out.push(v);
                spread_next = true;
                continue;
            }
        }
        // `86.9%-70.8%`: two percentages written as a pair (sender and
        // receiver), each a value of its own.
        if let Some((a, b)) = w
            .split_once("%-")
            .filter(|(a, b)| b.ends_with('%') && number(a).is_some() && number(b).is_some())
        {
            let at = col + a.chars().count() + 2;
            out.push(token(&format!("{a}%"), col, at - 1));
            out.push(token(b, at, end));
            spread_next = false;
            continue;
        }
        let mut t = token(w, col, end);
        // Columns run together once a value fills its width
        // (`0.01s846860.493`): a number with a unit, then another number.
        if t.kind == TokKind::Word {
            // `90.00th=[12911],`: a bracketed value glued to its key, as
            // where the key's width leaves no room for a space.
            if let Some(open) = w.find("=[").map(|i| i + 2) {
                let (a, b) = w.split_at(open);
                if b.starts_with(|c: char| c.is_ascii_digit()) {
                    let at = col + a.chars().count();
                    out.push(token(a, col, at));
                    let mut v = token(b, at, end);
                    if spread_next && v.kind == TokKind::Num {
                        v.kind = TokKind::Spread;
                    }
                    out.push(v);
                    spread_next = false;
                    continue;
                }
            }
            // `7556(15)`, `44064(238)+53%`: a spread in parentheses glued
            // to its value, and a change glued after it.
            if let Some((open, close)) = paren_spread(w) {
                let at = |i: usize| col + w[..i].chars().count();
                out.push(token(&w[..open], col, at(open)));
                let mut sd = token(&w[open..=close], at(open), at(close + 1));
                sd.kind = TokKind::Spread;
                sd.value = sd.value.abs();
                out.push(sd);
                if close + 1 < w.len() {
                    out.push(token(&w[close + 1..], at(close + 1), end));
                }
                spread_next = false;
                continue;
            }
            if let Some(cut) = glued(w) {
                let (a, b) = w.split_at(cut);
                out.push(token(a, col, col + a.chars().count()));
                out.push(token(b, col + a.chars().count(), end));
                spread_next = false;
                continue;
            }
        }
        let range_end = tilde
            && t.kind == TokKind::Num
            && out
                .last()
                .is_some_and(|p| p.kind == TokKind::Num && p.value > 0.0 && t.value >= p.value);
        if spread_next && !range_end && matches!(t.kind, TokKind::Num | TokKind::Change) {
            t.kind = TokKind::Spread;
            t.value = t.value.abs();
        }
        tilde = false;
        // `32.99 (12.06%)`, `32.99 ( 0.24%)`: a percentage in parentheses
        // after a value is its change (mmtests pads it inside them,
        // leaving the opening one alone).
        if t.kind == TokKind::Num && t.unit == "%" && w.ends_with(')') {
            let padded = out
                .last()
                .is_some_and(|p| p.text == "(" && p.end + 1 == col);
            let value_before = out
                .iter()
                .rev()
                .find(|p| p.text != "(")
                .is_some_and(|p| p.kind == TokKind::Num && p.unit != "%");
            if (padded || w.starts_with('(')) && value_before {
                t.kind = TokKind::Change;
            }
        }
        spread_next = false;
        // `(0.00 pct)`, `(-3.94 pct)`: a change in percent spelt out.
        if t.kind == TokKind::Word && w.trim_end_matches(')') == "pct" {
            if let Some(prev) = out.last_mut() {
                if prev.kind == TokKind::Num && prev.unit.is_empty() {
                    prev.unit = "%".into();
                    prev.end = end;
                    if prev.text.starts_with('(') {
                        prev.kind = TokKind::Change;
                    }
                    continue;
                }
            }
        }
        // `12.3 ns /pkt`: a `/word` after a value's unit divides that unit.
        if t.kind == TokKind::Word {
            let per = w.trim_end_matches([',', ';', ')']);
            let is_per = per.len() > 1
                && per.starts_with('/')
                && per[1..].chars().all(|c| c.is_ascii_alphabetic());
            if let Some(prev) = out.last_mut().filter(|p| is_per && p.is_value()) {
                if !prev.unit.is_empty() && !prev.unit.contains('/') && prev.unit != "%" {
                    prev.unit = format!("{}{per}", prev.unit).into();
                    prev.end = end;
                    continue;
                }
            }
        }
        // `2065 Kops/s`, `42.1 ms`: a unit after a value is the value's.
        if t.kind == TokKind::Word && known_unit(w.trim_end_matches([',', ';', ')'])) {
            if let Some(prev) = out.last_mut() {
                if prev.is_value() && prev.unit.is_empty() {
                    prev.unit = w.trim_end_matches([',', ';', ')']).into();
                    prev.end = end;
                    continue;
                }
            }
        }
        // `2.152 ± 0.004M/s`: the unit written once, after the spread, is
        // the value's too (a spread in percent is relative, and says
        // nothing of the value's unit).
        if t.kind == TokKind::Spread && !t.unit.is_empty() && t.unit != "%" {
            if let Some(prev) = out
                .last_mut()
                .filter(|p| p.kind == TokKind::Num && p.unit.is_empty())
            {
                prev.unit = t.unit.clone();
            }
        }
        out.push(t);
    }
    out
}

fn token(w: &str, col: usize, end: usize) -> Tok {
    let mut t = Tok {
        text: w.into(),
        col,
        end,
        kind: TokKind::Word,
        value: 0.0,
        unit: SmolStr::default(),
        int_digits: 0,
    };
    if matches!(
        w.to_ascii_lowercase().as_str(),
        "-" | "--"
            | "---"
            | "—"
            | "n/a"
            | "na"
            | "(n/a)"
            | "-nan"
            | "nan"
            | "+inf%"
            | "-inf%"
            | "inf"
    ) {
        t.kind = TokKind::Missing;
        return t;
    }
    if super::bounds::is_bound(w) {
        t.kind = TokKind::Missing;
        return t;
    }
    if w.chars().all(|c| {
        matches!(
            c,
            '*' | '!' | '<' | '>' | '=' | '-' | '←' | '→' | '(' | ')' | '^' | '#' | '|' | '~'
        )
    }) {
        t.kind = TokKind::Marker;
        return t;
    }
    // Parentheses and brackets around a cell, markers and commas after it.
    let mut s = w.trim_end_matches([',', ';', ':']);
    let bracketed = s.starts_with('[') && s.ends_with(']');
    s = s
        .trim_start_matches(['(', '[', '~'])
        .trim_end_matches([')', ']']);
    s = s.trim_end_matches(['*', '!', '†']);
    let mut spread = bracketed;
    for op in ["+/-", "+-", "±", "~"] {
        if let Some(rest) = s.strip_prefix(op) {
            s = rest;
            spread = true;
            break;
        }
    }
    let Some((value, unit, int_digits)) = number(s) else {
        return t;
    };
    t.value = value;
    t.int_digits = int_digits;
    if spread {
        t.kind = TokKind::Spread;
        t.value = value.abs();
        t.unit = unit.into();
    } else if unit == "%" && s.starts_with(['+', '-']) {
        t.kind = TokKind::Change;
        t.unit = unit.into();
    } else {
        t.kind = TokKind::Num;
        t.unit = unit.into();
    }
    t
}

/// A number with an optional sign, thousands separators (`15,063,081`,
/// `1'234`, `1_234`), a fraction, and a suffix: a multiplier (`1.5K`), a unit
/// (`172ms`, `%`) or a duration (`2m3.5s`). Returns value, unit and the
/// digit count of a plain unsigned integer.
pub fn number(s: &str) -> Option<(f64, String, usize)> {
    if s.is_empty() {
        return None;
    }
    let b = s.as_bytes();
    let mut i = 0;
    let neg = b[0] == b'-';
    if matches!(b[0], b'+' | b'-') {
        i = 1;
    }
    let digits_start = i;
    // The digits as the float parser reads them, kept on the stack: a
    // table line's every word is asked.
    let mut plain: smallvec::SmallVec<[u8; 40]> = smallvec::SmallVec::new();
    let mut group = 0;
    let mut groups = 0;
    let mut sep: Option<u8> = None;
    while i < b.len() {
        match b[i] {
            d @ b'0'..=b'9' => {
                plain.push(d);
                group += 1;
                i += 1;
            }
            c @ (b',' | b'\'' | b'_')
                if group > 0
                    && (sep.is_none() || sep == Some(c))
                    && b.len() >= i + 4
                    && b[i + 1..i + 4].iter().all(u8::is_ascii_digit)
                    && !b.get(i + 4).is_some_and(u8::is_ascii_digit)
                    && (groups > 0 || group <= 3)
                    && (groups == 0 || group == 3) =>
            {
                sep = Some(c);
                groups += 1;
                group = 0;
                i += 1;
            }
            _ => break,
        }
    }
    if plain.is_empty() {
        return None;
    }
    let mut is_int = sep.is_none();
    if i < b.len() && b[i] == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
        plain.push(b'.');
        i += 1;
        is_int = false;
        while i < b.len() && b[i].is_ascii_digit() {
            plain.push(b[i]);
            i += 1;
        }
    }
    // `528.`: lmbench cuts a value to its column with the point kept.
    if i + 1 == b.len() && b[i] == b'.' && is_int {
        i += 1;
        is_int = false;
    }
    // `2.988e+20`, `+3e+14%`: printf's `%g` for totals and changes too
    // large for a fixed column. The exponent's sign is required so that a
    // word such as `12e4` (a commit id, a part number) stays a word.
    if matches!(b.get(i), Some(b'e' | b'E'))
        && matches!(b.get(i + 1), Some(b'+' | b'-'))
        && b.get(i + 2).is_some_and(u8::is_ascii_digit)
    {
        plain.push(b'e');
        plain.push(b[i + 1]);
        i += 2;
        while i < b.len() && b[i].is_ascii_digit() {
            plain.push(b[i]);
            i += 1;
        }
        is_int = false;
    }
    let rest = &s[i..];
    let mut value = crate::ingest::shared::numbers::parse_f64(std::str::from_utf8(&plain).ok()?)?;
    if neg {
        value = -value;
    }
    let int_digits = if is_int && digits_start == 0 && rest.is_empty() {
        plain.len()
    } else {
        0
    };
    let unit = match rest {
        "" => String::new(),
        s if let Some(factor) = crate::ingest::shared::numbers::scale_suffix(s) => {
            value = crate::model::rescale(value, factor);
            String::new()
        }
        "x" | "X" => "x".to_string(),
        r if r.starts_with('m') && r.ends_with('s') && r.len() > 2 => {
            // `2m3.5s`: minutes and seconds.
            let secs = duration_seconds(&s[digits_start..])?;
            return Some((if neg { -secs } else { secs }, "s".into(), 0));
        }
        r if r == "%" || known_unit(r) || is_unit_word(r) => r.to_string(),
        _ => return None,
    };
    value.is_finite().then_some((value, unit, int_digits))
}

/// Where a word splits into a number with a unit and a number glued to it.
/// Where the parentheses of `w` are when it is a number with a number in
/// parentheses glued to it, and perhaps a stated change after them.
fn paren_spread(w: &str) -> Option<(usize, usize)> {
    let open = w.find('(')?;
    let close = open + w[open..].find(')')?;
    let rest = &w[close + 1..];
    let plain = |t: &str| number(t).is_some_and(|(_, u, _)| u.is_empty());
    (open > 0
        && plain(&w[..open])
        && plain(&w[open + 1..close])
        && (rest.is_empty() || token(rest, 0, 0).kind == TokKind::Change))
        .then_some((open, close))
}

fn glued(w: &str) -> Option<usize> {
    let b = w.as_bytes();
    (1..b.len()).find(|&i| {
        b[i - 1].is_ascii_alphabetic()
            && b[i].is_ascii_digit()
            && number(&w[..i]).is_some_and(|(_, u, _)| !u.is_empty())
            && number(&w[i..]).is_some()
    })
}

/// A suffix made of letters and `/` (`KB`, `msec`, `Kops/s`): a unit the
/// project may not know, still no part of the number.
fn is_unit_word(r: &str) -> bool {
    r.len() <= 8
        && r.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && r.chars().all(|c| c.is_ascii_alphabetic() || c == '/')
}

/// Joins runs of plain integers a single space apart whose later members
/// have three digits (`2 487 746` → 2487746): archives that write digit
/// groups with spaces, or collapse whitespace, give such runs.
pub fn merge_groups(toks: &[Tok]) -> Vec<Tok> {
    let mut out: Vec<Tok> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        if t.kind == TokKind::Num && (1..=3).contains(&t.int_digits) {
            let mut j = i + 1;
            let mut value = t.value;
            while j < toks.len()
                && toks[j].kind == TokKind::Num
                && toks[j].int_digits == 3
                && toks[j].col == toks[j - 1].end + 1
            {
                value = value * 1000.0 + toks[j].value;
                j += 1;
            }
            if j > i + 1 {
                let mut m = t.clone();
                m.value = value;
                m.end = toks[j - 1].end;
                m.text = toks[i..j]
                    .iter()
                    .map(|t| t.text.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
                    .into();
                m.int_digits = 0;
                out.push(m);
                i = j;
                continue;
            }
        }
        out.push(t.clone());
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(TokKind, f64, String)> {
        tokens(text)
            .into_iter()
            .map(|t| (t.kind, t.value, t.unit.to_string()))
            .collect()
    }

    #[test]
    fn e_notation_is_a_number_and_a_signed_one_a_change() {
        assert_eq!(number("2.988e+20"), Some((2.988e20, String::new(), 0)));
        assert_eq!(number("3.812e+08"), Some((3.812e8, String::new(), 0)));
        assert_eq!(number("12e4"), None);
        let row =
            "  99986527         +3e+14%  2.988e+20       TOTAL proc-vmstat.nr_tlb_local_flush_one";
        let k: Vec<TokKind> = kinds(row).into_iter().map(|k| k.0).collect();
        assert_eq!(
            k,
            [
                TokKind::Num,
                TokKind::Change,
                TokKind::Num,
                TokKind::Word,
                TokKind::Word
            ]
        );
        assert_eq!(kinds(row)[1].1, 3e14);
    }

    #[test]
    fn numbers_in_their_written_forms() {
        assert_eq!(number("15,063,081"), Some((15063081.0, String::new(), 0)));
        assert_eq!(number("1'234"), Some((1234.0, String::new(), 0)));
        assert_eq!(number("1_234"), Some((1234.0, String::new(), 0)));
        assert_eq!(number("172ms"), Some((172.0, "ms".into(), 0)));
        assert_eq!(number("1.5K"), Some((1500.0, String::new(), 0)));
        assert_eq!(number("2m3.5s"), Some((123.5, "s".into(), 0)));
        assert_eq!(number("487"), Some((487.0, String::new(), 3)));
        assert_eq!(number("528."), Some((528.0, String::new(), 0)));
        assert_eq!(number("6.6.78"), None);
        assert_eq!(number("0,1"), None);
        assert_eq!(number("1,2345"), None);
    }

    #[test]
    fn a_per_word_after_a_unit_divides_it() {
        let got: Vec<(f64, String)> = tokens("xdp_fwd :  4.7 Mpps  (213 ns /pkt)")
            .into_iter()
            .filter(|t| t.is_value())
            .map(|t| (t.value, t.unit.to_string()))
            .collect();
        assert_eq!(got, [(4.7, "Mpps".into()), (213.0, "ns/pkt".into())]);
        // Not after a bare number, nor after a percentage: a word then.
        let bare = tokens("rx 12 /pkt");
        assert_eq!(bare.iter().filter(|t| t.is_value()).count(), 1);
        assert_eq!(bare.last().map(|t| t.kind), Some(TokKind::Word));
    }

    #[test]
    fn changes_spreads_markers_and_missing() {
        use TokKind::*;
        let glued = tokens("with the series 15.368(+/- 2.74)  -15.9%");
        let got: Vec<(TokKind, f64)> = glued
            .iter()
            .filter(|t| t.kind != TokKind::Word)
            .map(|t| (t.kind, t.value))
            .collect();
        assert_eq!(
            got,
            [
                (TokKind::Num, 15.368),
                (TokKind::Spread, 2.74),
                (TokKind::Change, -15.9)
            ]
        );
        // A range is two values, a small number after `~` a spread.
        let range = tokens("IOPS is 2.5M ~ 4.5M");
        let kinds_of = |t: &[Tok]| t.iter().map(|t| (t.kind, t.value)).collect::<Vec<_>>();
        assert_eq!(
            kinds_of(&range)[2..],
            [(TokKind::Num, 2.5e6), (TokKind::Num, 4.5e6)]
        );
        let spread = tokens("latency 120 ~ 3");
        assert_eq!(
            kinds_of(&spread)[1..],
            [(TokKind::Num, 120.0), (TokKind::Spread, 3.0)]
        );
        let spaced = tokens("base 13.255 (+/- 3.22%)");
        assert_eq!(spaced[1].kind, TokKind::Num);
        assert_eq!((spaced[2].kind, spaced[2].value), (TokKind::Spread, 3.22));
        let k = kinds("x 12.5 ( +- 0.3% ) (+14.4%) -34% * <== -- [0.2] 3.1 ms");
        let got: Vec<TokKind> = k.iter().map(|k| k.0).collect();
        assert_eq!(
            got,
            vec![
                Word, Num, Marker, Spread, Marker, Change, Change, Marker, Marker, Missing, Spread,
                Num
            ]
        );
        assert_eq!(k[3].1, 0.3);
        assert_eq!(k[3].2, "%");
        assert_eq!(k[11].2, "ms");
        let k = kinds("1    573.26 (0.00 pct)       550.66 (-3.94 pct)");
        assert_eq!(k[2], (TokKind::Change, 0.0, "%".to_string()));
        assert_eq!(k[4], (TokKind::Change, -3.94, "%".to_string()));
    }

    #[test]
    fn digit_groups_split_by_spaces_join() {
        let t = merge_groups(&tokens("6.6.78 2 487 746 100%"));
        assert_eq!(t.len(), 3);
        assert_eq!(t[1].value, 2487746.0);
        let t = merge_groups(&tokens("6.6.78 2 339 827 98 21 151 454"));
        let v: Vec<f64> = t.iter().skip(1).map(|t| t.value).collect();
        assert_eq!(v, vec![2339827.0, 98.0, 21151454.0]);
    }

    #[test]
    fn a_spread_in_parentheses_glued_to_its_value_is_split() {
        let t = tokens("    1     7556(15)      7588(17)  +0.42%   28748(170)    44064(238)+53%");
        let kinds: Vec<(TokKind, f64)> = t.iter().map(|t| (t.kind, t.value)).collect();
        use TokKind::*;
        assert_eq!(
            kinds,
            [
                (Num, 1.0),
                (Num, 7556.0),
                (Spread, 15.0),
                (Num, 7588.0),
                (Spread, 17.0),
                (Change, 0.42),
                (Num, 28748.0),
                (Spread, 170.0),
                (Num, 44064.0),
                (Spread, 238.0),
                (Change, 53.0)
            ]
        );
        // A word with a number in parentheses is no value.
        assert_eq!(tokens("sda(8)")[0].kind, Word);
    }

    #[test]
    fn a_change_padded_inside_its_parentheses_is_a_change() {
        let t = tokens("Files/s  mean   32.99 ( 0.00%)   35.16 ( 6.18%)  12.30 (-45.63%)");
        let changes: Vec<f64> = t
            .iter()
            .filter(|t| t.kind == TokKind::Change)
            .map(|t| t.value)
            .collect();
        assert_eq!(changes, [0.0, 6.18, -45.63]);
        // A percentage of its own is a value.
        let t = tokens("cpu  ( 45.0% busy)");
        assert!(t.iter().all(|t| t.kind != TokKind::Change));
    }

    #[test]
    fn glued_columns_split() {
        let t = tokens("0.01s846860.493 848882.424");
        let v: Vec<f64> = t.iter().map(|t| t.value).collect();
        assert_eq!(v, vec![0.01, 846860.493, 848882.424]);
    }

    #[test]
    fn a_unit_after_the_spread_is_the_values_too() {
        let t = tokens("private-stack-8:     90.023 ± 0.117M/s");
        assert_eq!((t[1].value, t[1].unit.as_str()), (90.023, "M/s"));
        assert_eq!((t[2].kind, t[2].unit.as_str()), (TokKind::Spread, "M/s"));
        // A relative spread says nothing of the value's unit.
        let t = tokens("runtime  12.5 ± 3%");
        assert_eq!(t[1].unit, "");
    }

    #[test]
    fn a_pair_of_percentages_is_two_values() {
        let t = tokens("Server bind   19: 13.0Gbits/sec 28.371851000 86.9%-70.8%");
        let v: Vec<(TokKind, f64)> = t[5..].iter().map(|t| (t.kind, t.value)).collect();
        assert_eq!(v, [(TokKind::Num, 86.9), (TokKind::Num, 70.8)]);
    }
}
