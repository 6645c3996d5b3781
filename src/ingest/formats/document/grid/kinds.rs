//! What a line is to the grid reader: a rule, a data row (label words,
//! then values, or values, then a label), a list of `key=value` pairs, a line
//! of values among words, or text.

use super::*;

/// What a line is to the grid reader.
pub(super) enum LineKind {
    /// Dashes, equals signs or dots only: an underline or separator.
    Rule,
    /// Label words, then values.
    Data {
        label: Vec<Tok>,
        values: Vec<Tok>,
    },
    /// `key=value` / `key: value` pairs: (key, value token).
    Pairs(String, Vec<(String, Tok)>),
    /// Values among words, each keyed by the words before it; the line's label.
    Keyed(String, Vec<(String, Tok)>),
    /// A table collapsed into one line: headers and their rows in turn.
    Collapsed(Vec<super::collapsed::Segment>),
    Text,
}

/// Longest row label, in words, that is still a label and not prose.
pub(super) const MAX_LABEL_WORDS: usize = 10;

pub(super) fn kind(text: &str) -> LineKind {
    if crate::ingest::shared::text::is_rule(text) {
        return LineKind::Rule;
    }
    let toks = tokens::tokens(text);
    if let Some(p) = pairs(text) {
        return p;
    }
    if let Some(p) = counted_list(text) {
        return p;
    }
    if let Some(segments) = super::collapsed::segments(&toks) {
        return LineKind::Collapsed(segments);
    }
    let Some(last) = toks.last() else {
        return LineKind::Text;
    };
    if !last.in_values() {
        return trailing_label(&toks)
            .or_else(|| label_at_both_ends(&toks))
            .unwrap_or_else(|| keyed(toks));
    }
    let split = toks
        .iter()
        .rposition(|t| !t.in_values())
        .map_or(0, |i| i + 1);
    let (label, values) = toks.split_at(split);
    if !values.iter().any(Tok::is_value) {
        return LineKind::Text;
    }
    // A value with its spread is a measurement, never part of a name
    // (`private-stack-1:  2.226 ± 0.003M/s (drops 0.000 ± 0.000M/s)`).
    // So is a signed fraction (`Hackbench pipes-1  -8.23  to 29.65`, a
    // range of changes): names hold counts (`pipes-1`, `-j 8`), not those.
    let signed_fraction =
        |t: &Tok| t.kind == TokKind::Num && t.text.starts_with(['-', '+']) && t.text.contains('.');
    let measured = label
        .iter()
        .any(|t| t.kind == TokKind::Spread || signed_fraction(t));
    // A label a bar closes (`File Copy 1024 bufsize 2000 maxblocks |
    // 189.9 | 923.5`) is a cell of its own: the counts in it are part of
    // the name, however many words it has.
    let barred = label.last().is_some_and(|t| t.text.ends_with('|'))
        || values
            .first()
            .is_some_and(|t| t.kind == TokKind::Marker && t.text == "|");
    // So is a label of single-spaced words set apart from the values by a
    // gap (`File Copy 1024 bufsize 2000 maxblocks         3960.0   218859.0`):
    // a row name aligned as a column.
    let gapped = label.len() >= 2
        && label[0].kind == TokKind::Word
        && label.windows(2).all(|w| w[1].col <= w[0].end + 1)
        && !label.iter().any(|t| t.text.ends_with(['.', ',', ';']))
        && values
            .first()
            .zip(label.last())
            .is_some_and(|(v, l)| v.col >= l.end + 2);
    let cell = (barred || gapped) && !measured;
    if label.len() > MAX_LABEL_WORDS
        || label.iter().any(Tok::is_value) && (label.len() > 4 || measured) && !cell
    {
        // Values among many words: a list line, not a row.
        return keyed(toks);
    }
    // `CPU family: 6`: one `key: value` is the layout rules' to judge (an
    // attribute or a sample line), as in a list.
    if label.last().is_some_and(|t| t.text.ends_with(':'))
        && values.iter().filter(|t| t.is_value()).count() == 1
    {
        return LineKind::Text;
    }
    // A sentence that happens to end in a number is no row.
    if label.last().is_some_and(|t| t.text.ends_with(['.', ','])) && label.len() > 3 {
        return LineKind::Text;
    }
    LineKind::Data {
        label: label.to_vec(),
        values: values.to_vec(),
    }
}

