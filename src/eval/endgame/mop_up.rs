//! Mop-up: winning against a lone king means driving it to the edge (or, with bishop and
//! knight, to a corner of the bishop's colour) and bringing the own king close.

use shakmaty::{Bitboard, Chess, Color, Position, Role, Square, attacks};

use super::Verdict;
use crate::eval::score::S;
use crate::eval::weights::Weights;
use crate::geometry::{
    centre_manhattan_distance, king_distance, knight_distance, manhattan_distance,
};

/// The distance-driven part of the mop-up score, from the strong side's point of view: the lone
/// king's distance from the centre (the edge is better), and how close the two kings are.
/// Plain inputs, so any engine can call it with its own king squares.
///
/// ```
/// use minkowski::eval::endgame::mop_up_bonus;
/// use minkowski::eval::weights::Weights;
/// use shakmaty::Square;
/// let w = Weights::default();
/// let edge = mop_up_bonus(Square::F6, Square::H8, &w);
/// let centre = mop_up_bonus(Square::C3, Square::E5, &w);
/// assert!(edge.eg() > centre.eg()); // lone king cornered, kings as close: better
/// ```
#[must_use]
pub fn mop_up_bonus(strong_king: Square, weak_king: Square, w: &Weights) -> S {
    let edge = centre_manhattan_distance(weak_king) as i32; // 0 (centre) ..= 6 (corner)
    w.mop_up_edge * edge + kings_close(strong_king, weak_king, w)
}

/// How close the two kings are, by Manhattan and by king distance: the strong king must help.
fn kings_close(strong_king: Square, weak_king: Square, w: &Weights) -> S {
    let apart = manhattan_distance(strong_king, weak_king) as i32; // 1 ..= 14
    let king_apart = king_distance(strong_king, weak_king) as i32; // 1 ..= 7
    w.mop_up_close * (14 - apart) + w.mop_up_king_close * (7 - king_apart)
}

/// Manhattan distance from `weak_king` to the nearer corner that `bishop` can reach (a1/h8 for
/// a dark-squared bishop, a8/h1 for a light-squared one): 0 in the right corner, 7 in a wrong one.
///
/// ```
/// use minkowski::eval::endgame::kbnk_corner_distance;
/// use shakmaty::Square;
/// // c1 is a dark square: the bishop mates in a1 or h8.
/// assert_eq!(kbnk_corner_distance(Square::A1, Square::C1), 0);
/// assert_eq!(kbnk_corner_distance(Square::A8, Square::C1), 7);
/// ```
#[must_use]
pub fn kbnk_corner_distance(weak_king: Square, bishop: Square) -> u32 {
    let corners = if Bitboard::DARK_SQUARES.contains(bishop) {
        [Square::A1, Square::H8]
    } else {
        [Square::A8, Square::H1]
    };
    manhattan_distance(weak_king, corners[0]).min(manhattan_distance(weak_king, corners[1]))
}

/// Squares next to the lone king that no strong piece attacks and no strong piece stands on:
/// the room it has left. Squeezing it shows progress long before the corner distance changes.
fn free_squares(pos: &Chess, strong: Color, weak_king: Square) -> u32 {
    let board = pos.board();
    // Without the lone king, so that squares behind it along a line count as attacked.
    let occupied = board.occupied().without(weak_king);
    let attacked = attacks::king_attacks(weak_king)
        .into_iter()
        .filter(|&sq| {
            board.attacks_to(sq, strong, occupied).any() || board.by_color(strong).contains(sq)
        })
        .count();
    attacks::king_attacks(weak_king).count() as u32 - attacked as u32
}

/// Material of `color` in the endgame, by the material weights.
fn material(pos: &Chess, color: Color, w: &Weights) -> S {
    Role::ALL
        .into_iter()
        .map(|role| {
            w.material[role as usize - 1] * pos.board().by_piece(role.of(color)).count() as i32
        })
        .fold(S::ZERO, |a, b| a + b)
}

/// Whether the lone king is to move and stalemated: then the "win" is a draw.
fn stalemated(pos: &Chess, strong: Color) -> bool {
    pos.turn() != strong && !pos.is_check() && pos.legal_moves().is_empty()
}

/// Any mating material against a lone king.
pub(super) fn kxk(pos: &Chess, strong: Color, w: &Weights) -> Verdict {
    if stalemated(pos, strong) {
        return Verdict::Replace(S::ZERO);
    }
    let board = pos.board();
    let (Some(ks), Some(kw)) = (board.king_of(strong), board.king_of(!strong)) else {
        return Verdict::Replace(S::ZERO);
    };
    Verdict::Replace(w.known_win + material(pos, strong, w) + mop_up_bonus(ks, kw, w))
}

/// King, bishop and knight against a lone king: the corner of the bishop's colour.
pub(super) fn kbnk(pos: &Chess, strong: Color, w: &Weights) -> Verdict {
    if stalemated(pos, strong) {
        return Verdict::Replace(S::ZERO);
    }
    let board = pos.board();
    let bishop = board.by_piece(Role::Bishop.of(strong)).first();
    let knight = board.by_piece(Role::Knight.of(strong)).first();
    let (Some(ks), Some(kw), Some(b), Some(n)) = (
        board.king_of(strong),
        board.king_of(!strong),
        bishop,
        knight,
    ) else {
        return Verdict::Replace(S::ZERO);
    };
    // No edge term here: every edge square would look as good as the right corner, flattening
    // the path from a wrong corner along the edge; the corner distance alone leads the king.
    let corner = 14 - kbnk_corner_distance(kw, b) as i32; // 14 in the right corner
    // The knight covers the squares the bishop cannot: it must stay near the lone king.
    let knight_close = 6 - knight_distance(n, kw) as i32; // 0 ..= 5
    Verdict::Replace(
        w.known_win
            + material(pos, strong, w)
            + kings_close(ks, kw, w)
            + w.kbnk_corner * corner
            + w.kbnk_knight_close * knight_close
            + w.mop_up_king_freedom * free_squares(pos, strong, kw) as i32,
    )
}
