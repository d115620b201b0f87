//! Mop-up: winning against a lone king means driving it to the edge (or, with bishop and
//! knight, to a corner of the bishop's colour) and bringing the own king close.

use shakmaty::{Bitboard, Board, Color, Role, Square, attacks};

use super::verdict_weights::{
    KBNK_CORNER, KBNK_KNIGHT_CLOSE, KNOWN_WIN, MOP_UP_CLOSE, MOP_UP_EDGE, MOP_UP_KING_CLOSE,
    MOP_UP_KING_FREEDOM, WeightSum,
};
use crate::eval::base::MATERIAL;
use crate::eval::score::S;
use crate::eval::to_move::SideToMove;
use crate::eval::tracer::Tracer;
use crate::eval::tracer::Verdict;
use crate::eval::weights::{Weights, role_index};
use crate::geometry::{
    centre_manhattan_distance, king_distance, knight_distance, manhattan_distance,
};

/// The distance-driven part of the mop-up score, from the strong side's point of view: the lone
/// king's distance from the centre (the edge is better), and how close the two kings are.
/// Plain inputs, so any engine can call it with its own king squares.
///
/// ```
/// use minkowski_core::eval::endgame::mop_up_bonus;
/// use minkowski_core::eval::weights::Weights;
/// use shakmaty::Square;
/// let w = Weights::default();
/// let edge = mop_up_bonus(Square::F6, Square::H8, &w);
/// let centre = mop_up_bonus(Square::C3, Square::E5, &w);
/// assert!(edge.eg() > centre.eg()); // lone king cornered, kings as close: better
/// ```
#[must_use]
pub fn mop_up_bonus(strong_king: Square, weak_king: Square, w: &Weights) -> S {
    let mut untraced = ();
    let mut sum = WeightSum::new(w, &mut untraced);
    add_mop_up(&mut sum, strong_king, weak_king);
    sum.sum
}

/// [`mop_up_bonus`], added to `sum`.
fn add_mop_up(sum: &mut WeightSum<'_>, strong_king: Square, weak_king: Square) {
    let edge = centre_manhattan_distance(weak_king) as i32; // 0 (centre) ..= 6 (corner)
    sum.add(MOP_UP_EDGE, edge);
    add_kings_close(sum, strong_king, weak_king);
}

/// How close the two kings are, by Manhattan and by king distance: the strong king must help.
fn add_kings_close(sum: &mut WeightSum<'_>, strong_king: Square, weak_king: Square) {
    let apart = manhattan_distance(strong_king, weak_king) as i32; // 1 ..= 14
    let king_apart = king_distance(strong_king, weak_king) as i32; // 1 ..= 7
    sum.add(MOP_UP_CLOSE, 14 - apart)
        .add(MOP_UP_KING_CLOSE, 7 - king_apart);
}

/// Manhattan distance from `weak_king` to the nearer corner that `bishop` can reach (a1/h8 for
/// a dark-squared bishop, a8/h1 for a light-squared one): 0 in the right corner, 7 in a wrong one.
///
/// ```
/// use minkowski_core::eval::endgame::kbnk_corner_distance;
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

/// King, bishop and knight against a lone king, as five plain values: the input of the KBNK
/// evaluation, for engines that keep their own board.
///
/// [`KbnkPosition::score`] is exactly what Minkowski's evaluator uses for KBNK, from the strong
/// side's point of view: a known win plus the material, plus terms that lead the lone king into a
/// corner of the bishop's colour (see [`KBNK_CORNER`](crate::eval::endgame::KBNK_CORNER) and its neighbours). Named fields
/// rather than five arguments, so that two squares cannot be swapped unnoticed.
///
/// ```
/// use minkowski_core::eval::endgame::KbnkPosition;
/// use minkowski_core::eval::weights::Weights;
/// use shakmaty::Square;
///
/// let w = Weights::default();
/// // Dark-squared bishop (c1): a1 and h8 are the mating corners.
/// let right = KbnkPosition {
///     strong_king: Square::C2,
///     lone_king: Square::A1,
///     bishop: Square::C1,
///     knight: Square::D4,
///     lone_king_to_move: false,
/// };
/// let wrong = KbnkPosition { lone_king: Square::A8, strong_king: Square::C7, ..right };
/// assert!(right.score(&w).eg() > wrong.score(&w).eg());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KbnkPosition {
    /// The strong side's king.
    pub strong_king: Square,
    /// The lone (defending) king.
    pub lone_king: Square,
    /// The strong side's bishop: its square colour picks the mating corners.
    pub bishop: Square,
    /// The strong side's knight.
    pub knight: Square,
    /// Whether the lone king moves next (only then can it be stalemated).
    pub lone_king_to_move: bool,
}

