//! Mobility: how many squares of its mobility area ([`Info::mobility_area`]: not attacked by
//! an enemy pawn, not the own king, not an own pawn that cannot move) a knight, bishop, rook or
//! queen reaches, scored by a table per piece kind with one entry per count (knight 0 ..= 8,
//! bishop 0 ..= 13, rook 0 ..= 14, queen 0 ..= 27). A table, not a weight per square: the
//! first squares matter most (a piece with none is nearly trapped), the last ones little.
//!
//! Bishops and rooks count through their own pieces that move like them: a bishop sees through
//! its own bishops and queens, a rook through its own rooks and queens (a battery reaches the
//! squares behind its front piece). The queen sees no x-ray. Only the count sees through:
//! the attack maps of [`Info`] stay the real attacks, which threats and king danger read.

use shakmaty::{Bitboard, Board, Color, Role, Square, attacks};

use super::acc::Acc;
use super::info::Info;
use super::score::S;
use super::tracer::Tracer;
use super::weights::channel::Linear;
use super::weights::{
    BISHOP_COUNTS, KNIGHT_COUNTS, MOBILITY_COUNTS, ROOK_COUNTS, Slot, declare_weights,
};

declare_weights! {
    /// The family of weights of mobility; where it starts in the table is set where the evaluation
    /// lists its families (`eval/mod.rs`).
    family Mobility;

    channel Linear, row Mobility, range -300..=300;
    /// Knight mobility by the number of squares of its mobility area it attacks (`n0` ..= `n8`):
    /// not attacked by an enemy pawn, not the own king, not an own blocked pawn.
    MOBILITY_KNIGHT[Grid(&[KNIGHT_COUNTS])] = [
        S(-31, -114), S(-4, -33), S(13, 0), S(22, 29), S(33, 34), S(39, 50), S(48, 53), S(55, 57),
        S(64, 49),
    ];
    /// Bishop mobility by count (`n0` ..= `n13`), seeing through its own bishops and queens.
    MOBILITY_BISHOP[Grid(&[BISHOP_COUNTS])] = [
        S(-17, -41), S(2, -22), S(18, 12), S(28, 31), S(35, 38), S(41, 57), S(44, 62), S(47, 65),
        S(46, 72), S(48, 73), S(45, 79), S(61, 70), S(92, 65), S(89, 58),
    ];
    /// Rook mobility by count (`n0` ..= `n14`), seeing through its own rooks and queens.
    MOBILITY_ROOK[Grid(&[ROOK_COUNTS])] = [
        S(-63, -83), S(-2, -43), S(24, -26), S(30, 14), S(34, 27), S(36, 45), S(36, 52), S(41, 55),
        S(44, 57), S(49, 59), S(56, 63), S(57, 68), S(66, 71), S(62, 73), S(69, 64),
    ];
    /// Queen mobility by count (`n0` ..= `n27`).
    MOBILITY_QUEEN[Grid(&[MOBILITY_COUNTS])] = [
        S(-120, -120), S(61, -218), S(-19, -167), S(7, -93), S(12, -19), S(17, 35), S(19, 46), S(20, 74),
        S(22, 74), S(23, 94), S(25, 114), S(27, 123), S(29, 126), S(30, 135), S(31, 147), S(31, 139),
        S(28, 147), S(31, 135), S(26, 157), S(53, 118), S(35, 133), S(56, 98), S(44, 115), S(49, 108),
        S(61, 80), S(21, 155), S(104, 78), S(65, 87),
    ];
}

/// The entry of a piece kind's mobility table (knight, bishop, rook or queen) for `count`
/// squares.
#[inline(always)]
const fn entry(role: Role, count: usize) -> Slot<Linear> {
    match role {
        Role::Knight => MOBILITY_KNIGHT.at(count),
        Role::Bishop => MOBILITY_BISHOP.at(count),
        Role::Rook => MOBILITY_ROOK.at(count),
        _ => MOBILITY_QUEEN.at(count),
    }
}

