//! Mails that paste a harness's output among other tables: the harness's
//! importer reads its part, the document reader the rest.
//!
//! A file with written sentences in it is a document, whatever tool output
//! it quotes: an importer that recognised one pasted block (an mmtests
//! compare table, a kernbench summary) reads that block and leaves the
//! other tables of the mail unread, or finds the mail malformed as a log of
//! its own. In such a document the lines the importer did not read are
//! read by the document reader, and when the importer fails on it the
//! document reader reads all of it. On the lines the importer read, the
//! document reader's values the importer did not give are kept too
//! ([`super::beyond`]).
//!
//! Whether a file is such a document is judged on the lines the importer
//! left: a harness log whose own lines read like sentences is still a log,
//! and gets no rows nor variants from the document reader. Any file may
//! hold a second tool's output (a shell's `time` line after the run), so
//! the other importers are offered the lines left in either case.

use super::Document;
use crate::error::Result;
use crate::ingest::{Format, Parsed, Registry, Source};

/// What [`read`] gives: the rows, and the importer's refusal when the
/// document reader read the file in its place.
pub struct Reading {
    pub parsed: Parsed,
    /// The error of the importer detection chose, when it refused a
    /// document of prose that the document reader then read: the driver
    /// accounts the rows to the document reader and says why.
    pub refused: Option<crate::Error>,
}

impl From<Parsed> for Reading {
    fn from(parsed: Parsed) -> Self {
        Reading {
            parsed,
            refused: None,
        }
    }
}

/// Reads `src` with `format`, supplemented by the document reader where
/// `src` is a document of prose (see the module documentation).
pub fn read(registry: &Registry, format: &dyn Format, src: &Source) -> Result<Reading> {
    let own = format.parse_accounted(src);
    // A format the user described (an extractor) reads what it was told
    // to, and nothing more.
    if format.name() == Document.name() || !Registry::is_builtin(format.name()) {
        return own.map(Reading::from);
    }
    let mut parsed = match own {
        Ok(p) => p,
        // An importer certain that the file is its tool's output refuses
        // it for a reason of that tool (a run whose checksums failed): a
        // log with a line or two that read like prose (CoreMark's `(e.g.
        // code in flash, data on heap etc)`) stays refused, or the
        // document reader would read the refused figures. A mail, whose
        // paragraphs no log holds, quotes the tool among its own tables:
        // refusing it would lose them all.
        Err(e)
            if is_prose_document(src) && (format.detect(src) < CERTAIN || has_sentences(src)) =>
        {
            // The document reader's reading, when it has one; the
            // importer's error otherwise, which names the line.
            let doc = Document
                .parse_accounted(src)
                .map(|d| without_own_lines(format, src, d));
            return match doc {
                Ok(d) if !d.observations.is_empty() => Ok(Reading {
                    parsed: d,
                    refused: Some(e),
                }),
                _ => Err(e),
            };
        }
        Err(e) => return Err(e),
    };
    let mut used = used_lines(&parsed);
    // The sentences that make a document are the writer's, not the
    // harness's: a line the importer read or accounted for is its output
    // (schbench's `Wakeup Latencies percentiles (usec) runtime 10 (s)`
    // has the words of a sentence), so only the other lines are weighed.
    // A log of tools' output alone has no headings to name builds by and
    // no tables between its runs: its unclaimed lines (`warmup done,
    // zeroing stats`) are neither.
    let prose = is_prose(
        src.lines
            .iter()
            .filter(|l| used.binary_search(&l.number).is_err())
            .map(|l| l.text.as_str()),
    );
    if prose {
        super::sections::name_variants(src, &mut parsed.observations, &used);
    }
    let mut names = vec![format.name()];
    for _ in 0..MORE_HARNESSES {
        let Some((other, mut more)) = another_harness(registry, src, &used, &names) else {
            break;
        };
        let more_used = used_lines(&more);
        if prose {
            super::sections::name_variants(src, &mut more.observations, &more_used);
        }
        names.push(other);
        used.extend(more_used);
        used.sort_unstable();
        used.dedup();
        parsed.observations.append(&mut more.observations);
        parsed.consumed.append(&mut more.consumed);
        parsed.skipped.append(&mut more.skipped);
    }
    if !prose {
        return Ok(parsed.into());
    }
    let Ok(doc) = Document.parse_accounted(src) else {
        return Ok(parsed.into());
    };
    // The fallback's rows come last, on lines nothing else read.
    let (guessed, observations): (Vec<_>, Vec<_>) = doc
        .observations
        .into_iter()
        .partition(super::fallback::is_fallback);
    // A loop's lines between the runs (a counter, a banner, a date) are
    // said to be such, and give the document reader no value.
    let texts = src.lines.iter().map(|l| (l.number, l.text.as_str()));
    let between = crate::ingest::shared::loop_lines::separators(texts, &used);
    let why = "printed between runs of the log (a loop's counter, banner or date): not a result";
    parsed
        .skipped
        .extend(between.iter().map(|&n| (n, why.to_string())));
    used.extend(between);
    used.sort_unstable();
    let unread = |l: u32| l > 0 && used.binary_search(&l).is_err();
    let (mut rest, on_read_lines): (Vec<_>, Vec<_>) = observations
        .into_iter()
        .filter(|o| o.line > 0)
        .partition(|o| unread(o.line));
    // The lines whose rows the document reader gives here: the numbers
    // its rules left on them are its fallback's, and its account of them
    // is kept.
    let mut own: Vec<u32> = rest.iter().map(|o| o.line).collect();
    own.sort_unstable();
    own.dedup();
    // Only a mail's paragraphs, not a log's few wordy frame lines
    // (netpipe's `Send and receive buffers are … bytes`, pyperf's advice
    // printed after each benchmark), make its importer's lines ones a
    // writer pasted among other values.
    let mails = has_sentences(src);
    let beyond = if mails {
        super::beyond::values_beyond(&parsed.observations, on_read_lines, |n| {
            src.lines
                .binary_search_by_key(&n, |l| l.number)
                .map_or("", |i| src.lines[i].text.as_str())
        })
    } else {
        Vec::new()
    };
    super::builds_below::name_builds_below(&parsed.observations, &mut rest);
    parsed.observations.extend(rest);
    parsed.observations.extend(beyond);
    if mails {
        let more = labelled_lines_left(src, &used, &parsed.observations);
        parsed.observations.extend(more);
    }
    let mut read: Vec<u32> = parsed.observations.iter().map(|o| o.line).collect();
    read.sort_unstable();
    let mine = |l: &u32| own.binary_search(l).is_ok();
    parsed.observations.extend(
        guessed
            .into_iter()
            .filter(|o| unread(o.line) && (read.binary_search(&o.line).is_err() || mine(&o.line))),
    );
    parsed
        .skipped
        .extend(doc.skipped.into_iter().filter(|(l, _)| mine(l)));
    Ok(parsed.into())
}