impl KbnkPosition {
    /// The evaluation of this KBNK position from the strong side's point of view, by `w`: zero
    /// when the lone king is to move and stalemated, otherwise [`KNOWN_WIN`](crate::eval::endgame::KNOWN_WIN) plus the
    /// material of king, bishop and knight, plus the kings' closeness (as in [`mop_up_bonus`]),
    /// the lone king's closeness to a right corner ([`KBNK_CORNER`](crate::eval::endgame::KBNK_CORNER)), the knight's
    /// closeness to it ([`KBNK_KNIGHT_CLOSE`](crate::eval::endgame::KBNK_KNIGHT_CLOSE)) and the room it has left
    /// ([`MOP_UP_KING_FREEDOM`](crate::eval::endgame::MOP_UP_KING_FREEDOM)). Blend the pair with [`S::taper`] (Minkowski uses the
    /// phase of the position, 2 for bishop and knight), or take [`S::eg`].
    ///
    /// ```
    /// use minkowski_core::eval::endgame::KbnkPosition;
    /// use minkowski_core::eval::score::S;
    /// use minkowski_core::eval::weights::Weights;
    /// use shakmaty::Square;
    ///
    /// let w = Weights::default();
    /// // Lone king on h8 to move; the king on f7 takes g8 and g7, the bishop h7: stalemate.
    /// let stalemate = KbnkPosition {
    ///     strong_king: Square::F7,
    ///     lone_king: Square::H8,
    ///     bishop: Square::G6,
    ///     knight: Square::A1,
    ///     lone_king_to_move: true,
    /// };
    /// assert_eq!(stalemate.score(&w), S::ZERO);
    /// // The same squares with the strong side to move: a known win, far above material.
    /// let win = KbnkPosition { lone_king_to_move: false, ..stalemate };
    /// assert!(win.score(&w).eg() > 10_000);
    /// ```
    #[must_use]
    pub fn score(&self, w: &Weights) -> S {
        let mut untraced = ();
        self.traced_score(w, &mut untraced)
    }

    /// [`KbnkPosition::score`], each weight told to `tracer`.
    fn traced_score(&self, w: &Weights, tracer: &mut dyn Tracer) -> S {
        if self.is_stalemate() {
            return S::ZERO;
        }
        let mut sum = WeightSum::new(w, tracer);
        sum.add(KNOWN_WIN, 1);
        for role in [Role::Bishop, Role::Knight, Role::King] {
            sum.add(MATERIAL.at(role_index(role)), 1);
        }
        add_kings_close(&mut sum, self.strong_king, self.lone_king);
        // No edge term here: every edge square would look as good as the right corner,
        // flattening the path from a wrong corner along the edge; the corner distance alone
        // leads the king.
        let corner = 14 - self.corner_distance() as i32; // 14 in the right corner
        // The knight covers the squares the bishop cannot: it must stay near the lone king.
        let knight_close = 6 - knight_distance(self.knight, self.lone_king) as i32; // 0 ..= 5
        sum.add(KBNK_CORNER, corner)
            .add(KBNK_KNIGHT_CLOSE, knight_close)
            .add(MOP_UP_KING_FREEDOM, self.lone_king_room() as i32);
        sum.sum
    }

    /// Manhattan distance of the lone king to the nearer corner of the bishop's colour: 0 in a
    /// right corner, 7 in a wrong one ([`kbnk_corner_distance`]).
    ///
    /// ```
    /// use minkowski_core::eval::endgame::KbnkPosition;
    /// use shakmaty::Square;
    /// let p = KbnkPosition {
    ///     strong_king: Square::C3,
    ///     lone_king: Square::B2,
    ///     bishop: Square::F1, // light squares: a8 and h1
    ///     knight: Square::E4,
    ///     lone_king_to_move: true,
    /// };
    /// assert_eq!(p.corner_distance(), 7);
    /// ```
    #[must_use]
    pub fn corner_distance(&self) -> u32 {
        kbnk_corner_distance(self.lone_king, self.bishop)
    }

