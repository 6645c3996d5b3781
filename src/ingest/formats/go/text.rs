//! The Go benchmark format (`go test -bench` output; golang.org/x/perf
//! benchfmt): `key: value` configuration lines, `Unit <unit> better=…`
//! metadata, and result lines
//! `BenchmarkName/key=value-N  <iterations>  <value> <unit> …`.
//!
//! Each result line is one sample of every `value unit` pair on it (the
//! iteration count is not a sample count). `/key=value` name parts become
//! params and the trailing `-N` (GOMAXPROCS) becomes `procs=N`, so names
//! agree across machines. A `note:` configuration value labels the variant.
//! `better=higher|lower` on a `Unit` line states the direction of that
//! unit's metric: see [`stated_directions`].

use crate::error::Result;
use crate::ingest::shared::logscan::{is_space, NameMap};
use crate::ingest::shared::numbers::parse_f64;
use crate::ingest::{Confidence, Format, Parsed, Pieces, Source};
use crate::model::{canonical_params, text_eq, Direction, Observation, SmolStr, Stat};
use regex::Regex;
use std::sync::LazyLock;

/// The `go test -bench` text importer.
pub struct GoText;

static RESULT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^Benchmark(\S*)\s+(\d+)((?:\s+[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s+\S+)+)\s*$",
    )
    .expect("static regex")
});
static CONFIG: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^([a-z][^\s:A-Z]*):\s+(.*)$").expect("static regex"));
// `ok  \tpkg\t38.144s`: go test's per-package line with its total time.
static PKG_OK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^ok\s+\S+\s+[\d.]+s\b").expect("static regex"));
static UNIT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^Unit\s+(\S+)((?:\s+\S+=\S+)+)\s*$").expect("static regex"));

/// The metric a Go unit measures and the unit as stored. Time per op of
/// any scale is one metric (`time/op`), so `ns/op` from `go test` and
/// `sec/op` from benchstat line up; allocation bytes and counts get names
/// that say lower is better; `MB/s` is throughput. Custom units are their
/// own metric.
pub(crate) fn metric_for_unit(unit: &str) -> (String, String) {
    let metric = match unit {
        "ns/op" | "sec/op" | "s/op" | "us/op" | "µs/op" | "ms/op" => "time/op",
        "B/op" => "alloc-bytes/op",
        "allocs/op" => "allocs/op",
        "MB/s" | "B/s" => "throughput",
        other => other,
    };
    let unit = if unit == "sec/op" { "s/op" } else { unit };
    (metric.to_string(), unit.to_string())
}

/// Splits a Go benchmark name (without the `Benchmark` prefix) into the
/// name and params: `Sort/n=100-2` → (`Sort`, `n=100,procs=2`).
pub(crate) fn split_name(name: &str) -> (String, String) {
    let mut params: Vec<(String, String)> = Vec::new();
    let mut base = name;
    if let Some((head, procs)) = name.rsplit_once('-') {
        if !procs.is_empty() && procs.bytes().all(|b| b.is_ascii_digit()) && !head.is_empty() {
            params.push(("procs".into(), procs.into()));
            base = head;
        }
    }
    let mut parts = Vec::new();
    for p in base.split('/') {
        match p.split_once('=') {
            Some((k, v)) if !k.is_empty() => params.push((k.into(), v.into())),
            _ => parts.push(p),
        }
    }
    (parts.join("/"), canonical_params(&params))
}

/// Directions stated by `Unit <unit> better=higher|lower` lines, as
/// (metric, direction) pairs in file order. The tidy table has no column
/// for it, so callers that care (analysis) ask for it here.
pub fn stated_directions(src: &Source) -> Vec<(String, Direction)> {
    let mut out = Vec::new();
    for l in &src.lines {
        if !l.text.starts_with("Unit") {
            continue;
        }
        let Some(c) = UNIT.captures(&l.text) else {
            continue;
        };
        for kv in c[2].split_whitespace() {
            if let Some(("better", v)) = kv.split_once('=') {
                if let Ok(d) = v.parse::<Direction>() {
                    out.push((metric_for_unit(&c[1]).0, d));
                }
            }
        }
    }
    out
}

/// Reads Go benchmark text given as (original line number, text) pairs;
/// shared with the `go test -json` importer, whose output arrives in events.
pub(crate) fn parse_lines<'a>(
    src: &Source,
    lines: impl Iterator<Item = (u32, &'a str)> + Clone,
) -> Result<Vec<Observation>> {
    Ok(scan(src, lines, false)?.observations)
}

