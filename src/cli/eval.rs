//! `minkowski eval [FEN]`: the evaluation trace of a position (the start position if no FEN),
//! with the weights of engine.toml, and the win/draw/loss chances of its value.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use minkowski::config::Config;
use minkowski::eval::Evaluator;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// Arguments of `minkowski eval`.
#[derive(clap::Args, Debug)]
pub struct EvalArgs {
    /// The position as FEN (its fields may be given as separate words); the start position if
    /// absent.
    fen: Vec<String>,
}

/// Print the trace.
pub fn run(args: &EvalArgs, config: Option<&Path>) -> ExitCode {
    let (config, problems) = Config::load(config);
    if !problems.is_empty() {
        for problem in &problems {
            eprintln!("minkowski eval: {problem}");
        }
        return ExitCode::FAILURE;
    }
    let pos = if args.fen.is_empty() {
        Chess::default()
    } else {
        let text = args.fen.join(" ");
        let parsed = text
            .parse::<Fen>()
            .map_err(|e| e.to_string())
            .and_then(|fen| {
                fen.into_position(CastlingMode::Chess960)
                    .map_err(|e| e.to_string())
            });
        match parsed {
            Ok(pos) => pos,
            Err(e) => {
                eprintln!("minkowski eval: bad FEN {text:?}: {e}");
                return ExitCode::FAILURE;
            }
        }
    };
    let evaluator = Evaluator::new(config.weights());
    let trace = evaluator.trace(&pos);
    let wdl = minkowski::wdl::describe_static(&evaluator, &pos);
    // A closed pipe (`minkowski eval | head`) is not an error worth a panic.
    let _ = writeln!(std::io::stdout(), "{trace}\n{wdl}");
    ExitCode::SUCCESS
}