    /// Squares next to the lone king that no strong piece attacks and no strong piece stands on:
    /// the room it has left (0..=8). Squeezing it shows progress long before the corner distance
    /// changes.
    ///
    /// ```
    /// use minkowski_core::eval::endgame::KbnkPosition;
    /// use shakmaty::Square;
    /// let p = KbnkPosition {
    ///     strong_king: Square::A3,
    ///     lone_king: Square::A1,
    ///     bishop: Square::H8,
    ///     knight: Square::H1,
    ///     lone_king_to_move: true,
    /// };
    /// // The king on a3 takes a2 and b2, the bishop on h8 takes b2 as well: only b1 is left.
    /// assert_eq!(p.lone_king_room(), 1);
    /// ```
    #[must_use]
    pub fn lone_king_room(&self) -> u32 {
        let strong = self.strong_pieces();
        let taken = attacks::king_attacks(self.lone_king)
            .into_iter()
            .filter(|&sq| self.attacked(sq) || strong.contains(sq))
            .count();
        attacks::king_attacks(self.lone_king).count() as u32 - taken as u32
    }

    /// Whether the lone king is to move, not in check, and has no square to go to (capturing an
    /// undefended piece counts as a move).
    ///
    /// ```
    /// use minkowski_core::eval::endgame::KbnkPosition;
    /// use shakmaty::Square;
    /// let p = KbnkPosition {
    ///     strong_king: Square::F7,
    ///     lone_king: Square::H8,
    ///     bishop: Square::G6,
    ///     knight: Square::A1,
    ///     lone_king_to_move: true,
    /// };
    /// assert!(p.is_stalemate());
    /// assert!(!KbnkPosition { bishop: Square::A2, ..p }.is_stalemate()); // h7 is free
    /// assert!(!KbnkPosition { lone_king_to_move: false, ..p }.is_stalemate());
    /// ```
    #[must_use]
    pub fn is_stalemate(&self) -> bool {
        self.lone_king_to_move
            && !self.attacked(self.lone_king)
            && attacks::king_attacks(self.lone_king)
                .into_iter()
                .all(|sq| self.attacked(sq))
    }

    /// The squares of the strong side's pieces.
    fn strong_pieces(&self) -> Bitboard {
        Bitboard::from(self.strong_king)
            .with(self.bishop)
            .with(self.knight)
    }

    /// Whether a strong piece attacks `sq`, seen through the lone king (so that squares behind
    /// it along the bishop's diagonal count as attacked). A piece never attacks its own square,
    /// so an undefended piece next to the lone king is not "attacked".
    fn attacked(&self, sq: Square) -> bool {
        // Without the lone king, as a king move or a check would see it.
        let occupied = self.strong_pieces();
        attacks::king_attacks(self.strong_king).contains(sq)
            || attacks::knight_attacks(self.knight).contains(sq)
            || attacks::bishop_attacks(self.bishop, occupied).contains(sq)
    }

    /// The KBNK material of `strong` on `board`, if it is exactly that.
    fn of(board: &Board, to_move: SideToMove, strong: Color) -> Option<KbnkPosition> {
        Some(KbnkPosition {
            strong_king: board.king_of(strong)?,
            lone_king: board.king_of(!strong)?,
            bishop: board.by_piece(Role::Bishop.of(strong)).first()?,
            knight: board.by_piece(Role::Knight.of(strong)).first()?,
            lone_king_to_move: to_move.color() != strong,
        })
    }
}

/// Material of `color` in the endgame, by the material weights, added to `sum`.
fn add_material(sum: &mut WeightSum<'_>, board: &Board, color: Color) {
    for role in Role::ALL {
        let count = board.by_piece(role.of(color)).count() as i32;
        if count > 0 {
            sum.add(MATERIAL.at(role_index(role)), count);
        }
    }
}

/// Whether the lone king (the side of `!strong`, which has nothing else) is to move and
/// stalemated: then the "win" is a draw. Read off the pieces: not in check, and every square
/// next to it that holds none of its own pieces is attacked by the strong side (seen without
/// the lone king, as a king step sees it; a strong piece there is attacked only if defended).
/// With nothing but the king, a king step is the lone side's only kind of move, so on a legal
/// position this is exactly "no legal move and not in check"; a board without that king (or
/// with two) is not stalemate.
fn stalemated(board: &Board, to_move: SideToMove, strong: Color) -> bool {
    let lone = !strong;
    if to_move.color() != lone {
        return false;
    }
    let Some(king) = board.king_of(lone) else {
        return false;
    };
    let without_king = board.occupied() ^ Bitboard::from(king);
    board.attacks_to(king, strong, board.occupied()).is_empty()
        && (attacks::king_attacks(king) & !board.by_color(lone))
            .into_iter()
            .all(|to| board.attacks_to(to, strong, without_king).any())
}