/// What one line of Go benchmark text is, once its result (if any) is read.
enum Kind<'a> {
    /// A result line, or a line no rule reads.
    Other,
    /// `Unit <unit> key=value…`: the unit's metadata.
    Unit,
    /// go test's `ok  pkg  1.2s` line.
    PackageOk,
    /// `key: value` configuration.
    Config(&'a str, &'a str),
}

/// Classifies a line that is not a result. Only the first bytes decide
/// which rule can apply at all (every rule is anchored at the start), so
/// most lines are settled without running a regex.
fn classify(t: &str) -> Kind<'_> {
    match t.as_bytes().first() {
        Some(b'U') if t.starts_with("Unit") && UNIT.is_match(t) => Kind::Unit,
        Some(b'o') if t.starts_with("ok") && PKG_OK.is_match(t) => Kind::PackageOk,
        Some(b'a'..=b'z') => match CONFIG.captures(t) {
            Some(c) => match (c.get(1), c.get(2)) {
                (Some(k), Some(v)) => Kind::Config(k.as_str(), v.as_str()),
                _ => Kind::Other,
            },
            None => Kind::Other,
        },
        _ => Kind::Other,
    }
}

/// The start and end of the next whitespace-separated token of `b` at or
/// after `*i`, advancing `*i` past it.
fn next_token(b: &[u8], i: &mut usize) -> Option<(usize, usize)> {
    while *i < b.len() && is_space(b[*i]) {
        *i += 1;
    }
    let start = *i;
    while *i < b.len() && !is_space(b[*i]) {
        *i += 1;
    }
    (*i > start).then_some((start, *i))
}

