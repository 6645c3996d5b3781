//! `patchperf completions SHELL` and `patchperf man`: shell completion
//! scripts and manual pages generated from the command definition itself,
//! so they never drift from the options the binary accepts.

use crate::error::Error;
use clap::{Args, CommandFactory};
use clap_complete::Shell;
use std::path::PathBuf;

/// Arguments of `patchperf completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to write a completion script for (bash, zsh, fish, elvish, powershell).
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Arguments of `patchperf man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write `patchperf.1` and one page per subcommand (`patchperf-compare.1`, …) into DIR instead of printing the main page.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// Prints the completion script on stdout (e.g. `patchperf completions bash > /etc/bash_completion.d/patchperf`).
pub fn completions(args: CompletionsArgs) -> crate::Result<u8> {
    let mut cmd = super::Cli::command();
    // Generated into memory first: clap_complete panics on a write error
    // (`patchperf completions bash | head`).
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "patchperf", &mut script);
    write_stdout(&script)
}

/// Writes to stdout; a reader that went away early is not an error.
fn write_stdout(bytes: &[u8]) -> crate::Result<u8> {
    use std::io::Write;
    match std::io::stdout().lock().write_all(bytes) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Error::io("<stdout>", e)),
        _ => Ok(0),
    }
}

/// Prints the main manual page, or writes every page into `--out`.
pub fn man(args: ManArgs) -> crate::Result<u8> {
    let cmd = super::Cli::command();
    match args.out {
        None => {
            let mut page = Vec::new();
            clap_mangen::Man::new(cmd)
                .render(&mut page)
                .map_err(|e| Error::io("<man page>", e))?;
            return write_stdout(&page);
        }
        Some(dir) => {
            std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
            clap_mangen::generate_to(cmd, &dir).map_err(|e| Error::io(&dir, e))?;
        }
    }
    Ok(0)
}
