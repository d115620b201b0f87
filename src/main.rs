//! The `minkowski` binary: a thin command line over the library.
//!
//! With no arguments it speaks UCI on stdin/stdout; subcommands run the bench, EPD suites,
//! self-play data generation, weight tuning, the evaluation trace, the win/draw/loss fit, perft, tablebase probes and the geometry
//! diagrams. Any other arguments are
//! UCI command lines, run in order before the engine exits (`minkowski "position startpos" "go
//! depth 10" quit`), as Stockfish and Ethereal do and OpenBench relies on (`minkowski "genfens 10
//! seed 1 book None" quit`).

mod cli;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Minkowski, a UCI chess engine whose evaluation thinks in square distances.
#[derive(Parser, Debug)]
#[command(name = "minkowski", version = minkowski::VERSION, about, allow_external_subcommands = true)]
struct Args {
    /// Configuration file (default: ./engine.toml if it exists).
    #[arg(long, global = true)]
    config: Option<std::path::PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Speak UCI on stdin/stdout (the default).
    Uci,
    /// Search the fixed bench positions; the last line is `<N> nodes <M> nps`.
    Bench(cli::bench::BenchArgs),
    /// Run EPD test suites and report what was solved.
    Epd(cli::epd::EpdArgs),
    /// Self-play games at a node budget, their distinct quiet positions as `FEN | score |
    /// result` training data: appended to a file, or in resumable shards (`--out-dir`).
    Datagen(cli::datagen::DatagenArgs),
    /// Fit the evaluation's weights to labelled positions (Texel's method); writes an
    /// engine.toml [eval] table and Rust source.
    Tune(cli::tune::TuneArgs),
    /// Print the evaluation trace of a position.
    Eval(cli::eval::EvalArgs),
    /// Fit the win/draw/loss model (UCI_ShowWDL) to the game results of self-play data.
    WdlFit(cli::wdl_fit::WdlFitArgs),
    /// Count leaf nodes of the move tree (split by root move).
    Perft(cli::perft::PerftArgs),
    /// WDL and DTZ of a position and each legal move, from Syzygy tablebases.
    Probe(cli::probe::ProbeArgs),
    /// Print the board of distances from a square.
    Distance(cli::diagrams::DistanceArgs),
    /// Print the squares a knight reaches in at most 1..n moves.
    Fill(cli::diagrams::FillArgs),
    /// Anything else: UCI command lines, one per argument, run in order, then exit.
    #[command(external_subcommand)]
    Lines(Vec<String>),
}

fn main() -> ExitCode {
    let args = Args::parse();
    match args.command {
        None | Some(Command::Uci) => cli::uci::run(args.config.as_deref()),
        Some(Command::Bench(a)) => cli::bench::run(&a),
        Some(Command::Epd(a)) => cli::epd::run(&a, args.config.as_deref()),
        Some(Command::Datagen(a)) => cli::datagen::run(&a),
        Some(Command::Tune(a)) => cli::tune::run(&a, args.config.as_deref()),
        Some(Command::Eval(a)) => cli::eval::run(&a, args.config.as_deref()),
        Some(Command::WdlFit(a)) => cli::wdl_fit::run(&a, args.config.as_deref()),
        Some(Command::Perft(a)) => cli::perft::run(&a),
        Some(Command::Probe(a)) => cli::probe::run(&a, args.config.as_deref()),
        Some(Command::Distance(a)) => cli::diagrams::run_distance(&a),
        Some(Command::Fill(a)) => cli::diagrams::run_fill(&a),
        Some(Command::Lines(lines)) => cli::uci::run_lines(&lines, args.config.as_deref()),
    }
}