/// The values of `label: value` lines of a mail that neither its harness's
/// importer (`used`) nor the document reader (`rows`) read, as the generic
/// reader reads them: a pktgen run's `Interrupts: 3234740` between its
/// result lines is in no table and in no grammar of pktgen's. A line of
/// running words is the writer's sentence, not a label (`… brings the rate
/// back from about 470 to`), and a line of several `key=value` pairs lists
/// a run's settings: only lines the generic reader gives one value are
/// taken.
fn labelled_lines_left(
    src: &Source,
    used: &[u32],
    rows: &[crate::model::Observation],
) -> Vec<crate::model::Observation> {
    let mut read: Vec<u32> = rows.iter().map(|o| o.line).collect();
    read.sort_unstable();
    let left: Vec<_> = src
        .lines
        .iter()
        .filter(|l| {
            used.binary_search(&l.number).is_err() && read.binary_search(&l.number).is_err()
        })
        .filter(|l| l.text.bytes().any(|b| b.is_ascii_digit()))
        .filter(|l| plain_words(&l.text) < SENTENCE_WORDS)
        .cloned()
        .collect();
    if left.is_empty() {
        return Vec::new();
    }
    let left = Source::from_lines(&src.path, left);
    let Ok((parsed, crate::ingest::formats::generic::Shape::Lines)) =
        crate::ingest::formats::generic::Generic::read(&left)
    else {
        return Vec::new();
    };
    let mut rows = parsed.observations;
    let mut lines: Vec<u32> = rows.iter().map(|o| o.line).collect();
    lines.sort_unstable();
    let once = |l: u32| lines.partition_point(|&x| x <= l) - lines.partition_point(|&x| x < l) == 1;
    rows.retain(|o| once(o.line));
    rows
}