/// A list of counts, each value before the words naming it, apart by
/// commas (`2 packets transmitted, 2 received, 0% packet loss, time
/// 1013ms`): pairs keyed by those words. An item may name its value first
/// (`time 1013ms`); two items at least put the value first. Keys are
/// words of letters (`insertions(+)` is none: a diffstat is no result).
fn counted_list(text: &str) -> Option<LineKind> {
    let items: Vec<&str> = text.trim().split(", ").collect();
    if items.len() < 2 {
        return None;
    }
    let word = |t: &Tok| {
        t.kind == TokKind::Word
            && t.text
                .chars()
                .all(|c| c.is_alphabetic() || c == '_' || c == '-')
    };
    let mut out = Vec::new();
    let mut value_first = 0;
    for item in items {
        let toks = tokens::tokens(item);
        let (value, key) = match &toks[..] {
            [v, rest @ ..]
                if v.is_value() && (1..=3).contains(&rest.len()) && rest.iter().all(word) =>
            {
                value_first += 1;
                (v, rest)
            }
            [rest @ .., v]
                if v.is_value() && (1..=2).contains(&rest.len()) && rest.iter().all(word) =>
            {
                (v, rest)
            }
            _ => return None,
        };
        let key: Vec<&str> = key.iter().map(|t| t.text.as_str()).collect();
        out.push((key.join(" "), value.clone()));
    }
    (value_first >= 2).then(|| LineKind::Pairs(String::new(), out))
}

/// A row whose label follows its values (`347258 ~ 0%  -18.2%  284195 ~ 0%
/// TOTAL softirqs.RCU`).
pub(super) fn trailing_label(toks: &[Tok]) -> Option<LineKind> {
    let first_word = toks.iter().position(|t| !t.in_values())?;
    let (values, label) = toks.split_at(first_word);
    (first_word > 0
        && values.iter().any(Tok::is_value)
        && label.iter().all(|t| !t.in_values())
        && label.len() <= MAX_LABEL_WORDS)
        .then(|| LineKind::Data {
            label: label.to_vec(),
            values: values.to_vec(),
        })
}

/// A row whose values stand between its label and a last text column
/// (`page_fault3/ enable THP   10092   -17.5%   8323   will-it-scale.per_thread_ops`,
/// `Tasks … cpu   Sat Apr 30 14:01:51 2005`): the words at both ends label
/// it. The values are a run of two or more with no word among them; the
/// last column is a name of a few words, not prose (no full stop).
pub(super) fn label_at_both_ends(toks: &[Tok]) -> Option<LineKind> {
    let first = toks.iter().position(Tok::in_values)?;
    let last = toks.iter().rposition(Tok::in_values)?;
    let (lead, rest) = toks.split_at(first);
    let (values, tail) = rest.split_at(last + 1 - first);
    let prose = |t: &Tok| t.text.ends_with(['.', ',', ';']);
    (!lead.is_empty()
        && lead.len() + tail.len() <= MAX_LABEL_WORDS
        && tail.len() <= 5
        && values.iter().all(Tok::in_values)
        && values.iter().filter(|t| t.is_value()).count() >= 2
        && !lead.iter().chain(tail).any(prose))
    .then(|| LineKind::Data {
        label: lead.iter().chain(tail).cloned().collect(),
        values: values.to_vec(),
    })
}

