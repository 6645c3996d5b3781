//! The numbers of lines a rule read that none of the line's rows came from:
//! a column the rule's table had no header for, a number after a unit, a
//! second pair on one line. Each is either read by the fallback (named by
//! the line's words and the header cell over it, marked `read=fallback`)
//! or, where it is clearly no value (a date, a version, the index opening a
//! row, a command's option), named in the file's account with the reason:
//! every number of a line that gave rows gave a row or is accounted.

use super::fallback;
use super::grid::{number, Tok, TokKind};
use super::labels;
use crate::ingest::{Line, Source};
use crate::model::{Observation, Unit};
use hashbrown::HashMap;

/// What the numbers no row came from give.
#[derive(Debug, Default)]
pub struct Unclaimed {
    /// The values read by the fallback, marked as such.
    pub rows: Vec<Observation>,
    /// One entry per line with numbers left out: the numbers and why.
    pub skipped: Vec<(u32, String)>,
}

/// The numbers of the lines of `src` that gave some of `rows` and that no
/// row came from. Where `guess` (a document of prose: see
/// [`super::mixed::is_prose_document`]) those that may be values are read
/// by the fallback; elsewhere they are accounted as not read, as the
/// fallback reads no bare tool output.
pub fn read(src: &Source, rows: &[Observation], guess: bool) -> Unclaimed {
    let mut by_line: HashMap<u32, Vec<&Observation>> = HashMap::new();
    for o in rows.iter().filter(|o| o.line > 0) {
        by_line.entry(o.line).or_default().push(o);
    }
    let mut out = Unclaimed::default();
    for (i, l) in src.lines.iter().enumerate() {
        let Some(line_rows) = by_line.get(&l.number) else {
            continue;
        };
        if plain_values_only(&l.text, line_rows) {
            continue;
        }
        let toks = fallback::tokens(&l.text);
        let numbers: Vec<usize> = (0..toks.len())
            .filter(|&k| fallback::is_value(&toks[k]) || toks[k].kind == TokKind::Spread)
            .collect();
        let left = unclaimed(&l.text, &toks, &numbers, line_rows);
        if left.is_empty() {
            continue;
        }
        // The fallback names a value by its place among the line's values.
        let values: Vec<usize> = numbers
            .iter()
            .copied()
            .filter(|&k| fallback::is_value(&toks[k]))
            .collect();
        let mut guessed = Vec::new();
        let mut not_values = Vec::new();
        for k in left {
            match not_a_value(&toks, k) {
                Some(why) => not_values.push(format!("`{}` ({why})", toks[k].text)),
                // Every number but a spread is among the values.
                None => guessed.extend(values.iter().position(|&v| v == k)),
            }
        }
        if !guessed.is_empty() && guess {
            let header = fallback::header_above(&src.lines, table_top(&src.lines, i, &by_line));
            fallback::read_line(l, header, |n| guessed.contains(&n), &mut out.rows);
        } else if !guessed.is_empty() {
            let list: Vec<String> = guessed
                .iter()
                .map(|&n| format!("`{}`", toks[values[n]].text))
                .collect();
            out.skipped.push((
                l.number,
                format!(
                    "numbers the rule that read the line did not take, in a document that is \
                     no mail: {}",
                    list.join(", ")
                ),
            ));
        }
        if !not_values.is_empty() {
            out.skipped.push((
                l.number,
                format!(
                    "numbers on a line read otherwise that are no values: {}",
                    not_values.join(", ")
                ),
            ));
        }
    }
    out
}

