//! Self-play training data: games at a fixed node budget per move, their quiet positions
//! labelled with the game's result, for fitting the evaluation (Texel's method).
//!
//! * [`book`] reads the openings (EPD/FEN lines or PGN games),
//! * [`play`] plays one game from a book position plus a few random plies, with adjudication,
//! * [`sample`] resolves each searched position along the search's principal variation to a
//!   quiet leaf, and chooses the few a game keeps,
//! * [`runner`] plays many games on several threads and hands each finished game back,
//! * [`mod@format`] writes the data format below and reads it back, together with the common
//!   labelled-EPD forms, for the tuner,
//! * [`games`] closes each game with a trailer line, groups a file's lines into games and
//!   finds where a cut-off file's last whole game ends,
//! * [`dedup`] keys positions (Zobrist) and drops those already written,
//! * [`spread`] counts positions by number of pieces (the report of a run or a directory),
//! * [`shards`] names the files of a sharded data directory and seeds each shard.
//!
//! The library prints and writes nothing: `minkowski datagen` (the command line) appends each
//! finished game to the output file and draws the progress line.
//!
//! # The data format
//!
//! Plain text, one position per line, three fields separated by `" | "`:
//!
//! ```text
//! <FEN> | <score> | <result>
//! r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4 | 31 | 0.5
//! ```
//!
//! * `FEN`: the position, all six fields.
//! * `score`: the search's score of the position in centipawns, **from White's point of view**
//!   (an integer; never a mate or tablebase score: those positions are not written).
//! * `result`: how the game ended, **from White's point of view**: `1.0` White won, `0.5` draw,
//!   `0.0` Black won.
//!
//! This is the chess text format of `bulletformat` (the data loader of the `bullet` trainer).
//! A file is a sequence of whole games: the positions of one game are written together, in
//! game order, followed by a trailer comment line naming the game and counting its positions
//! (see [`games`]; tools that do not skip `#` lines read the file through `grep -v '^#'`):
//!
//! ```text
//! # game seed=1202 index=17 positions=16 plies=143 end=resign result=1.0
//! ```
//!
//! Each searched position of a game is a candidate; the positions of the opening (book and
//! random plies) are not: no search judged them. A candidate is the **quiet leaf of the
//! search's principal variation** from the searched position ([`sample::pv_leaf`]: follow the
//! PV while the side to move is in check or the next PV move captures or promotes), with the
//! searched position's score (the PV carries it to the leaf); positions with a mate or
//! tablebase score, and PVs without a quiet leaf, give none. After the game at most
//! [`DEFAULT_SAMPLE`] candidates (`--sample`) are chosen uniformly and written, so that every
//! game weighs about the same.
//!
//! [`format::parse_line`] also reads the labelled-EPD forms other data sets use, so that the
//! tuner takes them as they are:
//!
//! ```text
//! rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c9 "1/2-1/2";   (zurichess)
//! rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 [0.5]      (optionally a score after)
//! rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1; 1/2-1/2
//! ```
//!
//! ```
//! use minkowski::datagen::format::{GameResult, parse_line};
//! let l = parse_line("8/8/8/4k3/8/8/8/KR6 w - - 0 1 | 950 | 1.0").unwrap().unwrap();
//! assert_eq!((l.result, l.score), (GameResult::WhiteWins, Some(950)));
//! let l = parse_line("8/8/8/4k3/8/8/8/KR6 w - - c9 \"1-0\";").unwrap().unwrap();
//! assert_eq!((l.result, l.score), (GameResult::WhiteWins, None));
//! ```
//!
//! # Adjudication
//!
//! A game ends on checkmate, stalemate, insufficient material, the 50-move rule or a threefold
//! repetition, and earlier by adjudication: resignation ([`RESIGN_CP`] for [`RESIGN_MOVES`]
//! moves of each side), a draw ([`DRAW_CP`] for [`DRAW_MOVES`] moves each, from move
//! [`DRAW_MIN_MOVE`]), the Syzygy tables' verdict when tables are given, or [`MAX_GAME_PLIES`].

