//! The command-line interface: one file per subcommand, each a thin layer
//! over the library.

pub mod check;
pub mod compare;
mod completions;
mod formats;
pub mod global;
pub mod history;
mod ingest;
mod progress;
mod report;
mod snapshot;
mod stdin;
mod threads;
mod values;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// patchperf: is the change real, how big, how sure, and was the comparison fair?
#[derive(Debug, Parser)]
#[command(name = "patchperf", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    #[command(flatten)]
    pub global: global::GlobalArgs,
}

/// The subcommands.
// Parsed once per process: the size of the largest variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compare a baseline with one or more variants: what changed, how sure, and whether the comparison is sound.
    Compare(compare::CompareArgs),
    /// Read benchmark outputs into the tidy table (source,line,benchmark,params,variant,metric,unit,stat,value,run).
    Ingest(ingest::IngestArgs),
    /// List the supported input formats and how each is detected.
    Formats(formats::FormatsArgs),
    /// Compare two kernel configs or environment snapshots (or folders holding them) and report what makes them not comparable.
    Check(check::CheckArgs),
    /// Record this machine's environment (kernel, boot parameters, governor, taint, CPU, config) as TOML.
    Snapshot(snapshot::SnapshotArgs),
    /// Write the reports a study file asks for (HTML, PDF, Markdown, text, JSON, charts, data.parquet).
    Report(report::ReportArgs),
    /// Find where each benchmark moved across ordered points (kernels, commits, nights): change points with change %, CI, p and a verdict.
    History(history::HistoryArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(completions::CompletionsArgs),
    /// Print the manual page, or write every page into a folder with --out.
    Man(completions::ManArgs),
}

/// Parses the command line, runs the command and maps the outcome to an exit
/// code: 0 success, 1 a gate tripped, 2 bad input or usage.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    global::init(cli.global);
    // A command that reads a few small files runs on this thread alone;
    // one that lists formats or fails to parse starts no thread at all.
    match &cli.command {
        Command::Compare(a) => threads::start_pool(threads::small_inputs(&a.inputs)),
        Command::History(a) => threads::start_pool(threads::small_inputs(&a.inputs)),
        Command::Ingest(a) => threads::start_pool(threads::small_inputs(&a.files)),
        Command::Report(_) | Command::Check(_) => threads::start_pool(false),
        Command::Formats(_) | Command::Snapshot(_) | Command::Completions(_) | Command::Man(_) => {
            threads::start_pool(true)
        }
    }
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("patchperf: error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// Runs a parsed command; returns the exit code on success.
pub fn run(cli: Cli) -> crate::Result<u8> {
    match cli.command {
        Command::Compare(mut a) => {
            let _stdin = stdin::replace_dash(&mut a.inputs)?;
            compare::run(a)
        }
        Command::Ingest(mut a) => {
            let _stdin = stdin::replace_dash(&mut a.files)?;
            ingest::run(a)
        }
        Command::Formats(a) => formats::run(a),
        Command::Check(a) => check::run(a),
        Command::Snapshot(a) => snapshot::run(a),
        Command::Report(a) => report::run(a),
        Command::History(a) => history::run(a),
        Command::Completions(a) => completions::completions(a),
        Command::Man(a) => completions::man(a),
    }
}
