//! The default mode: UCI on stdin/stdout.

use std::io::{self, BufReader};
use std::path::Path;
use std::process::ExitCode;

use minkowski::config::Config;

/// Run the UCI loop until `quit` or end of input. Always exits with success: a bad engine.toml
/// is reported (on stderr now, and as `info string`s in the answer to `uci`) and the engine runs
/// on its built-in defaults, so it still loads in a GUI.
pub fn run(config: Option<&Path>) -> ExitCode {
    let (config, notices) = load(config);
    minkowski::uci::run_uci(BufReader::new(io::stdin()), io::stdout(), &config, &notices);
    ExitCode::SUCCESS
}

/// Run UCI command lines given as arguments, in order, then exit (each line waits for the job
/// before it, so `"go depth 10" quit` searches to depth 10). Same configuration as [`run`].
pub fn run_lines(lines: &[String], config: Option<&Path>) -> ExitCode {
    let (config, notices) = load(config);
    minkowski::uci::run_uci_commands(lines, io::stdout(), &config, &notices);
    ExitCode::SUCCESS
}

/// The configuration, and its problems as notices (also printed on stderr now).
fn load(config: Option<&Path>) -> (Config, Vec<String>) {
    let (config, problems) = Config::load(config);
    let mut notices: Vec<String> = problems.iter().map(ToString::to_string).collect();
    if !problems.is_empty() {
        notices.push("configuration not applied: starting on the built-in defaults".to_owned());
    }
    for n in &notices {
        eprintln!("minkowski: {n}");
    }
    (config, notices)
}