/// The plain words from which on a line reads as a sentence.
const SENTENCE_WORDS: usize = 6;

/// `doc`, the document reader's reading of a mail that `format` refused,
/// without the values of the lines `format` is certain of one by one: its
/// tool's own lines (a torture run's end line and its settings), which it
/// refused with the file, accounted as left out for that reason.
fn without_own_lines(format: &dyn Format, src: &Source, mut doc: Parsed) -> Parsed {
    let own: Vec<u32> = src
        .lines
        .iter()
        .filter(|l| l.text.bytes().any(|b| b.is_ascii_digit()))
        .filter(|l| format.detect(&Source::from_lines(&src.path, vec![(*l).clone()])) >= CERTAIN)
        .map(|l| l.number)
        .collect();
    doc.observations
        .retain(|o| own.binary_search(&o.line).is_err());
    let why = format!(
        "a line of the {} importer's tool, which refused the file",
        format.name()
    );
    doc.skipped
        .extend(own.into_iter().map(|n| (n, why.clone())));
    doc
}

/// The confidence at which an importer's refusal stands: detection that
/// found the tool's own banner or table header.
const CERTAIN: crate::ingest::Confidence = 96;

/// How many more harnesses' outputs, beyond the first, a mail is searched
/// for (ministat summaries above schbench percentiles).
const MORE_HARNESSES: usize = 3;

/// The lines `parsed` read, consumed or left out, sorted.
fn used_lines(parsed: &Parsed) -> Vec<u32> {
    let mut used: Vec<u32> = parsed
        .observations
        .iter()
        .map(|o| o.line)
        .chain(parsed.consumed.iter().copied())
        .chain(parsed.skipped.iter().map(|(l, _)| *l))
        .collect();
    used.sort_unstable();
    used.dedup();
    used
}

