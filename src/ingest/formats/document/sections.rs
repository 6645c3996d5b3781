//! Variants of harness blocks pasted into a mail, named by the headings
//! above them.
//!
//! A reply pastes one run per build, each under a heading of its own
//! (`Before:`, `Base`, `v5.12-rc5 + patchset`, `NO_FAIR_SLEEPERS`). The
//! harness's importer reads every block and knows nothing of the headings,
//! so its rows carry no variant and the runs of two builds look like one.
//! Here a row without a variant takes the heading above its block when the
//! heading names a build, or when the same measurement appears under two
//! or more headings (then the headings are what tells the runs apart).

use super::grid::variant_like;
use super::labels;
use crate::ingest::shared::numbers::parse_number;
use crate::ingest::Source;
use crate::model::{Observation, SmolStr, Stat};
use hashbrown::{HashMap, HashSet};

/// The most words a heading has: a longer line is a sentence.
const HEADING_WORDS: usize = 10;

/// Names the variant of each row of `obs` that has none from the heading
/// above its block; `used`: the lines the importer read (sorted).
pub fn name_variants(src: &Source, obs: &mut [Observation], used: &[u32]) {
    if obs.iter().all(|o| !o.variant.is_empty()) {
        return;
    }
    let blocks = block_headings(src, used);
    let heading_of = |line: u32| -> Option<&str> {
        let at = blocks.partition_point(|(l, _)| *l <= line);
        at.checked_sub(1).and_then(|i| blocks[i].1.as_deref())
    };
    // A heading names a build, or tells the runs of one measurement apart
    // (it appears under two headings or more).
    let names: Vec<(usize, SmolStr)> = {
        let unnamed = || obs.iter().enumerate().filter(|(_, o)| o.variant.is_empty());
        let mut seen: HashMap<_, HashSet<&str>> = HashMap::new();
        for (_, o) in unnamed() {
            if let Some(h) = heading_of(o.line) {
                seen.entry(key(o)).or_default().insert(h);
            }
        }
        unnamed()
            .filter_map(|(i, o)| {
                let h = heading_of(o.line)?;
                let repeated = seen.get(&key(o)).is_some_and(|hs| hs.len() >= 2);
                (variant_like(h) || repeated).then(|| (i, SmolStr::from(h)))
            })
            .collect()
    };
    for (i, name) in names {
        obs[i].variant = name;
    }
}

/// What a row measures, its variant aside.
fn key(o: &Observation) -> (&str, &str, &str, Stat) {
    (&o.benchmark, &o.params, &o.metric, o.stat)
}

