//! Several runs of one tool in one file: a shell loop's output (`for i in
//! 1 2 3; do tool; done > log`) or `tee -a` over several runs. Readers that
//! gather one run's lines into one result (a histogram and its trailer, a
//! table and its header) read each run on its own, here, so that a second
//! run neither adds to the first's buckets nor replaces its figures; the
//! driver then numbers each run's samples after the run before.

use super::loop_lines::digits_masked;
use crate::error::Result;
use crate::ingest::{Parsed, Source};

/// `src` cut before each line `opens` says starts a run (the lines above
/// the first opener belong to the first run), each part read by `read`,
/// the readings joined in order. A file of one run is read whole, as
/// before. `opens` sees the lines in order, so it may keep what it has seen
/// (a thread's header that comes again starts the next run).
pub(crate) fn each_run(
    src: &Source,
    mut opens: impl FnMut(&str) -> bool,
    read: impl Fn(&Source) -> Result<Parsed>,
) -> Result<Parsed> {
    let starts: Vec<usize> = src
        .lines
        .iter()
        .enumerate()
        .filter(|(_, l)| opens(&l.text))
        .map(|(i, _)| i)
        .skip(1)
        .collect();
    if starts.is_empty() {
        return read(src);
    }
    let mut bounds = vec![0];
    bounds.extend(starts);
    bounds.push(src.lines.len());
    let mut all = Parsed::default();
    for w in bounds.windows(2) {
        let part = Source::from_lines(&src.path, src.lines[w[0]..w[1]].to_vec());
        let mut p = read(&part)?;
        all.bulk.append(std::mem::take(&mut p.bulk));
        all.observations.append(&mut p.observations);
        all.consumed.append(&mut p.consumed);
        all.skipped.append(&mut p.skipped);
    }
    Ok(all)
}

/// A file that is several runs of one tool one after the other, as a
/// shell loop leaves it: the lines (indices into [`Source::lines`]) of
/// each run, and the lines the loop printed between them.
#[derive(Debug, PartialEq)]
pub(crate) struct LoopRuns {
    /// Each run's lines, in order, as index ranges.
    pub(crate) parts: Vec<std::ops::Range<usize>>,
    /// The indices of the loop's own lines (`echo $i`, a `date`, a banner
    /// with the run's number), one before each run.
    pub(crate) separators: Vec<usize>,
}

/// How `src` splits into runs by its structure alone, whatever tool wrote
/// it: the file's first line comes again at the start of each run. When
/// that line is a loop's by its words ([`is_loop_line`]: a date, a short
/// line of one number), its number changes (a counter, a date) and a line of
/// the shape of the one after it comes after each line of its shape
/// (shapes with digits masked), it
/// is the loop's line before each run, and the runs are what lies
/// between; otherwise each run starts with the first line itself (a
/// tool's banner, a CSV header, a repeated prompt), or, when that is a
/// shell prompt, with each prompt (the commands typed may differ: `$ sar
/// -u 1 3`, `$ sar -u 1 5`). `None` for a file of one run.
pub(crate) fn loop_runs(src: &Source) -> Option<LoopRuns> {
    use crate::ingest::shared::loop_lines::is_loop_line;
    use crate::ingest::shared::prompt::shell_prompt;
    let filled: Vec<usize> = (0..src.lines.len())
        .filter(|&i| !src.lines[i].text.trim().is_empty())
        .collect();
    let text = |i: usize| src.lines[i].text.trim();
    let first = *filled.first()?;
    let prompt = |i: usize| shell_prompt(text(i)).is_some();
    // A prompt is the command typed before a run, never a loop's counter.
    let loop_line = is_loop_line(text(first)) && !prompt(first);
    if let (true, Some(&second)) = (loop_line, filled.get(1)) {
        let shape = digits_masked(text(first));
        // The shape of a run's first line: its figures may change.
        let opens = digits_masked(text(second));
        let separators: Vec<usize> = filled
            .windows(2)
            .filter(|w| digits_masked(text(w[0])) == shape && digits_masked(text(w[1])) == opens)
            .map(|w| w[0])
            .collect();
        // A run does not start with a line of the separator's shape
        // (values one under the other are no separators), and the loop's
        // line counts or tells the time: the same line before each run is
        // the tool's own title.
        let counts = separators.iter().any(|&i| text(i) != text(first));
        if separators.len() >= 2 && counts && opens != shape {
            let mut parts = Vec::new();
            for (k, &s) in separators.iter().enumerate() {
                let end = separators.get(k + 1).copied().unwrap_or(src.lines.len());
                parts.push(filled_within(&filled, s + 1..end));
            }
            return Some(LoopRuns { parts, separators });
        }
    }
    let starts: Vec<usize> = filled
        .iter()
        .copied()
        .filter(|&i| text(i) == text(first) || prompt(first) && prompt(i))
        .collect();
    // Prompts one under the other open one run (a wrapper's command, then
    // the tool's).
    let starts: Vec<usize> = starts
        .iter()
        .enumerate()
        .filter(|&(k, &i)| {
            // The filled line above `i`, found by halving: a file of one
            // line 10^5 times is 10^5 starts.
            let above = filled
                .partition_point(|&f| f < i)
                .checked_sub(1)
                .map(|p| &filled[p]);
            k == 0 || !(prompt(i) && above.is_some_and(|&f| f == starts[k - 1] && prompt(f)))
        })
        .map(|(_, &i)| i)
        .collect();
    if starts.len() < 2 {
        return None;
    }
    let mut parts = Vec::new();
    for (k, &s) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(src.lines.len());
        parts.push(filled_within(&filled, s..end));
    }
    Some(LoopRuns {
        parts,
        separators: Vec::new(),
    })
}