/// Whether every number of `text` is a plain decimal (`1.234`, `-7`) that
/// is, exactly, the value of a row of its own: then no number is left, and
/// the line need not be tokenised (the bulk of a big log, `Time: 1.234`).
/// Any other word holding a digit, or a word that may read as NaN or an
/// infinity, leaves the line to the full pass.
pub(super) fn plain_values_only(text: &str, rows: &[&Observation]) -> bool {
    let may_spell_non_finite = text
        .as_bytes()
        .windows(3)
        .any(|w| w.eq_ignore_ascii_case(b"nan") || w.eq_ignore_ascii_case(b"inf"));
    if may_spell_non_finite {
        return false;
    }
    let mut taken = FreeSlots::new(rows.len());
    let mut memo = hashbrown::HashMap::new();
    for (i, w) in text.split_ascii_whitespace().enumerate() {
        if !w.bytes().any(|b| b.is_ascii_digit()) {
            continue;
        }
        // A row label holding digits (`case-12`), which every row of the
        // line took into its names, is the rows' key: the full pass claims
        // its digits as part of a word that is no number. Only a plain name
        // (a letter first; letters, digits, `-`, `_`, `.`): a key glued to
        // a value (`cost:602`) or one opening with a figure (`50.0th`) is
        // the full pass's to read or account.
        if i == 0 && labels::plain_name(w, true) && rows.iter().all(|r| names(r, w)) {
            continue;
        }
        let body = w.strip_prefix('-').unwrap_or(w);
        let plain = body.bytes().all(|b| b.is_ascii_digit() || b == b'.')
            && body.bytes().filter(|&b| b == b'.').count() <= 1;
        let Some(v) = plain.then(|| w.parse::<f64>().ok()).flatten() else {
            return false;
        };
        match taken.first_free_keyed(&mut memo, v.to_bits(), |r| rows[r].value == v) {
            Some(r) => taken.take(r),
            // A row's setting written as on the line (`| 512 |` under
            // `threads=512`), which the full pass claims as a setting
            // whatever the other numbers are.
            None if !w.starts_with('-') && rows.iter().any(|r| holds_setting(r, w)) => {}
            None => return false,
        }
    }
    true
}

/// Whether one of `o`'s settings has `w` as its value, written alike.
fn holds_setting(o: &Observation, w: &str) -> bool {
    setting_values(o).any(|v| v == w)
}

/// The values of `o`'s settings (`512` of `threads=512`), as the fast
/// path and the full pass both claim them.
fn setting_values(o: &Observation) -> impl Iterator<Item = &str> {
    o.params
        .split(',')
        .filter_map(|kv| kv.split_once('=').map(|(_, v)| v.trim()))
}

/// Whether `o`'s benchmark or params hold `w` as a whole word.
fn names(o: &Observation, w: &str) -> bool {
    let word = |t: &str| {
        t.split(|c: char| c.is_whitespace() || c == ',' || c == '=')
            .any(|x| x == w)
    };
    word(&o.benchmark) || word(&o.params)
}

/// Those of `numbers` (indices of `toks`, the tokens of `text`) that no
/// row of the line came from. A row claims a number equal to its value (in
/// its own unit or one the number's converts to). A number a row keeps as
/// a setting (`threads=8`) is claimed, and so is one written in a row's
/// names where it is a key: a whole number opening the line (`64k | 10.7`,
/// `4  4,340`), one counting the word after it (`4 jobs`, not a unit), or
/// part of a word that is no number (`1x32`). A value a rule took into a name
/// (`numa01 340.3 192.3 |` as a benchmark) is no key: it is left.
fn unclaimed(text: &str, toks: &[Tok], numbers: &[usize], rows: &[&Observation]) -> Vec<usize> {
    let mut slots = FreeSlots::new(numbers.len());
    // `same_value` asks only a row's value and unit.
    let mut memo = hashbrown::HashMap::new();
    for o in rows {
        let key = (o.value.to_bits(), o.unit.as_str());
        if let Some(n) =
            slots.first_free_keyed(&mut memo, key, |n| same_value(&toks[numbers[n]], o))
        {
            slots.take(n);
        }
    }
    let mut free = slots.free;
    // The common line: each number is a row's value. Nothing is left, and
    // the names below (a split of the line, every row's words) need not
    // be made.
    if !free.contains(&true) {
        return Vec::new();
    }
    let settings: Vec<&str> = rows.iter().flat_map(|o| setting_values(o)).collect();
    // A set: a line of many numbers asks it once per number.
    let names: hashbrown::HashSet<&str> = rows
        .iter()
        .flat_map(|o| [&o.benchmark, &o.params, &o.variant, &o.metric])
        .flat_map(|f| f.split_whitespace())
        .map(|x| x.trim_matches(['|', ',', ':']))
        .collect();
    let words = super::grid::split(text);
    // The line's first token, markers aside: a key column's place.
    let opening = toks.iter().position(|k| k.kind != TokKind::Marker);
    // A whole number before the first value a row took is part of the
    // row's label (`hackbench 50  2.99 +/- 0.01`), not a value left over.
    let first_value = (0..numbers.len())
        .filter(|&n| !free[n])
        .map(|n| numbers[n])
        .min();
    for n in 0..numbers.len() {
        let at = numbers[n];
        let t = &toks[at];
        let bare = t.text.trim_matches(|c: char| !c.is_alphanumeric());
        let as_number = |w: &str| number(w).is_some_and(|(v, _, _)| close(v, t.value));
        if !free[n] {
            continue;
        }
        if settings.iter().any(|w| *w == bare || as_number(w)) {
            free[n] = false;
            continue;
        }
        // The whitespace-separated word the number was read from.
        // The words come in order of their columns, which do not overlap.
        let word = words
            .get(words.partition_point(|(_, end, _)| *end <= t.col))
            .filter(|(col, _, _)| *col <= t.col)
            .map_or(t.text.as_str(), |(_, _, w)| w);
        let named = |w: &str| names.contains(w);
        if !named(word) && !named(bare) {
            continue;
        }
        let whole = t.value.fract() == 0.0 && !t.text.contains('.') && t.unit.is_empty();
        let counts_word = toks.get(at + 1).is_some_and(|k| {
            k.kind == TokKind::Word
                && k.text.starts_with(|c: char| c.is_alphabetic())
                && !super::lines::known_unit(&k.text)
        });
        let in_word = number(word).is_none() && !word.contains(['=', ':']);
        // An option's value (`-c 8`) is left to be accounted as one.
        let after_option = at > 0 && toks[at - 1].text.starts_with('-');
        let in_label = whole && !after_option && first_value.is_some_and(|f| at < f);
        if in_word || (whole && Some(at) == opening) || counts_word || in_label {
            free[n] = false;
        }
    }
    (0..numbers.len())
        .filter(|&n| free[n])
        .map(|n| numbers[n])
        .collect()
}

