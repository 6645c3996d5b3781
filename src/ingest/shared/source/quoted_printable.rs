//! Quoted-printable mail bodies: telling one from a plain log that holds
//! `=` (`Iterations=5000`, fio's `>=64=100.0%`), and decoding it, soft
//! breaks joined and each decoded line numbered as the encoded line it
//! began on.

mod bare_equals;

use bare_equals::{bare_soft_breaks, encoded_quoted_breaks, has_bare_equals, paragraph_around};

/// What [`looks_quoted_printable`] says of the lines of `text`, read from
/// the text as a whole: every sign it looks for starts with `=` and holds
/// no line break.
pub(super) fn text_is_quoted_printable(text: &str) -> bool {
    let b = text.as_bytes();
    // Soft breaks span two lines: looked for only where one may be.
    let lines = || text.lines().map(|l| l.strip_suffix('\r').unwrap_or(l));
    if memchr::memmem::find(b, b" =\n").is_some() && soft_breaks(lines()) >= 2 {
        return true;
    }
    if memchr::memmem::find(b, b"=\n").is_some() && bare_soft_breaks(lines()) {
        return true;
    }
    if QP_HEADERS
        .iter()
        .any(|h| memchr::memmem::find(b, h.as_bytes()).is_some())
        || encoded_quoted_breaks(text) >= 2
    {
        return true;
    }
    memchr::memchr_iter(b'=', b).any(|i| {
        let at = |k: usize| b.get(i + k).copied();
        let hex = |k: usize| at(k).is_some_and(is_hex);
        if hex(1) && hex(2) && at(3) == Some(b'=') && hex(4) && hex(5) && high_pair(&b[i..]) {
            return true;
        }
        if b[i..].starts_with(b"=3D") || b[i..].starts_with(NBSP_RUN.as_bytes()) {
            return true;
        }
        // `=20` / `=09` at the end of a line (before `\n` or the end, past
        // any `\r`: a line's end as `strip_line_end` takes it), in a
        // paragraph with no bare `=`: an encoder escapes every `=` of what
        // it encodes, so k6's `vus_max....: 20 min=20 max=20` under
        // `vus....: 1 min=1 max=20` is plain.
        (b[i..].starts_with(b"=20") || b[i..].starts_with(b"=09"))
            && matches!(b[i + 3..].iter().find(|&&c| c != b'\r'), None | Some(b'\n'))
            && !paragraph_around(text, i).any(has_bare_equals)
    })
}

/// How many soft breaks an archive shows undecoded: a quoted line ending
/// in ` =` whose rest went to the next line without the quote marks. Two
/// make a quoted-printable body (a plain log has no reason for one).
fn soft_breaks<'a>(lines: impl Iterator<Item = &'a str>) -> usize {
    let mut count = 0;
    let mut prev: Option<&[u8]> = None;
    for l in lines {
        let b = l.as_bytes();
        if let Some(a) = prev {
            if a.first() == Some(&b'>')
                && a.len() >= 2
                && a[a.len() - 1] == b'='
                && matches!(a[a.len() - 2], b' ' | b'\t')
                && !b.is_empty()
                && b[0] != b'>'
            {
                count += 1;
            }
        }
        prev = Some(b);
    }
    count
}

/// A run of spaces as a Latin-1 mail client encodes it: no-break space,
/// space, no-break space. A plain log has no reason to hold it.
const NBSP_RUN: &str = "=A0 =A0";

/// The header line of a quoted-printable mail body, as mail clients and
/// archives spell it.
const QP_HEADERS: [&str; 2] = [
    "Content-Transfer-Encoding: quoted-printable",
    "content-transfer-encoding: quoted-printable",
];

fn is_hex(b: u8) -> bool {
    b.is_ascii_digit() || (b'A'..=b'F').contains(&b)
}

/// Whether `=XX=YY` at the start of `b` escapes two bytes of a non-ASCII
/// character (UTF-8 `=C3=A9`, Latin-1 `=E9=E8`): both at 0x80 or above.
/// ASCII written so would be plain text, and `>=64=100.0%` (fio's depth
/// distribution) is no escape.
fn high_pair(b: &[u8]) -> bool {
    let byte = |k: usize| {
        let digit = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
        digit(b[k]) * 16 + digit(b[k + 1])
    };
    b.len() >= 6 && byte(1) >= 0x80 && byte(4) >= 0x80
}

