//! Where an archive keeps what: `manifest.json` at its root, and one
//! Parquet part per input and variant under a Hive partition,
//! `variant=<value>/part-<digest>.parquet`, the value percent-encoded as
//! DuckDB, Spark and polars write and read it (bytes other than ASCII
//! letters, digits and `-_.~` become `%XX`).

use std::path::{Path, PathBuf};

/// The manifest's file name, at the archive's root.
pub const MANIFEST: &str = "manifest.json";

/// The Hive partition column of the layout.
pub const PARTITION: &str = "variant";

/// A partition value that says "no value", as Hive and Spark write it.
const NULL_PARTITION: &str = "__HIVE_DEFAULT_PARTITION__";

/// The part file, relative to the root, of one input's rows of one
/// variant; `digest` tells the inputs apart (the input's path, hashed).
pub fn part_path(variant: &str, digest: u64) -> PathBuf {
    let dir = if variant.is_empty() {
        NULL_PARTITION.to_string()
    } else {
        encode(variant)
    };
    PathBuf::from(format!("{PARTITION}={dir}")).join(format!("part-{digest:016x}.parquet"))
}

/// The variant a part's path names, decoded (`None`: not a part path).
pub fn variant_of(part: &Path) -> Option<String> {
    let dir = part.parent()?.file_name()?.to_str()?;
    let value = dir.strip_prefix(PARTITION)?.strip_prefix('=')?;
    if value == NULL_PARTITION {
        return Some(String::new());
    }
    decode(value)
}

fn encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn decode(value: &str) -> Option<String> {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = value.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_round_trip_through_their_partition() {
        for v in ["6.8-rc1", "with plist", "a/b=c%d", "ärger", ""] {
            let p = part_path(v, 0xabc);
            assert_eq!(p.components().count(), 2, "{p:?}");
            assert_eq!(variant_of(&p).as_deref(), Some(v), "{p:?}");
        }
        assert_eq!(
            part_path("with plist", 1),
            Path::new("variant=with%20plist/part-0000000000000001.parquet")
        );
        assert_eq!(variant_of(Path::new("other=x/part.parquet")), None);
    }
}
