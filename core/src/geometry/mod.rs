//! Square geometry: the distances the evaluation thinks in, and set-wise knight patterns.
//!
//! * [`king_distance`], [`manhattan_distance`], [`centre_manhattan_distance`] and
//!   [`knight_distance`] are single lookups in tables built at compile time by `const fn`;
//!   [`knight_distance_by_rank_file`] and [`knight_distance_by_fill`] compute knight distance two
//!   other ways.
//! * [`knight_attacks_set`], [`knight_fill`], [`knight_reach`], [`knight_set_distance`] and
//!   [`knight_fork_squares`] work on whole [`shakmaty::Bitboard`]s at once, by shifts with file
//!   masks ([`FILE_A`], [`NOT_FILE_A`], [`file_mask`], …, one home for every file mask).
//!
//! Squares are shakmaty's [`shakmaty::Square`] (a1 = 0, h8 = 63). Every function is a pure
//! `const fn`; `tests/integration/geometry.rs` checks each against a naive implementation on every
//! square pair and on thousands of random sets.
//!
//! ```
//! use minkowski_core::geometry::{king_distance, knight_distance, manhattan_distance};
//! use shakmaty::Square;
//!
//! let (a, b) = (Square::B1, Square::C3);
//! assert_eq!((king_distance(a, b), manhattan_distance(a, b), knight_distance(a, b)), (2, 3, 1));
//! ```

mod distance;
mod files;
mod knight;

pub use distance::{
    centre_manhattan_distance, king_distance, knight_distance, knight_distance_by_rank_file,
    manhattan_distance, nearest_king_distance,
};
pub use files::{FILE_A, FILE_H, NOT_FILE_A, NOT_FILE_H, NOT_FILES_AB, NOT_FILES_GH, file_mask};
pub use knight::{
    knight_attacks_set, knight_distance_by_fill, knight_fill, knight_fork_squares, knight_reach,
    knight_set_distance,
};
