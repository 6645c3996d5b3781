//! The document-table reader: tables pasted into e-mails and plain-text
//! documents (boxed `+---+` tables, aligned columns, `key: value` sample
//! lines, bash `time` blocks, `avg :`/`std. dev. :` summaries, label/value
//! lists with a stated change).
//!
//! A document is read as paragraphs (runs of non-blank lines at one quote
//! depth). Prose paragraphs and prose lines inside a paragraph are headings;
//! the nearest heading above a block is its label, the heading above that its
//! context. A label that names a build (`with plist`, `without:`) becomes the
//! variant and the context the benchmark; any other label (`make -j1 kernel/`)
//! is the benchmark and the context the variant. Tables name their own
//! variants, metrics and stats in their headers wherever they can.

mod apart_header;
mod beyond;
mod boxchars;
mod builds_below;
mod curl_meter;
mod current_first;
mod cv_cells;
mod dashed;
mod decimal_commas;
mod fallback;
mod fio_groups;
mod grid;
mod grouped_dots;
mod half_open;
mod kernel_stamps;
mod labels;
mod lines;
pub mod mixed;
mod open_pipes;
mod paren_lists;
mod piece;
mod reader;
mod rewrite;
mod runs;
mod sections;
mod slash_cells;
mod slashed;
mod table;
mod titles;
mod unclaimed;
mod underscores;
mod worded_values;
mod wrapped;

pub use fallback::is_fallback;

use crate::error::Result;
use crate::ingest::{Confidence, Format, Parsed, Pieces, Source};
use lines::Kind;

/// The document-table format (see the module documentation).
pub struct Document;

