//! Material and piece-square values: the sum of every piece on a board
//! ([`Evaluator::material_psqt`], each term told to a tracer on the full evaluation's path), and
//! the same sum kept up to date move by move ([`Evaluator::material_psqt_after`]), so that a
//! search can hand [`Evaluator::evaluate_from`] the sum without visiting every piece again.

use shakmaty::{Board, CastlingSide, Chess, Color, Move, Position, Role, Square};

use super::Evaluator;
use super::base::{MATERIAL, PSQT};
use super::score::S;
use super::tracer::Tracer;
use super::weights::role_index;

impl Evaluator {
    /// Material plus piece-square values of every piece on `board`, White's point of view.
    ///
    /// ```
    /// use minkowski_core::eval::Evaluator;
    /// use minkowski_core::eval::score::S;
    /// use shakmaty::{Chess, Position};
    /// // The start position is symmetric: both sides' sums cancel.
    /// assert_eq!(Evaluator::default().material_psqt(Chess::default().board()), S::ZERO);
    /// ```
    #[must_use]
    pub fn material_psqt(&self, board: &Board) -> S {
        self.material_psqt_with(board, &mut ())
    }

    /// [`Evaluator::material_psqt`] of the position after the legal move `m` of `pos`, from
    /// `before`, the sum of `pos`: only the squares the move touches are looked at.
    ///
    /// ```
    /// use minkowski_core::eval::Evaluator;
    /// use shakmaty::{Chess, Position, uci::UciMove};
    /// let (e, pos) = (Evaluator::default(), Chess::default());
    /// let m = "e2e4".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
    /// let after = e.material_psqt_after(&pos, m, e.material_psqt(pos.board()));
    /// let child = pos.clone().play(m).unwrap();
    /// assert_eq!(after, e.material_psqt(child.board()));
    /// ```
    #[must_use]
    pub fn material_psqt_after(&self, pos: &Chess, m: Move, before: S) -> S {
        let us = pos.turn();
        let value = |color: Color, role: Role, sq: Square| {
            let r = role_index(role);
            let w = &self.weights;
            let v = w[MATERIAL.at(r)] + w[PSQT.at(r * 64 + relative(sq, color))];
            if color == Color::White { v } else { -v }
        };
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                let mut after =
                    before - value(us, role, from) + value(us, promotion.unwrap_or(role), to);
                if let Some(c) = capture {
                    after -= value(!us, c, to);
                }
                after
            }
            Move::EnPassant { from, to } => {
                let victim = Square::from_coords(to.file(), from.rank());
                before - value(us, Role::Pawn, from) + value(us, Role::Pawn, to)
                    - value(!us, Role::Pawn, victim)
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_king_side(king < rook);
                before - value(us, Role::King, king) + value(us, Role::King, side.king_to(us))
                    - value(us, Role::Rook, rook)
                    + value(us, Role::Rook, side.rook_to(us))
            }
            Move::Put { role, to } => before + value(us, role, to),
        }
    }

    /// Material and piece squares of every piece, each term reported to `tracer`.
    pub(super) fn material_psqt_with<T: Tracer>(&self, board: &Board, tracer: &mut T) -> S {
        let w = &self.weights;
        let mut sum = S::ZERO;
        for color in [Color::White, Color::Black] {
            let mut side = S::ZERO;
            for role in Role::ALL {
                let r = role_index(role);
                for sq in board.by_piece(role.of(color)) {
                    let rel = relative(sq, color);
                    let (material, psqt) = (MATERIAL.at(r), PSQT.at(r * 64 + rel));
                    side += w[material] + w[psqt];
                    tracer.weight(color, material, 1);
                    tracer.weight(color, psqt, 1);
                }
            }
            sum += if color == Color::White { side } else { -side };
        }
        sum
    }
}

/// `sq` as seen from `color`'s side of the board (a1 = 0 for White's pieces; Black's are
/// flipped vertically).
fn relative(sq: Square, color: Color) -> usize {
    match color {
        Color::White => sq as usize,
        Color::Black => sq.flip_vertical() as usize,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::pawn_king::PawnKingCache;
    use crate::eval::test_support::{XorShift64, position};

    /// Random games (castling, en passant and promotions included): the sum kept move by move
    /// equals the sum from scratch, and the evaluation from it equals the full evaluation, also
    /// through a small pawn-king cache (entries replaced often; the second lookup of a position
    /// finds what the first stored).
    #[test]
    fn material_psqt_kept_move_by_move_matches_the_full_sum() {
        let e = Evaluator::default();
        let mut cache = PawnKingCache::new(64);
        let mut rng = XorShift64(0x9e37_79b9_7f4a_7c15);
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "1k6/8/8/8/8/8/5p2/7K b - - 0 1",
        ] {
            for _ in 0..20 {
                let mut pos = position(fen);
                let mut sum = e.material_psqt(pos.board());
                for _ in 0..100 {
                    assert_eq!(sum, e.material_psqt(pos.board()));
                    let (board, turn) = (pos.board(), pos.turn());
                    assert_eq!(e.evaluate_from(board, turn, sum), e.evaluate(&pos));
                    for _ in 0..2 {
                        let cached = e.evaluate_cached(board, turn, sum, &mut cache);
                        assert_eq!(cached, e.evaluate(&pos));
                    }
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[(rng.next() % moves.len() as u64) as usize];
                    sum = e.material_psqt_after(&pos, m, sum);
                    pos.play_unchecked(m);
                }
            }
        }
        assert!(cache.hits() * 2 >= cache.probes(), "{} hits", cache.hits());
    }
}
