//! Terminal redraws undone: a log captured from a terminal holds every
//! redraw of a progress screen, and only the last one of each line is
//! what the screen showed.

#[cfg(doc)]
use crate::ingest::shared::text::strip_line_end;

/// True when some line would hold an ESC or a carriage return once the
/// `\r`s of its line ending are gone ([`strip_line_end`]): then
/// [`replay_terminal`] has work.
pub(super) fn has_terminal_control(text: &str) -> bool {
    let b = text.as_bytes();
    memchr::memchr2_iter(0x1b, b'\r', b).any(|i| {
        if b[i] == 0x1b {
            return true;
        }
        let after = b[i..].iter().position(|&c| c != b'\r').map(|k| b[i + k]);
        !matches!(after, None | Some(b'\n'))
    })
}

/// Replays ANSI cursor movement and carriage returns the way a terminal
/// would, so that only the last redraw of each screen line survives.
pub(super) fn replay_terminal(lines: Vec<(String, u32)>) -> Vec<(String, u32)> {
    let has_escape = lines
        .iter()
        .any(|(l, _)| l.contains('\u{1b}') || l.contains('\r'));
    if !has_escape {
        return lines;
    }
    let mut screen: Vec<(String, u32)> = Vec::with_capacity(lines.len());
    let mut row = 0usize;
    for (line, number) in lines {
        let mut current = String::new();
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\r' => current.clear(),
                '\u{1b}' => {
                    // CSI: ESC [ params final-byte; other escapes: ESC + one char.
                    if chars.peek() == Some(&'[') {
                        chars.next();
                        let mut params = String::new();
                        let mut fin = None;
                        for d in chars.by_ref() {
                            if ('@'..='~').contains(&d) {
                                fin = Some(d);
                                break;
                            }
                            params.push(d);
                        }
                        if fin == Some('A') {
                            // Cursor up: whatever was being written goes to the
                            // current row first, then we move up.
                            if !current.is_empty() {
                                put(&mut screen, row, std::mem::take(&mut current), number);
                            }
                            let n: usize = params.parse().unwrap_or(1);
                            row = row.saturating_sub(n);
                        } else if fin == Some('B') {
                            // Cursor down, below the redrawn block (how
                            // cyclicdeadline leaves its screen).
                            if !current.is_empty() {
                                put(&mut screen, row, std::mem::take(&mut current), number);
                            }
                            row += params.parse::<usize>().unwrap_or(1);
                        }
                    } else {
                        chars.next();
                    }
                }
                _ => current.push(c),
            }
        }
        // Moving over a line writes nothing on it: only text overwrites.
        if !current.is_empty() || row >= screen.len() {
            put(&mut screen, row, current, number);
        }
        row += 1;
    }
    screen
}

fn put(screen: &mut Vec<(String, u32)>, row: usize, text: String, number: u32) {
    while screen.len() <= row {
        screen.push((String::new(), number));
    }
    screen[row] = (text, number);
}