impl Format for Document {
    fn name(&self) -> &'static str {
        "document"
    }

    fn description(&self) -> &'static str {
        "tables in e-mails and text documents: boxed (+---+, |) and aligned columns, key: value \
         sample lines, bash time blocks, avg/std. dev. lines; the fallback for any text with a table"
    }

    fn detect(&self, src: &Source) -> Confidence {
        if src.looks_like_json() {
            return 0;
        }
        let mut rows = 0;
        let mut boxed = false;
        let mut samples = 0;
        let mut quoted = false;
        let mut mail = false;
        // Lines already found to be prose once a table is certain: a
        // document repeats its headings above every table.
        let mut prose: hashbrown::HashSet<&str> = hashbrown::HashSet::new();
        for l in &src.lines {
            quoted |= l.quote_depth > 0;
            mail = mail || is_mail_line(&l.text);
            // Most lines of a large boxed document are rows: recognised
            // without splitting their cells.
            if lines::is_box_row(crate::ingest::shared::text::trim(&l.text)) {
                boxed = true;
                continue;
            }
            // A table with sample lines decides the answer (but for the
            // CONFIG_ count below): nothing more to learn from the lines.
            if (boxed || rows >= 2) && samples > 0 {
                continue;
            }
            // Once a table is certain, further rows change nothing below,
            // and only a sample line can: one needs a `:` or `=` (pairs) or
            // starts with `real`, `user` or `sys` (a `time` line).
            let kind = if boxed || rows >= 2 {
                let t = l.text.trim_start();
                if memchr::memchr2(b':', b'=', l.text.as_bytes()).is_none()
                    && !["real", "user", "sys"].iter().any(|w| t.starts_with(w))
                {
                    continue;
                }
                if prose.contains(l.text.as_str()) {
                    continue;
                }
                let kind = lines::classify_without_rows(&l.text);
                if matches!(kind, Kind::Text) && prose.len() < 4096 {
                    prose.insert(&l.text);
                }
                kind
            } else {
                lines::classify_for_detection(&l.text)
            };
            match kind {
                Kind::BoxRow(_) => boxed = true,
                Kind::Row(_) => rows += 1,
                ref k if is_sample(k) => samples += 1,
                _ => {}
            }
        }
        grid_only(
            src,
            Evidence {
                rows,
                boxed,
                samples,
                quoted,
                mail,
            }
            .score(src),
        )
    }

    /// Without a sample line a document scores [`Evidence::NO_SAMPLES_MAX`]
    /// at most, and a harness log that scored that much already wins:
    /// telling whether any line is a sample line skips the costliest test
    /// (column rows), which every line of such a log would otherwise get
    /// (a Go benchmark log: a tenth of its whole ingest).
    fn detect_to_beat(&self, src: &Source, best: Confidence) -> Confidence {
        if best >= Evidence::NO_SAMPLES_MAX && !has_sample_line(src) {
            return 0;
        }
        self.detect(src)
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        // A box drawn with Unicode characters is read as its ASCII
        // spelling, a `value [change](CV)` cell as `value +-CV%`.
        // `1.487.148` and, beside it, `0,53` are read as `1487148` and `0.53`.
        let src = &*grouped_dots::respell(src);
        // `14,008(+/- 4,99 %)` in a table of decimal commas as `14.008(+/- 4.99 %)`.
        let src = &*decimal_commas::respell(src);
        let ascii = boxchars::ascii_rules(src);
        // Kernel-log lines are read without their time stamps.
        let ascii = kernel_stamps::strip(&ascii);
        // `key: 842792 ns, 163788 iterations` as the pairs it stands for.
        let ascii = worded_values::expand(&ascii);
        let spelled = cv_cells::plus_minus(&ascii);
        // A pipe table without outer pipes is read with them, and one
        // with a pipe after each cell only with the first.
        // A pipe table's header over each block of its rows, apart from it.
        let spelled = apart_header::rejoin(&spelled);
        let spelled = half_open::close(&spelled);
        let spelled = open_pipes::close(&spelled);
        // `min/avg/max = 1/2/3 ms` is read as the three pairs it stands for.
        let spelled = slashed::expand(&spelled);
        // `bw: 1177-1367-1397` under a legend `bw: min-avg-max` likewise.
        let spelled = dashed::expand(&spelled);
        // fio's `BW=894KiB/s (915kB/s)(175MiB/200919msec)` as four pairs.
        let spelled = fio_groups::expand(&spelled);
        // `0.1/1.3` in a table's cell is read as the two values it holds.
        let spelled = slash_cells::expand(&spelled);
        // A pipe table padded with underscores is read padded with spaces.
        let spelled = underscores::unpad(&spelled);
        // A list of values in parentheses wrapped over lines is one line.
        let (spelled, mut continued) = paren_lists::rejoin(&spelled);
        // curl's progress meter as the named values its two-line header gives.
        let (spelled, meters) = curl_meter::rewrite(&spelled);
        continued.extend(meters);
        // A table a mail client wrapped is read with its lines joined back.
        let (unwrapped, rejoined) = wrapped::rejoin(&spelled);
        continued.extend(rejoined);
        let src = &*unwrapped;
        let mut observations = reader::read(src)?;
        let statements = runs::apply(src, &mut observations);
        titles::apply(&mut observations);
        let mut parsed = Parsed::from(observations);
        parsed.consumed.extend(statements);
        parsed.consumed.extend(continued);
        // Lines whose values are all NaN or infinite (a failed run) give no
        // row and hold no digit the accounting would notice: said here.
        parsed.skipped.extend(
            src.lines
                .iter()
                .filter(|l| crate::ingest::shared::numbers::is_non_finite_line(&l.text))
                .map(|l| {
                    (
                        l.number,
                        "values that are not numbers (nan, inf): nothing to read".to_string(),
                    )
                }),
        );
        // What no rule read, in blocks of numeric lines, is read last and
        // marked as such; in a document of prose only: a tool's bare
        // output that no importer knows (busybox dd's record counts) is
        // left unrecognised, for `--format` or an extractor.
        // The numbers of read lines no row came from are read or
        // accounted likewise.
        let prose = mixed::is_prose_document(src);
        let left = unclaimed::read(src, &parsed.observations, prose);
        parsed.skipped.extend(left.skipped);
        if prose {
            let used: hashbrown::HashSet<u32> = (parsed.observations.iter().map(|o| o.line))
                .chain(parsed.consumed.iter().copied())
                .chain(parsed.skipped.iter().map(|(l, _)| *l))
                .collect();
            parsed.observations.extend(fallback::read(src, &used));
        }
        parsed.observations.extend(left.rows);
        Ok(parsed)
    }

    fn pieces(&self, _head: &Source) -> Option<Pieces> {
        Some(piece::PIECES)
    }

    fn parse_piece(&self, head: &Source, body: &Source) -> Result<Parsed> {
        piece::read(head, body)
    }
}

/// Whether some line of `src` is one [`Document::detect`] counts as a
/// sample (`key: value` measurements, a `time` line). Such a kind is told
/// before column rows are looked for, so [`lines::classify_without_rows`]
/// finds the same lines [`lines::classify_for_detection`] would; boxed rows are skipped,
/// as detection skips them.
fn has_sample_line(src: &Source) -> bool {
    src.lines.iter().any(|l| {
        !lines::is_box_row(crate::ingest::shared::text::trim(&l.text))
            && is_sample(&lines::classify_without_rows(&l.text))
    })
}

