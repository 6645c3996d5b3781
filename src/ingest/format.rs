//! The interface every input format implements ([`Format`]) and what
//! reading one input gives ([`Parsed`]).

use crate::error::Result;
use crate::ingest::shared::logscan;
use crate::ingest::Source;
use crate::model::{Dataset, Observation, Selection};
use std::path::{Path, PathBuf};

/// How sure a format is that an input is its kind, 0 (no) to 100 (certain).
pub type Confidence = u8;

/// Below this confidence a format is not chosen by detection.
pub const MIN_CONFIDENCE: Confidence = 20;

/// One input format.
pub trait Format: Send + Sync {
    /// Short stable name used by `--format` (`hyperfine-json`, `document`).
    fn name(&self) -> &'static str;

    /// One line: what the format is and how it is recognised.
    fn description(&self) -> &'static str;

    /// How sure this format is that `src` is its kind.
    fn detect(&self, src: &Source) -> Confidence;

    /// [`Format::detect`] for detection, which only needs to know whether
    /// this format beats `best`, the highest score of the formats before
    /// it: the [`Format::detect`] score whenever that exceeds `best`, and
    /// otherwise any score not above `best`. A format whose full scan is
    /// costly can then settle a lost case from a cheaper one.
    fn detect_to_beat(&self, src: &Source, best: Confidence) -> Confidence {
        let _ = best;
        self.detect(src)
    }

    /// Reads every value of `src`, and says which lines it used without
    /// producing a value from them (headers, parameter lines) and which
    /// numeric-looking lines it left out on purpose, and why: the driver's
    /// account of unread lines then lists only lines nobody looked at. A
    /// format with nothing to add returns its values (`Ok(values.into())`).
    /// Errors name the file and, where there is one, the line.
    fn parse_accounted(&self, src: &Source) -> Result<Parsed>;

    /// Whether [`Format::parse_accounted`] reads only [`Source::raw`] and
    /// never [`Source::lines`] (a structured document): the driver then
    /// need not make the lines of a large file (`Source::read_deferred`).
    fn reads_raw(&self) -> bool {
        false
    }

    /// Whether [`Format::parse_streamed`] reads a document of this format
    /// from disk: the driver then never holds the text of a large one.
    fn streams(&self) -> bool {
        false
    }

    /// Reads the document `reader` gives (a whole file of `size` bytes)
    /// without holding its text: what [`Format::parse_accounted`] gives
    /// for the file read whole, or `None` where the reader gives up (a
    /// malformed document, text it does not handle); the driver then
    /// reads the file whole with [`Format::parse_accounted`], which names
    /// the line of the error. `head`, the file's start, names the file in
    /// rows and messages.
    fn parse_streamed(
        &self,
        head: &Source,
        reader: &mut dyn std::io::Read,
        size: u64,
    ) -> Result<Option<Parsed>> {
        let _ = (head, reader, size);
        Ok(None)
    }

    /// The values of [`Format::parse_accounted`] alone.
    fn parse(&self, src: &Source) -> Result<Vec<Observation>> {
        self.parse_accounted(src).map(Parsed::into_observations)
    }

    /// Whether a file too large to hold whole may be read in pieces, given
    /// its first lines (`head`, at least a few thousand), and what each
    /// piece needs to be read as the whole file is (see [`Pieces`]).
    /// `None`, the default, when the format needs the whole file at once
    /// (a record spanning lines, a value whose meaning depends on lines
    /// anywhere else that cannot be named).
    fn pieces(&self, head: &Source) -> Option<Pieces> {
        let _ = head;
        None
    }

    /// Reads `body`, whole lines of a large file; `body`'s lines carry
    /// their numbers in the file. `head` holds the lines every piece needs:
    /// the file's first [`Pieces::header_lines`], then every line of the
    /// file that [`Pieces::context`] picks, in file order (some may be
    /// `body`'s too). When the header is no line at all, every piece is
    /// read this way, the first one too; otherwise the first piece, header
    /// and all, is read with [`Format::parse_accounted`]. Accounts for
    /// `body`'s lines only.
    fn parse_piece(&self, head: &Source, body: &Source) -> Result<Parsed> {
        let _ = body;
        Err(head.error(
            None,
            format!("the {} reader cannot read a file in pieces", self.name()),
        ))
    }

    /// How sure this format is that a directory is its kind (Criterion's
    /// `target/criterion` tree is one input, not a folder of files).
    fn detect_dir(&self, _dir: &Path) -> Confidence {
        0
    }

    /// The parts, in reading order, of a directory this format detected
    /// with [`Format::detect_dir`] (Criterion: its saved runs). The driver
    /// reads a few parts at a time and hands their rows on before reading
    /// more, so that a large tree is never held whole: a part should be
    /// small, about one benchmark's files. A format that can tell which
    /// parts hold no row of `select` may leave them out.
    fn dir_parts(&self, dir: &Path, select: &Selection) -> Result<Vec<PathBuf>> {
        let _ = select;
        Err(not_a_dir_format(self, dir))
    }

    /// Reads one part of `dir` listed by [`Format::dir_parts`]; rows
    /// outside `select` may be left out.
    fn parse_dir_part(
        &self,
        dir: &Path,
        part: &Path,
        select: &Selection,
    ) -> Result<Vec<Observation>> {
        let _ = (part, select);
        Err(not_a_dir_format(self, dir))
    }

    /// Reads a whole directory: its parts, in parallel, joined in order.
    /// The first failing part in that order is the error reported.
    fn parse_dir(&self, dir: &Path) -> Result<Vec<Observation>> {
        use rayon::prelude::*;
        let all = Selection::default();
        let parts = self.dir_parts(dir, &all)?;
        let read: Vec<Result<Vec<Observation>>> = parts
            .par_iter()
            .map(|part| self.parse_dir_part(dir, part, &all))
            .collect();
        let rows = read.iter().map(|r| r.as_ref().map_or(0, Vec::len)).sum();
        let mut out = Vec::with_capacity(rows);
        for rows in read {
            out.extend(rows?);
        }
        Ok(out)
    }
}

