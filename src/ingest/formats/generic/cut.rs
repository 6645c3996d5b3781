//! A JSON document cut short (a monitor killed mid-write, `mpstat -o
//! JSON` stopped by a harness): the values it completed are read, and
//! the lines after the cut are accounted as such.

/// The text of `raw` up to the end of its last complete array or object,
/// with the brackets still open at that point closed, and the line the
/// cut falls on; `None` when nothing was completed.
pub(super) fn mend(raw: &str) -> Option<(String, u32)> {
    let b = raw.as_bytes();
    let mut open: Vec<u8> = Vec::new();
    let mut last: Option<(usize, Vec<u8>)> = None;
    let (mut in_string, mut escaped) = (false, false);
    for (i, &c) in b.iter().enumerate() {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            b'"' => in_string = true,
            b'{' | b'[' => open.push(c),
            b'}' | b']' => {
                open.pop()?;
                // Every close ends a value: what precedes it, with the
                // brackets still open closed, is a whole document.
                last = Some((i + 1, open.clone()));
            }
            _ => {}
        }
    }
    let (end, still_open) = last?;
    if still_open.is_empty() {
        // The document closed: what follows it is no cut.
        return None;
    }
    let mut text = raw[..end].to_string();
    for c in still_open.iter().rev() {
        text.push(if *c == b'{' { '}' } else { ']' });
    }
    let line = raw[..end].matches('\n').count() as u32 + 1;
    Some((text, line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_completed_values_are_kept_and_the_rest_closed() {
        let (text, line) = mend("{\"a\": [\n {\"x\": 1},\n {\"x\": 2, \"y\": [3").unwrap();
        assert_eq!(text, "{\"a\": [\n {\"x\": 1}]}");
        assert_eq!(line, 2);
        assert!(mend("{\"a\": \"}\"").is_none());
        assert!(mend("[1, 2]").is_none());
    }
}
