//! Headings over blocks of value lines: `Before:` above five `IOPS=…`
//! lines and `and with the fix:` above six more are two builds, not eleven
//! runs of one. A heading names the rows below it as their variant when
//! the same metric appears under two headings (the blocks repeat one
//! measurement), or when it names a build by itself (`baseline:`,
//! `with the patch`, `6.8-rc1`); otherwise it names nothing, so that one
//! log's `Results:` does not become a variant that keeps it from pairing
//! with another log.

use crate::ingest::shared::text::is_heading;

/// Words that make a heading name a build on its own.
const BUILD_WORDS: &[&str] = &[
    "before",
    "after",
    "baseline",
    "base",
    "patched",
    "unpatched",
    "vanilla",
    "with",
    "without",
    "w/",
    "w/o",
    "previously",
    "mainline",
    "upstream",
    "stock",
    "original",
    "fix",
    "patch",
    "patches",
    "series",
];

/// The headings of a file and which rows sit under each.
#[derive(Debug, Default)]
pub struct Sections {
    /// Each heading's line and cleaned text.
    headings: Vec<(u32, String)>,
    /// The heading now in force, an index into `headings`.
    current: Option<usize>,
    /// For each row taken so far: the heading it sits under.
    owners: Vec<Option<usize>>,
}

impl Sections {
    /// A line that is no value: a heading starts a section, other text
    /// (a sentence of prose) ends the one in force.
    pub fn text_line(&mut self, number: u32, text: &str) {
        self.current = heading_text(text).map(|h| {
            self.headings.push((number, h));
            self.headings.len() - 1
        });
    }

    /// A row was taken under the heading in force.
    pub fn row(&mut self) {
        self.owners.push(self.current);
    }

    /// The variant of each row, in the order they were taken (`None`: the
    /// rows keep theirs), and the heading lines that named one.
    pub fn variants(&self, metrics: &[&str]) -> (Vec<Option<&str>>, Vec<u32>) {
        debug_assert_eq!(metrics.len(), self.owners.len());
        let mut per_heading: Vec<Vec<&str>> = vec![Vec::new(); self.headings.len()];
        for (o, m) in self.owners.iter().zip(metrics) {
            if let Some(h) = o {
                if !per_heading[*h].contains(m) {
                    per_heading[*h].push(m);
                }
            }
        }
        let repeats = per_heading.iter().enumerate().any(|(i, a)| {
            per_heading[i + 1..]
                .iter()
                .zip(&self.headings[i + 1..])
                .any(|(b, (_, text))| {
                    text != &self.headings[i].1 && a.iter().any(|m| b.contains(m))
                })
        });
        let names: Vec<bool> = self
            .headings
            .iter()
            .zip(&per_heading)
            .map(|((_, text), rows)| !rows.is_empty() && (repeats || names_a_build(text)))
            .collect();
        let variants = self
            .owners
            .iter()
            .map(|o| o.filter(|h| names[*h]).map(|h| self.headings[h].1.as_str()))
            .collect();
        let lines = self
            .headings
            .iter()
            .zip(&names)
            .filter(|(_, n)| **n)
            .map(|((line, _), _)| *line)
            .collect();
        (variants, lines)
    }
}

/// The name a heading line gives the rows below it: the line without its
/// colon and bullets; of a sentence, its last clause (`Tested on a box
/// here, previously:` names `previously`; `and with the fix:`, `with the
/// fix`). `None` for prose and for a line that counts runs (`run 2`).
pub fn heading_text(text: &str) -> Option<String> {
    let t = text.trim();
    let colon = t.ends_with(':');
    let t = t.trim_end_matches(':').trim();
    // `is_heading` also refuses a line that counts runs (`=== run 2 ===`).
    if !is_heading(t) {
        return None;
    }
    let words = t.split_whitespace().count();
    // Without a colon only a short title heads what follows, and a number
    // in it must be a version (`6.8-rc1`), not a figure of a sentence.
    let titled = words <= 4
        && t.split_whitespace()
            .all(|w| !w.bytes().any(|b| b.is_ascii_digit()) || is_version(&w.to_lowercase()));
    if !colon && !titled {
        return None;
    }
    let t = t.trim_start_matches(['-', '*', '#', '•', ' ']);
    let clause = match t.rsplit_once([',', ';']) {
        Some((_, last)) if words > 3 && !last.trim().is_empty() => last.trim(),
        _ => t,
    };
    let mut clause = clause;
    for lead in [
        "and ", "but ", "then ", "so ", "And ", "But ", "Then ", "So ",
    ] {
        clause = clause.strip_prefix(lead).unwrap_or(clause);
    }
    let clause = clause.trim();
    (!clause.is_empty() && clause.chars().count() <= 64).then(|| clause.to_string())
}

/// Whether a heading names a build by itself: a build word among its
/// words, or a kernel version (`6.8-rc1`, `v5.15`).
fn names_a_build(text: &str) -> bool {
    text.split(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == ',')
        .filter(|w| !w.is_empty())
        .any(|w| {
            let lower = w.to_lowercase();
            BUILD_WORDS.contains(&lower.as_str()) || is_version(&lower)
        })
}

/// `6.8`, `v6.8-rc1`, `5.15.0-rc1`: a release of any length, where the
/// document reader's kernel versions want three numbers or a suffix.
fn is_version(w: &str) -> bool {
    crate::ingest::shared::text::dotted_release(w).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_give_their_last_clause() {
        let h = |t: &str| heading_text(t);
        assert_eq!(
            h("Tested on a box here, previously:").as_deref(),
            Some("previously")
        );
        assert_eq!(h("and with the fix:").as_deref(), Some("with the fix"));
        assert_eq!(h("Before:").as_deref(), Some("Before"));
        assert_eq!(h("- clean fs, baseline:").as_deref(), Some("baseline"));
        assert_eq!(h("=== run 2 ==="), None);
        assert_eq!(h("Run 3:"), None);
        // Running prose introduces nothing, nor a line of figures.
        assert_eq!(
            h("The numbers below were taken on a quiet machine with turbo off"),
            None
        );
        assert_eq!(h("see 2 errors in 3 files"), None);
        assert_eq!(h("6.8-rc1").as_deref(), Some("6.8-rc1"));
        assert_eq!(h("NO_FAIR_SLEEPERS").as_deref(), Some("NO_FAIR_SLEEPERS"));
    }

    #[test]
    fn a_heading_names_rows_when_blocks_repeat_or_it_names_a_build() {
        let mut s = Sections::default();
        s.text_line(1, "Results:");
        s.row();
        s.row();
        // One section of its own metrics, under a heading naming no build.
        let (v, lines) = s.variants(&["IOPS", "BW"]);
        assert_eq!(v, [None, None]);
        assert!(lines.is_empty());
        // The same metric under two headings: the headings are the builds.
        s.text_line(5, "Second machine:");
        s.row();
        let (v, lines) = s.variants(&["IOPS", "BW", "IOPS"]);
        assert_eq!(
            v,
            [Some("Results"), Some("Results"), Some("Second machine")]
        );
        assert_eq!(lines, [1, 5]);
        // A build word is enough on its own; prose ends the section.
        let mut s = Sections::default();
        s.row();
        s.text_line(2, "with the patch:");
        s.row();
        s.text_line(
            4,
            "This is a long sentence that explains the numbers above.",
        );
        s.row();
        let (v, _) = s.variants(&["time", "time", "time"]);
        assert_eq!(v, [None, Some("with the patch"), None]);
    }
}