/// The last resort for a line of values among words (`Iter 0 (325.719us):
/// hits 5.105M/s, drops 0.000M/s`): each value keyed by the words right
/// before it. The line's leading words (and a count right after them) are
/// its label. A line of prose is none: it needs two values, few words
/// between them, and no full stop at its end.
pub(super) fn keyed(toks: Vec<Tok>) -> LineKind {
    let toks = trailing_units(toks);
    let values = toks.iter().filter(|t| t.is_value()).count();
    let words = toks.len() - values;
    let last = toks.last().map_or("", |t| t.text.as_str());
    // A row label set apart as a column of its own (`w/ parallel dio
    // reads | READ 78313KB/s, …`) is a name however many words it has.
    let column = label_column(&toks);
    // Keys are short: four words in a row are a phrase of prose.
    let mut run = 0;
    let mut longest = 0;
    for t in &toks[column.unwrap_or(0)..] {
        run = if t.kind == TokKind::Word { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    if values < 2 || words > values * 4 || last.ends_with('.') || longest >= 4 {
        return LineKind::Text;
    }
    let mut label: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < toks.len() && toks[i].kind == TokKind::Word && column.is_none_or(|c| i < c) {
        label.push(toks[i].text.trim_end_matches('|'));
        i += 1;
    }
    if i < toks.len() && toks[i].int_digits > 0 && toks.get(i + 1).is_some() {
        label.push(&toks[i].text);
        i += 1;
    }
    let label = label.join(" ").trim_end_matches(':').to_string();
    let mut out = Vec::new();
    let mut key: Vec<&str> = Vec::new();
    let mut last_key = String::new();
    for t in &toks[i..] {
        if t.is_value() {
            if !key.is_empty() {
                last_key = join_key(&key, "");
                key.clear();
            }
            out.push((last_key.clone(), t.clone()));
        } else if t.kind == TokKind::Word {
            key.push(&t.text);
        }
    }
    LineKind::Keyed(label, out)
}

/// The line's tokens with each word written after a value as its unit
/// (`4.5 C/MHz    132 mW    36.2 J`) joined to that value, when every
/// word after the line's first value is so written, twice or more: one
/// space after a value and set apart by a gap from the value after it (or
/// ending the line), it goes with the value before it. Read as keys, such
/// words named the value after them, each one column off. Units the unit
/// model knows were joined already by the tokens; these are the others
/// (`mW`, `I/mJ`). A line with other words among its values (top's `R
/// 99.7  0.0  7:02.58 ksoftirqd/0`) keeps them as they were.
pub(super) fn trailing_units(toks: Vec<Tok>) -> Vec<Tok> {
    let trails = |k: usize| {
        let (prev, t) = (&toks[k - 1], &toks[k]);
        t.kind == TokKind::Word
            && t.text.chars().any(char::is_alphabetic)
            && t.text.chars().all(|c| c.is_alphabetic() || c == '/')
            && prev.kind == TokKind::Num
            && prev.unit.is_empty()
            && t.col == prev.end + 1
            && toks
                .get(k + 1)
                .is_none_or(|n| n.is_value() && n.col >= t.end + 2)
    };
    let at: Vec<usize> = (1..toks.len()).filter(|&k| trails(k)).collect();
    let first_value = toks.iter().position(Tok::is_value).unwrap_or(toks.len());
    let words_among = (first_value..toks.len())
        .filter(|&k| toks[k].kind == TokKind::Word)
        .count();
    if at.len() < 2 || at.len() != words_among || at[0] <= first_value {
        return toks;
    }
    let mut out: Vec<Tok> = Vec::with_capacity(toks.len());
    for (k, t) in toks.into_iter().enumerate() {
        match out.last_mut() {
            Some(prev) if at.contains(&k) => {
                prev.unit = t.text;
                prev.end = t.end;
            }
            _ => out.push(t),
        }
    }
    out
}

/// Where the leading words of a line end when they are a column of their
/// own: a bar (`|`, alone or glued to the last word), a tab or a gap of two
/// or more spaces follows them. Prose runs on with single spaces.
fn label_column(toks: &[Tok]) -> Option<usize> {
    let end = toks.iter().position(|t| t.kind != TokKind::Word)?;
    let apart = |k: usize| {
        toks[k - 1].text.ends_with('|')
            || toks[k].col >= toks[k - 1].end + 2
            || (toks[k].kind == TokKind::Marker && toks[k].text == "|")
    };
    (1..=end.min(MAX_LABEL_WORDS)).find(|&k| apart(k))
}

/// The pairs of a `key=value, key: value` line, when every value of the
/// line is one; words before the first key are the line's prefix
/// (`slat (usec): min=2, max=196` → prefix `slat (usec)`).
pub(super) fn pairs(text: &str) -> Option<LineKind> {
    if !text.contains(['=', ':']) {
        return None;
    }
    let words: Vec<(usize, usize, &str)> = tokens::split(text)
        .into_iter()
        .flat_map(joined_pairs)
        .collect();
    let mut pending: Vec<&str> = Vec::new();
    let mut prefix = String::new();
    let mut out: Vec<(String, Tok)> = Vec::new();
    let mut key: Option<String> = None;
    for &(col, end, w) in &words {
        if let Some(k) = key.take() {
            let t = value_token(w, col, end)?;
            out.push((k, t));
            continue;
        }
        if let Some((k, v)) = w.split_once('=') {
            let k = join_key(&pending, k);
            pending.clear();
            if v.is_empty() {
                key = Some(k);
            } else {
                out.push((k, value_token(v, col, end)?));
            }
            continue;
        }
        if let Some(k) = w.strip_suffix(':') {
            let k = join_key(&pending, k);
            pending.clear();
            let next = words.iter().find(|x| x.0 > col);
            if next.is_some_and(|n| value_token(n.2, n.0, n.1).is_some()) {
                key = Some(k);
            } else if out.is_empty() {
                prefix = k;
            } else {
                return None;
            }
            continue;
        }
        if w == "," || w == ";" {
            continue;
        }
        match out.last_mut() {
            // A unit after a pair's value (`bw=618740 B/s`).
            Some((_, t))
                if pending.is_empty()
                    && t.unit.is_empty()
                    && super::super::lines::known_unit(w.trim_end_matches(',')) =>
            {
                t.unit = w.trim_end_matches(',').into();
            }
            _ => pending.push(w),
        }
    }
    // A lone `key: value` is the layout rules' to judge (an attribute or a
    // sample line); pairs with `=` or several on a line are a list.
    // Kernel config settings (`CONFIG_HZ=250`) are context, not values.
    if out.iter().any(|(k, _)| k.starts_with("CONFIG_")) {
        return None;
    }
    // A key that opens a bracket it does not close is a heading around a
    // setting (`Before(PAGE_SIZE=4096):`), not a list.
    if out
        .iter()
        .any(|(k, _)| k.matches('(').count() != k.matches(')').count())
    {
        return None;
    }
    if out.is_empty() || key.is_some() || (out.len() < 2 && !text.contains('=')) {
        return None;
    }
    // Trailing words are a remark (`(lowest).`) only when short.
    if pending.len() > 2 {
        return None;
    }
    Some(LineKind::Pairs(prefix, out))
}

/// A word of pairs joined by commas without a space (fio's
/// `r=27.5GiB/s,w=3125MiB/s`) as one word per pair; any other word as it is.
fn joined_pairs((col, end, w): (usize, usize, &str)) -> Vec<(usize, usize, &str)> {
    let is_pair = |p: &str| {
        p.split_once('=').is_some_and(|(k, v)| {
            k.starts_with(|c: char| c.is_alphabetic())
                && v.starts_with(|c: char| c.is_ascii_digit())
        })
    };
    let parts: Vec<&str> = w.split(',').filter(|p| !p.is_empty()).collect();
    if parts.len() < 2 || !parts.iter().all(|p| is_pair(p)) {
        return vec![(col, end, w)];
    }
    let mut at = col;
    let mut out = Vec::with_capacity(parts.len());
    for p in w.split(',') {
        let n = p.chars().count();
        if n > 0 {
            out.push((at, at + n, p));
        }
        at += n + 1;
    }
    out
}

pub(super) fn join_key(pending: &[&str], k: &str) -> String {
    let mut s = pending.join(" ");
    if !k.is_empty() {
        if !s.is_empty() {
            s.push(' ');
        }
        s.push_str(k);
    }
    s.trim_matches([',', ';', ' ']).to_string()
}

pub(super) fn value_token(w: &str, col: usize, end: usize) -> Option<Tok> {
    let t = tokens::tokens(w.trim_end_matches([',', ';']));
    match t.as_slice() {
        [t] if t.is_value() => Some(Tok {
            col,
            end,
            ..t.clone()
        }),
        _ => None,
    }
}

/// Mail headers, attributions, addresses and links: never data. (Unlike
/// [`labels::is_noise`], a `field: value` line is not noise here: it may
/// be a list.)
pub(super) fn is_mail_noise(text: &str) -> bool {
    let t = text.trim();
    let lower = t.to_lowercase();
    labels::NOISE_HEADERS.iter().any(|h| lower.starts_with(h))
        || lower.ends_with("wrote:")
        || t.contains('@')
        || lower.contains("http://")
        || lower.contains("https://")
}