/// `score`, or where it is 0, [`Evidence::GRID_ONLY`] for a prose document
/// whose only tables the grid reader sees (gaps collapsed, digit groups
/// apart): below any layout of its own. A kernel config, which scores 0 on
/// purpose, and markup stay unclaimed.
fn grid_only(src: &Source, score: Confidence) -> Confidence {
    if score == 0
        && !crate::ingest::shared::logscan::has(src, "CONFIG_")
        && !is_markup(src)
        && mixed::is_prose_document(src)
        && grid::has_rows(src)
    {
        return Evidence::GRID_ONLY;
    }
    score
}

/// Whether `src` is markup (HTML, XML): three or more lines open with a tag.
fn is_markup(src: &Source) -> bool {
    src.lines
        .iter()
        .take(4000)
        .filter(|l| {
            let t = l.text.trim_start();
            t.starts_with('<')
                && t[1..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '!' || c == '/')
        })
        .nth(2)
        .is_some()
}

/// Whether a line is a mail header or an attribution (`… wrote:`).
fn is_mail_line(text: &str) -> bool {
    starts_with_ci(text, "subject:")
        || starts_with_ci(text, "message-id:")
        || ends_with_ci(text, "wrote:")
}

/// Whether a classified line counts as a sample for detection.
fn is_sample(kind: &Kind) -> bool {
    match kind {
        Kind::Pairs(p) => p.len() > 1 || lines::is_measurement(&p[0]),
        Kind::Time(..) => true,
        _ => false,
    }
}

/// What detection learnt from a document's lines.
#[derive(Clone, Copy)]
struct Evidence {
    /// Column-aligned table rows.
    rows: usize,
    /// Whether a boxed table row was seen.
    boxed: bool,
    /// `key: value` measurement lines and `time` lines.
    samples: usize,
    /// Whether a line is quoted (`>`).
    quoted: bool,
    /// Whether mail headers or an attribution line were seen.
    mail: bool,
}

impl Evidence {
    /// The highest score without a sample line (a quoted or mailed table).
    const NO_SAMPLES_MAX: Confidence = 45;
    /// A prose document with grid rows no other rule sees.
    const GRID_ONLY: Confidence = 20;

    /// The confidence this evidence gives, unless `src` is a kernel config.
    fn score(&self, src: &Source) -> Confidence {
        let Evidence {
            rows,
            boxed,
            samples,
            quoted,
            mail,
        } = *self;
        // A CONFIG_ line holds the text `CONFIG_`: without it, none.
        let config = if !crate::ingest::shared::logscan::has(src, "CONFIG_") {
            0
        } else {
            src.lines
                .iter()
                .filter(|l| {
                    // `trim_start_matches("# ")` without a substring searcher.
                    let mut t = l.text.as_str();
                    while let Some(rest) = t.strip_prefix("# ") {
                        t = rest;
                    }
                    t.starts_with("CONFIG_")
                })
                .count()
        };
        if config >= 3 || (!boxed && rows < 2 && samples == 0) {
            return 0;
        }
        // A document mixing a table with sample lines is this
        // format's own kind even where one part alone (a bash `time` block)
        // would look like a harness log.
        let table = boxed || rows >= 2;
        if table && samples > 0 {
            95
        } else if quoted || mail {
            // Above the plain-table levels, below any harness importer that
            // recognises its own output quoted in a mail (LKP reports).
            Self::NO_SAMPLES_MAX
        } else if boxed {
            40
        } else if rows >= 2 {
            30
        } else {
            25
        }
    }
}

/// `text.to_ascii_lowercase().starts_with(prefix)` for a lowercase ASCII
/// `prefix`, without the copy.
fn starts_with_ci(text: &str, prefix: &str) -> bool {
    text.len() >= prefix.len()
        && text.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
}

/// `text.to_ascii_lowercase().ends_with(suffix)` for a lowercase ASCII
/// `suffix`, without the copy.
fn ends_with_ci(text: &str, suffix: &str) -> bool {
    text.len() >= suffix.len()
        && text.as_bytes()[text.len() - suffix.len()..].eq_ignore_ascii_case(suffix.as_bytes())
}

#[cfg(test)]
mod beyond_tests;
#[cfg(test)]
mod builds_tests;
#[cfg(test)]
mod caption_tests;
#[cfg(test)]
mod fallback_tests;
#[cfg(test)]
mod label_tests;
#[cfg(test)]
mod shape_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod unclaimed_tests;