/// True when `b` is a number as [`RESULT`] accepts it:
/// `[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?`.
fn is_go_number(b: &[u8]) -> bool {
    fn digits(b: &[u8], i: &mut usize) -> usize {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    }
    let mut i = 0;
    if matches!(b.first(), Some(b'-' | b'+')) {
        i += 1;
    }
    if digits(b, &mut i) > 0 {
        if b.get(i) == Some(&b'.') {
            i += 1;
            digits(b, &mut i);
        }
    } else if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(b, &mut i) == 0 {
            return false;
        }
    } else {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        if digits(b, &mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// The `value unit` pairs of a result line, borrowed from it.
type Pairs<'t> = Vec<(&'t str, &'t str)>;

/// A result line read without the regex: the name (without `Benchmark`),
/// with the `value unit` pairs after the iteration count put in `pairs`,
/// exactly what [`RESULT`]'s captures 1 and 3 hold. `None` when the line
/// is not ASCII or does not have that shape; the caller then asks the
/// regex, so this only has to be right when it answers.
fn fast_result<'t>(t: &'t str, pairs: &mut Pairs<'t>) -> Option<&'t str> {
    pairs.clear();
    let rest = t.strip_prefix("Benchmark")?;
    if !t.is_ascii() {
        return None;
    }
    let b = rest.as_bytes();
    let name_end = b.iter().position(|&c| is_space(c))?;
    let mut i = name_end;
    let (s, e) = next_token(b, &mut i)?;
    if !b[s..e].iter().all(u8::is_ascii_digit) {
        return None;
    }
    while let Some((vs, ve)) = next_token(b, &mut i) {
        let Some((us, ue)) = next_token(b, &mut i).filter(|_| is_go_number(&b[vs..ve])) else {
            pairs.clear();
            return None;
        };
        pairs.push((&rest[vs..ve], &rest[us..ue]));
    }
    if pairs.is_empty() {
        return None;
    }
    Some(&rest[..name_end])
}

/// The name of a result line, with its `value unit` pairs in `pairs`, or
/// `None` when it is not a result line.
fn result_parts<'t>(t: &'t str, pairs: &mut Pairs<'t>) -> Option<&'t str> {
    if !t.starts_with("Benchmark") {
        return None;
    }
    if let Some(name) = fast_result(t, pairs) {
        return Some(name);
    }
    let c = RESULT.captures(t)?;
    let (name, values) = (c.get(1)?.as_str(), c.get(3)?.as_str());
    let mut fields = values.split_whitespace();
    while let (Some(value), Some(unit)) = (fields.next(), fields.next()) {
        pairs.push((value, unit));
    }
    Some(name)
}

/// Reads Go benchmark text in one pass: results, plus (when `account`) the
/// lines read for context or skipped, plus the directions `Unit` lines
/// state. Names are split and units looked up once per distinct spelling,
/// and each value is a clone of a prepared row: a file of millions of
/// result lines costs no allocation per row.
fn scan<'a>(
    src: &Source,
    lines: impl Iterator<Item = (u32, &'a str)> + Clone,
    account: bool,
) -> Result<Parsed> {
    let state = State::new(qualifies(lines.clone().map(|(_, t)| t)));
    scan_from(src, lines, account, state)
}

/// `go test ./...` prints one block per package, and two packages may have
/// benchmarks of the same name: then the package qualifies them. True when
/// `lines` name more than one package.
fn qualifies<'a>(lines: impl Iterator<Item = &'a str>) -> bool {
    let mut pkgs: Vec<&str> = Vec::new();
    for t in lines {
        if !t.starts_with("pkg:") {
            continue;
        }
        if let Kind::Config("pkg", v) = classify(t.trim_end()) {
            if !pkgs.contains(&v.trim()) {
                pkgs.push(v.trim());
            }
        }
    }
    pkgs.len() > 1
}

/// What the configuration lines read so far have set.
struct State {
    /// Whether benchmark names carry their package ([`qualifies`]).
    qualify: bool,
    /// The last `note:`.
    variant: SmolStr,
    /// The last `pkg:`.
    pkg: String,
}

impl State {
    fn new(qualify: bool) -> State {
        State {
            qualify,
            variant: SmolStr::default(),
            pkg: String::new(),
        }
    }

    /// Takes in a `key: value` line; true when it changed the package.
    fn set(&mut self, key: &str, value: &str) -> bool {
        match key {
            "note" => self.variant = value.trim().into(),
            "pkg" if value.trim() != self.pkg => {
                self.pkg = value.trim().to_string();
                return true;
            }
            _ => {}
        }
        false
    }
}

/// [`scan`] from a given state: a piece of a large file starts with what
/// the lines before it set.
fn scan_from<'a>(
    src: &Source,
    lines: impl Iterator<Item = (u32, &'a str)> + Clone,
    account: bool,
    mut state: State,
) -> Result<Parsed> {
    let mut out = Vec::new();
    let mut consumed = Vec::new();
    let mut skipped = Vec::new();
    // Raw name → (benchmark, params); cleared when the package changes
    // names.
    let mut names: NameMap<&'a str, (SmolStr, SmolStr)> = NameMap::default();
    // Unit as written → a row with its metric and unit filled in.
    let mut units: NameMap<&'a str, Observation> = NameMap::default();
    // The unit and row of the previous line's k-th pair: the lines of a
    // file mostly repeat one set of units in one order.
    let mut slots: Vec<(&'a str, Observation)> = Vec::new();
    let mut pairs: Pairs<'a> = Vec::new();
    let lines_left = lines.size_hint().0;
    for (i, (n, text)) in lines.enumerate() {
        let t = text.trim_end();
        if let Some(name) = result_parts(t, &mut pairs) {
            if out.capacity() == 0 {
                // Most lines of a large file are results with as many
                // values as the first: room for them all at once (up to a
                // million rows, in case they are not), instead of copying
                // the rows at every doubling.
                let rest = lines_left.saturating_sub(i);
                out.reserve(rest.saturating_mul(pairs.len()).min(1 << 20));
            }
            let (bench, params) = match names.get(name) {
                Some(e) => e,
                None => {
                    let (mut bench, params) = split_name(name);
                    if state.qualify && !state.pkg.is_empty() {
                        bench = format!("{}.{bench}", state.pkg);
                    }
                    names.entry(name).or_insert((bench.into(), params.into()))
                }
            };
            for (k, &(value, unit)) in pairs.iter().enumerate() {
                let v: f64 = parse_f64(value)
                    .filter(|v: &f64| v.is_finite())
                    .ok_or_else(|| src.error(Some(n), format!("`{value}` is not a number")))?;
                if slots.get(k).is_none_or(|(u, _)| !text_eq(u, unit)) {
                    let template = units.entry(unit).or_insert_with(|| {
                        let (metric, unit) = metric_for_unit(unit);
                        Observation::new(SmolStr::default(), metric, &unit, Stat::Sample, 0.0)
                    });
                    let slot = (unit, template.clone());
                    match slots.get_mut(k) {
                        Some(s) => *s = slot,
                        None => slots.push(slot),
                    }
                }
                // Built field by field: cloning the template whole and then
                // replacing three names cloned and dropped them for nothing.
                let t = &slots[k].1;
                out.push(Observation {
                    source: t.source.clone(),
                    line: n,
                    benchmark: bench.clone(),
                    params: params.clone(),
                    variant: state.variant.clone(),
                    metric: t.metric.clone(),
                    unit: t.unit.clone(),
                    stat: t.stat,
                    value: v,
                    run: t.run,
                    direction: t.direction,
                });
            }
            continue;
        }
        match classify(t) {
            Kind::Other => {}
            Kind::Unit => {
                if account {
                    consumed.push(n);
                }
            }
            Kind::PackageOk => {
                if account {
                    let why = "go test's total time for the package, not a benchmark";
                    skipped.push((n, why.to_string()));
                }
            }
            Kind::Config(key, value) => {
                if state.set(key, value) && state.qualify {
                    names.clear();
                }
                if account {
                    if matches!(key, "pkg" | "note") {
                        consumed.push(n);
                    } else {
                        skipped.push((n, format!("configuration `{key}`, not a result")));
                    }
                }
            }
        }
    }
    Ok(Parsed {
        observations: out,
        consumed,
        skipped,
        ..Parsed::default()
    })
}

impl Format for GoText {
    fn name(&self) -> &'static str {
        "go-bench"
    }

    fn description(&self) -> &'static str {
        "Go benchmark format (go test -bench): `BenchmarkX-N  iters  v unit …` lines, `key: value` config, `Unit … better=`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        let mut pairs = Vec::new();
        let results = src
            .lines
            .iter()
            .filter(|l| result_parts(l.text.trim_end(), &mut pairs).is_some())
            .count();
        if results == 0 {
            return 0;
        }
        let context = src.lines.iter().any(|l| {
            CONFIG.is_match(&l.text)
                || UNIT.is_match(&l.text)
                || l.text == "PASS"
                || l.text.starts_with("ok  ")
        });
        if context {
            90
        } else {
            70
        }
    }

    /// `pkg:`/`note:` and `Unit` lines are `consumed` (they name and direct
    /// the results); other configuration lines and go test's per-package
    /// `ok` line are `skipped` with the reason.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut parsed = scan(
            src,
            src.lines.iter().map(|l| (l.number, l.text.as_str())),
            true,
        )?;
        apply_stated_directions(&mut parsed, src);
        Ok(parsed)
    }

    /// Result lines are read one by one, given the `pkg:` and `note:`
    /// lines before them and whether the file names several packages;
    /// `Unit` lines anywhere state directions for the whole file. So a
    /// large file is read in pieces, with those lines collected from all
    /// of it.
    fn pieces(&self, _head: &Source) -> Option<Pieces> {
        Some(Pieces {
            header_lines: 0,
            context: Some(|line| {
                line.starts_with("pkg:") || line.starts_with("note:") || line.starts_with("Unit")
            }),
            ..Default::default()
        })
    }

    fn parse_piece(&self, head: &Source, body: &Source) -> Result<Parsed> {
        let first = body.first_line();
        let mut state = State::new(qualifies(head.lines.iter().map(|l| l.text.as_str())));
        for l in head.lines.iter().take_while(|l| l.number < first) {
            if let Kind::Config(key, value) = classify(l.text.trim_end()) {
                state.set(key, value);
            }
        }
        let lines = body.lines.iter().map(|l| (l.number, l.text.as_str()));
        let mut parsed = scan_from(body, lines, true, state)?;
        apply_stated_directions(&mut parsed, head);
        Ok(parsed)
    }
}

