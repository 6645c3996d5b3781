//! A report folder written as one unit. The whole report is built in a
//! fresh folder beside the destination and swapped in with a rename, so a
//! reader finds the old report or the new one, never a mix of both, and a
//! run killed at any point leaves the old report whole. Nothing is written
//! through what the old folder holds: a symlink planted in it (`charts` →
//! elsewhere) is never followed, only discarded with the old folder.
//!
//! One run at a time per folder: a lock file beside it says so, and a run
//! holding the lock knows that any temporary folder of the same report is
//! a dead run's litter, which it removes.

use crate::error::{Error, Result};
use crate::model::OutputLock;
use std::path::{Path, PathBuf};

/// Names the report itself writes: the files of the old folder that are
/// not carried into the new one.
fn is_report_file(name: &str) -> bool {
    name == "charts"
        || name == "data.parquet"
        || (name.starts_with("report.") && !name.contains('/'))
        // Litter of earlier versions, which wrote file by file.
        || (name.starts_with(".report.") && name.contains(".tmp-"))
        || (name.starts_with(".tmp-") && name.ends_with("-data.parquet"))
}

/// The folder a report is built in before it takes the destination's
/// place: `parent/.NAME.new-XXXXXX`, created exclusively.
pub struct Staging {
    /// The staging folder.
    pub dir: PathBuf,
    dest: PathBuf,
    name: String,
    parent: PathBuf,
    swapped: bool,
}

impl Staging {
    /// Prepares `dest`'s staging folder, removing dead runs' litter first.
    /// `dest` must name a folder (`reports/x`, not `.` or `/`).
    pub fn new(dest: &Path) -> Result<(Staging, OutputLock)> {
        let name = dest
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .filter(|n| n != "." && n != "..")
            .ok_or_else(|| {
                Error::Usage(format!(
                    "{}: a report needs a folder of its own (for example reports/NAME)",
                    dest.display()
                ))
            })?;
        let parent = match dest.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        std::fs::create_dir_all(&parent).map_err(|e| Error::io(&parent, e))?;
        let lock = OutputLock::take(&parent, &name)?;
        remove_litter(&parent, &name);
        let dir = tempfile::Builder::new()
            .prefix(&format!(".{name}.new-"))
            .tempdir_in(&parent)
            .map_err(|e| Error::io(&parent, e))?
            .keep();
        set_readable(&dir);
        let staging = Staging {
            dir,
            dest: dest.to_path_buf(),
            name,
            parent,
            swapped: false,
        };
        Ok((staging, lock))
    }

    /// Moves the files of the old folder that the report does not write
    /// (a user's notes beside the report) into the new one, then puts the
    /// new folder in the old one's place.
    pub fn swap_in(mut self) -> Result<()> {
        let old = std::fs::symlink_metadata(&self.dest).ok();
        if let Some(m) = &old {
            if m.is_file() {
                return Err(Error::Usage(format!(
                    "{}: exists and is not a folder; a report is a folder",
                    self.dest.display()
                )));
            }
            if m.is_dir() {
                self.carry_over()?;
            }
        }
        match old {
            None => rename(&self.dir, &self.dest)?,
            Some(m) => {
                let gone = self.parent.join(format!(
                    ".{}.old-{}",
                    self.name,
                    self.dir
                        .file_name()
                        .map(|n| n
                            .to_string_lossy()
                            .rsplit('-')
                            .next()
                            .unwrap_or("")
                            .to_string())
                        .unwrap_or_default()
                ));
                if exchange(&self.dir, &self.dest).is_ok() {
                    // The staging name now holds the old folder (or link).
                    rename(&self.dir, &gone)?;
                } else {
                    rename(&self.dest, &gone)?;
                    rename(&self.dir, &self.dest)?;
                }
                if m.is_dir() {
                    let _ = std::fs::remove_dir_all(&gone);
                } else {
                    let _ = std::fs::remove_file(&gone);
                }
            }
        }
        self.swapped = true;
        Ok(())
    }

    fn carry_over(&self) -> Result<()> {
        let entries = std::fs::read_dir(&self.dest).map_err(|e| Error::io(&self.dest, e))?;
        for e in entries.flatten() {
            let name = e.file_name();
            let text = name.to_string_lossy();
            if is_report_file(&text) || self.dir.join(&name).exists() {
                continue;
            }
            rename(&e.path(), &self.dir.join(&name))?;
        }
        Ok(())
    }
}