/// Scores the mobility of `color`'s `role` on `sq`, whose real attacks are `reach`; returns how
/// many squares of its mobility area the real attacks reach (piece lines ask it of rooks).
#[inline(always)]
pub fn score<T: Tracer>(
    board: &Board,
    info: &Info,
    color: Color,
    role: Role,
    sq: Square,
    reach: Bitboard,
    acc: &mut Acc<'_, T>,
) -> usize {
    let area = *info.mobility_area.get(color);
    let seen = x_ray(board, color, role, sq, reach);
    let real = (reach & area).count();
    // Usually nothing is seen through: then the real count is the mobility count.
    let count = if seen == reach {
        real
    } else {
        (seen & area).count()
    };
    acc.add(color, entry(role, count), 1);
    real
}

/// What a `color` `role` on `sq` with real attacks `reach` sees for mobility: for a bishop
/// (rook), its attacks with `color`'s bishops (rooks) and queens taken off the board; for a
/// knight or queen, `reach`.
///
/// ```
/// use minkowski_core::eval::mobility::x_ray;
/// use shakmaty::{Bitboard, CastlingMode, Chess, Color, Position, Role, Square, attacks, fen::Fen};
/// // The c1 bishop behind its queen on d2 sees e3 .. h6 as well.
/// let pos: Chess = "4k3/8/8/8/8/8/3Q4/2B1K3 w - - 0 1".parse::<Fen>().unwrap()
///     .into_position(CastlingMode::Standard).unwrap();
/// let reach = attacks::bishop_attacks(Square::C1, pos.board().occupied());
/// let seen = x_ray(pos.board(), Color::White, Role::Bishop, Square::C1, reach);
/// assert!(!reach.contains(Square::H6) && seen.contains(Square::H6));
/// ```
#[inline(always)]
#[must_use]
pub fn x_ray(board: &Board, color: Color, role: Role, sq: Square, reach: Bitboard) -> Bitboard {
    let alike = match role {
        Role::Bishop => board.bishops(),
        Role::Rook => board.rooks(),
        _ => return reach,
    };
    let through = (alike | board.queens()) & board.by_color(color);
    // Usually nothing of the kind stands in the way: then the real attacks are the answer.
    if (reach & through).is_empty() {
        return reach;
    }
    let occupied = board.occupied() & !through;
    if role == Role::Bishop {
        attacks::bishop_attacks(sq, occupied)
    } else {
        attacks::rook_attacks(sq, occupied)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::trace::CountingTracer;
    use crate::eval::weights::Family;
    use crate::eval::weights::Weight;
    use crate::eval::{Evaluator, threats};
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

    /// `color`'s counts of the mobility table `field` in the full evaluation of `fen`.
    fn table<C, const N: usize, F: Family>(
        fen: &str,
        color: Color,
        field: Weight<C, N, F>,
    ) -> Vec<i32> {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let mut tracer = CountingTracer::default();
        let _ = Evaluator::default().evaluate_with(pos.board(), pos.turn(), &mut tracer);
        tracer.main[usize::from(color == Color::Black)][field.indices()].to_vec()
    }

    /// The one entry used `count` times, or panics.
    fn only(counts: &[i32]) -> (usize, i32) {
        let used: Vec<(usize, i32)> = counts
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n != 0)
            .map(|(i, &n)| (i, n))
            .collect();
        assert_eq!(used.len(), 1, "{counts:?}");
        used[0]
    }

    #[test]
    fn tables_have_one_entry_per_possible_count() {
        let w = crate::eval::weights::Weights::default();
        let lens = [
            w.pairs(MOBILITY_KNIGHT).len(),
            w.pairs(MOBILITY_BISHOP).len(),
            w.pairs(MOBILITY_ROOK).len(),
            w.pairs(MOBILITY_QUEEN).len(),
        ];
        assert_eq!(lens, [9, 14, 15, 28]);
        // The most a piece can reach on an empty board is the last entry.
        let most = |f: fn(Square) -> Bitboard| Square::ALL.iter().map(|&s| f(s).count()).max();
        assert_eq!(most(attacks::knight_attacks), Some(8));
        assert_eq!(
            most(|s| attacks::bishop_attacks(s, Bitboard::EMPTY)),
            Some(13)
        );
        assert_eq!(
            most(|s| attacks::rook_attacks(s, Bitboard::EMPTY)),
            Some(14)
        );
        assert_eq!(
            most(|s| attacks::queen_attacks(s, Bitboard::EMPTY)),
            Some(27)
        );
    }

    #[test]
    fn a_piece_scores_the_entry_of_its_count() {
        // Knight a1: b3 and c2. Each piece once, at its count.
        let c = table(
            "4k3/8/8/8/8/8/8/N3K3 w - - 0 1",
            Color::White,
            MOBILITY_KNIGHT,
        );
        assert_eq!(only(&c), (2, 1));
        // Two knights with 8 and 2 squares: two entries.
        let c = table(
            "4k3/8/8/8/3N4/8/8/N3K3 w - - 0 1",
            Color::White,
            MOBILITY_KNIGHT,
        );
        assert_eq!((c[8], c[2], c.iter().sum::<i32>()), (1, 1, 2));
        // A queen in the middle of an empty board: 27, minus nothing.
        let c = table(
            "k7/8/8/8/3Q4/8/8/7K w - - 0 1",
            Color::White,
            MOBILITY_QUEEN,
        );
        assert_eq!(only(&c), (27, 1));
        // No rook: the table is silent.
        let c = table("k7/8/8/8/3Q4/8/8/7K w - - 0 1", Color::White, MOBILITY_ROOK);
        assert!(c.iter().all(|&n| n == 0));
    }

    #[test]
    fn squares_attacked_by_enemy_pawns_do_not_count() {
        // Knight d4; the black pawns on c6 and e6 guard b5, d5, d5, f5: b5 and f5 are lost.
        let c = table(
            "4k3/8/2p1p3/8/3N4/8/8/4K3 w - - 0 1",
            Color::White,
            MOBILITY_KNIGHT,
        );
        assert_eq!(only(&c), (6, 1));
    }

    #[test]
    fn bishops_and_rooks_see_through_their_own_kind_and_queens() {
        // Bishop c1 behind the queen on d2: d2 e3 f4 g5 h6 and b2 a3.
        let fen = "4k3/8/8/8/8/8/3Q4/2B1K3 w - - 0 1";
        assert_eq!(only(&table(fen, Color::White, MOBILITY_BISHOP)), (7, 1));
        // Behind a knight instead: d2 and b2 a3 only.
        let fen = "4k3/8/8/8/8/8/3N4/2B1K3 w - - 0 1";
        assert_eq!(only(&table(fen, Color::White, MOBILITY_BISHOP)), (3, 1));
        // Doubled rooks on the a-file see the whole file and their ranks; the queen behind a
        // bishop sees nothing through it.
        let fen = "4k3/8/8/8/8/8/R7/R3K3 w - - 0 1";
        let c = table(fen, Color::White, MOBILITY_ROOK);
        // a1: a2..a8 (7) + b1 c1 d1 (3) = 10; a2: a1, a3..a8 (7) + b2..h2 (7) = 14.
        assert_eq!((c[10], c[14], c.iter().sum::<i32>()), (1, 1, 2));
        let fen = "4k3/8/8/8/8/8/1B6/Q3K3 w - - 0 1";
        let c = table(fen, Color::White, MOBILITY_QUEEN);
        // a1: b1 c1 d1, a2..a8 (7), b2 (the bishop): 11.
        assert_eq!(only(&c), (11, 1));
    }

    #[test]
    fn the_attack_maps_stay_the_real_attacks() {
        // The queen on d2 attacks the knight on h6; the bishop behind it sees h6 for mobility
        // only: the threat terms read the real attacks, so no minor attacks the knight.
        let fen = "4k3/8/7n/8/8/8/3Q4/2B1K3 w - - 0 1";
        let black = |field| table(fen, Color::Black, field)[0];
        assert_eq!(black(threats::THREAT_MINOR_BY_MINOR), 0);
        assert_eq!(black(threats::THREAT_MINOR_BY_MAJOR), 1);
        assert_eq!(only(&table(fen, Color::White, MOBILITY_BISHOP)), (7, 1));
    }
}