/// The first line of each block of importer-read lines and the heading
/// chosen for it. A block's candidates are the headings in the gap above
/// it, nearest first, up to a sentence; the nearest that is not over most
/// blocks is chosen (the build's name, not the command line repeated over
/// each run), and a block with none keeps the heading of the block above.
fn block_headings(src: &Source, used: &[u32]) -> Vec<(u32, Option<String>)> {
    let mut blocks: Vec<(u32, Vec<String>)> = Vec::new();
    let mut gap: Vec<String> = Vec::new();
    let mut gap_seen = true;
    // Whether a blank line came since the last line the importer read: a
    // line in the same run of lines as the tool's (iperf's `[ ID] Interval
    // Transfer` over its summary, fio's `clat percentiles (usec):`) is the
    // tool's own, not a heading set above a block, unless it names a build
    // (`After:` right under the last line of the run before).
    let mut apart = true;
    for l in &src.lines {
        if used.binary_search(&l.number).is_ok() {
            if gap_seen {
                gap.reverse();
                blocks.push((l.number, std::mem::take(&mut gap)));
                gap_seen = false;
            }
            apart = false;
            continue;
        }
        let t = l.text.trim();
        if t.is_empty() {
            apart = true;
            continue;
        }
        if !t.chars().any(char::is_alphabetic) {
            continue;
        }
        if !gap_seen {
            gap_seen = true;
        }
        if let Some(h) = heading(t) {
            if apart || blocks.is_empty() || variant_like(&h) {
                gap.push(h);
            }
        } else if t.split_whitespace().count() > HEADING_WORDS && !tool_line(t) {
            // A sentence ends what the headings above it could name, and
            // so does a command typed at a prompt (a capture of its own
            // begins); a long line of the tool's that the importer left
            // (fio's `crypt: (groupid=0, jobs=1): err= 0: pid=…: Thu Sep
            // 15 …`, a command line with its settings) does not.
            gap.clear();
        }
    }
    // Headings over most blocks that have headings of their own (a
    // command line, a machine, a line the tool prints before each run)
    // name none.
    let mut over: HashMap<&String, usize> = HashMap::new();
    for b in &blocks {
        let distinct: HashSet<&String> = b.1.iter().collect();
        for h in distinct {
            *over.entry(h).or_default() += 1;
        }
    }
    let headed = blocks.iter().filter(|b| !b.1.is_empty()).count();
    let common: HashSet<&String> = over
        .into_iter()
        .filter(|&(_, n)| n >= 2 && n * 2 > headed)
        .map(|(h, _)| h)
        .collect();
    let mut out: Vec<(u32, Option<String>)> = Vec::with_capacity(blocks.len());
    for (line, candidates) in &blocks {
        let chosen = candidates
            .iter()
            .find(|h| !common.contains(h))
            .or(candidates.first())
            .cloned()
            .or_else(|| out.last().and_then(|b| b.1.clone()));
        out.push((*line, chosen));
    }
    out
}

/// The heading a line makes, if it is one: a few words, no sentence, no
/// data (two numbers or more), no time of day, no log line behind a
/// timestamp, no mail header.
fn heading(t: &str) -> Option<String> {
    let words = t.split_whitespace().count();
    if words > HEADING_WORDS
        || t.ends_with('.')
        || labels::is_noise(t)
        || crate::ingest::shared::text::is_timestamped(t)
    {
        return None;
    }
    if is_data(t) && !announces(t) {
        return None;
    }
    let name = labels::clean(t.trim_matches(['*', '#', '=', '_', '`', '"', '\'']), 60);
    (!name.is_empty()).then_some(name)
}

/// Whether a line announces what follows it (`Iteration 0 (under-clocked
/// 1052.476 MHz):`): its numbers are the writer's name for the run below,
/// not data, unless it sets a value (`=`) or holds a time of day.
fn announces(t: &str) -> bool {
    t.ends_with(':')
        && !t.contains('=')
        && !t.split_whitespace().any(|w| {
            let w = w.trim_end_matches(':');
            w.len() >= 5
                && w.as_bytes().get(2) == Some(&b':')
                && w.bytes().all(|b| b.is_ascii_digit() || b == b':')
        })
}

/// A line of a tool's output or of its settings, not a sentence nor a
/// command typed at a prompt.
fn tool_line(t: &str) -> bool {
    is_data(t) && crate::ingest::shared::prompt::shell_prompt(t).is_none()
}

