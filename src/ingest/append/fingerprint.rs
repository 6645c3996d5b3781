//! What tells an input's content apart without reading it (size and
//! modification time), and what tells it for sure (a digest of its bytes).

use crate::error::{Error, Result};
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

/// Size and modification time of a file, or of a folder's files together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    /// Bytes.
    pub size: u64,
    /// Newest modification time, in nanoseconds since the epoch.
    pub modified_ns: u64,
}

/// The stamp of a file, or of every file under a folder (`folder`).
pub fn stamp(path: &Path, folder: bool) -> Result<Stamp> {
    let mut s = Stamp {
        size: 0,
        modified_ns: 0,
    };
    for f in files_of(path, folder)? {
        let meta = std::fs::metadata(&f).map_err(|e| Error::io(&f, e))?;
        let ns = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos() as u64);
        s.size += meta.len();
        s.modified_ns = s.modified_ns.max(ns);
    }
    Ok(s)
}

/// The XXH3-128 digest, in hex, of a file's bytes, or of a folder's files'
/// relative paths and bytes in path order (a renamed file changes it).
pub fn digest(path: &Path, folder: bool) -> Result<String> {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    for f in files_of(path, folder)? {
        if folder {
            let rel = f.strip_prefix(path).unwrap_or(&f);
            h.update(rel.to_string_lossy().as_bytes());
            h.update(&[0]);
        }
        let bytes = std::fs::read(&f).map_err(|e| Error::io(&f, e))?;
        h.update(&(bytes.len() as u64).to_le_bytes());
        h.update(&bytes);
    }
    Ok(format!("{:032x}", h.digest128()))
}

/// The file itself, or a folder's files, recursively, sorted.
fn files_of(path: &Path, folder: bool) -> Result<Vec<PathBuf>> {
    if !folder {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut out = Vec::new();
    let mut todo = vec![path.to_path_buf()];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).map_err(|e| Error::io(&dir, e))? {
            let entry = entry.map_err(|e| Error::io(&dir, e))?;
            let p = entry.path();
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                todo.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_changes_with_any_file_in_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("sub/a"), "1").unwrap();
        std::fs::write(dir.path().join("b"), "22").unwrap();
        let before = digest(dir.path(), true).unwrap();
        assert_eq!(stamp(dir.path(), true).unwrap().size, 3);
        std::fs::write(dir.path().join("sub/a"), "3").unwrap();
        assert_ne!(digest(dir.path(), true).unwrap(), before);
        let file = dir.path().join("b");
        assert_eq!(digest(&file, false).unwrap(), digest(&file, false).unwrap());
        assert_eq!(stamp(&file, false).unwrap().size, 2);
    }
}