/// Slots `0..len`, each free until taken, and the first free one that
/// passes a test: what `(0..len).find(|&n| free[n] && test(n))` gives,
/// without walking past the slots already taken (a line of 10^5 numbers,
/// each a row's value in order, is one pass, not one per number).
struct FreeSlots {
    free: Vec<bool>,
    /// For each slot, a slot at or before the first free one from it on
    /// (`len` when none is): taken slots point past themselves.
    next: Vec<usize>,
}

impl FreeSlots {
    fn new(len: usize) -> Self {
        FreeSlots {
            free: vec![true; len],
            next: (0..=len).collect(),
        }
    }

    /// The first free slot at `n` or after it, shortening the way there.
    fn free_from(&mut self, mut n: usize) -> usize {
        while self.next[n] != n {
            self.next[n] = self.next[self.next[n]];
            n = self.next[n];
        }
        n
    }

    /// The first free slot at `from` or after it that passes `test`.
    fn first_free_from(
        &mut self,
        from: usize,
        mut test: impl FnMut(usize) -> bool,
    ) -> Option<usize> {
        let mut n = self.free_from(from.min(self.free.len()));
        while n < self.free.len() {
            if test(n) {
                return Some(n);
            }
            n = self.free_from(n + 1);
        }
        None
    }

    /// The first free slot passing a test that gives the same answers
    /// for the same `key`: slots are only ever taken, so the slots before
    /// the one the last such test found fail it again, and the search
    /// goes on from there (a line of one figure repeated 10^5 times, each
    /// a row's, is one pass, not one per row).
    fn first_free_keyed<K: std::hash::Hash + Eq>(
        &mut self,
        memo: &mut hashbrown::HashMap<K, usize>,
        key: K,
        test: impl FnMut(usize) -> bool,
    ) -> Option<usize> {
        let from = memo.get(&key).copied().unwrap_or(0);
        let found = self.first_free_from(from, test);
        memo.insert(key, found.unwrap_or(self.free.len()));
        found
    }

    fn take(&mut self, n: usize) {
        self.free[n] = false;
        self.next[n] = n + 1;
    }
}

/// Whether row `o` holds the value of token `t`: as written, without its
/// sign (a change kept as a size), or in the row's unit.
fn same_value(t: &Tok, o: &Observation) -> bool {
    close(t.value, o.value)
        || close(t.value.abs(), o.value.abs())
        || Unit::parse(&t.unit)
            .convert(t.value, &Unit::parse(&o.unit))
            .is_some_and(|v| close(v, o.value))
}

/// Equal to within rounding: a rule may rescale a value (`1.5K`).
fn close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

