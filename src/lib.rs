#![deny(missing_docs)]
//! # Minkowski
//!
//! A chess engine whose evaluation thinks in square distances, and a library with no I/O that
//! other engines reuse. What is in the box:
//!
//! * [`geometry`]: king, Manhattan, centre and knight distance tables built at compile time, and
//!   set-wise knight patterns (attacks of many knights at once, fill, reach around forbidden
//!   squares, fork squares). Pure `const fn`s: no initialisation, no global state.
//! * [`eval`]: the whole evaluation ([`eval::Evaluator`]), every number in it named and settable
//!   ([`eval::weights::Weights`]), and the endgame knowledge callable one term at a time with
//!   plain inputs: mop-up ([`eval::endgame::mop_up_bonus`]), bishop and knight mate
//!   ([`eval::endgame::KbnkPosition`]), knight against passed pawn
//!   ([`eval::endgame::PasserRace`]) and knight forks ([`eval::tactics::knight_fork_jumps`]).
//! * [`value`]: [`value::Value`] (centipawns that also encode mates), [`value::MAX_PLY`] and
//!   [`value::Score`], shared by the evaluation and the search.
//! * [`search`]: Minkowski's own search ([`search::Searcher`]), and [`perft`].
//! * [`wdl`]: win, draw and loss chances of a score ([`wdl::Wdl`]), fitted to self-play games.
//! * [`tune`]: Texel tuning of the evaluation's weights to game results ([`tune::Tuner`]).
//! * [`openings`]: random balanced openings for test frameworks (OpenBench's `genfens`).
//! * With the default `engine` feature only: the option model (`options`), the UCI loop (`uci`),
//!   the EPD runner (`epd`), the configuration file (`config`), self-play training data
//!   (`datagen`) and the `minkowski` binary.
//!
//! ## Layers
//!
//! Every module depends only on the layers below it, so each layer can be lifted out with what is
//! under it (the evaluation with `value` and `geometry`, the search with the evaluation):
//!
//! | layer | modules | uses |
//! |---|---|---|
//! | core crate | `value`, `geometry` ← `eval` ← `weights_file` (`minkowski-chess-core`) | shakmaty, arrayvec, toml's parser |
//! | 0 | `perft`, and the core crate's modules re-exported here | shakmaty only |
//! | 1 | `search`, `tune`, `wdl` | layer 0 |
//! | 2 | `openings`, `options` (engine) | layers 0–1 |
//! | 3 | `config`, `epd`, `datagen` (engine) | layers 0–2 |
//! | 4 | `uci` (engine) | layers 0–3 |
//! | binary | `main.rs`, `cli/` | the library's public API |
//!
//! Data flows one way: text in (a UCI line, an EPD line, TOML) is parsed into typed values at the
//! edge, the library evaluates and searches, and results leave through a reporter; the library
//! prints nothing. `.ci/check-layers.sh` (run by CI and by `cargo test`,
//! `tests/integration/layers.rs`) fails on any import from a layer above, or sideways within a
//! layer.
//!
//! `value`, `geometry` and `eval` live in the core crate (`minkowski-chess-core`, lib name
//! `minkowski_core`, in core/) and are re-exported here, so `minkowski::eval::…` still works.
//! Another engine that wants the evaluation depends on the core crate alone (shakmaty, arrayvec,
//! toml's parser), whose documented facade is its crate root:
//!
//! ```toml
//! [dependencies]
//! minkowski-chess-core = { path = "../minkowski/core" }
//! ```
//!
//! The engine's library without the binary's dependencies is still available:
//! `minkowski = { package = "minkowski-chess", path = "../minkowski", default-features = false }`.
//!
//! Squares and sets of squares are shakmaty's: [`shakmaty::Square`] numbers a1 = 0, b1 = 1, …,
//! h8 = 63 (`Square::new(index)`), and [`shakmaty::Bitboard`] is a plain `u64` with bit `i` for
//! square `i` (`Bitboard(bits)`, and `.0` back). An engine with its own board converts a few
//! numbers per call; one that numbers a8 = 0 flips ranks with `index ^ 56` and `bits.swap_bytes()`.
//!
//! ## 1. A distance or a knight pattern
//!
//! ```
//! use minkowski::geometry::{king_distance, knight_distance, knight_reach, manhattan_distance};
//! use shakmaty::{Bitboard, Square};
//!
//! let (a, b) = (Square::new(0), Square::new(63)); // a1 and h8, from your own indices
//! assert_eq!(king_distance(a, b), 7);
//! assert_eq!(manhattan_distance(a, b), 14);
//! assert_eq!(knight_distance(a, b), 6);
//!
//! // Where can a knight on g1 get in two moves without landing on f3 or h3?
//! let reach = knight_reach(Bitboard(1 << 6), 2, Bitboard((1 << 21) | (1 << 23)));
//! assert!(reach.contains(Square::E2) && reach.contains(Square::C3) && !reach.contains(Square::F3));
//! ```
//!
//! ## 2. Evaluating a position
//!
//! ```
//! use minkowski::eval::Evaluator;
//! use shakmaty::{CastlingMode, Chess, fen::Fen};
//!
//! let pos: Chess = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
//!     .parse::<Fen>().unwrap()
//!     .into_position(CastlingMode::Standard).unwrap();
//! let evaluator = Evaluator::default();
//! let value = evaluator.evaluate(&pos); // centipawns, from the side to move's point of view
//! assert!(value.0.abs() < 100);
//! println!("{}", evaluator.trace(&pos)); // every term, White and Black, middlegame and endgame
//! ```
//!
//! ## 3. One endgame term
//!
//! ```
//! use minkowski::eval::endgame::{KbnkPosition, PasserRace, mop_up_bonus};
//! use minkowski::eval::weights::Weights;
//! use shakmaty::{Bitboard, Color, Square};
//!
//! let w = Weights::default();
//!
//! // Is this passer caught? A white pawn on b6 with White to move, a black knight on h8.
//! let race = PasserRace { pawn: Square::B6, pawn_color: Color::White, pawn_to_move: true };
//! assert!(!race.knights_catch(Bitboard(1 << 63)));
//!
//! // Mop-up for king and rook against king: lone king on h8 (edge) beats one on e5 (centre).
//! assert!(mop_up_bonus(Square::F6, Square::H8, &w).eg() > mop_up_bonus(Square::C3, Square::E5, &w).eg());
//!
//! // King, bishop and knight against king, exactly as Minkowski scores it.
//! let kbnk = KbnkPosition {
//!     strong_king: Square::C3,
//!     lone_king: Square::A1,
//!     bishop: Square::D4, // dark squares: mate in a1 or h8
//!     knight: Square::B4,
//!     lone_king_to_move: true,
//! };
//! assert_eq!(kbnk.corner_distance(), 0);
//! assert!(kbnk.score(&w).eg() > 10_000);
//! ```
//!
//! `examples/` holds longer programs: `distance_tables` draws the tables, `catch_the_passer`
//! races passers against knights and kings, and `mopup_in_my_engine` is a tiny alpha-beta over
//! shakmaty that mates with bishop and knight using only these plain-input terms.
//!
//! Licence: GPL-3.0-or-later (shakmaty, which this library exposes, is GPL-3.0-or-later too), so
//! an engine that links it is distributed under the GPL as well.