impl Drop for Staging {
    /// A run that fails before the swap leaves no staging folder behind.
    fn drop(&mut self) {
        if !self.swapped {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// Removes staging and old folders of `name` left by killed runs: the
/// caller holds the lock, so no live run owns them.
fn remove_litter(parent: &Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    let (new, old) = (format!(".{name}.new-"), format!(".{name}.old-"));
    for e in entries.flatten() {
        let n = e.file_name().to_string_lossy().into_owned();
        if n.starts_with(&new) || n.starts_with(&old) {
            match e.file_type() {
                Ok(t) if t.is_dir() => {
                    let _ = std::fs::remove_dir_all(e.path());
                }
                _ => {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
    }
}

fn rename(from: &Path, to: &Path) -> Result<()> {
    std::fs::rename(from, to).map_err(|e| Error::io(to, e))
}

/// Swaps two paths in one step (Linux's `RENAME_EXCHANGE`); an error where
/// the system or the file system cannot, and the caller renames twice.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let ca = CString::new(a.as_os_str().as_bytes())?;
    let cb = CString::new(b.as_os_str().as_bytes())?;
    // SAFETY: two valid NUL-terminated paths, relative to the working
    // directory; the call reads them and touches no memory of ours.
    let r = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            ca.as_ptr(),
            libc::AT_FDCWD,
            cb.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn exchange(_: &Path, _: &Path) -> std::io::Result<()> {
    Err(std::io::Error::other("no atomic exchange here"))
}

/// A staging folder is created private (0700); the report is for anyone
/// who may read its parent.
#[cfg(unix)]
fn set_readable(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755));
}

#[cfg(not(unix))]
fn set_readable(_: &Path) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_new_report_replaces_the_old_and_keeps_what_is_not_the_reports() {
        let root = tempfile::tempdir().unwrap();
        let dest = root.path().join("study");
        std::fs::create_dir_all(dest.join("charts")).unwrap();
        std::fs::write(dest.join("report.pdf"), "old pdf").unwrap();
        std::fs::write(dest.join("charts/old.svg"), "old").unwrap();
        std::fs::write(dest.join("notes.txt"), "mine").unwrap();
        let (s, _lock) = Staging::new(&dest).unwrap();
        std::fs::write(s.dir.join("report.html"), "new").unwrap();
        s.swap_in().unwrap();
        let mut names: Vec<String> = std::fs::read_dir(&dest)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["notes.txt", "report.html"]);
        let left: Vec<_> = std::fs::read_dir(root.path()).unwrap().collect();
        assert_eq!(left.len(), 2, "the report and its lock file, until dropped");
    }

    #[test]
    fn a_planted_symlink_is_replaced_not_followed() {
        let root = tempfile::tempdir().unwrap();
        let elsewhere = root.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        std::fs::write(elsewhere.join("keep.txt"), "x").unwrap();
        let dest = root.path().join("study");
        std::fs::create_dir(&dest).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(&elsewhere, dest.join("charts")).unwrap();
        let (s, _lock) = Staging::new(&dest).unwrap();
        std::fs::create_dir(s.dir.join("charts")).unwrap();
        std::fs::write(s.dir.join("charts/a.svg"), "svg").unwrap();
        s.swap_in().unwrap();
        assert!(dest.join("charts/a.svg").is_file());
        assert!(!std::fs::symlink_metadata(dest.join("charts"))
            .unwrap()
            .file_type()
            .is_symlink());
        let inside: Vec<_> = std::fs::read_dir(&elsewhere).unwrap().collect();
        assert_eq!(
            inside.len(),
            1,
            "nothing written into or removed from the link's target"
        );
    }

    #[test]
    fn a_second_run_is_refused_while_the_first_holds_the_lock() {
        let root = tempfile::tempdir().unwrap();
        let dest = root.path().join("study");
        let (_s, _lock) = Staging::new(&dest).unwrap();
        let e = Staging::new(&dest).err().unwrap();
        assert!(e.to_string().contains("another patchperf run"), "{e}");
    }

    #[test]
    fn dead_runs_litter_is_removed() {
        let root = tempfile::tempdir().unwrap();
        let dest = root.path().join("study");
        std::fs::create_dir_all(root.path().join(".study.new-abc123/charts")).unwrap();
        std::fs::create_dir_all(root.path().join(".study.old-abc123")).unwrap();
        let (s, lock) = Staging::new(&dest).unwrap();
        s.swap_in().unwrap();
        drop(lock);
        let left: Vec<String> = std::fs::read_dir(root.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(left, ["study"]);
    }

    #[test]
    fn a_folder_is_needed() {
        assert!(Staging::new(Path::new(".")).is_err());
    }
}
