//! `patchperf check A [B]`: kernel config and environment findings for two
//! systems (two configs, two snapshots, or two folders holding them), or
//! the lint of one kernel config.

use crate::checks::{comparison_findings, single_config_findings, CheckInputs};
use crate::error::Error;
use crate::model::{Finding, Severity};
use clap::Args;
use owo_colors::{OwoColorize, Stream};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `patchperf check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Baseline: a kernel .config (or config.gz), a snapshot or capture file, or a folder holding them (`-`: standard input).
    #[arg(required_unless_present = "print_rules")]
    pub base: Option<PathBuf>,
    /// Patched: the same kind of input as the baseline. Without it, the one config given is linted (costly debug options that are on).
    pub patched: Option<PathBuf>,
    /// Write the findings as JSON (`{ "findings": [...] }`) to PATH, or `-` for stdout.
    #[arg(long, value_name = "PATH|-")]
    pub json: Option<String>,
    /// Exit with code 1 when there is an error-level finding.
    #[arg(long)]
    pub fail_on_error: bool,
    /// Use this rules file instead of the built-in kernel option rules.
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
    /// Print the built-in rules file (a starting point for --rules) and exit.
    #[arg(long, conflicts_with_all = ["base", "patched"])]
    pub print_rules: bool,
}

/// Runs `check`.
pub fn run(mut args: CheckArgs) -> crate::Result<u8> {
    let Some(base) = args.base.clone() else {
        print!("{}", crate::checks::rules::BUILTIN_RULES);
        return Ok(0);
    };
    let mut paths: Vec<PathBuf> = std::iter::once(base).chain(args.patched.clone()).collect();
    let _stdin = super::stdin::replace_dash(&mut paths)?;
    let findings = match &paths[..] {
        [base, patched] => {
            let mut inputs = CheckInputs::from_pair(base, patched)?;
            inputs.rules = args.rules.take();
            comparison_findings(&inputs, None)?
        }
        one => single_config_findings(&one[0], args.rules.as_deref())?,
    };
    match args.json.as_deref() {
        Some("-") => {
            let mut out = std::io::stdout().lock();
            write_json(&mut out, &findings).map_err(|e| Error::io("<stdout>", e))?;
        }
        Some(path) => {
            let mut f = std::fs::File::create(path).map_err(|e| Error::io(path, e))?;
            write_json(&mut f, &findings).map_err(|e| Error::io(path, e))?;
            print!("{}", render_findings(&findings));
        }
        None => print!("{}", render_findings(&findings)),
    }
    let has_error = findings.iter().any(|f| f.severity == Severity::Error);
    Ok(if args.fail_on_error && has_error {
        1
    } else {
        0
    })
}

/// Writes `{ "findings": [...] }`, the shape `compare --json` uses.
pub fn write_json(out: &mut impl Write, findings: &[Finding]) -> std::io::Result<()> {
    /// Field order as in `compare --json`.
    #[derive(serde::Serialize)]
    struct Doc<'a> {
        findings: &'a [Finding],
    }
    serde_json::to_writer_pretty(&mut *out, &Doc { findings })?;
    writeln!(out)
}

/// Findings for the terminal, grouped by severity (errors first); coloured
/// only when stdout is a terminal and NO_COLOR is unset.
pub fn render_findings(findings: &[Finding]) -> String {
    if findings.is_empty() {
        return "no findings: nothing suggests the two sides are not comparable\n".to_string();
    }
    let mut s = String::new();
    for sev in [Severity::Error, Severity::Warning, Severity::Info] {
        let group: Vec<&Finding> = findings.iter().filter(|f| f.severity == sev).collect();
        if group.is_empty() {
            continue;
        }
        let (heading, mark) = match sev {
            Severity::Error => ("errors", "✗"),
            Severity::Warning => ("warnings", "!"),
            Severity::Info => ("info", "i"),
        };
        let heading = format!("{heading} ({})", group.len());
        let heading = heading
            .if_supports_color(Stream::Stdout, |t| t.bold())
            .to_string();
        s.push_str(&heading);
        s.push('\n');
        for f in group {
            let mark = match sev {
                Severity::Error => mark
                    .if_supports_color(Stream::Stdout, |t| t.red())
                    .to_string(),
                Severity::Warning => mark
                    .if_supports_color(Stream::Stdout, |t| t.yellow())
                    .to_string(),
                Severity::Info => mark
                    .if_supports_color(Stream::Stdout, |t| t.blue())
                    .to_string(),
            };
            let code = format!("[{}]", f.code);
            s.push_str(&format!(
                "  {mark} {} {}\n      {}\n      → {}\n",
                f.title,
                code.if_supports_color(Stream::Stdout, |t| t.dimmed()),
                f.evidence,
                f.advice
            ));
        }
    }
    let count = |sev| findings.iter().filter(|f| f.severity == sev).count();
    let (e, w) = (count(Severity::Error), count(Severity::Warning));
    s.push_str(&format!(
        "{e} error{}, {w} warning{}, {} info\n",
        if e == 1 { "" } else { "s" },
        if w == 1 { "" } else { "s" },
        count(Severity::Info)
    ));
    s
}
