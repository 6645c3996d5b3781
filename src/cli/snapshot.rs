//! `patchperf snapshot [-o FILE]`: record this machine's environment (kernel,
//! boot parameters, governor, turbo, SMT, THP, taint, CPU, mitigations,
//! debug banners, kernel config) as TOML to keep next to benchmark results.

use crate::checks::capture::capture;
use crate::checks::env::{Meta, SNAPSHOT_FORMAT};
use crate::error::Error;
use clap::Args;
use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

/// Arguments of `patchperf snapshot`.
#[derive(Debug, Args)]
pub struct SnapshotArgs {
    /// Write the snapshot here (default: stdout).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Read /proc and /sys below this folder instead of `/` (for tests and
    /// for captured system trees); commands such as dmesg are not run then.
    #[arg(long, value_name = "DIR", hide = true)]
    pub root: Option<PathBuf>,
}

/// Runs `snapshot`: never fails because a file is missing or unreadable.
pub fn run(args: SnapshotArgs) -> crate::Result<u8> {
    let root = args.root.clone().unwrap_or_else(|| PathBuf::from("/"));
    let (snap, kconfig) = capture(&root);
    let meta = Meta {
        format: SNAPSHOT_FORMAT,
        tool: format!("patchperf {}", env!("CARGO_PKG_VERSION")),
        captured_unix: SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0),
    };
    let text = snap.to_toml(meta, kconfig)?;
    match &args.out {
        Some(path) => {
            std::fs::write(path, &text).map_err(|e| Error::io(path, e))?;
            eprintln!(
                "{}: {} values recorded, {} unavailable{}",
                path.display(),
                snap.values.len(),
                snap.unavailable.len(),
                if snap.unavailable.is_empty() {
                    String::new()
                } else {
                    let keys: Vec<&str> = snap
                        .unavailable
                        .keys()
                        .map(String::as_str)
                        .take(12)
                        .collect();
                    format!(
                        " ({}{})",
                        keys.join(", "),
                        if snap.unavailable.len() > 12 {
                            ", …"
                        } else {
                            ""
                        }
                    )
                }
            );
        }
        None => print!("{text}"),
    }
    Ok(0)
}
