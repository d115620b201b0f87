//! The default mode: UCI on stdin/stdout (skeleton).

use std::path::Path;
use std::process::ExitCode;

/// Run the UCI loop until `quit` or end of input.
pub fn run(_config: Option<&Path>) -> ExitCode {
    eprintln!("minkowski: UCI not implemented yet");
    ExitCode::SUCCESS
}
