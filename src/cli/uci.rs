//! The default mode: UCI on stdin/stdout.

use std::io::{self, BufReader};
use std::path::Path;
use std::process::ExitCode;

use minkowski::config::Config;

/// Run the UCI loop until `quit` or end of input. Always exits with success: a bad engine.toml
/// is reported (on stderr now, and as `info string`s in the answer to `uci`) and the engine runs
/// on its built-in defaults, so it still loads in a GUI.
pub fn run(config: Option<&Path>) -> ExitCode {
    let (config, problems) = Config::load(config);
    let mut notices: Vec<String> = problems.iter().map(ToString::to_string).collect();
    if !problems.is_empty() {
        notices.push("configuration not applied: starting on the built-in defaults".to_owned());
    }
    for n in &notices {
        eprintln!("minkowski: {n}");
    }
    minkowski::uci::run_uci(BufReader::new(io::stdin()), io::stdout(), &config, &notices);
    ExitCode::SUCCESS
}
