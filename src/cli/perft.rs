//! `minkowski perft <depth> [--fen FEN]`: perft split by root move, with the total and speed.

use std::process::ExitCode;
use std::time::Instant;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// Arguments of `minkowski perft`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies.
    depth: u32,
    /// Position (FEN, X-FEN or Shredder-FEN); the start position if absent.
    #[arg(long)]
    fen: Option<String>,
}

/// Count and print.
pub fn run(args: &PerftArgs) -> ExitCode {
    let pos: Chess = match &args.fen {
        None => Chess::default(),
        Some(text) => match text
            .parse::<Fen>()
            .map_err(|e| e.to_string())
            .and_then(|f| {
                f.into_position(CastlingMode::Chess960)
                    .map_err(|e| e.to_string())
            }) {
            Ok(pos) => pos,
            Err(e) => {
                eprintln!("minkowski perft: bad FEN {text:?}: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    let start = Instant::now();
    let split = minkowski::perft::divide(&pos, args.depth.max(1));
    let mut total = 0;
    for (m, n) in &split {
        println!("{}: {n}", m.to_uci(CastlingMode::Chess960));
        total += n;
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    println!("total {total} nodes {} nps", (total as f64 / secs) as u64);
    ExitCode::SUCCESS
}
