//! One run at a time per output: two runs writing the same report folder
//! or table would leave one's rows or files mixed with the other's. The
//! lock is an advisory lock on a hidden file beside the output, held by the
//! open file, so a killed run holds none.

use crate::error::{Error, Result};
use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};

/// Holds an output's lock until dropped.
pub struct OutputLock {
    path: PathBuf,
    _file: File,
}

impl OutputLock {
    /// Takes the lock of the output `name` (a report folder, a table) in
    /// `parent`, or says that another run holds it. A lock file is removed by its holder at the end; one left
    /// by a killed run is taken over (the lock is the open file's, and a
    /// dead process holds none).
    pub fn take(parent: &Path, name: &str) -> Result<OutputLock> {
        let path = parent.join(format!(".{name}.lock"));
        loop {
            let file = open_lock_file(&path)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => {
                    return Err(Error::Usage(format!(
                        "{}: another patchperf run is writing this output right now (lock {}); \
                         wait for it or write elsewhere",
                        parent.join(name).display(),
                        path.display()
                    )))
                }
                Err(TryLockError::Error(e)) => return Err(Error::io(&path, e)),
            }
            // The holder before us may have removed the file between our
            // open and our lock: then ours is a lock on nothing.
            if same_file(&file, &path) {
                return Ok(OutputLock { path, _file: file });
            }
        }
    }
}

impl Drop for OutputLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Opens (or creates) the lock file without truncating it and, on Unix,
/// without following a symlink planted in its place.
fn open_lock_file(path: &Path) -> Result<File> {
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create(true).truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NOFOLLOW);
    }
    o.open(path).map_err(|e| Error::io(path, e))
}

#[cfg(unix)]
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(_: &File, path: &Path) -> bool {
    path.exists()
}
