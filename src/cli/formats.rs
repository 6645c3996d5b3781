//! `patchperf formats`: what can be read and how it is recognised.

use crate::ingest::Registry;
use clap::Args;
use std::io::Write;

/// Arguments of `patchperf formats`.
#[derive(Debug, Args)]
pub struct FormatsArgs {}

/// Prints one line per format: name and detection rule.
pub fn run(_args: FormatsArgs) -> crate::Result<u8> {
    let reg = Registry::builtin();
    let width = reg.formats().map(|f| f.name().len()).max().unwrap_or(0);
    let mut out = std::io::stdout().lock();
    for f in reg.formats() {
        let _ = writeln!(out, "{:width$}  {}", f.name(), f.description());
    }
    Ok(0)
}
