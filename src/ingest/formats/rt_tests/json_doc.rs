//! What every rt-tests `--json` document holds around its figures: the
//! `thread` object, one entry per measuring thread keyed by its number,
//! and the command line that ran it.

use crate::error::Result;
use crate::ingest::Source;
use serde_json::Value;

/// The document of `src`; `what` names it in errors (`cyclictest JSON`).
pub(super) fn read(src: &Source, what: &str) -> Result<Value> {
    serde_json::from_str(src.raw_trimmed()).map_err(|e| {
        let msg = format!("invalid {what} (column {}): {e}", e.column());
        src.error(Some(e.line() as u32), msg)
    })
}

/// The program the command line ran (`/usr/bin/oslat -D 10` → `oslat`),
/// or `fallback` without one.
pub(super) fn program(doc: &Value, fallback: &str) -> String {
    doc.get("cmdline:")
        .and_then(Value::as_str)
        .and_then(|c| c.split_whitespace().next())
        .map(|p| p.rsplit('/').next().unwrap_or(p))
        .filter(|p| !p.is_empty())
        .unwrap_or(fallback)
        .to_string()
}

/// The threads in the order of their numbers: number, key and object.
pub(super) fn threads<'d>(
    src: &Source,
    doc: &'d Value,
    what: &str,
) -> Result<Vec<(u64, &'d String, &'d Value)>> {
    let Some(threads) = doc.get("thread").and_then(Value::as_object) else {
        return Err(src.error(None, format!("{what} has no `thread` object")));
    };
    let mut out = Vec::with_capacity(threads.len());
    for (k, v) in threads {
        let Ok(n) = k.parse::<u64>() else {
            return Err(src.error(None, format!("thread key `{k}` is not a thread number")));
        };
        out.push((n, k, v));
    }
    out.sort_by_key(|t| t.0);
    Ok(out)
}
