use std::process::ExitCode;

fn main() -> ExitCode {
    patchperf::cli::main()
}