/// Why the number at `at` of a line is clearly no value, if it is one of
/// the kinds a table line holds besides its values.
fn not_a_value(toks: &[Tok], at: usize) -> Option<&'static str> {
    let t = &toks[at];
    // `64:`, `32k:`, `[127]:`, `99.5th:`: a key naming what follows it.
    if t.text.ends_with(':') {
        return Some("a key naming the values after it");
    }
    if t.kind == TokKind::Spread {
        return Some("the spread of the value before it, which the rule did not keep");
    }
    let word = |k: Option<&Tok>| {
        k.filter(|k| k.kind == TokKind::Word)
            .map(|k| {
                k.text
                    .trim_matches([',', '.', ':', '(', ')'])
                    .to_ascii_lowercase()
            })
            .unwrap_or_default()
    };
    let before = word(at.checked_sub(1).and_then(|k| toks.get(k)));
    let after = word(toks.get(at + 1));
    // `-j 8`, `--numjobs=4`: a command's option, not its result (a label
    // ending with a colon, `-THP:`, is none).
    let option = |w: &str| w.starts_with('-') && w[1..].starts_with(|c: char| c.is_alphabetic());
    let raw_before = at.checked_sub(1).map_or("", |k| toks[k].text.as_str());
    if (option(&before) && !raw_before.ends_with(':')) || (option(&t.text) && t.text.contains('='))
    {
        return Some("a command's option");
    }
    if is_month_or_day(&before) || is_month_or_day(&after) {
        return Some("part of a date");
    }
    if VERSIONED.contains(&before.as_str()) {
        return Some("a version");
    }
    // `1 | msg_zerocopy | 18281`, `16     1.00`: a whole number without a
    // unit that opens the row counts the rows or keys them.
    let first = toks.iter().position(|k| k.kind != TokKind::Marker) == Some(at);
    let whole = t.value.fract() == 0.0 && !t.text.contains('.') && t.unit.is_empty();
    if first && whole {
        return Some("the index or key opening the row");
    }
    None
}

/// Words a version number follows.
const VERSIONED: [&str; 8] = [
    "v", "version", "kernel", "linux", "gcc", "clang", "release", "glibc",
];

/// Whether `w` names a month or a day of the week (`Jan`, `Tuesday`).
fn is_month_or_day(w: &str) -> bool {
    const NAMES: [&str; 19] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec", "mon",
        "tue", "wed", "thu", "fri", "sat", "sun",
    ];
    w.len() >= 3
        && NAMES.iter().any(|n| w.starts_with(n))
        && w.chars().all(|c| c.is_ascii_alphabetic())
        && (w.len() == 3 || FULL.iter().any(|f| f.starts_with(w)))
}

/// The full names whose first letters a date may write.
const FULL: [&str; 19] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];

/// The first line of the run of lines that gave rows and holds line `at`
/// (at its quote depth): the header of a table is looked for above its
/// rows, not above the one row.
fn table_top(lines: &[Line], at: usize, read: &HashMap<u32, Vec<&Observation>>) -> usize {
    let depth = lines[at].quote_depth;
    let mut top = at;
    while top > 0
        && lines[top - 1].quote_depth == depth
        && read.contains_key(&lines[top - 1].number)
    {
        top -= 1;
    }
    top
}

#[cfg(test)]
mod slot_tests {
    use super::FreeSlots;

    #[test]
    fn the_first_free_slot_is_the_one_a_scan_finds() {
        // Values 3 1 3 2 1 3 taken by tests in this order: each takes the
        // first free equal one, as a scan from 0 would.
        let values = [3, 1, 3, 2, 1, 3];
        let mut slots = FreeSlots::new(values.len());
        let mut free = [true; 6];
        for want in [3, 3, 1, 2, 3, 1, 1, 4] {
            let scan = (0..values.len()).find(|&n| free[n] && values[n] == want);
            let got = slots.first_free_from(0, |n| values[n] == want);
            assert_eq!(got, scan, "{want}");
            if let Some(n) = got {
                slots.take(n);
                free[n] = false;
            }
        }
        assert_eq!(slots.free, free);
    }

    #[test]
    fn a_keyed_search_finds_what_a_scan_finds() {
        // Tests keyed by the value they look for: a later test of the same
        // key resumes where the last one stopped, and finds what a scan
        // from 0 finds, found or not, whatever was taken in between.
        let values = [5, 1, 3, 1, 3, 2, 3, 1, 5, 3];
        let mut slots = FreeSlots::new(values.len());
        let mut memo = hashbrown::HashMap::new();
        let mut free = [true; 10];
        for want in [3, 1, 3, 9, 5, 3, 1, 9, 3, 2, 3, 1, 1, 5, 5] {
            let scan = (0..values.len()).find(|&n| free[n] && values[n] == want);
            let got = slots.first_free_keyed(&mut memo, want, |n| values[n] == want);
            assert_eq!(got, scan, "{want}");
            if let Some(n) = got {
                slots.take(n);
                free[n] = false;
            }
        }
        assert_eq!(slots.free, free);
    }
}