/// Gives the rows the directions the `Unit` lines of `src` state.
fn apply_stated_directions(parsed: &mut Parsed, src: &Source) {
    let stated = stated_directions(src);
    if !stated.is_empty() {
        for o in parsed.observations.iter_mut() {
            o.direction = stated.iter().find(|(m, _)| *m == o.metric).map(|(_, d)| *d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_lose_procs_and_params() {
        assert_eq!(
            split_name("Sort/n=100-2"),
            ("Sort".into(), "n=100,procs=2".into())
        );
        assert_eq!(
            split_name("JoinNums-2"),
            ("JoinNums".into(), "procs=2".into())
        );
        assert_eq!(split_name("Size"), ("Size".into(), "".into()));
        assert_eq!(
            split_name("Encode/small/format=json-48"),
            ("Encode/small".into(), "format=json,procs=48".into())
        );
    }

    /// The scanner answers exactly as the regex does whenever it answers.
    fn agrees_with_regex(line: &str) {
        let t = line.trim_end();
        let want = RESULT.captures(t).map(|c| {
            let values: Vec<&str> = c[3].split_whitespace().collect();
            let pairs: Vec<(String, String)> = values
                .chunks(2)
                .map(|p| (p[0].to_string(), p[1].to_string()))
                .collect();
            (c[1].to_string(), pairs)
        });
        let owned = |name: &str, pairs: &Pairs| {
            let pairs = pairs
                .iter()
                .map(|(v, u)| (v.to_string(), u.to_string()))
                .collect::<Vec<_>>();
            (name.to_string(), pairs)
        };
        let mut pairs = Vec::new();
        if let Some(name) = fast_result(t, &mut pairs) {
            assert_eq!(Some(owned(name, &pairs)), want, "{line:?}");
        }
        let got = result_parts(t, &mut pairs).map(|name| owned(name, &pairs));
        assert_eq!(got, want, "{line:?}");
    }

    #[test]
    fn scanner_reads_result_lines_as_the_regex_does() {
        for line in [
            "BenchmarkGen0/n=10-2 \t  200000\t      1012 ns/op\t      24 B/op",
            "Benchmark 100 5 ns/op",
            "Benchmark\t100\t5 ns/op  ",
            "BenchmarkX-8 100 1. ns/op .5 B/op -3e+2 x +4E7 y",
            "BenchmarkX-8 100 . ns/op",
            "BenchmarkX-8 100 1e ns/op",
            "BenchmarkX-8 100 5 ns/op 7",
            "BenchmarkX-8 100",
            "BenchmarkX-8 1a0 5 ns/op",
            "BenchmarkX-8\u{b}100\u{c}5\rns/op",
            "BenchmarkX-8 100 5 µs/op",
            "BenchmarkX-8 ٣ 5 ns/op",
            "BenchmarkX-8\u{a0}100 5 ns/op",
            "BenchmarkX",
            "Benchmarks run: 5 x y",
            "--- BENCH: BenchmarkX-8",
        ] {
            agrees_with_regex(line);
        }
    }

    proptest::proptest! {
        #[test]
        fn scanner_agrees_with_the_regex_on_any_tokens(
            toks in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::string::string_regex("[0-9]{1,4}").unwrap(),
                    proptest::string::string_regex("[-+]?[0-9]{0,3}[.]?[0-9]{0,3}([eE][-+]?[0-9]{0,2})?").unwrap(),
                    proptest::string::string_regex("[a-zA-Z/µ=.-]{0,6}").unwrap(),
                ],
                0..8,
            ),
            seps in proptest::collection::vec(
                proptest::string::string_regex("[ \t\u{b}\u{c}\u{a0}]{1,3}").unwrap(),
                8,
            ),
            name in "[A-Za-z0-9/=_-]{0,8}",
        ) {
            let mut line = format!("Benchmark{name}");
            for (t, s) in toks.iter().zip(&seps) {
                line.push_str(s);
                line.push_str(t);
            }
            agrees_with_regex(&line);
        }
    }

    #[test]
    fn benchmarks_of_several_packages_are_qualified() {
        let text = "pkg: a/x\nBenchmarkF-2 10 5 ns/op\npkg: a/y\nBenchmarkF-2 10 7 ns/op\n";
        let obs = GoText.parse(&Source::from_text("p.txt", text)).unwrap();
        assert_eq!(obs[0].benchmark, "a/x.F");
        assert_eq!(obs[1].benchmark, "a/y.F");
        let one = GoText
            .parse(&Source::from_text(
                "p.txt",
                "pkg: a/x\nBenchmarkF-2 10 5 ns/op\n",
            ))
            .unwrap();
        assert_eq!(one[0].benchmark, "F");
    }

    #[test]
    fn unit_lines_state_directions() {
        let src = Source::from_text(
            "u.txt",
            "Unit text-bytes assume=exact better=lower\nUnit MB/s better=higher\n",
        );
        assert_eq!(
            stated_directions(&src),
            vec![
                ("text-bytes".into(), Direction::Lower),
                ("throughput".into(), Direction::Higher)
            ]
        );
    }

    #[test]
    fn configuration_and_package_lines_are_accounted_for() {
        let path = "tests/data/corpus/go-baseline-1.txt";
        let p = crate::ingest::parse_file(&GoText, path);
        assert_eq!(p.consumed, vec![3]);
        let skipped: Vec<(u32, &str)> = p.skipped.iter().map(|(l, w)| (*l, w.as_str())).collect();
        assert_eq!(skipped[2], (4, "configuration `cpu`, not a result"));
        assert_eq!(skipped[3].0, 30);
        assert!(skipped[3].1.contains("total time for the package"));
    }
}
