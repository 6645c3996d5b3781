//! `-` as an input: standard input (a mail piped from a mail client), kept
//! for the run as a file named `stdin` in a fresh temporary folder, since
//! every reader takes a path (and detection may read it more than once).
//! Rows, accounts and errors show that file as `<stdin>`, the variant it
//! names is `stdin`.

use crate::error::{Error, Result};
use std::io::Read;
use std::path::PathBuf;

/// Replaces a `-` among `paths` by a file holding standard input; the
/// folder lives as long as the returned guard.
pub fn replace_dash(paths: &mut [PathBuf]) -> Result<Option<tempfile::TempDir>> {
    let dashes = paths.iter().filter(|p| p.as_os_str() == "-").count();
    if dashes == 0 {
        return Ok(None);
    }
    if dashes > 1 {
        return Err(Error::Usage(
            "`-` (standard input) may be given once".into(),
        ));
    }
    let dir = tempfile::tempdir().map_err(|e| Error::Other(format!("stdin: {e}")))?;
    let file = dir.path().join("stdin");
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|e| Error::Other(format!("stdin: {e}")))?;
    std::fs::write(&file, bytes).map_err(|e| Error::io(&file, e))?;
    crate::model::show_as(&file, crate::model::STDIN_NAME);
    for p in paths.iter_mut().filter(|p| p.as_os_str() == "-") {
        *p = file.clone();
    }
    Ok(Some(dir))
}
