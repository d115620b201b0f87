//! `minkowski eval` (skeleton).

use std::path::Path;
use std::process::ExitCode;

/// Arguments of `minkowski eval`.
#[derive(clap::Args, Debug)]
pub struct EvalArgs {}

/// Run the subcommand.
pub fn run(_args: &EvalArgs, _config: Option<&Path>) -> ExitCode {
    eprintln!("minkowski eval: not implemented yet");
    ExitCode::FAILURE
}
