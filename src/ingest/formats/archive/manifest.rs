//! The archive's manifest: every input ever ingested into it, with what
//! tells whether it changed since (size, modification time, content
//! digest) and the parts that hold its rows. `ingest --into` reads an
//! input again only when its size or time moved and its digest with them.

use super::layout::MANIFEST;
use crate::error::{Error, Result};
use crate::model::temp_file_beside;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::Path;

/// The layout version this build writes and reads.
pub const VERSION: u32 = 1;

/// The manifest file's content.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Layout version; its presence marks a folder as an archive.
    pub patchperf_archive: u32,
    /// The release that last wrote it: inputs are read again by a newer
    /// one, whose readers may read more of them.
    pub written_by: String,
    /// The inputs, in the order they were first ingested: the order in
    /// which their rows are read back (and their runs numbered).
    pub inputs: Vec<Entry>,
}

/// One ingested input: a file, or a folder a directory format reads whole.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// Its absolute path.
    pub path: String,
    /// Bytes (a folder: of all its files).
    pub size: u64,
    /// Modification time, in nanoseconds since the epoch (a folder: its
    /// newest file's).
    pub modified_ns: u64,
    /// The content's XXH3-128 digest, in hex (a folder: of its files'
    /// relative paths and contents, in path order).
    pub hash: String,
    /// The format that read it (`None`: nothing recognised it).
    pub format: Option<String>,
    /// Rows it gave.
    pub rows: usize,
    /// Its parts, relative to the root, `/`-separated.
    pub parts: Vec<String>,
}

impl Manifest {
    /// A new, empty manifest.
    pub fn new() -> Self {
        Manifest {
            patchperf_archive: VERSION,
            written_by: concat!("patchperf ", env!("CARGO_PKG_VERSION")).to_string(),
            inputs: Vec::new(),
        }
    }

    /// The manifest of the archive at `dir`: `None` when `dir` holds none,
    /// an error naming the file when it holds one that cannot be read.
    pub fn load(dir: &Path) -> Result<Option<Manifest>> {
        let path = dir.join(MANIFEST);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(Error::io(&path, e)),
        };
        let m: Manifest = serde_json::from_str(&text).map_err(|e| {
            Error::input(
                &path,
                Some(e.line() as u32),
                format!("archive manifest: {e}"),
            )
        })?;
        if m.patchperf_archive != VERSION {
            return Err(Error::input(
                &path,
                None,
                format!(
                    "archive layout {} is not the {VERSION} this build reads",
                    m.patchperf_archive
                ),
            ));
        }
        Ok(Some(m))
    }

    /// Writes the manifest into `dir` whole, in place of the old one in one
    /// step, so that an interrupted ingest leaves the previous archive.
    pub fn save(&self, dir: &Path) -> Result<()> {
        let path = dir.join(MANIFEST);
        let (mut file, tmp) = temp_file_beside(&path, "new")?;
        let text = serde_json::to_string_pretty(self).expect("a manifest serialises");
        let written = file
            .write_all(text.as_bytes())
            .and_then(|_| file.write_all(b"\n"))
            .and_then(|_| file.sync_all())
            .and_then(|_| std::fs::rename(&tmp, &path));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&tmp);
            return Err(Error::io(&path, e));
        }
        Ok(())
    }

    /// Whether `dir` holds a manifest of this layout (cheap: its first bytes).
    pub fn is_archive(dir: &Path) -> bool {
        use std::io::Read;
        let mut head = [0u8; 64];
        let Ok(mut f) = std::fs::File::open(dir.join(MANIFEST)) else {
            return false;
        };
        let n = f.read(&mut head).unwrap_or(0);
        String::from_utf8_lossy(&head[..n]).contains("\"patchperf_archive\"")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saves_and_loads_whole() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(Manifest::load(dir.path()).unwrap(), None);
        assert!(!Manifest::is_archive(dir.path()));
        let mut m = Manifest::new();
        m.inputs.push(Entry {
            path: "/x/a.txt".into(),
            size: 3,
            modified_ns: 7,
            hash: "00".into(),
            format: Some("hackbench".into()),
            rows: 2,
            parts: vec!["variant=a/part-0.parquet".into()],
        });
        m.save(dir.path()).unwrap();
        assert!(Manifest::is_archive(dir.path()));
        assert_eq!(Manifest::load(dir.path()).unwrap(), Some(m));
        std::fs::write(dir.path().join(MANIFEST), "{\n \"inputs\": [}").unwrap();
        let e = Manifest::load(dir.path()).unwrap_err().to_string();
        assert!(e.contains("manifest.json") && e.contains("line 2"), "{e}");
    }
}
