//! Options every command takes the same way: `--color` and `--quiet`, with
//! the NO_COLOR / FORCE_COLOR / CLICOLOR_FORCE conventions, resolved once
//! per process so that every renderer and progress bar agrees.

use clap::{Args, ValueEnum};
use std::io::IsTerminal;
use std::sync::OnceLock;

/// When to colour terminal output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless NO_COLOR is set; FORCE_COLOR or CLICOLOR_FORCE turn it on anywhere.
    #[default]
    Auto,
    Always,
    Never,
}

/// The options shared by all subcommands.
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct GlobalArgs {
    /// Colours: auto (a terminal, NO_COLOR and FORCE_COLOR honoured), always, never.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,
    /// No progress bars and no per-file notes on stderr (losses are still summed up in one line).
    #[arg(long, short, global = true)]
    pub quiet: bool,
}

static GLOBAL: OnceLock<(bool, bool)> = OnceLock::new();

/// Resolves the options for this process (the first call wins) and makes
/// owo-colors follow the same decision for stdout.
pub fn init(args: GlobalArgs) {
    let color = resolve(
        args.color,
        |k| std::env::var(k).ok(),
        std::io::stdout().is_terminal(),
    );
    owo_colors::set_override(color);
    let _ = GLOBAL.set((color, args.quiet));
}

/// True when stdout is to be coloured.
pub fn color() -> bool {
    GLOBAL.get().is_some_and(|g| g.0)
}

/// True under `--quiet`.
pub fn quiet() -> bool {
    GLOBAL.get().is_some_and(|g| g.1)
}

/// True when progress may be drawn: stderr is a terminal, not `--quiet`,
/// not a CI job (whose logs keep every redraw).
pub fn progress_allowed() -> bool {
    !quiet()
        && std::io::stderr().is_terminal()
        && std::env::var_os("CI").is_none_or(|v| v.is_empty())
        && std::env::var("TERM").map_or(true, |t| t != "dumb")
}

/// The colour decision from a choice, an environment and whether the
/// stream is a terminal.
fn resolve(choice: ColorChoice, env: impl Fn(&str) -> Option<String>, tty: bool) -> bool {
    let set = |k: &str| env(k).is_some_and(|v| !v.is_empty());
    let forced = |k: &str| env(k).is_some_and(|v| !v.is_empty() && v != "0" && v != "false");
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto if set("NO_COLOR") => false,
        ColorChoice::Auto if forced("FORCE_COLOR") || forced("CLICOLOR_FORCE") => true,
        ColorChoice::Auto => tty && env("TERM").is_none_or(|t| t != "dumb"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn conventions_are_followed() {
        use ColorChoice::*;
        assert!(resolve(Auto, with(&[]), true));
        assert!(!resolve(Auto, with(&[]), false));
        assert!(!resolve(Auto, with(&[("NO_COLOR", "1")]), true));
        assert!(resolve(Auto, with(&[("NO_COLOR", "")]), true));
        assert!(resolve(Auto, with(&[("FORCE_COLOR", "1")]), false));
        assert!(!resolve(Auto, with(&[("FORCE_COLOR", "0")]), false));
        assert!(resolve(Auto, with(&[("CLICOLOR_FORCE", "1")]), false));
        assert!(!resolve(Auto, with(&[("TERM", "dumb")]), true));
        // An explicit choice beats every variable.
        assert!(resolve(Always, with(&[("NO_COLOR", "1")]), false));
        assert!(!resolve(Never, with(&[("FORCE_COLOR", "1")]), true));
    }
}
