//! `minkowski epd` (skeleton).

use std::path::Path;
use std::process::ExitCode;

/// Arguments of `minkowski epd`.
#[derive(clap::Args, Debug)]
pub struct EpdArgs {}

/// Run the subcommand.
pub fn run(_args: &EpdArgs, _config: Option<&Path>) -> ExitCode {
    eprintln!("minkowski epd: not implemented yet");
    ExitCode::FAILURE
}