/// Whether a line holds data rather than words: two numbers or more, a
/// time of day or a `key=value` setting, and no full stop at its end.
fn is_data(t: &str) -> bool {
    let numbers = t
        .split_whitespace()
        .filter(|w| parse_number(w.trim_matches(['(', ')', ','])).is_some())
        .count();
    let clock = t.split_whitespace().any(|w| {
        w.len() >= 5
            && w.as_bytes().get(2) == Some(&b':')
            && w.bytes().all(|b| b.is_ascii_digit() || b == b':')
    });
    (numbers >= 2 || clock || t.contains('=')) && !t.ends_with('.')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_at_a_prompt_is_no_tool_line() {
        // A capture of its own begins at a prompt; a command line with its
        // settings and no prompt is the tool's.
        assert!(!tool_line(
            "[root@five ~]# perf stat -e context-switches taskset -c 0 perf bench sched pipe -l 10000"
        ));
        assert!(tool_line(
            "schbench -m 2 -t 4 -s 10000 -c 1000000 -r 10 -x 1"
        ));
        assert!(!tool_line(
            "The runs below were made on a quiet machine, 2 and 3 times."
        ));
    }

    #[test]
    fn headings_are_short_lines_without_data() {
        assert_eq!(heading("Before:").as_deref(), Some("Before"));
        assert_eq!(
            heading("v5.12-rc5 + mc-llc+").as_deref(),
            Some("v5.12-rc5 + mc-llc+")
        );
        assert_eq!(heading("Thu Aug 16 22:34:59 IST 2007"), None);
        assert_eq!(heading("Elapsed Time 415.988 (8.37909)"), None);
        // A line announcing the run below it, numbers and all.
        assert_eq!(
            heading("Iteration 0 (under-clocked 1052.476 MHz):").as_deref(),
            Some("Iteration 0 (under-clocked 1052.476 MHz)")
        );
        assert_eq!(heading("start time 12:04:11:"), None);
        assert_eq!(heading("[   41.021365] refscale: Start"), None);
        assert_eq!(
            heading("The runs below were made on a quiet machine."),
            None
        );
    }

    /// The variants `mixed::read` gives the rows of `format` in `text`, by line.
    fn variants(format: &str, text: &str) -> Vec<(u32, String)> {
        let registry = crate::ingest::Registry::builtin();
        let format = registry.get(format).expect("format");
        let src = Source::from_text("mail.txt", text);
        let rows = super::super::mixed::read(&registry, format, &src)
            .expect("read")
            .parsed
            .observations;
        let mut v: Vec<(u32, String)> = rows
            .iter()
            .map(|o| (o.line, o.variant.to_string()))
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// Two sentences that make the text a mail, above the pasted runs.
    const MAIL: &str = "A reply in a review thread with the runs asked for, pasted from a terminal as they came,\n\
        one run on the kernel before the series and one on the kernel with the whole series applied.\n\n";

    #[test]
    fn a_line_announcing_a_run_names_it_despite_its_numbers() {
        // Lines of a corpus post (pktgen runs at three CPU clocks).
        let run = |n: u32, clock: &str, usec: u32, pps: u32| {
            format!(
                "Iteration {n} ({clock} MHz):\n\
                 Cpu(s):  0.3%us, 13.6%sy,  0.0%ni,  0.0%id,  0.0%wa, 31.2%hi, 54.8%si,  0.0%st\n\
                 Result: OK: {usec}(c28791584+d118564) usec, 4000000 (60byte,0frags)\n\
                 \x20 {pps}pps 66Mb/sec (66412320bps) errors: 0\n\n"
            )
        };
        let text = format!(
            "{MAIL}{}{}",
            run(0, "under-clocked 1052.476", 28910148, 138359),
            run(1, "normal 1397.657", 26947273, 148438)
        );
        let got = variants("pktgen", &text);
        // The result and rate lines of each run (the CPU summary above
        // them is the document reader's).
        let zero = "Iteration 0 (under-clocked 1052.476 MHz)";
        let one = "Iteration 1 (normal 1397.657 MHz)";
        for (line, want) in [(6, zero), (7, zero), (11, one), (12, one)] {
            assert!(
                got.contains(&(line, want.to_string())),
                "line {line}: {got:?}"
            );
        }
    }

    #[test]
    fn a_tool_s_header_inside_its_run_is_no_heading() {
        // iperf3's `[ ID] Interval …` lines, which the importer leaves,
        // sit in the run: the runs keep the headings set apart above them.
        let text = format!(
            "{MAIL}\
            >>> before:\n\
            >>>\n\
            >>> $ iperf3 -c beaglev\n\
            >>> Connecting to host beaglev, port 5201\n\
            >>> [  5] local 192.168.85.6 port 44840 connected to 192.168.85.48 port 5201\n\
            >>> [ ID] Interval           Transfer     Bitrate         Retr  Cwnd\n\
            >>> [  5]   0.00-1.00   sec  76.4 MBytes   641 Mbits/sec   27    624 KBytes\n\
            >>> [  5]   1.00-2.00   sec  72.5 MBytes   608 Mbits/sec    0    708 KBytes\n\
            >>> [  5]   2.00-3.00   sec  73.8 MBytes   619 Mbits/sec   10    451 KBytes\n\
            >>> [  5]   3.00-4.00   sec  72.5 MBytes   608 Mbits/sec    0    564 KBytes\n\
            >>> [  5]   4.00-5.00   sec  73.8 MBytes   619 Mbits/sec    0    658 KBytes\n\
            >>> [  5]   5.00-6.00   sec  73.8 MBytes   619 Mbits/sec   14    522 KBytes\n\
            >>> [  5]   6.00-7.00   sec  73.8 MBytes   619 Mbits/sec    0    621 KBytes\n\
            >>> [  5]   7.00-8.00   sec  72.5 MBytes   608 Mbits/sec    0    706 KBytes\n\
            >>> [  5]   8.00-9.00   sec  73.8 MBytes   619 Mbits/sec   20    580 KBytes\n\
            >>> [  5]   9.00-10.00  sec  73.8 MBytes   619 Mbits/sec    0    672 KBytes\n\
            >>> - - - - - - - - - - - - - - - - - - - - - - - - -\n\
            >>> [ ID] Interval           Transfer     Bitrate         Retr\n\
            >>> [  5]   0.00-10.00  sec   736 MBytes   618 Mbits/sec   71             sender\n\
            >>> [  5]   0.00-10.01  sec   733 MBytes   615 Mbits/sec                  receiver\n\
            >>>\n\
            >>> after:\n\
            >>>\n\
            >>> $ iperf3 -c beaglev\n\
            >>> Connecting to host beaglev, port 5201\n\
            >>> [  5] local 192.168.85.6 port 44864 connected to 192.168.85.48 port 5201\n\
            >>> [ ID] Interval           Transfer     Bitrate         Retr  Cwnd\n\
            >>> [  5]   0.00-1.00   sec   109 MBytes   912 Mbits/sec   48    559 KBytes\n\
            >>> [  5]   1.00-2.00   sec   108 MBytes   902 Mbits/sec    0    690 KBytes\n\
            >>> [  5]   2.00-3.00   sec   106 MBytes   891 Mbits/sec   36    396 KBytes\n\
            >>> [  5]   3.00-4.00   sec   108 MBytes   902 Mbits/sec    0    567 KBytes\n\
            >>> [  5]   4.00-5.00   sec   106 MBytes   891 Mbits/sec    0    699 KBytes\n\
            >>> [  5]   5.00-6.00   sec   106 MBytes   891 Mbits/sec   32    414 KBytes\n\
            >>> [  5]   6.00-7.00   sec   106 MBytes   891 Mbits/sec    0    583 KBytes\n\
            >>> [  5]   7.00-8.00   sec   106 MBytes   891 Mbits/sec    0    708 KBytes\n\
            >>> [  5]   8.00-9.00   sec   106 MBytes   891 Mbits/sec   28    433 KBytes\n\
            >>> [  5]   9.00-10.00  sec   108 MBytes   902 Mbits/sec    0    591 KBytes\n\
            >>> - - - - - - - - - - - - - - - - - - - - - - - - -\n\
            >>> [ ID] Interval           Transfer     Bitrate         Retr\n\
            >>> [  5]   0.00-10.00  sec  1.04 GBytes   897 Mbits/sec  144             sender\n\
            >>> [  5]   0.00-10.01  sec  1.04 GBytes   894 Mbits/sec                  receiver\n\
            >>>\n\
"
        );
        let got = variants("iperf3", &text);
        // `after:` is line 25.
        assert!(got.iter().any(|(l, _)| *l > 25), "{got:?}");
        for (line, variant) in &got {
            let want = if *line < 25 { "before" } else { "after" };
            assert_eq!(variant, want, "line {line}: {got:?}");
        }
    }
}