/// Quoted-printable is only undone when the text shows it: `=3D`, `=20`
/// before a break, or an `=XX=YY` UTF-8 escape pair. Plain logs contain `=`
/// often (`Iterations=5000`) and must not be touched.
pub(super) fn looks_quoted_printable(lines: &[(String, u32)]) -> bool {
    let mut escapes = 0;
    if soft_breaks(lines.iter().map(|(l, _)| l.as_str())) >= 2
        || bare_soft_breaks(lines.iter().map(|(l, _)| l.as_str()))
    {
        return true;
    }
    if lines
        .iter()
        .map(|(l, _)| encoded_quoted_breaks(l))
        .sum::<usize>()
        >= 2
    {
        return true;
    }
    let bare_in_paragraph = paragraphs_with_bare_equals(lines);
    for (k, (l, _)) in lines.iter().enumerate() {
        let b = l.as_bytes();
        for i in 0..b.len().saturating_sub(5) {
            if b[i] == b'='
                && is_hex(b[i + 1])
                && is_hex(b[i + 2])
                && b[i + 3] == b'='
                && is_hex(b[i + 4])
                && is_hex(b[i + 5])
                && high_pair(&b[i..])
            {
                escapes += 1;
            }
        }
        if l.contains("=3D")
            || ((l.ends_with("=20") || l.ends_with("=09")) && !bare_in_paragraph[k])
            || l.contains(NBSP_RUN)
            || QP_HEADERS.iter().any(|h| l.contains(h))
        {
            escapes += 1;
        }
    }
    escapes > 0
}

/// For each line, whether a line of its paragraph (the lines about it up
/// to a blank one) holds a bare `=`: what [`text_is_quoted_printable`]
/// asks of the paragraph around an `=20` ending a line.
fn paragraphs_with_bare_equals(lines: &[(String, u32)]) -> Vec<bool> {
    let mut out = vec![false; lines.len()];
    let mut start = 0;
    while start < lines.len() {
        if lines[start].0.trim().is_empty() {
            start += 1;
            continue;
        }
        let end = lines[start..]
            .iter()
            .position(|(l, _)| l.trim().is_empty())
            .map_or(lines.len(), |n| start + n);
        let bare = lines[start..end].iter().any(|(l, _)| has_bare_equals(l));
        out[start..end].fill(bare);
        start = end;
    }
    out
}

/// The lines of a quoted-printable body decoded: each escape as the byte
/// it stands for, and a line ending in a soft break joined to the next.
pub(super) fn undo_quoted_printable(lines: Vec<(String, u32)>) -> Vec<(String, u32)> {
    let mut out: Vec<(String, u32)> = Vec::with_capacity(lines.len());
    let mut pending: Option<(Vec<u8>, u32)> = None;
    for (line, number) in lines {
        let (mut buf, first) = pending.take().unwrap_or((Vec::new(), number));
        let b = line.as_bytes();
        // An encoder writes the text's own `=` as `=3D`: a line ending in
        // `==` (a banner, a rule of `=` a loop printed above the body)
        // is not encoded, and its last `=` is no soft break.
        let soft_break = b.last() == Some(&b'=') && !b.ends_with(b"==");
        let body = if soft_break { &b[..b.len() - 1] } else { b };
        let mut i = 0;
        while i < body.len() {
            if body[i] == b'=' && i + 2 < body.len() && is_hex(body[i + 1]) && is_hex(body[i + 2]) {
                let v = u8::from_str_radix(&line[i + 1..i + 3], 16).unwrap_or(b'?');
                buf.push(v);
                i += 3;
            } else {
                buf.push(body[i]);
                i += 1;
            }
        }
        if soft_break {
            pending = Some((buf, first));
        } else {
            push_decoded(&mut out, buf, first);
        }
    }
    if let Some((buf, first)) = pending {
        push_decoded(&mut out, buf, first);
    }
    out
}

/// Adds a decoded line to `out`, as the lines it holds: an encoded line
/// end (`=0A`, `=0D=0A`) is a line break like any other, each line numbered
/// as the encoded line it began on.
fn push_decoded(out: &mut Vec<(String, u32)>, buf: Vec<u8>, number: u32) {
    if !buf.contains(&b'\n') {
        out.push((decoded_line(buf), number));
        return;
    }
    for part in buf.split(|&c| c == b'\n') {
        let part = part.strip_suffix(b"\r").unwrap_or(part);
        out.push((decoded_line(part.to_vec()), number));
    }
}

/// The text of a decoded quoted-printable line: UTF-8 when it is, else
/// Latin-1 (`=A0` of an ISO-8859-1 mail is one byte, not a UTF-8 sequence;
/// read as UTF-8 it became U+FFFD and every column gap with it).
fn decoded_line(buf: Vec<u8>) -> String {
    match String::from_utf8(buf) {
        Ok(s) => s,
        Err(e) => e.into_bytes().iter().map(|&b| b as char).collect(),
    }
}