/// The engine's version as `id name` and `minkowski --version` show it: the package version,
/// followed by the short git commit when it was built from its own checkout (`0.2.0 (1a2b3c4)`),
/// the version alone otherwise (see build.rs).
///
/// ```
/// assert!(minkowski::VERSION.starts_with(env!("CARGO_PKG_VERSION")));
/// ```
pub const VERSION: &str = env!("MINKOWSKI_VERSION");

/// The chess library Minkowski is built on, re-exported so that users name exactly the types
/// Minkowski's functions take (`minkowski::shakmaty::{Square, Bitboard, Color}`) without having to
/// depend on the same shakmaty version themselves.
///
/// ```
/// use minkowski::shakmaty::{Bitboard, Square};
/// assert_eq!(Square::new(63), Square::H8);
/// assert_eq!(Bitboard(1 << 4).first(), Some(Square::E1));
/// ```
pub use shakmaty;

// Layers 0 and 1 are the core crate (`minkowski-chess-core`, core/): value, geometry and eval,
// re-exported so that `minkowski::eval::…` keeps working. The engine uses them through the core
// crate's public modules only.
pub use minkowski_core::{eval, geometry, value};
// Layer 0.
pub mod perft;
// Layer 2.
pub mod search;
pub mod tune;
pub mod wdl;
// Layer 3.
pub mod openings;
// Layers 3 to 5 with the `engine` feature: options (3), config, epd and datagen (4), uci (5).
#[cfg(feature = "engine")]
pub mod config;
#[cfg(feature = "engine")]
pub mod datagen;
#[cfg(feature = "engine")]
pub mod epd;
#[cfg(feature = "engine")]
pub mod options;
#[cfg(feature = "engine")]
pub mod uci;

/// The README's Rust snippet (the quickstart's evaluation example), checked as a doc-test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// docs/library.md's Rust snippets (the guide for engine authors), checked as doc-tests.
#[cfg(doctest)]
#[doc = include_str!("../docs/library.md")]
pub struct LibraryDoctests;
