#![deny(missing_docs)]
//! # Minkowski's evaluation, as a library
//!
//! The hand-crafted chess evaluation of the Minkowski engine, without the engine: no search, no
//! UCI, no I/O. Its only dependencies are `shakmaty` (the board), `arrayvec` and `toml` (the
//! weight file). The engine crate (`minkowski-chess`), the C library (`minkowski-chess-capi`) and
//! the Python package are all built on it.
//!
//! ## The public API
//!
//! * [`Evaluator`]: [`Evaluator::evaluate_board`] (the pieces of a [`shakmaty::Board`] and the
//!   side to move; centipawns from the side to move's point of view, within ±[`EVAL_LIMIT`]),
//!   [`Evaluator::evaluate`] (the same from a `Chess` position), [`Evaluator::trace`] (every
//!   term, [`EvalTrace`]), and [`PawnKingCache`] to keep the pawn-and-king terms between calls
//!   (bound to the weights that filled it by a [`WeightsStamp`]: the weights change only through
//!   [`Evaluator::weights_mut`], which makes every cache of the old weights forget them).
//! * [`prepare_tables`]: builds the KPK bitbase (about 50 ms, otherwise built by the first
//!   evaluation that needs it).
//! * [`Weights`]: every number of the evaluation, named, read and set by name within its
//!   [`WeightSpec`] range; [`S`](struct@S) is a (middlegame, endgame) pair.
//! * [`weights_file`]: engine.toml's `[eval]` table, read ([`weights_file::WeightsFile`]) and
//!   written ([`weights_file::eval_table`]).
//! * [`geometry`]: king, Manhattan, centre and knight distances, set-wise knight patterns.
//! * [`knowledge`]: the endgame terms callable with plain inputs (mop-up, bishop and knight
//!   mate, KPK, knight against passed pawn, knight forks).
//! * [`Value`] and [`Score`]: what the evaluation returns and how a user sees it.
//!
//! ## Unstable internals
//!
//! The modules `eval` and `value` are public but hidden from these docs (`#[doc(hidden)]`): the
//! engine crate's search and Texel tuner reach into them (the tracer trait, the weight table's
//! layout, the accumulators, the endgame registry), and Rust has no visibility between "this
//! crate" and "everyone" for a sibling crate of the same workspace. Their contents change without
//! notice and without a version bump; everything a user needs is re-exported here. Each public
//! item of this page is documented and covered by semantic versioning.
//!
//! ```
//! use minkowski_core::{Evaluator, weights_file::WeightsFile};
//! use minkowski_core::geometry::king_distance;
//! use shakmaty::{CastlingMode, Chess, Square, fen::Fen};
//!
//! let pos: Chess = "8/8/8/4k3/8/8/8/4K2R w K - 0 1"
//!     .parse::<Fen>().unwrap()
//!     .into_position(CastlingMode::Standard).unwrap();
//! let weights = WeightsFile::parse("[eval]\ntempo = [10, 5]\n").unwrap().weights();
//! let evaluator = Evaluator::new(weights);
//! assert!(evaluator.evaluate(&pos).0 > 300); // a rook up
//! println!("{}", evaluator.trace(&pos)); // every term, White and Black, middlegame and endgame
//! assert_eq!(king_distance(Square::E1, Square::E5), 4);
//! ```
//!
//! Licence: GPL-3.0-or-later (as shakmaty, which this library exposes).

/// The chess library this crate is built on, re-exported so that users name exactly the types
/// its functions take (`minkowski_core::shakmaty::{Square, Bitboard, Color}`).
pub use shakmaty;

// Layer 0 (no crate-internal imports).
pub mod geometry;
// Unstable (hidden): the score type and the mate encoding shared with the engine's search; users
// take `Value` and `Score` from the crate root. (A `///` here would make rustdoc resolve the
// module's own links from the crate root.)
#[doc(hidden)]
pub mod value;
// Layer 1.
// Unstable (hidden): the evaluation's internals, used by the engine crate's search and tuner;
// users take the items re-exported at the crate root and in `knowledge`.
#[doc(hidden)]
pub mod eval;
// Layer 2.
pub mod weights_file;

pub use eval::pawn_king::{PawnKingCache, WeightsStamp};
pub use eval::score::{MAX_PHASE, S};
pub use eval::trace::{EvalTrace, Term};
pub use eval::weights::{WeightSpec, Weights};
pub use eval::{EVAL_LIMIT, Evaluator};
pub use value::{Score, Value};

/// Builds the tables the evaluation otherwise builds on first use (the KPK bitbase: about 50 ms
/// once per process), so that no evaluation in a search pauses for it. Optional (the value is
/// the same either way), idempotent, and safe from any thread; an engine calls it at start-up.
///
/// ```
/// minkowski_core::prepare_tables();
/// ```
pub fn prepare_tables() {
    eval::endgame::prepare_tables();
}

/// Endgame and tactical knowledge callable one term at a time with plain inputs (squares and
/// bitboards), for engines that want a piece of the evaluation rather than all of it.
///
/// ```
/// use minkowski_core::Weights;
/// use minkowski_core::knowledge::{KbnkPosition, PasserRace, mop_up_bonus};
/// use shakmaty::{Bitboard, Color, Square};
///
/// let w = Weights::default();
/// // A white pawn on b6 with White to move outruns a black knight on h8.
/// let race = PasserRace { pawn: Square::B6, pawn_color: Color::White, pawn_to_move: true };
/// assert!(!race.knights_catch(Bitboard(1 << 63)));
/// // Mop-up: a lone king on h8 (edge) is worse off than one on e5 (centre).
/// assert!(mop_up_bonus(Square::F6, Square::H8, &w).eg() > mop_up_bonus(Square::C3, Square::E5, &w).eg());
/// let kbnk = KbnkPosition {
///     strong_king: Square::C3,
///     lone_king: Square::A1,
///     bishop: Square::D4,
///     knight: Square::B4,
///     lone_king_to_move: true,
/// };
/// assert!(kbnk.score(&w).eg() > 10_000);
/// ```
pub mod knowledge {
    pub use crate::eval::endgame::{
        KbnkPosition, KpkPosition, PasserRace, kbnk_corner_distance, mop_up_bonus,
    };
    pub use crate::eval::tactics::{knight_fork_jumps, knight_fork_moves};
}
