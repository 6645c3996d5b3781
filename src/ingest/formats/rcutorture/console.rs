//! What the three readers of kernel test modules share: a console line
//! without its kernel stamp, the module tag it carries, and the parameters
//! a `--- Start of test:` line states.

use crate::error::Result;
use crate::ingest::shared::lkp_wrapper;
use crate::ingest::shared::logscan::{lazy_re, Params};
use crate::ingest::Source;

lazy_re!(STAMP, r"^\s*\[\s*\d+\.\d+\]\s?");
lazy_re!(
    TAG,
    r"^([A-Za-z0-9_]+)-(ref-scale|ref-perf|scale|perf|torture):\s?(.*)$"
);
lazy_re!(PAIR, r"([a-z_]+)=(\S+)");

/// A console line's text after its `[ 19.054852]` stamp (unchanged when it
/// has none: the lines a multi-line message continues on carry none).
pub(in crate::ingest) fn unstamped(text: &str) -> &str {
    match STAMP.find(text) {
        Some(m) => &text[m.end()..],
        None => text,
    }
}

/// A tagged message of a test module: its type (`rcu`, `srcud`,
/// `spin_lock`), its kind (`ref-scale`, `scale`, `torture`, or the older
/// `ref-perf`/`perf`) and the message after the tag.
pub(in crate::ingest) struct Tagged<'t> {
    pub kind: &'t str,
    pub test_type: &'t str,
    pub message: &'t str,
}

/// Why a stamped console line that no reader of a test module took is no
/// result: the kernel's other subsystems log between the module's lines.
pub(in crate::ingest) fn other_message(text: &str) -> Option<&'static str> {
    STAMP
        .is_match(text)
        .then_some("a kernel message of another subsystem in the console log")
}

/// A reader of a module's console log, one line at a time.
pub(in crate::ingest) trait ConsoleReader {
    /// Reads one line (`text`, its stamp removed), line `n` of `src`.
    fn line(&mut self, src: &Source, n: u32, text: &str) -> Result<()>;
    /// The sizes of what the reader keeps (rows, lines read for context,
    /// lines left out, …): they change whenever a line gives anything.
    fn taken(&self) -> [usize; 3];
    /// The lines left out, with why.
    fn skipped(&mut self) -> &mut Vec<(u32, String)>;
}

/// Gives `r` every line of `src`; a stamped line it took nothing from is
/// left out as another subsystem's message.
pub(in crate::ingest) fn read_lines(src: &Source, r: &mut impl ConsoleReader) -> Result<()> {
    for l in &src.lines {
        let before = r.taken();
        r.line(src, l.number, unstamped(&l.text))?;
        if r.taken() == before {
            if let Some(why) = other_message(&l.text) {
                r.skipped().push((l.number, why.to_string()));
            }
        }
    }
    Ok(())
}

/// The module tag of a console line without its stamp, if it has one.
pub(in crate::ingest) fn tagged(text: &str) -> Option<Tagged<'_>> {
    let c = TAG.captures(text.trim_start())?;
    Some(Tagged {
        test_type: c.get(1)?.as_str(),
        kind: c.get(2)?.as_str(),
        message: c.get(3)?.as_str().trim(),
    })
}

/// The parameters of a `--- Start of test: k=v …` message that decide what
/// is measured (`keep`), with the test's type; the others (verbosity,
/// shutdown, stutter) say how the module runs, not what it measures.
pub(in crate::ingest) fn start_params(test_type: &str, message: &str, keep: &[&str]) -> Params {
    let mut p = Params::default();
    p.set("type", test_type);
    for c in PAIR.captures_iter(message) {
        if keep.contains(&&c[1]) {
            p.set(&c[1], &c[2]);
        }
    }
    p
}

/// Why a line of the test harness around the module is no result: LKP's
/// commands behind a timestamp (`modprobe refscale … nruns=30`, `sleep`,
/// `rmmod`) and the `# rcu-scale type result` notes it writes between
/// logs.
pub(in crate::ingest) fn harness_line(text: &str) -> Option<&'static str> {
    let t = text.trim();
    if lkp_wrapper::is_logged_command(t) {
        Some("LKP wrapper: a command it runs, behind a timestamp (the module's own lines give the parameters)")
    } else if t.starts_with("# ") && t.ends_with(" type result") {
        Some("LKP wrapper: the note naming the test type of the log below")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_and_tags() {
        let t = unstamped("[   19.054852] rcu-ref-scale: --- Start of test:  loops=10000");
        let tag = tagged(t).unwrap();
        assert_eq!((tag.test_type, tag.kind), ("rcu", "ref-scale"));
        assert_eq!(tag.message, "--- Start of test:  loops=10000");
        let tag = tagged("srcud-scale:--- Start of test: nreaders=2").unwrap();
        assert_eq!((tag.test_type, tag.kind), ("srcud", "scale"));
        assert_eq!(
            unstamped("               1\t3.299"),
            "               1\t3.299"
        );
        assert!(tagged("rcu: srcu-torture: Tree SRCU g104133").is_none());
        let p = start_params("rcu", "nreaders=2 nwriters=2 verbose=1", &["nreaders"]);
        assert_eq!(p.render(), "nreaders=2,type=rcu");
    }
}
