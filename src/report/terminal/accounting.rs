//! `ingest`'s account of its inputs, as lines for the terminal.

use crate::model::FileReport;

/// Which inputs get an accounting line of their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listing {
    /// Every input.
    Every,
    /// Those that lost numeric lines, were not recognised, or gave values
    /// the fallback read.
    Notable,
    /// None; one line sums up the losses, if any.
    Quiet,
}

/// The lines `ingest` prints on stderr: per input, the format used, the
/// rows produced, how many of them the fallback guessed and the numeric
/// lines left unread, so that nothing is dropped silently and no guess
/// passes unseen; whatever the listing, a closing line counts the inputs
/// that lost something (none when quiet and nothing was lost) and the
/// values the fallback read.
pub fn accounting(files: &[FileReport], rows: usize, listing: Listing) -> Vec<String> {
    let mut out = Vec::new();
    let lossy = |f: &FileReport| !f.unread_numeric.is_empty() || is_unknown(f);
    let losses = files.iter().filter(|f| lossy(f)).count();
    let mut folded = 0usize;
    for f in files {
        let own_line = match listing {
            Listing::Every => true,
            Listing::Notable => lossy(f) || f.fallback > 0,
            Listing::Quiet => false,
        };
        if !own_line {
            folded += 1;
            continue;
        }
        let format = f.format.as_deref().unwrap_or("unknown");
        let mut line = format!("{}: format {format}, {} rows", f.path, f.rows);
        if f.fallback > 0 {
            line.push_str(&format!(
                " ({} values read by the fallback, no layout rule: check them)",
                f.fallback
            ));
        }
        if !f.unread_numeric.is_empty() {
            let shown: Vec<String> = f
                .unread_numeric
                .iter()
                .take(8)
                .map(|n| n.to_string())
                .collect();
            let more = if f.unread_numeric.len() > 8 {
                ", …"
            } else {
                ""
            };
            line.push_str(&format!(
                ", {} numeric-looking lines not read (lines {}{more})",
                f.unread_numeric.len(),
                shown.join(", ")
            ));
        }
        if !f.skipped.is_empty() {
            // One entry per reason, with the lines it covers: ten context
            // lines of one kind read better as one entry than as ten.
            let mut reasons: Vec<(&str, Vec<u32>)> = Vec::new();
            for (n, why) in &f.skipped {
                match reasons.iter_mut().find(|(r, _)| r == why) {
                    Some((_, lines)) => lines.push(*n),
                    None => reasons.push((why, vec![*n])),
                }
            }
            let shown: Vec<String> = reasons
                .iter()
                .take(4)
                .map(|(why, lines)| format!("{}: {why}", line_list(lines)))
                .collect();
            let more = if reasons.len() > 4 { "; …" } else { "" };
            line.push_str(&format!(
                ", {} lines left out on purpose ({}{more})",
                f.skipped.len(),
                shown.join("; ")
            ));
        }
        if let Some(note) = &f.note {
            line.push_str(&format!("; {note}"));
        }
        out.push(line);
    }
    let unknown = files.iter().filter(|f| is_unknown(f)).count();
    let (n, s) = (files.len(), if files.len() == 1 { "" } else { "s" });
    let mut summary = format!("patchperf: {rows} rows from {n} input{s} ({unknown} not recognised");
    match listing {
        Listing::Notable if folded > 0 => summary.push_str(&format!(
            "; {folded} read without loss not listed, --verbose lists them"
        )),
        Listing::Quiet if losses > 0 => summary.push_str(&format!(
            "; {losses} lost lines or were not recognised, run without --quiet to see which"
        )),
        _ => {}
    }
    summary.push(')');
    let guessed: usize = files.iter().map(|f| f.fallback).sum();
    if guessed > 0 {
        let with = files.iter().filter(|f| f.fallback > 0).count();
        summary.push_str(&format!(
            "; {guessed} values in {with} input{} read by the fallback (read=fallback)",
            if with == 1 { "" } else { "s" }
        ));
    }
    if listing != Listing::Quiet || losses > 0 {
        out.push(summary);
    }
    out
}

/// An input no reader recognised (context files such as configs excepted).
fn is_unknown(f: &FileReport) -> bool {
    f.format.is_none()
        && !f
            .note
            .as_deref()
            .unwrap_or("")
            .contains("context, not a benchmark")
}

/// `3`, `3-5`, `3-5, 9` …: consecutive line numbers folded into ranges.
fn line_list(lines: &[u32]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let mut j = i;
        while j + 1 < lines.len() && lines[j + 1] == lines[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            lines[i].to_string()
        } else {
            format!("{}-{}", lines[i], lines[j])
        });
        i = j + 1;
    }
    if parts.len() > 6 {
        let n = parts.len();
        parts.truncate(6);
        parts.push(format!("… ({n} ranges)"));
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(path: &str, format: Option<&str>, unread: Vec<u32>) -> FileReport {
        FileReport {
            path: path.into(),
            format: format.map(String::from),
            rows: 3,
            fallback: 0,
            unread_numeric: unread,
            skipped: vec![(4, "warm-up".into()), (5, "warm-up".into())],
            note: None,
        }
    }

    #[test]
    fn every_input_with_a_loss_is_named_whatever_the_listing() {
        let files = [
            report("a.txt", Some("hackbench"), vec![]),
            report("b.txt", Some("hackbench"), vec![7, 8, 9]),
            report("c.bin", None, vec![]),
        ];
        let notable = accounting(&files, 6, Listing::Notable);
        assert_eq!(notable.len(), 3, "{notable:?}");
        assert!(notable[0].starts_with("b.txt: format hackbench, 3 rows, 3 numeric-looking lines not read (lines 7, 8, 9), 2 lines left out on purpose (4-5: warm-up)"), "{}", notable[0]);
        assert!(notable[1].starts_with("c.bin: format unknown"));
        assert!(notable[2].contains("6 rows from 3 inputs (1 not recognised; 1 read without loss"));
        assert_eq!(accounting(&files, 6, Listing::Every).len(), 4);
        let quiet = accounting(&files, 6, Listing::Quiet);
        assert_eq!(quiet.len(), 1);
        assert!(quiet[0].contains("2 lost lines or were not recognised"));
        assert!(accounting(&files[..1], 3, Listing::Quiet).is_empty());
    }

    #[test]
    fn line_lists_fold_runs_into_ranges() {
        assert_eq!(line_list(&[3]), "3");
        assert_eq!(line_list(&[3, 4, 5, 9]), "3-5, 9");
        assert_eq!(
            line_list(&[1, 3, 5, 7, 9, 11, 13, 15]),
            "1, 3, 5, 7, 9, 11, … (8 ranges)"
        );
    }
}
