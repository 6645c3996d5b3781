//! How an input's path is shown in rows, accounts and errors.
//!
//! Standard input is read into a temporary file, since every reader takes
//! a path (and detection may read an input more than once). The user never
//! named that file, so it is shown as `<stdin>`: a path registered with
//! [`show_as`] is shown by that name, every other path as it displays.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// The name under which standard input is shown.
pub const STDIN_NAME: &str = "<stdin>";

fn aliases() -> &'static Mutex<Vec<(PathBuf, String)>> {
    static ALIASES: OnceLock<Mutex<Vec<(PathBuf, String)>>> = OnceLock::new();
    ALIASES.get_or_init(|| Mutex::new(Vec::new()))
}

/// Shows `path` as `name` from now on (for the life of the process).
pub fn show_as(path: &Path, name: &str) {
    let mut list = aliases().lock().unwrap_or_else(|e| e.into_inner());
    list.retain(|(p, _)| p != path);
    list.push((path.to_path_buf(), name.to_string()));
}

/// The name under which `path` is shown to the user.
pub fn shown_path(path: &Path) -> String {
    let list = aliases().lock().unwrap_or_else(|e| e.into_inner());
    match list.iter().find(|(p, _)| p == path) {
        Some((_, name)) => name.clone(),
        None => path.display().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_registered_path_is_shown_by_its_name_and_others_as_they_are() {
        let temp = Path::new("/nonexistent/.tmpXYZ/stdin-for-test");
        assert_eq!(shown_path(temp), "/nonexistent/.tmpXYZ/stdin-for-test");
        show_as(temp, STDIN_NAME);
        assert_eq!(shown_path(temp), "<stdin>");
        assert_eq!(shown_path(Path::new("a/b.txt")), "a/b.txt");
    }
}