/// A harness other than those in `tried` whose output is among the lines
/// of `src` not yet `used`, and what it reads there: a mail may paste the
/// outputs of several tools, and detection names only the likeliest.
fn another_harness(
    registry: &Registry,
    src: &Source,
    used: &[u32],
    tried: &[&'static str],
) -> Option<(&'static str, Parsed)> {
    let rest: Vec<_> = src
        .lines
        .iter()
        .filter(|l| used.binary_search(&l.number).is_err())
        .cloned()
        .collect();
    if !rest
        .iter()
        .any(|l| l.text.bytes().any(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let rest = Source::from_lines(&src.path, rest);
    // Every format scanning a long mail costs more than reading it: its
    // first lines decide, as they do for a whole file.
    let probe = rest.head(4000, 256 << 10);
    let format = registry.detect(probe.as_ref().unwrap_or(&rest))?;
    let name = format.name();
    // Only the built-in importers: an extractor the user described reads
    // the files it was named for, as the first reading keeps it.
    if tried.contains(&name)
        || !Registry::is_builtin(name)
        || name == Document.name()
        || name == crate::ingest::formats::generic::NAME
    {
        return None;
    }
    let parsed = format.parse_accounted(&rest).ok()?;
    (!parsed.observations.is_empty()).then_some((name, parsed))
}

/// Whether `src` holds written sentences: two or more lines of eight or
/// more words (or one of fifteen), three quarters of them plain words, and no `key:` colon
/// (`Vulnerability Spectre v2: Mitigation; …` is an attribute). Harness
/// logs and system dumps hold none.
pub fn is_prose_document(src: &Source) -> bool {
    // Borrowed from the raw text when the lines are not made (a JSON
    // document read whole).
    is_prose(src.line_texts().map(|l| l.text))
}

/// [`is_prose_document`] of some lines of a source (a reader leaves
/// out the lines its tool writes, its titles and banners).
pub fn is_prose<'a>(texts: impl Iterator<Item = &'a str>) -> bool {
    let mut lines = 0;
    for text in texts.take(4000) {
        match sentence_words(text) {
            // One long sentence line is prose enough (a paragraph unwrapped).
            n if n >= 15 => return true,
            n if n >= 8 => lines += 1,
            _ => {}
        }
        if lines >= 2 {
            return true;
        }
    }
    false
}

/// Whether `src` holds running sentences, colons allowed (`… the size
/// limit: the counter was …`): a line of 15 plain words or more (a
/// paragraph unwrapped), or two of 12: what an unrecognised file must hold
/// to be read as a document at all. Each line's text counts once: a tool
/// prints its advice again after every benchmark (pyperf's `Run 'python3
/// -m pyperf system tune' command to …`), a writer does not repeat a
/// sentence.
pub fn has_sentences(src: &Source) -> bool {
    let mut seen = std::collections::HashSet::new();
    sentences(
        src.lines
            .iter()
            .take(4000)
            .map(|l| l.text.trim())
            .filter(|t| seen.insert(*t)),
    )
}

/// Whether `lines` hold one line of 15 plain words or two of 12.
fn sentences<'a>(lines: impl Iterator<Item = &'a str>) -> bool {
    let mut long = 0;
    for text in lines {
        match plain_words(text) {
            n if n >= 15 => return true,
            n if n >= 12 => long += 1,
            _ => {}
        }
        if long >= 2 {
            return true;
        }
    }
    false
}

/// The word count of a line of prose (three quarters plain words, no
/// `key:` colon); 0 for any other line. A colon after six words or more
/// is a sentence's (`… tables give rates with change: a baseline …`), not
/// an attribute's key.
fn sentence_words(text: &str) -> usize {
    if let Some(at) = text.find(':') {
        if text[..at].split_whitespace().count() < 6 {
            return 0;
        }
    }
    plain_words(text)
}

/// The word count of a line three quarters of whose words are plain
/// words; 0 for any other line.
fn plain_words(text: &str) -> usize {
    let mut words = 0;
    let mut plain = 0;
    for w in text.split_whitespace() {
        words += 1;
        // A word has a letter: iperf's `- - - -` rule is no sentence.
        if w.chars().any(char::is_alphabetic)
            && w.chars().all(|c| {
                c.is_alphabetic() || matches!(c, ',' | '.' | '\'' | '-' | ';' | ':' | '(' | ')')
            })
        {
            plain += 1;
        }
    }
    if plain * 4 >= words * 3 {
        words
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_value_line_between_a_harness_s_results_is_read() {
        // Lines of a corpus post (a driver's transmit path, pktgen runs).
        let text = "Text attachment of a post on a network driver's transmit path: pktgen\n\
            sending 4000000 60-byte packets with the CPU clocked down, at normal speed and\n\
            clocked up, each run with its pktgen result and the interrupt count for it.\n\n\
            Iteration 0 (under-clocked 1052.476 MHz):\n\
            Result: OK: 28910148(c28791584+d118564) usec, 4000000 (60byte,0frags)\n\
            \x20 138359pps 66Mb/sec (66412320bps) errors: 0\n\
            Interrupts: 3234740\n\n\
            Iteration 1 (normal 1397.657 MHz):\n\
            Result: OK: 26947273(c22637342+d4309931) usec, 4000000 (60byte,0frags)\n\
            \x20 148438pps 71Mb/sec (71250240bps) errors: 0\n\
            Interrupts: 3998176\n\n\
            With the change the transmit queue wakes once 16 ring slots are free.\n";
        let registry = Registry::builtin();
        let format = registry.get("pktgen").expect("pktgen");
        let src = Source::from_text("mail.txt", text);
        let rows = read(&registry, format, &src).unwrap().parsed.observations;
        for (line, v) in [(8, 3234740.0), (13, 3998176.0)] {
            assert!(
                rows.iter().any(|o| o.line == line && o.value == v),
                "{v} of line {line}"
            );
        }
        // The sentences' figures are no values.
        assert!(rows.iter().all(|o| o.line > 4 && o.line < 15), "{rows:#?}");
    }

    #[test]
    fn a_sentence_a_tool_repeats_counts_once() {
        // pyperf prints this advice after each benchmark of a suite.
        let advice = "Run 'python3 -m pyperf system tune' command to reduce the system jitter.";
        let twice = format!("{advice}\nfloat: Mean +- std dev: 48.2 ms +- 1.1 ms\n{advice}\n");
        assert!(!has_sentences(&Source::from_text("suite.txt", &twice)));
        let other = "Use pyperf stats, pyperf dump and pyperf hist to analyze results today.";
        let two = format!("{advice}\n{other}\n");
        assert!(has_sentences(&Source::from_text("mail.txt", &two)));
    }
}