pub mod book;
pub mod dedup;
pub mod format;
pub mod games;
pub mod play;
pub mod runner;
pub mod sample;
pub mod shards;
pub mod spread;

/// Positions written per game at most, chosen uniformly among its candidates after the game:
/// the positions of one game share its result, so many games with a few positions each give
/// more independent labels than few games written whole (Ethereal's data: 10 a game).
///
/// ```
/// assert_eq!(minkowski::datagen::DEFAULT_SAMPLE, 10);
/// ```
pub const DEFAULT_SAMPLE: usize = 10;

/// Resignation: a side loses when the search scores it at least this many centipawns behind...
///
/// ```
/// assert_eq!(minkowski::datagen::RESIGN_CP, 1000);
/// ```
pub const RESIGN_CP: i32 = 1000;

/// ...on this many consecutive moves of each side (twice as many plies in a row, every score
/// of the same sign): both engines agree the game is decided.
///
/// ```
/// assert_eq!(minkowski::datagen::RESIGN_MOVES, 4);
/// ```
pub const RESIGN_MOVES: u32 = 4;

/// Draw: the game is drawn when the score stays within this many centipawns of equal...
///
/// ```
/// assert_eq!(minkowski::datagen::DRAW_CP, 10);
/// ```
pub const DRAW_CP: i32 = 10;

/// ...on this many consecutive moves of each side...
///
/// ```
/// assert_eq!(minkowski::datagen::DRAW_MOVES, 8);
/// ```
pub const DRAW_MOVES: u32 = 8;

/// ...counted from this move number on (earlier, level scores are common in live positions).
///
/// ```
/// assert_eq!(minkowski::datagen::DRAW_MIN_MOVE, 40);
/// ```
pub const DRAW_MIN_MOVE: u32 = 40;

/// A game still going after this many searched plies is a draw (a safety net: adjudication
/// and the 50-move rule end nearly every game long before).
///
/// ```
/// assert_eq!(minkowski::datagen::MAX_GAME_PLIES, 600);
/// ```
pub const MAX_GAME_PLIES: u32 = 600;

/// Random legal plies played after a book position, at least...
///
/// ```
/// assert!(minkowski::datagen::RANDOM_PLIES_MIN <= minkowski::datagen::RANDOM_PLIES_MAX);
/// ```
pub const RANDOM_PLIES_MIN: u32 = 4;

/// ...and at most (the count is drawn uniformly per game).
///
/// ```
/// assert_eq!(minkowski::datagen::RANDOM_PLIES_MAX, 8);
/// ```
pub const RANDOM_PLIES_MAX: u32 = 8;

/// Random plies from the start position when no book is given (more, since nothing else
/// varies the openings).
///
/// ```
/// assert_eq!(minkowski::datagen::RANDOM_PLIES_WITHOUT_BOOK, 10);
/// ```
pub const RANDOM_PLIES_WITHOUT_BOOK: u32 = 10;

/// An opening whose first search scores it further than this from equal is thrown away and
/// another one drawn: random plies can hang a piece, and a game decided before it starts
/// teaches little.
///
/// ```
/// assert_eq!(minkowski::datagen::MAX_OPENING_CP, 400);
/// ```
pub const MAX_OPENING_CP: i32 = 400;

/// Openings drawn per game before the game is given up (counted as skipped).
///
/// ```
/// assert_eq!(minkowski::datagen::OPENING_ATTEMPTS, 20);
/// ```
pub const OPENING_ATTEMPTS: u32 = 20;

/// Transposition table of each job's searcher, in MB: the searches are small (a few thousand
/// nodes), and many jobs run at once.
///
/// ```
/// assert_eq!(minkowski::datagen::DEFAULT_HASH_MB, 8);
/// ```
pub const DEFAULT_HASH_MB: usize = 8;