fn not_a_dir_format<F: Format + ?Sized>(format: &F, dir: &Path) -> crate::Error {
    crate::Error::Usage(format!(
        "{}: format `{}` does not read directories",
        dir.display(),
        format.name()
    ))
}

/// How a format reads a large file in pieces ([`Format::pieces`]): the
/// pieces, read one by one and joined in order, give what the whole file
/// gives.
#[derive(Debug, Clone, Copy, Default)]
pub struct Pieces {
    /// Lines at the file's start that every piece needs in front of it (a
    /// table's header row); the lines after them are read one by one.
    pub header_lines: u32,
    /// Lines a piece needs from anywhere in the file, when reading a line
    /// also takes state the file sets elsewhere (Go's `pkg:` and `note:`
    /// lines, and its `Unit` lines, which apply to the whole file): a test
    /// of a prepared line. They are collected over the whole file.
    pub context: Option<fn(&str) -> bool>,
    /// Lines a piece needs from just before it, when a line's meaning
    /// depends on the block it sits in (a row of a table under its header):
    /// see [`Carry`]. `None` for formats whose lines stand alone.
    pub carry: Option<Carry>,
    /// The size a piece grows to before it is cut, when smaller than the
    /// driver's (a reader that holds much per line of its input).
    pub piece_bytes: Option<usize>,
}

/// What each piece of a file carries from the text before it (see
/// [`Pieces::carry`]). Blocks are runs of non-blank lines; a piece that
/// starts inside a block gets its first lines (a header, its underline)
/// and the lines right before the cut, and every piece gets the lines just
/// above the block it starts in (a title). The reader gives no row of a
/// carried line: those belong to the piece before.
#[derive(Debug, Clone, Copy)]
pub struct Carry {
    /// First lines of the block a piece starts in.
    pub block_head: usize,
    /// Lines above that block, blank ones included.
    pub above: usize,
    /// Lines right before the cut.
    pub before_cut: usize,
}

/// The full result of reading one input (see [`Format::parse_accounted`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Parsed {
    /// Rows already stored by column, ahead of `observations`: a reader
    /// of an input that holds millions of samples (a JSON export) pushes
    /// them here, 16 bytes each, instead of making an [`Observation`] of
    /// 176 bytes per sample.
    pub bulk: Dataset,
    /// The rows read one by one, after those of `bulk`.
    pub observations: Vec<Observation>,
    /// Original line numbers read for context (headers, parameters).
    pub consumed: Vec<u32>,
    /// Lines deliberately not turned into values, with the reason
    /// (`<not supported>` counters, warm-up runs).
    pub skipped: Vec<(u32, String)>,
    /// What the reader has to say of the input as a whole that no line
    /// carries (two systems a report's cut names cannot tell apart):
    /// joined into the input's note in the ingest report.
    pub notes: Vec<String>,
}

impl Parsed {
    /// Every line of `src` that gave none of `observations` and is not
    /// among `skipped`: the frame a log's values sit in (its banner, menus,
    /// a system description), read as such so that the document reader,
    /// supplementing a log it takes for prose, reads nothing from it. A
    /// loop's lines between runs are not the frame (see
    /// [`counters_in_frame`](super::shared::loop_lines::counters_in_frame)).
    pub(crate) fn frame_lines(
        src: &Source,
        observations: &[Observation],
        skipped: &[(u32, String)],
    ) -> Vec<u32> {
        let mut used: Vec<u32> = observations.iter().map(|o| o.line).collect();
        used.extend(skipped.iter().map(|(n, _)| *n));
        used.sort_unstable();
        let frame: Vec<u32> = src
            .lines
            .iter()
            .map(|l| l.number)
            .filter(|n| used.binary_search(n).is_err())
            .collect();
        // A shell loop's counter, banner or date between the runs is no
        // frame of the tool: left to the account of lines not read.
        let texts = src.lines.iter().map(|l| (l.number, l.text.as_str()));
        let between = super::shared::loop_lines::counters_in_frame(texts, &frame);
        frame
            .into_iter()
            .filter(|n| between.binary_search(n).is_err())
            .collect()
    }

    /// Every row, those of `bulk` first, as observations.
    pub fn into_observations(self) -> Vec<Observation> {
        if self.bulk.is_empty() {
            return self.observations;
        }
        let mut all = self.bulk.to_observations();
        all.extend(self.observations);
        all
    }

    /// Every row, those of `bulk` first, stored by column.
    pub fn into_dataset(self) -> Dataset {
        let mut all = self.bulk;
        all.extend_from_vec(self.observations);
        all
    }

    /// The values a log reader found with their accounting, or, when it
    /// found none, an error at the input's last line saying `why` (what
    /// line was looked for, and how a run makes it).
    pub(crate) fn found(
        src: &Source,
        observations: Vec<Observation>,
        consumed: Vec<u32>,
        skipped: Vec<(u32, String)>,
        why: impl Into<String>,
    ) -> Result<Parsed> {
        if observations.is_empty() {
            return Err(src.error(logscan::last_line(src), why));
        }
        Ok(Parsed {
            observations,
            consumed,
            skipped,
            ..Parsed::default()
        })
    }
}

impl From<Vec<Observation>> for Parsed {
    /// Values with no line read for context and none left out.
    fn from(observations: Vec<Observation>) -> Self {
        Parsed {
            observations,
            ..Parsed::default()
        }
    }
}