/// `range` without its blank lines at either end (a run read alone
/// starts with its tool's first line), given the `filled` lines' indices.
fn filled_within(filled: &[usize], range: std::ops::Range<usize>) -> std::ops::Range<usize> {
    // `filled` is sorted: the lines within are found by halving (a file
    // of one line repeated is as many runs as lines, each a search).
    let from = filled.partition_point(|&i| i < range.start);
    let to = filled.partition_point(|&i| i < range.end);
    let inside = &filled[from..to.max(from)];
    match (inside.first(), inside.last()) {
        (Some(&a), Some(&b)) => a..b + 1,
        _ => range.start..range.start,
    }
}

#[cfg(test)]
mod tests {
    use super::{loop_runs, LoopRuns};
    use crate::ingest::Source;

    fn runs(text: &str) -> Option<LoopRuns> {
        loop_runs(&Source::from_text("t.txt", text))
    }

    #[test]
    fn a_loop_s_line_before_each_run_separates_the_runs() {
        // qperf twice, `echo $i` before each run.
        let text = "1\ntcp_bw:\n    bw  =  1.74 GB/sec\n2\ntcp_bw:\n    bw  =  1.71 GB/sec\n";
        let got = runs(text).unwrap();
        assert_eq!(got.separators, [0, 3]);
        assert_eq!(got.parts, [1..3, 4..6]);
        // The same titled line before each run is the tool's, not the
        // loop's: each run starts with it.
        let text = "\"size=0k ovr=1.09\n8 1.80\n\n\"size=0k ovr=1.09\n8 1.82\n";
        let got = runs(text).unwrap();
        assert!(got.separators.is_empty());
        assert_eq!(got.parts, [0..2, 3..5]);
        // A date the same way.
        let text = "Sun Dec  6 20:11:48 UTC 2026\n4 192438041 21 85139\n\
                    Sun Dec  6 20:12:48 UTC 2026\n4 192438042 21 85140\n";
        assert_eq!(runs(text).unwrap().separators, [0, 2]);
    }

    #[test]
    fn each_prompt_opens_a_run_and_prompts_one_under_the_other_one_run() {
        // A wrapper's prompt, then the tool's; the next run's command
        // differs (`1 3`).
        let text = "$ ./run-bench.sh --quick\n$ mpstat 1 2\nLinux 6.1 (vm)\nall 91.50\n\
                    $ mpstat 1 3\nLinux 6.1 (vm)\nall 94.47\n";
        let got = runs(text).unwrap();
        assert!(got.separators.is_empty());
        assert_eq!(got.parts, [0..4, 4..7]);
        // A loop's counter in a prompt is the command's argument.
        let text = "$ ./bench 4\nops 12\n$ ./bench 8\nops 20\n";
        assert_eq!(runs(text).unwrap().parts, [0..2, 2..4]);
    }

    #[test]
    fn a_tool_s_time_stamped_line_is_no_loop_s_line() {
        // perf stat -I -x: each interval's first line, time-stamped, is
        // the tool's: the file is one run.
        let text = "     0.300384616,1.06,msec,task-clock,1058514,100.00,0.004,CPUs utilized\n\
                    \x20    0.300384616,1,,context-switches,1058514,100.00,944.721,/sec\n\
                    \x20    0.601013393,1.05,msec,task-clock,1051208,100.00,0.003,CPUs utilized\n\
                    \x20    0.601013393,0,,context-switches,1051208,100.00,0.000,/sec\n";
        assert_eq!(runs(text), None);
    }

    #[test]
    fn a_run_s_first_line_that_comes_again_opens_the_next() {
        // gbench's CSV header, printed by each run.
        let text = "name,iterations,real_time\n\"BM_Sum/64\",1000,12.5\n\n\
                    name,iterations,real_time\n\"BM_Sum/64\",1000,12.9\n";
        let got = runs(text).unwrap();
        assert!(got.separators.is_empty());
        // Blank lines between runs belong to neither.
        assert_eq!(got.parts, [0..2, 3..5]);
        // One run: nothing comes again.
        assert_eq!(runs("tcp_bw:\n    bw  =  1.74 GB/sec\n"), None);
        // Values one under the other are no runs with separators: every
        // line has the one shape.
        let got = runs("0.173\n0.171\n").unwrap_or(LoopRuns {
            parts: Vec::new(),
            separators: Vec::new(),
        });
        assert!(got.separators.is_empty());
    }

    #[test]
    fn a_run_s_lines_within_are_those_a_scan_finds() {
        // `filled_within` halves where a scan of every filled line was.
        let filled = [1usize, 2, 5, 6, 9];
        for start in 0..11 {
            for end in start..11 {
                let inside: Vec<usize> = filled
                    .iter()
                    .copied()
                    .filter(|i| (start..end).contains(i))
                    .collect();
                let want = match (inside.first(), inside.last()) {
                    (Some(&a), Some(&b)) => a..b + 1,
                    _ => start..start,
                };
                assert_eq!(super::filled_within(&filled, start..end), want);
            }
        }
        // A line repeated: a run per line, each of its line alone.
        let text = "udp_bw:\n".repeat(2000);
        let got = runs(&text).expect("runs");
        assert_eq!(got.parts.len(), 2000);
        assert!(got.parts.iter().enumerate().all(|(k, p)| *p == (k..k + 1)));
    }
}