/// Any mating material against a lone king.
pub(super) fn kxk(
    board: &Board,
    to_move: SideToMove,
    strong: Color,
    w: &Weights,
    tracer: &mut dyn Tracer,
) -> Verdict {
    if stalemated(board, to_move, strong) {
        return Verdict::Replace(S::ZERO);
    }
    let (Some(ks), Some(kw)) = (board.king_of(strong), board.king_of(!strong)) else {
        return Verdict::Replace(S::ZERO);
    };
    let mut sum = WeightSum::new(w, tracer);
    sum.add(KNOWN_WIN, 1);
    add_material(&mut sum, board, strong);
    add_mop_up(&mut sum, ks, kw);
    Verdict::Replace(sum.sum)
}

/// King, bishop and knight against a lone king: the corner of the bishop's colour.
pub(super) fn kbnk(
    board: &Board,
    to_move: SideToMove,
    strong: Color,
    w: &Weights,
    tracer: &mut dyn Tracer,
) -> Verdict {
    let position = KbnkPosition::of(board, to_move, strong);
    Verdict::Replace(position.map_or(S::ZERO, |p| p.traced_score(w, tracer)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, Chess, FromSetup, Piece, Position, Setup};

    /// The position of `pieces` (White's: the strong side) against a lone black king on
    /// `lone`, Black to move, if it is legal.
    fn position(lone: Square, pieces: &[(Piece, Square)]) -> Option<Chess> {
        let mut setup = Setup::empty();
        setup.board.set_piece_at(lone, Color::Black.king());
        for &(piece, sq) in pieces {
            if setup.board.piece_at(sq).is_some() {
                return None;
            }
            setup.board.set_piece_at(sq, piece);
        }
        setup.turn = Color::Black;
        Chess::from_setup(setup, CastlingMode::Standard).ok()
    }

    /// The stalemate read off the pieces equals shakmaty's "no legal move and not in check" on
    /// every legal KQK and KRK position with the lone king to move, and on random placements of
    /// the other mating materials (pawns too); and it is never stalemate for the strong side
    /// to move.
    #[test]
    fn stalemate_from_the_pieces_is_the_move_generators() {
        let to_move = SideToMove::new(Color::Black);
        let (mut positions, mut stalemates) = (0, 0);
        let mut check = |pos: &Chess| {
            let want = !pos.is_check() && pos.legal_moves().is_empty();
            assert_eq!(
                stalemated(pos.board(), to_move, Color::White),
                want,
                "{pos:?}"
            );
            let other = SideToMove::new(Color::White);
            assert!(!stalemated(pos.board(), other, Color::White));
            positions += 1;
            stalemates += usize::from(want);
        };
        for role in [Role::Queen, Role::Rook] {
            for lone in Square::ALL {
                for king in Square::ALL {
                    for piece in Square::ALL {
                        let pieces = [(Color::White.king(), king), (role.of(Color::White), piece)];
                        if let Some(pos) = position(lone, &pieces) {
                            check(&pos);
                        }
                    }
                }
            }
        }
        let materials: [&[Role]; 5] = [
            &[Role::Bishop, Role::Knight],
            &[Role::Bishop, Role::Bishop],
            &[Role::Knight, Role::Knight, Role::Knight],
            &[Role::Queen, Role::Pawn, Role::Pawn],
            &[Role::Rook, Role::Bishop, Role::Pawn],
        ];
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            Square::new((seed % 64) as u32)
        };
        for roles in materials {
            for _ in 0..100_000 {
                let lone = next();
                let mut pieces = vec![(Color::White.king(), next())];
                pieces.extend(roles.iter().map(|&r| (r.of(Color::White), next())));
                if let Some(pos) = position(lone, &pieces) {
                    check(&pos);
                }
            }
        }
        assert!(
            positions > 500_000 && stalemates > 1_000,
            "{positions}, {stalemates}"
        );
    }
}
