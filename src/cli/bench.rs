//! `minkowski bench` (skeleton).

use std::path::Path;
use std::process::ExitCode;

/// Arguments of `minkowski bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {}

/// Run the subcommand.
pub fn run(_args: &BenchArgs, _config: Option<&Path>) -> ExitCode {
    eprintln!("minkowski bench: not implemented yet");
    ExitCode::FAILURE
}
