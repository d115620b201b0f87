//! `minkowski datagen (--out FILE --games N | --out-dir DIR --positions N [--shard-size N])
//! [--nodes N] [--jobs N] [--book FILE|startpos]... [--seed N] [--syzygy PATH] [--hash MB]
//! [--sample N] [--random-plies N|A-B] [--no-pv] [--exclude FILE]... [--report]`: self-play
//! games, a few quiet positions of each appended to FILE as `FEN | score | result` lines and
//! a trailer line per game (the format is documented in `minkowski::datagen`). Positions
//! already in the output (or in an `--exclude` file) are not written again (Zobrist key),
//! and the run ends with the spread of its positions by piece count. With `--out-dir`, the
//! output is a directory of shards that a later run continues (`dir.rs`).
//!
//! Progress goes to stderr (a bar on a terminal, otherwise a line every
//! `PROGRESS_INTERVAL`, ten seconds); the summary to stdout. Each game's text (its lines and trailer) is
//! written with one `write` call and flushed as soon as the game ends, so interrupting the run
//! (Ctrl-C: there is no signal handler, the process simply dies) loses only the games in
//! progress. Should a file still end in part of a game (a crash mid-write, a full disk), the
//! next run cuts it back to its last trailer (a file without trailers: its last newline)
//! before appending. Exit status: 0 done, 2 bad input or an I/O error.
//!
//! The files: `setup.rs` (the arguments, and what both modes build from them: the runner's
//! options, books, tables, output files, seeds; and `--report`), `file.rs` (`--out FILE`) and
//! `dir.rs` (`--out-dir DIR`).

mod dir;
mod file;
mod setup;

use std::process::ExitCode;

pub use setup::DatagenArgs;
use setup::EXIT_ERROR;

/// Run the subcommand.
pub fn run(args: &DatagenArgs) -> ExitCode {
    let outcome = match &args.out_dir {
        Some(dir) => dir::generate(args, dir),
        None => file::generate(args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("minkowski datagen: {message}");
            ExitCode::from(EXIT_ERROR)
        }
    }
}
