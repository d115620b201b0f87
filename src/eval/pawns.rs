//! Passed pawns: the one test both the evaluation's passed-pawn term and the knight-against-passer
//! endgame use.

use shakmaty::{Bitboard, Color, Square};

/// Squares in front of a pawn on its file and the two neighbouring files, per colour (White = 0,
/// Black = 1) and square: a pawn is passed when no enemy pawn stands there.
const PASSED_SPAN: [[u64; 64]; 2] = passed_spans();

const fn passed_spans() -> [[u64; 64]; 2] {
    let mut spans = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let file = (sq % 8) as i32;
        let rank = (sq / 8) as i32;
        let mut other: usize = 0;
        while other < 64 {
            let f = (other % 8) as i32;
            let r = (other / 8) as i32;
            let near = (f - file) <= 1 && (file - f) <= 1;
            if near && r > rank {
                spans[0][sq] |= 1 << other;
            }
            if near && r < rank {
                spans[1][sq] |= 1 << other;
            }
            other += 1;
        }
        sq += 1;
    }
    spans
}

/// The squares that must be free of enemy pawns for a `color` pawn on `sq` to be passed: every
/// square ahead of it (towards promotion) on its own and the neighbouring files.
///
/// ```
/// use minkowski::eval::pawns::passed_span;
/// use shakmaty::{Color, Square};
/// let span = passed_span(Square::A6, Color::White);
/// assert_eq!(span.count(), 4); // a7 a8 b7 b8
/// assert!(passed_span(Square::E5, Color::Black).contains(Square::D1));
/// ```
#[must_use]
pub const fn passed_span(sq: Square, color: Color) -> Bitboard {
    let side = match color {
        Color::White => 0,
        Color::Black => 1,
    };
    Bitboard(PASSED_SPAN[side][sq as usize])
}

/// Whether a `color` pawn on `sq` is passed: no pawn of `their_pawns` can stop or take it on its
/// way to promotion.
///
/// ```
/// use minkowski::eval::pawns::is_passed;
/// use shakmaty::{Bitboard, Color, Square};
/// let black_pawns = Bitboard::from(Square::C7);
/// assert!(!is_passed(Square::B5, Color::White, black_pawns));
/// assert!(is_passed(Square::E5, Color::White, black_pawns));
/// assert!(is_passed(Square::C6, Color::White, Bitboard::from(Square::C5))); // behind it
/// ```
#[must_use]
pub const fn is_passed(sq: Square, color: Color, their_pawns: Bitboard) -> bool {
    passed_span(sq, color).0 & their_pawns.0 == 0
}
