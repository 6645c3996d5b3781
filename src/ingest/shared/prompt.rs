//! A shell prompt above a tool's output: the command a user typed (`$
//! ./bench -t 4`, `root@host:~# cyclictest -p 80`, `[user@host dir]$
//! make bench`), copied into the log with what the command printed. It is
//! the capture's command, a label for the run below it, never one of its
//! values, a variant or a table row; a reader that does not read the
//! command reads the capture as if the line were not there.

use super::pattern::lazy_re;
use crate::ingest::Source;

// An optional virtualenv or conda tag, an optional `user@host:dir`,
// `[user@host dir]` or `host:dir`, the prompt's `$` or `#`, then the
// command.
lazy_re!(
    PROMPT,
    r"^(?:\([\w.-]+\)\s*)?(\[[^\]\s][^\]]*\]|[\w.-]+@[\w.-]+(?::\S*)?|[\w.-]+:\S*)?([$#])\s+(\S.*?)\s*$"
);

/// The command of `text` when it is a shell prompt line: a `$` or `#`
/// prompt (after the user, host and directory a shell shows), then a
/// program's name. A bare `$` or `#` is also a comment's or a price's
/// mark, so without the user and host before it the command must look
/// like one: a program name first (a word of letters, digits and `./_-~+`
/// that starts with a letter, `.`, `/` or `~`, not ending with `:`), and
/// after a `#`, which tools print before their own comments (`# Running
/// 'sched/pipe' benchmark:`, `# /dev/cpu_dma_latency set to 0us`), an
/// option (`-p`, `--quick`) among the words as well, as comments hold
/// none.
pub(crate) fn shell_prompt(text: &str) -> Option<&str> {
    let caps = PROMPT.captures(text.trim_start())?;
    let command = caps.get(3)?.as_str();
    if caps.get(1).is_some() {
        return Some(command);
    }
    let mut words = command.split_whitespace();
    let program = words.next()?;
    let program_like = program.starts_with(|c: char| c.is_ascii_alphabetic() || "./~".contains(c))
        && program
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "./_-~+".contains(c))
        && !program.ends_with([':', '.'])
        && !program.starts_with("..")
        // Prose after a `$` or `#`: a capitalised word (`# Running`).
        && !program.starts_with(|c: char| c.is_ascii_uppercase());
    if !program_like {
        return None;
    }
    let option = |w: &str| {
        let flag = w.trim_start_matches('-');
        w.starts_with('-')
            && w.len() - flag.len() <= 2
            && flag.starts_with(|c: char| c.is_ascii_alphabetic())
    };
    match &caps[2] {
        "#" => words.any(option).then_some(command),
        _ => Some(command),
    }
}

/// `src` without its leading shell prompts (`$ cd /tmp`, then `$ ./bench`;
/// the blank lines among them too), and the prompts' line numbers, when
/// its first filled line is one; the lines keep their numbers.
pub(crate) fn behind_prompt(src: &Source) -> Option<(Source, Vec<u32>)> {
    let mut prompts = Vec::new();
    let mut at = 0;
    for (i, l) in src.lines.iter().enumerate() {
        if l.text.trim().is_empty() {
            continue;
        }
        if shell_prompt(&l.text).is_none() {
            break;
        }
        prompts.push(l.number);
        at = i + 1;
    }
    let rest = src.lines[at..].to_vec();
    // A prompt with nothing after it holds no capture.
    (!prompts.is_empty() && rest.iter().any(|l| !l.text.trim().is_empty()))
        .then(|| (Source::from_lines(&src.path, rest), prompts))
}

#[cfg(test)]
mod tests {
    use super::{behind_prompt, shell_prompt};
    use crate::ingest::Source;

    #[test]
    fn a_prompt_gives_the_command_typed() {
        for (line, command) in [
            ("$ ./run-bench.sh --quick", "./run-bench.sh --quick"),
            ("$ sudo cryptsetup benchmark", "sudo cryptsetup benchmark"),
            (
                "root@imx6ulevk:~# cryptsetup benchmark",
                "cryptsetup benchmark",
            ),
            (
                "[root@host ublk]# ~/git/fio/t/io_uring -p0 /dev/ublkb0",
                "~/git/fio/t/io_uring -p0 /dev/ublkb0",
            ),
            ("user@box:~/src$ make -j4 bench", "make -j4 bench"),
            ("(venv) user@box:~$ pytest", "pytest"),
            ("# cyclictest -m -p 80 -D 10", "cyclictest -m -p 80 -D 10"),
            (
                "$ bw_file_rd 64m io_only /tmp/f",
                "bw_file_rd 64m io_only /tmp/f",
            ),
        ] {
            assert_eq!(shell_prompt(line), Some(command), "{line}");
        }
    }

    #[test]
    fn comments_prices_and_headers_are_no_prompts() {
        for line in [
            // Tools' own comment lines.
            "# Running 'sched/pipe' benchmark:",
            "# /dev/cpu_dma_latency set to 0us",
            "#           time             counts unit events",
            "# tasks-scale type result",
            "# Executed 10000000 getppid() calls",
            "# hostname;interval;timestamp;CPU;%usr;%nice",
            "# function 'default' (Default memset() provided by glibc)",
            // Money, a bare prompt, a Markdown heading.
            "$ 12.30 per hour",
            "$",
            "# Results",
            "## Results",
            "$ : note",
        ] {
            assert_eq!(shell_prompt(line), None, "{line}");
        }
    }

    #[test]
    fn the_capture_behind_its_prompt_keeps_its_line_numbers() {
        let src = Source::from_text(
            "t.txt",
            "\n$ qperf -v host tcp_bw\ntcp_bw:\n    bw  =  1.7 GB/sec\n",
        );
        let (bare, lines) = behind_prompt(&src).unwrap();
        assert_eq!(lines, [2]);
        assert_eq!(bare.lines[0].number, 3);
        assert_eq!(bare.lines[0].text, "tcp_bw:");
        // Prompts one under the other (a wrapper's, then the tool's).
        let src = Source::from_text(
            "t.txt",
            "$ ./run.sh --quick\n$ qperf -v host tcp_bw\ntcp_bw:\n",
        );
        let (bare, lines) = behind_prompt(&src).unwrap();
        assert_eq!(lines, [1, 2]);
        assert_eq!(bare.lines[0].text, "tcp_bw:");
        // No prompt, or a prompt with nothing below it: no capture behind.
        assert!(behind_prompt(&Source::from_text("t.txt", "tcp_bw:\n")).is_none());
        assert!(behind_prompt(&Source::from_text("t.txt", "$ ls -l\n\n")).is_none());
    }
}
