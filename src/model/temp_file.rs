//! A temporary file beside an output, for writing it whole and renaming it
//! into place: created exclusively under a fresh name, so it is never a
//! planted symlink nor another run's file, and as readable as any file the
//! user writes once it takes the output's place.

use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// The folder `path` lies in (`.` for a bare name).
pub fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// A new file `.NAME.<what>-XXXXXX` beside `path`, open for writing, and
/// its path. The caller renames it into place or removes it.
pub fn temp_file_beside(path: &Path, what: &str) -> Result<(std::fs::File, PathBuf)> {
    let dir = folder_of(path);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (file, tmp) = tempfile::Builder::new()
        .prefix(&format!(".{name}.{what}-"))
        .tempfile_in(dir)
        .map_err(|e| Error::io(dir, e))?
        .keep()
        .map_err(|e| Error::io(path, e.error))?;
    set_readable(&file);
    Ok((file, tmp))
}

/// Temporary files are created private (0600).
#[cfg(unix)]
fn set_readable(f: &std::fs::File) {
    use std::os::unix::fs::PermissionsExt;
    let _ = f.set_permissions(std::fs::Permissions::from_mode(0o644));
}

#[cfg(not(unix))]
fn set_readable(_: &std::fs::File) {}
